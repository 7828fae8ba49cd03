"""Time cached answers: `python benchmarks/bench_cached.py [--runs N]`.

Each command runs once untimed (it fills the disk cache: $DICE_SOLVER_CACHE, else the user's),
then N times in a fresh process, end to end (interpreter, imports, reading the cache, the
answer): wall and CPU seconds (user + system, from the OS's accounting of the finished child),
fastest and median; bytecode is compiled once into a temporary folder, as an installed copy
has it. Then the page's API as `dice-solver serve` runs it: start-up (preload), then
N requests per position, timed on the server (the Server-Timing header). The 2- and 3-player
races to 60 ship solved with the package (docs/results.md); a race neither shipped nor cached is
skipped, not solved.
The machine's load average is printed before and after: a loaded machine stretches wall time.
Then the shipped races as a fresh install meets them: each timed run with an empty cache of its
own (the turn graph and the race values read from the package, nothing built or solved).
Targets (issue 14, item 5): a cached command under 0.5 s, a page answer under 100 ms; issue 25:
a shipped race's answer under a second, on a fresh install too.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.formatting import table

ROOT = Path(__file__).resolve().parent.parent
ROLL = "H4 H4 H2 D3 D2 D2 H4 DOC EXT H2"
RACE = ("--scores", "20,30")
COMMANDS = [
    ("dalek turn", ["turn"]),
    ("dalek turn --exact", ["turn", "--exact"]),
    ("dalek turn --exact --distribution", ["turn", "--exact", "--distribution"]),
    ("dalek best-move", ["best-move", "--roll", ROLL]),
    ("dalek best-move --exact", ["best-move", "--roll", ROLL, "--exact"]),
    ("dalek best-move --scores 20,30 (race to 60)", ["best-move", "--roll", ROLL, *RACE]),
    ("dalek game --players 3 --scores 30,42,12 --seat 2 (shipped)",
     ["game", "--players", "3", "--scores", "30,42,12", "--seat", "2"]),
]
SHIPPED = [(name, args) for name, args in COMMANDS if "(shipped)" in name] + [
    ("dalek game --scores 30,42 --seat 2 (shipped)", ["game", "--scores", "30,42", "--seat", "2"])]
PAGE = [  # what the page sends: a turn position, and the same roll in a 2-player race to 60
    ("turn position", [("roll", ROLL)]),
    ("race position (2 players, to 60)", [("roll", ROLL), ("scores", "20,30")]),
]
RACE_BUDGET = "10"  # seconds: a race that is not cached is refused, not solved


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def child(args: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall, cpu) seconds of `python cli.py dalek ARGS --json` in a fresh process, and its
    exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "dalek", *args, "--json"],
                          cwd=ROOT, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done.returncode


def commands(runs: int, bytecode: str, listed: list[tuple[str, list[str]]], fresh: bool = False
             ) -> list[tuple]:
    """Each command timed `runs` times after an untimed run (which fills the cache and compiles
    the bytecode); `fresh`: each timed run with an empty cache of its own, as a fresh install."""
    env = {**os.environ, "DICE_SOLVER_BUDGET": RACE_BUDGET, "PYTHONPYCACHEPREFIX": bytecode}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed copy has its bytecode compiled
    rows = []
    for name, args in listed:
        if child(args, env)[2] != 0:  # fills the cache; refused: a race not solved yet
            rows.append((name, "-", "-", "-", "-", "not cached: skipped"))
            continue
        times = [child(args, {**env, "DICE_SOLVER_CACHE": tempfile.mkdtemp()} if fresh else env
                       )[:2] for _ in range(runs)]
        wall, cpu = [t[0] for t in times], [t[1] for t in times]
        rows.append((name, f"{min(wall):.3f}", f"{statistics.median(wall):.3f}",
                     f"{min(cpu):.3f}", f"{statistics.median(cpu):.3f}",
                     "< 1 s" if "(shipped)" in name else "< 0.5 s"))
    return rows


def page(runs: int) -> tuple[float, list[tuple]]:
    """Start-up as `serve` does it (its preload), then each position's server-side times."""
    from starlette.testclient import TestClient

    from solver.cli.serve import _preload
    from solver.web.app import application

    os.environ["DICE_SOLVER_BUDGET"] = RACE_BUDGET
    app = application(float(RACE_BUDGET))
    start = time.perf_counter()
    _preload(float(RACE_BUDGET))
    startup = time.perf_counter() - start
    client = TestClient(app)
    rows = []
    for name, query in PAGE:
        server, ok = [], True
        for _ in range(runs):
            answer = client.get("/api/dalek/best-move", params=query)
            ok = ok and answer.status_code == 200
            server.append(float(answer.headers["server-timing"].split("dur=")[1]))
        rows.append((name, f"{min(server):.1f}", f"{statistics.median(server):.1f}",
                     "< 100 ms" if ok else "refused (not cached)"))
    return startup, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each (default 7)")
    runs = parser.parse_args().runs
    print(f"{load()} (before); {os.cpu_count()} cores")
    bytecode = tempfile.mkdtemp()
    columns = ["wall min s", "wall median s", "cpu min s", "cpu median s", "target"]
    print(table(["cached command, fresh process", *columns],
                commands(runs, bytecode, COMMANDS)))
    print(table(["shipped race, empty cache (a fresh install)", *columns],
                commands(runs, bytecode, SHIPPED, fresh=True)))
    try:
        startup, rows = page(runs)
    except ImportError:
        print("page: the web extra is missing (pip install 'dice-solver[web]')")
    else:
        print(f"\npage start-up (preload, every game): {startup:.1f} s")
        print(table(["page request (best-move)", "server min ms", "server median ms",
                     "target"], rows))
    print(f"\n{load()} (after)")


if __name__ == "__main__":
    main()
