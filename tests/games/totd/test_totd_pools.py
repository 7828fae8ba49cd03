"""Building the pool and splitting it for help, against enumerations over physical dice.

The enumerations here label every die, try every Focus choice in order and every subset of dice to
discard (or every assignment of each die to the helped Doctor, the helper or the discard pile),
and keep the results of largest size: the rules' own wording, with none of the count arithmetic
of pools.py. The help report is checked against the brute force of totd_bruteforce.py.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from totd_bruteforce import BruteForce

from solver.games.totd import report as totd_report
from solver.games.totd import rules
from solver.games.totd.pools import builds, splits
from solver.games.totd.rules import (
    Adventure,
    Doctor,
    load_game,
    make_tools,
    parse_challenge,
    parse_focus,
    parse_pool,
)

GAME = load_game()


def counts(dice: list[str]) -> tuple[int, ...]:
    return tuple(dice.count(c) for c in GAME.colours)


def physical_builds(added: str, focuses: list[str], daleks: int) -> set[tuple[int, ...]]:
    start = [c for c, n in zip(GAME.colours, parse_pool(GAME, added)) for _ in range(n)]
    pools = set()
    for picks in product(*([None, *f.split("/")] for f in focuses)):
        dice = list(start)
        legal = True
        for colour in picks:
            if colour is None:
                continue
            supply = GAME.supply[GAME.colours.index(colour)]
            if "black" not in dice or dice.count(colour) >= supply:
                legal = False
                break
            dice.remove("black")
            dice.append(colour)
        if not legal:
            continue
        size = max(0, min(len(dice), 8) - daleks)
        for mask in product((0, 1), repeat=len(dice)):
            if sum(mask) == size:
                pools.add(counts([d for d, keep in zip(dice, mask) if keep]))
    return pools


@pytest.mark.parametrize("added, focuses, daleks", [
    ("black=6 blue=1", ["blue", "green/blue"], 1),
    ("black=8 red=2", ["red", "red", "green/blue"], 0),
    ("black=2 green=3", ["green", "green/red"], 2),
    ("black=4", [], 0),
    ("black=3 blue=3 red=3", ["blue/red", "green"], 3),
])
def test_builds_are_every_pool_the_rules_allow(added: str, focuses: list[str],
                                               daleks: int) -> None:
    found = builds(GAME, parse_pool(GAME, added), tuple(parse_focus(GAME, f) for f in focuses),
                   daleks)
    assert {b.pool for b in found} == physical_builds(added, focuses, daleks)
    assert len({b.pool for b in found}) == len(found)
    start = parse_pool(GAME, added)
    for b in found:  # the way given does lead to the pool
        swapped = [n + b.swaps.count(c) - (c == GAME.black) * len(b.swaps)
                   for c, n in enumerate(start)]
        assert tuple(n - d for n, d in zip(swapped, b.discarded)) == b.pool


def physical_splits(pool: str, helped: int, helper: int, daleks: int) -> set:
    dice = [c for c, n in zip(GAME.colours, parse_pool(GAME, pool)) for _ in range(n)]
    found, best = set(), -1
    for where in product(("helped", "helper", "out"), repeat=len(dice)):
        mine = [d for d, w in zip(dice, where) if w == "helped"]
        theirs = [d for d, w in zip(dice, where) if w == "helper"]
        if len(mine) > helped or len(theirs) > helper or \
                len(mine) + len(theirs) > len(dice) - daleks:
            continue
        size = len(mine) + len(theirs)
        if size > best:
            found, best = set(), size
        if size == best:
            found.add((counts(mine), counts(theirs)))
    return found


@pytest.mark.parametrize("pool, helped, helper, daleks", [
    ("black=5 blue=2 red=1", 5, 3, 0),
    ("black=5 blue=2 red=1", 7, 1, 1),
    ("black=3 green=1 blue=1", 4, 3, 0),
    ("black=2 red=2", 8, 0, 1),
])
def test_splits_are_every_split_the_rules_allow(pool: str, helped: int, helper: int,
                                                daleks: int) -> None:
    found = splits(parse_pool(GAME, pool), helped, helper, daleks)
    assert set(found) == physical_splits(pool, helped, helper, daleks)
    assert len(set(found)) == len(found)


def test_help_report_is_the_best_split_by_brute_force(monkeypatch) -> None:
    """Tiny limits so that the brute force can play every split: alone 2 dice, help from afar
    1 + 1, help at the location 1 + 2."""
    monkeypatch.setattr(rules, "POOL_LIMIT", 2)
    monkeypatch.setattr(rules, "HELP_SIZES", {"afar": (1, 1), "location": (1, 2)})
    need, me, helper = "Science, Cunning", (2, ("1 black",), ()), (0, ("all blue",), ())
    pool = parse_pool(GAME, "black=2 blue=1")
    adventure = Adventure(GAME, parse_challenge(GAME, need),
                          (Doctor(pool, make_tools(GAME, *me)),))
    report = totd_report.call_for_help(adventure, make_tools(GAME, *helper), False, 0, False,
                                       exact=True)
    for scenario, (helped, helping) in zip(report["scenarios"], [(2, 0), (1, 1), (1, 2)]):
        best = Fraction(0)
        for mine, theirs in splits(pool, helped, helping, 0):
            doctors = [(dict(zip(GAME.colours, mine)), *me)]
            doctors += [(dict(zip(GAME.colours, theirs)), *helper)] if helping else []
            best = max(best, BruteForce(need, doctors).start())
        assert Fraction(scenario["p_success_exact"]) == best, scenario
