"""`dalek best-move` at a glance: dice typed as players say them (one reader, solver/faces.py),
the dice kept given as dice (--kept) instead of sums, a one-line verdict first (and in JSON), and
--top for the list. Expected values come from the independent brute force or from the rules by
hand; refusals are one line with exit status 2."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest
from click.testing import CliRunner
from dalek_bruteforce import BruteForce
from helpers import invoke, run_cli

from solver.cli import cli
from solver.errors import InputError
from solver.faces import Faces
from solver.games.dalek.files import parse_rules
from solver.games.dalek.typed import parse_dice

RULES = parse_rules()  # H4 H2 D3 D2 DOC EXT, 10 dice
FACES = RULES.die.faces


def counts(**faces: int) -> tuple[int, ...]:
    return tuple(faces.get(f, 0) for f in FACES)


@pytest.mark.parametrize(("text", "expected"), [
    ("2xH4", counts(H4=2)), ("2x H4", counts(H4=2)), ("2 x H4", counts(H4=2)),
    ("2 H4", counts(H4=2)), ("H4x2", counts(H4=2)), ("H4 x2", counts(H4=2)),
    ("H4 x 2", counts(H4=2)), ("H4\u00d72", counts(H4=2)), ("2\u00d7 H4", counts(H4=2)),
    ("2*H4", counts(H4=2)), ("h4 H4", counts(H4=2)),
    ("Doctor", counts(DOC=1)), ("The Doctor", counts(DOC=1)), ("DOC", counts(DOC=1)),
    ("doc", counts(DOC=1)), ("Exterminate", counts(EXT=1)), ("EXT", counts(EXT=1)),
    ("exterminate!", counts(EXT=1)), ("Human 4", counts(H4=1)), ("human4", counts(H4=1)),
    ("Dalek 3", counts(D3=1)), ("DALEK 2", counts(D2=1)),
    ("H4, H2,D3 DOC", counts(H4=1, H2=1, D3=1, DOC=1)),
    ("2x Human 4 Dalek 3 x3 doctor", counts(H4=2, D3=3, DOC=1)),
    ("H4 2 D3", counts(H4=1, D3=2)),  # a number after a face counts only with x
    ("-", counts()), ("", counts()),
])
def test_every_spelling_reads_the_same_dice(text: str, expected: tuple[int, ...]) -> None:
    assert parse_dice(RULES, text) == expected


def test_a_custom_die_names_its_own_faces() -> None:
    rules = parse_rules("H5 H1 D6 DOC EXT", dice=4)
    assert parse_dice(rules, "Human 5 x2 Dalek 6 h1") == (2, 1, 1, 0, 0)
    with pytest.raises(InputError, match=r"unknown face 'Human 4'.*H5 \(Human 5\)"):
        parse_dice(rules, "Human 4")


def test_the_reader_is_game_agnostic() -> None:
    faces = Faces(("Sun", "Moon"), {"Moon": ("Half Moon",)})
    assert faces.read("2x sun half moon x3", 9) == (2, 3)
    assert faces.listing() == "Sun, Moon (Half Moon)"


@pytest.mark.parametrize(("text", "message"), [
    ("Humn 4", "unknown face 'Humn 4' in 'Humn 4' (faces: H4 (Human 4), H2 (Human 2), D3 "
               "(Dalek 3), D2 (Dalek 2), DOC (Doctor), EXT (Exterminate)); did you mean "
               "Human 4?"),
    ("Dokter", "did you mean Doctor?"),
    ("Xyzzy", "unknown face 'Xyzzy'"),
    ("H5", "unknown face 'H5'"),
    ("12 H4", "a count of dice is 1 to 10 (the dice in play), not '12'"),
    ("0x H4", "a count of dice is 1 to 10"),
    ("H4 x99999999999999999999999", "a count of dice is 1 to 10"),
    ("\uff12 H4", "cannot read"),  # a full-width digit: counts are ASCII digits
    ("\u00b2 H4", "unknown face"),
    ("2x H4 x3", "a count goes before a face (2x H4) or after it (H4x2), once"),
    ("H4 2", "ends with a count and no face"),
    ("6x H4 6x D3", "is 12 dice, but there are 10 dice in play"),
    ("H4 & D3", "cannot read '&'"),
])
def test_dice_that_cannot_be_read_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(InputError) as error:
        parse_dice(RULES, text)
    assert message in str(error.value) and "\n" not in str(error.value)


BAD = {  # arguments of dalek best-move: a fragment of the one error line
    ("--roll", "2x Humn 4"): "did you mean Human 4?",
    ("--roll", "11x H4"): "1 to 10",
    ("--roll", "H4", "--kept", "9x H4 D3"): "the dice kept (10) and rolled (1) make 11",
    ("--roll", "H4", "--kept", "H4"): "make 2, but the game has 10 dice",
    ("--roll", "H4 D3", "--kept", "6x H4 2x D3", "--humans", "24"):
        "give the dice kept before as --kept or as sums (--humans), not both",
    ("--roll", "H4", "--kept", "6x H4 DOC DOC DOC"): "the third Doctor already ended the turn",
    ("--roll", "H4", "--top", "0"): "0",
}


def test_bad_positions_are_one_line_and_exit_2() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda args: run_cli("dalek", "best-move", *args), BAD))
    for (args, fragment), result in zip(BAD.items(), results):
        assert result.returncode == 2, (args, result.stderr)
        assert result.stdout == "" and result.stderr.count("\n") == 1, (args, result.stderr)
        assert result.stderr.startswith("dice-solver: error: ") and fragment in result.stderr, \
            (args, result.stderr)


def stable(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timings"}


def test_kept_dice_answer_what_their_sums_answer() -> None:
    roll = ("--roll", "2xH4 H2 D3 D2 Doctor Exterminate")
    kept = invoke("dalek", "best-move", *roll, "--kept", "Human 4, H2 Dalek 3", "--json")
    sums = invoke("dalek", "best-move", *roll, "--humans", "6", "--daleks", "3", "--json")
    assert stable(kept) == stable(sums)
    assert kept["position"] == {"to_roll": 7, "humans": 6, "daleks": 3, "doctors": 0,
                                "exterminates": 0, "scores": None, "seat": None}
    race = ("--scores", "4,6", "--target", "10", "--dice", "5", "--quiet", "--json")
    kept = invoke("dalek", "best-move", "--roll", "H4 DOC D3", "--kept", "EXT D2", *race)
    sums = invoke("dalek", "best-move", "--roll", "H4 DOC D3", "--daleks", "2",
                  "--exterminates", "1", *race)
    assert stable(kept) == stable(sums)


# ---- the verdict ---------------------------------------------------------------------------
def brute_options(state: tuple[int, ...], roll: str) -> dict[tuple[str, str], Fraction]:
    return BruteForce("H4 H2 D3 D2 DOC EXT", "ge").options(state, tuple(roll.split()))


def best_move(*args: str) -> tuple[dict, list[str]]:
    """best-move's JSON and its text lines for the same request."""
    text = CliRunner().invoke(cli, ["dalek", "best-move", *args])
    assert text.exit_code == 0, text.output
    return invoke("dalek", "best-move", *args, "--json"), text.stdout.splitlines()


def test_the_verdict_to_roll_on_names_the_keep_and_both_values() -> None:
    # 4 dice, nothing kept yet, rolled H4 H2 D3 DOC
    options = brute_options((4, 0, 0, 0, 0), "H4 H2 D3 DOC")
    (keep, action), value = max(options.items(), key=lambda kv: kv[1])
    stop = max(v for (_, a), v in options.items() if a == "stop")
    assert action == "roll"
    expected = (f"Keep {keep}, then roll ({float(value):.2f} expected points; stopping now: "
                f"{float(stop):.2f}).")
    report, text = best_move("--dice", "4", "--roll", "H4 H2 D3 DOC")
    assert report["verdict"] == text[0] == expected


def test_the_verdict_to_stop() -> None:
    # 11 dice: kept 8 Humans, 10 Daleks and two Doctors, then rolled H4 H2 D3
    options = brute_options((3, 8, 10, 2, 0), "H4 H2 D3")
    (keep, action), value = max(options.items(), key=lambda kv: kv[1])
    rolling = max(v for (_, a), v in options.items() if a == "roll")
    assert action == "stop" and value > rolling
    report, text = best_move("--dice", "11", "--kept", "2x H4 2x D3 2x D2 2x DOC", "--roll",
                             "H4 H2 D3")
    assert text[0] == report["verdict"] == (f"Keep {keep} and stop ({float(value):.2f} points; "
                                            f"rolling on: {float(rolling):.2f}).")


def test_the_verdict_when_the_turn_ends() -> None:
    kept = "2x H4 2x D3 2x D2"  # 8 Humans, 10 Daleks
    report, text = best_move("--kept", f"{kept} EXT EXT", "--roll", "EXT D3")
    assert text[0] == report["verdict"] == \
        "Keep D3: the third Exterminate ends the turn (21.00 points)."  # 2 x 8 + 5
    report, _ = best_move("--kept", f"{kept} EXT DOC", "--roll", "H4 D3")
    assert report["verdict"] == "Keep H4 D3: no dice left, the turn ends (17.00 points)."
    report, text = best_move("--kept", f"{kept} DOC DOC", "--roll", "DOC D3")
    assert text[0] == report["verdict"] == \
        "The Doctor intervenes: the turn is over with 0 points."
    assert report["best"] is None and report["options"] == []


def test_the_verdict_when_nothing_may_be_kept() -> None:
    # 7 dice kept (8 Humans, 10 Daleks and a Doctor): a roll of DOC EXT DOC keeps nothing more
    options = brute_options((3, 8, 10, 1, 0), "DOC EXT DOC")
    report, _ = best_move("--kept", "2x H4 2x D3 2x D2 DOC", "--roll", "DOC EXT DOC")
    assert report["verdict"] == (
        f"Nothing may be kept (the set-aside Doctor and Exterminate count), then roll "
        f"({float(options['-', 'roll']):.2f} expected points; stopping now: "
        f"{float(options['-', 'stop']):.2f}).")


def test_the_race_verdict_gives_win_chances() -> None:
    args = ("--dice", "5", "--roll", "H4 H2 D3 D2 DOC", "--scores", "4,6", "--target", "10",
            "--quiet")
    report, text = best_move(*args)
    best = report["best"]
    other = max(o["value"] for o in report["options"] if o["action"] == "stop")
    keep = " ".join(best["keep"])
    assert best["action"] == "roll"
    assert text[0] == report["verdict"] == (f"Keep {keep}, then roll (win chance "
                                            f"{best['value']:.1%}; stopping now: {other:.1%}).")


# ---- --top ----------------------------------------------------------------------------------
def option_rows(text: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(text) if line.startswith("----"))
    return [line for line in text[start + 1:] if line and not line.startswith("...")]


def test_top_limits_the_text_not_the_json() -> None:
    roll = ("--roll", "H4 H4 H4 H2 D2 D2 D3 DOC EXT EXT")
    report, text = best_move(*roll)
    every = len(report["options"])
    assert every > 8 and len(option_rows(text)) == 8
    assert text[-1] == f"... {every - 8} more: --top {every}"
    report, text = best_move(*roll, "--top", "3")
    assert len(report["options"]) == every
    assert [row.split()[0] for row in option_rows(text)] == \
        [(o["keep"] or ["-"])[0] for o in report["options"][:3]]
    assert text[-1] == f"... {every - 3} more: --top {every}"
    _, text = best_move(*roll, "--top", str(every))
    assert len(option_rows(text)) == every and not text[-1].startswith("...")
