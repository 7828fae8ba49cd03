"""Time of the Daleks: properties any right answer has, checked on many Adventures.

- More tools, or one more die, never lower the probability (a tool or a die may go unused).
- The stop test (min-cut inequalities over all positions at once) agrees with networkx's max-flow
  on the same positions, and the changes max-flow proposes do meet the Challenge when applied.
- Bellman: every option `best-move` lists is worth the average, over the rolls of the dice it
  re-rolls (solver.dice.roll, not the solver's keep recursion), of the value of the position it
  leads to with the tools then left; stopping is worth 1 exactly when the listed changes meet
  the Challenge.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.dice import roll
from solver.games.totd import report as totd_report
from solver.games.totd.changes import change_networks, success_grid, witness
from solver.games.totd.files import load_game
from solver.games.totd.model import Solver
from solver.games.totd.rules import Adventure, Doctor, Tools
from solver.games.totd.typed import make_tools, parse_challenge, parse_pool, parse_showing

GAME = load_game()
REROLLS = ("1 black", "2 black", "any black", "all black", "1 green", "any blue", "all red",
           "2 red")
CHANGES = ("black:Science", "green:Diplomacy", "blue:Cunning", "red:Tactics", "red:Strength")


@st.composite
def adventures(draw) -> Adventure:
    """Small random Adventures (up to 4 dice, up to 4 symbols) so that exact solves are quick."""
    symbols = draw(st.lists(st.sampled_from(GAME.symbols), min_size=1, max_size=4))
    pool = [0] * len(GAME.colours)
    for _ in range(draw(st.integers(1, 4))):
        pool[draw(st.integers(0, len(GAME.colours) - 1))] += 1
    pool = tuple(min(n, 3) for n in pool)
    tools = make_tools(GAME, draw(st.integers(0, 5)),
                       tuple(draw(st.lists(st.sampled_from(REROLLS), max_size=2))),
                       tuple(draw(st.lists(st.sampled_from(CHANGES), max_size=1))))
    return Adventure(GAME, parse_challenge(GAME, ", ".join(symbols)), (Doctor(pool, tools),))


def solo(adventure: Adventure, pool=None, tools: Tools | None = None) -> Adventure:
    doctor = adventure.doctors[0]
    return adventure.with_doctors((Doctor(pool or doctor.pool, tools or doctor.tools),))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(adventures(), st.data())
def test_more_tools_never_lower_the_probability(adventure: Adventure, data) -> None:
    tools = adventure.doctors[0].tools
    more = [replace(tools, rerolls=tools.rerolls + make_tools(
                GAME, 0, (data.draw(st.sampled_from(REROLLS)),)).rerolls),
            replace(tools, changes=tools.changes + make_tools(
                GAME, 0, (), (data.draw(st.sampled_from(CHANGES)),)).changes)]
    if tools.sonic < 5:
        more.append(replace(tools, sonic=tools.sonic + 1))
    base = Solver(adventure, exact=True).p_success()
    for richer in more:
        assert Solver(solo(adventure, tools=richer), exact=True).p_success() >= base, richer


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(adventures(), st.integers(0, len(GAME.colours) - 1))
def test_one_more_die_never_lowers_the_probability(adventure: Adventure, colour: int) -> None:
    pool = adventure.doctors[0].pool
    if pool[colour] >= GAME.supply[colour]:
        return
    bigger = tuple(n + (c == colour) for c, n in enumerate(pool))
    assert Solver(solo(adventure, pool=bigger), exact=True).p_success() >= \
        Solver(adventure, exact=True).p_success()


def _met(faces: list[str], need: tuple[int, ...]) -> bool:
    return all(faces.count(s) >= n for s, n in zip(GAME.symbols, need))


@pytest.mark.parametrize("printed", [False, True])
@pytest.mark.parametrize("need, pools, shared, sonic", [
    ("Science x2, Cunning, Tactics", ("black=3 blue=2 red=1",), ("red:Tactics",), (3,)),
    ("Running, Diplomacy x2, Science", ("black=2 green=2 blue=1",),
     ("green:Diplomacy", "blue:Science", "black:Running"), (2,)),
    ("Strength, Tactics, Cunning", ("black=1 red=2", "blue=1 green=1"), ("green:Tactics",),
     (3, 2)),
])
def test_stop_test_agrees_with_networkx(need: str, pools: tuple[str, ...],
                                        shared: tuple[str, ...], sonic: tuple[int, ...],
                                        printed: bool) -> None:
    doctors = tuple(Doctor(parse_pool(GAME, p), Tools(s)) for p, s in zip(pools, sonic))
    adventure = Adventure(GAME, parse_challenge(GAME, need), doctors,
                          make_tools(GAME, 0, (), shared), printed)
    solver = Solver(adventure)
    keeps = [solver.keeps(solver.start, g) for g in range(len(solver.groups))]
    networks = change_networks(adventure, solver.groups, [s // 3 for s in sonic])
    grid = success_grid([k.counts for k in keeps], solver.groups, adventure.need, networks)
    positions = list(np.ndindex(grid.shape))
    sample = random.Random(5).sample(positions, min(400, len(positions)))
    assert grid.any() and not grid.all()
    for state in sample:
        counts = [k.vectors[s] for k, s in zip(keeps, state)]
        rewrites = witness(counts, solver.groups, adventure.need, networks)
        assert (rewrites is not None) == grid[state], state
        if rewrites is None:
            continue
        faces = [("?" if s is None else GAME.symbols[s])
                 for g, c in enumerate(counts) for s, n in zip(solver.groups[g].die.symbols, c)
                 for _ in range(n)]
        for r in rewrites:  # a die of the group showing that reduced face is rewritten
            symbol = solver.groups[r.group].die.symbols[r.face]
            faces.remove("?" if symbol is None else GAME.symbols[symbol])
            faces.append(GAME.symbols[r.symbol])
        assert _met(faces, adventure.need)


BELLMAN = [
    ("Science x2, Tactics", "black=3 blue=1 red=1", 4, ("2 black", "all blue"), ("red:Tactics",),
     ["black:Science black:Running black:Strength blue:Cunning red:Strength",
      "black:Tactics black:Tactics black:Science blue:Science red:Science"]),
    ("Running, Diplomacy, Cunning", "black=2 green=2", 2, ("any green",), (),
     ["black:Running black:Strength green:Tactics green:Running",
      "black:Diplomacy black:Cunning green:Running green:Running"]),
]


def _tools_after(tools: Tools, row: dict) -> Tools:
    if row["action"] == "Sonic re-roll":
        return replace(tools, sonic=tools.sonic - 2)
    if row["action"] == "re-roll icon":
        icon = make_tools(GAME, 0, (row["tool"],)).rerolls[0]
        rerolls = list(tools.rerolls)
        rerolls.remove(icon)
        return replace(tools, rerolls=tuple(rerolls))
    return tools


@pytest.mark.parametrize("need, pool, sonic, rerolls, changes, positions", BELLMAN)
def test_best_move_options_satisfy_bellman(need, pool, sonic, rerolls, changes,
                                           positions) -> None:
    tools = make_tools(GAME, sonic, rerolls, changes)
    for text in positions:
        _, counts = parse_showing(GAME, text)
        adventure = Adventure(GAME, parse_challenge(GAME, need), (Doctor(parse_pool(GAME, pool),
                                                                         tools),))
        report = totd_report.best_move(adventure, (counts,), exact=True)
        assert report["p_success_exact"] == report["options"][0]["p_success_exact"]
        for row in report["options"]:
            value = Fraction(row["p_success_exact"])
            if row["action"] == "stop":
                faces = text.split()
                for change in row["changes"]:
                    old, new = change.split(" ")[0].split("->")
                    faces.remove(old)
                    faces.append(f"{old.split(':')[0]}:{new}")
                met = report["met_on_stopping"] and _met([f.split(":")[1] for f in faces],
                                                         adventure.need)
                assert value == int(met) and row["dice"] == []
                continue
            rerolled, kept = row["dice"], text.split()
            for die in rerolled:
                kept.remove(die)
            if row["action"] == "discard a Black die":  # every die but one Black die
                assert len(kept) == 1 and kept[0].startswith("black:")
                kept = []
            after = _tools_after(tools, row)
            assert value == expected_after_reroll(adventure, kept, rerolled, after), row


def expected_after_reroll(adventure: Adventure, kept: list[str], rerolled: list[str],
                          tools: Tools) -> Fraction:
    """The average value, over every roll of the re-rolled dice, of the position reached."""
    colours = sorted({d.split(":")[0] for d in rerolled})
    pool, _ = parse_showing(GAME, " ".join(kept + rerolled))
    solver = Solver(adventure.with_doctors((Doctor(pool, tools),)), exact=True)
    outcomes: list[tuple[list[str], Fraction]] = [([], Fraction(1))]
    for colour in colours:
        die = GAME.dice[GAME.colours.index(colour)]
        n = sum(d.startswith(colour + ":") for d in rerolled)
        outcomes = [(faces + [f"{colour}:{f}" for f, k in zip(die.faces, c) for _ in range(k)],
                     p * q) for faces, p in outcomes for c, q in roll(die, n)]
    total = Fraction(0)
    for faces, p in outcomes:
        _, counts = parse_showing(GAME, " ".join(kept + faces))
        total += p * solver.value_at(solver.position((counts,)))
    return total


@pytest.mark.parametrize("pool, rerolls", [
    ("black=8", ("2 black", "any black", "all black")),
    ("black=3 green=2 blue=2 red=1", ("2 black", "any blue", "all red")),
])
def test_float_and_exact_agree_on_eight_dice(pool: str, rerolls: tuple[str, ...]) -> None:
    """Exact values switch from int64 to Python integers as denominators grow; a wrap-around
    would show as a gap to the float solve."""
    adventure = Adventure(GAME, parse_challenge(
        GAME, "Running, Diplomacy, Science, Cunning, Tactics, Strength"), (Doctor(
            parse_pool(GAME, pool), make_tools(GAME, 5, rerolls, ("green:Diplomacy",))),))
    exact = Solver(adventure, exact=True)
    assert float(exact.p_success()) == pytest.approx(Solver(adventure).p_success(), rel=1e-12)
    assert any(den > 2 ** 63 for _, den in exact._values.values())
