"""Building the pool and splitting it for help, against enumerations over physical dice.

The enumerations here label every die, try every Focus choice in order and every subset of dice to
discard (or every assignment of each die to the helped Doctor, the helper or the discard pile, or
with the helper's own dice each Doctor's subsets), and keep the results of largest size: the
rules' own wording, with none of the count arithmetic of pools.py. The help report, under every
reading of reading 6, is checked against the brute force of totd_bruteforce.py.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from totd_bruteforce import best_help

from solver.games.totd import report as totd_report
from solver.games.totd import rules
from solver.games.totd.files import load_game
from solver.games.totd.pools import builds, own_pools, splits
from solver.games.totd.rules import Adventure, Doctor
from solver.games.totd.typed import (
    make_tools,
    parse_challenge,
    parse_focus,
    parse_focuses,
    parse_pool,
)

GAME = load_game()


def counts(dice: list[str]) -> tuple[int, ...]:
    return tuple(dice.count(c) for c in GAME.colours)


def physical_builds(added: str, focuses: list[str], daleks: int, limit: int = 8
                    ) -> set[tuple[int, ...]]:
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
        size = max(0, min(len(dice), limit) - daleks)
        for mask in product((0, 1), repeat=len(dice)):
            if sum(mask) == size:
                pools.add(counts([d for d, keep in zip(dice, mask) if keep]))
    return pools


@pytest.mark.parametrize("added, focuses, daleks, limit", [
    ("black=6 blue=1", ["blue", "green/blue"], 1, 8),
    ("black=8 red=2", ["red", "red", "green/blue"], 0, 8),
    ("black=2 green=3", ["green", "green/red"], 2, 8),
    ("black=4", [], 0, 8),
    ("black=3 blue=3 red=3", ["blue/red", "green"], 3, 8),
    ("black=8 red=2", ["red", "green/blue"], 0, 7),  # Time-Breach, --breach-alone 7
    ("black=6 blue=2", ["blue"], 1, 7),
])
def test_builds_are_every_pool_the_rules_allow(added: str, focuses: list[str], daleks: int,
                                               limit: int) -> None:
    found = builds(GAME, parse_pool(GAME, added), tuple(parse_focus(GAME, f) for f in focuses),
                   daleks, limit)
    assert {b.pool for b in found} == physical_builds(added, focuses, daleks, limit)
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


def physical_own(helped: str, helper: str, focuses: list[str], helped_limit: int,
                 helper_limit: int, daleks: int) -> set:
    """--helper-dice own on labelled dice: the helper's Focus icons used or not, each Doctor
    keeping a subset within their limit, the two within the supply, that no discarded die could
    join; then every Dalek on either pool."""
    mine = [c for c, n in zip(GAME.colours, parse_pool(GAME, helped)) for _ in range(n)]
    found = set()
    for theirs in helper_focused(mine, helper, focuses):
        labelled = [(0, d) for d in mine] + [(1, d) for d in theirs]
        for kept in subsets_within(labelled, (helped_limit, helper_limit)):
            if any(within([*kept, die], (helped_limit, helper_limit))
                   for die in labelled if labelled.count(die) > kept.count(die)):
                continue
            for left in subsets(kept, max(0, len(kept) - daleks)):
                found.add((counts([d for h, d in left if h == 0]),
                           counts([d for h, d in left if h == 1])))
    return found


def within(dice: list[tuple[int, str]], limits: tuple[int, int]) -> bool:
    """Each Doctor's dice within their limit, both Doctors' within the supply."""
    return all(sum(h == k for h, _ in dice) <= limit for k, limit in enumerate(limits)) and \
        all(sum(d == c for _, d in dice) <= n for c, n in zip(GAME.colours, GAME.supply))


def subsets_within(dice: list[tuple[int, str]], limits: tuple[int, int]) -> list[list]:
    return [s for size in range(len(dice) + 1) for s in subsets(dice, size) if within(s, limits)]


def helper_focused(mine: list[str], helper: str, focuses: list[str]) -> list[list[str]]:
    """The helper's dice after each Focus icon is used (a Black die for a die of the colour,
    while the supply has one beside both Doctors' dice) or not."""
    start = [c for c, n in zip(GAME.colours, parse_pool(GAME, helper)) for _ in range(n)]
    found = []
    for picks in product(*([None, *f.split("/")] for f in focuses)):
        theirs = list(start)
        for colour in (c for c in picks if c is not None):
            supply = GAME.supply[GAME.colours.index(colour)]
            if "black" not in theirs or mine.count(colour) + theirs.count(colour) >= supply:
                break
            theirs.remove("black")
            theirs.append(colour)
        else:
            found.append(theirs)
    return found


def subsets(items: list, size: int) -> list[list]:
    """Every subset of `size` of the (labelled) items, by position."""
    return [[x for x, k in zip(items, mask) if k] for mask in product((0, 1), repeat=len(items))
            if sum(mask) == size]


@pytest.mark.parametrize("helped, helper, focuses, helped_limit, helper_limit, daleks", [
    ("black=4 blue=1", "black=2 red=1", ["blue", "green/red"], 5, 3, 0),
    ("black=6 blue=2", "black=1", ["blue"], 7, 1, 1),
    ("black=2 blue=3", "black=2", ["blue", "blue"], 4, 3, 2),
    ("black=3 red=1", "green=2", [], 8, 0, 1),
    ("black=6 blue=2", "black=4 blue=2", ["red"], 5, 3, 1),  # past the supply together
])
def test_own_pools_are_every_pair_the_rules_allow(helped: str, helper: str, focuses: list[str],
                                                  helped_limit: int, helper_limit: int,
                                                  daleks: int) -> None:
    found = own_pools(GAME, parse_pool(GAME, helped), parse_pool(GAME, helper),
                      parse_focuses(GAME, focuses), helped_limit, helper_limit, daleks)
    assert set(found) == physical_own(helped, helper, focuses, helped_limit, helper_limit, daleks)
    assert len(set(found)) == len(found)


def test_help_pool_limits_are_the_excerpts() -> None:
    """The excerpt: alone 8; from afar the helper 1 and the helped Doctor 7, or 6 with
    Time-Breach; at the location 3 and 5, or 4. Alone under Time-Breach: 8, or 7 with the
    --breach-alone 7 reading."""
    plain = [("alone", 8, 0), ("help from afar", 7, 1), ("help at the location", 5, 3)]
    breach = [("alone", 8, 0), ("help from afar", 6, 1), ("help at the location", 4, 3)]
    assert rules.help_pools(False) == rules.help_pools(False, breach_alone=True) == plain
    assert rules.help_pools(True) == breach
    assert rules.help_pools(True, breach_alone=True) == [("alone", 7, 0), *breach[1:]]


ME = ({"black": 2, "blue": 1}, 2, ("1 black",), ())
HELPER = ({"black": 1, "red": 1}, 2, ("all blue",), ())
TINY = {"alone": 3, "afar": (2, 1), "location": (2, 2)}  # limits the brute force can play


@pytest.mark.parametrize("time_breach, breach_alone, own, focuses, sonic_either, daleks", [
    (False, False, False, (), False, 0),
    (True, False, False, (), False, 0),
    (True, True, False, (), False, 0),
    (False, False, True, ("blue",), False, 0),
    (True, True, True, ("green/blue",), True, 0),
    (False, False, True, ("green/blue",), False, 1),
    (False, False, False, (), True, 1),
])
def test_help_report_is_the_best_choice_by_brute_force(monkeypatch, time_breach: bool,
                                                       breach_alone: bool, own: bool,
                                                       focuses: tuple[str, ...],
                                                       sonic_either: bool, daleks: int) -> None:
    """Tiny limits so that the brute force can play every choice: alone 3 dice, help from afar
    2 + 1, help at the location 2 + 2 (Time-Breach: one fewer for the helped Doctor, and alone
    with the breach-alone reading). Every reading of reading 6 against totd_bruteforce.best_help,
    which hands out labelled dice itself."""
    monkeypatch.setattr(rules, "POOL_LIMIT", TINY["alone"])
    monkeypatch.setattr(rules, "HELP_SIZES", {"afar": TINY["afar"], "location": TINY["location"]})
    need = "Science, Cunning"
    helped = Doctor(parse_pool(GAME, "black=2 blue=1"), make_tools(GAME, *ME[1:]))
    helper = Doctor(parse_pool(GAME, "black=1 red=1") if own else (0,) * len(GAME.colours),
                    make_tools(GAME, *HELPER[1:]))
    adventure = Adventure(GAME, parse_challenge(GAME, need), (helped,),
                          sonic_on=rules.EITHER_POOL if sonic_either else rules.OWN_POOL)
    call = rules.Call(helper, parse_focuses(GAME, focuses), rules.OWN if own else rules.SPLIT,
                      time_breach, breach_alone, daleks=daleks)
    report = totd_report.call_for_help(adventure, call, exact=True)
    loss = 1 if time_breach else 0
    limits = [(TINY["alone"] - (loss if breach_alone else 0), 0),
              (TINY["afar"][0] - loss, TINY["afar"][1]),
              (TINY["location"][0] - loss, TINY["location"][1])]
    for scenario, pair in zip(report["scenarios"], limits):
        assert (scenario["helped_limit"], scenario["helper_limit"]) == pair
        expected = best_help(need, ME, HELPER, pair, daleks, own, focuses, sonic_either)
        assert Fraction(scenario["p_success_exact"]) == expected, scenario
