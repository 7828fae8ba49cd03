"""Time of the Daleks: time the headline solves and print a table of figures.

Run: python benchmarks/bench_totd.py   (each solve runs in a fresh process, so every figure is a
cold start: keep spaces and stop tests are built inside the timing).
     python benchmarks/bench_totd.py --cost   (solves of growing size, each measured beside the
estimate solver/games/totd/cost.py makes before it starts: the figures there come from here;
last, the search of `totd rules` beside rulefamilies.SEARCH_SECONDS).

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
from solver.games.totd.rules import Adventure, Doctor, \\
from solver.games.totd.files import load_game
from solver.games.totd.typed import make_tools
    parse_challenge, parse_pool
from solver.games.totd.model import Solver
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


ICONS = ["2 black", "any blue", "all red", "any green", "1 black", "3 black", "1 green",
         "1 blue"]
CHANGES = ["black:Science", "green:Running", "blue:Cunning", "red:Tactics", "black:Strength",
           "green:Diplomacy", "blue:Science", "red:Strength"]
COSTS = {  # name -> (need, doctors, exact): solves of growing size for the cost figures
    "8 dice, 3 icons": (SIX, [("black=3 green=2 blue=2 red=1", TOOLS)], False),
    "8 dice, 8 icons": (SIX, [("black=3 green=2 blue=2 red=1", ("5", ICONS, ()))], False),
    "8 dice, 8 icons, exact": (SIX, [("black=3 green=2 blue=2 red=1", ("5", ICONS, ()))], True),
    "8 Black dice, 6 icons": (SIX, [("black=8", ("5", ("2 black", "any black", "all black",
                                                      "1 black", "3 black", "4 black"),
                                                ("black:Science",)))], False),
    "8 dice, 8 face-change icons": (SIX, [("black=3 green=2 blue=2 red=1",
                                            ("5", (), CHANGES))], False),
    "help at the location, 5 + 3 dice": (*SOLVES["help at the location, 5 + 3 dice"][:2], False),
}
PLANS = {  # name -> (pool, sonic, re-roll icons, face-change icons) of the re-roll plan, SIX
    "plan (verify), 8 Black dice, 5 icons": ("black=8", 5, ("2 black",) * 5, ()),
    "plan (verify), 8 Black dice, 4 face changes": (
        "black=8", 5, (), ("black:Science", "black:Running", "black:Tactics", "black:Strength")),
}

COST = """
import json, resource, sys, time
from solver.games.totd.cost import solve_cost
from solver.games.totd.rules import Adventure, Doctor, \\
from solver.games.totd.files import load_game
from solver.games.totd.typed import make_tools
    parse_challenge, parse_pool
from solver.games.totd.model import Solver
need, doctors, exact = json.loads(sys.argv[1])
game = load_game()
adventure = Adventure(game, parse_challenge(game, need), tuple(
    Doctor(parse_pool(game, pool), make_tools(game, int(s), tuple(r), tuple(c)))
    for pool, (s, r, c) in doctors))
seconds, memory = solve_cost(adventure, exact)
start = time.perf_counter()
solver = Solver(adventure, exact=exact)
solver.p_success()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps([time.perf_counter() - start, seconds, peak, memory, solver.states()]))
"""


def run_solve(need: str, doctors: list, exact: bool) -> tuple[float, int, str]:
    out = subprocess.run([sys.executable, "-c", SOLVE, json.dumps([need, doctors, exact])],
                         check=True, capture_output=True, text=True).stdout
    seconds, positions, p = json.loads(out)
    return seconds, positions, p


def run_command(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, str(CLI), *args], check=True, capture_output=True)
    return time.perf_counter() - start


def costs() -> None:
    """Each solve's measured time and peak memory beside cost.py's estimates."""
    from solver.games.totd.cost import plan_cost
    from solver.games.totd.files import load_game
    from solver.games.totd.typed import parse_pool, solo_adventure

    rows = []
    for name, (need, doctors, exact) in COSTS.items():
        out = subprocess.run([sys.executable, "-c", COST, json.dumps([need, doctors, exact])],
                             check=True, capture_output=True, text=True).stdout
        seconds, estimate, peak, memory, positions = json.loads(out)
        rows.append((name, f"{positions:,}", f"{seconds:.2f}", f"{estimate:.2f}",
                     f"{peak / 2 ** 20:.0f}", f"{memory / 2 ** 20:.0f}"))
    game = load_game()
    for name, (pool, sonic, rerolls, changes) in PLANS.items():
        adventure = solo_adventure(game, SIX, parse_pool(game, pool), sonic, rerolls, changes)
        args = ["verify", "totd", "--need", SIX, "--pool", pool, "--sonic", str(sonic),
                *[w for r in rerolls for w in ("--reroll", r)],
                *[w for c in changes for w in ("--change", c)], "--force"]
        rows.append((name, "-", f"{run_command(args):.2f}", f"{plan_cost(adventure):.2f}", "-",
                     "-"))
    rows.append(rule_search())
    print(table(["solve", "positions", "seconds", "estimate", "peak MiB", "estimate MiB"], rows))


def rule_search() -> tuple[str, ...]:
    """`totd rules` with an empty cache (the whole search), beside rulefamilies' estimate."""
    import os
    import resource
    import tempfile

    from solver.games.totd.rulefamilies import SEARCH_BYTES, SEARCH_SECONDS

    with tempfile.TemporaryDirectory() as empty:
        start = time.perf_counter()
        subprocess.run([sys.executable, str(CLI), "totd", "rules"], check=True,
                       capture_output=True, env={**os.environ, "DICE_SOLVER_CACHE": empty})
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the largest child
    return ("totd rules (40 plans x 10 Adventures)", "-", f"{seconds:.2f}",
            f"{SEARCH_SECONDS:.2f}", f"<= {peak:.0f}", f"{SEARCH_BYTES / 2 ** 20:.0f}")


def main() -> None:
    if "--cost" in sys.argv[1:]:
        costs()
        return
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
