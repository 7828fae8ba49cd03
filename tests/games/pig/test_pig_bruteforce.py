"""Pig: the engine against published figures and an independent solver of Neller's equations
(pig_bruteforce.py)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from pig_bruteforce import neller_values

from solver.engine.cyclic import solve
from solver.games.pig.model import PigGame, compile_turn


@pytest.mark.parametrize("target", [10, 25])
def test_engine_matches_value_iteration(target: int) -> None:
    game = PigGame(target)
    solution = solve(game, game.start())
    p = neller_values(target)
    for (i, j, mover), row in zip(solution.graph.positions, solution.table):
        mine, theirs = (i, j) if mover == 0 else (j, i)
        assert row[mover] == pytest.approx(p[(mine, theirs, 0)], abs=1e-12)
        assert row[0] + row[1] == pytest.approx(1.0, abs=1e-12)


def test_exact_values_satisfy_the_bellman_equations() -> None:
    """Rebuild every turn state's value from the engine's exact position values and check that
    the equation of each position (roll at a turn total of 0) holds exactly."""
    target = 10
    game = PigGame(target)
    solution = solve(game, game.start(), exact=True)
    start = {(i, j): solution.exact_values((i, j, 0))[0]
             for (i, j, mover) in solution.graph.positions if mover == 0}

    def position(i: int, j: int) -> Fraction:
        return start[(i, j)] if (i, j) in start else 1 - solution.exact_values((j, i, 1))[1]

    @cache
    def turn(i: int, j: int, k: int) -> Fraction:
        roll = (1 - position(j, i)) / 6 + sum(
            Fraction(1, 6) if i + k + f >= target else turn(i, j, k + f) / 6
            for f in range(2, 7))
        return roll if k == 0 else max(1 - position(j, i + k), roll)

    assert start
    for i, j in start:
        assert turn(i, j, 0) == start[(i, j)]


def test_turn_graph_numpy_pass_equals_kernel_pass() -> None:
    """The Pig turn graph valued by `values` (NumPy, for single queries) and by `solve`
    (compiled, batched): the same recurrence, differing only in the order of additions."""
    graph = compile_turn(40).graph
    utilities = np.random.default_rng(7).random((5, graph.n_results)) * 60
    batched = graph.solve(utilities).values
    for column, utility in enumerate(utilities):
        assert np.allclose(graph.values(utility), batched[:, column], rtol=0, atol=1e-12)


def test_hold_at_20_turn_expectation() -> None:
    """One turn played for expected points holds at 20: 492303203/60466176 points (Neller and
    Presser 2004, as cited in shared/reference/game-facts.md)."""
    turn = compile_turn(100)
    value = turn.graph.solve_exact([Fraction(r) for r in range(turn.n_results)]).value(turn.root)
    assert value == Fraction(492303203, 60466176)


def test_published_first_player_chances() -> None:
    """Neller and Presser (2004): to 100 the first player wins about 0.5306 under optimal play,
    about 0.5347 when both hold at 20 or at the goal."""
    optimal = solve(PigGame(100), (0, 0, 0))
    assert optimal.values((0, 0, 0))[0] == pytest.approx(0.5306, abs=5e-5)
    assert optimal.residual <= 1e-12
    hold = solve(PigGame(100, hold=20), (0, 0, 0))
    assert hold.values((0, 0, 0))[0] == pytest.approx(0.5347, abs=5e-5)
