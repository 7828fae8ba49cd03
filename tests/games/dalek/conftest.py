"""Dalek Dice fixtures: turns compiled and solved once per session."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from solver.games.dalek.rules import parse_rules
from solver.games.dalek.turn import CompiledTurn, PointsSolution, compile_turn, solve_points


@cache
def _solve(faces: str, dice: int, tie_rule: str) -> tuple[CompiledTurn, PointsSolution]:
    turn = compile_turn(parse_rules(faces, dice=dice, tie_rule=tie_rule))
    return turn, solve_points(turn, exact=True)


@pytest.fixture(scope="session")
def solve_game() -> Callable[[str, int, str], tuple[CompiledTurn, PointsSolution]]:
    """(faces, dice, tie rule) -> a Dalek Dice turn compiled and solved exactly, once per
    session (the 10-dice game takes seconds, and several test files use it)."""
    return _solve
