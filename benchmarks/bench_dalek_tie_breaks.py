"""How much the tie-break moves the 3- and 4-player race (issue 12): each rule of race.TIE_BREAKS
solved on the cyclic engine, every seat's win share compared with the first-option rule's, at the
start and over every position (the explored positions do not depend on play, so rows match).

    python benchmarks/bench_dalek_tie_breaks.py PLAYERS TARGET [DICE]
"""

from __future__ import annotations

import sys
import time

import numpy as np

from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import TIE_BREAKS, DalekRace
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import compile_turn


def main(players: int, target: int, dice: int = 10) -> None:
    turn = compile_turn(parse_rules(dice=dice))
    solved = {}
    for rule in TIE_BREAKS:
        clock = time.perf_counter()
        race = DalekRace(turn, players, target, tie_break=rule)
        solved[rule] = solve_race(race, use_cache=False, force=True)
        values = solved[rule]
        print(f"{rule:9s} {time.perf_counter() - clock:7.1f} s  residual {values.residual:.1e}"
              f"  start {np.round(values.values(race.start())[:players], 10).tolist()}",
              flush=True)
    first = solved["first"]
    shares = slice(0, players)
    start = first.row(first.race.start())
    for rule in TIE_BREAKS[1:]:
        change = np.abs(solved[rule].table[:, shares] - first.table[:, shares])
        print(f"{players} players to {target} ({dice} dice), {rule} vs first: start "
              f"{change[start].max():.2e}, all {len(change)} positions {change.max():.2e}")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
