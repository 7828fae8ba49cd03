"""Time the cyclic-game solves: `python benchmarks/bench_race.py [--quick | --cost]`.

Each solve runs in its own process, so its time and peak memory are its own (no cache).
Rows: Pig to 100 (target <= 10 s), the two-player Dalek Dice race over a range of targets up to
60 (target <= 120 s and <= 2 GB at 60), the three- and four-player races at the targets they
reach (the cost curve), and a game-level `best-move` answered from the cache (<= 1 s). Beside
each Dalek Dice solve stand the estimates `solver/games/dalek/cost.py` refuses requests by
(they should not fall below what is measured). `--cost` measures instead the small cases those
estimates were fitted on: turn builds, exact turn passes, races with few dice, exact races and
simulated duels (a few minutes).
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
from solver.games.dalek.cost import race_cost
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import compile_turn
from solver.games.pig.model import PigGame
game, players, target, dice, exact = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \\
    int(sys.argv[4]), sys.argv[5] == "exact"
start = time.perf_counter()
estimate = memory = None
if game == "pig":
    solution = solve(PigGame(target), (0, 0, 0))
    first, positions, residual = solution.values((0, 0, 0))[0], solution.graph.size, \\
        solution.residual
else:
    race = DalekRace(compile_turn(parse_rules(dice=dice), use_cache=False), players, target)
    estimate, memory = race_cost(race, exact)
    start = time.perf_counter()
    values = solve_race(race, exact=exact, use_cache=False, force=True)
    first, positions, residual = values.values(race.start())[0], len(values.index), \\
        values.residual
print(json.dumps({"seconds": time.perf_counter() - start, "first": float(first),
                  "positions": positions, "residual": residual, "estimate": estimate,
                  "memory": memory}))
"""

TURN = """
import json, sys, time
from solver.games.dalek import policies as dp
from solver.games.dalek import arrays
from solver.games.dalek.cost import (BUILD_BYTES_PER_PAIR, BUILD_SECONDS_PER_PAIR,
                                     EXACT_BITS, EXACT_SECONDS_PER_ELEMENT,
                                     POLICY_SECONDS_PER_PAIR, _denominator_bits, turn_pairs)
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import build_turn, points_utility
rules = parse_rules(sys.argv[1], dice=int(sys.argv[2]))
pairs = turn_pairs(rules)
start = time.perf_counter()
turn = build_turn(rules)
built = time.perf_counter()
turn.graph.solve_exact(points_utility(turn), root=turn.root)
exact = time.perf_counter()
dp.distribution(dp.points_policy(arrays.Pairs.of(turn)))
played = time.perf_counter()
elements = turn.graph.size + turn.graph.edges
print(json.dumps({"pairs": pairs, "build": built - start, "exact": exact - built,
                  "policy": played - exact, "elements": elements,
                  "build_estimate": pairs * BUILD_SECONDS_PER_PAIR,
                  "build_memory": pairs * BUILD_BYTES_PER_PAIR,
                  "exact_estimate": elements * EXACT_SECONDS_PER_ELEMENT
                  * (1 + _denominator_bits(rules) / EXACT_BITS),
                  "policy_estimate": pairs * POLICY_SECONDS_PER_PAIR}))
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


def solves(cases: list[tuple]) -> list[tuple]:
    """One row per (game, players, target, dice, exact, goal), each solve in its own process."""
    header = ["game", "players", "target", "dice", "numbers", "P(seat 1) / value", "positions",
              "seconds", "estimate s", "peak MB", "estimate MB", "target"]
    rows = []
    for game, players, target, dice, exact, goal in cases:
        kind = "exact" if exact else "float"
        data, _, memory = run([sys.executable, "-c", SOLVE, game, str(players), str(target),
                               str(dice), kind])
        if data is None:
            rows.append((game, players, target, dice, kind, "failed", "", "", "",
                         f"{memory:.0f}", "", goal))
        else:
            rows.append((game, players, target, dice, kind, f"{data['first']:.6f}",
                         data["positions"], f"{data['seconds']:.1f}",
                         "" if data["estimate"] is None else f"{data['estimate']:.1f}",
                         f"{memory:.0f}",
                         "" if data["memory"] is None else f"{data['memory'] / 1e6:.0f}", goal))
        print(table(header, rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(header, rows))
    return rows


def turns(cases: list[tuple[str, int]]) -> None:
    """Turn builds, one exact pass and one policy played exactly, beside their estimates."""
    rows = []
    for faces, dice in cases:
        data, _, memory = run([sys.executable, "-c", TURN, faces, str(dice)])
        if data is None:
            rows.append((faces, dice, "failed", "", "", "", "", "", "", f"{memory:.0f}", ""))
            continue
        rows.append((faces, dice, f"{data['pairs']:,}", f"{data['build']:.2f}",
                     f"{data['build_estimate']:.2f}", f"{data['exact']:.2f}",
                     f"{data['exact_estimate']:.2f}", f"{data['policy']:.2f}",
                     f"{data['policy_estimate']:.2f}", f"{memory:.0f}",
                     f"{data['build_memory'] / 1e6:.0f}"))
    print(table(["faces", "dice", "pairs", "build s", "estimate", "exact pass s", "estimate",
                 "policy s", "estimate", "peak MB", "build estimate MB"], rows))


def duels(cases: list[tuple[str, str, int, int]]) -> None:
    """Simulated duels end to end (`simulate dalek --duel`, seats (policy, duel), target and
    games), beside the estimate `simulator.games_cost` gives them."""
    from solver.games.dalek import arrays
    from solver.games.dalek import policies as dp
    from solver.games.dalek.files import parse_rules
    from solver.games.dalek.simulator import games_cost
    from solver.games.dalek.turn import compile_turn

    pairs = arrays.Pairs.of(compile_turn(parse_rules()))
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for first, second, target, games in cases:
            policies = [dp.parse_policy(p, pairs, duel=True) for p in (first, second)]
            estimate, memory = games_cost(
                pairs, games, target, [dp.mean_points(pairs, p) for p in policies],
                [isinstance(p, dp.RacePolicy) for p in policies])
            _, seconds, peak = run([sys.executable, str(ROOT / "cli.py"), "simulate", "dalek",
                                    "--policy", first, "--duel", second, "--target",
                                    str(target), "--n", str(games), "--seed", "1", "--out",
                                    os.path.join(folder, "games.csv"), "--force"])
            rows.append((first, second, target, f"{games:,}", f"{seconds:.1f}",
                         f"{estimate:.1f}", f"{peak:.0f}", f"{memory / 1e6:.0f}"))
    print(table(["seat 1", "seat 2", "target", "games", "seconds", "estimate s (games)", "peak MB",
                 "estimate MB (games)"], rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the long solves")
    parser.add_argument("--cost", action="store_true", help="the small cases of cost.py")
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs inflate the figures)\n")
    if options.cost:
        turns([("H4 H2 D3 D2 DOC EXT", d) for d in (6, 8, 10, 12)]
              + [("H4 H3 H2 D3 D2 D1 DOC EXT", 8), ("H4 D3 DOC EXT", 20)])
        print()
        solves([("dalek", 2, t, d, False, "") for d, t in ((2, 300), (3, 200), (7, 40),
                                                             (10, 20))]
               + [("dalek", 3, 20, 5, False, "")]
               + [("dalek", 2, t, d, True, "") for d, t in ((3, 20), (4, 12), (6, 8), (10, 4))])
        print()
        duels([("points", "keep-daleks 10", 60, 100_000), ("points", "keep-daleks 10", 1000, 100),
               ("win", "points", 20, 2000)])
        return
    cases = [("pig", 2, 100, 10, False, "<= 10 s")]
    two = [20, 30, 40] if options.quick else [20, 30, 40, 50, 60]
    cases += [("dalek", 2, t, 10, False, "<= 120 s, 2 GB" if t == 60 else "") for t in two]
    cases += [("dalek", 3, t, 10, False, "") for t in ([8, 12] if options.quick
                                                       else [8, 12, 16, 20, 24])]
    cases += [("dalek", 4, t, 10, False, "") for t in ([6] if options.quick else [6, 8, 10, 12])]
    solves(cases)
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DICE_SOLVER_CACHE": folder}
        query = [sys.executable, str(ROOT / "cli.py"), "dalek", "best-move", "--roll",
                 "H4 H4 H2 D3 D2 DOC EXT", "--humans", "6", "--daleks", "3", "--scores",
                 "30,32", "--target", "40", "--quiet"]
        subprocess.run(query, env=env, check=True, capture_output=True)  # solves, fills the cache
        times = [run(query, env)[1] for _ in range(3)]
    print(f"\ngame-level best-move from the cache (race to 40, fresh process): "
          f"{min(times):.2f} s best of 3 (target <= 1 s)")


if __name__ == "__main__":
    main()
