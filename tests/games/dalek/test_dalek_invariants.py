"""Invariants of the Dalek Dice turn solution that hold whatever the rules say, on the full 10-dice
game (both tie rules) and on smaller games with other dice.

The exact distribution of final scores sums to exactly 1 and its mean is the exact expected
points; the float distribution and value agree with the exact ones; every state obeys the
Bellman equations exactly (stop-or-roll is the better of the two; a roll's value is the
probability-weighted mean of its outcomes, with probabilities computed here from multinomials);
`best_move`'s best option is worth the position's value and no regret is negative.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from math import factorial, prod

import numpy as np
import pytest

from solver.games.dalek import report as dalek_report
from solver.games.dalek.rules import TurnState
from solver.games.dalek.turn import CompiledTurn, PointsSolution

GAMES = [
    ("H4 H2 D3 D2 DOC EXT", 10, "ge"),
    ("H4 H2 D3 D2 DOC EXT", 10, "gt"),
    ("H4:2 H2 D3 D2 DOC EXT", 6, "ge"),
    ("H3 H1 D4 D1 DOC:2 EXT", 5, "gt"),
]
TOLERANCE = 1e-12
Game = tuple[str, int, str]  # faces, dice, tie rule
Solved = tuple[CompiledTurn, PointsSolution]
Solver = Callable[[str, int, str], Solved]


def game_id(game: Game) -> str:
    return f"{game[0].replace(' ', '_')}-{game[1]}dice-{game[2]}"


@pytest.fixture
def solved(solve_game: Solver, game: Game) -> tuple[CompiledTurn, PointsSolution]:
    """The game's compiled turn and exact solution (shared across the session)."""
    return solve_game(*game)


def roll_probability(weights: tuple[int, ...], counts: np.ndarray) -> Fraction:
    """P(n dice show these counts): multinomial coefficient times the faces' probabilities."""
    n = int(counts.sum())
    ways = factorial(n) // prod(factorial(int(c)) for c in counts)
    return Fraction(ways * prod(w ** int(c) for w, c in zip(weights, counts)), sum(weights) ** n)


def choice_node(turn: CompiledTurn, state: TurnState, roll_row: int) -> int:
    """The compiled choice node of a (state, roll), or -1 where the third Doctor ends the turn."""
    layer = turn.layers[state.to_roll]
    row = int(np.searchsorted(layer.keys, turn.key(state)))
    assert layer.keys[row] == turn.key(state)
    return int(layer.choice[row, roll_row])


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_exact_distribution_sums_to_one_and_has_the_exact_mean(game: Game, solved: Solved
                                                                ) -> None:
    turn, solution = solved
    distribution = solution.exact.distribution
    assert all(isinstance(p, Fraction) and p >= 0 for p in distribution)
    assert sum(distribution) == 1
    assert sum(score * p for score, p in enumerate(distribution)) == \
        solution.exact_value(turn.root)


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_float_solution_agrees_with_the_exact_one(game: Game, solved: Solved) -> None:
    turn, solution = solved
    floats, exact = solution.distribution(), solution.exact.distribution
    assert len(floats) == len(exact)
    assert max(abs(f - float(p)) for f, p in zip(floats, exact)) <= TOLERANCE
    value = float(solution.exact_value(turn.root))
    assert abs(solution.value(turn.root) - value) <= TOLERANCE * value


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_stop_or_roll_is_the_better_of_the_two(game: Game, solved: Solved) -> None:
    """Every state after keeping (with dice left): value == max(stop points, value of rolling)."""
    turn, solution = solved
    rules = turn.rules
    checked = 0
    for state in turn.states:
        if state == rules.start():
            continue
        rolled = solution.exact_value(turn.chance_node(state))
        stop = rules.stop_score(state.humans, state.daleks)
        assert solution.exact_value(turn.node_after(state)) == max(stop, rolled)
        checked += 1
    assert checked == len(turn.states) - 1


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_a_roll_is_worth_the_mean_of_its_outcomes(game: Game, solved: Solved) -> None:
    """The start and a sample of states: exact value == sum of P(roll) x value of the roll."""
    turn, solution = solved
    weights = turn.rules.die.weights
    others = [s for s in turn.states if s != turn.rules.start()]
    states = [turn.rules.start(), *random.Random(game_id(game)).sample(others, 25)]
    for state in states:
        outcomes = turn.rolls[state.to_roll]
        total = Fraction(0)
        for row, counts in enumerate(outcomes):
            node = choice_node(turn, state, row)
            value = Fraction(0) if node < 0 else solution.exact_value(node)
            total += roll_probability(weights, counts) * value
        assert total == solution.exact_value(turn.chance_node(state)), state


def _positions(turn: CompiledTurn, game: Game, count: int
               ) -> list[tuple[TurnState, int]]:
    """A deterministic sample of (state, roll row) positions."""
    rng = random.Random(f"positions {game_id(game)}")
    positions = []
    for state in rng.sample(turn.states, min(count, len(turn.states))):
        rows = len(turn.rolls[state.to_roll])
        positions.append((state, rng.randrange(rows)))
    return positions


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_best_move_float_value_and_regrets(game: Game, solved: Solved) -> None:
    """best_move (float): the best option is worth the position's value, the options come best
    first, regret = best - value >= 0."""
    turn, solution = solved
    for state, row in _positions(turn, game, 40):
        rolled = tuple(int(c) for c in turn.rolls[state.to_roll][row])
        report = dalek_report.best_move(turn, state, rolled, exact=False)
        node = choice_node(turn, state, row)
        assert report["doctor_intervenes"] == (node < 0)
        if node < 0:
            assert report["value"] == 0.0 and report["options"] == []
            continue
        options = report["options"]
        assert report["value"] == options[0]["value"]
        assert abs(report["value"] - solution.value(node)) <= TOLERANCE * max(1.0, report["value"])
        assert [o["value"] for o in options] == sorted((o["value"] for o in options),
                                                       reverse=True)
        for option in options:
            assert option["regret"] == options[0]["value"] - option["value"] >= 0


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_best_move_exact_value_and_regrets(game: Game, solved: Solved) -> None:
    """best_move (exact): the best option is worth exactly the position's value, the float
    value is within 1e-12 of it, and every exact regret is best - value >= 0. (best_move solves
    the whole turn afresh on each call, about 0.5 s with 10 dice: fewer positions there.)"""
    turn, solution = solved
    for state, row in _positions(turn, game, 4 if turn.rules.dice >= 10 else 40):
        rolled = tuple(int(c) for c in turn.rolls[state.to_roll][row])
        report = dalek_report.best_move(turn, state, rolled, exact=True)
        node = choice_node(turn, state, row)
        if node < 0:
            assert report["doctor_intervenes"] and report["options"] == []
            continue
        value = solution.exact_value(node)
        options = report["options"]
        assert Fraction(report["value_exact"]) == Fraction(options[0]["value_exact"]) == value
        assert abs(report["value"] - float(value)) <= TOLERANCE * max(1.0, float(value))
        for option in options:
            regret = Fraction(option["regret_exact"])
            assert regret == value - Fraction(option["value_exact"]) >= 0
            assert option["regret"] >= 0
