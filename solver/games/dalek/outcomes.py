"""How Dalek Dice duels end under two fixed turn policies: the exact distribution of the final
scores and the turns taken (solver/finals.py's forward pass). A fixed turn policy plays every
turn alike, so each seat's turn is one distribution of points (`policies.distribution`, under
the rules or a deliberately wrong simulator's `Play`); the game ends after seat 2's turn once a
seat has reached the target (rule 10), or where a wrong simulator's end rule says (bugs.py)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.finals import race_finals
from solver.games.dalek.arrays import Play
from solver.games.dalek.policies import TurnPolicy, distribution
from solver.games.dalek.rules import reaches_target
from solver.outcomes import SCORE_RACE, TIE, Outcomes

Ends = Callable[[np.ndarray, np.ndarray, int, int], np.ndarray]  # (s1, s2, seat, target)


def round_over(score_1: np.ndarray, score_2: np.ndarray, seat: int, target: int) -> np.ndarray:
    """Rule 10 for two seats: the game ends once the round is played out (after seat 2's
    turn) with a seat at the target or above."""
    return (seat == 1) & reaches_target(np.maximum(score_1, score_2), target)


def duel_outcomes(policies: tuple[TurnPolicy, TurnPolicy], target: int, title: str,
                  play: Play | None = None, ends: Ends = round_over) -> Outcomes:
    """Every way a race of these two turn policies to `target` ends (final scores, turns)."""
    rows = [np.array([float(p) for p in distribution(policy, play)]) for policy in policies]
    width = max(len(r) for r in rows)
    table = np.zeros((2, width))
    for seat, row in enumerate(rows):
        table[seat, :len(row)] = row

    def turns(seat: int, s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
        return np.broadcast_to(table[seat], (len(s1), width))

    finals = race_finals(turns, width, lambda s1, s2, seat: ends(s1, s2, seat, target),
                         target + width)
    # rule 11: the highest score wins; equal highest scores tie
    winner = np.where(finals.score_1 > finals.score_2, 1,
                      np.where(finals.score_2 > finals.score_1, 2, TIE))
    return Outcomes(title, "game", {"winner": winner, "score_1": finals.score_1,
                                    "score_2": finals.score_2, "turns": finals.turns},
                    finals.probability, SCORE_RACE, finals.residual)
