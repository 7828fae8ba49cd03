"""Verdicts: time `dice-solver verify` end to end, and measure the false-alarm rate and the
rejection rates of the wrong-simulator corpus. Prints three tables; with --games, three more on
whole Pig games (issue 26): the Holm verdict's false alarms, the sequential test's false alarms
when watched after every game, and the games the sequential test used to stop wrong simulators.

Run: python benchmarks/bench_verify.py [--seeds N] [--games]   (N seeded runs per rate, default
1000; --games measures the whole-game rates only).
Verify commands run in fresh processes (cold start included); sample files are made first with
`dice-solver simulate`, untimed. Rates are measured in process with the same functions.

Target from issue 6: `verify` of one million samples in <= 10 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from solver.commands import table
from solver.dice import generator
from solver.games.dalek import arrays
from solver.games.dalek import policies as dp
from solver.games.dalek.bugs import BUGS
from solver.games.dalek.files import parse_rules
from solver.games.dalek.simulator import dalek_turns
from solver.games.dalek.turn import compile_turn
from solver.stats import goodness_of_fit, power

CLI = Path(__file__).resolve().parent.parent / "cli.py"

TIMED = {  # name -> (simulate arguments, verify arguments, target seconds or None)
    "Dalek Dice, 1,000,000 turns, points": (
        ["dalek", "--n", "1000000"], ["dalek", "--samples", "{samples}"], 10),
    "Dalek Dice, 1,000,000 turns, keep-daleks 8": (
        ["dalek", "--policy", "keep-daleks 8", "--n", "1000000"],
        ["dalek", "--policy", "keep-daleks 8", "--samples", "{samples}"], 10),
    "Pig, 1,000,000 turns, hold 20": (
        ["pig", "--n", "1000000"], ["pig", "--samples", "{samples}"], 10),
    "Dalek Dice decision log, 100,000 turns of keep-daleks 8": (
        ["dalek", "--policy", "keep-daleks 8", "--n", "100000", "--decisions", "{moves}"],
        ["dalek", "--decisions", "{moves}"], None),
}
STATED = {"loaded-doctor": 350, "bonus-when-stopping": 1300, "exterminate-beats-doctor": 1200}


def cli(*args: str) -> float:
    start = time.perf_counter()
    result = subprocess.run([sys.executable, str(CLI), *args], capture_output=True, text=True)
    if result.returncode not in (0, 1):  # 1: a rejected sample, still a measured run
        raise RuntimeError(result.stderr)
    return time.perf_counter() - start


def timings() -> list[tuple]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        files = {"samples": os.path.join(folder, "samples.csv"),
                 "moves": os.path.join(folder, "moves.csv")}
        for name, (make, check, target) in TIMED.items():
            cli("simulate", *[a.format(**files) for a in make], "--seed", "1", "--out",
                files["samples"])
            seconds = cli("verify", *[a.format(**files) for a in check])
            rows.append((name, f"{seconds:.1f}", "" if target is None else f"<= {target}",
                         "" if target is None else ("yes" if seconds <= target else "NO")))
    return rows


def rejected(policy: dp.TurnPolicy, exact: list, n: int, seeds: range, play=None,
             alpha: float = 0.001) -> int:
    """How many seeded runs of n turns the verdict rejects."""
    size = 100
    padded = list(exact) + [0] * (size - len(exact))
    labels = [str(s) for s in range(size)]
    count = 0
    for seed in seeds:
        samples = dalek_turns(policy, n, generator(seed), play=play)
        report = goodness_of_fit(labels, padded, np.bincount(samples, minlength=size), alpha)
        count += report["verdict"] == "rejected"
    return count


def rates(seeds: int) -> tuple[list[tuple], list[tuple]]:
    policy = dp.points_policy(arrays.Pairs.of(compile_turn(parse_rules())))
    exact = dp.distribution(policy)
    alarms = []
    for n in (2_000, 100_000):
        runs = seeds if n < 10_000 else max(seeds // 10, 10)
        for alpha in (0.001, 0.05):
            count = rejected(policy, exact, n, range(10_000, 10_000 + runs), alpha=alpha)
            alarms.append((n, runs, alpha, count, f"{count / runs:.4f}"))
    corpus = []
    for bug, n in STATED.items():
        play = BUGS[bug](policy.rules)
        wrong = dp.distribution(policy, play)
        size = max(len(wrong), len(exact))
        analytic = power(list(exact) + [0] * (size - len(exact)),
                         [float(w) for w in wrong] + [0.0] * (size - len(wrong)), n)
        count = rejected(policy, exact, n, range(20_000, 20_000 + seeds), play)
        corpus.append((bug, n, f"{analytic:.4f}", seeds, f"{count / seeds:.4f}"))
    return alarms, corpus


def pig_games_sample(duel, n: int, seed: int, play=None) -> dict:
    """n Pig games of `duel` (fixed holds) by our simulator, as sample columns."""
    from solver.games.pig.outcomes import hold_rules
    from solver.games.pig.simulator import pig_games

    scores, winner, turns = pig_games(hold_rules(duel, None), duel.target, n, generator(seed),
                                      play)
    return {"winner": np.where(winner < 0, 0, winner + 1), "score_1": scores[:, 0],
            "score_2": scores[:, 1], "turns": turns}


def game_rates(seeds: int) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """Whole Pig games, hold 20 against hold 20 to 100: false alarms of the Holm verdict (1,000
    games a run) and of the sequential test watched after every game (2,000 games a run), and
    the games the sequential test used against each wrong simulator."""
    from solver.games.pig import policies as pp
    from solver.games.pig.bugs import BUGS as PIG_BUGS
    from solver.games.pig.outcomes import pig_outcomes
    from solver.verdicts import judge
    from solver.watch import Monitor

    duel = pp.PigDuel(100, policies=(pp.PigPolicy(20), pp.PigPolicy(20)))
    declared = pig_outcomes(duel, None, "hold 20 against hold 20")
    holm, sequential = [], []
    p_values = {0.05: 0, 0.001: 0}
    watched = {0.05: 0, 0.01: 0}
    for seed in range(seeds):
        sample = pig_games_sample(duel, 1000, 40_000 + seed)
        for alpha in p_values:
            p_values[alpha] += judge(declared, sample, alpha, "pearson", 0)["verdict"] == \
                "rejected"
        long = pig_games_sample(duel, 2000, 60_000 + seed)
        for alpha in watched:
            monitor = Monitor(declared, alpha)
            watched[alpha] += monitor.feed(long)
    for alpha, count in p_values.items():
        holm.append((1000, seeds, alpha, count, f"{count / seeds:.4f}"))
    for alpha, count in watched.items():
        sequential.append((2000, seeds, alpha, count, f"{count / seeds:.4f}"))
    used = []
    wrong = {f"--bug {name}": (duel, bug()) for name, bug in PIG_BUGS.items()}
    wrong["both seats hold 25"] = (pp.PigDuel(100, policies=(pp.PigPolicy(25),) * 2), None)
    for name, (played, play) in wrong.items():
        stops = []
        for seed in range(min(seeds, 100)):
            monitor = Monitor(declared, 0.001)
            for chunk in range(20):  # 1,000 games at a time, until it stops (20,000 at most)
                if monitor.feed(pig_games_sample(played, 1000, 80_000 + 100 * seed + chunk,
                                                 play)):
                    break
            stops.append(monitor.stopped_at or 0)
        stopped = [s for s in stops if s]
        used.append((name, len(stops), len(stopped),
                     f"{np.median(stopped):.0f}" if stopped else "-",
                     f"{np.max(stopped):.0f}" if stopped else "-"))
    return holm, sequential, used


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--games", action="store_true")
    options = parser.parse_args()
    seeds = options.seeds
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f} (other jobs inflate the figures)")
    if options.games:
        holm, sequential, used = game_rates(seeds)
        print("\nright Pig games (hold 20 vs hold 20 to 100): the Holm verdict's false alarms")
        print(table(["games", "runs", "alpha", "rejected", "rate"], holm))
        print("\nthe same, sequential test watched after every game")
        print(table(["games", "runs", "alpha", "rejected", "rate"], sequential))
        print("\nwrong Pig games: games the sequential test used (alpha 0.001, at most 20,000)")
        print(table(["simulator", "runs", "stopped", "median games", "most games"], used))
        return
    print(table(["verify (cold start)", "seconds", "target", "met"], timings()))
    alarms, corpus = rates(seeds)
    print("\nright simulator (points policy): false alarms")
    print(table(["turns", "runs", "alpha", "rejected", "rate"], alarms))
    print("\nwrong simulators at their stated sample size (alpha 0.001)")
    print(table(["bug", "turns", "power (analytic)", "runs", "rejected share"], corpus))


if __name__ == "__main__":
    main()
