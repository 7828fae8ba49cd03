"""The Dalek Dice race on the cyclic engine versus plain value iteration over explicit positions.

The brute force here knows nothing of components, policy iteration or compiled turns: positions
are (scores, mover) tuples it enumerates itself, each turn is valued by the independent turn brute
force (tests/dalek_bruteforce.py) with the position's utility of each final score, and values are
iterated until they stop changing. Exact checks: the engine's exact values satisfy those Bellman
equations exactly.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from dalek_bruteforce import BruteForce

from solver.games.dalek.race import DalekRace, RaceValues, solve_race
from solver.games.dalek.rules import parse_rules
from solver.games.dalek.turn import compile_turn

FACES = "H4 H2 D3 D2 DOC EXT"
Position = tuple[tuple[int, ...], int]


def possible_scores(dice: int) -> list[int]:
    """Every final score some play of a turn can reach (the brute force's game tree)."""
    brute = BruteForce(FACES, "ge")
    found: set[int] = set()

    @cache
    def walk(state: tuple[int, ...]) -> None:
        for outcome in {tuple(sorted(o)) for o in _rolls(brute, state[0])}:
            subsets = brute.keeps(state, outcome)
            if subsets is None:
                found.add(0)
                continue
            for _, after in subsets:
                score = brute.final_score(after)
                if score is not None:
                    found.add(score)
                else:
                    found.add(brute.stop_points(after))
                    walk(after)

    walk((dice, 0, 0, 0, 0))
    return sorted(found)


def _rolls(brute: BruteForce, n: int):
    from itertools import product

    return product(brute.faces, repeat=n)


class ExplicitRace:
    """The race's rules, written out again: who moves next, and how a game ends."""

    def __init__(self, players: int, target: int, dice: int) -> None:
        self.players, self.target, self.dice = players, target, dice
        self.scores = possible_scores(dice)

    def next(self, scores: tuple[int, ...], mover: int, points: int):
        """The position after the mover scores `points`, or the final scores (a tuple)."""
        after = list(scores)
        after[mover] += points
        if mover == self.players - 1 and max(after) >= self.target:
            return tuple(after)
        return tuple(after), (mover + 1) % self.players

    def share(self, final: tuple[int, ...], seat: int) -> Fraction:
        """Win alone: 1; a k-way tie for first: 1/k; else 0."""
        best = max(final)
        return Fraction(1, final.count(best)) if final[seat] == best else Fraction(0)

    def positions(self) -> list[Position]:
        start = ((0,) * self.players, 0)
        seen, todo = {start}, [start]
        while todo:
            scores, mover = todo.pop()
            for points in self.scores:
                following = self.next(scores, mover, points)
                if isinstance(following[0], tuple) and following not in seen:
                    seen.add(following)
                    todo.append(following)
        return sorted(seen)

    def utility(self, values, position: Position, seat: int):
        """The seat's worth of each final turn score of the mover, from `values`."""
        scores, mover = position

        def worth(points: int):
            following = self.next(scores, mover, points)
            if not isinstance(following[0], tuple):
                return self.share(following, seat)
            return values[following][seat]
        return worth


def value_iteration(race: ExplicitRace) -> dict[Position, list[float]]:
    """Two players: the mover's value by plain value iteration (the other seat has 1 minus it)."""
    positions = race.positions()
    values = {p: [0.5, 0.5] for p in positions}
    while True:
        change = 0.0
        for position in positions:
            mover = position[1]
            worth = race.utility(values, position, mover)
            new = float(BruteForce(FACES, "ge", lambda s, w=worth: Fraction(w(s)))
                        .start(race.dice))
            change = max(change, abs(new - values[position][mover]))
            values[position] = [new, 1 - new] if mover == 0 else [1 - new, new]
        if change < 1e-14:
            return values


def engine(players: int, target: int, dice: int, exact: bool = False) -> RaceValues:
    race = DalekRace(compile_turn(parse_rules(dice=dice)), players, target)
    return solve_race(race, exact=exact, use_cache=False)


def test_engine_matches_value_iteration() -> None:
    race = ExplicitRace(2, 8, 2)
    expected = value_iteration(race)
    solved = engine(2, 8, 2)
    assert set(solved.index) >= set(expected)
    for position, (first, second) in expected.items():
        row = solved.values(position)
        assert row[0] == pytest.approx(first, abs=1e-11)
        assert row[1] == pytest.approx(second, abs=1e-11)
    assert solved.residual <= 1e-12


@pytest.mark.parametrize("players, target, dice", [(2, 7, 2), (3, 5, 2), (3, 5, 3)])
def test_exact_values_satisfy_the_bellman_equations(players: int, target: int, dice: int) -> None:
    """Every mover's exact value is the best turn against the exact values it leads to, and the
    seats' shares of the win add up to exactly 1. The engine merges final-round positions that
    differ only in the score of a finished seat trailing another finished seat; the explicit
    positions here are not merged, so these equations also check that merging changes no
    value (each payoff is computed from the true scores). With 3 dice a turn can score 2, so a
    merged final-round position can sum to less than the one before it (a regression: the
    progress measure must not fall)."""
    race = ExplicitRace(players, target, dice)
    solved = engine(players, target, dice, exact=True)

    class Exact(dict):
        def __missing__(self, position: Position) -> list[Fraction]:
            return solved.exact[solved.row(solved.race.canonical(*position))]

    exact = Exact()
    for position in race.positions():
        mover = position[1]
        worth = race.utility(exact, position, mover)
        assert BruteForce(FACES, "ge", worth).start(dice) == exact[position][mover]
        assert sum(exact[position][:players]) == 1


def test_two_players_zero_sum_and_monotone() -> None:
    """Shares of the win add up to 1 everywhere; and a seat's value never falls when its own
    score is higher (other scores and the mover unchanged): more points never hurt."""
    solved = engine(2, 16, 5)
    table = solved.table
    assert np.max(np.abs(table[:, 0] + table[:, 1] - 1)) <= 1e-12
    compared = 0
    for (scores, mover), row in solved.index.items():
        for seat in range(2):
            higher = list(scores)
            higher[seat] += 1
            other = solved.index.get((tuple(higher), mover))
            if other is not None:
                compared += 1
                assert table[other, seat] >= table[row, seat] - 1e-12
    assert compared > 100


def test_mover_is_part_of_the_position() -> None:
    """A score at the target means the final round: only the seats after the one who got there
    still play (with two players, the second seat). And the same scores with the other seat to
    move are another position, worth something else."""
    solved = engine(2, 8, 2)
    final = [(scores, mover) for scores, mover in solved.index if max(scores) >= 8]
    assert final and all(mover == 1 and scores[0] >= 8 for scores, mover in final)
    differ = [scores for scores, mover in solved.index if mover == 0 and
              (scores, 1) in solved.index and
              abs(solved.values((scores, 0))[0] - solved.values((scores, 1))[0]) > 0.01]
    assert differ
