"""Time the Dalek Dice turn solver: `python benchmarks/bench_dalek.py`.

Prints a table: the exact and the float64 value of a fresh 10-dice turn (graph built once and
timed apart), and `dice-solver dalek best-move` end to end in a fresh process (a cold start:
interpreter, imports, the turn graph read from the disk cache, the query). Targets from
issue 2: exact <= 1 s, float <= 0.1 s, best-move <= 1 s.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from solver.formatting import table
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import build_turn, compile_turn, points_utility

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 5


def best_of(run, repeats: int = REPEATS) -> tuple[float, float]:
    """(fastest, median) seconds of several runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    build = best_of(lambda: build_turn(parse_rules()))
    turn = compile_turn(parse_rules())  # stores the built graph in the cache
    load = best_of(lambda: compile_turn(parse_rules()))
    utility = points_utility(turn)
    floats = np.array([float(u) for u in utility])
    turn.graph.solve(floats)  # load the compiled kernel once, as any solve after the first
    exact = best_of(lambda: turn.graph.solve_exact(utility))
    single = best_of(lambda: turn.graph.values(floats))
    kernel = best_of(lambda: turn.graph.solve(floats))
    command = [sys.executable, str(ROOT / "cli.py"), "dalek", "best-move", "--roll",
               "H4 H4 H2 D3 D2 DOC EXT", "--humans", "6", "--daleks", "3"]
    cold = best_of(lambda: subprocess.run(command, check=True, capture_output=True), 3)
    rows = [
        ("build the 10-dice turn graph", *build, ""),
        ("load it from the cache instead", *load, ""),
        ("fresh turn, exact rationals (graph built)", *exact, "<= 1 s"),
        ("fresh turn, float64, NumPy pass", *single, "<= 0.1 s"),
        ("fresh turn, float64, compiled pass", *kernel, "<= 0.1 s"),
        ("dalek best-move, cold process end to end", *cold, "<= 1 s"),
    ]
    print(table(["measure", "fastest s", "median s", "target"],
                [(name, f"{a:.3f}", f"{b:.3f}", target) for name, a, b, target in rows]))
    print(f"graph: {turn.graph.size} nodes, {turn.graph.edges} edges")


if __name__ == "__main__":
    main()
