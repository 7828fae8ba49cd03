"""When to throw again in Strike, as a rule a player can learn (issue 15): the numbers of
policies.ThrowRule (the arena size from which to always throw again, the stocks that call for
throwing with fewer dice, an opponent's stock) searched with solver.rulesearch. Each rule is
valued as a fixed policy against optimal opponents (policies.StrikeDuel, solved by the engine in
floats to a residual below 1e-12: an exact rational solve of the card's game would take hours),
as the mean over the seats the rule player may sit in of its P(win); optimal play's mean is
1 / players, so a rule's loss is what it gives away to a perfect player in its seat.

The card is for the 2-player game with the 31-dice edition's 9 dice each and the default throw
model (hit 1/2, no miss): the game most people play, and one whose search takes minutes. Its
words are in rulecard.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from solver.games.strike.policies import (
    OPTIMAL,
    StrikeDuel,
    StrikePolicy,
    ThrowRule,
    solve_duel,
    win_chances,
)
from solver.games.strike.rules import NUMBERS
from solver.rulesearch import Family, Found, frontier, search

PLAYERS, DICE = 2, 9  # the card's game
SEED = 0
RESTARTS = 2  # random restarts of each ascent (each rule takes two solves)
EXHAUSTIVE = 100  # families with at most this many members are searched exhaustively
NAMES = ("arena", "stocks", "fewer", "opponent")  # ThrowRule's numbers, in family order
# `dice-solver strike rules` with an empty cache on the reference machine (2 cores shared with
# other jobs): 502 s at load 8 to 10, 1160 s (327 s of CPU) at load 12 to 15, peak 91 MB
# (docs/results.md); 900 s leaves room for a loaded machine, and a lower budget
# ($DICE_SOLVER_BUDGET) refuses it before it starts
SEARCH_SECONDS, SEARCH_BYTES = 900, 300 << 20


def families(players: int, dice: int) -> list[Family]:
    """The rules searched, by how many numbers a player remembers: the arena size alone; with
    the stocks that call for throwing one die below it; then with two dice below it, or with
    an opponent's stock. Stock totals run from 3 (2 or less: always) to every die in play but
    one; an arena size from 1 (always throw again) to 5, the most the arena holds."""
    total = players * dice
    stocks, opponent = range(3, total), range(1, total - 1)
    return [Family("arena", (range(1, NUMBERS + 1),), (2,)),
            Family("arena+stocks", (range(2, NUMBERS + 1), stocks), (2, total - 1)),
            Family("arena+stocks+fewer", (range(3, NUMBERS + 1), stocks, stocks),
                   (3, 3, total - 1)),
            Family("arena+stocks+opponent", (range(2, NUMBERS + 1), stocks, opponent),
                   (2, total - 1, 1))]


def rule_of(family: Family, numbers: tuple[int, ...]) -> ThrowRule:
    return ThrowRule(**dict(zip(family.name.split("+"), numbers)))


@cache
def seat_values(rule: ThrowRule, players: int = PLAYERS, dice: int = DICE
                ) -> tuple[float, ...]:
    """The rule player's P(win) in each seat, every other seat playing optimally."""
    values = []
    for seat in range(players):
        policies = [OPTIMAL] * players
        policies[seat] = StrikePolicy("rule", rule)
        duel = StrikeDuel(players, dice, policies=tuple(policies), outcomes=False)
        values.append(float(win_chances(duel, solve_duel(duel))[seat]))
    return tuple(values)


def value(rule: ThrowRule, players: int = PLAYERS, dice: int = DICE) -> float:
    """The rule player's P(win), the mean over its seats."""
    values = seat_values(rule, players, dice)
    return sum(values) / len(values)


@cache
def optimal_values(players: int = PLAYERS, dice: int = DICE) -> tuple[float, ...]:
    """Each seat's P(win) when every seat plays optimally (from the disk cache once solved)."""
    from solver import cache as disk

    key = {"game": "strike_optimal_seats", "players": players, "dice": dice,
           "code": disk.code_hash(__name__)}
    stored = disk.load_json(key)
    if isinstance(stored, list):
        return tuple(stored)
    duel = StrikeDuel(players, dice, outcomes=False)
    values = tuple(float(p) for p in win_chances(duel, solve_duel(duel)))
    disk.store_json(key, list(values))
    return values


@dataclass(frozen=True)
class Learned:
    """One rule of the frontier: how many numbers, the rule, its P(win) by seat and mean."""

    size: int
    rule: ThrowRule
    seats: tuple[float, ...]
    value: float

    @property
    def numbers(self) -> dict[str, int]:
        return {n: getattr(self.rule, n) for n in NAMES
                if getattr(self.rule, n) != getattr(ThrowRule(), n)}


def learn(players: int = PLAYERS, dice: int = DICE) -> list[Learned]:
    """The frontier: the best rule of each size (a larger one only if it does better)."""
    found: list[tuple[Family, Found]] = []
    for family in families(players, dice):
        found.append((family, search(family, lambda n, f=family: value(
            rule_of(f, n), players, dice), SEED, EXHAUSTIVE, RESTARTS)))
    return [_row(rule_of(family, result.numbers), family.size, players, dice)
            for family, result in frontier(found)]


def _row(rule: ThrowRule, size: int, players: int, dice: int) -> Learned:
    return Learned(size, rule, seat_values(rule, players, dice), value(rule, players, dice))


def learned() -> tuple[list[Learned], bool]:
    """The card game's frontier from the disk cache when this very code found it before,
    else searched (refused first if estimated past the time budget); and whether it came from
    the cache."""
    import numpy as np

    from solver import cache
    from solver.limits import refuse

    key = {"game": "strike_throw_rules", "players": PLAYERS, "dice": DICE, "seed": SEED,
           "code": cache.code_hash(__name__)}
    stored = cache.load(key)
    if stored is not None and "seats" in stored:  # the values too: nothing solved again
        return [Learned(size, ThrowRule(*numbers), tuple(seats), sum(seats) / len(seats))
                for numbers, size, seats in zip(stored["rules"].tolist(),
                                                stored["sizes"].tolist(),
                                                stored["seats"].tolist())], True
    if stored is None:
        refuse("the search for Strike throw rules", SEARCH_SECONDS, SEARCH_BYTES,
               can_force=False)
        rows = learn()
    else:  # stored by an earlier version, without the values
        rows = [_row(ThrowRule(*numbers), size, PLAYERS, DICE) for numbers, size in
                zip(stored["rules"].tolist(), stored["sizes"].tolist())]
    cache.store(key, {"rules": np.array([[getattr(r.rule, n) for n in NAMES] for r in rows],
                                        dtype=np.int64),
                      "sizes": np.array([r.size for r in rows], dtype=np.int64),
                      "seats": np.array([r.seats for r in rows], dtype=np.float64)})
    return rows, stored is not None
