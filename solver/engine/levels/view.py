"""What a chunk sees of a solve: the finished levels' values and states, read-only, with its
own positions' values kept apart, so that a chunk is a pure function of its inputs."""

from __future__ import annotations

import numpy as np

from solver.engine.levels.protocols import LevelGame, OptionGame
from solver.engine.levels.reach import within
from solver.engine.mixed import Mixed


class ChunkView:
    """What a chunk sees of the solve: the game, the finished levels' values (`_Overlay`: its
    own positions' are kept apart) and states, the level's eager flag, the tolerance; and the
    mixed play it finds."""

    def __init__(self, game: LevelGame | OptionGame, values: np.ndarray, state: np.ndarray,
                 positions: np.ndarray, eager: bool, tolerance: float) -> None:
        self.game, self.state, self.eager, self.tolerance = game, state, eager, tolerance
        self.values = _Overlay(values, positions)
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
        if np.isnan(out).any():
            raise ValueError("a successor is not solved yet: the game's levels are out of order")
        return out


class _Overlay:
    """The values array as a chunk indexes it, `values[metrics, positions]` (metrics a slice
    or an array like the positions): its own positions' values in an array of their own,
    every other position's read from the shared array, which is never written (in a cluster's
    worker it is the object store's read-only copy)."""

    def __init__(self, shared: np.ndarray, positions: np.ndarray) -> None:
        self.shared = shared
        self.positions = np.sort(positions)
        self.own = np.full((shared.shape[0], len(positions)), np.nan)

    def __getitem__(self, key: tuple[slice | np.ndarray, np.ndarray]) -> np.ndarray:
        metrics, positions = key
        out = self.shared[metrics, positions]
        place = within(self.positions, positions)
        mine = place >= 0
        if mine.any():
            if isinstance(metrics, slice):
                out[:, mine] = self.own[metrics, place[mine]]
            else:
                out[mine] = self.own[np.broadcast_to(metrics, mine.shape)[mine], place[mine]]
        return out

    def __setitem__(self, key: tuple[slice | np.ndarray, np.ndarray],
                    value: np.ndarray | float) -> None:
        metrics, positions = key
        place = within(self.positions, positions)
        if (place < 0).any():
            raise ValueError("a chunk writes values of positions not its own")
        self.own[metrics, place] = value
