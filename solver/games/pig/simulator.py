"""Pig played by its rules (rules.py) with seeded dice: turns from 0 and whole games, side by
side."""

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


def pig_turns(hold: int, target: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """Banked totals of `count` Pig turns from a score of 0, holding once the turn total
    reaches `hold` (or the target)."""
    if hold < 1:
        raise InputError(f"hold needs a turn total of at least 1, not {hold}")
    total = np.zeros(count, dtype=np.int64)
    live = np.arange(count)
    while len(live):
        face = _throw(rng, len(live))
        total[live] = roll(total[live], face)
        held = (total[live] >= hold) | must_hold(0, total[live], target)
        live = live[~ends_turn(face) & ~held]
    return total


def pig_games(holds: Sequence[Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]],
              target: int, count: int, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray]:
    """`count` games of Pig to `target`. `holds[seat](mine, theirs, total)` says whether that
    seat holds with these banked scores and turn total (arrays). Returns the final scores
    (games x 2) and the winner (0 or 1)."""
    scores = np.zeros((count, PLAYERS), dtype=np.int64)
    mover = np.zeros(count, dtype=np.int64)
    total = np.zeros(count, dtype=np.int64)
    winner = np.full(count, -1, dtype=np.int64)
    live = np.arange(count)
    while len(live):
        face = _throw(rng, len(live))
        total[live] = roll(total[live], face)
        pig = ends_turn(face)
        who = mover[live]
        mine, theirs = scores[live, who], scores[live, opponent(who)]
        hold = np.zeros(len(live), dtype=bool)
        for seat in range(PLAYERS):
            mask = ~pig & (who == seat)
            hold[mask] = holds[seat](mine[mask], theirs[mask], total[live[mask]]) | must_hold(
                mine[mask], total[live[mask]], target)
        banked = live[hold]
        scores[banked, mover[banked]] = bank(scores[banked, mover[banked]], total[banked])
        won = banked[has_won(scores[banked, mover[banked]], target)]
        winner[won] = mover[won]
        passing = live[pig | hold]
        total[passing] = 0
        mover[passing] = opponent(mover[passing])
        live = live[winner[live] < 0]
    return scores, winner


def _throw(rng: np.random.Generator, count: int) -> np.ndarray:
    """`count` throws of the die."""
    return rng.integers(FACES.start, FACES.stop, size=count)
