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
from solver.games.dalek.policies import Policy, TurnPolicy, distribution
from solver.games.dalek.race import RaceValues
from solver.games.dalek.rules import reaches_target
from solver.outcomes import SCORE_RACE, TIE, Outcomes

Ends = Callable[[np.ndarray, np.ndarray, int, int], np.ndarray]  # (s1, s2, seat, target)


def round_over(score_1: np.ndarray, score_2: np.ndarray, seat: int, target: int) -> np.ndarray:
    """Rule 10 for two seats: the game ends once the round is played out (after seat 2's
    turn) with a seat at the target or above."""
    return (seat == 1) & reaches_target(np.maximum(score_1, score_2), target)


def duel_outcomes(policies: tuple[Policy, Policy], target: int, title: str,
                  play: Play | None = None, ends: Ends = round_over,
                  values: RaceValues | None = None) -> Outcomes:
    """Every way a race of these two policies to `target` ends (final scores, turns). A seat
    playing "win" plays each position's optimal turn by `values` (the duel's race solved), as
    the simulator's `RaceSeat` does."""
    fixed = [policy for policy in policies if isinstance(policy, TurnPolicy)]
    width = values.race.turn.graph.n_results if values is not None else 0
    rows = [np.array([float(p) for p in distribution(policy, play)]) for policy in fixed]
    width = max([width, *(len(r) for r in rows)])
    table = np.zeros((2, width))
    for seat, policy in enumerate(policies):
        if isinstance(policy, TurnPolicy):
            row = rows[fixed.index(policy)]
            table[seat, :len(row)] = row
    optimal = {seat: _Optimal(values, seat, width) for seat, policy in enumerate(policies)
               if not isinstance(policy, TurnPolicy)}

    def turns(seat: int, s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
        if seat in optimal:
            return optimal[seat](s1, s2)
        return np.broadcast_to(table[seat], (len(s1), width))

    finals = race_finals(turns, width, lambda s1, s2, seat: ends(s1, s2, seat, target),
                         target + width)
    # rule 11: the highest score wins; equal highest scores tie
    winner = np.where(finals.score_1 > finals.score_2, 1,
                      np.where(finals.score_2 > finals.score_1, 2, TIE))
    return Outcomes(title, "game", {"winner": winner, "score_1": finals.score_1,
                                    "score_2": finals.score_2, "turns": finals.turns},
                    finals.probability, SCORE_RACE, finals.residual)


class _Optimal:
    """A "win" seat's turn at each pair of scores: the distribution of the optimal turn for the
    worth the solved race gives each final score there (cached per position)."""

    def __init__(self, values: RaceValues, seat: int, width: int) -> None:
        self.values, self.seat, self.width = values, seat, width
        self.known: dict[tuple[int, int], np.ndarray] = {}

    def __call__(self, s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
        keys = list(zip(s1.tolist(), s2.tolist()))
        new = sorted(set(keys) - set(self.known))
        race = self.values.race
        for lo in range(0, len(new), 256):
            chunk = new[lo:lo + 256]
            utilities = np.stack([self.values.utilities(race.canonical(k, self.seat))
                                  for k in chunk])
            found = race.optimal_turn.respond(utilities).distributions()
            self.known.update(zip(chunk, found))
        result = np.zeros((len(keys), self.width))
        for r, key in enumerate(keys):
            row = self.known[key]
            result[r, :len(row)] = row
        return result
