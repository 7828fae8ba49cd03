"""The solver reproduces every golden Dalek Dice position of golden/dalek_turn.jsonl exactly.

Each line (written by golden/make_dalek_turn.py beside this file) gives a position, its only
optimal option
and its exact value, from the independent brute force ("brute force") or pinned from the solver
("solver regression pin"). Checked for every line: the exact value of the position in the
compiled turn, the best option and value `best_move` reports in floats, and the same in exact
mode.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from solver.games.dalek import report as dalek_report
from solver.games.dalek.rules import Rules, TurnState
from solver.games.dalek.turn import (
    CompiledTurn,
    PointsSolution,
    position_options,
    validate_position,
)
from solver.games.dalek.typed import parse_roll

GOLDEN = Path(__file__).parent / "golden" / "dalek_turn.jsonl"
LINES = [json.loads(text) for text in GOLDEN.read_text(encoding="utf-8").splitlines()]
ROLLS = [line for line in LINES if line["roll"] is not None]
SOURCES = ("brute force", "solver regression pin")
Solver = Callable[[str, int, str], tuple[CompiledTurn, PointsSolution]]


def params(lines: list[dict]) -> list:
    """One pytest parameter per line, named by its line number, game and roll."""
    return [pytest.param(line, id=f"line{LINES.index(line) + 1}-{line['rules']['dice']}dice-"
                                  f"{line['rules']['tie_rule']}-"
                                  f"{(line['roll'] or 'fresh').replace(' ', '_')}")
            for line in lines]


class Position:
    """A golden line, read and checked for consistency, with its solved game."""

    def __init__(self, line: dict, solve_game: Solver) -> None:
        self.line = line
        rules = line["rules"]
        self.turn, self.solution = solve_game(rules["faces"], rules["dice"], rules["tie_rule"])
        self.rules: Rules = self.turn.rules
        self.state = TurnState(**line["state"])
        self.value = Fraction(line["value"])
        self.rolled = None if line["roll"] is None else parse_roll(self.rules, line["roll"])
        assert line["source"] in SOURCES
        if self.rolled is None:
            assert self.state == self.rules.start() and line["best"] is None
        else:
            assert sum(self.rolled) == self.state.to_roll
            validate_position(self.rules, self.state)


@pytest.fixture
def position(request: pytest.FixtureRequest, solve_game: Solver) -> Position:
    """The golden line the test is parametrised with (indirect)."""
    return Position(request.param, solve_game)


def test_golden_file_is_well_formed() -> None:
    assert len(LINES) >= 20
    assert {line["source"] for line in LINES} == set(SOURCES)
    assert sum(line["rules"]["dice"] == 10 and line["source"] == "brute force"
               for line in LINES) >= 5  # positions inside the full game, from the brute force


@pytest.mark.parametrize("position", params(LINES), indirect=True)
def test_exact_value(position: Position) -> None:
    """The exact value of the position in the compiled turn (the best keep of the roll, or the
    fresh turn's expected points)."""
    turn, solution = position.turn, position.solution
    if position.rolled is None:
        value = solution.exact_value(turn.root)
    else:
        value = max((solution.exact_value(o.node) for o in
                     position_options(turn, position.state, position.rolled)),
                    default=Fraction(0))
    assert value == position.value


def _best_move(position: Position, exact: bool) -> dict:
    return dalek_report.best_move(position.turn, position.state, position.rolled, exact)


@pytest.mark.parametrize("position", params(ROLLS), indirect=True)
def test_best_move(position: Position) -> None:
    """best_move (floats): the golden best option first, strictly ahead, at the golden value."""
    report = _best_move(position, False)
    best = position.line["best"]
    if best is None:
        assert report["doctor_intervenes"] and report["value"] == 0.0 == position.value
        return
    top, value = report["best"], float(position.value)
    assert top == report["options"][0]
    assert {"keep": " ".join(top["keep"]) or "-", "action": top["action"]} == best
    assert abs(report["value"] - value) <= 1e-12 * max(1.0, value)
    assert all(o["regret"] > 0 for o in report["options"][1:])


@pytest.mark.parametrize("position", params(ROLLS), indirect=True)
def test_best_move_exact(position: Position) -> None:
    """best_move (exact): the golden best option first with the golden exact value, every other
    option with a positive exact regret."""
    report = _best_move(position, True)
    best = position.line["best"]
    if best is None:
        assert report["doctor_intervenes"] and position.value == 0
        return
    top = report["best"]
    assert top == report["options"][0]
    assert {"keep": " ".join(top["keep"]) or "-", "action": top["action"]} == best
    assert Fraction(report["value_exact"]) == position.value
    assert all(Fraction(o["regret_exact"]) > 0 for o in report["options"][1:])
