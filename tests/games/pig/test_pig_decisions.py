"""Pig decision logs (`verify --decisions`): regrets against Neller and Presser's equations
solved by plain value iteration (pig_bruteforce.py), and bad moves named by their line."""

from __future__ import annotations

from pathlib import Path

import pytest
from pig_bruteforce import neller_values

from solver.errors import InputError
from solver.games.pig.policies import decision_regrets

TARGET = 15


def test_pig_regrets_match_value_iteration(tmp_path: Path) -> None:
    p = neller_values(TARGET)
    rows, expected = [], []
    for i in (0, 4, 9, 13):
        for j in (0, 6, 12):
            for k in range(2, TARGET - i):
                roll = sum((1.0 if i + k + f >= TARGET else p[(i, j, k + f)]) for f in
                           range(2, 7)) / 6 + (1 - p[(j, i, 0)]) / 6
                hold = 1 - p[(j, i + k, 0)]
                for move, value in (("hold", hold), ("roll", roll)):
                    rows.append(f"{i},{j},{k},{move}")
                    expected.append(max(hold, roll) - value)
    path = tmp_path / "moves.csv"
    path.write_text("score,opponent,turn_total,move\n" + "\n".join(rows) + "\n")
    regrets, _, _ = decision_regrets(TARGET, str(path))
    assert regrets == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("row", "message"), [
    ("3,4,14,roll", "line 2: the turn total reaches the goal"),
    ("3,4,1,hold", "line 2: scores lie in 0..14"),
    ("3,4,5,pass", "line 2: expected whole numbers and hold or roll"),
])
def test_bad_pig_moves_name_the_line(tmp_path: Path, row: str, message: str) -> None:
    path = tmp_path / "moves.csv"
    path.write_text(f"score,opponent,turn_total,move\n{row}\n")
    with pytest.raises(InputError, match=message):
        decision_regrets(TARGET, str(path))
