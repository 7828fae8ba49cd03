"""Dalek Dice: the race rule searched at the target itself (solver/games/dalek/racefamilies.py,
issue 15): on each rule of the one-turn frontier (`dalek rules`), the best threshold a, then the
best pace b, against the perfect player; the frontier's rules then against a seat playing to win
and against themselves. Prints every rule valued with the CPU and wall seconds so far; the
frontier is kept in the disk cache (`dice-solver dalek rules --race` reads it).

Run: python benchmarks/bench_dalek_race_rules.py [TARGET]   (default 60)
"""

from __future__ import annotations

import sys
import time

from solver.games.dalek import racefamilies as rr
from solver.games.dalek import rulefamilies as rf
from solver.games.dalek.arrays import Pairs
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import compile_turn


def main(target: int) -> None:
    wall, cpu = time.perf_counter(), time.process_time()

    def log(line: str) -> None:
        print(f"[{time.perf_counter() - wall:7.0f} s, CPU {time.process_time() - cpu:6.0f} s] "
              f"{line}", flush=True)

    pairs = Pairs.of(compile_turn(parse_rules()))
    bases, _ = rf.learned(pairs)
    log(f"one-turn frontier: {[b.rule.name for b in bases]}")
    rows, cached = rr.learned(pairs, bases, target, force=True, log=log)
    log(f"race frontier to {target} ({'cached' if cached else 'searched'}):")
    for row in rows:
        log(f"size {row.size} {row.rule.numbers}: against the perfect player {row.first:.6f} / "
            f"{row.second:.6f} (mean {row.mean:.6f}, loss {100 * row.loss:.2f} games in 100); "
            f"against a seat playing to win {row.beaten_first:.6f} / {row.beaten_second:.6f}; "
            f"against itself going first {row.self_first:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
