"""Time the level engine's turn passes on the ten-dice Dalek Dice turn:
`python benchmarks/bench_passes.py [--baseline TREE] [--repeat N]`.

One thread, on the turn graph with its duplicate nodes merged (154,702 nodes, 719,690 edges) and
512 real utility rows: the rows the 2-player race to 30 passes to its turn (solved first, in this
process), without repeats, 512 of them taken evenly spread. Prints the CPU time per column of a
backward pass alone and of a best response with its distribution (a backward pass recording the
choices, then the forward pass), each as ms per column and ns per edge and pass, beside the
anchor of issue 25: a published Yahtzee solver (dlangk/yatzy) at about 0.1 ns per edge operation
per core. The best of `--repeat` timings is kept.

`--baseline TREE` also times the passes of another checkout of this repository from before the
level engine became a package (its solver/engine/levels.py held its own kernels and is loaded
beside this one: `git worktree add --detach /tmp/base 2ac06a4`; a later tree's passes import their
kernels by name, which would load this tree's: run the benchmark in that tree instead),
on the same rows, and checks both give the same values to the bit (the compiled kernels are then
cached in a temporary folder, as numba would cache the other tree's under the name given here).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

if "--baseline" in sys.argv:  # numba caches the other tree's kernels under the name loaded
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp()  # here: not beside its own code

import numpy as np

from solver.engine import levels
from solver.formatting import table
from solver.games.dalek.files import parse_rules
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.turn import compile_turn

ROWS = 512
ANCHOR_NS = 0.1  # dlangk/yatzy: 1.43 million states of ~130,000 edge operations, 2.3 s on 8 cores


def race_rows(target: int = 30) -> tuple[DalekRace, np.ndarray]:
    """(the race, `ROWS` distinct utility rows its level solve passes to the turn)."""
    race = DalekRace(compile_turn(parse_rules()), 2, target)
    game = LevelRace(race)
    seen: list[np.ndarray] = []
    respond = game.turn.respond

    def recording(utilities: np.ndarray, distributions: bool):
        seen.append(np.array(utilities, dtype=np.float64))
        return respond(utilities, distributions)

    game.turn.respond = recording  # type: ignore[method-assign]
    levels.solve(game)
    rows = np.unique(np.concatenate(seen), axis=0)
    return race, rows[np.linspace(0, len(rows) - 1, ROWS).round().astype(int)]


def baseline_module(tree: Path):
    """The level engine of another checkout, loaded under its own name."""
    path = tree / "solver" / "engine" / "levels.py"
    if not path.exists():
        sys.exit(f"bench_passes: {path} is not there: --baseline times a tree from before the "
                 "level engine became a package; run the benchmark in that tree instead")
    spec = importlib.util.spec_from_file_location("baseline_levels", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = module  # type: ignore[union-attr]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def timed(passes, rows: np.ndarray, distributions: bool, repeat: int) -> tuple[float, np.ndarray]:
    """(best CPU seconds of `repeat` calls, the values)."""
    passes.threads = 1
    values = passes.respond(rows[:16], distributions)[0]  # compile, allocate
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        values = passes.respond(rows, distributions)[0]
        best = min(best, time.process_time() - start)
    return best, values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", type=Path, help="another checkout to time beside this one")
    parser.add_argument("--repeat", type=int, default=5, help="timings of each (the best kept)")
    options = parser.parse_args()
    race, rows = race_rows()
    graph, root = race.turn.graph, race.turn.root
    kinds = [("this tree", levels)]
    if options.baseline:
        kinds.insert(0, (f"baseline {options.baseline}", baseline_module(options.baseline)))
    lines, answers = [], []
    for name, module in kinds:
        passes = module.TurnPasses(graph, root)
        edges = len(passes._flat[1])
        backward, values = timed(passes, rows, False, options.repeat)
        response, _ = timed(passes, rows, True, options.repeat)
        answers.append(values)
        per = 1e3 / ROWS
        lines.append([name, f"{passes.root + 1:,}", f"{edges:,}", f"{backward * per:.3f}",
                      f"{backward / ROWS / edges * 1e9:.2f}", f"{response * per:.3f}",
                      f"{response / ROWS / edges / 2 * 1e9:.2f}"])
    print(table(["kernels", "nodes", "edges", "backward ms/col", "ns/edge", "response ms/col",
                 "ns/edge/pass"], lines))
    print(f"anchor (dlangk/yatzy): {ANCHOR_NS} ns per edge operation per core")
    if len(answers) == 2:
        print("same values to the bit:", bool(np.array_equal(*answers)))


if __name__ == "__main__":
    main()
