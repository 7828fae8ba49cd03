"""Simulators: time `dice-solver simulate` end to end, and print a table of figures.

Run: python benchmarks/bench_simulate.py   (each command runs in a fresh process, so every figure
includes the cold start: compiling the turn, reading the policy off the solved turn, writing the
file; "playing" is the simulation alone, as the command reports it).

Target from issue 6: one million Dalek Dice turns under the optimal policy in <= 60 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.commands import table

CLI = Path(__file__).resolve().parent.parent / "cli.py"

RUNS = {  # name -> (simulate arguments, target seconds or None)
    "Dalek Dice, 1,000,000 turns, points (optimal)": (
        ["dalek", "--policy", "points", "--n", "1000000"], 60),
    "Dalek Dice, 1,000,000 turns, keep-daleks 8": (
        ["dalek", "--policy", "keep-daleks 8", "--n", "1000000"], None),
    "Dalek Dice, 100,000 turns, points, with decision log": (
        ["dalek", "--policy", "points", "--n", "100000", "--decisions", "{dir}/moves.csv"], None),
    "Dalek Dice, 100,000 races to 60, points vs keep-daleks 10": (
        ["dalek", "--policy", "points", "--duel", "keep-daleks 10", "--n", "100000"], None),
    "Pig, 1,000,000 turns, hold 20": (["pig", "--policy", "hold 20", "--n", "1000000"], None),
    "Pig, 100,000 games to 100, optimal vs hold 20": (
        ["pig", "--policy", "optimal", "--duel", "hold 20", "--n", "100000"], None),
}


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, (args, target) in RUNS.items():
            out = os.path.join(folder, "samples.csv")
            command = [sys.executable, str(CLI), "simulate",
                       *[a.format(dir=folder) for a in args], "--seed", "1", "--out", out,
                       "--json"]
            start = time.perf_counter()
            result = subprocess.run(command, capture_output=True, text=True, check=True)
            total = time.perf_counter() - start
            summary = json.loads(result.stdout)
            rows.append((name, f"{total:.1f}", f"{summary['timings']['total']:.1f}",
                         "" if target is None else f"<= {target}",
                         "" if target is None else ("yes" if total <= target else "NO")))
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f} (other jobs inflate the figures)")
    print(table(["run", "seconds", "playing", "target", "met"], rows))


if __name__ == "__main__":
    main()
