"""What a request will cost, estimated from its size before anything is solved, so that
`solver.limits.check` can refuse it (time: unless --force; memory: always) with the estimate.

The figures were measured on the reference machine (2 cores shared with other jobs, Python
3.11, NumPy 2) by `python benchmarks/bench_totd.py --cost`, which prints each measured solve
beside its estimate. They are rounded up: an estimate should not fall below the time it takes.
- A float solve: about 30 ns per position and per move from it (one Doctor, 8 dice, 9 re-roll
  icons, 5 tokens: 21.7 M positions x 14 moves in 6.2 s); about 50 us per layer of tools and
  move (8 Black dice, 6 icons: 1,728 layers x 8 moves in 0.53 s); about 0.15 us per step of the
  stop test's cut search (12 face-change icons and 5 tokens: 8 stop tests x 2^19 cuts in 0.66 s).
- An exact solve: about 3 times a float one (the same 21.7 M positions in 14.4 s).
- Memory: about 10 bytes per position for a float solve (peak 203 MB for 21.7 M positions)
  and 15 for an exact one (309 MB); Python integers, past int64, take more: 16 and 64 here.
- The re-roll plan: its exact value (verify) about 20 us per position it values and 0.3 us
  per way to use the face-change icons tried in each (8 Black dice, 5 icons "2 black": 123,552
  positions in 2.3 s; 4 face-change icons: 3,861 positions x 2,401 ways in 2.0 s); simulated
  (simulate), about 60 us per Adventure besides (20,000 Adventures in 1.0-1.1 s).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, prod

from solver.games.totd.rules import SONIC_REROLL, Adventure
from solver.limits import check

SECONDS_PER_STEP = 30e-9
SECONDS_PER_LAYER_MOVE = 50e-6
SECONDS_PER_CUT = 0.15e-6
EXACT_FACTOR = 3
BYTES_FLOAT, BYTES_EXACT = 16, 64
PLAN_SECONDS_PER_POSITION = 20e-6
PLAN_SECONDS_PER_WAY = 0.3e-6
SIMULATED_ADVENTURE_SECONDS = 60e-6


def solve_cost(adventure: Adventure, exact: bool) -> tuple[float, float]:
    """(seconds, bytes) one solve of the Adventure is estimated to take."""
    from solver.games.totd.solver import Solver

    size = Solver(adventure).size()
    steps = size.positions * (size.moves + 1) * SECONDS_PER_STEP
    seconds = (steps * (EXACT_FACTOR if exact else 1)
               + size.layers * (size.moves + 1) * SECONDS_PER_LAYER_MOVE
               + size.cuts * SECONDS_PER_CUT)
    return seconds, size.positions * (BYTES_EXACT if exact else BYTES_FLOAT)


def check_solves(what: str, floats: Sequence[Adventure], exacts: Sequence[Adventure],
                 force: bool) -> None:
    """Refuse `what` before it starts if its float solves and exact solves (one after the
    other, each freed before the next) would take too long or too much memory."""
    costs = [solve_cost(a, False) for a in floats] + [solve_cost(a, True) for a in exacts]
    check(what, sum(s for s, _ in costs), max((m for _, m in costs), default=0), force)


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


def check_plan(what: str, adventure: Adventure, force: bool,
               adventures: int | None = None) -> None:
    """Refuse `what` before it starts if the re-roll plan would take too long."""
    check(what, plan_cost(adventure, adventures), 0, force)
