"""Two fixed Pig policies against each other, without the engine: each seat's turn is a fixed
distribution of banked totals per pair of scores, so the game is a Markov chain whose only
cycle is both seats banking nothing at the same scores. Sweeping the pairs of scores from the
goal back, each pair is one 2 x 2 solve, so a whole game to 100 costs milliseconds (the cyclic
engine, which also finds best responses, takes about 5 s for the same duel): fast enough to
search rule families (rulefamilies.py). tests/games/pig/test_pig_rulefamilies.py checks it
against the engine (`PigDuel`) and against a direct rational solve.

Arrays `turns[mine, theirs, r]` give P(the mover banks r) with its own score `mine` and the
opponent's `theirs`, r = 0 .. target + 5. Floats, or Fractions (object arrays) for exact
values at small targets: the same code serves both.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np

from solver.games.pig.model import hold_at_distribution
from solver.games.pig.rules import FACES, SIDES, ends_turn, may_hold, most_banked, roll


def results(target: int) -> int:
    """How many banked totals a turn can have (0 .. most_banked)."""
    return most_banked(target) + 1


def threshold_turns(target: int, exact: bool = False) -> np.ndarray:
    """turns[e, r]: P(bank r) when holding once the turn total reaches e (1 .. target; row 0
    unused). Holding at the goal from a score i is the threshold target - i, so these rows
    serve every score."""
    table = np.zeros((target + 1, results(target)), dtype=object if exact else float)
    for e in range(1, target + 1):
        dist = hold_at_distribution(e, 0, target)
        table[e, :len(dist)] = dist if exact else [float(p) for p in dist]
    return table


def threshold_play(thresholds: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """turns[mine, theirs] of a rule that holds at `thresholds[mine, theirs]`, clipped to
    1 .. target - mine (a threshold past the goal is holding at the goal)."""
    target = thresholds.shape[0]
    goal = target - np.arange(target)[:, None]
    return rows[np.clip(thresholds, 1, goal)]


def table_play(hold: np.ndarray, exact: bool = False) -> np.ndarray:
    """turns[mine, theirs] of a player that holds where `hold[mine, theirs, total]` says (the
    optimal player's table, policies.hold_table); a total reaching the goal is held."""
    target = hold.shape[0]
    width = results(target)
    kind = object if exact else float
    third = Fraction(1, SIDES) if exact else 1 / SIDES
    mass = np.zeros((target, target, width + SIDES), dtype=kind)  # P(turn total k, rolling)
    mass[:, :, 0] = 1
    banked = np.zeros((target, target, width), dtype=kind)
    goal = target - np.arange(target)[:, None]  # the total that reaches the goal, by mine
    for k in range(width):
        if may_hold(k):
            table = hold[:, :, k] if k < hold.shape[2] else True
            held = table | (k >= goal)
            banked[:, :, k] = np.where(held, mass[:, :, k], 0)
            rolling = np.where(held, 0, mass[:, :, k])
        else:
            rolling = mass[:, :, k]
        for face in FACES:
            if ends_turn(face):
                banked[:, :, 0] = banked[:, :, 0] + rolling * third
            else:
                mass[:, :, roll(k, face)] = mass[:, :, roll(k, face)] + rolling * third
    return banked


def duel(turns_a: np.ndarray, turns_b: np.ndarray) -> tuple:
    """(P(A wins when A moves first), P(A wins when B moves first)), A and B each playing its
    fixed `turns`. W_A(i, j) is A's chance with A to move, A on i and B on j; W_B the same
    with B to move. W_A(i, j) = sum_r a_r W_B(i + r, j), W_B(i, j) = sum_r b_r W_A(i, j + r):
    only r = 0 stays at (i, j), so each anti-diagonal i + j is solved from the ones above."""
    target, _, width = turns_a.shape
    exact = turns_a.dtype == object
    one = Fraction(1) if exact else 1.0
    # flat tables: w_a[i, j] (columns past the goal: B has won), w_b[i, j] (rows past the
    # goal: A has won)
    w_a = np.zeros(target * (target + width), dtype=turns_a.dtype)
    w_b = np.zeros((target + width) * target, dtype=turns_a.dtype)
    w_b[target * target:] = one
    a_flat = turns_a.reshape(target * target, width)
    b_flat = turns_b.reshape(target * target, width)
    for own, other, into_a, into_b, after_a, after_b in _diagonals(target, width):
        a, b = a_flat[own], b_flat[other]
        won_a = (a[:, 1:] * w_b[after_a]).sum(axis=1)
        won_b = (b[:, 1:] * w_a[after_b]).sum(axis=1)
        value = (won_a + a[:, 0] * won_b) / (one - a[:, 0] * b[:, 0])
        w_a[into_a] = value
        w_b[into_b] = won_b + b[:, 0] * value
    return w_a[0], w_b[0]


@cache
def _diagonals(target: int, width: int) -> list[tuple[np.ndarray, ...]]:
    """For each anti-diagonal from the goal back: the rows of A's and B's turns, where W_A and
    W_B of its positions go, and where their successors' values are (flat indices)."""
    banks = np.arange(1, width)
    out = []
    for total in range(2 * target - 2, -1, -1):
        i = np.arange(max(0, total - target + 1), min(total, target - 1) + 1)
        j = total - i
        out.append((i * target + j, j * target + i, i * (target + width) + j, i * target + j,
                    (i[:, None] + banks) * target + j[:, None],
                    i[:, None] * (target + width) + j[:, None] + banks))
    return out
