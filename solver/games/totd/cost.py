"""What a request will cost, estimated from its size before anything is solved, so that
`solver.limits.refuse` can refuse it (time: unless --force; memory: always) with the estimate.

The figures were measured on the reference machine (2 cores shared with other jobs, load
average about 5, Python 3.11, NumPy 2) by `python benchmarks/bench_totd.py --cost`, which prints
each measured solve beside its estimate. They are rounded up so that an estimate stays above
the time taken on a loaded machine; small solves are dominated by the work per layer of tools,
large ones by the work per position:
- A float solve: 50 ns per position and move from it, plus 100 us per layer and move. 8 dice
  with 8 re-roll icons and 5 tokens (10.8 M positions x 12 moves, 3,072 layers): 3.5-7.6 s
  measured, 11.9 s estimated; 8 Black dice with 6 icons (1,728 layers x 9 moves): 0.8-1.1 s,
  1.6 s estimated; help at the location, 5 + 3 dice (17.7 M positions): 1.3-1.6 s, 12.1 s
  estimated. Plus 0.15 us per step of the stop test's cut search (12 face-change icons and
  5 tokens: 8 stop tests x 2^19 steps in 0.66 s).
- An exact solve: 4 times the work per position (the 10.8 M positions: 15-27 s measured,
  34.7 s estimated).
- Memory: 16 bytes per position for a float solve, 64 for an exact one, whose integers pass
  int64 on large denominators (peaks 121 and 169 MiB for the 10.8 M positions, 191 MiB for
  the 17.7 M of help).
- The re-roll plan's exact value (verify): 30 us per position it values and 0.3 us per way to
  use the face-change icons tried in each (8 Black dice, 5 icons "2 black": 2.2-3.4 s measured,
  3.7 s estimated; 4 face-change icons: 2.1-2.8 s measured, 2.9 s estimated). Simulated
  (simulate): 60 us per Adventure besides (20,000 Adventures in 1.0-1.1 s).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, prod

from solver.games.totd.rules import SONIC_REROLL, Adventure
from solver.limits import refuse

SECONDS_PER_STEP = 50e-9
SECONDS_PER_LAYER_MOVE = 100e-6
SECONDS_PER_CUT = 0.15e-6
EXACT_FACTOR = 4
BYTES_FLOAT, BYTES_EXACT = 16, 64
PLAN_SECONDS_PER_POSITION = 30e-6
PLAN_SECONDS_PER_WAY = 0.3e-6
SIMULATED_ADVENTURE_SECONDS = 60e-6


def solve_cost(adventure: Adventure, exact: bool) -> tuple[float, float]:
    """(seconds, bytes) one solve of the Adventure is estimated to take."""
    from solver.games.totd.model import Solver

    size = Solver(adventure).size()
    steps = size.positions * (size.moves + 1) * SECONDS_PER_STEP
    seconds = (steps * (EXACT_FACTOR if exact else 1)
               + size.layers * (size.moves + 1) * SECONDS_PER_LAYER_MOVE
               + size.cuts * SECONDS_PER_CUT)
    return seconds, size.positions * (BYTES_EXACT if exact else BYTES_FLOAT)


def refuse_solves(what: str, floats: Sequence[Adventure], exacts: Sequence[Adventure],
                  force: bool) -> None:
    """Refuse `what` before it starts if its float solves and exact solves (one after the
    other, each freed before the next) would take too long or too much memory."""
    costs = [solve_cost(a, False) for a in floats] + [solve_cost(a, True) for a in exacts]
    refuse(what, sum(s for s, _ in costs), max((m for _, m in costs), default=0), force)


def plan_cost(adventure: Adventure, adventures: int | None = None) -> float:
    """Seconds the re-roll plan (policies.Plan) is estimated to take: its exact value (every
    position it can reach), or `adventures` simulated ones (each position's stop test once)."""
    game, doctor = adventure.game, adventure.doctors[0]
    faces = [len(set(symbols)) for symbols in game.face_symbols]
    steps = len(doctor.tools.rerolls) + doctor.tools.sonic // SONIC_REROLL + 1
    positions = (prod(comb(n + f - 1, f - 1) for n, f in zip(doctor.pool, faces))
                 * 2 ** len(doctor.tools.rerolls) * (doctor.tools.sonic // SONIC_REROLL + 1))
    ways = prod(min(doctor.pool[c.colour], faces[c.colour]) + 1 for c in doctor.tools.changes)
    if adventures is None:
        return positions * (PLAN_SECONDS_PER_POSITION + ways * PLAN_SECONDS_PER_WAY)
    return (adventures * SIMULATED_ADVENTURE_SECONDS
            + min(positions, adventures * steps) * ways * PLAN_SECONDS_PER_WAY)


def refuse_plan(what: str, adventure: Adventure, force: bool,
                adventures: int | None = None) -> None:
    """Refuse `what` before it starts if the re-roll plan would take too long."""
    refuse(what, plan_cost(adventure, adventures), 0, force)
