"""Every class of bad input to the Time of the Daleks commands is refused before any solve, as
a user meets it: `python cli.py ...` exits with status 2 and one line on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, run_cli

SHIPPED = json.loads((ROOT / "solver" / "games" / "totd" / "dice.json").read_text())
SIX = "Running, Diplomacy, Science, Cunning, Tactics, Strength"
CHANCE = ("totd", "chance", "--need", "Science", "--pool", "black=4")
HELP = ("totd", "help", "--need", "Science", "--me", "black=4")
MOVE = ("totd", "best-move", "--need", "Science", "--showing")
PLAY = ("play", "totd", "--need", "Science", "--pool", "black=2")


def refused(*args: str) -> str:
    """The one error line of a refused command (exit status 2, nothing on stdout)."""
    result = run_cli(*args)
    lines = result.stderr.splitlines()
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and len(lines) == 1, result.stderr
    assert lines[0].startswith("dice-solver: error: "), lines
    return lines[0]


CASES = {
    "a Challenge larger than any pool": (
        ("totd", "chance", "--need", "Science x99999999999", "--pool", "black=4"), "never be met"),
    "a Challenge of nine symbols": (
        ("totd", "chance", "--need", "Science x5, Cunning x4", "--pool", "black=8"),
        "never be met"),
    "a pool count in superscript digits": (
        ("totd", "chance", "--need", "Science", "--pool", "black=\u00b2"), "cannot read"),
    "a pool count in other digits": (
        ("totd", "chance", "--need", "Science", "--pool", "black=\u0663"), "cannot read"),
    "a pool count of twenty digits": (
        ("totd", "chance", "--need", "Science", "--pool", "black=" + "9" * 20), "cannot read"),
    "a re-roll amount in superscript digits": ((*CHANCE, "--reroll", "\u00b2 black"), "1 to 8"),
    "a re-roll amount past the pool limit": ((*CHANCE, "--reroll", "99999999 black"), "1 to 8"),
    "tokens in superscript digits": ((*HELP, "--helper", "sonic \u00b2"), "cannot read"),
    "nine re-roll icons": ((*CHANCE, *("--reroll", "1 black") * 9), "at most 8 re-roll"),
    "nine face-change icons": ((*CHANCE, *("--change", "black:Science") * 9),
                               "at most 8 face-change"),
    "nine Focus icons": (("totd", "build", "--need", "Science", "--add", "black=8",
                          *("--focus", "blue") * 9), "at most 8 Focus"),
    "more Daleks than a pool holds": (("totd", "build", "--need", "Science", "--add", "black=8",
                                       "--daleks", "9"), "--daleks"),
    "no dice added": (("totd", "build", "--need", "Science", "--add", ""), "no dice"),
    "a helped Doctor without dice": (("totd", "help", "--need", "Science", "--me", "black=0"),
                                     "no dice"),
    "two pools for one Doctor": ((*HELP[:-1], "black=4; blue=1"), "two dice pools"),
    "Focus icons for the helped Doctor": ((*HELP[:-1], "black=4; focus blue"), "after its Focus"),
    "Focus icons for a helper under the split reading": ((*HELP, "--helper", "focus blue"),
                                                         "--helper-dice own"),
    "the helper's own dice without them": ((*HELP, "--helper-dice", "own", "--helper",
                                            "sonic 2"), "gives no dice pool"),
    "the helper's own dice, none of them": ((*HELP, "--helper-dice", "own", "--helper",
                                             "black=0; sonic 2"), "the helper's own dice"),
    "the helper's dice under the split reading": ((*HELP, "--helper", "black=1"),
                                                  "--helper-dice own"),
    "dice on an Any Adventure card": ((*HELP, "--any-adventure", "black=1"), "bring no dice"),
    "a helper gathering past the supply": (
        (*HELP, "--helper", "black=9", "--helper-dice", "own"), "the helper gathers 9 black"),
    "an unknown Time-Breach reading": ((*HELP, "--breach-alone", "6"), "--breach-alone"),
    "an unknown Sonic reading": ((*HELP, "--sonic-on", "both"), "--sonic-on"),
    "a table into a missing folder": (("totd", "table", "--out", "/nonexistent/deeper"),
                                      "does not exist"),
    "a table into an empty path": (("totd", "table", "--out", ""), "empty path"),
    "a table into a file": (("totd", "table", "--out", str(ROOT / "cli.py")), "not a folder"),
    "a dice file that is a folder": ((*CHANCE, "--dice-file", str(ROOT)), "folder"),
    "a dice file that is missing": ((*CHANCE, "--dice-file", "/nonexistent.json"),
                                    "cannot read"),
    "dice showing with a face first": ((*MOVE, "Science"), "colour first"),
    "dice showing with a count of nine": ((*MOVE, "9x black:Science"), "1 to 8"),
    "dice showing with a count of zero": ((*MOVE, "0 black:Science"), "1 to 8"),
    "dice showing with a count in superscript": ((*MOVE, "\u00b2x black:Science"),
                                                 "unknown colour"),
    "dice showing with a count and no die": ((*MOVE, "black:Science 2x"), "without a face"),
    "dice showing with two counts after a die": ((*MOVE, "black:Science x2 x3"),
                                                 "cannot read"),
    "dice showing past the pool limit": ((*MOVE, "5x black:Science 4x black:Running"),
                                         "at most 8"),
    "dice showing as one enormous word": ((*MOVE, "x" * 100_000), "unknown colour"),
    "best-move listing no options": ((*MOVE, "black:Science", "--top", "0"), "--top"),
    "a card neither PDF nor PNG": (("totd", "card", "--out", "/tmp/card.svg"), ".pdf or .png"),
    "a card into a missing folder": (("totd", "card", "--out", "/nonexistent/card.pdf"),
                                     "does not exist"),
    "play with the dice file on standard input": ((*PLAY, "--dice-file", "-"), "as a file"),
    "play saving into a folder": ((*PLAY, "--save", str(ROOT)), "folder"),
    "play with too many dice": (("play", "totd", "--need", "Science", "--pool", "black=9"),
                                "at most 8"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_refused_in_one_line(name: str) -> None:
    args, said = CASES[name]
    assert said in refused(*args)


def dice_file(tmp_path: Path, change) -> str:
    """A copy of the shipped dice file with one thing broken."""
    data = json.loads(json.dumps(SHIPPED))
    change(data)
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


BROKEN = {
    "a negative weight": (lambda d: d["dice"]["green"]["faces"].update(Running=-3), "1 to 1000"),
    "a huge weight": (lambda d: d["dice"]["green"]["faces"].update(Running=10 ** 30), "1 to 1000"),
    "a weight of 1.5": (lambda d: d["dice"]["green"]["faces"].update(Running=1.5), "1 to 1000"),
    "no faces": (lambda d: d["dice"]["green"].update(faces={}), "faces must be a table"),
    "faces as a list": (lambda d: d["dice"]["green"].update(faces=["Running"]),
                        "faces must be a table"),
    "a huge supply": (lambda d: d["dice"]["green"].update(supply=10 ** 9), "0 to 99"),
    "a symbol with a space": (lambda d: d["symbols"].append("Time Travel"), "not a name"),
    "symbols as a string": (lambda d: d.update(symbols="Running"), "needs"),
    "a colour that is not an object": (lambda d: d["dice"].update(green=3), "needs"),
    "no Black dice": (lambda d: d["dice"].pop("black"), "include 'black'"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_dice_file_is_refused_in_one_line(tmp_path: Path, name: str) -> None:
    change, said = BROKEN[name]
    assert said in refused(*CHANCE, "--dice-file", dice_file(tmp_path, change))


@pytest.mark.parametrize("content, said", [
    (bytes(range(256)) * 4, "not UTF-8 text"),
    (b"[1, 2]", "must hold a JSON object"),
    (b'{"symbols": [', "not valid JSON"),
    (b"", "not valid JSON"),
    (b"[" * 5000, "nests too deep"),
])
def test_a_dice_file_that_is_not_json_is_refused_in_one_line(tmp_path: Path, content: bytes,
                                                             said: str) -> None:
    path = tmp_path / "dice.json"
    path.write_bytes(content)
    assert said in refused(*CHANCE, "--dice-file", str(path))


EIGHT_ICONS = ("1 black", "2 black", "3 black", "any black", "any green", "1 green", "any blue",
               "all red")


@pytest.mark.parametrize("args", [
    ("totd", "chance", "--need", SIX, "--pool", "black=3 green=2 blue=2 red=1", "--sonic", "5",
     "--exact", *(word for icon in EIGHT_ICONS for word in ("--reroll", icon))),
    ("totd", "help", "--need", SIX, "--me", "black=8 green=3 blue=3 red=3; sonic 5; reroll "
     "2 black", "--helper", "sonic 5; reroll all red"),
    ("verify", "totd", "--need", SIX, "--pool", "black=8", "--sonic", "5",
     *("--change", "black:Science") * 6),
    ("simulate", "totd", "--need", "Science", "--pool", "black=4", "--n", "10000000", "--seed",
     "1", "--out", "/tmp/never-written.csv"),
], ids=["chance", "help", "verify", "simulate"])
def test_a_request_past_the_budget_is_refused_before_it_starts(monkeypatch, args) -> None:
    """Estimated from the size before any solve (cost.py): one line with the estimate."""
    monkeypatch.setenv("DICE_SOLVER_BUDGET", "5")
    assert "add --force" in refused(*args)


def test_a_table_past_the_dice_files_supply_is_refused_before_any_solve(tmp_path: Path) -> None:
    small = dice_file(tmp_path, lambda d: d["dice"]["black"].update(supply=4))
    assert "supply has only 4" in refused("totd", "table", "--dice-file", small, "--out",
                                          str(tmp_path / "table"))
    assert not (tmp_path / "table").exists()


def test_table_pools_fit_a_dice_file_of_many_colours(tmp_path: Path) -> None:
    """Eight colours: a mixed pool (one of each colour) needs 7 dice, so sizes 4 to 6 have
    none (before, they had a negative count of Black dice)."""
    from solver.games.totd.files import load_game
    from solver.games.totd.report import table_pools

    def more_colours(data: dict) -> None:
        for colour in ("purple", "orange", "white", "yellow"):
            data["dice"][colour] = {"supply": 3, "faces": {"Science": 1, "Cunning": 1}}

    game = load_game(dice_file(tmp_path, more_colours))
    pools = table_pools(game)
    assert all(min(pool) >= 0 for _, pool in pools)
    assert [sum(pool) for kind, pool in pools if kind == "mixed"] == [7, 8]


def test_play_answers_any_line_in_one_line_and_goes_on(tmp_path: Path) -> None:
    """Whatever is typed at the table (garbage, huge lines, control characters, commands with
    extra words, took N out of range, undo past the start), each line gets at most one line of
    hint, the session goes on and ends normally; a save file that cannot be replayed is refused
    in one line."""
    garbage = ["took", "took -1", "took 99999999999999999", "took \u00b2", "undo", "Stop now",
               "x" * 200_000, "black:" + "S" * 100_000, "\x00\x01", "\U0001f3b2", "1x", "nan",
               "black:Science", "black:Science black:Running", "took 9", "undo", "undo"]
    result = subprocess.run([sys.executable, "cli.py", *PLAY], cwd=ROOT, capture_output=True,
                            text=True, input="\n".join([*garbage, "quit"]) + "\n", timeout=120)
    hints = [line for line in result.stdout.splitlines() if line.startswith("? ")]
    assert result.returncode == 0 and result.stderr == ""
    assert len(hints) == len(garbage) - 4  # the two Adventure lines and two undos are answers
    assert all(len(line) < 300 for line in hints)
    saved = tmp_path / "adventure.json"
    saved.write_text(json.dumps({"adventure": {"need": "Science", "pool": "black=2", "sonic": 0,
                                               "rerolls": [], "changes": [], "dice_file": None,
                                               "printed_faces": False},
                                 "lines": ["took 1"]}))
    assert "saved line 1" in refused(*PLAY, "--save", str(saved))
