"""`strike best-move` at a glance: the verdict line (text and JSON) checked against the brute
force's option values (strike_bruteforce.py: written from the rulebook, sharing no code with
the solver), --top, and the arena as players type it (spellings taken, counts and X refused with
the reason, through the real entry point)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from helpers import run_cli
from strike_bruteforce import BruteForce

from solver.cli import cli
from solver.formatting import percent

HALF = Fraction(1, 2)


def best_move(*args: str) -> tuple[dict, list[str]]:
    """The JSON report and the text lines of one position."""
    runner = CliRunner()
    result = runner.invoke(cli, ["strike", "best-move", *args, "--json"])
    assert result.exit_code == 0, result.output
    text = runner.invoke(cli, ["strike", "best-move", *args])
    assert text.exit_code == 0, text.output
    return json.loads(result.stdout), text.stdout.splitlines()


def option_values(brute: BruteForce, values: dict, position: tuple, metric: int) -> list[float]:
    """Each option's value for `metric`, from the brute force's values of what follows."""
    result = []
    for option in brute.edges[position]:
        total = 0.0
        for target, q in option:
            row = target[1] if target[0] == "end" else values[target]
            total += float(q) * float(row[metric])
        result.append(total)
    return result


@pytest.fixture(scope="module")
def brute() -> tuple[BruteForce, dict]:
    game = BruteForce(2, 3, HALF, Fraction(0))
    return game, game.value_iteration()


def test_mid_turn_verdict_gives_both_win_chances(brute) -> None:
    game, values = brute
    # seat 1 has thrown: 1 die left, seat 2 holds 2, the arena shows 1 3 5 (2 + 1 + 3 = 6 dice)
    position = (0, (1, 2), (1, 3, 5), "mid", frozenset({0, 1}), (0, 0))
    stop, throw = option_values(game, values, position, 0)
    expected = (f"Throw again (win chance {percent(throw)}; stopping now: {percent(stop)})"
                if throw > stop else
                f"Stop and pass the turn (win chance {percent(stop)}; throwing again: "
                f"{percent(throw)})")
    report, text = best_move("--arena", "1 3 5", "--stocks", "1,2", "--mid-turn", "--dice", "3")
    assert report["verdict"] == expected == text[0]
    assert not text[0].startswith("best:") and text[1] == ""


def test_setup_verdict_names_the_number_to_place(brute) -> None:
    game, values = brute
    placed = (1, (2, 3), (3,), "setup", frozenset({0, 1}), (0, 0))  # seat 1 placed a 3
    chances = option_values(game, values, placed, 1)  # seat 2's, placing 1, 2, ..., 5
    new, same = chances[0], chances[2]
    assert [chances[k] for k in (1, 3, 4)] == pytest.approx([new] * 3, abs=1e-12)
    assert abs(new - same) > 1e-3
    report, _ = best_move("--setup", "--arena", "3", "--dice", "3")
    if new > same:
        assert report["verdict"] == (f"Place a new number, say 1 (win chance {percent(new)}; "
                                     f"placing a 3: {percent(same)})")
    else:
        assert report["verdict"] == (f"Place a 3 (win chance {percent(same)}; placing a 1: "
                                     f"{percent(new)})")
    first, _ = best_move("--setup", "--dice", "3")  # every first number makes the same arena
    assert first["verdict"].startswith("Place any number (win chance ")


def test_forced_throws_and_points_speak_their_unit() -> None:
    points = BruteForce(2, 3, HALF, Fraction(0), scoring="points")
    values = points.value_iteration()
    big_hit = (1, (1, 3), (), "start", frozenset({0, 1}), (0, 0))  # seat 2 throws all 3
    (expected,) = option_values(points, values, big_hit, 1)  # minus seat 2's points
    report, _ = best_move("--stocks", "1,3", "--mover", "2", "--dice", "3", "--scoring",
                          "points")
    assert report["verdict"] == f"Throw all 3 dice, the big hit ({-expected:.2f} expected points)"
    report, _ = best_move("--arena", "2", "--stocks", "2,2", "--dice", "3")
    assert report["verdict"].startswith("Throw a die (win chance ")


def test_top_limits_the_options_listed() -> None:
    every, text = best_move("--setup", "--arena", "3", "--dice", "3")
    assert len(every["options"]) == 5  # JSON lists all by default
    assert sum(line.startswith("place ") for line in text) == 5  # fewer than 8: all listed
    assert not any(line.endswith("lists them)") for line in text)
    _, top = best_move("--setup", "--arena", "3", "--dice", "3", "--top", "2")
    rows = [line for line in top if line.startswith("place ")]
    assert len(rows) == 2 and "(3 more options: --top 5 lists them)" in top
    two = CliRunner().invoke(cli, ["strike", "best-move", "--setup", "--arena", "3", "--dice",
                                   "3", "--top", "2", "--json"])
    assert [o["option"] for o in json.loads(two.stdout)["options"]] == \
        [o["option"] for o in every["options"][:2]]


@pytest.mark.parametrize("arena", ["2 4 5", "2,4,5", "245", " 5, 2 4", "2;4;5"])
def test_the_arena_as_players_type_it(arena: str) -> None:
    report, _ = best_move("--arena", arena, "--stocks", "2,3", "--dice", "4")
    assert sorted(report["position"]["arena"]) == [2, 4, 5]


@pytest.mark.parametrize(("arena", "setup", "reason"), [
    ("2x3", False, "a number showing twice is a match and is taken, so the arena never holds "
                   "two"),
    ("3 x2", False, "not counts like 'x2'"),
    ("2 X", False, "X is never in the arena: a die showing X leaves the game at once"),
    ("2 6", False, "on dice numbered 2 to 6, type one less"),
    ("255", False, "every number shows at most once"),
    ("2x3", True, "lists each die placed, one by one (3,3 for two 3s)"),
    ("two", False, "lists the dice one by one, e.g. 2 4 5"),
])
def test_counts_and_x_are_refused_with_the_reason(arena: str, setup: bool, reason: str) -> None:
    where = ("--setup",) if setup else ("--stocks", "2,3")
    result = run_cli("strike", "best-move", "--arena", arena, *where, "--dice", "4")
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and reason in lines[0], result.stderr
