"""Dalek Dice decision logs (`verify --decisions`): a log written by our simulator, scored
through the command line: a rule's moves show regret, optimal play's none."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from solver.cli import cli


def test_dalek_log_through_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    moves = tmp_path / "moves.csv"
    made = runner.invoke(cli, ["simulate", "dalek", "--policy", "keep-daleks 8", "--n", "300",
                               "--seed", "9", "--out", str(tmp_path / "turns.csv"),
                               "--decisions", str(moves)])
    assert made.exit_code == 0, made.output
    checked = runner.invoke(cli, ["verify", "dalek", "--decisions", str(moves), "--json"])
    report = json.loads(checked.stdout)
    assert report["turns"] == 300 and report["moves"] == len(moves.read_text().splitlines()) - 2
    assert report["total_regret"] > 0 and report["optimal_moves"] < report["moves"]
    assert report["worst"][0]["regret"] == max(w["regret"] for w in report["worst"])
    optimal = runner.invoke(cli, ["simulate", "dalek", "--n", "300", "--seed", "9",
                                  "--out", str(tmp_path / "t.csv"), "--decisions", str(moves)])
    assert optimal.exit_code == 0
    report = json.loads(runner.invoke(cli, ["verify", "dalek", "--decisions", str(moves),
                                            "--json"]).stdout)
    assert report["optimal_moves"] == report["moves"] and report["total_regret"] < 1e-9
