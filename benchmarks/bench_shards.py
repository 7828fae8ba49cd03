"""What each node of a multi-node Ray cluster takes into its object store per level, measured by
Ray, beside what the whole-array design moved:
`python benchmarks/bench_shards.py [--players 3] [--target 16] [--dice 10] [--workers 2]`.

Starts real nodes on this machine (`cluster.nodes_here`: a head and WORKERS worker nodes, 1 CPU
and an object store of 200 MiB each, on loopback), solves the race on them and prints, per level
solved: the level, its tasks, the bytes the driver put (the level just finished, once), the
window its chunks read, the bytes each node's object store took in during the level (Ray's
count of bytes created there: on the driver's node what it put, on a worker node what it pulled
and the results its tasks stored there, over Ray's 100 KiB inline limit), and the whole array
(values and states of every position) that every level put and every node pulled before. Then
the totals, the solve's seconds, and whether the values are the bits of one process.
"""

from __future__ import annotations

import argparse
import time

from solver.engine import levels
from solver.engine.levels import cluster
from solver.formatting import table
from solver.games.dalek.files import parse_rules
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.turn import compile_turn

STORE = 200 * 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--target", type=int, default=16)
    parser.add_argument("--dice", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    turn = compile_turn(parse_rules(dice=args.dice))
    game = LevelRace(DalekRace(turn, args.players, args.target))
    whole = game.size * (8 * game.metrics + 1)
    with cluster.nodes_here(args.workers, STORE) as nodes:
        import ray

        here = ray.get_runtime_context().get_node_id()
        runner = cluster.RayRunner()
        start = time.perf_counter()
        there = levels.solve(game, runner=runner)
        seconds = time.perf_counter() - start
        order = [here, *sorted(n.node_id for n in nodes.list_all_nodes() if n.node_id != here)]
    same = there.values.tobytes() == levels.solve(
        LevelRace(DalekRace(turn, args.players, args.target))).values.tobytes()
    names = ["driver's node"] + [f"worker {k}" for k in range(1, len(order))]
    rows = [[str(e["level"]), str(e["tasks"]), _kb(e["put"]), _kb(e["window"]),
             *(_kb(e["stores"].get(node, 0)) for node in order), _kb(whole)]
            for e in runner.log]
    totals = [sum(e["stores"].get(node, 0) for e in runner.log) for node in order]
    rows.append(["all", str(sum(e["tasks"] for e in runner.log)),
                 _kb(sum(e["put"] for e in runner.log)), "",
                 *(_kb(total) for total in totals), _kb(whole * len(runner.log))])
    print(f"{args.players}-player race to {args.target}, {args.dice} dice: {game.size:,} "
          f"numbered positions, {game.levels} levels, on {len(order)} nodes of 1 CPU")
    print(table(["level", "tasks", "put kB", "window kB", *(f"{n} kB" for n in names),
                 "whole array kB"], rows))
    later = [e["stores"].get(n, 0) for e in runner.log[1:] for n in order[1:]]
    print(f"solved in {seconds:.1f} s; the same bits as one process: {'yes' if same else 'NO'}; "
          f"the most a worker node took in at a level after the first (which brings the game): "
          f"{max(later, default=0) / 1e3:,.1f} kB (the whole array: {whole / 1e3:,.1f} kB)")


def _kb(count: float) -> str:
    return f"{count / 1e3:,.1f}"


if __name__ == "__main__":
    main()
