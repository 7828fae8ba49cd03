"""The level engine's solve: reachability first, then the levels from the last back to the
first, each cut into chunks of whole components that a `Runner` solves (here, or on a
cluster), their results taken in the chunks' order so that every runner gives the same bits;
finished levels go to a `Store` and a solve resumes after the last one it holds.

Finished levels are kept level by level (`LevelShard`), and a chunk reads only those its level
reads (the game's `reads`). With a store, a level is dropped once the store has it and no level
still to solve reads it, so the driver never holds the whole values array: the answer is then
the store's levels, read on demand (`stored.StoredValues`). Without a store every level is kept,
and the answer's array is joined from them at the end."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict

import numpy as np

from solver.engine import mixed
from solver.engine.iteration import TOLERANCE
from solver.engine.levels.chunks import solve_chunk
from solver.engine.levels.protocols import LevelGame, OptionGame, Runner, Store
from solver.engine.levels.reach import (
    CHUNK,
    components,
    first_level,
    reachable,
    whole_components,
    within,
)
from solver.engine.levels.records import (
    REACHABLE,
    SOLVED,
    ChunkResult,
    ChunkTask,
    LevelShard,
    LevelSolution,
    LevelStats,
    Status,
)
from solver.engine.levels.stored import StoredValues, read_level
from solver.engine.levels.view import Window
from solver.engine.mixed import Mixed

SPREAD = 1  # chunks of a level per worker of a runner with several: one each keeps the tiles full
# (a chunk's later passes hold only its unsettled members), and halves of hundreds of components
# cost nearly the same (3 players to 24 on 2 workers: efficiency 0.93-0.96 with 1, 0.68 with 4)
SMALLEST = 128  # positions a chunk split for workers keeps at least: 8 tiles beyond its fixed cost


def chunk_size(members: int, cpus: int) -> int:
    """Positions per chunk of a level of `members`: at most CHUNK; for a runner of `cpus`
    workers small enough that each gets SPREAD chunks, but not under SMALLEST."""
    if cpus <= 1:
        return CHUNK
    return min(CHUNK, max(SMALLEST, -(-members // (SPREAD * cpus))))


def in_process(game: LevelGame | OptionGame, level: int, shards: Sequence[LevelShard],
               tasks: Iterable[ChunkTask], eager: bool, tolerance: float
               ) -> Iterator[ChunkResult]:
    """The chunks one after the other, here (lazily: a chunk's task is built when it runs)."""
    window = Window(game, level, shards)
    return (solve_chunk(game, window, task, eager, tolerance) for task in tasks)


def reads(game: LevelGame | OptionGame, level: int) -> list[int]:
    """The levels a level's chunks read, its own included, sorted: the game's `reads`, or
    every later level."""
    method = getattr(game, "reads", None)
    found = sorted({level, *(int(k) for k in (range(level, game.levels) if method is None
                                              else method(level)))})
    if found[0] < level or found[-1] >= game.levels:
        raise ValueError(f"reads({level}) gives {found}: a level reads only levels "
                         f"{level}..{game.levels - 1}")
    return found


def solve(game: LevelGame | OptionGame, *, store: Store | None = None, tolerance: float = TOLERANCE,
          progress: Callable[[Status], None] | None = None, runner: Runner | None = None
          ) -> LevelSolution:
    """Optimal values of every position reachable from the game's start, level by level from
    the last; levels the store holds are read instead of solved. `runner` runs each level's
    chunks (default: here, `in_process`; `cluster.RayRunner` on Ray); every runner gives the
    same bits. With a store the values answered are the store's (`StoredValues`), else one
    array."""
    runner = runner or in_process
    clock = time.perf_counter()
    solver = _Solver(game, tolerance, store)
    swept = time.perf_counter()
    resumed = solver.resume() if store is not None else 0
    first = first_level(game)  # below the first level holding a start (a part of the game)
    # nothing is reachable
    status = Status(game.levels - first, resumed, int(solver.reachable.sum()),
                    sum(s.positions for s in solver.stats), resumed,
                    sum(s.positions for s in solver.stats), 0.0)
    started = time.perf_counter()

    def update(count: int) -> None:
        status.positions_done += count
        status.seconds = time.perf_counter() - started
        if progress is not None:
            progress(status)

    update(0)  # says at once how far a resumed solve already is
    for level in range(game.levels - 1 - resumed, first - 1, -1):
        known = len(solver.mixes)
        stats = solver.solve_level(level, update, runner)
        if store is not None:
            store.save(level, {"values": solver.kept[level].values,
                               **mixed.pack(solver.mixes[known:])}, asdict(stats))
        solver.drop(level)
        status.levels_done += 1
        update(0)
    finished = time.perf_counter()
    values = solver.assemble() if store is None else StoredValues(game, store)
    return LevelSolution(values, solver.reachable, solver.stats[::-1], resumed,
                         {"reachability": swept - clock, "solve": finished - started,
                          "total": finished - clock}, solver.mixes)


class _Solver:
    """The finished levels kept (`LevelShard`s), the positions' states and the per-level
    statistics of one solve."""

    def __init__(self, game: LevelGame | OptionGame, tolerance: float, store: Store | None
                 ) -> None:
        self.game, self.tolerance, self.store = game, tolerance, store
        self.state = np.zeros(game.size, dtype=np.uint8)
        self.state[self._reachable()] = REACHABLE
        self.kept: dict[int, LevelShard] = {}
        self.reads = [reads(game, level) for level in range(game.levels)]
        self.last_read = list(range(game.levels))  # the lowest level reading each level
        for level, read in enumerate(self.reads):
            for other in read:
                self.last_read[other] = min(self.last_read[other], level)
        self.stats: list[LevelStats] = []  # in solving order: last level first
        self.eager = False  # the level's eager flag: that of the previous level's last chunk
        self.mixes: list[tuple[np.ndarray, Mixed]] = []  # (positions, mix) where play mixes

    def _reachable(self) -> np.ndarray:
        """Which positions the game reaches: as the store kept them, else swept (and kept)."""
        kept = getattr(self.store, "reachable", None)  # optional in a `Store`
        flags: np.ndarray | None = None if kept is None else kept()
        if flags is not None and flags.shape == (self.game.size,):
            return flags
        flags = reachable(self.game)
        keep = getattr(self.store, "keep_reachable", None)
        if keep is not None:
            keep(flags)
        return flags

    @property
    def reachable(self) -> np.ndarray:
        return (self.state & REACHABLE).astype(bool)

    def resume(self) -> int:
        """Read the levels the store holds, from the last level down to the first one missing
        or unreadable; how many were read."""
        assert self.store is not None
        finished = self.store.finished()
        for level in range(self.game.levels - 1, -1, -1):
            stored = read_level(self.game, self.store, level, finished)
            if stored is None:
                break
            positions = self.game.positions(level)
            self.state[positions] |= SOLVED * (self.state[positions] & REACHABLE)
            self.kept[level] = LevelShard(level, positions, stored["values"],
                                          self.state[positions])
            self.mixes += mixed.unpack(stored, stored["values"], positions)
            self.stats.append(LevelStats(**finished[level]))
            self.drop(level)
        return len(self.stats)

    def drop(self, level: int) -> None:
        """Once `level` is finished (and stored), forget the levels no level below it reads:
        the store gives them back. Without a store every level is kept."""
        if self.store is not None:
            for kept in [k for k in self.kept if self.last_read[k] >= level]:
                del self.kept[kept]

    def assemble(self) -> np.ndarray:
        """The values of every position (metrics, size) of a solve without a store, which
        kept every level (each let go once copied)."""
        values = np.full((self.game.metrics, self.game.size), np.nan)
        for level in sorted(self.kept):  # every level solved
            values[:, self.game.positions(level)] = self.kept.pop(level).values
        return values

    def solve_level(self, level: int, update: Callable[[int], None], runner: Runner
                    ) -> LevelStats:
        """Solve one level, whole components at a time (chunks the runner solves, all from the
        same inputs: the levels it reads); their results are taken in the chunks' order, so
        that every sum runs in the same order wherever they ran. `update` hears of each chunk
        done."""
        clock = time.perf_counter()
        every = self.game.positions(level)
        members = every[(self.state[every] & REACHABLE).astype(bool)]
        stats = LevelStats(positions=len(members))
        # an option game's level is nearly one component: its options, computed once, serve
        # the component search and the chunks
        edges = self.game.options(members) if hasattr(self.game, "options") else None
        labels = components(self.game, members, edges)
        order = np.argsort(labels, kind="stable")
        size = chunk_size(len(members), getattr(runner, "cpus", 1))
        tasks = (ChunkTask(members[rows], labels[rows], None if edges is None else
                           edges.take(rows))
                 for rows in (order[part] for part in whole_components(labels[order], size)))
        shards = [self.kept[k] for k in self.reads[level] if k != level]
        values = np.full((self.game.metrics, len(every)), np.nan)
        eager = self.eager
        for result in runner(self.game, level, shards, tasks, eager, self.tolerance):
            values[:, within(every, result.positions)] = result.values
            self.mixes += result.mixes
            self.eager = result.eager
            stats.add(result.stats)
            update(len(result.positions))
        stats.seconds = time.perf_counter() - clock
        self.state[members] |= SOLVED
        self.kept[level] = LevelShard(level, every, values, self.state[every])
        self.stats.append(stats)
        return stats
