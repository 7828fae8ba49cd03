"""Time the cyclic-game solves: `python benchmarks/bench_race.py [--quick]`.

Each solve runs in its own process, so its time and peak memory are its own (no cache).
Rows: Pig to 100 (target <= 10 s), the two-player Dalek Dice race over a range of targets up to
60 (target <= 120 s and <= 2 GB at 60), the three- and four-player races at the targets they
reach (the cost curve), and a game-level `best-move` answered from the cache (<= 1 s).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.formatting import table

ROOT = Path(__file__).resolve().parent.parent

SOLVE = """
import json, sys, time
from solver.engine.cyclic import solve
from solver.games.dalek.rules import parse_rules
from solver.games.dalek.race import DalekRace, solve_race
from solver.games.dalek.turn import compile_turn
from solver.games.pig.model import PigGame
game, players, target = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.perf_counter()
if game == "pig":
    solution = solve(PigGame(target), (0, 0, 0))
    first, positions, residual = solution.values((0, 0, 0))[0], solution.graph.size, \\
        solution.residual
else:
    race = DalekRace(compile_turn(parse_rules(), use_cache=False), players, target)
    values = solve_race(race, use_cache=False)
    first, positions, residual = values.values(race.start())[0], len(values.index), \\
        values.residual
print(json.dumps({"seconds": time.perf_counter() - start, "first": float(first),
                  "positions": positions, "residual": residual}))
"""


def run(arguments: list[str], env: dict | None = None) -> tuple[dict | None, float, float]:
    """(printed JSON or None, wall seconds, peak memory in MB) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             cwd=ROOT, env=env)
    out = child.stdout.read()
    _, _, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    try:
        data = json.loads(out)
    except ValueError:
        data = None
    return data, wall, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the long solves")
    quick = parser.parse_args().quick
    cases = [("pig", 2, 100, "<= 10 s")]
    two = [20, 30, 40] if quick else [20, 30, 40, 50, 60]
    cases += [("dalek", 2, t, "<= 120 s, 2 GB" if t == 60 else "") for t in two]
    cases += [("dalek", 3, t, "") for t in ([8, 12] if quick else [8, 12, 16, 20, 24])]
    cases += [("dalek", 4, t, "") for t in ([6] if quick else [6, 8, 10, 12])]
    rows = []
    for game, players, target, goal in cases:
        data, _, memory = run([sys.executable, "-c", SOLVE, game, str(players), str(target)])
        if data is None:
            rows.append((game, players, target, "failed", "", "", f"{memory:.0f}", goal))
            continue
        rows.append((game, players, target, f"{data['first']:.6f}", data["positions"],
                     f"{data['seconds']:.1f}", f"{memory:.0f}", goal))
        print(table(["game", "players", "target", "P(seat 1) / value", "positions", "seconds",
                     "peak MB", "target"], rows[-1:]).splitlines()[-1], flush=True)
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DICE_SOLVER_CACHE": folder}
        query = [sys.executable, str(ROOT / "cli.py"), "dalek", "best-move", "--roll",
                 "H4 H4 H2 D3 D2 DOC EXT", "--humans", "6", "--daleks", "3", "--scores",
                 "30,32", "--target", "40", "--quiet"]
        subprocess.run(query, env=env, check=True, capture_output=True)  # solves, fills the cache
        times = [run(query, env)[1] for _ in range(3)]
    print()
    print(table(["game", "players", "target", "P(seat 1) / value", "positions", "seconds",
                 "peak MB", "target"], rows))
    print(f"\ngame-level best-move from the cache (race to 40, fresh process): "
          f"{min(times):.2f} s best of 3 (target <= 1 s)")


if __name__ == "__main__":
    main()
