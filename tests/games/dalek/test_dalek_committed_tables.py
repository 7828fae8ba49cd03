"""The committed race table (tables/dalek_dice/race_2p_60) agrees with today's values: every
seat's win share and P(win alone) at every position, to 1e-12 (issue 25: values unchanged).

Today's values are the shipped 2-player race to 60, which test_dalek_shipped.py holds to today's
race (its key) and, marked slow, to a fresh solve's values (1e-12). The table's values are a
turn pass at the solved values, so they differ from them by up to the solve's residual."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from solver.games.dalek import shipped
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace
from solver.games.dalek.turn import compile_turn

TABLE = Path(__file__).resolve().parents[3] / "tables" / "dalek_dice" / "race_2p_60" / \
    "race_positions.csv"


def test_the_committed_2_player_table_has_todays_values() -> None:
    race = DalekRace(compile_turn(parse_rules()), 2, 60)
    values = shipped.read(race, "levels")
    assert values is not None
    metric = race.metric
    with TABLE.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(values.index)
    worst = 0.0
    for row in rows:
        scores, mover = (int(row["score_1"]), int(row["score_2"])), int(row["mover"]) - 1
        solved = values.values(race.canonical(scores, mover))
        table = [float(row[f"{name}_{seat + 1}"]) for name in ("value", "p_win")
                 for seat in range(2)]
        wanted = [solved[metric.value(0)], solved[metric.value(1)], solved[metric.win(0)],
                  solved[metric.win(1)]]
        worst = max(worst, float(np.max(np.abs(np.array(table) - np.array(wanted)))))
        assert float(row["value"]) == table[mover] and float(row["p_win"]) == table[2 + mover]
    assert worst <= 1e-12
