"""Where a level solve of the Dalek race spends its turn passes:
`python benchmarks/bench_phases.py [--players N] [--target T]`.

Solves the race on the level engine in this process (the disk cache is not read) and prints,
per step of policy iteration (`chunks._TurnChunk`: the start's best responses, the first,
second and later checks, the responses adopted after a check without distributions, the mixed
search) and per kind of call (a backward pass alone, or a best response with its result
distribution: a backward pass recording the choices, then the forward pass), the columns passed
(utility rows after repeats are merged), per position, and the wall seconds the calls took (both
threads), beside the solve's wall time. It says how many components' first and second checks
failed (members checked at the next check against those checked at this one): each failure
costs another policy, evaluated with another forward pass.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.engine import levels
from solver.engine.levels import chunks, passes
from solver.formatting import table
from solver.games.dalek.files import parse_rules
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.turn import compile_turn

STEPS = ("start", "first check", "second check", "later checks", "adopt", "mix")


def instrument(counts: collections.Counter) -> None:
    """Count, into `counts`, the columns and wall seconds of every turn pass call, keyed by the
    step of policy iteration that made it and whether it took distributions."""
    step = ["other"]

    def within(name: str):
        method = getattr(chunks._TurnChunk, name)

        def wrapped(self, *args, **kwargs):
            outer = step[0]
            step[0] = name if name != "check" else STEPS[1 + min(self.checks, 2)]
            if name == "check":
                counts[(step[0], "members")] += int(args[0].sum())  # a mask over members
            try:
                return method(self, *args, **kwargs)
            finally:
                step[0] = outer
        setattr(chunks._TurnChunk, name, wrapped)

    for name in ("start", "check", "adopt", "mix"):
        within(name)
    respond = passes.TurnPasses.respond

    def counted(self, utilities, distributions):
        start = time.perf_counter()
        found = respond(self, utilities, distributions)
        kind = "best response + distribution" if distributions else "backward alone"
        counts[(step[0], kind, "columns")] += len(utilities)
        counts[(step[0], kind, "seconds")] += time.perf_counter() - start
        return found
    passes.TurnPasses.respond = counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--target", type=int, default=30)
    options = parser.parse_args()
    game = LevelRace(DalekRace(compile_turn(parse_rules()), options.players, options.target))
    game.turn.respond(np.zeros((1, game.turn.n_results)), True)  # compile, allocate
    counts: collections.Counter = collections.Counter()
    instrument(counts)
    start = time.perf_counter()
    solution = levels.solve(game)
    wall = time.perf_counter() - start
    total = solution.total
    keys = sorted({key[:2] for key in counts if len(key) == 3},
                  key=lambda k: (STEPS.index(k[0]) if k[0] in STEPS else len(STEPS), k))
    lines = [[step, kind, f"{counts[(step, kind, 'columns')]:,}",
              f"{counts[(step, kind, 'columns')] / total.positions:.3f}",
              f"{counts[(step, kind, 'seconds')]:.1f}"] for step, kind in keys]
    passed = sum(counts[(k[0], k[1], "seconds")] for k in keys)
    print(f"Dalek race, {options.players} players to {options.target}: {total.positions:,} "
          f"positions, {wall:.1f} s wall, of which {passed:.1f} s in turn passes")
    print(table(["step", "call", "columns", "per position", "wall s"], lines))
    checked = [counts[(name, "members")] for name in STEPS[1:4]]
    print(f"members checked: {checked[0]:,} at a first check, {checked[1]:,} at a second "
          f"(failed the first: {checked[1] / max(checked[0], 1):.0%}), {checked[2]:,} at later "
          "ones (a member is checked again while its component fails)")


if __name__ == "__main__":
    main()
