"""`dice-solver totd ...`: bad input is one line and exit 2; JSON carries what the issue asks;
the commands agree with each other and with the solver; output is the same bit for bit."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import ROOT

from solver.cli import main
from solver.games.totd.files import load_game
from solver.games.totd.model import Solver
from solver.games.totd.rules import Adventure, Doctor
from solver.games.totd.typed import make_tools, parse_challenge, parse_pool

GAME = load_game()
NEED = "Science x2, Cunning, Tactics"


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(["totd", *args])
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def run_json(capsys, *args: str) -> dict:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


BAD = [
    ("chance", "--need", "Scince", "--pool", "black=2"),
    ("chance", "--need", "Science", "--pool", "purple=2"),
    ("chance", "--need", "Science", "--pool", "black=9"),
    ("chance", "--need", "Science", "--pool", "blue=4"),
    ("chance", "--need", "Science", "--pool", ""),
    ("chance", "--need", "Science", "--pool", "black"),
    ("chance", "--need", "Science", "--pool", "black=2", "--sonic", "6"),
    ("chance", "--need", "Science", "--pool", "black=2", "--sonic", "-1"),
    ("chance", "--need", "Science", "--pool", "black=2", "--sonic", "two"),
    ("chance", "--need", "Science", "--pool", "black=2", "--reroll", "two black"),
    ("chance", "--need", "Science", "--pool", "black=2", "--reroll", "0 black"),
    ("chance", "--need", "Science", "--pool", "black=2", "--reroll", "some pink"),
    ("chance", "--need", "Science", "--pool", "black=2", "--change", "green"),
    ("chance", "--need", "Science", "--pool", "black=2", "--change", "green:Magic"),
    ("chance", "--need", "Science", "--pool", "black=2", "--printed-faces", "--change",
     "green:Science"),
    ("chance", "--need", "Science x0", "--pool", "black=2"),
    ("chance", "--need", "", "--pool", "black=2"),
    ("chance", "--need", "Science", "--pool", "black=2", "--dice-file", "/nonexistent.json"),
    ("best-move", "--need", "Science", "--showing", "black:Magic"),
    ("best-move", "--need", "Science", "--showing", "green:Science"),
    ("best-move", "--need", "Science", "--showing", "black"),
    ("best-move", "--need", "Science", "--showing", "black:Science " * 9),
    ("build", "--need", "Science", "--add", "black=9"),
    ("build", "--need", "Science", "--add", "black=6", "--focus", "black"),
    ("build", "--need", "Science", "--add", "black=6", "--focus", "pink"),
    ("build", "--need", "Science", "--add", "black=6", "--daleks", "-1"),
    ("help", "--need", "Science", "--me", "sonic 2"),
    ("help", "--need", "Science", "--me", "black=4; sonic x"),
    ("help", "--need", "Science", "--me", "black=4; sonic 7"),
    ("help", "--need", "Science", "--me", "black=4", "--helper", "black=2"),
    ("help", "--need", "Science", "--me", "black=4", "--any-adventure", "sonic 2"),
    ("help", "--need", "Science", "--me", "black=4", "--call-with-sonic"),
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_input_is_one_line_and_exit_2(capsys, args: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("dice-solver: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_chance_json_and_exact_agree_with_the_solver(capsys) -> None:
    args = ("chance", "--need", NEED, "--pool", "black=6 blue=2", "--sonic", "3", "--reroll",
            "2 black", "--reroll", "any blue", "--change", "green:Diplomacy", "--exact")
    report = run_json(capsys, *args)
    adventure = Adventure(GAME, parse_challenge(GAME, NEED), (Doctor(
        parse_pool(GAME, "black=6 blue=2"),
        make_tools(GAME, 3, ("2 black", "any blue"), ("green:Diplomacy",))),))
    exact = Solver(adventure, exact=True).p_success()
    assert Fraction(report["p_success_exact"]) == exact
    assert report["p_success"] == pytest.approx(float(exact), rel=1e-12)
    assert 0 < report["p_first_roll"] < report["p_success"] < 1


def test_same_command_same_output(capsys) -> None:
    args = ("best-move", "--need", NEED, "--showing", "black:Science black:Cunning blue:Science "
            "black:Running black:Strength", "--sonic", "2", "--reroll", "2 black")
    first, second = run(capsys, *args), run(capsys, *args)
    assert first == second and first[0] == 0


def test_best_move_is_sorted_with_regrets(capsys) -> None:
    report = run_json(capsys, "best-move", "--need", NEED, "--showing",
                      "black:Science black:Cunning black:Running black:Strength blue:Diplomacy",
                      "--sonic", "2", "--reroll", "2 black", "--reroll", "all blue", "--exact")
    options = report["options"]
    values = [Fraction(o["p_success_exact"]) for o in options]
    assert values == sorted(values, reverse=True)
    assert [Fraction(o["regret_exact"]) for o in options] == [values[0] - v for v in values]
    assert {o["action"] for o in options} == {"stop", "re-roll icon", "Sonic re-roll",
                                              "discard a Black die"}
    assert Fraction(report["p_success_exact"]) == values[0]


def test_build_best_pool_is_worth_what_chance_says(capsys) -> None:
    report = run_json(capsys, "build", "--need", NEED, "--add", "black=6 blue=1", "--focus",
                      "blue", "--focus", "green/blue", "--daleks", "1", "--sonic", "2")
    best = report["best"]
    pool = " ".join(f"{colour}={n}" for colour, n in best["pool"].items())
    chance = run_json(capsys, "chance", "--need", NEED, "--pool", pool, "--sonic", "2")
    assert best["p_success"] == chance["p_success"]
    assert all(o["p_success"] <= best["p_success"] for o in report["options"])
    assert sum(best["pool"].values()) == 6  # 7 dice, one Dalek


def test_build_under_time_breach_is_help_alone_under_the_same_reading(capsys) -> None:
    """`build` takes the Time-Breach readings as `help` does: with --breach-alone 7 a Doctor
    alone discards to 7, and without Focus icons the best build is help's "alone" case; under
    the default reading Time-Breach leaves a lone Doctor's 8."""
    pool, breach = "black=6 blue=2 red=1", ("--time-breach", "--breach-alone", "7")
    for reading, limit in (((), 8), (("--time-breach",), 8), (breach, 7)):
        built = run_json(capsys, "build", "--need", NEED, "--add", pool, "--sonic", "1",
                         *reading)
        alone = run_json(capsys, "help", "--need", NEED, "--me", f"{pool}; sonic 1",
                         *reading)["scenarios"][0]
        assert built["rules"]["pool_limit"] == alone["helped_limit"] == limit
        assert sum(built["best"]["pool"].values()) == limit
        assert built["best"]["p_success"] == alone["p_success"]
        assert built["rules"]["time_breach"] == bool(reading)


@pytest.mark.parametrize("command", [("build", "--add", "black=4"), ("help", "--me", "black=4")])
@pytest.mark.parametrize("alone", ["7", "8"])
def test_breach_alone_without_time_breach_is_refused(capsys, command: tuple[str, ...],
                                                     alone: str) -> None:
    """--breach-alone reads Time-Breach; without --time-breach it would change nothing."""
    code, out, err = run(capsys, command[0], "--need", "Science", *command[1:],
                         "--breach-alone", alone)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "add --time-breach" in err


def test_help_alone_is_the_chance_of_the_pool(capsys) -> None:
    report = run_json(capsys, "help", "--need", NEED, "--me", "black=5 blue=2 red=1; sonic 3; "
                      "reroll 2 black", "--helper", "sonic 2; reroll any red")
    alone, afar, location = report["scenarios"]
    chance = run_json(capsys, "chance", "--need", NEED, "--pool", "black=5 blue=2 red=1",
                      "--sonic", "3", "--reroll", "2 black")
    assert alone["p_success"] == chance["p_success"]
    assert (afar["scenario"], location["scenario"]) == ("help from afar", "help at the location")
    assert sum(location["helper_pool"].values()) == 3
    assert not any(alone["helper_pool"].values()) and alone["helper_limit"] == 0
    assert report["best"] == max(report["scenarios"], key=lambda s: s["p_success"])


def test_tables_are_up_to_date(capsys, tmp_path: Path) -> None:
    """Regenerating the committed table gives the same bytes (the manifest's SHA-256)."""
    committed = ROOT / "tables" / "time_of_the_daleks"
    code, _, err = run(capsys, "table", "--out", str(tmp_path))
    assert code == 0, err
    ours = json.loads((tmp_path / "manifest.json").read_text())
    theirs = json.loads((committed / "manifest.json").read_text())
    assert ours["files"] == theirs["files"]
    rows = json.loads((tmp_path / "p_success.json").read_text())["rows"]
    assert len(rows) == 8 * 10 * 6


def test_a_corrected_dice_file_is_used(capsys, tmp_path: Path) -> None:
    data = json.loads((ROOT / "solver" / "games" / "totd" /
                       "dice.json").read_text())
    data["dice"]["green"]["faces"] = {"Running": 5, "Diplomacy": 1}
    corrected = tmp_path / "dice.json"
    corrected.write_text(json.dumps(data))
    report = run_json(capsys, "chance", "--need", "Running", "--pool", "green=1", "--exact",
                      "--dice-file", str(corrected))
    assert report["p_success_exact"] == "5/6"  # one roll of the corrected die, no tools
    shipped = run_json(capsys, "chance", "--need", "Running", "--pool", "green=1", "--exact")
    assert shipped["p_success_exact"] == "1/2"  # Running x3 of 6 (game-facts.md)


@pytest.mark.parametrize("content", ['{"symbols": ["A"]}', "not json",
                                     '{"symbols": ["A"], "dice": {"black": {"supply": 8, '
                                     '"faces": {"B": 1}}}}'])
def test_a_malformed_dice_file_is_one_line_and_exit_2(capsys, tmp_path: Path,
                                                      content: str) -> None:
    broken = tmp_path / "dice.json"
    broken.write_text(content)
    code, _, err = run(capsys, "chance", "--need", "A", "--pool", "black=1", "--dice-file",
                       str(broken))
    assert code == 2 and err.startswith("dice-solver: error: dice file") and err.count("\n") == 1


def test_the_accepted_spellings_read_alike() -> None:
    from solver.games.totd.typed import parse_doctor, parse_reroll

    need = parse_challenge(GAME, "Science x2, Cunning")
    assert need == (0, 0, 2, 1, 0, 0)
    for text in ("science X2 cunning", "Science x 2, Cunning", "Science*2, Cunning",
                 "Science, Science, Cunning"):
        assert parse_challenge(GAME, text) == need, text
    assert parse_reroll(GAME, "up to 2 Black") == parse_reroll(GAME, "2 black")
    doctor, focuses = parse_doctor(GAME, "black=4 blue=2; sonic 3; reroll any blue; change "
                                   "green:Diplomacy; focus red; focus green/blue", focus=True)
    assert doctor == Doctor(parse_pool(GAME, "black=4 blue=2"),
                            make_tools(GAME, 3, ("any blue",), ("green:Diplomacy",)))
    assert focuses == ((GAME.colour("red"),), (GAME.colour("green"), GAME.colour("blue")))
