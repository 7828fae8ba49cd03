"""`totd best-move` at one glance: the verdict line (text and JSON agree), --top, and the dice
showing as players say them (every way of saying the same dice reads the same)."""

from __future__ import annotations

import json

import pytest

from solver.cli import main
from solver.errors import InputError
from solver.games.totd.files import load_game
from solver.games.totd.typed import parse_showing

GAME = load_game()
NEED = "Science x2, Cunning"
MOVE = ("totd", "best-move", "--need", NEED, "--sonic", "2", "--reroll", "2 black", "--showing")


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out, err = capsys.readouterr()
    return stop.value.code, out, err


# black faces in the file's order: Running, Diplomacy, Science, Cunning, Tactics, Strength;
# blue: Science, Cunning, Diplomacy
TWO_SCIENCE_ONE_CUNNING = ((0, 0, 2, 0, 0, 0), (0, 0, 0), (0, 1, 0), (0, 0, 0))
SAME_DICE = ["black:Science black:Science blue:Cunning", "2x black:Science blue:Cunning",
             "2 x BLACK:science, blue:CUNNING", "black:Science x2 blue:Cunning",
             "2 black Science, 1 blue Cunning", "2\u00d7black:Science blue:Cunning",
             "blue:cunning 2xblack:science", "black: Science * 2, blue: Cunning"]


@pytest.mark.parametrize("text", SAME_DICE)
def test_every_way_of_saying_the_dice_reads_the_same(text: str) -> None:
    assert parse_showing(GAME, text) == ((2, 0, 1, 0), TWO_SCIENCE_ONE_CUNNING)


@pytest.mark.parametrize("text, says", [
    ("Science", "colour first"), ("black", "without a face"), ("2x", "without a face"),
    ("black:Science x2 x3", "cannot read"), ("9x black:Science", "1 to 8"),
    ("0 black:Science", "1 to 8"), ("green:Science", "no Science face"),
    ("\u00b2x black:Science", "unknown colour"), ("", "no dice showing"),
    ("black:Science 2", "without a face"), ("x2 black:Science", "cannot read")])
def test_dice_that_cannot_be_read_say_why(text: str, says: str) -> None:
    with pytest.raises(InputError, match=says):
        parse_showing(GAME, text)


def test_the_first_line_is_the_json_verdict_and_names_the_best_option(capsys) -> None:
    showing = "black:Science black:Running black:Tactics blue:Cunning"
    code, text, _ = run(capsys, *MOVE, showing)
    assert code == 0
    report = json.loads(run(capsys, *MOVE, showing, "--json")[1])
    best = report["best"]
    assert text.splitlines()[0] == report["verdict"]
    assert best["action"] == "re-roll icon" and best["tool"] == "2 black"
    assert report["verdict"] == ('Re-roll black:Running black:Tactics with the re-roll icon '
                                 f'"2 black": {best["p_success"]:.1%} to meet the Challenge.')


def test_a_met_challenge_says_stop_and_the_changes(capsys) -> None:
    report = json.loads(run(capsys, "totd", "best-move", "--need", NEED, "--sonic", "3",
                            "--showing", "2x black:Science blue:Diplomacy", "--json")[1])
    assert report["verdict"] == ("Stop: the Challenge is met once you change "
                                 "blue:Diplomacy->Cunning (3 Sonic tokens).")


def test_top_lists_that_many_options_json_lists_all_by_default(capsys) -> None:
    showing = "black:Science black:Running black:Tactics blue:Cunning"
    every = json.loads(run(capsys, *MOVE, showing, "--json")[1])["options"]
    assert len(every) == 9  # stop, 4 ways to use the icon, 3 Sonic re-rolls, the discard
    top = json.loads(run(capsys, *MOVE, showing, "--json", "--top", "3")[1])["options"]
    assert top == every[:3]
    text = run(capsys, *MOVE, showing)[1].splitlines()
    rows = [line for line in text if line[:1].isdigit()]
    assert [r.split()[0] for r in rows] == [str(i) for i in range(1, 9)]
    assert text[-1] == "(1 more option: --top 9 lists them)"
