"""One Doctor's dice of one colour as the Challenge sees them, and every way to keep some of them.

Faces the Challenge does not need are one "blank" face (their weights added), and dice showing a
needed symbol beyond the Challenge's count of it count as blank too: such dice are interchangeable
for every tool (a re-roll forgets the old face; a change may start from any die of the colour).
A keep is what stays on the table while the rest is re-rolled; a state is a keep of every die.
Because dice are independent, keeping K and rolling the others is worth the average, over the
first rolled die's face f, of keeping K + f and rolling the others: one pass over keeps from the
largest down gives every keep's value with a handful of array operations per keep size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from itertools import product

import numpy as np

from solver.dice import compositions

BLANK = None  # the symbol of the blank face


@dataclass(frozen=True)
class ReducedDie:
    """A die's faces as the Challenge sees them: needed symbols it shows, then the blank."""

    symbols: tuple[int | None, ...]  # symbol index per face; the last face is BLANK
    weights: tuple[int, ...]  # the blank's weight may be 0 (every face needed)
    caps: tuple[int, ...]  # per symbol face, the Challenge's count of it

    @property
    def total(self) -> int:
        return sum(self.weights)


def reduce_die(faces: tuple[int, ...], weights: tuple[int, ...], need: tuple[int, ...]
               ) -> ReducedDie:
    """The reduced form of a die whose faces are symbol indices."""
    kept = [(s, w) for s, w in zip(faces, weights) if need[s] > 0]
    blank = sum(weights) - sum(w for _, w in kept)
    return ReducedDie((*(s for s, _ in kept), BLANK), (*(w for _, w in kept), blank),
                      tuple(need[s] for s, _ in kept))


@dataclass(frozen=True)
class Keeps:
    """Every keep of up to n dice of one reduced die; the states (keeps of all n) come first."""

    die: ReducedDie
    n: int

    @cached_property
    def vectors(self) -> tuple[tuple[int, ...], ...]:
        """Count vectors over the reduced faces, by size from n down to 0."""
        faces = len(self.die.symbols)
        return tuple(v for m in range(self.n, -1, -1) for v in compositions(m, faces)
                     if all(c <= cap for c, cap in zip(v, self.die.caps)))

    @cached_property
    def index(self) -> dict[tuple[int, ...], int]:
        return {v: i for i, v in enumerate(self.vectors)}

    @cached_property
    def levels(self) -> dict[int, tuple[int, int]]:
        """Keep size -> the [start, stop) range of its keeps."""
        sizes = [sum(v) for v in self.vectors]
        return {m: (sizes.index(m), len(sizes) - sizes[::-1].index(m))
                for m in range(self.n + 1)}

    @property
    def states(self) -> int:
        return self.levels[self.n][1]

    def add(self, vector: tuple[int, ...], face: int) -> tuple[int, ...]:
        """One more die showing `face`; beyond the Challenge's count it is blank."""
        grown = list(vector)
        blank = len(grown) - 1
        grown[face if face == blank or grown[face] < self.die.caps[face] else blank] += 1
        return tuple(grown)

    @cached_property
    def successors(self) -> np.ndarray:
        """successors[f, i]: the keep i plus one die showing f (-1 for states)."""
        faces = len(self.die.symbols)
        table = np.full((faces, len(self.vectors)), -1, dtype=np.int64)
        for i, v in enumerate(self.vectors[self.states:], start=self.states):
            for f in range(faces):
                table[f, i] = self.index[self.add(v, f)]
        return table

    @cached_property
    def counts(self) -> np.ndarray:
        """(states x faces): how many dice of each state show each reduced face."""
        return np.array(self.vectors[:self.states], dtype=np.int64).reshape(self.states, -1)

    def canonical(self, counts: tuple[int, ...]) -> int:
        """The state of n dice given as counts over the reduced faces (surplus made blank)."""
        vector = (0,) * len(self.die.symbols)
        for face, count in enumerate(counts):
            for _ in range(count):
                vector = self.add(vector, face)
        return self.index[vector]

    def sub_keeps(self, state: int, rerolled: range) -> list[int]:
        """The keeps of a state that re-roll a number of dice in `rerolled`."""
        x = self.vectors[state]
        keeps = []
        for k in product(*(range(c, -1, -1) for c in x)):
            if self.n - sum(k) in rerolled:
                keeps.append(self.index[k])
        return keeps


@cache
def padded_choices(keeps: Keeps, rerolled: range) -> np.ndarray:
    """Per state, the keeps that re-roll a number of dice in `rerolled` (what a tool allows:
    rules.reroll_sizes, rules.sonic_reroll_sizes), as a (states x most choices) index array
    whose short rows repeat their first keep (a repeat cannot change a maximum)."""
    rows = [keeps.sub_keeps(s, rerolled) for s in range(keeps.states)]
    width = max(len(r) for r in rows)
    return np.array([r + r[:1] * (width - len(r)) for r in rows], dtype=np.int64)


@cache
def keeps_for(die: ReducedDie, n: int) -> Keeps:
    return Keeps(die, n)


@dataclass(frozen=True)
class Group:
    """One Doctor's dice of one colour: the unit a re-roll icon or a change acts on."""

    doctor: int
    colour: int
    die: ReducedDie
