"""The three companions at the table as a player types to them, slips included: one vocabulary
(`stop` ends the mover's turn, `quit` or `q` leaves, `score`, `undo`, `help`), a typed 6 never
read as a Strike X, `q` never read as a die, `undo` after a line not taken undoes nothing good,
and the dice typed must be dice that could show. Expected verdicts are best-move's for the
positions this test tracks by hand from the rules."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import cli


def run(*args: str, lines: tuple[str, ...] = ()) -> list[str]:
    result = CliRunner().invoke(cli, list(args), input="".join(f"{x}\n" for x in lines))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout.splitlines()


def answer(*args: str) -> dict:
    return json.loads("\n".join(run(*args, "--json")))


COMPANIONS = {
    "dalek": ("play", "dalek", "--dice", "6", "--target", "10", "--points"),
    "strike": ("play", "strike", "--dice", "3"),
    "totd": ("play", "totd", "--need", "Science x2, Cunning", "--pool", "black=3"),
}


@pytest.mark.parametrize("game", sorted(COMPANIONS))
def test_every_companion_speaks_one_vocabulary(game: str) -> None:
    out = run(*COMPANIONS[game], lines=("help", "q", "never read"))
    words = {line.split()[0].rstrip(",") for line in out if line.startswith("  ")}
    assert {"stop", "score", "undo", "quit", "help"} <= words, words
    assert "  quit, q  leave (with --save, the game is kept: run the same command to resume)" \
        in out
    assert out[-1].startswith("Left"), out[-1]


# ---- Strike, 3 players with 3 dice each -----------------------------------------------------
STRIKE = ("--dice", "3")


def strike_verdict(*position: str) -> str:
    return answer("strike", "best-move", *STRIKE, *position)["verdict"]


def test_a_three_player_strike_game_goes_as_the_player_meant() -> None:
    """Seats 1-3 place 2, 4, 5 (stocks 2 each). Seat 1 types a 6 for its die (refused: never an
    X), then its throw 1 2 4 5 (its die shows 1: no match, stock 1), mistypes stop, stops;
    seat 2 throws an X (1 2 4 5 X: out of the game), takes it back with undo, throws a 3
    instead (no match, stock 1) and stops; score; q leaves, and nothing after it is read."""
    out = run("play", "strike", "--players", "3", *STRIKE,
              lines=("2", "4", "5", "2 4 5 6", "1 2 4 5", "stpo", "stop", "1 2 4 5 X", "undo",
                     "1 2 3 4 5", "score", "stop", "q", "1 2 3 4 5"))
    assert "? a die shows 1 to 5 or X, not 6 (on dice numbered 2 to 6, type one less) " \
           "(help lists the commands)" in out
    assert "? did you mean stop? (help lists the commands)" in out
    assert "Seat 1 stops." in out and "Seat 2 stops." in out
    # the verdicts the player was given, at each position the test tracks
    expected = [strike_verdict("--arena", "2,4,5", "--stocks", "2,2,2"),
                strike_verdict("--arena", "1,2,4,5", "--stocks", "1,2,2", "--mid-turn"),
                strike_verdict("--arena", "1,2,4,5", "--stocks", "1,2,2", "--mover", "2"),
                strike_verdict("--arena", "1,2,3,4,5", "--stocks", "1,1,2", "--mover", "2",
                               "--mid-turn"),
                strike_verdict("--arena", "1,2,3,4,5", "--stocks", "1,1,2", "--mover", "3")]
    said = [line for line in out if line.startswith(("Throw", "Stop", "Place"))]
    for verdict in expected:
        assert verdict in said, (verdict, said)
    assert "No match; 1 die out of the game; arena 1 2 4 5; stock 1." in out  # the X, undone
    assert any(line.startswith("Undone. ") for line in out)
    assert "Stocks: seat 1 1, seat 2 1, seat 3 2; arena: 1 2 3 4 5; out of the game: 0; " \
           "seat 2 to throw." in out
    assert out[-1] == "Left the game."


# ---- Dalek Dice, 2 players, 6 dice, race to 10 ----------------------------------------------
DALEK = ("--dice", "6", "--target", "10")
FIRST = "H4 H4 H4 D3 D2 EXT"  # the best keep rolls on (asserted below)


def dalek_move(kept: str, roll: str, scores: str, seat: int) -> dict:
    return answer("dalek", "best-move", *DALEK, "--kept", kept, "--roll", roll, "--scores",
                  scores, "--seat", str(seat), "--quiet")


def test_a_two_player_dalek_game_goes_as_the_player_meant() -> None:
    """Seat 1 rolls, types a roll with a 6 in it (refused), undoes (nothing: the 6 was not
    taken), mistypes score, asks the score mid-turn (the chance now, not the turn's start),
    stops (the turn is banked, the game goes on); seat 2 rolls, undoes it, and q leaves."""
    first = dalek_move("", FIRST, "0,0", 1)
    best = first["best"]
    assert best["action"] == "roll"
    start = answer("dalek", "game", *DALEK, "--quiet")["seats"][0]["value"]
    assert f"{best['value']:.1%}" != f"{start:.1%}"  # the chance now differs from the start's
    kept = [*first["set_aside"], *best["keep"]]
    humans = sum(int(f[1:]) for f in kept if f[0] == "H")
    daleks = sum(int(f[1:]) for f in kept if f[0] == "D" and f != "DOC")
    points = humans if daleks >= humans else 0  # docs/rules.md: stopping banks the Humans
    second = "H2 H2 D3 D3 DOC H4"
    out = run("play", "dalek", *DALEK, "--race", "--quiet",
              lines=(FIRST, "H4 H4 6", "undo", "scroe", "score", "stop", second, "undo", "q",
                     "H4"))
    assert out.count(first["verdict"]) == 1
    assert any(line.startswith("? ") and "6" in line for line in out)
    assert "Nothing undone: your last line ('H4 H4 6') was not taken. Type undo again to take " \
           "back the line before it." in out
    assert "? did you mean score? (help lists the commands)" in out
    assert any(line.startswith("Scores: 0, 0. Seat 1's turn so far:") and
               line.endswith(f"now, playing on as advised: win chance {best['value']:.1%} "
                             f"(seat 2: {1 - best['value']:.1%}).") for line in out)
    assert any(line.startswith(f"Seat 1 scores {points} (stops). Scores: {points}, 0.")
               for line in out)
    assert dalek_move("", second, f"{points},0", 2)["verdict"] in out
    assert out[-3:] == [f"Undone. Seat 1 scores {points} (stops). " + out[-3].split(
        "(stops). ", 1)[-1], "Seat 2, roll 6 dice:", "Left the game."]


def test_play_dalek_solves_no_race_unasked(tmp_path, monkeypatch) -> None:
    """With nothing cached, the race is not solved at start-up (the advice plays for expected
    points and says how to get the race); --race solves it."""
    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path))
    result = CliRunner().invoke(cli, ["play", "dalek", *DALEK, "--quiet"], input="q\n")
    assert "The advice plays for expected points: the 2-player race to 10 is not solved yet " \
        "(about " in result.stdout.splitlines()[0]
    assert not list(tmp_path.glob("dalek_race*"))
    raced = CliRunner().invoke(cli, ["play", "dalek", *DALEK, "--quiet", "--race"], input="q\n")
    assert "The advice plays for the win" in raced.stdout
    assert list(tmp_path.glob("dalek_race*"))


# ---- Time of the Daleks ---------------------------------------------------------------------
TOTD = ("play", "totd", "--need", "Science x2, Cunning, Tactics", "--pool", "black=3 blue=1",
        "--sonic", "2", "--reroll", "2 black")
ROLL = "black:Science black:Running blue:Cunning black:Tactics"  # advice: re-roll the Running


def test_totd_takes_only_dice_that_could_show() -> None:
    advice = answer("totd", "best-move", "--need", "Science x2, Cunning, Tactics", "--showing",
                    ROLL, "--sonic", "2", "--reroll", "2 black")
    assert advice["best"]["dice"] == ["black:Running"]
    out = run(*TOTD, lines=(ROLL, "black:Science black:Science blue:Science black:Tactics",
                            "took 7", "score", "black:Science black:Science blue:Cunning "
                            "black:Tactics", "score", "q"))
    # the blue die was not thrown again: it still shows Cunning
    assert any(line.startswith("? blue:Cunning should still show: only black:Running was "
                               "thrown again") for line in out)
    assert "? write took N, N an option of the last list (1 to 3) (help lists the commands)" \
        in out
    assert f"chance now to meet it: {advice['best']['p_success']:.1%}." in \
        next(line for line in out if line.startswith("Challenge "))
    assert "Stop: the Challenge is met." in out
    met = out.index("Stop: the Challenge is met.")
    assert not any("%" in line for line in out[met:met + 2])  # no options listed once met
    assert out[-2].endswith("the Adventure is over.")


def test_totd_took_says_what_a_worse_option_costs() -> None:
    advice = answer("totd", "best-move", "--need", "Science x2, Cunning, Tactics", "--showing",
                    ROLL, "--sonic", "2", "--reroll", "2 black")
    second = advice["options"][1]
    lost = 100 * (advice["best"]["p_success"] - second["p_success"])
    out = run(*TOTD, lines=(ROLL, "took 2", "q"))
    assert any(line.startswith("Taking option 2, ") and
               f"It costs {lost:.1f} percentage points against the advice" in line
               for line in out)
