"""Dalek Dice fixtures: turns compiled (and solved) once per session."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from solver.games.dalek import arrays
from solver.games.dalek.files import parse_rules
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


@cache
def _pairs(faces: str = "H4 H2 D3 D2 DOC EXT", dice: int = 10, tie_rule: str = "ge"
           ) -> arrays.Pairs:
    return arrays.Pairs.of(compile_turn(parse_rules(faces, dice=dice, tie_rule=tie_rule)))


@pytest.fixture(scope="session")
def pairs_of() -> Callable[..., arrays.Pairs]:
    """(faces, dice, tie rule; the game's own by default) -> the compiled turn's (state, roll)
    pairs, once per session for the files that evaluate policies on them."""
    return _pairs
