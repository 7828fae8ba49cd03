"""Dalek Dice turn rules a person can remember (solver/games/dalek/rulefamilies.py, `dalek rules`,
`dalek card`).

- "keep the Daleks, stop at T" is the size-1 member of the families: the same policy as
  `policies.keep_daleks`.
- Rules of every family, on 3 and 4 dice, have the exact score distribution an independent brute
  force over ordered rolls gives (tests/games/dalek/dalek_bruteforce.py's rules, the rule applied
  as the module's docstring words it, written here again).
- Every frontier rule is worth at most optimal play (the brute force's optimum on 3 dice); the
  frontier never gets worse with size; the search is deterministic (same JSON twice).
- The card's figures are recomputed here by the exact evaluator; the 10-dice card's rule (as
  printed on docs/cards/dalek-turn.png) is worth what the card says and a seeded simulation of
  it lands in the confidence interval of its exact value.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from dalek_bruteforce import BruteForce
from helpers import invoke
from intervals import Z, inside

from solver.dice import generator
from solver.games.dalek import policies as dp
from solver.games.dalek import rulefamilies as rf
from solver.games.dalek.simulator import dalek_turns

DEFAULT = "H4 H2 D3 D2 DOC EXT"
SMALL = [(DEFAULT, 3, "ge"), ("H3 H1 D4 D1 DOC:2 EXT", 3, "gt"), ("H4:2 H2 D3 D2 DOC EXT", 4, "ge")]
# the rule printed on docs/cards/dalek-turn.png (dice-solver dalek card), and its figures there
CARD_RULE = rf.TurnRule(stop=12, grab=1, hunt=0, doctor_stop=8)
CARD_POINTS, CARD_P_ZERO = "12.69", "49%"



def brute_rule(faces: str, tie_rule: str, rule: rf.TurnRule, dice: int) -> dict[int, Fraction]:
    """The exact score distribution of a remembered rule by brute force over ordered rolls.
    After the roll's Doctor and Exterminate are set aside: on the third Exterminate with grab,
    keep every Human and Dalek; else, hunting (Exterminates kept >= Doctors kept + hunt), keep
    every Human of the highest value and no Dalek, or else keep every Dalek; then each other
    Human, highest first, if the Daleks still hold with it; nothing kept and nothing set aside:
    one lowest Dalek, else one lowest Human. Stop once the Humans reach the threshold (the
    lowest of stop, doctor_stop with two Doctors, late_stop with late_dice or fewer dice left)
    and the Daleks hold."""
    bf = BruteForce(faces, tie_rule)
    top = max(int(f[1:]) for f in bf.faces if bf.kind(f) == "human")

    def choose(state, outcome):
        subsets = bf.keeps(state, outcome)
        if subsets is None:  # the third Doctor
            return None
        kinds = [bf.kind(f) for f in outcome]
        doctors = state[3] + ("doctor" in kinds)
        exterminates = state[4] + ("exterminate" in kinds)
        valued = [f for f, k in zip(outcome, kinds) if k in ("human", "dalek")]
        if rule.grab and exterminates >= 3:
            wanted = valued
        else:
            hunting = exterminates - doctors >= rule.hunt
            humans = [f for f in valued if bf.kind(f) == "human"]
            if hunting:
                wanted = [f for f in humans if int(f[1:]) == top]
                daleks = state[2]
            else:
                wanted = [f for f in valued if bf.kind(f) == "dalek"]
                daleks = state[2] + sum(int(f[1:]) for f in wanted)
            held = state[1] + sum(int(f[1:]) for f in wanted if bf.kind(f) == "human")
            rest = list(humans)
            for f in wanted:
                if f in rest:
                    rest.remove(f)
            for face in sorted(rest, key=lambda f: -int(f[1:])):
                if bf.daleks_hold(held + int(face[1:]), daleks):
                    wanted.append(face)
                    held += int(face[1:])
            if not wanted and not {"doctor", "exterminate"} & set(kinds):
                lowest = sorted(valued, key=lambda f: (bf.kind(f) != "dalek", int(f[1:])))
                wanted = lowest[:1]
        return next(after for chosen, after in subsets
                    if sorted(outcome[i] for i in chosen) == sorted(wanted))

    def threshold(after) -> int:
        stop = rule.stop
        if rule.doctor_stop is not None and after[3] >= 2:
            stop = min(stop, rule.doctor_stop)
        if rule.late_stop is not None and after[0] <= rule.late_dice:
            stop = min(stop, rule.late_stop)
        return stop

    return bf.rule_distribution(choose, lambda after: after[1] >= threshold(after), dice)


@pytest.mark.parametrize("game", SMALL)
def test_keep_the_daleks_is_the_size_one_member(game, pairs_of) -> None:
    pairs = pairs_of(*game)
    book = rf.Rulebook(pairs)
    for t in (0, 4, 9):
        mine, theirs = book.policy(rf.TurnRule(t)), dp.keep_daleks(pairs, t)
        assert np.array_equal(mine.keep, theirs.keep) and np.array_equal(mine.then, theirs.then)


RULES = [rf.TurnRule(4), rf.TurnRule(8), rf.TurnRule(6, grab=1),
         rf.TurnRule(40, grab=1, hunt=0), rf.TurnRule(6, hunt=1),
         rf.TurnRule(8, grab=1, hunt=-1, doctor_stop=2),
         rf.TurnRule(12, grab=1, hunt=0, late_dice=2, late_stop=4, doctor_stop=6)]


@pytest.mark.parametrize("game", SMALL)
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_rules_match_the_brute_force(game, rule: rf.TurnRule, pairs_of) -> None:
    faces, dice, tie_rule = game
    exact = dp.distribution(rf.Rulebook(pairs_of(*game)).policy(rule))
    assert {s: p for s, p in enumerate(exact) if p} == brute_rule(faces, tie_rule, rule, dice)


@pytest.mark.parametrize("game", SMALL[:2])
def test_the_frontier_is_below_optimal_play_and_improves_with_size(game, pairs_of) -> None:
    faces, dice, tie_rule = game
    pairs = pairs_of(*game)
    rows = rf.learn(pairs)
    best = BruteForce(faces, tie_rule).start(dice)  # optimal play, independently
    book = rf.Rulebook(pairs)
    for previous, row in zip([None, *rows], rows):
        points, p_zero = book.worth(row.rule)
        assert (row.points, row.p_zero) == (points, p_zero)
        assert points <= best and row.loss == best - points
        assert previous is None or (row.size > previous.size and points > previous.points)
    assert rows[0].size == 1 and set(rows[0].rule.numbers) == {"stop"}


def test_the_search_is_deterministic(tmp_path, monkeypatch) -> None:
    """Two searches, each with an empty cache of its own, print the same frontier."""
    outputs = []
    for run in ("a", "b"):
        monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path / run))
        data = invoke("dalek", "rules", "--dice", "3", "--json")
        assert data.pop("timings")["cached"] is False
        outputs.append(data)
    assert outputs[0] == outputs[1]


def test_the_card_states_its_rules_exact_worth(tmp_path, monkeypatch, pairs_of) -> None:
    """`dalek card --dice 4`: the figures it prints, recomputed from its rule's numbers."""
    out = tmp_path / "card.png"
    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path / "cache"))
    data = invoke("dalek", "card", "--dice", "4", "--out", str(out), "--json")
    assert out.read_bytes().startswith(b"\x89PNG")
    pairs = pairs_of(DEFAULT, 4, "ge")
    exact = dp.distribution(rf.Rulebook(pairs).policy(rf.TurnRule(**data["numbers"])))
    points = sum((s * p for s, p in enumerate(exact)), Fraction(0))
    best = BruteForce(DEFAULT, "ge").start(4)
    assert Fraction(data["expected_points_exact"]) == points
    assert Fraction(data["loss_exact"]) == best - points > 0
    assert Fraction(data["p_zero_exact"]) == exact[0]
    assert f"{float(best - points):.2f} points per turn" in data["cost"]
    assert f"nothing {100 * float(exact[0]):.0f}%" in data["cost"]


def test_the_printed_card_rule(pairs_of) -> None:
    """The 10-dice card's rule: its printed figures by the exact evaluator, below optimal play
    (14.8825..., docs/results.md), and a seeded simulation inside its interval."""
    pairs = pairs_of(DEFAULT, 10, "ge")
    policy = rf.Rulebook(pairs).policy(CARD_RULE)
    exact = dp.distribution(policy)
    points = sum((s * p for s, p in enumerate(exact)), Fraction(0))
    assert f"{float(points):.2f}" == CARD_POINTS and f"{100 * float(exact[0]):.0f}%" == CARD_P_ZERO
    assert points < Fraction("14.8825")
    z, p_value = inside(dalek_turns(policy, 200_000, generator(7)), exact)
    assert abs(z) < Z and p_value > 0.001

