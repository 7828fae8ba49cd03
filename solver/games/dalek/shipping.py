"""Remaking what ships with the package: `python -m solver.games.dalek.shipping turn` builds
the default rules' turn graph again and writes it (shippedturn.py; a second); `python -m
solver.games.dalek.shipping [PLAYERS ...]` solves each shipped race again on this tree's code
(all of them, or those of the numbers of players given; the disk cache reused, the shipped files
not) and writes its file with the date and the commit that solved it (shipped.py). The 3-player
race to 60 takes about half an hour of both cores (docs/results.md). A change to the code that
builds turn graphs makes tests/games/dalek/test_dalek_shipped.py ask for the first; a rules or
turn-graph change, for the second."""

from __future__ import annotations

import datetime
import subprocess
import sys
from pathlib import Path

from solver.engine.solving import Solving
from solver.games.dalek import shipped, shippedturn
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import build_turn, compile_turn, turn_arrays, turn_key


def made_now() -> dict:
    """The date (UTC) and the commit of the tree solving now, for `shipped.write`'s `made`."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent, check=True).stdout.strip()
        code = [":/solver", f":(exclude){shipped.FOLDER}"]  # not the files it writes
        dirty = subprocess.run(["git", "status", "--porcelain", *code], capture_output=True,
                               text=True, cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", ""
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
            "commit": commit + (" with uncommitted changes" if dirty else "")}


def main(arguments: list[str]) -> None:
    """With `turn`, build the default rules' turn graph and write it; else solve the shipped
    races (all, or those with the numbers of players given) with the default rules on the
    engine the command line uses (the disk cache reused, the shipped files not), and write
    their files."""
    rules = parse_rules()
    if arguments == ["turn"]:
        size = shippedturn.write(turn_arrays(build_turn(rules)), turn_key(rules))
        print(f"{shippedturn.FILE}: {size:,} bytes")
        return
    turn = compile_turn(rules)
    made = made_now()
    for players, target in shipped.SHIPPED:
        if arguments and str(players) not in arguments:
            continue
        race = DalekRace(turn, players, target)
        values = solve_race(race, solving=Solving("levels"), force=True, shipped=False)
        size = shipped.write(values, shipped.path(players, target), made)
        print(f"{shipped.path(players, target)}: {len(values.index):,} positions, {size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
