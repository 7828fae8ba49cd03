"""The level engine's chunks solved on a Ray cluster (`--ray`), with the same bits as in one
process.

A level's chunks are independent: each reads the game, the values and states of the finished
levels, and the level's eager flag, and gives its own positions' values
(`chunks.solve_chunk`, a pure function). Here the game goes into Ray's object store once per
solve, the values and states once per level (workers on a node share them without copies), the
chunks become tasks, and their results are taken in the chunks' order: the driver writes them,
and every sum, exactly as in one process. A worker keeps the game it unpickled (and the
compiled kernels it loaded) for every later task of the solve. A task whose worker dies is run
again (`RETRIES`): the chunk is a pure function, so the retry gives the same bits.

Ray is imported only here, and only when a solve runs on it: without the extra
(`pip install 'dice-solver[cluster]'`) `--ray` is refused in one line.
"""

from __future__ import annotations

import importlib.util
import logging
import socket
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InputError

if TYPE_CHECKING:
    from solver.engine.levels.protocols import LevelGame, OptionGame
    from solver.engine.levels.records import ChunkResult, ChunkTask

LOCAL = "auto"  # --ray auto: start a Ray instance on this machine
RETRIES = 3  # runs of a task whose worker died, after the first
INSTALL = "--ray needs the cluster extra: pip install 'dice-solver[cluster]'"

_game: tuple[str, LevelGame | OptionGame] | None = None  # in a worker: (its object id, the game)


def require() -> None:
    """Refuse (one line) a cluster when Ray is not installed."""
    if importlib.util.find_spec("ray") is None:
        raise InputError(INSTALL)


class RayRunner:
    """Runs a level's chunks as Ray tasks: on a local instance of `workers` CPUs started at
    the first level (`address` "auto"), or on the cluster at `address`. `log` keeps, per level
    solved, what it moved and what the work took (benchmarks/bench_cluster.py reads it)."""

    def __init__(self, address: str = LOCAL, workers: int | None = None) -> None:
        require()
        if workers is not None and address != LOCAL:
            raise InputError("--workers is for --ray auto: a cluster's nodes say how many "
                             "CPUs they give (ray start --num-cpus)")
        self.address, self.workers = address, workers
        self.log: list[dict[str, float]] = []
        self._game: tuple[object, object] | None = None  # (the game, its object ref)
        self._task: Any = None  # the chunk as a Ray remote function, once started

    def start(self) -> None:
        """Start or join the Ray instance (once)."""
        import ray

        if self._task is not None:
            return
        if not ray.is_initialized():
            local = self.address == LOCAL
            if not local:
                _reach(self.address)
            try:
                ray.init(address="local" if local else self.address,
                         num_cpus=self.workers if local else None, include_dashboard=False,
                         logging_level=logging.ERROR, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise InputError(f"--ray {self.address}: Ray did not start there: "
                                 f"{_first_line(error)}") from None
        self._task = ray.remote(num_cpus=1, max_retries=RETRIES)(_solve)
        if not isinstance(sys.stdout, AnswerOnly):
            sys.stdout = AnswerOnly(sys.stdout)

    @property
    def cpus(self) -> int:
        """The CPUs of the instance or cluster: a level is split into chunks for all of them."""
        import ray

        self.start()
        return max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]

    def __call__(self, game: LevelGame | OptionGame, values: np.ndarray, state: np.ndarray,
                 tasks: Iterable[ChunkTask], eager: bool, tolerance: float
                 ) -> Iterator[ChunkResult]:
        import ray

        self.start()
        clock = time.perf_counter()
        if self._game is None or self._game[0] is not game:
            self._game = (game, ray.put(game))
        shared = [self._game[1]]  # in a list: the task gets the ref and reads it once
        values_ref, state_ref = ray.put(values), ray.put(state)
        refs, sent = [], 0
        for task in tasks:
            sent += sum(a.nbytes for a in (task.positions, task.labels)) + (
                0 if task.edges is None else sum(
                    a.nbytes for a in vars(task.edges).values()))
            refs.append(self._task.remote(shared, values_ref, state_ref, task, eager, tolerance))
        entry: dict[str, float] = {"tasks": len(refs), "put": values.nbytes + state.nbytes,
                                   "sent": sent, "returned": 0, "work": 0.0, "positions": 0}
        for ref in refs:
            try:
                result = ray.get(ref)
            except ray.exceptions.RayTaskError as error:  # the chunk's own error, as raised
                raise (error.cause or error) from None
            except ray.exceptions.RayError as error:  # its workers died, retries spent
                raise InputError(f"a chunk failed on Ray after {RETRIES} retries "
                                 f"({_first_line(error)}); the levels finished are in the "
                                 "checkpoint, if one was given: run again to resume") from None
            entry["returned"] += result.positions.nbytes + result.values.nbytes
            entry["work"] += result.seconds
            entry["positions"] += len(result.positions)
            yield result
        entry["seconds"] = time.perf_counter() - clock
        self.log.append(entry)


class AnswerOnly:
    """Standard output that carries the command's answer only. Ray's driver prints what the
    cluster tells it from threads of its own, some to standard output (a raylet's death: "(raylet)
    Raylet is terminated ..." and its log); written before the answer, it made `--json` output
    unreadable. What any thread but the main one writes goes to standard error instead."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def write(self, text: str) -> int:
        main = threading.current_thread() is threading.main_thread()
        return int((self.answer if main else sys.stderr).write(text))

    def flush(self) -> None:
        self.answer.flush()
        sys.stderr.flush()

    def __getattr__(self, name: str) -> Any:  # encoding, isatty, fileno, buffer: the answer's
        return getattr(self.answer, name)


def _reach(address: str) -> None:
    """Refuse, in one line, an address where no Ray head listens: ray.init would wait on it
    for minutes."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise InputError(f"--ray {address}: give auto, or the host:port of a Ray head "
                         "(ray start --head prints it)")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as error:
        raise InputError(f"--ray {address}: no Ray head answers there "
                         f"({error.strerror or error})") from None


def _first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def _solve(shared: list[Any], values: np.ndarray, state: np.ndarray, task: ChunkTask, eager: bool,
           tolerance: float) -> ChunkResult:
    """A Ray task: one chunk, with the game this worker holds for the solve (read from the
    object store at its first task), its turn passes on one thread (the task holds one CPU)."""
    import ray

    from solver.engine.levels.chunks import solve_chunk

    global _game
    key = shared[0].hex()
    if _game is None or _game[0] != key:
        game = ray.get(shared[0])
        if hasattr(game, "turn"):
            game.turn.threads = 1
        _game = (key, game)
    return solve_chunk(_game[1], values, state, task, eager, tolerance)
