"""What a chunk sees of a solve: the finished levels its level reads (a `Window` over their
`LevelShard`s), read-only, with its own positions' values kept apart, so that a chunk is a pure
function of its inputs."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.engine.levels.protocols import LevelGame, OptionGame
from solver.engine.levels.reach import within
from solver.engine.levels.records import LevelShard
from solver.engine.mixed import Mixed

Metrics = slice | np.ndarray  # a slice of the metrics, or one metric per position


class Window:
    """The finished levels a level reads, looked up by position number: one sorted index over
    their positions and the level's own. The level's own positions have no values here (a
    chunk keeps its own apart) and count as not solved. A position of any other level is an
    error that names that level: a game whose `reads` leaves out a level it reads fails
    loudly, never reads NaN. The shards' arrays are only read (on a cluster's node they are
    the object store's copy, shared by its workers); the index is 13 or 14 bytes a position."""

    def __init__(self, game: LevelGame | OptionGame, level: int,
                 shards: Sequence[LevelShard]) -> None:
        self.game, self.level, self.shards = game, level, list(shards)
        parts = [shard.positions for shard in self.shards] + [game.positions(level)]
        sizes = np.array([len(part) for part in parts])
        keys = np.concatenate(parts)
        order = np.argsort(keys, kind="stable")  # runs already sorted: a few merges
        self.keys = keys[order]
        shard = np.arange(len(parts), dtype=np.min_scalar_type(len(parts)))
        self.which = np.repeat(shard, sizes)[order]
        first = np.repeat(np.cumsum(sizes) - sizes, sizes)
        self.local = (np.arange(len(keys)) - first)[order].astype(np.int32)

    def values(self, metrics: Metrics, positions: np.ndarray) -> np.ndarray:
        """`values[metrics, positions]` of positions of the finished levels read."""
        which, local = self._find(positions)
        out: np.ndarray
        if isinstance(metrics, slice):
            out = np.empty((len(range(*metrics.indices(self.game.metrics))), len(positions)))
        else:
            out = np.empty(len(positions))
        for k in np.unique(which).tolist():
            if k == len(self.shards):
                own = positions[which == k][0]
                raise ValueError(f"a chunk of level {self.level} reads position {own} of its "
                                 "own level outside the chunk: a component was cut")
            pick = which == k
            shard = self.shards[k].values
            if isinstance(metrics, slice):
                out[:, pick] = shard[metrics, local[pick]]
            else:
                out[pick] = shard[metrics[pick], local[pick]]
        return out

    def state(self, positions: np.ndarray) -> np.ndarray:
        """The state bytes of positions of the levels read (0 in the level's own)."""
        which, local = self._find(positions)
        out = np.zeros(len(positions), dtype=np.uint8)
        for k in np.unique(which).tolist():
            if k < len(self.shards):
                pick = which == k
                out[pick] = self.shards[k].state[local[pick]]
        return out

    def _find(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each position's shard (len(shards) for the level's own) and place in it."""
        place = within(self.keys, positions)
        if (place < 0).any():
            raise ValueError(self._outside(int(positions[place < 0][0])))
        return self.which[place], self.local[place]

    def _outside(self, position: int) -> str:
        """Why a position is outside the window, naming its level."""
        read = sorted(shard.level for shard in self.shards)
        for level in range(self.game.levels):
            if (within(self.game.positions(level), np.array([position])) >= 0).all():
                if level < self.level:
                    return (f"level {self.level} reads position {position} of level {level}, "
                            "not solved yet: the game's levels are out of order")
                return (f"level {self.level} reads position {position} of level {level}, which "
                        f"the game's reads({self.level}) leaves out (it gives {read})")
        return f"level {self.level} reads position {position}, which is in no level"


class ChunkView:
    """What a chunk sees of the solve: the game, the finished levels' values (`_Overlay`: its
    own positions' are kept apart) and states (`_States`), the level's eager flag, the
    tolerance; and the mixed play it finds."""

    def __init__(self, game: LevelGame | OptionGame, window: Window, positions: np.ndarray,
                 eager: bool, tolerance: float) -> None:
        self.game, self.eager, self.tolerance = game, eager, tolerance
        self.values = _Overlay(window, positions)
        self.state = _States(window)
        self.mixes: list[tuple[np.ndarray, Mixed]] = []

    def rows(self, successors: np.ndarray) -> np.ndarray:
        """Every metric of each successor (positions or terminals): (..., metrics)."""
        out = np.empty((*successors.shape, self.game.metrics))
        inner = successors >= 0
        out[inner] = self.values[:, successors[inner]].T
        out[~inner] = self.game.terminals()[-1 - successors[~inner]]
        return out

    def utilities(self, successors: np.ndarray, objective: np.ndarray) -> np.ndarray:
        """Each mover's objective value of each result: (positions, results)."""
        metric = np.broadcast_to(objective[:, None], successors.shape)
        out = np.empty(successors.shape)
        inner = successors >= 0
        out[inner] = self.values[metric[inner], successors[inner]]
        out[~inner] = self.game.terminals()[-1 - successors[~inner], metric[~inner]]
        return solved(out)


def solved(utilities: np.ndarray) -> np.ndarray:
    """The utilities, if every one is a solved value: NaN is a successor not solved yet."""
    if np.isnan(utilities).any():
        raise ValueError("a successor is not solved yet: the game's levels are out of order")
    return utilities


class _States:
    """The state bytes a chunk reads, `state[positions]`, from the window."""

    def __init__(self, window: Window) -> None:
        self.window = window

    def __getitem__(self, positions: np.ndarray) -> np.ndarray:
        return self.window.state(positions)


class _Overlay:
    """The values as a chunk indexes them, `values[metrics, positions]` (metrics a slice or an
    array like the positions): its own positions' values in an array of their own, every
    other position's read from the window, which is never written."""

    def __init__(self, window: Window, positions: np.ndarray) -> None:
        self.window = window
        self.positions = np.sort(positions)
        self.own = np.full((window.game.metrics, len(positions)), np.nan)

    def __getitem__(self, key: tuple[Metrics, np.ndarray]) -> np.ndarray:
        metrics, positions = key
        place = within(self.positions, positions)
        mine = place >= 0
        if isinstance(metrics, slice):
            out = self.own[metrics, place]  # the right shape; other columns replaced below
            if not mine.all():
                out[:, ~mine] = self.window.values(metrics, positions[~mine])
            return out
        metrics = np.broadcast_to(metrics, positions.shape)
        out = self.own[metrics, place]
        if not mine.all():
            out[~mine] = self.window.values(metrics[~mine], positions[~mine])
        return out

    def __setitem__(self, key: tuple[Metrics, np.ndarray], value: np.ndarray | float) -> None:
        metrics, positions = key
        place = within(self.positions, positions)
        if (place < 0).any():
            raise ValueError("a chunk writes values of positions not its own")
        self.own[metrics, place] = value

