"""Pig played by its rules (rules.py) with seeded dice: turns from 0 and whole games, side by
side. `PigPlay` is how the rules are played: the simulator and the exact passes of outcomes.py
both play through it, and bugs.py overrides one rule at a time to make deliberately wrong
simulators."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from solver.errors import InputError
from solver.games.pig.rules import (
    FACES,
    PLAYERS,
    bank,
    ends_turn,
    has_won,
    must_hold,
    opponent,
    roll,
)

# hold(mine, theirs, total) -> whether the seat holds (arrays of banked scores, turn totals)
Hold = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


class PigPlay:
    """Pig's rules as played: the die and each rule of rules.py that a turn or a game uses."""

    faces: tuple[int, ...] = tuple(FACES)  # the sides of the die thrown, each equally likely

    def ends_turn(self, face):
        return ends_turn(face)

    def roll(self, total, face):
        return roll(total, face)

    def must_hold(self, score, total, target: int):
        return must_hold(score, total, target)

    def game_over(self, score_1: np.ndarray, score_2: np.ndarray, seat: int | np.ndarray,
                  target: int) -> np.ndarray:
        """Reading 15: the game ends as soon as the seat that just moved reaches the target."""
        return has_won(np.where(np.asarray(seat) == 0, score_1, score_2), target)


def pig_turns(hold: int, target: int, count: int, rng: np.random.Generator,
              play: PigPlay | None = None) -> np.ndarray:
    """Banked totals of `count` Pig turns from a score of 0, holding once the turn total
    reaches `hold` (or the target)."""
    if hold < 1:
        raise InputError(f"hold needs a turn total of at least 1, not {hold}")
    play = PigPlay() if play is None else play
    total = np.zeros(count, dtype=np.int64)
    live = np.arange(count)
    while len(live):
        face = _throw(rng, len(live), play)
        total[live] = play.roll(total[live], face)
        held = (total[live] >= hold) | play.must_hold(0, total[live], target)
        live = live[~play.ends_turn(face) & ~held]
    return total


def pig_games(holds: Sequence[Hold], target: int, count: int, rng: np.random.Generator,
              play: PigPlay | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`count` games of Pig to `target`. `holds[seat](mine, theirs, total)` says whether that
    seat holds with these banked scores and turn total (arrays). Returns the final scores
    (games x 2), the winner (0 or 1; -1 for a tie, which only a wrong `play` makes) and the
    turns each game took."""
    play = PigPlay() if play is None else play
    scores = np.zeros((count, PLAYERS), dtype=np.int64)
    mover = np.zeros(count, dtype=np.int64)
    total = np.zeros(count, dtype=np.int64)
    turns = np.zeros(count, dtype=np.int64)
    over = np.zeros(count, dtype=bool)
    live = np.arange(count)
    while len(live):
        face = _throw(rng, len(live), play)
        total[live] = play.roll(total[live], face)
        pig = play.ends_turn(face)
        who = mover[live]
        mine, theirs = scores[live, who], scores[live, opponent(who)]
        hold = np.zeros(len(live), dtype=bool)
        for seat in range(PLAYERS):
            mask = ~pig & (who == seat)
            hold[mask] = holds[seat](mine[mask], theirs[mask], total[live[mask]]) | \
                play.must_hold(mine[mask], total[live[mask]], target)
        passing = live[pig | hold]  # the turn total after a 1 is 0 (unless the play is wrong)
        scores[passing, mover[passing]] = bank(scores[passing, mover[passing]], total[passing])
        turns[passing] += 1
        over[passing] = play.game_over(scores[passing, 0], scores[passing, 1], mover[passing],
                                       target)
        total[passing] = 0
        mover[passing] = opponent(mover[passing])
        live = live[~over[live]]
    winner = np.where(scores[:, 0] > scores[:, 1], 0, np.where(scores[:, 1] > scores[:, 0], 1,
                                                                 -1))
    return scores, winner, turns


def _throw(rng: np.random.Generator, count: int, play: PigPlay) -> np.ndarray:
    """`count` throws of the die."""
    faces = np.asarray(play.faces)
    return faces[rng.integers(0, len(faces), size=count)]
