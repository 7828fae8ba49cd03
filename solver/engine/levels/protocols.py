"""What the level engine asks of what it is given: a game (`LevelGame`, with a shared turn
graph, or `OptionGame`, with explicit options), a `Store` of finished levels, and a `Runner`
of a level's chunks. These are its extension points."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from solver.engine.levels.passes import TurnPasses
from solver.engine.levels.records import ChunkResult, ChunkTask, Edges, LevelShard


class LevelGame(Protocol):
    """A game as the level engine sees it. Positions are numbers 0..size-1; each has a mover who
    maximises one metric through the game's turn, whose results lead to positions or terminal
    payoffs. Successors lie in the position's own level or in later ones."""

    metrics: int  # numbers per position (the game names them)
    size: int  # positions, reachable or not
    levels: int  # solved from levels - 1 down to 0
    turn: TurnPasses  # every mover's decision (one turn graph for the whole game)

    def start(self) -> int:
        """Where the game begins: what is reachable is reachable from here."""

    def positions(self, level: int) -> np.ndarray:
        """The level's positions, in increasing order."""

    def level_of(self, positions: np.ndarray) -> np.ndarray:
        """The level of each position: how the values of a solve with a store are read back
        (`stored.StoredValues`)."""

    def objective(self, positions: np.ndarray) -> np.ndarray:
        """The metric each position's mover maximises."""

    def successors(self, positions: np.ndarray) -> np.ndarray:
        """(positions, results): where each result of the turn leads, a position number, or
        -1 - t for terminal t (a row of `terminals`). Results no play can give lead anywhere."""

    def terminals(self) -> np.ndarray:
        """(terminals, metrics): the payoffs `successors` has referred to so far."""

    def similar(self, positions: np.ndarray) -> np.ndarray:
        """(positions, candidates): positions, -1 for none, whose values are a good first guess
        (the first one solved is taken). It only affects speed, and ties between equal plays."""

    # Optional: `reads(level) -> Iterable[int]`, the levels whose values the level's turns and
    # similar guesses may read, its own included (default: every later level). A solve keeps
    # only the levels some level still to solve reads, and a chunk can read nothing else
    # (`view.Window`: a level left out is an error, never a silent NaN).
    # Optional: `starts() -> np.ndarray`, the positions the reachability sweep starts from
    # (default: the start alone): a part of the game, such as what follows a position.


class OptionGame(Protocol):
    """A level game whose movers choose among explicit options (`Edges`), instead of playing a
    shared turn graph: the same as `LevelGame` without `turn` and `successors`."""

    metrics: int
    size: int
    levels: int

    def start(self) -> int: ...

    def positions(self, level: int) -> np.ndarray: ...

    def level_of(self, positions: np.ndarray) -> np.ndarray: ...

    def objective(self, positions: np.ndarray) -> np.ndarray: ...

    def options(self, positions: np.ndarray) -> Edges:
        """Every option of each position, as edges to positions of its own level or later ones,
        or to terminals."""

    def terminals(self) -> np.ndarray: ...

    # Optional: `similar(positions)` and `reads(level)`, as in `LevelGame`.


class Store(Protocol):
    """Finished levels kept somewhere (solver.checkpoint.Checkpoint keeps them on disk)."""

    def finished(self) -> dict[int, dict[str, Any]]:
        """Level -> its statistics, for every level stored."""

    def load(self, level: int) -> dict[str, np.ndarray] | None:
        """The level's arrays as `save` was given them, or None if they cannot be read."""

    def save(self, level: int, arrays: dict[str, np.ndarray], stats: dict[str, Any]) -> None:
        """Keep a finished level: "values" (metrics, level positions) and its mixes
        (`mixed.pack`)."""

    # Optional: `reachable() -> np.ndarray | None`, the flags `keep_reachable(flags)` kept (a
    # bool per position), so that a solve read back skips the reachability sweep.


class Runner(Protocol):
    """Runs a level's chunks (`solve_chunk` on each task, with a `view.Window` over the
    finished levels the level reads, `shards`) and gives their results in the tasks' order: in
    this process (`in_process`) or on a cluster (`cluster.RayRunner`)."""

    def __call__(self, game: LevelGame | OptionGame, level: int, shards: Sequence[LevelShard],
                 tasks: Iterable[ChunkTask], eager: bool, tolerance: float
                 ) -> Iterator[ChunkResult]: ...

    # Optional: `cpus`, how many chunks it solves at once (1 if absent): levels are then split
    # into more chunks (`chunk_size`), which changes no value.
