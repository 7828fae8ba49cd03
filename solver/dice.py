"""Dice as data, the exact distribution of a roll as multisets of faces, and seeded throws.

A die is a tuple of named faces with positive integer weights. Rolling n alike dice gives a
distribution over count vectors (how many dice show each face) with multinomial weights. Weights
stay integers over one common denominator, so exact (Fraction) and float64 probabilities come from
the same enumeration. Simulators throw dice with `throw`, from one PCG64 `generator` per run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from math import factorial, prod

import numpy as np

from solver.errors import InputError

MAX_WEIGHT_DIGITS = 4000  # int() refuses text past 4,300 digits; a game bounds weights itself

Counts = tuple[int, ...]
"""How many dice show each face, in the die's face order."""


@dataclass(frozen=True)
class Die:
    """A die: distinct face names and their integer weights (a fair d6 has six weights of 1)."""

    name: str
    faces: tuple[str, ...]
    weights: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.faces:
            raise InputError(f"die {self.name!r} has no faces")
        if len(self.faces) != len(self.weights):
            raise InputError(f"die {self.name!r}: {len(self.faces)} faces but "
                             f"{len(self.weights)} weights")
        if len(set(self.faces)) != len(self.faces):
            raise InputError(f"die {self.name!r} names a face twice: give it a weight instead")
        for face, weight in zip(self.faces, self.weights):
            if not isinstance(weight, int) or isinstance(weight, bool) or weight <= 0:
                raise InputError(f"die {self.name!r}: face {face!r} needs a positive whole "
                                 f"weight, not {weight!r}")

    @classmethod
    def parse(cls, name: str, text: str) -> Die:
        """A die from "FACE FACE:WEIGHT ...": a face without a weight counts 1, and a face named
        twice adds up its weights."""
        weights: dict[str, int] = {}
        for token in text.replace(",", " ").split():
            face, _, weight = token.partition(":")
            if not face or (weight and not _whole(weight)):
                shown = token if len(token) <= 30 else token[:27] + "..."
                raise InputError(f"die {name!r}: cannot read {shown!r} (write FACE or "
                                 "FACE:WEIGHT, the weight in digits 0-9)")
            weights[face] = weights.get(face, 0) + (int(weight) if weight else 1)
        return cls(name, tuple(weights), tuple(weights.values()))

    @property
    def total(self) -> int:
        """The sum of the weights: the denominator of one roll."""
        return sum(self.weights)

    def index(self, face: str) -> int:
        """The position of a face, or a clear error naming the faces that exist."""
        try:
            return self.faces.index(face)
        except ValueError:
            raise InputError(f"unknown face {face!r} for die {self.name!r} "
                             f"(faces: {' '.join(self.faces)})") from None

    def probability(self, face: str) -> Fraction:
        return Fraction(self.weights[self.index(face)], self.total)


@dataclass(frozen=True)
class Distribution:
    """Outcomes with integer weights over a common denominator; weights sum to it exactly."""

    outcomes: tuple
    weights: tuple[int, ...]
    denominator: int

    def __len__(self) -> int:
        return len(self.outcomes)

    def __iter__(self) -> Iterator[tuple[object, Fraction]]:
        return iter(zip(self.outcomes, self.fractions))

    @cached_property
    def fractions(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(w, self.denominator) for w in self.weights)

    @cached_property
    def floats(self) -> np.ndarray:
        """Correctly rounded float64 probabilities (int / int division rounds exactly once)."""
        array = np.array([w / self.denominator for w in self.weights], dtype=np.float64)
        array.flags.writeable = False
        return array


def _whole(text: str) -> bool:
    """Written as a whole number in ASCII digits ("²" passes str.isdigit but not int())."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_WEIGHT_DIGITS


def compositions(n: int, parts: int) -> Iterator[Counts]:
    """Every way to write n as an ordered sum of `parts` non-negative integers, in lexicographic
    order of the tuples (the last part varies fastest)."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in compositions(n - first, parts - 1):
            yield (first, *rest)


def multinomial(counts: Counts) -> int:
    """The number of ordered rolls that show these counts."""
    return factorial(sum(counts)) // prod(factorial(c) for c in counts)


@cache
def roll(die: Die, n: int) -> Distribution:
    """The distribution of n alike dice as count vectors over the die's faces."""
    if n < 0:
        raise InputError(f"cannot roll {n} dice")
    outcomes = tuple(compositions(n, len(die.faces)))
    weights = tuple(multinomial(c) * prod(w**k for w, k in zip(die.weights, c))
                    for c in outcomes)
    return Distribution(outcomes, weights, die.total**n)


def generator(seed: int) -> np.random.Generator:
    """The one source of randomness: PCG64 from the user's seed."""
    if seed < 0:
        raise InputError(f"the seed must be a whole number >= 0, not {seed}")
    return np.random.Generator(np.random.PCG64(seed))


def throw(rng: np.random.Generator, die: Die, dice: np.ndarray) -> np.ndarray:
    """Counts over the die's faces of `dice[i]` dice thrown for each row i. Each die shows one
    of its total-weight equally likely sides, so face weights are exact."""
    faces = len(die.faces)
    most = int(dice.max(initial=0))
    sides = np.repeat(np.arange(faces, dtype=np.int64), die.weights)
    shown = sides[rng.integers(0, die.total, size=(len(dice), most), dtype=np.int16)]
    thrown = np.arange(most) < dice[:, None]
    cells = (np.arange(len(dice))[:, None] * faces + shown)[thrown]
    return np.bincount(cells, minlength=len(dice) * faces).reshape(len(dice), faces)
