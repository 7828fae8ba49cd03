"""A finished solve's values as its store holds them, read level by level: what a solve with a
store answers, instead of one (metrics, size) array (6.3 GB for 4 players to 60). A reader
asks for positions by number; the game says which level each is in (`level_of`), and only
those levels' files are read, a few kept (`KEEP`, the most recently read) for the next
question. The values are the store's bits: those a solve without a store gives."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Protocol

import numpy as np

from solver.errors import InputError

KEEP = 6  # levels held at once: a table written level by level reads one level before the
# final round and the final round's levels (three for 4 players) again and again


class Numbering(Protocol):
    """What the values need of a level game (`LevelGame`, `OptionGame`)."""

    metrics: int
    size: int

    def positions(self, level: int) -> np.ndarray: ...

    def level_of(self, positions: np.ndarray) -> np.ndarray: ...


class Levels(Protocol):
    """What the values need of a store (`Store`)."""

    def finished(self) -> dict[int, dict[str, Any]]: ...

    def load(self, level: int) -> dict[str, np.ndarray] | None: ...


def read_level(game: Numbering, store: Levels, level: int, finished: dict[int, Any]
               ) -> dict[str, np.ndarray] | None:
    """A level's arrays as the store holds them ("values" of the level's shape among them), or
    None if it cannot give them: not finished, unreadable, or of another shape."""
    stored = store.load(level) if level in finished else None
    values = None if stored is None else stored.get("values")
    if stored is None or values is None or \
            values.shape != (game.metrics, len(game.positions(level))):
        return None
    return stored


class StoredValues:
    """Every position's values (NaN where unreachable) of a solve whose levels are all in
    `store`, read on demand a level at a time. `loads` counts the levels read from it."""

    def __init__(self, game: Numbering, store: Levels, keep: int = KEEP) -> None:
        self.game, self.store, self.keep = game, store, keep
        self.metrics, self.size = game.metrics, game.size
        self.finished = store.finished()
        self.loads = 0
        self._held: OrderedDict[int, tuple[np.ndarray, np.ndarray]] = OrderedDict()

    def level(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        """(positions, values): the level's positions in increasing order and their values
        (metrics, positions)."""
        held = self._held.pop(level, None)
        if held is None:
            stored = read_level(self.game, self.store, level, self.finished)
            if stored is None:
                raise InputError(f"the checkpoint lost level {level}: run again to solve it "
                                 "anew")
            self.loads += 1
            held = (self.game.positions(level), stored["values"])
        self._held[level] = held
        while len(self._held) > self.keep:
            self._held.popitem(last=False)
        return held

    def take(self, numbers: np.ndarray) -> np.ndarray:
        """(metrics, numbers): the values of these positions, each level read once."""
        numbers = np.asarray(numbers, dtype=np.int64)
        found = np.empty((self.metrics, len(numbers)))
        at = self.game.level_of(numbers)
        for level in np.unique(at).tolist():
            rows = np.flatnonzero(at == level)
            positions, values = self.level(level)
            found[:, rows] = values[:, np.searchsorted(positions, numbers[rows])]
        return found
