"""`dice-solver play dalek`: a whole 2-player game typed roll by roll gets, at every step, the
verdict `dalek best-move --json` gives for the same position, which the test tracks itself (the
dice kept, the scores, whose turn it is, each turn's points counted from the rules by hand);
undo, stop, score, help, took, typos, and a save file that resumes as if never stopped."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

from click.testing import CliRunner

from solver.cli import cli

DICE, TARGET = 6, 10  # a race to 10 with 6 dice solves in about a second
FACES = ("H4", "H2", "D3", "D2", "DOC", "EXT")
RULES = ("--dice", str(DICE))
START = ("play", "dalek", *RULES, "--target", str(TARGET), "--quiet", "--race")
VERDICTS = ("Keep ", "Nothing may be kept", "The Doctor intervenes")


def run(*args: str, input: str = "") -> list[str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout.splitlines()


def play(*lines: str, options: tuple[str, ...] = ()) -> list[str]:
    return run(*START, *options, input="".join(f"{x}\n" for x in lines))


def best_move(kept: list[str], roll: list[str], scores: list[int], seat: int) -> dict:
    return json.loads("\n".join(run(
        "dalek", "best-move", *RULES, "--kept", " ".join(kept) or "-", "--roll", " ".join(roll),
        "--scores", ",".join(map(str, scores)), "--seat", str(seat + 1), "--target", str(TARGET),
        "--quiet", "--json")))


def turn_points(kept: list[str], stopped: bool) -> int:
    """A turn's points from the dice kept, by the rules (docs/rules.md 5, 6, 8)."""
    humans = sum(int(f[1:]) for f in kept if f[0] == "H")
    daleks = sum(int(f[1:]) for f in kept if f[0] == "D" and f != "DOC")
    bonus = 0 if stopped or len(kept) < DICE else 5
    if kept.count("DOC") >= 3:
        return 0
    if kept.count("EXT") >= 3:
        return 2 * humans + bonus
    return humans + bonus if daleks >= humans else 0


def words(dice: list[str]) -> str:
    """Dice as the companion writes them: "2x D2" for a face kept twice."""
    return " ".join(f if dice.count(f) == 1 else f"{dice.count(f)}x {f}"
                    for f in dict.fromkeys(dice))


@cache
def game(seed: int = 7) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], str]:
    """A whole game of random rolls, the advice followed: the lines typed, best-move's verdict
    for each, the scores after each turn, and how the game ended."""
    rng = random.Random(seed)
    lines, verdicts, scores_seen = [], [], []
    scores, seat, kept = [0, 0], 0, []
    while True:
        roll = sorted((rng.choice(FACES) for _ in range(DICE - len(kept))), key=FACES.index)
        report = best_move(kept, roll, scores, seat)
        lines.append(" ".join(roll))
        verdicts.append(report["verdict"])
        kept += report["set_aside"]
        best = report["best"]
        if best is not None:
            kept += best["keep"]
            if best["action"] == "roll":
                continue
        scores[seat] += turn_points(kept, best is not None and best["action"] == "stop")
        scores_seen.append(f"Scores: {scores[0]}, {scores[1]}.")
        seat, kept = 1 - seat, []
        if seat == 0 and max(scores) >= TARGET:
            break
    if scores[0] == scores[1]:
        end = f"Game over: seats 1, 2 tie for first with {scores[0]} (they share the win)."
    else:
        winner = scores.index(max(scores))
        end = f"Game over: seat {winner + 1} wins with {scores[winner]}."
    return tuple(lines), tuple(verdicts), tuple(scores_seen), end


def test_a_whole_game_gets_best_moves_verdict_at_every_step() -> None:
    lines, verdicts, scores, end = game()
    assert len(scores) >= 4 and len(lines) > len(scores)  # two rounds at least, rolls on
    out = play(*lines)
    assert out[0].startswith(f"Dalek Dice, 2 players to {TARGET} ({DICE} dice") and \
        out[0].endswith("The advice plays for the win (win chances: each seat's share of the "
                        "win).")
    assert out[1] == f"Seat 1, roll {DICE} dice:"
    assert [line for line in out if line.startswith(VERDICTS)] == list(verdicts)
    assert [line[line.index("Scores: "):].split(" Win chances")[0] for line in out
            if "Scores: " in line] == list(scores)
    assert out[-1] == end


def test_win_chances_are_the_races() -> None:
    seats = json.loads("\n".join(run("dalek", "game", *RULES, "--target", str(TARGET),
                                      "--quiet", "--json")))["seats"]
    out = play("score")
    assert out[2] == (f"Scores: 0, 0. Win chances: seat 1 {seats[0]['value']:.1%}, seat 2 "
                      f"{seats[1]['value']:.1%}.")


def test_undo_stop_score_help_took_and_typos() -> None:
    first = "H4 H4 H4 D3 D2 EXT"
    report = best_move([], first.split(), [0, 0], 0)
    assert report["best"]["action"] == "roll"
    other = next(o for o in report["options"] if o["action"] == "roll" and o["keep"] and
                 o["keep"] != report["best"]["keep"])
    kept = ["EXT", *other["keep"]]
    out = play(first, "undi", "2x Humn 4", "help", "score", "undo", first,
               f"took {' '.join(other['keep'])} roll", "score please", "stop", "stop")
    assert out.count(report["verdict"]) == 2  # the same advice after undo
    assert "? did you mean undo? (help lists the commands)" in out
    assert any(line.startswith("? unknown face 'Humn 4'") and "did you mean Human 4?" in line
               for line in out)
    assert any(line.startswith("  took KEEP [roll|stop]") for line in out)
    assert "Scores: 0, 0. Win chances: seat 1" in " ".join(out)
    assert f"Undone. Seat 1, roll {DICE} dice:" in out
    lost = 100 * (report["best"]["value"] - other["value"])
    taken = out.index(f"Taken: keep {words(other['keep'])}, then roll. It costs {lost:.1f} "
                      f"percentage points of win chance against the advice (keep "
                      f"{words(report['best']['keep'])}, then roll: {report['best']['value']:.1%}"
                      f", this: {other['value']:.1%}).")
    assert out[taken + 2] == f"Seat 1, roll {DICE - len(kept)} dice:"
    assert "? type score alone on its line" in out
    points = turn_points(kept, stopped=True)
    stop = next(i for i, line in enumerate(out) if line.startswith("Seat 1 scores"))
    assert out[stop].startswith(f"Seat 1 scores {points} (stops). Scores: {points}, 0.")
    assert out[stop + 1] == f"Seat 2, roll {DICE} dice:"
    assert out[-2:] == ["? nothing to stop: seat 2 has not rolled yet this turn (a turn starts "
                        "with a roll) (help lists the commands)", "Left the game."]


def test_took_then_rolls_on_with_best_moves_advice() -> None:
    first = "H4 H4 H4 D3 D2 EXT"
    report = best_move([], first.split(), [0, 0], 0)
    other = next(o for o in report["options"] if o["action"] == "roll" and o["keep"] and
                 o["keep"] != report["best"]["keep"])
    kept = ["EXT", *other["keep"]]
    second = ["H2"] * (DICE - len(kept))
    out = play(first, f"took {' '.join(other['keep'])}", " ".join(second))
    expected = best_move(kept, second, [0, 0], 0)["verdict"]
    assert [line for line in out if line.startswith(VERDICTS)][-1] == expected


def test_a_saved_game_resumes_as_if_never_stopped(tmp_path: Path) -> None:
    lines = game()[0]
    whole = play(*lines)
    saved = tmp_path / "game.json"
    options = ("--save", str(saved))
    half = len(lines) // 2
    before = play(*lines[:half], "quit", "never read", options=options)
    assert before.pop() == "Left the game."
    assert json.loads(saved.read_text())["lines"] == list(lines[:half])
    after = play(*lines[half:], options=options)
    tail = whole[len(before):]
    repeated = after[1:len(after) - len(tail)]  # the last answer again, then on from there
    assert after[0] == whole[0] and after[-len(tail):] == tail
    assert repeated == before[-len(repeated):] and repeated


def test_points_play_gives_best_moves_points_verdict() -> None:
    roll = "H4 H4 D3 D2 DOC EXT"
    out = play(roll, options=("--points",))
    assert out[0].endswith("The advice plays for expected points (--points).")
    expected = json.loads("\n".join(run("dalek", "best-move", *RULES, "--roll", roll,
                                         "--json")))["verdict"]
    assert out[2] == expected


def test_a_save_file_of_another_game_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps({"game": {"players": 3}, "lines": []}))
    result = CliRunner().invoke(cli, [*START, "--save", str(saved)], input="")
    assert result.exit_code != 0 and "holds another game" in str(result.exception)
    saved.write_text("[1, 2")
    result = CliRunner().invoke(cli, [*START, "--save", str(saved)], input="")
    assert "is not a saved Dalek Dice game" in str(result.exception)
    result = CliRunner().invoke(cli, [*START, "--die-file", "-"], input="")
    assert "give --die-file as a file" in str(result.exception)
