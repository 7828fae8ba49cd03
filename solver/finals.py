"""How a two-seat score race ends: the exact distribution of the final scores and of the game's
length in turns, by a forward pass over the race under fixed play. Knows no game: a game gives
each seat's turn (the distribution of points banked at each pair of scores) and its rule for the
end of the game (Dalek Dice: after seat 2's turn once someone reached the target; Pig: at once).

The pass follows the probability of every pair of scores turn by turn, so the number of turns
comes for free; it stops when the games not yet over hold less than `TOLERANCE` of the mass
(that remainder, the residual, is reported). Float64: the enumeration is exact, the arithmetic
rounds (tests/test_finals.py checks it against an exact brute force in rationals).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

TOLERANCE = 1e-15  # mass of games still going on at which the pass stops
MOST_TURNS = 100_000  # a pass longer than this stops anyway (the residual says how much is left)

# turns(seat, score_1, score_2) -> (rows, width): P(the seat banks r) at those scores
Turns = Callable[[int, np.ndarray, np.ndarray], np.ndarray]
# ends(score_1, score_2, seat) -> rows: whether the game is over after that seat's turn
Ends = Callable[[np.ndarray, np.ndarray, int], np.ndarray]


@dataclass
class Finals:
    """Every way a race can end, as cells: final scores, turns taken (by both seats), and
    probability; `residual` is the mass of games the pass left unfinished."""

    score_1: np.ndarray
    score_2: np.ndarray
    turns: np.ndarray
    probability: np.ndarray
    residual: float


def race_finals(turns: Turns, width: int, ends: Ends, size: int,
                tolerance: float = TOLERANCE) -> Finals:
    """The race from scores 0, 0 with seat 1 to move, seats taking turns in order. `width`: the
    number of turn results (0 .. width - 1 points); `size`: one more than any score a game can
    reach."""
    mass = np.zeros((size, size))
    mass[0, 0] = 1.0
    cells: list[tuple[np.ndarray, ...]] = []
    points = np.arange(width)
    left = 1.0
    turn = 0
    while left > tolerance and turn < MOST_TURNS:
        seat = turn % 2
        turn += 1
        s1, s2 = np.nonzero(mass)
        share = mass[s1, s2][:, None] * turns(seat, s1, s2)
        a1 = s1[:, None] + (points if seat == 0 else 0)
        a2 = s2[:, None] + (points if seat == 1 else 0)
        a1, a2 = np.broadcast_to(a1, share.shape), np.broadcast_to(a2, share.shape)
        some = share > 0
        a1, a2, share = a1[some], a2[some], share[some]
        if np.any((a1 >= size) | (a2 >= size)):
            raise ValueError("a score past the race's size: give a larger size")
        over = ends(a1, a2, seat)
        flat = a1 * size + a2
        mass = np.bincount(flat[~over], share[~over], size * size).reshape(size, size)
        ended = np.bincount(flat[over], share[over], size * size)
        where = np.flatnonzero(ended)
        cells.append((where // size, where % size, np.full(len(where), turn), ended[where]))
        left = float(mass.sum())
    columns = [np.concatenate(c) for c in zip(*cells)] if cells else [np.empty(0)] * 4
    return Finals(columns[0].astype(np.int64), columns[1].astype(np.int64),
                  columns[2].astype(np.int64), columns[3], left)
