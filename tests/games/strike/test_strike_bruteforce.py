"""Strike: an independent brute force over explicit positions (strike_bruteforce.py, written
from the rulebook) against the engine's answers.

Checks: plain float value iteration agrees with the engine's float values at every position;
the engine's exact values satisfy the brute force's Bellman equations exactly (the mover's
equation holds with its first best option, and every seat's value follows that option), which
with a game that ends with probability 1 (every throw removes a die with probability >= 1/6)
pins the values of that policy; dice are conserved by every ordered outcome.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from strike_bruteforce import BruteForce, Explicit

from solver.engine.cyclic import Solution, solve
from solver.games.strike.model import MID, SETUP, START, Strike
from solver.games.strike.throws import canonical


def engine_key(game: Strike, position: Explicit):
    """The engine's position for an explicit one (the arena up to relabelling; for each seat
    out, the players it left in, which is its points under the "after" count)."""
    mover, stocks, arena, phase, _, points = position
    phases = {"setup": SETUP, "start": START, "mid": MID}
    if game.points_count == "before":
        points = tuple(p - 1 if p else 0 for p in points)
    return (mover, stocks, canonical(arena), phases[phase],
            points if game.scoring == "points" else ())


def engine_value(solution: Solution, game: Strike, target, exact: bool) -> list:
    if target[0] == "end":
        return list(target[1])
    key = engine_key(game, target)
    return solution.exact_values(key) if exact else list(solution.values(key))


ZERO = Fraction(0)
CASES = [  # (players, dice, hit, miss, scoring, fly-out, emptied arena[, points count])
    (2, 2, Fraction(1, 2), ZERO, "win", ZERO, "pass"),
    (2, 3, Fraction(1, 2), ZERO, "win", ZERO, "pass"),
    (2, 3, Fraction(1, 3), Fraction(1, 4), "win", ZERO, "pass"),
    (2, 3, Fraction(1), Fraction(1, 10), "points", ZERO, "pass"),
    (3, 2, Fraction(1, 2), ZERO, "points", ZERO, "pass"),
    (2, 3, Fraction(1, 2), ZERO, "win", Fraction(1, 3), "pass"),
    (2, 3, Fraction(1, 2), Fraction(1, 4), "win", ZERO, "continue"),
    (2, 3, Fraction(2, 3), Fraction(1, 5), "win", Fraction(1, 4), "continue"),
    (3, 2, Fraction(1, 2), ZERO, "points", Fraction(1, 2), "continue"),
    (2, 3, Fraction(1), Fraction(1, 10), "points", ZERO, "pass", "before"),
    (3, 2, Fraction(1, 2), ZERO, "points", ZERO, "pass", "before"),
]
CONTINUE = [c for c in CASES if c[-1] == "continue"]


@cache
def solved(*case) -> tuple[Strike, Solution, BruteForce]:
    game = Strike(*case)
    return game, solve(game, game.start(), exact=True), BruteForce(*case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_value_iteration_matches_the_engine_everywhere(case) -> None:
    game, solution, brute = solved(*case)
    values = brute.value_iteration()
    for position, row in values.items():
        assert list(solution.values(engine_key(game, position))) == \
            pytest.approx(row, abs=1e-11), position
    assert len({engine_key(game, p) for p in values}) == solution.graph.size


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_exact_values_satisfy_the_explicit_bellman_equations(case) -> None:
    game, solution, brute = solved(*case)
    for position, options in brute.edges.items():
        mover = position[0]
        rows = []
        for option in options:
            row = [Fraction(0)] * brute.metrics
            for target, q in option:
                for m, v in enumerate(engine_value(solution, game, target, exact=True)):
                    row[m] += q * v
            rows.append(row)
        best = max(row[mover] for row in rows)
        first_best = next(row for row in rows if row[mover] == best)
        assert solution.exact_values(engine_key(game, position)) == first_best, position


@pytest.mark.parametrize("case", CASES[:2], ids=lambda c: "-".join(map(str, c)))
def test_players_still_in_are_the_seats_with_dice(case) -> None:
    """The engine derives "still in" from the stocks; the brute force tracks it as its own
    field, so a rule that let a seat with dice be out (or one without be in) would show."""
    _, _, brute = solved(*case)
    for mover, stocks, _, phase, still_in, _ in brute.edges:
        if phase != "setup":
            assert still_in == {seat for seat, s in enumerate(stocks) if s}
            assert mover in still_in


@pytest.mark.parametrize("case", [CASES[1], *CONTINUE], ids=lambda c: "-".join(map(str, c)))
def test_the_engine_explores_no_position_the_brute_force_lacks(case) -> None:
    game, solution, brute = solved(*case)
    keys = {engine_key(game, p) for p in brute.edges}
    assert set(solution.graph.positions) == keys


@pytest.mark.parametrize("case", CONTINUE, ids=lambda c: "-".join(map(str, c)))
def test_under_continue_a_thrower_may_go_on_in_an_empty_arena(case) -> None:
    """Reading 6b, "continue": positions mid-turn with an empty arena exist, in the brute force
    and (the test above) in the engine; there the thrower throws one die, never the big hit,
    and stopping passes the big hit on."""
    game, solution, brute = solved(*case)
    empty = [p for p in brute.edges if p[3] == "mid" and not p[2]]
    assert empty
    for position in empty:
        stop, throw = brute.edges[position]
        assert stop[0][0][3] == "start" and not stop[0][0][2]
        assert all(len(target[2]) <= 1 for target, _ in throw if target[0] != "end")
        assert engine_key(game, position) in solution.graph.index



def test_two_players_count_one_game_either_way() -> None:
    """Reading 8's two counts (each checked above against the brute force, exactly) with 2
    players: the loser scores 1 or 2, so every expected points value doubles and every P(win)
    stays, exactly, at every position."""
    game, after, _ = solved(*CASES[3])
    _, before, _ = solved(*CASES[9])
    for position in after.graph.positions:
        values, doubled = after.exact_values(position), before.exact_values(position)
        for seat in range(game.players):
            assert doubled[game.layout.win(seat)] == values[game.layout.win(seat)]
            assert doubled[game.layout.points(seat)] == 2 * values[game.layout.points(seat)]


def test_three_players_count_two_games() -> None:
    """With 3 players the counts differ in kind: places score 2, 1, 0 or 3, 2, 0, so second
    place rather than first costs 2 points and last rather than second 1 (the after count: 1
    and 1), and optimal play changes: some seat's P(win) moves. With 3 dice each (2 are too
    few: no decision changes there), in floats: the engine against the brute force's value
    iteration under each count, and the two counts' P(win) apart."""
    case = (3, 3, Fraction(1, 2), ZERO, "points", ZERO, "pass")
    wins = {}
    for count in ("after", "before"):
        game, brute = Strike(*case, count), BruteForce(*case, count)
        solution = solve(game, game.start())
        values = brute.value_iteration()
        for position, row in values.items():
            assert list(solution.values(engine_key(game, position))) == \
                pytest.approx(row, abs=1e-11), position
        wins[count] = {engine_key(game, position): row[game.players:]
                       for position, row in values.items()}
    moved = max(abs(wins["after"][p] - wins["before"][p]).max() for p in wins["after"])
    assert moved > 0.01
