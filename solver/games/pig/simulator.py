"""Pig played by its rules with seeded dice: turns from 0 and whole games, side by side."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from solver.errors import InputError


def pig_turns(hold: int, target: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """Banked totals of `count` Pig turns from a score of 0, holding once the turn total
    reaches `hold` (or the target): rules 15 and 16."""
    if hold < 1:
        raise InputError(f"hold needs a turn total of at least 1, not {hold}")
    stop = min(hold, target)
    total = np.zeros(count, dtype=np.int64)
    live = np.arange(count)
    while len(live):
        face = rng.integers(1, 7, size=len(live))
        pig = face == 1
        total[live[pig]] = 0
        total[live[~pig]] += face[~pig]
        live = live[~pig & (total[live] < stop)]
    return total


def pig_games(holds: Sequence[Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]],
              target: int, count: int, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray]:
    """`count` games of Pig to `target`. `holds[seat](mine, theirs, total)` says whether that
    seat holds with these banked scores and turn total (arrays). Returns the final scores
    (games x 2) and the winner (0 or 1): the first to reach the target wins at once."""
    scores = np.zeros((count, 2), dtype=np.int64)
    mover = np.zeros(count, dtype=np.int64)
    total = np.zeros(count, dtype=np.int64)
    winner = np.full(count, -1, dtype=np.int64)
    live = np.arange(count)
    while len(live):
        face = rng.integers(1, 7, size=len(live))
        pig = face == 1
        total[live] = np.where(pig, 0, total[live] + face)
        who = mover[live]
        mine, theirs = scores[live, who], scores[live, 1 - who]
        hold = np.zeros(len(live), dtype=bool)
        for seat in (0, 1):
            mask = ~pig & (who == seat)
            hold[mask] = holds[seat](mine[mask], theirs[mask], total[live[mask]]) | (
                mine[mask] + total[live[mask]] >= target)
        banked = live[hold]
        scores[banked, mover[banked]] += total[banked]
        won = banked[scores[banked, mover[banked]] >= target]
        winner[won] = mover[won]
        passing = live[pig | hold]
        total[passing] = 0
        mover[passing] = 1 - mover[passing]
        live = live[winner[live] < 0]
    return scores, winner
