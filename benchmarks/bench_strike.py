"""Strike: time the headline solves and print a table of figures.

Run: python benchmarks/bench_strike.py [--large]   (each solve in a fresh process; --large adds
4 players with 7 dice each and 5 players with 4 each: tens of minutes and several GB). The load
average is printed: timings taken while other work runs on the machine are inflated. Beside
each time stands the estimate `solver/games/strike/cost.py` refuses requests by (it should not
fall below the time measured).

Target from issue 4: 2 players, 9 dice each, default model, float64: <= 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from solver.commands import table

ROOT = Path(__file__).resolve().parent.parent

SOLVE = """
import json, sys, time
from fractions import Fraction
from solver.games.strike.model import Strike
from solver.games.strike.cost import solve_cost
from solver.engine.cyclic import solve
players, dice, scoring, exact = json.loads(sys.argv[1])
start = time.perf_counter()
game = Strike(players, dice, scoring=scoring)
estimate, memory = solve_cost(game, exact)
solution = solve(game, game.start(), exact=exact)
seconds = time.perf_counter() - start
row = solution.values(game.start())
print(json.dumps({"seconds": seconds, "estimate": estimate, "memory": memory,
                  "phases": solution.seconds, "positions": solution.graph.size,
                  "components": solution.components, "iterations": solution.iterations,
                  "residual": solution.residual,
                  "seats": [float(-row[m] if scoring == "points" else row[m])
                            for m in map(game.layout.objective, range(game.players))]}))
"""

CASES = [  # (name, players, dice, scoring, exact, target seconds)
    ("2 players, 9 dice (target)", 2, 9, "win", False, 10),
    ("2 players, 9 dice, points", 2, 9, "points", False, None),
    ("2 players, 3 dice, exact", 2, 3, "win", True, None),
    ("2 players, 4 dice, exact", 2, 4, "win", True, None),
    ("3 players, 8 dice", 3, 8, "win", False, None),
    ("3 players, 8 dice, points", 3, 8, "points", False, None),
]
LARGE = [("4 players, 7 dice", 4, 7, "win", False, None),
         ("5 players, 4 dice", 5, 4, "win", False, None)]


def run(players: int, dice: int, scoring: str, exact: bool) -> dict:
    result = subprocess.run([sys.executable, "-c", SOLVE,
                             json.dumps([players, dice, scoring, exact])],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def cold_cli() -> float:
    """Wall time of `dice-solver strike game` as a user runs it (interpreter start included)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "cli.py", "strike", "game", "--quiet"], cwd=ROOT,
                   capture_output=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true",
                        help="also 4 players with 7 dice and 5 players with 4")
    cases = CASES + (LARGE if parser.parse_args().large else [])
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)")
    rows = []
    for name, players, dice, scoring, exact, target in cases:
        r = run(players, dice, scoring, exact)
        phases = r["phases"]
        verdict = "" if target is None else ("ok" if r["seconds"] <= target else "SLOW")
        rows.append((name, r["positions"], r["components"], r["iterations"],
                     f"{r['residual']:.1e}", f"{phases['explore']:.1f}",
                     f"{phases['components']:.1f}", f"{phases['solve']:.1f}",
                     f"{r['seconds']:.1f}", f"{r['estimate']:.1f}",
                     f"{r['memory'] / 2**20:.0f}", "" if target is None else target, verdict,
                     " ".join(f"{v:.6f}" for v in r["seats"])))
    print(table(["solve", "positions", "components", "iterations", "residual", "explore s",
                 "graph s", "solve s", "total s", "estimate s", "estimate MiB", "target s", "",
                 "seat values (P(win) or points)"],
                rows))
    print(f"dice-solver strike game (cold start, wall): {cold_cli():.1f} s")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
