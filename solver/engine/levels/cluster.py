"""The level engine's chunks solved on a Ray cluster (`--ray`), with the same bits as in one
process.

A level's chunks are independent: each reads the game, the finished levels its level reads
(`LevelShard`s, through a `view.Window`) and the level's eager flag, and gives its own
positions' values (`chunks.solve_chunk`, a pure function). Here the game goes into Ray's object
store once per solve and each finished level once, as its own object, when a level first reads
it; a task gets references to the levels its level reads and nothing else, and the runner lets
go of a level's reference once a level no longer reads it, so Ray frees it. Ray fetches to a
node the levels its tasks read (a window slides by one level from one level to the next, so a
node pulls about one level's values per level), and its workers share them without copies. A
worker keeps the game it unpickled (and the compiled kernels it loaded) for every later task of
the solve, and the window of the level it works on. The results are taken in the chunks' order:
the driver writes them, and every sum, exactly as in one process. A task whose worker dies is
run again (`RETRIES`), on another node if its node died: the chunk is a pure function, so the
retry gives the same bits, and the levels it reads stay on the driver's node, where they were
put.

Per level the runner logs what it put and sent, what came back, and what each node's object
store took in (`store_bytes`: Ray's own count of the bytes created in each node's store, which
on a worker node are the objects pulled to it and the large results its tasks stored there).

Ray is imported only here, and only when a solve runs on it: without the extra
(`pip install 'dice-solver[cluster]'`) `--ray` is refused in one line.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from solver.errors import InputError

if TYPE_CHECKING:
    from solver.engine.levels.protocols import LevelGame, OptionGame
    from solver.engine.levels.records import ChunkResult, ChunkTask, LevelShard
    from solver.engine.levels.view import Window

LOCAL = "auto"  # --ray auto: join the cluster RAY_ADDRESS names, else start one here
JOINED = "RAY_ADDRESS"  # set by Ray where a job runs (`ray job submit`): the cluster's address
LOOPBACK = "127.0.0.1"  # the address of every node `nodes_here` starts
RETRIES = 3  # runs of a task whose worker died, after the first
INSTALL = "--ray needs the cluster extra: pip install 'dice-solver[cluster]'"

_game: tuple[str, LevelGame | OptionGame] | None = None  # in a worker: (its object id, the game)
_window: tuple[tuple[Any, ...], Window] | None = None  # in a worker: the levels read, the window


def init_address(address: str) -> str:
    """What `ray.init` is given for `--ray address`: an address as given; for `auto`, "auto"
    where RAY_ADDRESS is set (inside `ray job submit`: Ray joins that cluster, as
    `ray.init(address="auto")` does), else "local" (a new instance on this machine)."""
    if address != LOCAL:
        return address
    return "auto" if os.environ.get(JOINED) else "local"


def require() -> None:
    """Refuse (one line) a cluster when Ray is not installed."""
    if importlib.util.find_spec("ray") is None:
        raise InputError(INSTALL)


class RayRunner:
    """Runs a level's chunks as Ray tasks: on a local instance of `workers` CPUs started at
    the first level (`address` "auto"; inside a Ray job, the job's cluster: `init_address`),
    or on the cluster at `address`. `log` keeps, per level solved, what it moved and what the
    work took (benchmarks/bench_cluster.py and bench_shards.py read it)."""

    def __init__(self, address: str = LOCAL, workers: int | None = None) -> None:
        require()
        if workers is not None and init_address(address) != "local":
            raise InputError("--workers is for a Ray instance --ray auto starts here (not "
                             "inside a Ray job, where RAY_ADDRESS names the cluster): a "
                             "cluster's nodes say how many CPUs they give (ray start "
                             "--num-cpus)")
        self.address, self.workers = address, workers
        self.log: list[dict[str, Any]] = []
        self._game: tuple[object, object] | None = None  # (the game, its object ref)
        self._levels: dict[int, tuple[LevelShard, Any]] = {}  # level -> (shard, its object ref)
        self._task: Any = None  # the chunk as a Ray remote function, once started

    def start(self) -> None:
        """Start or join the Ray instance (once)."""
        import ray

        if self._task is not None:
            return
        if not ray.is_initialized():
            target = init_address(self.address)
            local = target == "local"
            if self.address != LOCAL:
                _reach(self.address)
            try:
                ray.init(address=target,
                         num_cpus=self.workers if local else None, include_dashboard=False,
                         logging_level=logging.ERROR, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise InputError(f"--ray {self.address}: Ray did not start there: "
                                 f"{_first_line(error)}") from None
        self._task = ray.remote(num_cpus=1, max_retries=RETRIES)(_solve)
        if not isinstance(sys.stdout, AnswerOnly):
            sys.stdout = AnswerOnly(sys.stdout)
            atexit.register(sys.stdout.close_answer)  # runs before Ray's own shutdown

    @property
    def cpus(self) -> int:
        """The CPUs of the instance or cluster: a level is split into chunks for all of them."""
        import ray

        self.start()
        return max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]

    def __call__(self, game: LevelGame | OptionGame, level: int, shards: Sequence[LevelShard],
                 tasks: Iterable[ChunkTask], eager: bool, tolerance: float
                 ) -> Iterator[ChunkResult]:
        import ray

        self.start()
        clock = time.perf_counter()
        before = store_bytes()
        if self._game is None or self._game[0] is not game:
            self._game = (game, ray.put(game))
            self._levels = {}
        shared = [self._game[1]]  # in a list: the task gets the ref and reads it once
        put, held = 0, {}
        for shard in shards:
            known = self._levels.get(shard.level)
            if known is None or known[0] is not shard:
                known = (shard, ray.put(shard))
                put += shard.nbytes
            held[shard.level] = known
        self._levels = held  # the levels no longer read are let go: Ray frees them
        read = [ref for _, ref in held.values()]  # in a list: refs, fetched by the worker
        refs, sent = [], 0
        for task in tasks:
            sent += sum(a.nbytes for a in (task.positions, task.labels)) + (
                0 if task.edges is None else sum(
                    a.nbytes for a in vars(task.edges).values()))
            refs.append(self._task.remote(shared, level, read, task, eager, tolerance))
        entry: dict[str, Any] = {"level": level, "tasks": len(refs), "put": put,
                                 "window": sum(shard.nbytes for shard in shards), "sent": sent,
                                 "returned": 0, "work": 0.0, "positions": 0}
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
        if level == 0:  # the solve's last level: its levels are let go, here and in Ray
            self._levels = {}
        after = store_bytes()
        entry["stores"] = {node: after[node] - before.get(node, 0) for node in sorted(after)}
        self.log.append(entry)


def store_bytes() -> dict[str, int]:
    """Bytes created so far in each live node's object store (node id -> bytes), as its raylet
    counts them: the objects put or returned there and those pulled to it from other nodes.
    Ray's internal node statistics (what `ray memory --stats-only` reads, through grpcio); a
    node that does not answer is left out."""
    import ray

    try:
        from ray._private.internal_api import node_stats
    except ImportError:  # grpcio missing (the cluster extra brings it): not measured
        return {}
    counts = {}
    for node in ray.nodes():  # type: ignore[no-untyped-call]
        if not node.get("Alive"):
            continue
        try:
            reply = node_stats(  # type: ignore[no-untyped-call]
                node["NodeManagerAddress"], node["NodeManagerPort"], include_memory_info=False)
        except Exception:  # a node going away (grpc's errors): its count is not known
            continue
        counts[node["NodeID"]] = int(reply.store_stats.cumulative_created_bytes)
    return counts


class AnswerOnly:
    """Standard output that carries the command's answer only. Ray's driver prints what the
    cluster tells it from threads of its own, some to standard output (a raylet's death: "(raylet)
    Raylet is terminated ..." and its log); written before the answer, it made `--json` output
    unreadable. What any thread but the main one writes goes to standard error instead, and so
    does what Ray's shutdown prints at exit (the same news again, from the main thread: its
    repeated lines held back until then), once `close_answer` has run."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.closed = False

    def write(self, text: str) -> int:
        main = threading.current_thread() is threading.main_thread()
        return int((self.answer if main and not self.closed else sys.stderr).write(text))

    def close_answer(self) -> None:
        """The command has answered (the interpreter is exiting): later writes go to standard
        error."""
        self.closed = True
        if not self.answer.closed:  # (a test's captured output may be gone by then)
            self.answer.flush()

    def flush(self) -> None:
        self.answer.flush()
        sys.stderr.flush()

    def __getattr__(self, name: str) -> Any:  # encoding, isatty, fileno, buffer: the answer's
        return getattr(self.answer, name)


@contextlib.contextmanager
def nodes_here(workers: int, store: int, cpus: int = 1) -> Iterator[Any]:
    """A Ray cluster of real nodes on this machine, for tests and benchmarks
    (`ray.cluster_utils.Cluster`): a head and `workers` worker nodes, each its own raylet and
    object store of `store` bytes and `cpus` CPUs, every address on loopback (Ray would take
    the address of the route out); this process joined to it as its driver. Gives the
    Cluster (`remove_node`; `add_node(**node_args(store, cpus))` adds a node like the others)."""
    import ray
    from ray._private import services
    from ray.cluster_utils import Cluster

    args = node_args(store, cpus)
    route = services.node_ip_address_from_perspective  # type: ignore[attr-defined]
    services.node_ip_address_from_perspective = lambda *_: LOOPBACK  # type: ignore[attr-defined]
    try:
        cluster = Cluster(initialize_head=True, head_node_args={**args,
                                                                "include_dashboard": False})
        try:
            for _ in range(workers):
                cluster.add_node(**args)
            cluster.wait_for_nodes()
            ray.init(address=cluster.address, logging_level=logging.ERROR, log_to_driver=False)
        except BaseException:
            cluster.shutdown()  # type: ignore[no-untyped-call]
            raise
    finally:
        services.node_ip_address_from_perspective = route  # type: ignore[attr-defined]
    try:
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()  # type: ignore[no-untyped-call]


def node_args(store: int, cpus: int = 1) -> dict[str, Any]:
    """A node of `nodes_here`: on loopback, `cpus` CPUs, an object store of `store` bytes."""
    return {"node_ip_address": LOOPBACK, "num_cpus": cpus, "object_store_memory": store}


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


def _solve(shared: list[Any], level: int, read: list[Any], task: ChunkTask, eager: bool,
           tolerance: float) -> ChunkResult:
    """A Ray task: one chunk, with the game this worker holds for the solve (read from the
    object store at its first task) and the window over the levels its level reads (built at
    its first task of the level, from the node's copies of those levels), its turn passes on
    one thread (the task holds one CPU)."""
    import ray

    from solver.engine.levels.chunks import solve_chunk
    from solver.engine.levels.view import Window

    global _game, _window
    key = shared[0].hex()
    if _game is None or _game[0] != key:
        game = ray.get(shared[0])
        if hasattr(game, "turn"):
            game.turn.threads = 1
        _game = (key, game)
    levels = (key, level, tuple(ref.hex() for ref in read))
    if _window is None or _window[0] != levels:
        _window = None  # the levels no longer read are let go before the new ones come
        _window = (levels, Window(_game[1], level, ray.get(read)))
    return solve_chunk(_game[1], _window[1], task, eager, tolerance)
