"""Time the level-by-level engine: `python benchmarks/bench_levels.py [--quick] [--sixty]
[--strike-only] [--strike-full]`.

Each solve runs in its own process (no cache, no checkpoint), so its time and peak memory are its
own. Rows: the two-player Dalek Dice race up to 60 (target <= 30 s and <= 1 GB at 60; its values
are compared with tables/dalek_dice/race_2p_60, which the cyclic engine wrote), the three-player
race at rising targets (the cost curve; `--sixty` adds the race to 60: target <= 60 min and
<= 12 GB). Columns: reachable positions, wall and CPU seconds, peak memory, what the solve
holds beyond its values (the last lines give it per position, between the two largest solves),
turn passes per position (backward, forward), the CPU cost per position, and the seats' values.

Strike rows (win scoring, the model's defaults): 4 players with 4 dice and 5 players with 3 and 4
(`--quick`: the first two), `--strike-full` adds 5 players with 5 dice (the 26-dice edition) and
6 (the 31-dice edition). Columns: the numbers of the numbering (reachable or not), the positions
reached, wall and CPU seconds, peak memory, what the solve holds beyond its values (also per
position reached), Gauss-Seidel sweeps per level, the CPU cost per position, the seats' P(win).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from solver.formatting import table

ROOT = Path(__file__).resolve().parent.parent

HEAD = """
import csv, json, resource, sys, time
import numpy as np
import scipy.sparse.csgraph  # imported before measuring: what the solve holds, not the code
from solver.engine import levels
"""

# `game` (and `players`) set up before it: the solve's wall and CPU time, and the peak memory it
# holds beyond what the process held before and beyond its values.
MEASURE = """
page = resource.getpagesize()
with open("/proc/self/statm") as statm:
    before = int(statm.read().split()[1]) * page
start, cpu = time.perf_counter(), time.process_time()
solution = levels.solve(game)
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
total = solution.total
result = {"seconds": seconds, "cpu": cpu, "positions": total.positions, "size": game.size,
          "beyond": peak - before - solution.values.nbytes, "residual": total.residual,
          "seats": solution.values[:players, game.start()].tolist()}
"""

SOLVE = HEAD + """
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import compile_turn
players, target, table = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
race = DalekRace(compile_turn(parse_rules(), use_cache=False), players, target)
game = LevelRace(race)
game.turn.respond(np.zeros((2 * levels.TILE, game.turn.n_results)), True)  # compile, allocate
""" + MEASURE + """
result["backward"] = total.backward / total.positions
result["forward"] = total.forward / total.positions
if table != "-":
    worst, metric = 0.0, race.metric
    with open(table) as handle:
        for row in csv.DictReader(handle):
            scores = np.array([[int(row[f"score_{s + 1}"]) for s in range(players)]])
            mover = int(row["mover"]) - 1
            number = game.encode(scores, np.array([mover]))[0]
            got = solution.values[[metric.value(mover), metric.win(mover)], number]
            want = np.array([float(row["value"]), float(row["p_win"])])
            worst = max(worst, float(np.abs(got - want).max()))
    result["table_difference"] = worst
print(json.dumps(result))
"""

TABLE = ROOT / "tables" / "dalek_dice" / "race_2p_60" / "race_positions.csv"

STRIKE = HEAD + """
from solver.games.strike.levels import LevelStrike
from solver.games.strike.model import Strike
players, dice = int(sys.argv[1]), int(sys.argv[2])
game = LevelStrike(Strike(players, dice))
""" + MEASURE + """
result["sweeps"] = total.sweeps / game.levels
print(json.dumps(result))
"""


def run(players: int, target: int, script: str = SOLVE) -> tuple[dict | None, float]:
    """(printed JSON or None, peak memory in MB) of one solve in a child process (Strike's
    `script`: target is the dice each)."""
    table_path = str(TABLE) if (players, target) == (2, 60) and script == SOLVE else "-"
    child = subprocess.Popen([sys.executable, "-c", script, str(players), str(target),
                              table_path], stdout=subprocess.PIPE, cwd=ROOT)
    out = child.stdout.read()
    _, _, usage = os.wait4(child.pid, 0)
    try:
        return json.loads(out), usage.ru_maxrss / 1024
    except ValueError:
        return None, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="only the small solves")
    parser.add_argument("--sixty", action="store_true", help="add 3 players to 60 (long)")
    parser.add_argument("--strike-only", action="store_true", help="only the Strike rows")
    parser.add_argument("--strike-full", action="store_true",
                        help="add Strike with 5 players and 5, then 6 dice each (long)")
    options = parser.parse_args()
    if not options.strike_only:
        race_rows(options)
    strike_rows(options)
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def strike_rows(options: argparse.Namespace) -> None:
    """Strike on the level engine (5 players: 26 and 31 dice editions with --strike-full)."""
    cases = [(4, 4), (5, 3)] + ([] if options.quick else [(5, 4)])
    cases += [(5, 5), (5, 6)] if options.strike_full else []
    header = ["players", "dice", "numbers", "positions", "seconds", "CPU s", "peak MB",
              "beyond MB", "beyond B/pos", "sweeps/level", "CPU us/pos", "P(win) by seat",
              "residual"]
    rows, sizes = [], []
    for players, dice in cases:
        data, memory = run(players, dice, STRIKE)
        if data is None:
            rows.append((players, dice, "failed", "", "", "", f"{memory:.0f}", "", "", "", "",
                         "", ""))
        else:
            rows.append((players, dice, data["size"], data["positions"],
                         f"{data['seconds']:.1f}", f"{data['cpu']:.1f}", f"{memory:.0f}",
                         f"{data['beyond'] / 1e6:.0f}",
                         f"{data['beyond'] / data['positions']:.0f}",
                         f"{data['sweeps']:.0f}", f"{1e6 * data['cpu'] / data['positions']:.1f}",
                         ", ".join(f"{v:.4f}" for v in data["seats"]),
                         f"{data['residual']:.1e}"))
            sizes.append((data["positions"], data["beyond"]))
        print(table(header, rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(header, rows))
    if len(sizes) >= 2:
        (small, held_small), (large, held_large) = sorted(sizes)[-2:]
        print(f"Strike: held beyond the values, per position reached (between the two largest "
              f"solves): {(held_large - held_small) / max(large - small, 1):.0f} bytes")


def race_rows(options: argparse.Namespace) -> None:
    """Dalek Dice races on the level engine."""
    cases = [(2, t, "<= 30 s, 1 GB" if t == 60 else "") for t in
             ([20, 40] if options.quick else [20, 40, 60])]
    cases += [(3, t, "") for t in ([12] if options.quick else [12, 24, 30, 40])]
    if options.sixty:
        cases.append((3, 60, "<= 60 min, 12 GB"))
    header = ["players", "target", "positions", "seconds", "CPU s", "peak MB", "beyond MB",
              "B/pos", "F/pos", "CPU ms/pos", "seat values", "residual", "target"]
    rows, notes, sizes = [], [], []
    for players, target, goal in cases:
        data, memory = run(players, target)
        if data is None:
            rows.append((players, target, "failed", "", "", f"{memory:.0f}", "", "", "", "", "",
                         "", goal))
        else:
            rows.append((players, target, data["positions"], f"{data['seconds']:.1f}",
                         f"{data['cpu']:.1f}", f"{memory:.0f}", f"{data['beyond'] / 1e6:.0f}",
                         f"{data['backward']:.2f}", f"{data['forward']:.2f}",
                         f"{1e3 * data['cpu'] / data['positions']:.2f}",
                         ", ".join(f"{v:.4f}" for v in data["seats"]),
                         f"{data['residual']:.1e}", goal))
            sizes.append((data["size"], data["beyond"]))
            if "table_difference" in data:
                notes.append(f"2 players to 60 against {TABLE.relative_to(ROOT)}: largest "
                             f"difference {data['table_difference']:.1e} (value, p_win)")
        print(table(header, rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(header, rows))
    for note in notes:
        print(note)
    if len(sizes) >= 2:
        (small, held_small), (large, held_large) = sorted(sizes)[-2:]
        print(f"held beyond the values, per position (between the two largest solves): "
              f"{(held_large - held_small) / max(large - small, 1):.0f} bytes")


if __name__ == "__main__":
    main()
