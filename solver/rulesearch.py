"""Finding the best rule a person can remember: a family of rules is a few integers, each with a
range; a rule's value comes from the game's exact evaluator. Small families are searched
exhaustively; larger ones by coordinate ascent from a fixed start and seeded restarts, so the same
command finds the same rule. The frontier is the best rule of each size (how many numbers a
player must remember), with its loss against optimal play."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

EXHAUSTIVE = 20_000  # members a family may have and still be searched exhaustively
RESTARTS = 8


@dataclass(frozen=True)
class Family:
    """Rules described by integers: `ranges[k]` holds the values the k-th number may take;
    `start` is where the ascent begins (a rule players already use, say)."""

    name: str
    ranges: tuple[range, ...]
    start: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.ranges)

    @property
    def members(self) -> int:
        return prod(len(r) for r in self.ranges)


@dataclass(frozen=True)
class Found:
    family: str
    numbers: tuple[int, ...]
    value: float
    evaluated: int  # rules evaluated to find it


def search(family: Family, evaluate: Callable[[tuple[int, ...]], float], seed: int = 0,
           exhaustive: int = EXHAUSTIVE, restarts: int = RESTARTS) -> Found:
    """The family's best member (largest value; ties to the first found): every member when
    there are at most `exhaustive`, else the best of the ascents from `family.start` and
    `restarts` seeded random starts (fewer for an evaluator that takes a solve per rule)."""
    memo: dict[tuple[int, ...], float] = {}

    def value(numbers: tuple[int, ...]) -> float:
        if numbers not in memo:
            memo[numbers] = evaluate(numbers)
        return memo[numbers]

    if family.members <= exhaustive:
        best = max(itertools.product(*family.ranges), key=value)
    else:
        rng = random.Random(seed)
        starts = [family.start] + [tuple(rng.choice(r) for r in family.ranges)
                                   for _ in range(restarts)]
        best = max((_ascend(family, start, value) for start in starts), key=value)
    return Found(family.name, best, value(best), len(memo))


def _ascend(family: Family, numbers: tuple[int, ...],
            value: Callable[[tuple[int, ...]], float]) -> tuple[int, ...]:
    """Coordinate ascent: change one number at a time to its best value, until none helps."""
    improved = True
    while improved:
        improved = False
        for k, choices in enumerate(family.ranges):
            candidates = [(*numbers[:k], v, *numbers[k + 1:]) for v in choices]
            best = max(candidates, key=value)
            if value(best) > value(numbers):
                numbers, improved = best, True
    return numbers


def frontier(found: Sequence[tuple[Family, Found]]) -> list[tuple[Family, Found]]:
    """The best rule of each size, smallest size first; a larger rule is kept only if it is
    better than every smaller one."""
    best: list[tuple[Family, Found]] = []
    for family, result in sorted(found, key=lambda pair: (pair[0].size, -pair[1].value)):
        if not best or (family.size > best[-1][0].size and result.value > best[-1][1].value):
            best.append((family, result))
    return best
