"""The level engine on Ray, 1 worker against 2, and a model of larger clusters:
`python benchmarks/bench_cluster.py [--players 3] [--target 24] [--dice 10] [--json FILE]`.

Each run is a child process with its own local Ray instance of 1 or 2 worker CPUs (a task runs
its turn passes on one thread); the time is the solve's, from the first level to the last
(the instance started and its workers' kernels loaded by a small warm-up solve before). Per
level: positions, tasks, the wall time with 1 and 2 workers, the work (the tasks' own seconds,
summed), the bytes put in the object store (the level finished before: each level is put once,
as its own object; benchmarks/bench_shards.py measures what each node takes in) and the bytes
the tasks return. Then efficiency = T1 / (2 x T2), and
whether the two runs' values are the same bits.

Then the modelled tables (`model`, alone with `--model-only`): Dalek Dice with 4 and 5 players
to 60 on 1, 16, 64 and 256 cores (nodes of 16 cores, 64 GB, 10 Gb/s), each finished level put
once as its own object and pulled by a node only when its tasks read it, beside the design that
put the whole values array every level; per-level position counts are counted, never built; the
work per position is the level engine's estimate (`--costs measured`: this run's); its
assumptions are printed with it.

Measure on a quiet machine (`uptime` under 1.5 on 2 cores): the two workers share the cores
with whatever else runs.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import NamedTuple

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
RACES = ((4, 60), (5, 60))  # (players, target): the races modelled
DESIGNS = ("levels", "whole")  # each level its own object, read where reached; or the whole array
NODE = 16  # cores per node
NODE_MEMORY = 64e9  # bytes per node
BANDWIDTH = 1.25e9  # bytes per second into or out of a node (10 Gb/s Ethernet)
WORKER_BYTES = 400e6  # a worker process: the interpreter, the code, the turn graph, one
# thread's workspace (42 MB on the merged graph), a chunk's buffers (dalek/levels.FIXED_BYTES,
# 300 MB, held 2)
DRIVER_BYTES = 2e9  # the driver beyond the values it holds: its code, the turn graph, a level's
# lists and reachability
REACHED = 0.85  # share of numbers reached at target 60 (measured: 3 players 62% at target 10
# and 80% at 24; 4 players 56% at 12 and 69% at 20, rising with the target)
OVERHEAD = 0.01  # seconds per level beyond the tasks' work (measured, docs/results.md)


@dataclass(frozen=True)
class Costs:
    """What a level costs: CPU seconds per numbered position before the final round and in it,
    the share of numbers reached (it sets the tasks per level) and seconds per level beyond the
    tasks' work."""

    before: float
    final: float
    reached: float = REACHED
    overhead: float = OVERHEAD
    source: str = "the engine's estimate, dalek/levels.py"


def engine_costs() -> Costs:
    """The level engine's own estimate of the work per position (read, not copied: it is
    recalibrated when the passes change)."""
    from solver.games.dalek import levels as dalek_levels

    return Costs(dalek_levels.SECONDS_BEFORE_FINAL, dalek_levels.SECONDS_FINAL)


def measured_costs(one: dict) -> Costs:
    """The costs a 1-worker run (`run`) measured on its race."""
    cost = {}
    for final in (False, True):
        work = sum(e["work"] for e, f in zip(one["log"], one["final"]) if f == final)
        numbers = sum(n for n, f in zip(one["numbers"], one["final"]) if f == final)
        cost[final] = work / numbers
    return Costs(cost[False], cost[True],
                 sum(e["positions"] for e in one["log"]) / sum(one["numbers"]),
                 sum(e["seconds"] - e["work"] for e in one["log"]) / len(one["log"]),
                 "measured at 1 worker")


@dataclass(frozen=True)
class Shape:
    """What the model needs of a race: seats, target, turn scores (0..results-1), values per
    position (`metrics`) and the turn scores a turn can make (empty: all)."""

    players: int
    target: int
    results: int
    metrics: int
    possible: tuple[int, ...] = ()

    @property
    def top(self) -> int:
        """The last level before the final round (every seat at target - 1)."""
        return self.players * (self.target - 1)

    @property
    def bytes(self) -> int:
        """A numbered position's values and state byte, as a level's object holds them."""
        return 8 * self.metrics + 1


def shape(players: int, target: int) -> Shape:
    """The Dalek race's shape with the default rules (10 dice), from the level engine's own
    game (its numbering is never built here)."""
    from solver.games.dalek.files import parse_rules
    from solver.games.dalek.levels import LevelRace
    from solver.games.dalek.race import DalekRace
    from solver.games.dalek.turn import compile_turn

    game = LevelRace(DalekRace(compile_turn(parse_rules()), players, target))
    possible = tuple(int(score) for score in game.turn.possible.nonzero()[0])
    return Shape(players, target, game.results, game.metrics, possible)


@cache
def compositions(total: int, parts: int, below: int) -> int:
    """Ways to write `total` as `parts` ordered integers in 0..below-1 (inclusion-exclusion)."""
    return sum((-1) ** k * math.comb(parts, k) * math.comb(total - k * below + parts - 1,
                                                          parts - 1)
               for k in range(parts + 1) if total - k * below >= 0)


def level_sizes(race: Shape) -> list[int]:
    """Numbered positions per level as LevelRace numbers them (solver/games/dalek/levels.py),
    counted, not built: each score sum 0..top (scores below the target, any mover), then the
    final round's movers 1..players-1 (the best score's excess, which seats before the mover
    hold it, the later seats' scores)."""
    n, t = race.players, race.target
    return ([n * compositions(level, n, t) for level in range(race.top + 1)]
            + [race.results * (2**m - 1) * t ** (n - m) for m in range(1, n)])


def reads(race: Shape, level: int) -> list[int]:
    """The finished levels a level's turns reach (a turn adds 0..results-1 to the mover's
    score): before the final round, the next results-1 score sums and every level of the final
    round; in it, the next mover's level."""
    top, last = race.top, race.top + race.players - 1
    if level > top:
        return [level + 1] if level < last else []
    return [*range(level + 1, min(level + race.results - 1, top) + 1), *range(top + 1, last + 1)]


class Row(NamedTuple):
    """The race on so many cores: its hours, efficiency and bytes on the driver's node and on
    each other node (0 with one node)."""

    cores: int
    nodes: int
    hours: float
    efficiency: float
    driver: float
    other: float


def model(race: Shape, costs: Costs, design: str = "levels", chunk: int | None = None
          ) -> tuple[list[Row], dict]:
    """The race on 1, 16, 64 and 256 cores, and its largest objects and transfers. `design`
    "levels": every finished level is put once as its own object; a node pulls only the levels
    its tasks read that it does not hold yet (served by the driver's node to each other node in
    turn) and returns its chunks' values; a node holds the levels its level reads, the driver's
    node the same as primary copies plus the level it solves. "whole": every level puts the whole
    values array, which every node pulls; the driver holds it, and the object store a copy.
    A level takes max(work / cores, work / tasks) plus the overhead and its transfers; tasks
    of at most `chunk` positions (default: as the engine cuts a level for that many cores,
    levels.chunk_size)."""
    from solver.engine import levels

    sizes = level_sizes(race)
    whole = sum(sizes) * race.bytes
    serial = sum(n * (costs.final if level > race.top else costs.before)
                 for level, n in enumerate(sizes))
    rows, most = [], {"pulled": 0.0, "served": 0.0, "transfer hours": 0.0}
    for cores in CORES:
        nodes, local = math.ceil(cores / NODE), min(cores, NODE)
        seconds = transfers = 0.0
        driver = other = 0.0
        held: set[int] = set()
        for level in reversed(range(len(sizes))):
            numbers = sizes[level]
            work = numbers * (costs.final if level > race.top else costs.before)
            reached = numbers * costs.reached
            tasks = max(1, math.ceil(reached / (chunk or levels.chunk_size(round(reached),
                                                                            cores))))
            seconds += max(work / cores, work / tasks) + costs.overhead
            window = set(reads(race, level))
            if design == "whole":
                holds = pulled = whole
            else:
                holds = sum(sizes[w] for w in window) * race.bytes
                pulled = sum(sizes[w] for w in window - held) * race.bytes
            held = window
            if nodes > 1:  # to every other node from the driver's, then the chunks' values back
                transfers += ((nodes - 1) * pulled + (nodes - 1) / nodes * reached
                              * race.bytes) / BANDWIDTH
                most["pulled"] = max(most["pulled"], pulled)
                most["served"] = max(most["served"], (nodes - 1) * pulled)
            own = numbers * race.bytes
            if design == "whole":
                driver = 2 * whole if cores > 1 else whole  # the array, the object store's copy
            else:  # the levels still read (the object store's copies) and the level solved,
                driver = max(driver, holds + (2 if cores > 1 else 1) * own)  # put at its end
            other = max(other, holds)
        hours = (seconds + transfers) / 3600
        most["transfer hours"] = transfers / 3600
        driver += DRIVER_BYTES + (local - 1) * WORKER_BYTES if cores > 1 else DRIVER_BYTES
        rows.append(Row(cores, nodes, hours, serial / 3600 / hours / cores, driver,
                        other + local * WORKER_BYTES if nodes > 1 else 0.0))
    return rows, {**most, "positions": sum(sizes), "levels": len(sizes), "whole": whole,
                  "largest": max(sizes) * race.bytes, "largest level": sizes.index(max(sizes))}


def widest(race: Shape, possible_only: bool = False) -> int:
    """The most bytes of later levels a level before the final round reads (`reads`, the final
    round aside); with `possible_only`, only the levels a score a turn can make reaches, and
    the next two (the warm start's guesses, race.similar)."""
    sizes = level_sizes(race)
    gains = ({*race.possible, 1, 2} - {0} if possible_only and race.possible
             else set(range(1, race.results)))
    return race.bytes * max(sum(sizes[level + gain] for gain in gains
                                if level + gain <= race.top) for level in range(race.top + 1))


def split_memory(race: Shape, nodes: int) -> float:
    """The most values one node would hold (bytes) if each level before the final round were
    split by the first seat's score into `nodes` ranges of equal width, each node solving one
    range's chunks, and the final round's first level by the later seats' score sum (the other
    final levels whole). Not built: the figure says what the split buys."""
    width = math.ceil(race.target / nodes)
    return race.bytes * max(split_held(race, level, low, min(low + width, race.target) - 1)
                            for level in range(race.top + 1)
                            for low in range(0, race.target, width))


def split_held(race: Shape, level: int, low: int, high: int) -> int:
    """Positions a node solving the positions of a level before the final round whose first
    seat's score is in low..high holds, levels split as `split_memory` splits them: in each
    later level its own range (another seat moved) and its range shifted by the turn's score
    (the first seat moved); in the final round's first level the later seats' sums its level
    leaves; the other final levels whole."""
    n, t = race.players, race.target
    count = race.results * sum(compositions(total, n - 1, t)
                               for total in range(max(0, level - high), level - low + 1))
    for later in range(level + 1, min(level + race.results - 1, race.top) + 1):
        shift = later - level
        scores = {*range(low, high + 1), *range(low + shift, min(high + shift, t - 1) + 1)}
        count += sum(n * compositions(later - score, n - 1, t) for score in scores)
    return count + sum(level_sizes(race)[race.top + 2:])


def split_balance(race: Shape, nodes: int) -> float:
    """The speed of one node per range of `split_memory` against a balanced split, on the
    levels before the final round: the positions over the nodes against the largest range's,
    summed over the levels (ranges of equal width hold unequal shares of a level)."""
    n, t = race.players, race.target
    width, largest, total = math.ceil(t / nodes), 0, 0
    for level in range(race.top + 1):
        shares = [sum(compositions(level - score, n - 1, t)
                      for score in range(low, min(low + width, t))) for low in range(0, t, width)]
        largest, total = largest + max(shares), total + sum(shares)
    return total / nodes / largest


def run(workers: int, players: int, target: int, dice: int) -> dict:
    child = subprocess.run([sys.executable, "-c", CHILD, str(workers), str(players),
                            str(target), str(dice)], cwd=ROOT, capture_output=True, text=True,
                           check=True)
    return json.loads(child.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--target", type=int, default=24)
    parser.add_argument("--dice", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write both runs' measurements here")
    parser.add_argument("--model-only", nargs="?", const="", type=str, metavar="FILE",
                        help="no runs: the model alone (FILE: the measurements --json wrote, "
                             "for --costs measured)")
    parser.add_argument("--costs", choices=("engine", "measured"), default="engine",
                        help="the work per position: the level engine's own estimate "
                             "(dalek/levels.py) or the one measured at 1 worker")
    parser.add_argument("--chunk", type=int, help="model tasks of at most this many positions")
    parser.add_argument("--reached", type=float,
                        help=f"model this share of the numbers reached (default: "
                             f"{REACHED:.0%}, or the run's with --costs measured)")
    args = parser.parse_args()
    if args.model_only is not None:
        if args.costs == "measured" and not args.model_only:
            parser.error("--costs measured needs --model-only FILE")
        one = json.loads(Path(args.model_only).read_text())["one"] if args.model_only else {}
        print_model(one, args.costs, args.chunk, args.reached)
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
    print_model(one, args.costs, args.chunk, args.reached)


def _figures(row: Row) -> list[str]:
    """Hours, efficiency and the driver's node's memory, as the tables print them."""
    return [f"{row.hours:,.1f}", f"{row.efficiency:.2f}", f"{row.driver / 1e9:,.0f} GB"]


def print_model(one: dict, source: str, chunk: int | None, reached: float | None) -> None:
    """The modelled tables of RACES, each level its own object, the whole array beside."""
    costs = measured_costs(one) if source == "measured" else engine_costs()
    if reached:
        costs = replace(costs, reached=reached)
    for players, target in RACES:
        race = shape(players, target)
        rows, most = model(race, costs, "levels", chunk)
        whole, _ = model(race, costs, "whole", chunk)
        print(f"\nModelled: Dalek Dice, {players} players to {target}, each level its own "
              f"object (the whole array put every level, for comparison):")
        print(table(["cores", "nodes", "hours", "efficiency", "driver's node", "other nodes",
                     "whole: hours", "whole: efficiency", "whole: driver's node"],
                    [[f"{row.cores}", f"{row.nodes}", *_figures(row),
                      f"{row.other / 1e9:,.0f} GB" if row.other else "-", *_figures(old)]
                     for row, old in zip(rows, whole)]))
        print(f"- {most['positions']:,} numbered positions in {most['levels']} levels, "
              f"{race.metrics} metrics: the whole values array {most['whole'] / 1e9:,.1f} GB, "
              f"the largest level {most['largest'] / 1e9:,.2f} GB (level "
              f"{most['largest level']}); a level reads the next {race.results - 1} score sums "
              f"and the final round")
        print(f"- a level reads at most {widest(race) / 1e9:,.1f} GB of later levels "
              f"({widest(race, True) / 1e9:,.1f} GB reading only those a possible turn score "
              f"reaches: {len(race.possible)} of {race.results}, and the next two) and "
              f"{sum(level_sizes(race)[race.top + 1:]) * race.bytes / 1e9:,.1f} GB of the "
              f"final round")
        print(f"- on {CORES[-1]} cores a node pulls at most {most['pulled'] / 1e9:,.2f} GB per "
              f"level and the driver's node serves at most {most['served'] / 1e9:,.1f} GB; "
              f"transfers take {most['transfer hours']:,.2f} h of the total")
        if any(max(row.driver, row.other) > NODE_MEMORY for row in rows):
            split = {nodes: split_memory(race, nodes) for nodes in (4, 16)}
            print(f"- above {NODE_MEMORY / 1e9:.0f} GB a node: levels split by the first "
                  f"seat's score, one range per node, would hold "
                  + ", ".join(f"{split[nodes] / 1e9:,.0f} GB of values "
                              f"({(split[nodes] + NODE * WORKER_BYTES) / 1e9:,.0f} GB with its "
                              f"workers) on {nodes} nodes, solving at "
                              f"{split_balance(race, nodes):.2f} of the balanced speed"
                              for nodes in split))
    print(f"\nAssumptions: work per numbered position ({costs.source}) "
          f"{costs.before * 1e3:.2f} ms before the final round, {costs.final * 1e3:.2f} ms in "
          f"it; {costs.reached:.0%} of numbers reached; {costs.overhead:.2f} s per level beyond "
          f"the tasks' work; a level's tasks are chunks of at most "
          + (f"{chunk:,} positions" if chunk else "levels.chunk_size (one per core)")
          + f"; nodes of {NODE} cores and {NODE_MEMORY / 1e9:.0f} GB, {BANDWIDTH / 1e9:.2f} GB/s "
          f"(10 Gb/s) in and out, the driver's node serving each other node in turn; a worker "
          f"{WORKER_BYTES / 1e6:.0f} MB, the driver {DRIVER_BYTES / 1e9:.0f} GB beyond its "
          f"values")


if __name__ == "__main__":
    main()
