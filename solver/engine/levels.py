"""The dense level-by-level engine: optimal play for games too large for the cyclic engine.

A level game numbers its positions 0..size-1 by arithmetic (no position objects, no graph) and
groups them into levels: every successor of a position lies in its own level or a later one, so
levels are solved from the last back to the first, each a unit of work that reads only later
levels. Values are one dense float64 array with a row per metric. Successors are computed per
batch from the numbers, never stored. One sweep from the start first marks the reachable
positions: only those are solved (the others keep NaN).

Within a level, positions that lead to each other (a turn that scores nothing passes the move)
form small components, solved by policy iteration exactly as the cyclic engine does it
(`solver.engine.cyclic`): a best response to the current values, the linear system of that policy
for all metrics (here batched dense solves, components being small), a check of the Bellman
residual against 1e-12, repeat. Positions are warm-started from a similar solved position (the
game says which), so the first response is usually final: two backward passes and one forward
pass per position in a cycle, one of each elsewhere. Rows of utilities that repeat within a
level (common near the end of a game) are passed once.

The turn passes are compiled kernels over the turn graph with its duplicate nodes merged
(`TurnPasses`: the ten-dice turn has fewer than half as many), in tiles of eight columns with
workspaces allocated once per thread: the backward pass records each choice in a byte, and the
forward pass that gives the result distribution reuses them at once, skipping nodes the policy
never reaches.

Games whose movers choose among a few explicit options (stop or throw again, where to place:
Strike) give each position's options as edges instead of a turn graph (`OptionGame`, `Edges`).
Their levels are nearly one component each (dice move between stocks and the arena without
leaving the level), too large for dense solves: systems of up to `DIRECT` members are solved
sparse and direct, larger ones by Gauss-Seidel sweeps. The policy iteration around them is the
same loop (`solver.engine.iteration`).

A `Store` (solver/checkpoint.py) keeps finished levels on disk: a solve resumes after the last
level it holds.

A chunk is a pure function of its inputs (`solve_chunk`: the game, the finished levels' values
and states, its positions, the level's eager flag): a `Runner` solves a level's chunks here
(`in_process`) or on a cluster (solver/cluster.py), and the results are written in the chunks'
order, so both give the same bits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Protocol

import numpy as np
from numba import njit, types
from numba.typed import Dict

from solver.engine import mixed, tiles
from solver.engine.iteration import TOLERANCE, iterate
from solver.engine.mixed import Mixed
from solver.engine.turn import FLOAT_TIE, WORKERS, TurnGraph, _parallel

TILE = tiles.WIDTH  # columns per turn pass (`solver.engine.tiles`)
CHUNK = 1 << 14  # positions solved together at most (whole components): bounds the buffers
SPREAD = 1  # chunks of a level per worker of a runner with several: one each keeps the tiles full
# (a chunk's later passes hold only its unsettled members), and halves of hundreds of components
# cost nearly the same (3 players to 24 on 2 workers: efficiency 0.93-0.96 with 1, 0.68 with 4)
SMALLEST = 128  # positions a chunk split for workers keeps at least: 8 tiles beyond its fixed cost
DIRECT = 2000  # option games: systems up to this many members are solved direct, others swept
SWEPT = 1e-15  # a sweep that moves no value by more than this ends them (the error is a few times
# it: a sweep shrinks it by about the chance to stay in the level, below 5/6 in Strike)
MAX_SWEEPS = 100_000
REACHABLE, SOLVED = 1, 2  # bits of a position's state


# ---- the turn passes ---------------------------------------------------------------------------
class TurnPasses:
    """A turn graph played from its root, as the level engine runs it: the optimal value of many
    utility rows, and the result distribution of that optimal play when asked. The values and
    the play are those of `TurnGraph.respond` to the bit; the distributions agree to about
    1e-14 (tested), as the passes run on the graph with its duplicate nodes merged
    (`_merged`), which adds the same probabilities in another order."""

    def __init__(self, graph: TurnGraph, root: int) -> None:
        self.tile = TILE
        self.threads = WORKERS  # a cluster's task holds one CPU: its copy sets 1
        self.n_results = graph.n_results
        self.possible = graph.possible_results()
        self._flat, self.root = _merged(*graph._flat(), graph.n_results, root)
        indptr, _, _, is_chance = self._flat
        degree = int(np.diff(indptr)[~is_chance].max(initial=1))
        self._choice_type = next(t for t in (np.int8, np.int16, np.int32)
                                 if degree <= np.iinfo(t).max + 1)
        self._workspaces: list[tuple[np.ndarray, ...]] = []
        self._compiled = False

    @property
    def workspace_bytes(self) -> int:
        """What the per-thread buffers take once allocated."""
        rows = self.root + 1
        return WORKERS * rows * self.tile * (16 + np.dtype(self._choice_type).itemsize)

    def __getstate__(self) -> dict:
        """Pickled for another process (solver/cluster.py): without the workspaces, which it
        allocates for itself."""
        return {**self.__dict__, "_workspaces": [], "_compiled": False}

    def respond(self, utilities: np.ndarray, distributions: bool
                ) -> tuple[np.ndarray, np.ndarray | None]:
        """(best value per row, result distribution per row or None). Rows go in whole tiles to
        the threads (a call of one tile runs on one thread), each with its own workspace."""
        if not self._compiled:  # with the vectorizer they need (`tiles.vectorizing`), on one
            self._compiled = True  # thread, or loaded from numba's cache
            with tiles.vectorizing():
                self.respond(np.zeros((1, self.n_results)), True)
        utilities = np.array(utilities, dtype=np.float64, order="C")  # writable: the types
        rows = utilities.shape[0]  # of the first call, which compiled the kernels
        gap = FLOAT_TIE * np.maximum(np.abs(utilities).max(axis=1, initial=0.0), 1e-300)
        best = np.empty(rows)
        dist = np.empty((rows, self.n_results) if distributions else (0, self.n_results))
        whole = -(-rows // self.tile)
        cut = min(rows, -(-whole // self.threads) * self.tile)
        parts = [slice(0, cut), slice(cut, rows)] if cut < rows else [slice(0, rows)]
        indptr, child, prob, is_chance = self._flat

        def run(worker: int) -> None:
            part = parts[worker]
            tiles.respond(indptr, child, prob, is_chance, self.root, utilities[part], gap[part],
                          *self._workspace(worker), best[part],
                          dist[part] if distributions else dist, distributions)

        for worker in range(len(parts)):  # allocated here, not in the threads
            self._workspace(worker)
        _parallel([lambda worker=worker: run(worker) for worker in range(len(parts))])
        return best, dist if distributions else None

    def _workspace(self, worker: int) -> tuple[np.ndarray, ...]:
        while len(self._workspaces) <= worker:
            rows = self.root + 1
            self._workspaces.append((tiles.workspace(rows),
                                     tiles.workspace(rows, self._choice_type),
                                     tiles.workspace(rows)))
        return self._workspaces[worker]


def _merged(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray, is_chance: np.ndarray,
            results: int, root: int) -> tuple[tuple[np.ndarray, ...], int]:
    """The graph below `root` with its duplicate nodes merged (same kind, same children in the
    same order, same probabilities: the same value for any utility), renumbered in the same
    order; the new root. The ten-dice turn builds its keep decisions as chains of per-face
    choices that often end alike: 341,196 nodes become 154,702, and a pass costs about half."""
    same = _duplicates(indptr, child, prob, is_chance, results, root)
    keep = same == np.arange(root + 1)
    number = np.cumsum(keep) - 1
    nodes = np.flatnonzero(keep)
    counts = np.where(nodes < results, 0, indptr[nodes + 1] - indptr[nodes])
    start = np.concatenate([[0], np.cumsum(counts)])
    edges = np.repeat(indptr[nodes] - start[:-1], counts) + np.arange(start[-1])
    index = indptr.dtype
    return ((start.astype(index), number[same[child[edges]]].astype(index), prob[edges],
             is_chance[nodes]), int(number[root]))


@njit(cache=True)
def _duplicates(indptr, child, prob, is_chance, results, root):
    """For each node up to the root, the first node equal to it (itself if none): nodes in
    increasing order (children first), each keyed by a hash of its kind, probabilities and its
    children's first equals, a match confirmed edge by edge (a hash collision merges
    nothing)."""
    same = np.arange(root + 1)
    first = Dict.empty(key_type=types.int64, value_type=types.int64)
    for node in range(results, root + 1):
        lo, hi = indptr[node], indptr[node + 1]
        key = np.int64(hi - lo) * 1000003 + np.int64(is_chance[node])
        for e in range(lo, hi):
            key = key * 1000003 + np.int64(same[child[e]])
            if is_chance[node]:
                key = key * 1000003 + np.int64(prob[e] * 2.0 ** 52)
        if key not in first:
            first[key] = node
            continue
        other = first[key]
        olo = indptr[other]
        equal = is_chance[other] == is_chance[node] and indptr[other + 1] - olo == hi - lo
        for e in range(lo, hi):
            if not equal:
                break
            equal = same[child[olo + e - lo]] == same[child[e]] and prob[olo + e - lo] == prob[e]
        if equal:
            same[node] = other
    return same


# ---- the game ------------------------------------------------------------------------------------
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


class OptionGame(Protocol):
    """A level game whose movers choose among explicit options (`Edges`), instead of playing a
    shared turn graph: the same as `LevelGame` without `turn` and `successors`."""

    metrics: int
    size: int
    levels: int

    def start(self) -> int: ...

    def positions(self, level: int) -> np.ndarray: ...

    def objective(self, positions: np.ndarray) -> np.ndarray: ...

    def options(self, positions: np.ndarray) -> Edges:
        """Every option of each position, as edges to positions of its own level or later ones,
        or to terminals."""

    def terminals(self) -> np.ndarray: ...

    # Optional: `similar(positions)`, as `LevelGame.similar`.


class Store(Protocol):
    """Finished levels kept somewhere (solver.checkpoint.Checkpoint keeps them on disk)."""

    def finished(self) -> dict[int, dict]:
        """Level -> its statistics, for every level stored."""

    def load(self, level: int) -> dict[str, np.ndarray] | None:
        """The level's arrays as `save` was given them, or None if they cannot be read."""

    def save(self, level: int, arrays: dict[str, np.ndarray], stats: dict) -> None:
        """Keep a finished level: "values" (metrics, level positions) and its mixes
        (`mixed.pack`)."""


# ---- the solve -----------------------------------------------------------------------------------
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

    values: np.ndarray  # (metrics, size); NaN where unreachable
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
class ChunkResult:
    """What solving a chunk gives: its positions (sorted) and their values, what it took, the
    mixed play it found, and the eager flag it ends with (see `_TurnChunk.check`)."""

    positions: np.ndarray
    values: np.ndarray  # (metrics, positions)
    stats: LevelStats
    mixes: list[tuple[np.ndarray, Mixed]]
    eager: bool
    seconds: float  # of work in the process that solved it


def solve_chunk(game: LevelGame | OptionGame, values: np.ndarray, state: np.ndarray,
                task: ChunkTask, eager: bool, tolerance: float) -> ChunkResult:
    """Solve a chunk from the values and states of the finished levels (it reads no other
    position but its own, which it keeps apart: `values` is only read), and the level's eager
    flag. A pure function of its inputs, so chunks may run in any process, in any order."""
    clock = time.perf_counter()
    view = _ChunkView(game, values, state, task.positions, eager, tolerance)
    chunk = (_TurnChunk(view, task.positions, task.labels) if task.edges is None else
             _OptionChunk(view, task.positions, task.labels, task.edges))
    stats = chunk.run()
    return ChunkResult(view.values.positions, view.values.own, stats, view.mixes, view.eager,
                       time.perf_counter() - clock)


class Runner(Protocol):
    """Runs a level's chunks (`solve_chunk` on each task) and gives their results in the
    tasks' order: in this process (`in_process`) or on a cluster (solver/cluster.py)."""

    def __call__(self, game: LevelGame | OptionGame, values: np.ndarray, state: np.ndarray,
                 tasks: Iterable[ChunkTask], eager: bool, tolerance: float
                 ) -> Iterator[ChunkResult]: ...

    # Optional: `cpus`, how many chunks it solves at once (1 if absent): levels are then split
    # into more chunks (`chunk_size`), which changes no value.


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
    chunks (default: the one the command line chose, `solver.cluster.chosen`, else here); every
    runner gives the same bits."""
    from solver import cluster

    runner = runner or cluster.chosen() or in_process
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
        self.state[_reachable(game)] = REACHABLE
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
            if values is None or values.shape != (self.game.metrics, len(positions)):
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
        labels = _components(self.game, members, edges)
        order = np.argsort(labels, kind="stable")
        size = chunk_size(len(members), getattr(runner, "cpus", 1))
        tasks = (ChunkTask(members[rows], labels[rows], None if edges is None else
                           edges.take(rows))
                 for rows in (order[part] for part in _whole_components(labels[order], size)))
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


class _ChunkView:
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

    def __getitem__(self, key: tuple) -> np.ndarray:
        metrics, positions = key
        out = self.shared[metrics, positions]
        place = _within(self.positions, positions)
        mine = place >= 0
        if mine.any():
            if isinstance(metrics, slice):
                out[:, mine] = self.own[metrics, place[mine]]
            else:
                out[mine] = self.own[np.broadcast_to(metrics, mine.shape)[mine], place[mine]]
        return out

    def __setitem__(self, key: tuple, value) -> None:
        metrics, positions = key
        place = _within(self.positions, positions)
        if (place < 0).any():
            raise ValueError("a chunk writes values of positions not its own")
        self.own[metrics, place] = value


def _parts(array: np.ndarray, size: int = CHUNK):
    for start in range(0, len(array), size):
        yield array[start:start + size]


def _within(members: np.ndarray, targets: np.ndarray) -> np.ndarray:
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


def _reachable(game: LevelGame | OptionGame) -> np.ndarray:
    """Every position some play reaches from the start (results no play gives do not count):
    levels in increasing order, each until nothing new inside it is found."""
    reached = np.zeros(game.size, dtype=bool)
    reached[game.start()] = True
    for level in range(game.levels):
        members = game.positions(level)
        frontier = members[reached[members]]
        while len(frontier):
            found = []
            for part in _parts(frontier):
                targets = _links(game, part, every=False)[1]
                found.append(targets[targets >= 0])
            targets = np.unique(np.concatenate(found))
            new = targets[~reached[targets]]
            reached[new] = True
            frontier = new[_within(members, new) >= 0]
    return reached


def _components(game: LevelGame | OptionGame, members: np.ndarray, edges: Edges | None = None
                ) -> np.ndarray:
    """A component label per member: members linked by results that stay in the level (either
    way) share one. Components are what policy iteration solves as one linear system. An option
    game's `edges` are the members' options, if computed already."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    rows, cols = [np.empty(0, dtype=np.int32)], [np.empty(0, dtype=np.int32)]
    for start in range(0, len(members), CHUNK):
        stop = min(start + CHUNK, len(members))
        part = None if edges is None else edges.part(start, stop)
        row, target = (_links(game, members[start:stop], every=True) if part is None
                       else (part.row, part.target))
        place = _within(members, target)
        inside = place >= 0
        rows.append((row[inside] + start).astype(np.int32))  # members of one level: < 2**31
        cols.append(place[inside].astype(np.int32))
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    if not len(rows):
        return np.arange(len(members))
    links = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(members),) * 2)
    return connected_components(links, directed=True, connection="weak")[1]


def _whole_components(labels: np.ndarray, size: int):
    """Slices of the sorted labels, about `size` long, that never split a component."""
    start = 0
    while start < len(labels):
        stop = min(start + size, len(labels))
        while stop < len(labels) and labels[stop] == labels[stop - 1]:
            stop += 1
        yield slice(start, stop)
        start = stop


class _Chunk:
    """Whole components of one level, solved together by policy iteration
    (`iteration.iterate`, as the cyclic engine's `_GroupSolver`): who is in which component,
    what each maximises, and the values they start from. The kinds of game differ in how a
    member responds and what its policy is (`_TurnChunk`, `_OptionChunk`)."""

    def __init__(self, solver: _ChunkView, positions: np.ndarray, labels: np.ndarray) -> None:
        self.solver, self.positions = solver, positions
        self.stats = LevelStats()
        starts = np.flatnonzero(np.diff(labels, prepend=-1))
        self.component = np.cumsum(np.diff(labels, prepend=-1) != 0) - 1
        self.starts = starts
        self.sizes = np.diff(np.append(starts, len(labels)))
        self.rank = np.arange(len(labels)) - starts[self.component]  # place in its component
        self.order = np.argsort(positions)
        self.loops = np.zeros(len(starts), dtype=bool)
        self.objective = solver.game.objective(positions)

    def member_of(self, targets: np.ndarray) -> np.ndarray:
        """The member each target is, -1 for none."""
        place = _within(self.positions[self.order], targets)
        return np.where(place >= 0, self.order[place], -1)

    def _warm_start(self) -> None:
        """Start from the values of the first similar position solved before (what the cyclic
        engine does: the first response is then usually final)."""
        similar = getattr(self.solver.game, "similar", None)
        if similar is None:
            self.solver.values[:, self.positions] = 0.0
            return
        candidates = similar(self.positions)
        solved = candidates >= 0
        solved[solved] = (self.solver.state[candidates[solved]] & SOLVED).astype(bool)
        has = solved.any(axis=1)
        first = candidates[has, np.argmax(solved[has], axis=1)]
        self.solver.values[:, self.positions[has]] = self.solver.values[:, first]
        self.solver.values[:, self.positions[~has]] = 0.0  # as the cyclic engine starts

    def members(self, component: int) -> slice:
        """A component's members: labels come sorted, so they are one run."""
        return slice(self.starts[component], self.starts[component] + self.sizes[component])

    def run(self) -> LevelStats:
        """Every component to a Bellman residual within the tolerance (or until its policy
        repeats), from the first best responses."""
        self.start()
        self.stats.residual, self.stats.iterations = iterate(self, self.solver.tolerance)
        self.stats.components = len(self.sizes)
        return self.stats

    def start(self) -> None:
        """Every member plays its best response to the values it starts from."""
        raise NotImplementedError


class _TurnChunk(_Chunk):
    """Members of a game with one shared turn graph: a policy is the result distribution of the
    turn played, and a response a pass of the turn graph."""

    def __init__(self, solver: _ChunkView, positions: np.ndarray, labels: np.ndarray) -> None:
        super().__init__(solver, positions, labels)
        self.successors = solver.game.successors(positions)
        self.inside = self.member_of(self.successors)  # member a result leads to
        self.loops[self.component[(self.inside >= 0).any(axis=1)]] = True
        self.policy = np.empty(self.successors.shape)
        self.checks = 0
        self._warm_start()

    def start(self) -> None:
        everyone = np.ones(len(self.positions), dtype=bool)
        self.policy[:] = self._respond(everyone, True)[1]

    def evaluate(self, members: np.ndarray) -> None:
        active = np.zeros(len(self.sizes), dtype=bool)
        active[self.component[members]] = True
        self._evaluate(active)

    def check(self, members: np.ndarray) -> np.ndarray:
        """Best responses of the running members. Most first checks fail where most did in the
        chunk before: then they take the distributions with them, saving a second pass."""
        self.checks += 1
        self.eager = self.solver.eager and self.checks == 1
        if self.checks == 1:
            self.solver.eager = False
            self.checked = len(np.unique(self.component[members]))
        best, self.dist = self._respond(members, self.eager)
        self.running = members
        values = self.solver.values[self.objective[members], self.positions[members]]
        return np.abs(best - values)

    def adopt(self, members: np.ndarray) -> None:
        if self.checks == 1:  # most components failed their first check
            self.solver.eager = len(np.unique(self.component[members])) > 0.5 * self.checked
        self.policy[members] = (self.dist[members[self.running]] if self.eager else
                                self._respond(members, True)[1])

    def signature(self, component: int) -> bytes:
        return self.policy[self.members(component)].tobytes()

    def mix(self, component: int, tolerance: float) -> float | None:
        """As the cyclic engine's `_GroupSolver.mix`: where pure best responses cycle, a mixed
        equilibrium (`mixed.mix`), played and recorded if found; its residual, or None."""
        ks = np.arange(len(self.positions))[self.members(component)]
        inside = np.where(self.inside[ks] >= 0, self.rank[np.maximum(self.inside[ks], 0)], -1)
        view = mixed.Component(inside, self.solver.rows(self.successors[ks]), self.objective[ks])
        found = mixed.mix(view, self.policy[ks], lambda u: self.solver.game.turn.respond(u, True),
                          tolerance)
        if found is None:
            return None
        self.policy[ks] = found.policies
        self.solver.values[:, self.positions[ks]] = found.values.T
        self.solver.mixes.append((self.positions[ks], found))
        return found.residual

    def _respond(self, mask: np.ndarray, distributions: bool
                 ) -> tuple[np.ndarray, np.ndarray | None]:
        """Best responses of the masked members to the current values; rows of utilities that
        repeat are passed once."""
        utilities = self.solver.utilities(self.successors[mask], self.objective[mask])
        unique, inverse = np.unique(utilities, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        best, dist = self.solver.game.turn.respond(unique, distributions)
        self.stats.backward += len(unique)
        if distributions:
            self.stats.forward += len(unique)
            return best[inverse], dist[inverse]
        return best[inverse], None

    def _evaluate(self, active: np.ndarray) -> None:
        """Set the active components' values (every metric) to those of their policies: the
        results leaving the component give the right-hand side, those staying in it a small
        linear system per component, solved in batches of equal size."""
        members = np.flatnonzero(active[self.component])
        rhs = np.zeros((len(members), self.solver.game.metrics))
        for r in range(self.inside.shape[1]):
            out = self.inside[members, r] < 0
            rhs[out] += self.policy[members[out], r, None] * self.solver.rows(
                self.successors[members[out], r])
        values = rhs.copy()
        for size in np.unique(self.sizes[active & self.loops]).tolist():
            self._solve_systems(members, rhs, values, size)
        self.solver.values[:, self.positions[members]] = values.T

    def _solve_systems(self, members: np.ndarray, rhs: np.ndarray, values: np.ndarray,
                       size: int) -> None:
        """Into `values`: the linear systems (I - P) x = rhs of the looping components of one
        size."""
        mine = (self.sizes[self.component[members]] == size) & self.loops[self.component[members]]
        rows = np.flatnonzero(mine)  # members of those components, component by component
        count = len(rows) // size
        matrix = np.broadcast_to(np.eye(size), (count, size, size)).copy()
        block = np.repeat(np.arange(count), size)
        for r in range(self.inside.shape[1]):
            target = self.inside[members[rows], r]
            hit = target >= 0
            np.subtract.at(matrix, (block[hit], self.rank[members[rows[hit]]],
                                    self.rank[target[hit]]),
                           self.policy[members[rows[hit]], r])
        solved = np.linalg.solve(matrix, rhs[rows].reshape(count, size, -1))
        values[rows] = solved.reshape(len(rows), -1)


class _OptionChunk(_Chunk):
    """Members of a game of explicit options (`Edges`): a policy is the option each member
    plays, a response the first option within FLOAT_TIE of the best (as `local.Choices` picks
    it). Components can be large (Strike's dice move between stocks and the arena without
    leaving the level, so a level is nearly one component): small systems are solved sparse
    and direct, large ones by Gauss-Seidel sweeps from the values they hold (the fill-in of a
    direct solve grows too fast; every policy leaves the level with some probability within
    two moves, so the sweeps contract). Responses and right-hand sides are worked out `CHUNK`
    members at a time: a member's sums run over its own edges in the same order either way,
    and the temporaries stay those of a block."""

    def __init__(self, solver: _ChunkView, positions: np.ndarray, labels: np.ndarray,
                 edges: Edges) -> None:
        super().__init__(solver, positions, labels)
        self.edges = edges
        self.inside = np.empty(len(edges.target), dtype=np.int32)  # member an edge leads to
        for first, part in self._parts():
            inside = self.member_of(part.target)
            self.inside[edges.start[first]:edges.start[first] + len(inside)] = inside
            self.loops[self.component[part.row[inside >= 0] + first]] = True
        self.width = int(edges.option.max(initial=0)) + 1
        self.chosen = np.zeros(len(positions), dtype=np.int8)
        self._warm_start()

    def _parts(self):
        """(first member, its block's edges) of every block of `CHUNK` members."""
        for first in range(0, len(self.positions), CHUNK):
            yield first, self.edges.part(first, min(first + CHUNK, len(self.positions)))

    def start(self) -> None:
        everyone = np.ones(len(self.positions), dtype=bool)
        self.chosen[:] = self._respond(everyone)[1]

    def check(self, members: np.ndarray) -> np.ndarray:
        best, self.response = self._respond(members)
        values = self.solver.values[self.objective[members], self.positions[members]]
        return np.abs(best - values)

    def adopt(self, members: np.ndarray) -> None:
        self.chosen[members] = self.response[members[self.response_of]]

    def signature(self, component: int) -> bytes:
        return self.chosen[self.members(component)].tobytes()

    def _respond(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(value, option) of the masked members' best responses to the current values."""
        self.response_of = mask
        best, chosen = [np.empty(0)], [np.empty(0, dtype=np.int8)]
        for first, part in self._parts():
            block = mask[first:first + len(part.start) - 1]
            if block.any():
                found = self._respond_part(first, part, block)
                best.append(found[0])
                chosen.append(found[1])
        return np.concatenate(best), np.concatenate(chosen)

    def _respond_part(self, first: int, part: Edges, mask: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        """`_respond` for one block's masked members (mask over the block)."""
        own = part.row
        edges = mask[own]
        row = (np.cumsum(mask) - 1)[own[edges]]  # place among the masked members
        count = int(mask.sum())
        utilities = self.solver.utilities(part.target[edges, None],
                                          self.objective[own[edges] + first])[:, 0]
        key = row * self.width + part.option[edges]
        values = np.bincount(key, part.probability[edges] * utilities,
                             minlength=count * self.width).reshape(count, self.width)
        present = np.bincount(key, minlength=count * self.width).reshape(count, self.width) > 0
        values[~present] = -np.inf
        starts = np.flatnonzero(np.diff(row, prepend=-1))
        scale = np.maximum(np.maximum.reduceat(np.abs(utilities), starts), 1e-300)
        floor = values.max(axis=1) - FLOAT_TIE * scale
        chosen = np.argmax(values >= floor[:, None], axis=1)
        self.stats.backward += count
        return values[np.arange(count), chosen], chosen.astype(np.int8)

    def evaluate(self, members: np.ndarray) -> None:
        """The masked members' values under the options they play: edges leaving the component
        give the right-hand side, those staying in it one sparse system (a block per
        component)."""
        import scipy.sparse as sp
        import scipy.sparse.linalg as spla

        count = int(members.sum())
        place = np.cumsum(members) - 1
        rhs, links = [np.empty((0, self.solver.game.metrics))], []
        for first, part in self._parts():
            block = members[first:first + len(part.start) - 1]
            if block.any():
                found = self._played(first, part, block, place)
                rhs.append(found[0])
                links.append(found[1:])
        rhs = np.concatenate(rhs)
        row, column, probability = (np.concatenate(p) for p in zip(*links)) if links else \
            (np.empty(0, dtype=np.int64),) * 3
        if not len(row):
            values = rhs
        elif count <= DIRECT:
            matrix = sp.identity(count, format="csc") - sp.csc_matrix(
                (probability, (row, column)), shape=(count, count))
            values = spla.spsolve(matrix, rhs).reshape(count, -1)
        else:  # edges are in row order: the CSR layout at once
            start = np.concatenate([[0], np.cumsum(np.bincount(row, minlength=count))])
            del row
            values = np.ascontiguousarray(self.solver.values[:, self.positions[members]].T)
            self.stats.sweeps += _sweeps(start, column, probability, np.ascontiguousarray(rhs),
                                         values, SWEPT, MAX_SWEEPS)
        self.solver.values[:, self.positions[members]] = values.T
        self.stats.forward += count

    def _played(self, first: int, part: Edges, mask: np.ndarray, place: np.ndarray
                ) -> tuple[np.ndarray, ...]:
        """For one block's masked members, under the options they play: the right-hand side
        (edges leaving the component), and the edges staying in it (row and column among all
        masked members, probability)."""
        own = part.row
        played = mask[own] & (part.option == self.chosen[first:first + len(mask)][own])
        row = place[own[played] + first]
        target = self.inside[self.edges.start[first]:][:len(own)][played]
        probability = part.probability[played]
        out = target < 0
        terms = probability[out, None] * self.solver.rows(part.target[played][out])
        low = place[first + np.argmax(mask)]  # the block's first masked member
        count = int(mask.sum())
        rhs = np.column_stack([np.bincount(row[out] - low, terms[:, m], minlength=count)
                               for m in range(terms.shape[1])])
        loop = ~out & (probability != 0)
        return (rhs, row[loop], place[target[loop]].astype(np.int32), probability[loop])


@njit(cache=True, nogil=True)
def _sweeps(start, index, weight, rhs, values, tolerance, most):
    """Gauss-Seidel on x = A x + rhs (A in CSR: start, index, weight; a row per member, a
    column per metric), in place from `values`, until no value moves by more than `tolerance`
    in a sweep (or `most` sweeps); how many sweeps it took."""
    rows, metrics = rhs.shape
    sums = np.empty(metrics)
    for sweep in range(most):
        change = 0.0
        for i in range(rows):
            for m in range(metrics):
                sums[m] = rhs[i, m]
            for e in range(start[i], start[i + 1]):
                j, w = index[e], weight[e]
                for m in range(metrics):
                    sums[m] += w * values[j, m]
            for m in range(metrics):
                change = max(change, abs(sums[m] - values[i, m]))
                values[i, m] = sums[m]
        if change <= tolerance:
            return sweep + 1
    return most
