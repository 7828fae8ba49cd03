"""Time of the Daleks: time the headline solves and print a table of figures.

Run: python benchmarks/bench_totd.py   (each solve runs in a fresh process, so every figure is a
cold start: keep spaces and stop tests are built inside the timing).

Targets from issue 5: an 8-die mixed pool, a 6-symbol Challenge, 5 Sonic tokens, three re-roll
icons and one face change: exact <= 5 s, float <= 1 s; help at the location (5 + 3 dice, both
Doctors with tools) <= 30 s.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from solver.commands import table

CLI = Path(__file__).resolve().parent.parent / "cli.py"

SIX = "Running, Diplomacy, Science, Cunning, Tactics, Strength"
TOOLS = ("5", ("2 black", "any blue", "all red"), ("green:Diplomacy",))
HELPER = ("5", ("all red",), ("red:Tactics",))

SOLVES = {  # name -> (need, [(pool, (sonic, rerolls, changes)), ...], target seconds float/exact)
    "8 dice mixed, 6 symbols": (SIX, [("black=3 green=2 blue=2 red=1", TOOLS)], (1, 5)),
    "8 dice 2 of each, 6 symbols (Science x2)": (
        "Science x2, Cunning, Tactics, Running, Diplomacy",
        [("black=2 green=2 blue=2 red=2", TOOLS)], (1, 5)),
    "8 Black dice, 6 symbols": (SIX, [("black=8", ("5", ("2 black", "any black", "all black"),
                                                   ("black:Science",)))], (1, 5)),
    "help at the location, 5 + 3 dice": (
        SIX, [("black=2 green=1 blue=1 red=1", TOOLS), ("green=1 blue=1 red=1", HELPER)],
        (30, 30)),
}

SOLVE = """
import json, sys, time
from solver.games.totd.rules import Adventure, Doctor, load_game, make_tools, \\
    parse_challenge, parse_pool
from solver.games.totd.solver import Solver
need, doctors, exact = json.loads(sys.argv[1])
game = load_game()
start = time.perf_counter()
adventure = Adventure(game, parse_challenge(game, need), tuple(
    Doctor(parse_pool(game, pool), make_tools(game, int(s), tuple(r), tuple(c)))
    for pool, (s, r, c) in doctors))
solver = Solver(adventure, exact=exact)
p = solver.p_success()
print(json.dumps([time.perf_counter() - start, solver.states(), str(p)]))
"""

COMMANDS = {  # name -> (dice-solver arguments, target seconds or None)
    "totd help (every split, float)": (
        ["totd", "help", "--need", SIX, "--me", "black=3 green=2 blue=2 red=1; sonic 5; "
         "reroll 2 black; reroll any blue; change green:Diplomacy", "--helper",
         "sonic 5; reroll all red; change red:Tactics"], 30),
    "totd build (3 Focus icons, 1 Dalek)": (
        ["totd", "build", "--need", SIX, "--add", "black=7 red=1", "--focus", "blue",
         "--focus", "green/blue", "--focus", "red", "--daleks", "1", "--sonic", "5",
         "--reroll", "2 black", "--reroll", "any blue"], None),
    "totd table (480 solves, float + exact)": (
        ["totd", "table", "--out", "/tmp/bench_totd_table"], None),
}


def run_solve(need: str, doctors: list, exact: bool) -> tuple[float, int, str]:
    out = subprocess.run([sys.executable, "-c", SOLVE, json.dumps([need, doctors, exact])],
                         check=True, capture_output=True, text=True).stdout
    seconds, positions, p = json.loads(out)
    return seconds, positions, p


def run_command(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, str(CLI), *args], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    rows = []
    for name, (need, doctors, targets) in SOLVES.items():
        for exact, target in zip((False, True), targets):
            seconds, positions, p = run_solve(need, doctors, exact)
            shown = p if exact else f"{float(p):.12f}"
            rows.append((name, "exact" if exact else "float", f"{seconds:.2f}", f"<= {target}",
                         positions, shown[:40]))
    for name, (args, target) in COMMANDS.items():
        seconds = run_command(args)
        rows.append((name, "command", f"{seconds:.2f}", f"<= {target}" if target else "-", "-",
                     "-"))
    print(table(["solve", "numbers", "seconds", "target", "positions", "P(met)"], rows))


if __name__ == "__main__":
    main()
