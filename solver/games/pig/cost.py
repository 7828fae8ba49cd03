"""What a Pig solve will cost, estimated from the target before anything is solved, so that
`solver.limits.refuse` can refuse it (time: unless --force; memory: always) with the estimate.

A game to target T has 2 T^2 positions (both scores below T, either seat to move); each values
the results of one turn: T + 6 banked totals under optimal play, about the hold + 6 under
"hold N". The figures were measured on the reference machine (2 cores shared with other jobs,
load 2-5) with `dice-solver pig game --target T --force [--exact]` (its table gives each
policy's solve time) and `dice-solver pig duel --target T --exact` for T = 10 to 300, and are
rounded up (an estimate should not fall below the time it takes):
- float, optimal play: about 0.3 ms per position plus 1.5 us per position and result
  (T = 100: 20,000 positions in 8.5 s; T = 200: 80,000 in 34 s, 1.3 GB at its peak; T = 300:
  180,000 in 162 s at load 5);
- float, "hold N": about 0.25 ms per position plus 0.5 us per position and result (T = 200,
  hold 20: 14.5 s; hold 100: 16.1 s; T = 300, hold 20: 34 s, and 81 s at load 5);
- exact (rationals), optimal play: about 0.3 ms per position and result (T = 20: 6 s; T = 30:
  17 s; a duel of hold 20 against optimal play to 50: 66 s); "hold N": about 0.1 ms (T = 40,
  hold 20: 6.9 s);
- memory: about 80 bytes per position and result in float64 (T = 200: 1.3 GB), 500 exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.games.pig.rules import SIDES
from solver.limits import refuse

MAX_TARGET = 1000  # past it no solve fits in memory here (150 GiB at 1,000), and a turn's exact
# distribution ("hold N" with N near the target) takes seconds
SECONDS_PER_POSITION = {None: 3e-4, "hold": 2.5e-4}  # float, by kind of play (None: optimal)
SECONDS_PER_RESULT = {None: 1.5e-6, "hold": 0.5e-6}
EXACT_SECONDS_PER_RESULT = {None: 3e-4, "hold": 1e-4}
BYTES_PER_RESULT = {False: 80, True: 500}  # by exactness
STARTUP = 1.0  # seconds: compiling the engine's passes


def solve_cost(target: int, holds: Sequence[int | None], exact: bool) -> tuple[float, float]:
    """(seconds, bytes) one solve of Pig to `target` is estimated to take, the seats playing
    `holds` ("hold N" as N, optimal play as None): costed as the dearest seat's play."""
    optimal = None in holds
    kind = None if optimal else "hold"
    results = (target if optimal else min(max(holds), target)) + SIDES
    positions = 2 * target ** 2
    if exact:
        seconds = positions * results * EXACT_SECONDS_PER_RESULT[kind]
    else:
        seconds = positions * (SECONDS_PER_POSITION[kind] + results * SECONDS_PER_RESULT[kind])
    return STARTUP + seconds, positions * results * BYTES_PER_RESULT[exact]


def refuse_solves(what: str, target: int, plays: Sequence[Sequence[int | None]], exact: bool,
                  force: bool) -> None:
    """Refuse `what` before it starts if its solves (one per entry of `plays`, the seats'
    holds; each freed before the next) would take too long or too much memory."""
    costs = [solve_cost(target, holds, exact) for holds in plays]
    refuse(what, sum(s for s, _ in costs), max(m for _, m in costs), force)
