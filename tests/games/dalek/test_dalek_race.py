"""The Dalek Dice race on the cyclic engine versus plain value iteration over explicit positions.

The brute force here knows nothing of components, policy iteration or compiled turns: positions
are (scores, mover) tuples it enumerates itself, each turn is valued by the independent turn brute
force (dalek_bruteforce.py) with the position's utility of each final score, and values are
iterated until they stop changing. Exact checks: the engine's exact values satisfy those Bellman
equations exactly.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from dalek_bruteforce import BruteForce
from dalek_race_bruteforce import FACES, ExplicitRace, Position

from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace, RaceValues
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import compile_turn


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


@pytest.mark.parametrize("players, target, dice", [(2, 7, 2), (3, 5, 2), (3, 5, 3), (7, 5, 1)])
def test_exact_values_satisfy_the_bellman_equations(players: int, target: int, dice: int) -> None:
    """Every mover's exact value is the best turn against the exact values it leads to, and the
    seats' shares of the win add up to exactly 1 (7 players too: the rulebook's "2 or more" has no
    cap but a solve's size, docs/rules.md reading 10). The engine merges final-round positions that
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
