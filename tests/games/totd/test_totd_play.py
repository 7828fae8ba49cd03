"""`dice-solver play totd`: a whole Adventure typed line by line gets, at every step, the verdict
`totd best-move` gives for the same dice and the tools left (which the test tracks by hand);
undo, took N, typos, and a save file that resumes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from solver.cli import cli

NEED = "Science x2, Cunning"
START = ("play", "totd", "--need", NEED, "--pool", "black=3 blue=1", "--sonic", "2",
         "--reroll", "2 black")
# (line typed, the tools left when those dice show: what best-move is asked with)
ADVENTURE = [
    ("3x black:Running blue:Diplomacy", ("--sonic", "2", "--reroll", "2 black")),
    # the advice was to discard a Black die: three dice left, the same tools
    ("2x black:Running blue:Science", ("--sonic", "2", "--reroll", "2 black")),
    # the advice was the re-roll icon: 2 Sonic tokens left
    ("black:Science black:Tactics blue:Science", ("--sonic", "2")),
    # the advice was a Sonic re-roll: no tools left
    ("black:Science black:Cunning blue:Science", ()),
]


def verdict(line: str, tools: tuple[str, ...]) -> str:
    result = CliRunner().invoke(cli, ["totd", "best-move", "--need", NEED, "--showing", line,
                                      *tools, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["verdict"]


def play(*lines: str, options: tuple[str, ...] = ()) -> list[str]:
    result = CliRunner().invoke(cli, [*START, *options], input="".join(f"{x}\n" for x in lines))
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def verdicts(out: list[str]) -> list[str]:
    return [line for line in out if line.endswith("to meet the Challenge.")
            or line.startswith("Stop: ")]


def test_a_whole_adventure_gets_best_moves_advice_at_every_step() -> None:
    expected = [verdict(line, tools) for line, tools in ADVENTURE]
    assert expected[0].startswith("Discard a Black die")
    assert expected[1].startswith("Re-roll") and expected[2].startswith("Spend 2 Sonic")
    assert expected[3].startswith("Stop: the Challenge is met")
    out = play(*(line for line, _ in ADVENTURE), "stop")
    chance = CliRunner().invoke(cli, ["totd", "chance", "--need", NEED, "--pool", START[5],
                                      *START[6:], "--json"])
    assert f"({json.loads(chance.stdout)['p_success']:.1%} to meet" in out[0]
    assert verdicts(out) == expected
    assert out[-1] == "Stopped: the Challenge is met."


def test_undo_took_and_typos() -> None:
    first, second = ADVENTURE[0][0], ADVENTURE[1][0]
    out = play(first, "undi", "blak:Science", "black:Science", "took 9", "took 2", "undo",
               second, "stop")
    assert out.count("? did you mean undo? (help lists the commands)") == 1
    assert any(line.startswith("? unknown colour 'blak'") for line in out)
    assert any(line.startswith("? that is black=1, but the dice left are black=2 blue=1")
               for line in out)  # the advice (discard a Black die) is taken to be done
    assert any(line.startswith("? write took N") for line in out)
    assert any(line.startswith("Taking option 2, re-roll icon (2 black)") for line in out)
    assert any(line.startswith("Undone. Discard a Black die") for line in out)
    assert verdicts(out)[-1] == verdict(second, ADVENTURE[1][1])


def test_took_n_keeps_the_tools_of_the_option_taken() -> None:
    # option 2 is the re-roll icon on both Running dice: the icon is gone, the dice all stay
    out = play(ADVENTURE[0][0], "took 2", "black:Science black:Cunning black:Running "
               "blue:Diplomacy", "quit")
    assert verdicts(out)[-1] == verdict("black:Science black:Cunning black:Running "
                                        "blue:Diplomacy", ("--sonic", "2"))


def test_a_saved_adventure_resumes_where_it_stopped(tmp_path: Path) -> None:
    saved = tmp_path / "adventure.json"
    options = ("--save", str(saved))
    play(ADVENTURE[0][0], ADVENTURE[1][0], "quit", options=options)
    assert json.loads(saved.read_text())["lines"] == [ADVENTURE[0][0], ADVENTURE[1][0]]
    out = play(ADVENTURE[2][0], "q", options=options)
    assert out[0] == verdict(*ADVENTURE[1])  # the last advice again, then on from there
    assert verdicts(out)[-1] == verdict(*ADVENTURE[2])


def test_a_save_file_of_another_adventure_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "adventure.json"
    saved.write_text(json.dumps({"adventure": {"need": "Science"}, "lines": []}))
    result = CliRunner().invoke(cli, [*START, "--save", str(saved)], input="quit\n")
    assert result.exit_code != 0 and "another Adventure" in str(result.exception)
    saved.write_text("[1, 2")
    result = CliRunner().invoke(cli, [*START, "--save", str(saved)], input="quit\n")
    assert "not a saved Time of the Daleks Adventure" in str(result.exception)
