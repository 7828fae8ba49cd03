"""Pig policies evaluated exactly: a hold rule's turn, duels of fixed holds, the hold table."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from solver.engine.cyclic import solve
from solver.errors import InputError
from solver.games.pig import policies as pp
from solver.games.pig.model import PigGame


def test_pig_hold_turn_mean_is_published() -> None:
    # one Pig turn holding at 20 scores 492303203/60466176 on average (Neller and Presser 2004,
    # as test_pig_bruteforce.py checks for the solver)
    dist = pp.parse_policy("hold at 20").turn_distribution(100)
    assert sum(r * p for r, p in enumerate(dist)) == Fraction(492303203, 60466176)
    with pytest.raises(InputError, match="depends on both scores"):
        pp.parse_policy("optimal").turn_distribution(100)
    for bad in ("hold", "hold 0", "keep 20"):
        with pytest.raises(InputError):
            pp.parse_policy(bad)


def test_pig_policy_names_read_back() -> None:
    for text, name in (("Win", "optimal"), ("hold at 20", "hold 20"), ("HOLD  5", "hold 5")):
        policy = pp.parse_policy(text)
        assert policy.name == name and pp.parse_policy(policy.name) == policy


def test_pig_duel_of_equal_holds_is_the_plain_game() -> None:
    duel = pp.PigDuel(20, policies=(pp.PigPolicy(5), pp.PigPolicy(5)))
    game = PigGame(20, 5)
    assert pp.win_chances(duel, pp.solve_duel(duel, exact=True)) == \
        solve(game, game.start(), exact=True).exact_values(game.start())


def pig_policy_value(target: int, holds: list[Callable[[int, int, int], bool]]) -> float:
    """Seat 0's chance to win when each seat holds as `holds[seat](mine, theirs, total)` says,
    by value iteration over (seat 0's score, seat 1's score, turn total, mover)."""
    states = [(a, b, k, m) for a in range(target) for b in range(target) for m in (0, 1)
              for k in range(target - (a if m == 0 else b))]
    v = dict.fromkeys(states, 0.5)

    def after(a: int, b: int, k: int, m: int, face: int) -> float:
        if face == 1:
            return v[(a, b, 0, 1 - m)]
        k += face
        mine, theirs = (a, b) if m == 0 else (b, a)
        if mine + k >= target:
            return 1.0 if m == 0 else 0.0
        if holds[m](mine, theirs, k):
            return v[(a + k, b, 0, 1) if m == 0 else (a, b + k, 0, 0)]
        return v[(a, b, k, m)]

    while True:
        change = 0.0
        for s in states:
            new = sum(after(*s, face) for face in range(1, 7)) / 6
            change = max(change, abs(new - v[s]))
            v[s] = new
        if change < 1e-13:
            return v[(0, 0, 0, 0)]


def test_pig_hold_table_is_worth_the_engine_value() -> None:
    target = 12
    duel = pp.PigDuel(target, policies=(pp.PigPolicy(None), pp.PigPolicy(4)))
    solution = pp.solve_duel(duel)
    table = pp.hold_table(duel, solution, 0)
    value = pig_policy_value(target, [lambda m, t, k: bool(table[m, t, min(k, target)]),
                                      lambda m, t, k: k >= 4])
    assert value == pytest.approx(pp.win_chances(duel, solution)[0], abs=1e-10)
    fixed = pp.PigDuel(target, policies=(pp.PigPolicy(4), pp.PigPolicy(4)))
    assert pp.win_chances(fixed, pp.solve_duel(fixed))[0] < value  # the best response is better
