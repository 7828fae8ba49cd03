"""The arena up to relabelling, and the exact distribution of a throw into it (readings 4, 4b and
5 of docs/rules.md, "Strike", counted rather than played).

The five numbers of a die are exchangeable (each 1/6, treated alike by every rule), so the model
stores an arena up to relabelling: the sizes of its groups of equal numbers, largest first.
Between throws the arena is a set, so this is `(1,) * k` for k different numbers; only the setup
can leave a group of two or more (two players placing the same number). A throw's outcome is
given relative to the arena (dice left in it, dice taken, dice removed), so every position with
the same arena and the same number of dice thrown shares one distribution.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import comb
from typing import NamedTuple

import numpy as np

from solver.games.strike.rules import FACES, LABELS, NUMBERS, settle

Arena = tuple[int, ...]  # sizes of the groups of equal numbers, largest first


class Outcome(NamedTuple):
    """One result of a throw: numbers left showing once, dice taken by the thrower (all dice
    showing a number two or more dice show), dice removed (X faces, misses and dice struck out of
    the arena), probability."""

    left: int
    taken: int
    removed: int
    probability: Fraction


def canonical(numbers: Sequence[int]) -> Arena:
    """The arena of these labelled dice up to relabelling: group sizes, largest first."""
    counts: dict[int, int] = defaultdict(int)
    for n in numbers:
        counts[n] += 1
    return tuple(sorted(counts.values(), reverse=True))


def representative(arena: Arena) -> list[int]:
    """Labelled dice with this arena: group k shows number k + 1 (for tables and reports)."""
    return [LABELS[k] for k, size in enumerate(arena) for _ in range(size)]


@cache
def _faces(fixed: Arena, rolled: int) -> dict[tuple[int, int, int], int]:
    """Ways (out of 6**rolled) for `rolled` fresh dice to land so that, together with `fixed`
    dice (count per number, numbers 1.. in order), `left` dice stay in the arena, `taken` dice
    are taken and `xs` dice show X (rules.settle). Numbers are filled one at a time
    (multinomial counting); the X gets the dice no number took."""
    states = {(0, 0, 0): 1}  # (fresh dice used, left, taken) -> ways
    for number in range(NUMBERS):
        have = fixed[number] if number < len(fixed) else 0
        following: dict[tuple[int, int, int], int] = defaultdict(int)
        for (used, left, taken), ways in states.items():
            free = rolled - used
            for k in range(free + 1):
                stays, takes = settle(have + k)
                following[(used + k, left + stays, taken + takes)] += ways * comb(free, k)
        states = following
    result: dict[tuple[int, int, int], int] = defaultdict(int)
    for (used, left, taken), ways in states.items():
        result[(left, taken, rolled - used)] += ways
    return dict(result)


def _binomial(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p ** k * (1 - p) ** (n - k)


def _strike_patterns(arena: Arena, hit: Fraction, fly_out: Fraction
                     ) -> dict[tuple[Arena, int, int], Fraction]:
    """(dice left unstruck per group, dice struck and rolled again, dice struck out of the
    arena) -> probability: each arena die is struck independently with probability `hit`
    (reading 4), and a struck die flies out of the arena with probability `fly_out` (reading
    4b)."""
    patterns: dict[tuple[Arena, int, int], Fraction] = {((), 0, 0): Fraction(1)}
    for size in arena:
        following: dict[tuple[Arena, int, int], Fraction] = defaultdict(Fraction)
        for (kept, rolled, flown), p in patterns.items():
            for stay in range(size + 1):
                q = _binomial(size, stay, 1 - hit)
                for out in range(size - stay + 1):
                    r = q * _binomial(size - stay, out, fly_out)
                    if r:
                        following[((*kept, stay), rolled + size - stay - out, flown + out)] += \
                            p * r
        patterns = following
    return patterns


@cache
def throw_outcomes(arena: Arena, thrown: int, hit: Fraction, miss: Fraction,
                   fly_out: Fraction = Fraction(0)) -> tuple[Outcome, ...]:
    """Exact distribution of a throw of `thrown` dice into `arena` (readings 4, 4b and 5): the
    hit patterns (how many dice of each group are struck, how many of those fly out) times the
    thrown dice that land, times the faces of every die rolled in the arena. Sorted by (left,
    taken, removed)."""
    total: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    for (kept, struck, flown), p_strike in _strike_patterns(arena, hit, fly_out).items():
        for landed in range(thrown + 1):
            p_land = _binomial(thrown, landed, 1 - miss)
            if not p_land:
                continue
            rolled = struck + landed
            scale = p_strike * p_land / FACES ** rolled
            for (left, taken, xs), ways in _faces(kept, rolled).items():
                total[(left, taken, xs + thrown - landed + flown)] += scale * ways
    return tuple(Outcome(*key, p) for key, p in sorted(total.items()) if p)


@cache
def outcome_arrays(arena: Arena, thrown: int, hit: Fraction, miss: Fraction,
                   fly_out: Fraction = Fraction(0)) -> tuple[np.ndarray, ...]:
    """`throw_outcomes` as arrays, for games played a million positions at a time: (left,
    taken, removed, probability), in the same order."""
    outcomes = throw_outcomes(arena, thrown, hit, miss, fly_out)
    left, taken, removed = (np.array([o[i] for o in outcomes], dtype=np.int64)
                            for i in range(3))
    return left, taken, removed, np.array([float(o.probability) for o in outcomes])
