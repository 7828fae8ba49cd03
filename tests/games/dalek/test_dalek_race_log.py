"""Race decision logs (verify dalek --decisions with score_1, score_2 and seat columns): each
move scored in win share against the race's optimal play, checked against the regrets that
`dalek best-move --scores` lists for the same roll (the report's own route), on a 3-dice race to
12 that solves in seconds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import cli, main

RACE = ["--dice", "3", "--target", "12"]
ROLL = "H4 D3 DOC"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout


def test_race_moves_are_scored_by_the_best_moves_regrets(tmp_path: Path) -> None:
    code, out = invoke("dalek", "best-move", *RACE, "--roll", ROLL, "--scores", "6,8",
                       "--seat", "2", "--json")
    assert code == 0, out
    options = json.loads(out)["options"]
    log = tmp_path / "race.csv"
    rows = ["turn,seat,score_1,score_2,to_roll,humans,daleks,doctors,exterminates,roll,keep,"
            "then"]
    for turn, option in enumerate(options, start=1):
        keep = " ".join(option["keep"]) or "-"
        rows.append(f"{turn},2,6,8,3,0,0,0,0,{ROLL},{keep},{option['action']}")
    log.write_text("\n".join(rows) + "\n")
    code, out = invoke("verify", "dalek", *RACE, "--decisions", str(log), "--top", "10",
                       "--json")
    report = json.loads(out)
    assert code == 0 and report["moves"] == len(options) and report["unit"] == "win share"
    by_move = {(w["keep"], w["then"]): w["regret"] for w in report["worst"]}
    for option in options:
        keep = " ".join(option["keep"]) or "-"
        assert by_move[(keep, option["action"])] == pytest.approx(option["regret"], abs=1e-12)
    assert report["optimal_moves"] == sum(o["regret"] <= 1e-9 for o in options)


def test_a_position_no_race_reaches_is_one_line(tmp_path: Path, capsys) -> None:
    log = tmp_path / "race.csv"
    log.write_text("seat,score_1,score_2,to_roll,humans,daleks,doctors,exterminates,roll,keep,"
                   "then\n3,6,8,3,0,0,0,0,H4 D3 DOC,D3,roll\n")
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "dalek", *RACE, "--decisions", str(log)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1
    assert "line 2: seat must be between 1 and 2" in err
