"""The level engine on Ray, 1 worker against 2, and a model of larger clusters:
`python benchmarks/bench_cluster.py [--players 3] [--target 24] [--dice 10] [--json FILE]`.

Each run is a child process with its own local Ray instance of 1 or 2 worker CPUs (a task runs
its turn passes on one thread); the time is the solve's, from the first level to the last
(the instance started and its workers' kernels loaded by a small warm-up solve before). Per
level: positions, tasks, the wall time with 1 and 2 workers, the work (the tasks' own seconds,
summed), the bytes put in the object store (the values and states of every position: the whole
array, once per level) and the bytes the tasks return. Then efficiency = T1 / (2 x T2), and
whether the two runs' values are the same bits.

Then the modelled table (`model`): Dalek Dice with 4 players to 60 on 1, 16, 64 and 256 cores
(nodes of 16 cores), from the costs measured here; its assumptions are printed with it.
Measure on a quiet machine (`uptime` under 1.5 on 2 cores): the two workers share the cores
with whatever else runs.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from solver.formatting import table

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import hashlib, json, logging, sys, time
import ray
from solver.engine.levels import cluster
from solver.engine import levels
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import compile_turn
workers, players, target, dice = map(int, sys.argv[1:5])
turn = compile_turn(parse_rules(dice=dice))
ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
         logging_level=logging.ERROR)
levels.solve(LevelRace(DalekRace(turn, players, 4)), runner=cluster.RayRunner())  # warm up
game = LevelRace(DalekRace(turn, players, target))
runner = cluster.RayRunner()
start = time.perf_counter()
solution = levels.solve(game, runner=runner)
seconds = time.perf_counter() - start
sizes = [len(game.positions(level)) for level in range(game.levels)][::-1]
print(json.dumps({"seconds": seconds, "log": runner.log, "numbers": sizes,
                  "final": [level > players * (target - 1) for level in
                            range(game.levels)][::-1],
                  "hash": hashlib.sha256(solution.values.tobytes()).hexdigest()}))
"""

CORES = (1, 16, 64, 256)
NODE = 16  # cores per node
BANDWIDTH = 1.25e9  # bytes per second into a node (10 Gb/s Ethernet)
WORKER_BYTES = 400e6  # a worker process: the interpreter, the code, the turn graph, one
# thread's workspace (42 MB on the merged graph), a chunk's buffers (dalek/levels.FIXED_BYTES,
# 300 MB, held 2)


def run(workers: int, players: int, target: int, dice: int) -> dict:
    child = subprocess.run([sys.executable, "-c", CHILD, str(workers), str(players),
                            str(target), str(dice)], cwd=ROOT, capture_output=True, text=True,
                           check=True)
    return json.loads(child.stdout.strip().splitlines()[-1])


def model(one: dict, players: int = 4, target: int = 60, engine_costs: bool = False,
          chunk: int | None = None, reached: float | None = None) -> tuple[list, list[str]]:
    """Rows (cores, nodes, hours, efficiency, memory per node) for the race `players` to
    `target`, from the 1-worker run `one`: the work per numbered position of a level before
    the final round and in it (or, with `engine_costs`, the level engine's own estimate's,
    dalek/levels.SECONDS_BEFORE_FINAL and SECONDS_FINAL, measured on a quieter machine), the
    share of numbers reached and the per-level overhead measured there; tasks of at most
    `chunk` positions (default: as the engine cuts a level for that many cores,
    levels.chunk_size), and `reached` the share of numbers reached
    (default: the run's; it grows with the target)."""
    from solver.engine import levels
    from solver.games.dalek import levels as dalek_levels
    from solver.games.dalek.files import parse_rules
    from solver.games.dalek.levels import LevelRace
    from solver.games.dalek.race import DalekRace
    from solver.games.dalek.turn import compile_turn

    cost = {}
    for final in (False, True):
        work = sum(e["work"] for e, f in zip(one["log"], one["final"]) if f == final)
        numbers = sum(n for n, f in zip(one["numbers"], one["final"]) if f == final)
        cost[final] = work / numbers
    if engine_costs:
        cost = {False: dalek_levels.SECONDS_BEFORE_FINAL, True: dalek_levels.SECONDS_FINAL}
    reached = reached or sum(e["positions"] for e in one["log"]) / sum(one["numbers"])
    overhead = sum(e["seconds"] - e["work"] for e in one["log"]) / len(one["log"])
    game = LevelRace(DalekRace(compile_turn(parse_rules()), players, target))
    shared = game.size * (8 * game.metrics + 1)  # values and states, put once per level
    before = players * (target - 1)
    plan = [(len(game.positions(level)), level > before) for level in range(game.levels)]
    rows = []
    for cores in CORES:
        nodes = math.ceil(cores / NODE)
        hours = 0.0
        for numbers, final in plan:
            work = numbers * cost[final]
            size = chunk or levels.chunk_size(round(numbers * reached), cores)
            tasks = max(1, math.ceil(numbers * reached / size))
            hours += max(work / cores, work / tasks) + overhead
            if cores > 1:
                hours += shared * nodes / BANDWIDTH  # a copy to every node, from the driver's
        hours /= 3600
        serial = sum(n * cost[f] for n, f in plan) / 3600
        if cores == 1:  # one process, no Ray: the values once
            memory = shared + 2e9
        else:  # the driver's node: its values, the object store's copy, its own code
            memory = max(2 * shared + 2e9 + (min(cores, NODE) - 1) * WORKER_BYTES,
                         shared + min(cores, NODE) * WORKER_BYTES)
        rows.append([f"{cores}", f"{nodes}", f"{hours:,.1f}", f"{serial / hours / cores:.2f}",
                     f"{memory / 1e9:,.0f} GB"])
    notes = [
        f"the race: {game.size:,} numbered positions, {game.levels} levels, {game.metrics} "
        f"metrics: values and states {shared / 1e9:.1f} GB",
        f"work per numbered position ("
        f"{'the engine estimate' if engine_costs else 'measured at 1 worker'}): "
        f"{cost[False] * 1e3:.2f} ms before the final round, {cost[True] * 1e3:.2f} ms in it; "
        f"{reached:.0%} of numbers reached; {overhead:.2f} s per level beyond the tasks' work "
        f"(measured)",
        (f"a level's tasks are chunks of at most {chunk:,} positions" if chunk else
         f"a level's tasks are chunks of at most {levels.CHUNK:,} positions, cut to "
         f"{levels.SPREAD} per core but not under {levels.SMALLEST} (levels.chunk_size)")
        + ": a level runs in max(work / cores, work / tasks), plus that overhead",
        f"every level puts the whole values array; each node pulls a copy from the driver's "
        f"node at {BANDWIDTH / 1e9:.2f} GB/s (10 Gb/s), one node after another",
        f"nodes of {NODE} cores; a worker holds {WORKER_BYTES / 1e6:.0f} MB; the driver's node "
        f"holds the values twice (its array and the object store's copy) and 2 GB more",
    ]
    return rows, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--target", type=int, default=24)
    parser.add_argument("--dice", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write both runs' measurements here")
    parser.add_argument("--model-only", type=Path, metavar="FILE",
                        help="no runs: the model from the measurements --json wrote")
    parser.add_argument("--engine-costs", action="store_true",
                        help="model with the level engine's own estimate of the work per "
                             "position instead of the one measured")
    parser.add_argument("--chunk", type=int, help="model tasks of at most this many positions")
    parser.add_argument("--reached", type=float,
                        help="model this share of the numbers reached (default: the run's)")
    args = parser.parse_args()
    if args.model_only:
        one = json.loads(args.model_only.read_text())["one"]
        print_model(one, args.engine_costs, args.chunk, args.reached)
        return
    one, two = (run(w, args.players, args.target, args.dice) for w in (1, 2))
    rows = [[f"{len(one['log']) - 1 - k}", f"{a['positions']:,}", f"{a['tasks']} / {b['tasks']}",
             f"{a['seconds']:.2f}", f"{b['seconds']:.2f}", f"{a['work']:.2f}",
             f"{a['put'] / 1e6:.2f}", f"{a['returned'] / 1e6:.3f}"]
            for k, (a, b) in enumerate(zip(one["log"], two["log"])) if a["positions"]]
    print(f"Dalek Dice, {args.players} players to {args.target}, {args.dice} dice, per level "
          f"(the last first):")
    print(table(["level", "positions", "tasks 1 / 2", "1 worker s", "2 workers s", "work s",
                 "put MB", "returned MB"], rows))
    efficiency = one["seconds"] / (2 * two["seconds"])
    print(f"1 worker {one['seconds']:.1f} s, 2 workers {two['seconds']:.1f} s: efficiency "
          f"{efficiency:.2f} (goal 0.8); put {sum(e['put'] for e in one['log']) / 1e6:,.1f} "
          f"MB, returned {sum(e['returned'] for e in one['log']) / 1e6:,.2f} MB in all; "
          f"the same bits: {one['hash'] == two['hash']}")
    if args.json:
        args.json.write_text(json.dumps({"one": one, "two": two}, indent=1) + "\n")
    print_model(one, args.engine_costs, args.chunk, args.reached)


def print_model(one: dict, engine_costs: bool, chunk: int | None, reached: float | None
                ) -> None:
    rows, notes = model(one, engine_costs=engine_costs, chunk=chunk, reached=reached)
    print("\nModelled: Dalek Dice, 4 players to 60:")
    print(table(["cores", "nodes", "hours", "efficiency", "memory per node"], rows))
    print("\n".join(f"- {note}" for note in notes))


if __name__ == "__main__":
    main()
