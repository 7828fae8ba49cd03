"""What a solved game answers, whichever engine solved it: the cyclic engine's `Solution` and a
game's level solve (Strike's `LevelSolution`) both implement `SolvedGame`, so reports, tables
and advice read a solve through these methods and never through an engine's own structures."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol, TypeVar

import numpy as np

if TYPE_CHECKING:
    from solver.engine.cyclic import Local


P = TypeVar("P", bound=Hashable)  # a position, as the game writes it


class SolvedGame(Protocol[P]):
    """Every solved position's values (a number per metric), and what the solve took."""

    residual: float  # the largest Bellman residual left
    iterations: int  # policy iterations of the slowest component
    components: int
    seconds: dict[str, float]  # what the solve took ("total"), or reading it from the cache
    cached: bool  # read from the disk cache, not solved in this process

    @property
    def exact(self) -> object | None:
        """Not None where exact values were computed (the cyclic engine's --exact)."""

    @property
    def size(self) -> int:
        """How many positions were solved."""

    def __contains__(self, position: object) -> bool:
        """Whether the solve reached `position` (only those have values)."""

    def positions(self) -> Iterator[P]:
        """Every position solved."""

    def values(self, position: P) -> np.ndarray:
        """The position's value of every metric (float64)."""

    def exact_values(self, position: P) -> list[Fraction]:
        """The same, exactly (ValueError when solved without exact values)."""

    def local(self, position: P) -> Local:
        """The mover's decision at the position (its options, as the engine played them)."""

    def utilities(self, position: P) -> np.ndarray:
        """The mover's value of each result of the position's local model."""

    def exact_utilities(self, position: P) -> list[Fraction]:
        """The same, exactly (ValueError when solved without exact values)."""
