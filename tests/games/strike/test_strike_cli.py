"""The `dice-solver strike` command line: JSON keys and values, bad input, determinism, tables.

Bad input and determinism run the real entry point (`python cli.py ...` in a subprocess, with
test_dalek_cli's helper); the JSON checks call the click group in process.
"""

from __future__ import annotations

import csv
import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import ROOT, run_cli
from strike_bruteforce import BruteForce

from solver.cli import cli
from solver.engine.cyclic import solve
from solver.games.strike.model import Strike
from solver.games.strike.report import rules_of, write_tables


def invoke(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["strike", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_game_json_matches_the_brute_force() -> None:
    summary = invoke("game", "--dice", "3", "--exact", "--json")
    assert {"seats", "residual", "placements"} <= summary.keys()
    assert summary["residual"] <= 1e-12
    brute = BruteForce(2, 3, Fraction(1, 2), Fraction(0)).value_iteration()
    start = (0, (3, 3), (), "setup", frozenset({0, 1}), (0, 0))
    for seat in summary["seats"]:
        assert seat["value"] == pytest.approx(brute[start][seat["seat"] - 1], abs=1e-11)
        assert float(Fraction(seat["value_exact"])) == pytest.approx(seat["value"], abs=1e-15)
    assert sum(Fraction(s["value_exact"]) for s in summary["seats"]) == 1
    assert [p["seat"] for p in summary["placements"]] == [1, 2]


@pytest.mark.parametrize("count, total", [((), 3), (("--points-count", "before"), 5)])
def test_points_json_shares_out_the_places(count: tuple[str, ...], total: int) -> None:
    """3 players: the places score 2, 1 and 0, so expected points sum to 3 (reading 8); counted
    before the elimination, 3, 2 and 0: 5."""
    summary = invoke("game", "--players", "3", "--dice", "2", "--scoring", "points", *count,
                     "--json")
    assert summary["rules"]["points_count"] == (count[-1] if count else "after")
    assert sum(s["expected_points"] for s in summary["seats"]) == pytest.approx(total, abs=1e-10)
    assert sum(s["p_win"] for s in summary["seats"]) == pytest.approx(1, abs=1e-12)
    assert all(s["value"] == s["expected_points"] for s in summary["seats"])


def test_best_move_values_and_regrets() -> None:
    report = invoke("best-move", "--arena", "2,4,5", "--stocks", "3,6", "--mid-turn", "--json")
    names = [o["option"] for o in report["options"]]
    assert sorted(names) == ["stop", "throw again"]
    assert report["best"] == names[0] and report["options"][0]["regret"] == 0
    for option in report["options"]:
        assert option["regret"] == pytest.approx(report["value"] - option["value"], abs=1e-15)
    assert report["seats"][0]["value"] == pytest.approx(report["value"], abs=1e-12)
    assert report["position"] == {"mover": 1, "arena": [2, 4, 5], "stocks": [3, 6],
                                  "phase": "mid-turn", "big_hit": False}
    assert report["rules"]["hit_exact"] == "1/2" and report["rules"]["empty_arena"] == "pass"


def test_best_move_names_real_seats() -> None:
    """Seat 2 to move with stocks 6, 3 is seat 1 to move with 3, 6, seats swapped: the report
    keeps the seats as players count them."""
    first = invoke("best-move", "--arena", "2,4,5", "--stocks", "3,6", "--mid-turn", "--json")
    second = invoke("best-move", "--arena", "2,4,5", "--stocks", "6,3", "--mover", "2",
                    "--mid-turn", "--json")
    assert second["position"]["mover"] == 2 and second["position"]["stocks"] == [6, 3]
    assert [s["seat"] for s in second["seats"]] == [1, 2]
    assert [o["option"] for o in second["options"]] == [o["option"] for o in first["options"]]
    assert [o["value"] for o in second["options"]] == \
        pytest.approx([o["value"] for o in first["options"]], abs=1e-12)
    assert [s["p_win"] for s in second["seats"]] == \
        pytest.approx([s["p_win"] for s in first["seats"]][::-1], abs=1e-12)
    three = invoke("best-move", "--arena", "1", "--stocks", "0,2,3", "--mover", "3", "--dice",
                   "3", "--json")
    assert three["position"]["mover"] == 3 and three["seats"][0]["p_win"] == 0


def test_best_move_is_the_same_for_any_labels() -> None:
    """The five numbers are alike: arena 2,4,5 and 1,2,3 are the same position."""
    a = invoke("best-move", "--arena", "2,4,5", "--stocks", "2,4", "--mid-turn", "--json")
    b = invoke("best-move", "--arena", "1,3,2", "--stocks", "2,4", "--mid-turn", "--json")
    assert a["options"] == b["options"] and a["seats"] == b["seats"]


def test_setup_best_move_agrees_with_the_game() -> None:
    game = invoke("game", "--dice", "4", "--json")
    report = invoke("best-move", "--setup", "--arena", "3", "--dice", "4", "--json")
    assert sorted(o["option"] for o in report["options"]) == [f"place {n}" for n in range(1, 6)]
    repeat = next(o for o in report["options"] if o["option"] == "place 3")
    others = [o for o in report["options"] if o["option"] != "place 3"]
    assert len({o["value"] for o in others}) == 1  # every new number makes the same arena
    assert report["value"] == pytest.approx(game["seats"][1]["value"], abs=1e-12)
    assert report["value"] == max(repeat["value"], others[0]["value"])
    placed = invoke("best-move", "--setup", "--arena", "1,2", "--dice", "4", "--json")
    assert placed["options"][0]["option"] == "throw"
    second = game["placements"][1]
    if not second["same_as_earlier"]:
        assert placed["value"] == pytest.approx(game["seats"][0]["value"], abs=1e-12)


def test_big_hit_best_move() -> None:
    report = invoke("best-move", "--stocks", "2,5", "--json")
    assert report["position"]["big_hit"] and [o["option"] for o in report["options"]] == \
        ["throw all 2 (the big hit)"]


@pytest.mark.parametrize("args", [
    ["game", "--hit", "3/2"],
    ["game", "--miss", "-1/2"],
    ["game", "--players", "6"],
    ["game", "--dice", "16"],
    ["game", "--dice", "1"],
    ["game", "--edition", "30"],
    ["best-move", "--arena", "1,1", "--stocks", "3,6"],
    ["best-move", "--arena", "0,2", "--stocks", "3,6"],
    ["best-move", "--arena", "6", "--stocks", "3,6"],
    ["best-move", "--arena", "1", "--stocks", "3,-6"],
    ["best-move", "--arena", "1", "--stocks", "0,6"],
    ["best-move", "--arena", "1", "--stocks", "3,0"],
    ["best-move", "--stocks", "3,6", "--mid-turn"],
    ["best-move", "--arena", "1,2", "--stocks", "9,9"],
    ["best-move", "--arena", "x", "--stocks", "3,6"],
    ["best-move", "--arena", "1"],
    ["best-move", "--setup", "--arena", "1,2,3"],
    ["best-move", "--setup", "--stocks", "3,3"],
    ["best-move", "--stocks", "3,6", "--players", "3"],
    ["best-move", "--stocks", "3,6", "--mover", "3"],
    ["best-move", "--stocks", "0,6", "--mover", "1"],
    ["best-move", "--stocks", "3,6", "--mover", "0"],
    ["best-move", "--setup", "--mover", "2"],
    ["best-move", "--stocks", "3,6,2,2,2,2"],
    ["best-move", "--stocks", ""],
    ["best-move", "--stocks", "3,99999999999999999999"],
    ["best-move", "--arena", "1," * 5000, "--stocks", "3,6"],
    ["best-move", "--arena", "99999999999999999999", "--stocks", "3,6"],
    ["best-move", "--arena", "\u0661", "--stocks", "3,6"],  # a digit, but not an ASCII one
    ["best-move", "--arena", "1_0", "--stocks", "3,6"],
    ["best-move", "--stocks", "3," + "9" * 5000],
    ["best-move", "--stocks", "3,6", "--players", "9"],
    ["game", "--dice", "99999999999999999999"],
    ["game", "--players", "3", "--dice", "11"],
    ["game", "--fly-out", "2"],
    ["game", "--fly-out", "nan"],
    ["game", "--empty-arena", "stop"],
    ["game", "--points-count", "before"],  # a count of points, without points scoring
    ["game", "--scoring", "points", "--points-count", "during"],
    ["table", "--out", "/nonexistent-folder/strike"],
    ["table", "--out", "pyproject.toml"],
    ["table", "--fly-out", "-1"],
])
def test_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    result = run_cli("strike", *args)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dice-solver: error:"), result.stderr


@pytest.mark.parametrize("args", [
    ["strike", "game", "--players", "5"],  # about 10 million positions: refused for memory
    ["strike", "game", "--players", "4"],
    ["strike", "game", "--dice", "6", "--exact"],
    ["strike", "best-move", "--stocks", "4,4,4", "--arena", "1", "--exact"],
    ["strike", "best-move", "--setup", "--players", "4"],
    ["simulate", "strike", "--players", "4", "--n", "1", "--seed", "1"],
    ["verify", "strike", "--players", "3", "--exact"],
])
def test_solves_past_the_budget_are_refused_first(args: list[str], monkeypatch) -> None:
    """With a budget of 10 s, a solve estimated at minutes (or at more memory than the machine
    has) is refused at once, in one line that says which."""
    monkeypatch.setenv("DICE_SOLVER_BUDGET", "10")
    result = run_cli(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and ("--force" in lines[0] or "memory" in lines[0]), result.stderr


def test_force_runs_past_the_budget(monkeypatch) -> None:
    monkeypatch.setenv("DICE_SOLVER_BUDGET", "0.01")
    assert run_cli("strike", "game", "--dice", "2").returncode == 2
    forced = run_cli("strike", "game", "--dice", "2", "--force")
    assert forced.returncode == 0 and "P(win)" in forced.stdout, forced.stderr


def test_output_is_the_same_under_any_hash_seed() -> None:
    args = ("strike", "game", "--players", "3", "--dice", "2", "--scoring", "points", "--json")
    runs = [json.loads(run_cli(*args, seed=seed).stdout) for seed in ("0", "12345")]
    for run in runs:
        del run["timings"]
    assert runs[0] == runs[1]


def test_tables_are_deterministic_and_hashed(tmp_path: Path) -> None:
    hits = (Fraction(0), Fraction(1, 2))
    game = Strike(dice=3)
    solution = solve(game, game.start())
    first, _ = write_tables(tmp_path / "a", "test", game, solution, hits)
    second, _ = write_tables(tmp_path / "b", "test", game, solve(game, game.start()), hits)
    for name, entry in json.loads(first.read_text())["files"].items():
        data = (tmp_path / "a" / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert data == (tmp_path / "b" / name).read_bytes()
    assert first.read_bytes() == second.read_bytes()
    table = json.loads((tmp_path / "a" / "policy.json").read_text())
    column = {name: k for k, name in enumerate(table["columns"])}
    mid = [r for r in table["rows"] if r[column["phase"]] == "mid-turn"]
    assert mid and all(r[column["best"]] in ("stop", "throw again") for r in mid)
    for r in mid:
        stop, throw = (float(r[column[f"mover_value_if_{c}"]]) for c in ("stop", "throw"))
        assert (stop >= throw) == (r[column["best"]] == "stop")
        assert float(r[column[f"value_{r[0]}"]]) == pytest.approx(max(stop, throw), abs=1e-12)


@pytest.mark.parametrize("players, dice, scoring", [(3, 2, "points"), (4, 2, "win")])
def test_both_engines_write_the_same_table(tmp_path: Path, players, dice, scoring) -> None:
    """Every position a game reaches, keyed as players type it: the same rows on either
    engine (values to 1e-12), every seat's values summing as they must (P(win) to 1; points
    to n(n-1)/2), and a cached level solve writes the same bytes."""
    tables = {}
    for name, engine in (("cyclic", "cyclic"), ("levels", "levels"), ("again", "levels")):
        result = run_cli("strike", "table", "--players", str(players), "--dice", str(dice),
                         "--scoring", scoring, "--engine", engine, "--quiet",
                         "--out", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
        with open(tmp_path / name / "policy.csv", newline="") as handle:
            rows = list(csv.DictReader(handle))
        key = ["mover", *(f"stock_{s}" for s in range(1, players + 1)), "arena", "phase"]
        tables[name] = {tuple(r[k] for k in key): r for r in rows}
    assert (tmp_path / "again" / "policy.csv").read_bytes() == \
        (tmp_path / "levels" / "policy.csv").read_bytes()
    cyclic, dense = tables["cyclic"], tables["levels"]
    assert set(cyclic) == set(dense) and len(cyclic) > 100
    seats = range(1, players + 1)
    for key, row in cyclic.items():
        other = dense[key]
        assert other["best"] == row["best"]
        for column, value in row.items():
            if column.startswith(("value_", "p_win_", "mover_value")) and value:
                assert float(other[column]) == pytest.approx(float(value), abs=1e-12)
        wins = sum(float(row[f"p_win_{s}" if scoring == "points" else f"value_{s}"])
                   for s in seats)
        assert wins == pytest.approx(1, abs=1e-12)
        if scoring == "points":
            points = sum(float(row[f"value_{s}"]) for s in seats)
            assert points == pytest.approx(players * (players - 1) / 2, abs=1e-11)


def test_committed_tables_match_their_manifest() -> None:
    directory = ROOT / "tables" / "strike"
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["parameters"] == rules_of(Strike())
    for name, entry in manifest["files"].items():
        assert hashlib.sha256((directory / name).read_bytes()).hexdigest() == entry["sha256"]
