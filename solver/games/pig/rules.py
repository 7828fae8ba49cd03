"""Pig, the calibration game (Neller and Presser, "Optimal Play of the Dice Game Pig", 2004).

Two players race to a target. A turn: roll one die; a 1 ends the turn with nothing, any other
face adds to the turn total; after each roll the player may hold (bank the turn total) or roll
again. The first player whose banked score reaches the target wins at once.

Modelling: a turn total that reaches the target is held (holding then wins, so rolling on can
never do better); a turn starts with a roll (holding at 0 is not a move).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from solver.engine.cyclic import Terminal
from solver.engine.local import Choices, TurnLocal
from solver.engine.turn import TurnGraph
from solver.errors import InputError

SIDES = 6
PIG = 1  # the face that ends the turn with nothing


def compile_turn(target: int) -> TurnLocal:
    """The Pig turn: results are the banked turn totals 0..target+SIDES-1."""
    if target < 2:
        raise InputError(f"the target must be at least 2, not {target}")
    graph = TurnGraph(target + SIDES)
    choice: dict[int, int] = {}  # turn total -> hold-or-roll node (or its leaf at the target)
    root = -1
    for total in range(target - 1, -1, -1):  # higher totals first: children before parents
        children = [0] + [choice.get(total + f, total + f) for f in range(2, SIDES + 1)]
        (chance,) = graph.add_chance(np.array([0, SIDES]), np.array(children),
                                     [1] * SIDES, [SIDES])
        if total == 0:
            root = int(chance)
        else:
            (node,) = graph.add_choice(np.array([0, 2]), np.array([total, chance]))
            choice[total] = int(node)
    return TurnLocal(graph, root)


def hold_at_distribution(hold: int, cap: int) -> list[Fraction]:
    """P(banked turn total = r) when holding as soon as the total reaches min(hold, cap)."""
    stop = min(hold, cap)
    mass = {0: Fraction(1)}
    result: dict[int, Fraction] = {0: Fraction(0)}
    for total in range(stop):  # totals only grow, so one sweep settles every total below stop
        p = mass.pop(total, Fraction(0))
        if not p:
            continue
        result[0] += p / SIDES
        for face in range(2, SIDES + 1):
            mass[total + face] = mass.get(total + face, Fraction(0)) + p / SIDES
    for total, p in mass.items():
        result[total] = result.get(total, Fraction(0)) + p
    return [result.get(r, Fraction(0)) for r in range(max(result) + 1)]


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
        return self._hold_local(self.target - position[position[2]])

    def _hold_local(self, cap: int) -> Choices:
        cache = self.__dict__.setdefault("_hold_cache", {})
        if cap not in cache:
            dist = hold_at_distribution(self.hold, cap)
            cache[cap] = Choices([[(r, p) for r, p in enumerate(dist) if p]], len(dist))
        return cache[cap]

    def successors(self, position: Hashable) -> Sequence[Hashable | Terminal]:
        mover = position[2]
        mine, theirs = position[mover], position[1 - mover]
        cap = self.target - mine
        n = self.local(position).n_results
        if mover == 0:
            result = [(mine + r, theirs, 1) for r in range(min(n, cap))]
        else:
            result = [(theirs, mine + r, 0) for r in range(min(n, cap))]
        return result + [self.wins[mover]] * (n - len(result))
