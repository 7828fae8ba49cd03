"""Every seat, every position (issue 11): the race table gives each seat's win share and P(win
alone) at every position, and `dalek game --scores ... --seat` answers the same numbers for one
position, from the cache when that race was solved before."""

from __future__ import annotations

import csv
import json

import pytest
from helpers import run_cli

RACE = ("--players", "3", "--target", "8", "--dice", "4", "--quiet")


def _run(*args: str, cache: str) -> str:
    result = run_cli(*args, env={"DICE_SOLVER_CACHE": cache})
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> tuple[list[dict], str]:
    cache = str(tmp_path_factory.mktemp("cache"))
    out = tmp_path_factory.mktemp("table") / "race"
    _run("dalek", "table", *RACE, "--no-contrast", "--out", str(out), cache=cache)
    with open(out / "race_positions.csv", newline="") as handle:
        return list(csv.DictReader(handle)), cache


def test_every_seat_has_its_columns_and_the_shares_add_up(table) -> None:
    rows, _ = table
    assert rows and "regret" not in rows[0]  # --no-contrast leaves the comparison out
    for row in rows:
        shares = [float(row[f"value_{s}"]) for s in (1, 2, 3)]
        wins = [float(row[f"p_win_{s}"]) for s in (1, 2, 3)]
        assert abs(sum(shares) - 1) < 1e-12  # one win share is shared out in every game
        assert all(0 <= w <= v + 1e-15 for w, v in zip(wins, shares))  # alone <= share
        mover = int(row["mover"])
        assert (row["value"], row["p_win"]) == (row[f"value_{mover}"], row[f"p_win_{mover}"])


def test_game_at_a_position_reads_the_cache_and_agrees_with_the_table(table) -> None:
    rows, cache = table
    picked = [r for r in rows if r["final_round"] == "0" and r["mover"] == "2"][5::40][:4]
    assert picked
    for row in picked:
        scores = ",".join(row[f"score_{s}"] for s in (1, 2, 3))
        answer = json.loads(_run("dalek", "game", *RACE, "--scores", scores, "--seat", "2",
                                 "--json", cache=cache))
        assert answer["timings"]["cached"]  # the table's solve, not a new one
        assert answer["position"] == {"scores": [int(x) for x in scores.split(",")],
                                      "seat": 2, "start": False}
        for seat in answer["seats"]:
            assert seat["value"] == float(row[f"value_{seat['seat']}"])
            assert seat["p_win"] == float(row[f"p_win_{seat['seat']}"])


def test_the_text_says_where_play_mixes_as_the_json_lists_it(table) -> None:
    """No position of this race mixes: the JSON's list is empty, and the text says so in words
    (not "mixed play at 0 positions")."""
    _, cache = table
    answer = json.loads(_run("dalek", "game", *RACE, "--json", cache=cache))
    assert answer["timings"]["cached"] and answer["mixed"] == []
    text = _run("dalek", "game", *RACE, cache=cache)
    assert "no mixed play: pure best responses settle at every position" in text
    assert "mixed play at" not in text


@pytest.mark.parametrize("args, words", [
    (("--seat", "2"), "give --scores"),
    (("--scores", "0,0", "--head-starts"), "from the start: drop --scores"),
    (("--scores", "3,0"), "no game of this race gives a seat 3 points"),
])
def test_a_position_that_does_not_fit_is_refused(args, words) -> None:
    result = run_cli("dalek", "game", "--target", "8", "--dice", "4", *args)
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
