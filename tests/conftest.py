"""Shared fixtures: detection of the solver bugs the Dalek Dice cross-checks found (issue 2).

While a bug is present, a test that disagrees with the brute force only where that bug can reach
is reported as xfail (naming the bug); any other disagreement fails. Once the bug is fixed the
detection turns off by itself and every check is strict again. Each bug also has a reproducer
test marked xfail(strict=True) that starts failing (XPASS) when the fix lands: then delete its
mark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import pytest

from solver.games import dalek_report
from solver.games.dalek_dice import TurnState, parse_roll, parse_rules
from solver.games.dalek_turn import CompiledTurn, PointsSolution, compile_turn, place, solve_points

# Bug A: dalek_dice.set_aside adds two NumPy boolean arrays, which is a logical OR, so a roll
# showing both a Doctor and an Exterminate sets aside one die instead of two and the solver rolls
# one die too many afterwards (2 dice rolling DOC EXT: to_roll 1 instead of 0).
SET_ASIDE_BUG = "known solver bug A: a Doctor and an Exterminate in one roll set aside only one die"
# Bug B: best_move's regret loop turns rows[0]["value_exact"] into a string before the later rows
# subtract from it.
BEST_MOVE_EXACT_BUG = "known solver bug B: best_move(exact=True) raises TypeError with 2+ options"


def set_aside_bug_present() -> bool:
    """Bug A: 2 dice rolling Doctor + Exterminate must leave no die to roll (rule 3)."""
    rules = parse_rules(dice=2)
    after, _ = place(rules, rules.start(), parse_roll(rules, "DOC EXT"), (0,) * 6)
    return after.to_roll != 0


def best_move_exact_bug_present() -> bool:
    """Bug B: 2 dice rolled D3 D2 have several options (keep both, keep one and stop/roll)."""
    rules = parse_rules(dice=2)
    turn = compile_turn(rules)
    try:
        dalek_report.best_move(turn, TurnState(2), parse_roll(rules, "D3 D2"), exact=True)
    except TypeError:
        return True
    return False


def set_aside_bug_reaches(faces: Sequence[str], state: TurnState) -> bool:
    """Whether bug A can touch the value of a position: a roll of two or more dice showing a
    Doctor and an Exterminate can come (now or later) before a third Doctor ends the turn."""
    return ("DOC" in faces and "EXT" in faces and state.to_roll >= 2 and state.doctors < 2)


@dataclass(frozen=True)
class KnownBugs:
    """Which known solver bugs are present in the working tree."""

    set_aside: bool
    best_move_exact: bool

    def settle(self, faces: Sequence[str], disagreements: Sequence[tuple[TurnState, object]]
               ) -> None:
        """Fail on any disagreement bug A cannot reach; xfail if bug A explains them all."""
        unexplained = [d for d in disagreements if not set_aside_bug_reaches(faces, d[0])]
        assert not unexplained, f"solver and brute force disagree: {unexplained[:5]}"
        if disagreements:
            assert self.set_aside, f"solver and brute force disagree: {disagreements[:5]}"
            pytest.xfail(f"{len(disagreements)} disagreements, all reachable by {SET_ASIDE_BUG}")

    def excuse_best_move(self, error: TypeError) -> None:
        """xfail on the TypeError of bug B while it is present; otherwise re-raise."""
        if self.best_move_exact:
            pytest.xfail(BEST_MOVE_EXACT_BUG)
        raise error


@pytest.fixture(scope="session")
def known_bugs() -> KnownBugs:
    return KnownBugs(set_aside_bug_present(), best_move_exact_bug_present())


@cache
def _solve(faces: str, dice: int, tie_rule: str) -> tuple[CompiledTurn, PointsSolution]:
    turn = compile_turn(parse_rules(faces, dice=dice, tie_rule=tie_rule))
    return turn, solve_points(turn, exact=True)


@pytest.fixture(scope="session")
def solve_game() -> Callable[[str, int, str], tuple[CompiledTurn, PointsSolution]]:
    """(faces, dice, tie rule) -> the compiled turn and its exact solution, computed once per
    session (the 10-dice game takes seconds)."""
    return _solve
