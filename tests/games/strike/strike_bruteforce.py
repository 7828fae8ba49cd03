"""Strike written out again over explicit positions, independently of the solver, for the tests
that check it (test_strike_bruteforce.py and others): it shares nothing with solver/games/strike/
but the rulebook. The arena holds labelled numbers (not groups up to relabelling), the players
still in are an explicit set, and a throw is enumerated as ordered outcomes (for each arena die in
order: left alone, struck out of the arena, or struck and showing each face; for each thrown die:
missed or landed on each face), with exact Fractions. Both readings of an arena emptied without a
match (docs/rules.md, reading 6b) are written here on their own: "pass" ends the turn,
"continue" lets the thrower throw one more die into the empty arena or stop."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import scipy.sparse as sp

X = "X"
FACES = (1, 2, 3, 4, 5, X)

# Brute-force positions: (mover, stocks, arena numbers sorted, phase, players in, points).
Explicit = tuple[int, tuple[int, ...], tuple[int, ...], str, frozenset, tuple[int, ...]]


@cache
def ordered_throws(arena: tuple[int, ...], thrown: int, hit: Fraction, miss: Fraction,
                   fly_out: Fraction = Fraction(0)
                   ) -> dict[tuple[tuple[int, ...], int, int], Fraction]:
    """(numbers left showing once, dice taken, dice removed) -> probability, summed over every
    ordered outcome of the throw. Weights are integers over the common denominator
    (6 * hit.denominator * fly_out.denominator) ** arena dice * (6 * miss.denominator) ** thrown
    dice: an arena die stays (1 - hit), flies out (hit * fly_out) or is struck and shows a
    face (hit * (1 - fly_out) / 6)."""
    h, f = hit, fly_out
    arena_die = [("stay", 6 * (h.denominator - h.numerator) * f.denominator),
                 ("out", 6 * h.numerator * f.numerator)] + \
        [(face, h.numerator * (f.denominator - f.numerator)) for face in FACES]
    thrown_die = [("miss", 6 * miss.numerator)] + \
        [(f, miss.denominator - miss.numerator) for f in FACES]
    weights: dict[tuple[tuple[int, ...], int, int], int] = defaultdict(int)
    for outcome in product(*([arena_die] * len(arena) + [thrown_die] * thrown)):
        weight = 1
        for _, w in outcome:
            weight *= w
        if not weight:
            continue
        showing, removed = [], 0
        for k, (face, _) in enumerate(outcome):
            if face == "stay":
                showing.append(arena[k])
            elif face in ("miss", "out", X):
                removed += 1
            else:
                showing.append(face)
        count = {n: showing.count(n) for n in set(showing)}
        taken = sum(c for c in count.values() if c >= 2)
        left = tuple(sorted(n for n, c in count.items() if c == 1))
        assert len(arena) + thrown == len(left) + taken + removed  # conservation
        weights[(left, taken, removed)] += weight
    total = (6 * h.denominator * f.denominator) ** len(arena) * (6 * miss.denominator) ** thrown
    assert sum(weights.values()) == total
    return {key: Fraction(w, total) for key, w in weights.items()}


class BruteForce:
    """Strike over explicit positions, written from the rulebook and docs/rules.md ("Strike")."""

    def __init__(self, players: int, dice: int, hit: Fraction, miss: Fraction,
                 scoring: str = "win", fly_out: Fraction = Fraction(0),
                 empty_arena: str = "pass", points_count: str = "after") -> None:
        self.players, self.dice, self.hit, self.miss = players, dice, hit, miss
        self.scoring, self.fly_out, self.empty_arena = scoring, fly_out, empty_arena
        self.points_count = points_count  # the players still in counted "after" or "before"
        self.metrics = players * (2 if scoring == "points" else 1)
        self.edges: dict[Explicit, list[list[tuple[Explicit | tuple, Fraction]]]] = {}
        start = (0, (dice,) * players, (), "setup", frozenset(range(players)),
                 (0,) * players)
        stack = [start]
        self.edges[start] = []
        while stack:
            position = stack.pop()
            self.edges[position] = options = self.options(position)
            for option in options:
                for target, _ in option:
                    if target[0] != "end" and target not in self.edges:
                        self.edges[target] = []
                        stack.append(target)
        self.start = start

    def payoff(self, winner: int, points: tuple[int, ...]) -> tuple:
        wins = tuple(Fraction(seat == winner) for seat in range(self.players))
        if self.scoring == "win":
            return ("end", wins)
        return ("end", tuple(Fraction(-p) for p in points) + wins)

    def after_turn(self, mover: int, stocks: tuple[int, ...], arena: tuple[int, ...],
                   still_in: frozenset, points: tuple[int, ...]):
        if stocks[mover] == 0:
            before = len(still_in)  # "players still left in the game when they are eliminated"
            still_in = still_in - {mover}
            scored = before if self.points_count == "before" else len(still_in)
            points = tuple(scored if seat == mover else p for seat, p in enumerate(points))
            if len(still_in) == 1:
                return self.payoff(next(iter(still_in)), points)
        seat = (mover + 1) % self.players
        while seat not in still_in:
            seat = (seat + 1) % self.players
        return (seat, stocks, arena, "start", still_in, points)

    def options(self, position: Explicit) -> list[list[tuple[object, Fraction]]]:
        """Each option of the mover as a list of (next position or ("end", payoff), p)."""
        mover, stocks, arena, phase, still_in, points = position
        if phase == "setup":
            stocks = tuple(s - (seat == mover) for seat, s in enumerate(stocks))
            following = []
            for number in range(1, 6):
                placed = tuple(sorted((*arena, number)))
                if mover + 1 < self.players:
                    following.append([((mover + 1, stocks, placed, "setup", still_in, points),
                                       Fraction(1))])
                else:
                    following.append([((0, stocks, placed, "start", still_in, points),
                                       Fraction(1))])
            return following
        stock = stocks[mover]
        thrown = stock if phase == "start" and not arena else 1  # the big hit starts a turn
        throw = []
        for (left, taken, _), p in ordered_throws(arena, thrown, self.hit, self.miss,
                                                  self.fly_out).items():
            kept = stock - thrown + taken
            after = tuple(kept if seat == mover else s for seat, s in enumerate(stocks))
            emptied = not left and self.empty_arena == "pass"
            if taken > 0 or emptied or kept == 0:
                throw.append((self.after_turn(mover, after, left, still_in, points), p))
            else:
                throw.append(((mover, after, left, "mid", still_in, points), p))
        if phase == "mid":
            return [[(self.after_turn(mover, stocks, arena, still_in, points), Fraction(1))],
                    throw]
        return [throw]

    def value_iteration(self, tolerance: float = 1e-14) -> dict[Explicit, np.ndarray]:
        """Plain (Jacobi) value iteration in floats, every mover maximising its metric (ties
        to the first option), until no value moves by `tolerance`."""
        positions = list(self.edges)
        index = {p: k for k, p in enumerate(positions)}
        width = max(len(options) for options in self.edges.values())
        rows, cols, probabilities = [], [], []
        constant = np.zeros((len(positions) * width, self.metrics))
        present = np.zeros((len(positions), width), dtype=bool)
        for k, position in enumerate(positions):
            for o, option in enumerate(self.edges[position]):
                present[k, o] = True
                for target, q in option:
                    if target[0] == "end":
                        constant[k * width + o] += float(q) * np.array(target[1], dtype=float)
                    else:
                        rows.append(k * width + o)
                        cols.append(index[target])
                        probabilities.append(float(q))
        step = sp.csr_matrix((probabilities, (rows, cols)),
                             shape=(len(positions) * width, len(positions)))
        movers = np.array([p[0] for p in positions])
        values = np.zeros((len(positions), self.metrics))
        while True:
            options = (step @ values + constant).reshape(len(positions), width, self.metrics)
            mover_values = np.where(present, options[np.arange(len(positions)), :, movers],
                                    -np.inf)
            best = options[np.arange(len(positions)), np.argmax(mover_values, axis=1)]
            change = float(np.max(np.abs(best - values)))
            values = best
            if change < tolerance:
                return {p: values[k] for k, p in enumerate(positions)}
