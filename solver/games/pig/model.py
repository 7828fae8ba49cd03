"""Pig as the engine sees it: the turn as a compiled graph of banked totals, and the game as a
cyclic game over (score of seat 0, score of seat 1, mover), played by the rules in rules.py."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from solver.engine.cyclic import Terminal
from solver.engine.local import Choices, TurnLocal
from solver.engine.turn import TurnGraph
from solver.errors import InputError
from solver.games.pig.rules import (
    FACES,
    SIDES,
    bank,
    ends_turn,
    has_won,
    may_hold,
    most_banked,
    must_hold,
    opponent,
    roll,
)

HOLD, ROLL = 0, 1  # the options of a hold-or-roll node, in this order


def compile_turn(target: int) -> TurnLocal:
    """The Pig turn from a score of 0: its results are the banked totals 0..most_banked. The
    graph serves every score: there a total reaching the target wins by holding, which the
    engine's first-best choice prefers to rolling on (worth no more)."""
    if target < 2:
        raise InputError(f"the target must be at least 2, not {target}")
    graph = TurnGraph(most_banked(target) + 1)
    choice: dict[int, int] = {}  # turn total -> hold-or-roll node
    root = -1
    for total in reversed(range(most_banked(target) + 1)):  # children before parents
        if must_hold(0, total, target):
            continue  # a result: the total is banked
        children = [choice.get(after, after) for after in (roll(total, f) for f in FACES)]
        (chance,) = graph.add_chance(np.array([0, SIDES]), np.array(children),
                                     [1] * SIDES, [SIDES])
        if not may_hold(total):
            root = int(chance)
        else:  # HOLD (the result: this total) or ROLL on
            (node,) = graph.add_choice(np.array([0, 2]), np.array([total, chance]))
            choice[total] = int(node)
    return TurnLocal(graph, root)


def hold_at_distribution(hold: int, score: int, target: int) -> list[Fraction]:
    """P(banked turn total = r) from `score` when holding as soon as the turn total reaches
    `hold` (or the target)."""
    rolling = {0: Fraction(1)}  # turn total -> probability, for totals still rolled on
    banked: dict[int, Fraction] = defaultdict(Fraction, {0: Fraction(0)})
    while rolling:  # totals only grow, so the smallest one is settled
        total = min(rolling)
        p = rolling.pop(total)
        if may_hold(total) and (total >= hold or must_hold(score, total, target)):
            banked[total] += p
            continue
        for face in FACES:
            after = roll(total, face)
            if ends_turn(face):
                banked[after] += p / SIDES
            else:
                rolling[after] = rolling.get(after, Fraction(0)) + p / SIDES
    return [banked.get(r, Fraction(0)) for r in range(max(banked) + 1)]


@dataclass(frozen=True)
class PigGame:
    """Two-player Pig as a cyclic game. Positions: (score of seat 0, score of seat 1, mover).
    Metrics: seat 0's and seat 1's probability of winning. `hold` replaces optimal play by
    "hold at `hold` or at the goal" for both players."""

    target: int = 100
    hold: int | None = None
    metrics: int = 2

    @cached_property
    def turn(self) -> TurnLocal:
        return compile_turn(self.target)

    @cached_property
    def wins(self) -> tuple[Terminal, Terminal]:
        """Seat 0 wins, seat 1 wins (one object each: the engine tells terminals by identity)."""
        return Terminal((Fraction(1), Fraction(0))), Terminal((Fraction(0), Fraction(1)))

    def start(self) -> tuple[int, int, int]:
        return (0, 0, 0)

    def progress(self, position: Hashable) -> int:
        return position[0] + position[1]

    def objective(self, position: Hashable) -> int:
        return position[2]

    def local(self, position: Hashable):
        if self.hold is None:
            return self.turn
        return self._hold_local(position[position[2]])

    def _hold_local(self, score: int) -> Choices:
        cache = self.__dict__.setdefault("_hold_cache", {})
        if score not in cache:
            dist = hold_at_distribution(self.hold, score, self.target)
            cache[score] = Choices([[(r, p) for r, p in enumerate(dist) if p]], len(dist))
        return cache[score]

    def successors(self, position: Hashable) -> Sequence[Hashable | Terminal]:
        """Each banked total leads to the new scores with the opponent to move, or to the
        mover's win: scores grow with the total, so the totals that win come last."""
        mover = position[2]
        other = opponent(mover)
        mine, theirs = position[mover], position[other]
        n = self.local(position).n_results
        keep = bisect_left(range(n), True, key=lambda r: has_won(bank(mine, r), self.target))
        if mover == 0:
            after = [(bank(mine, r), theirs, other) for r in range(keep)]
        else:
            after = [(theirs, bank(mine, r), other) for r in range(keep)]
        return after + [self.wins[mover]] * (n - keep)
