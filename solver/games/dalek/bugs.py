"""Deliberately wrong Dalek Dice simulators: the corpus `verify` must reject (docs/verify.md).
Each is the rules' play with one rule changed."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.dice import Die
from solver.games.dalek.arrays import Play
from solver.games.dalek.rules import (
    DOCTOR,
    DOCTORS,
    EXTERMINATES,
    THIRD,
    Rules,
    exterminate,
    reaches_target,
)


class BonusWhenStopping(Play):
    """Bug: the 5-point bonus (rule 8: every die kept) is also given when stopping."""

    def stop_score(self, humans: np.ndarray, daleks: np.ndarray) -> np.ndarray:
        return self.rules.no_dice_left_score(humans, daleks)


class ExterminateBeatsDoctor(Play):
    """Bug: a third Doctor and a third Exterminate on one roll score as Exterminate (rule 5:
    the Doctor wins, 0 points)."""

    def intervenes(self, after: np.ndarray) -> np.ndarray:
        return super().intervenes(after) & ~exterminate(after[..., EXTERMINATES])


class DoctorOnSecond(Play):
    """Bug: the Doctor intervenes at the second Doctor, not the third (rule 5, off by one)."""

    def intervenes(self, after: np.ndarray) -> np.ndarray:
        return after[..., DOCTORS] >= THIRD - 1


def loaded_doctor(rules: Rules) -> Play:
    """Bug: the Doctor face comes up twice as often as any other face."""
    weights = [w * (2 if f == DOCTOR else 1) for f, w in zip(rules.die.faces, rules.die.weights)]
    return Play(rules, Die(rules.die.name, rules.die.faces, tuple(weights)))


BUGS: dict[str, Callable[[Rules], Play]] = {
    "loaded-doctor": loaded_doctor,
    "bonus-when-stopping": BonusWhenStopping,
    "exterminate-beats-doctor": ExterminateBeatsDoctor,
    "doctor-on-second": DoctorOnSecond,
}


def no_last_turn(score_1: np.ndarray, score_2: np.ndarray, seat: int, target: int
                 ) -> np.ndarray:
    """Bug (a race's): the game ends as soon as a seat reaches the target, so seat 2 gets no
    last turn after seat 1 reaches it (rule 10: the round is played out)."""
    return reaches_target(np.where(seat == 0, score_1, score_2), target)


RACE_BUGS = {"no-last-turn": no_last_turn}  # bugs of the race, not of a turn
