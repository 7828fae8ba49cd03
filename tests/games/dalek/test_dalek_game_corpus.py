"""The Dalek Dice bug corpus in whole races (verify dalek --duel): points against points to 60,
each bug in both seats (and the race's own bug, no-last-turn). The exact outcomes of each wrong
simulator come from the same forward pass (dalek/outcomes.py), so the size for power 0.99 of the
Holm verdict at alpha 0.001 is computed; ten seeded runs at that size are rejected (at least
nine: for power 0.99 that fails with probability below 0.005)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from solver.dice import generator
from solver.games.dalek import arrays, duels
from solver.games.dalek import policies as dp
from solver.games.dalek.bugs import BUGS, RACE_BUGS
from solver.games.dalek.files import parse_rules
from solver.games.dalek.outcomes import duel_outcomes, round_over
from solver.games.dalek.simulator import FixedSeat, dalek_games
from solver.games.dalek.turn import compile_turn
from solver.verdicts import judge, plan

# bug -> games for power 0.99 at alpha 0.001, points against points to 60 (docs/verify.md)
STATED = {"bonus-when-stopping": 1457, "doctor-on-second": 28, "exterminate-beats-doctor": 1466,
          "loaded-doctor": 31, "no-last-turn": 21}


@cache
def points() -> dp.TurnPolicy:
    return dp.points_policy(arrays.Pairs.of(compile_turn(parse_rules())))


@cache
def declared():
    return duel_outcomes((points(), points()), 60, "points against points")


def wrong(bug: str):
    play = BUGS[bug](points().rules) if bug in BUGS else None
    return play, RACE_BUGS.get(bug, round_over)


@pytest.mark.parametrize("bug", sorted(STATED))
def test_stated_sizes_are_where_the_power_reaches_099(bug: str) -> None:
    play, ends = wrong(bug)
    outcomes = duel_outcomes((points(), points()), 60, bug, play, ends)
    assert plan(declared(), outcomes, 0.001)["combined"] == STATED[bug]


@pytest.mark.parametrize("bug", sorted(STATED))
def test_each_wrong_simulator_is_rejected_at_its_stated_size(bug: str) -> None:
    play, _ = wrong(bug)
    rejected = 0
    for seed in range(10):
        rng = generator(700 + seed)
        seats = [FixedSeat(points(), rng, play), FixedSeat(points(), rng, play)]
        scores, winner, turns = dalek_games(seats, 60, STATED[bug], RACE_BUGS.get(bug))
        sample = {"winner": np.where(winner < 0, 0, winner + 1), "score_1": scores[:, 0],
                  "score_2": scores[:, 1], "turns": turns}
        rejected += judge(declared(), sample, 0.001, "pearson", 0)["verdict"] == "rejected"
    assert rejected >= 9, (bug, rejected)


def test_a_win_seats_outcomes_agree_with_the_race_solve() -> None:
    """A seat playing win plays each position's optimal turn: the forward pass's winner
    distribution equals the solved duel's chances (3 dice, race to 12)."""
    pairs = arrays.Pairs.of(compile_turn(parse_rules(dice=3)))
    policies = (dp.WIN, dp.keep_daleks(pairs, 4))
    duel = duels.solve_duel(pairs, policies, 12)
    outcomes = duel_outcomes(policies, 12, "", values=duel.values)
    codes, p = outcomes.distribution(outcomes.statistics[0])
    seats = duel.chances()
    expected = {0: seats[0]["p_tie"], 1: seats[0]["p_win"], 2: seats[1]["p_win"]}
    assert dict(zip(codes.tolist(), p.tolist())) == pytest.approx(expected, abs=1e-12)
