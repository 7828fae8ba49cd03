"""The level engine's solve: reachability first, then the levels from the last back to the
first, each cut into chunks of whole components that a `Runner` solves (here, or on a
cluster), their results taken in the chunks' order so that every runner gives the same bits;
finished levels go to a `Store` and a solve resumes after the last one it holds."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict

import numpy as np

from solver.engine import mixed
from solver.engine.iteration import TOLERANCE
from solver.engine.levels.chunks import solve_chunk
from solver.engine.levels.protocols import LevelGame, OptionGame, Runner, Store
from solver.engine.levels.reach import CHUNK, components, reachable, whole_components
from solver.engine.levels.records import (
    REACHABLE,
    SOLVED,
    ChunkResult,
    ChunkTask,
    LevelSolution,
    LevelStats,
    Status,
)
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


def in_process(game: LevelGame | OptionGame, values: np.ndarray, state: np.ndarray,
               tasks: Iterable[ChunkTask], eager: bool, tolerance: float
               ) -> Iterator[ChunkResult]:
    """The chunks one after the other, here (lazily: a chunk's task is built when it runs)."""
    return (solve_chunk(game, values, state, task, eager, tolerance) for task in tasks)


def solve(game: LevelGame | OptionGame, *, store: Store | None = None, tolerance: float = TOLERANCE,
          progress: Callable[[Status], None] | None = None, runner: Runner | None = None
          ) -> LevelSolution:
    """Optimal values of every position reachable from the game's start, level by level from
    the last; levels the store holds are read instead of solved. `runner` runs each level's
    chunks (default: here, `in_process`; `cluster.RayRunner` on Ray); every runner gives the
    same bits."""
    runner = runner or in_process
    clock = time.perf_counter()
    solver = _Solver(game, tolerance)
    swept = time.perf_counter()
    resumed = solver.resume(store) if store is not None else 0
    status = Status(game.levels, resumed, int(solver.reachable.sum()),
                    sum(s.positions for s in solver.stats), resumed,
                    sum(s.positions for s in solver.stats), 0.0)
    started = time.perf_counter()

    def update(count: int) -> None:
        status.positions_done += count
        status.seconds = time.perf_counter() - started
        if progress is not None:
            progress(status)

    update(0)  # says at once how far a resumed solve already is
    for level in range(game.levels - 1 - resumed, -1, -1):
        known = len(solver.mixes)
        stats = solver.solve_level(level, update, runner)
        if store is not None:
            store.save(level, {"values": solver.level_values(level),
                               **mixed.pack(solver.mixes[known:])}, asdict(stats))
        status.levels_done += 1
        update(0)
    finished = time.perf_counter()
    return LevelSolution(solver.values, solver.reachable, solver.stats[::-1], resumed,
                         {"reachability": swept - clock, "solve": finished - started,
                          "total": finished - clock}, solver.mixes)


class _Solver:
    """The values, the positions' states and the per-level statistics of one solve."""

    def __init__(self, game: LevelGame | OptionGame, tolerance: float) -> None:
        self.game, self.tolerance = game, tolerance
        self.values = np.full((game.metrics, game.size), np.nan)
        self.state = np.zeros(game.size, dtype=np.uint8)
        self.state[reachable(game)] = REACHABLE
        self.stats: list[LevelStats] = []  # in solving order: last level first
        self.eager = False  # the level's eager flag: that of the previous level's last chunk
        self.mixes: list[tuple[np.ndarray, Mixed]] = []  # (positions, mix) where play mixes

    @property
    def reachable(self) -> np.ndarray:
        return (self.state & REACHABLE).astype(bool)

    def level_values(self, level: int) -> np.ndarray:
        return self.values[:, self.game.positions(level)]

    def resume(self, store: Store) -> int:
        """Read the levels the store holds, from the last level down to the first one missing
        or unreadable; how many were read."""
        finished = store.finished()
        for level in range(self.game.levels - 1, -1, -1):
            stored = store.load(level) if level in finished else None
            positions = self.game.positions(level)
            values = None if stored is None else stored.get("values")
            if stored is None or values is None or \
                    values.shape != (self.game.metrics, len(positions)):
                break
            self.values[:, positions] = values
            self.mixes += mixed.unpack(stored, self.values)
            self.state[positions] |= SOLVED * (self.state[positions] & REACHABLE)
            self.stats.append(LevelStats(**finished[level]))
        return len(self.stats)

    def solve_level(self, level: int, update: Callable[[int], None], runner: Runner
                    ) -> LevelStats:
        """Solve one level, whole components at a time (chunks the runner solves, all from the
        same inputs); their results are taken in the chunks' order, so that every sum runs in
        the same order wherever they ran. `update` hears of each chunk done."""
        clock = time.perf_counter()
        members = self.game.positions(level)
        members = members[(self.state[members] & REACHABLE).astype(bool)]
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
        eager = self.eager
        for result in runner(self.game, self.values, self.state, tasks, eager, self.tolerance):
            self.values[:, result.positions] = result.values
            self.mixes += result.mixes
            self.eager = result.eager
            stats.add(result.stats)
            update(len(result.positions))
        stats.seconds = time.perf_counter() - clock
        self.state[members] |= SOLVED
        self.stats.append(stats)
        return stats
