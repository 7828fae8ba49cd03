"""Deliberately wrong Pig simulators: the corpus `verify pig` must reject (docs/verify.md). Each
is the rules' play (`PigPlay`) with one rule changed, as a simulator author might get it wrong."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.games.pig.rules import PIG, SIDES, has_won
from solver.games.pig.simulator import PigPlay


class FiveSidedDie(PigPlay):
    """Bug: the die shows 1 to 5, never 6 (`randint(1, 6)` with an exclusive upper end)."""

    faces = tuple(range(1, SIDES))


class KeepTotalOnOne(PigPlay):
    """Bug: a 1 ends the turn but the turn total is banked, not lost."""

    def roll(self, total, face):
        return np.where(np.asarray(face) == PIG, total, super().roll(total, face))


class NoAutomaticHold(PigPlay):
    """Bug: a turn total that reaches the goal is not held at once (reading 16): the player
    rolls on until the policy's own threshold, and may lose it all on a 1."""

    def must_hold(self, score, total, target: int):
        return np.zeros(np.broadcast(score, total).shape, dtype=bool)


class LastTurnForSecond(PigPlay):
    """Bug: the game ends at the end of a round (as in Dalek Dice), so seat 2 still plays once
    after seat 1 reaches the goal; the higher score wins, equal scores tie."""

    def game_over(self, score_1, score_2, seat, target: int):
        return (np.asarray(seat) == 1) & has_won(np.maximum(score_1, score_2), target)


BUGS: dict[str, Callable[[], PigPlay]] = {
    "five-sided-die": FiveSidedDie,
    "keep-total-on-one": KeepTotalOnOne,
    "no-automatic-hold": NoAutomaticHold,
    "last-turn-for-second": LastTurnForSecond,
}
