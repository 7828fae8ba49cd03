"""Which positions lead where: those reachable from the start, the components within a level
(positions that lead to each other), and a level cut into chunks of whole components."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from solver.engine.levels.protocols import LevelGame, OptionGame
from solver.engine.levels.records import Edges

CHUNK = 1 << 14  # positions solved together at most (whole components): bounds the buffers


def _parts(array: np.ndarray, size: int = CHUNK) -> Iterator[np.ndarray]:
    for start in range(0, len(array), size):
        yield array[start:start + size]


def within(members: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Each target's place among the sorted members, -1 where it is not one of them."""
    if not len(members):
        return np.full(targets.shape, -1)
    place = np.minimum(np.searchsorted(members, targets), len(members) - 1)
    return np.where(members[place] == targets, place, -1)


def _links(game: LevelGame | OptionGame, positions: np.ndarray, every: bool
           ) -> tuple[np.ndarray, np.ndarray]:
    """(place in `positions`, target) of each result of each position: of every result of the
    turn with `every` (as the cyclic engine links positions), else only of those some play gives."""
    if hasattr(game, "options"):
        edges = game.options(positions)
        return edges.row, edges.target
    successors = game.successors(positions)
    if not every:
        successors = successors[:, game.turn.possible]
    return np.repeat(np.arange(len(positions)), successors.shape[1]), successors.ravel()


def _starts(game: LevelGame | OptionGame) -> np.ndarray:
    """The game's `starts` where it has them, else its start."""
    starts = getattr(game, "starts", None)
    return np.array([game.start()]) if starts is None else starts()


def first_level(game: LevelGame | OptionGame, starts: np.ndarray | None = None) -> int:
    """The lowest level anything reachable lies in: the lowest of the starts' (a result
    never leads to an earlier level)."""
    return int(game.level_of(_starts(game) if starts is None else starts).min())


def reachable(game: LevelGame | OptionGame) -> np.ndarray:
    """Every position some play reaches from the start, or from the game's `starts` where it
    has them (results no play gives do not count): levels in increasing order, each until
    nothing new inside it is found."""
    reached = np.zeros(game.size, dtype=bool)
    starts = _starts(game)
    reached[starts] = True
    for level in range(first_level(game, starts), game.levels):
        members = game.positions(level)
        frontier = members[reached[members]]
        while len(frontier):
            found = []
            for part in _parts(frontier):
                targets = _links(game, part, every=False)[1]
                found.append(targets[targets >= 0])
            # sort only the targets not reached yet: most were reached before, and sorting
            # every target was 70% of the sweep
            targets = np.concatenate(found)
            new = np.unique(targets[~reached[targets]])
            reached[new] = True
            frontier = new[within(members, new) >= 0]
    return reached


def components(game: LevelGame | OptionGame, members: np.ndarray, edges: Edges | None = None
                ) -> np.ndarray:
    """A component label per member: members linked by results that stay in the level (either
    way) share one. Components are what policy iteration solves as one linear system. An option
    game's `edges` are the members' options, if computed already."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    row_parts, col_parts = [np.empty(0, dtype=np.int32)], [np.empty(0, dtype=np.int32)]
    for start in range(0, len(members), CHUNK):
        stop = min(start + CHUNK, len(members))
        part = None if edges is None else edges.part(start, stop)
        row, target = (_links(game, members[start:stop], every=True) if part is None
                       else (part.row, part.target))
        place = within(members, target)
        inside = place >= 0
        row_parts.append((row[inside] + start).astype(np.int32))  # one level's: < 2**31
        col_parts.append(place[inside].astype(np.int32))
    rows, cols = np.concatenate(row_parts), np.concatenate(col_parts)
    if not len(rows):
        return np.arange(len(members))
    links = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(members),) * 2)
    return connected_components(links, directed=True, connection="weak")[1]


def whole_components(labels: np.ndarray, size: int) -> Iterator[slice]:
    """Slices of the sorted labels, about `size` long, that never split a component."""
    start = 0
    while start < len(labels):
        stop = min(start + size, len(labels))
        while stop < len(labels) and labels[stop] == labels[stop - 1]:
            stop += 1
        yield slice(start, stop)
        start = stop
