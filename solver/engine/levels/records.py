"""What the level engine's parts hand each other: an option game's edges, the chunks' tasks and
results, the finished levels chunks read, per-level statistics, the progress status and the
finished solve."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver.engine.levels.stored import StoredValues
from solver.engine.mixed import Mixed

REACHABLE, SOLVED = 1, 2  # bits of a position's state


@dataclass
class Edges:
    """Each position's options, for games whose movers choose among a few options (stop or throw
    again, where to place) rather than through a shared turn graph: every option a distribution
    over successors, written as edges in CSR layout. An option's edges are its own (options do
    not share them); options are numbered 0.. per position in the order ties are broken (the
    first best is played, as `solver.engine.local.Choices` plays it)."""

    start: np.ndarray  # (positions + 1,): where each position's edges begin
    target: np.ndarray  # a position number, or -1 - t for terminal t
    probability: np.ndarray  # of the edge within its option
    option: np.ndarray  # the option the edge belongs to

    @property
    def row(self) -> np.ndarray:
        """The position (its place in the batch) of each edge."""
        return np.repeat(np.arange(len(self.start) - 1), np.diff(self.start))

    def part(self, first: int, stop: int) -> Edges:
        """The edges of positions first..stop-1 (places in the batch): views, not copies."""
        lo, hi = self.start[first], self.start[stop]
        return Edges(self.start[first:stop + 1] - lo, self.target[lo:hi],
                     self.probability[lo:hi], self.option[lo:hi])

    def take(self, rows: np.ndarray) -> Edges:
        """The edges of these positions (places in the batch), in that order."""
        if np.array_equal(rows, np.arange(len(self.start) - 1)):
            return self
        counts = np.diff(self.start)[rows]
        start = np.concatenate([[0], np.cumsum(counts)])
        index = np.repeat(self.start[rows] - start[:-1], counts) + np.arange(start[-1])
        return Edges(start, self.target[index], self.probability[index], self.option[index])


@dataclass
class LevelStats:
    """What solving one level took."""

    positions: int = 0  # reachable positions solved
    components: int = 0
    iterations: int = 0  # policy iterations of the slowest component
    residual: float = 0.0  # the largest Bellman residual left
    backward: int = 0  # turn passes (columns): backward
    forward: int = 0  # and forward
    sweeps: int = 0  # Gauss-Seidel sweeps of large systems (option games)
    seconds: float = 0.0

    def add(self, other: LevelStats) -> None:
        self.positions += other.positions
        self.components += other.components
        self.iterations = max(self.iterations, other.iterations)
        self.residual = max(self.residual, other.residual)
        self.backward += other.backward
        self.forward += other.forward
        self.sweeps += other.sweeps
        self.seconds += other.seconds


@dataclass
class Status:
    """Where a solve stands, for a progress display."""

    levels: int
    levels_done: int
    positions: int  # reachable positions in all
    positions_done: int
    resumed_levels: int  # read from the store, not solved in this run
    resumed_positions: int
    seconds: float  # since this run started solving


@dataclass
class LevelSolution:
    """Every reachable position's values, and what the solve took."""

    values: np.ndarray | StoredValues  # (metrics, size), NaN where unreachable; or, solved
    # with a store, the store's levels read on demand
    reachable: np.ndarray  # (size,) bool
    levels: list[LevelStats]  # per level
    resumed: int  # levels read from the store
    seconds: dict[str, float] = field(default_factory=dict)
    mixed: list[tuple[np.ndarray, Mixed]] = field(default_factory=list)  # where play mixes:
    # (positions, mix), in every level, solved or read from the store

    @property
    def total(self) -> LevelStats:
        total = LevelStats()
        for stats in self.levels:
            total.add(stats)
        return total


@dataclass
class ChunkTask:
    """Whole components of one level, as a chunk's work is handed out: its positions, their
    component labels (sorted), and, in an option game, their options."""

    positions: np.ndarray
    labels: np.ndarray
    edges: Edges | None = None


@dataclass
class LevelShard:
    """A finished level as later levels read it: the unit the driver keeps (and drops once no
    level still to solve reads it) and a cluster puts once. Its positions are every one of the
    level's, in increasing order; values are NaN and states 0 where unreachable."""

    level: int
    positions: np.ndarray
    values: np.ndarray  # (metrics, positions)
    state: np.ndarray  # (positions,) uint8: REACHABLE, SOLVED

    @property
    def nbytes(self) -> int:
        return int(self.positions.nbytes + self.values.nbytes + self.state.nbytes)


@dataclass
class ChunkResult:
    """What solving a chunk gives: its positions (sorted) and their values, what it took, the
    mixed play it found, and the eager flag it ends with (see `_TurnChunk.check`)."""

    positions: np.ndarray
    values: np.ndarray  # (metrics, positions)
    stats: LevelStats
    mixes: list[tuple[np.ndarray, Mixed]]
    eager: bool
    seconds: float  # of work in the process that solved it
