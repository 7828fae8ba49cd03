"""What a Strike solve will cost, estimated from its size before anything is solved, so that
`solver.limits.refuse` can refuse it (time: unless --force; memory: always) with the estimate.

The size is an upper bound on the positions: a mover, stocks with at least two players still
in, an arena of 0 to 5 dice and a phase, with every die accounted for (within 3% of the
positions the solver reaches for 2, 3 and 4 players with the editions' dice, 6-11% above for 5
players with few dice). The figures were measured on the reference machine (2 cores shared with
other jobs, load 2-7) by `python benchmarks/bench_strike.py` and by timing
`solver.engine.cyclic.solve` on `Strike` and `StrikeDuel`, and are rounded up (an estimate
should not fall below the time it takes):
- float: time grows a little faster than the positions, about 4.8 us x positions^1.35
  (3 players, 8 dice: 59,706 positions in 13.5 s; 4 players, 7 dice: 934,967 in 548 s; 5
  players, 4 dice: 1,210,203 in 441 s), plus a second to start;
- exact (rationals): the engine solves each component's equations in rationals, which grows
  with the dice in play: about 1.5 ms x positions x dice^2 (2 players: 3 dice each, 95 positions
  in 2.2 s; 4 dice, 257 in 11 s; 5 dice, 507 in 27-70 s; 6 dice, 845 in 131 s; 3 players: 2
  dice, 296 in 4.8 s; 3 dice, 1,941 in 397 s; 4 players with 2 dice, 3,365 in 301 s), times
  1 + metrics / 10 (a `StrikeDuel` carries the winner's stock too: 2 players with 4 dice,
  23 s);
- memory: about 3.5 KB per position in float64 (4 players, 7 dice: 3.2 GB; 5 players, 4 dice:
  3.1 GB), plus 8 bytes per position and metric twice over.
"""

from __future__ import annotations

from math import comb, factorial

from solver.games.strike.model import Strike
from solver.games.strike.rules import NUMBERS
from solver.limits import refuse

STARTUP = 1.0
FLOAT_SCALE, FLOAT_POWER = 4.8e-6, 1.35
EXACT_SECONDS = 1.5e-3  # per position and squared die in play
BYTES_PER_POSITION, BYTES_PER_METRIC = 3500, 16


def positions(game: Strike, in_play: int | None = None) -> int:
    """An upper bound on the positions a solve reaches with `in_play` dice in the stocks and
    the arena (all of them by default): for each arena size, each total in the stocks and each
    number k of players still in, the ways to share that total among k seats (each at least
    one die) times the k movers and the phases (one with an empty arena: the big hit); under
    points scoring, times the orders the players out went out in."""
    players = game.players
    dice = game.players * game.dice if in_play is None else in_play
    count = 0
    for arena in range(NUMBERS + 1):
        phases = 1 if arena == 0 else 2
        for total in range(1, dice - arena + 1):
            for k in range(2, players + 1):
                orders = factorial(players - k) if game.scoring == "points" else 1
                count += comb(players, k) * comb(total - 1, k - 1) * k * phases * orders
    return count


def solve_cost(game: Strike, exact: bool, in_play: int | None = None) -> tuple[float, float]:
    """(seconds, bytes) one solve of `game` is estimated to take."""
    size = positions(game, in_play)
    dice = game.players * game.dice if in_play is None else in_play
    seconds = STARTUP + FLOAT_SCALE * size ** FLOAT_POWER
    if exact:
        seconds += EXACT_SECONDS * size * dice ** 2 * (1 + game.metrics / 10)
    return seconds, size * (BYTES_PER_POSITION + BYTES_PER_METRIC * game.metrics)


def refuse_solves(what: str, games: list[Strike], exact: bool, force: bool,
                  in_play: int | None = None) -> None:
    """Refuse `what` before it starts if its solves (one after the other, each freed before
    the next) would take too long or too much memory."""
    costs = [solve_cost(game, exact, in_play) for game in games]
    refuse(what, sum(s for s, _ in costs), max(m for _, m in costs), force)
