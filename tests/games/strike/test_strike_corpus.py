"""The Strike bug corpus (solver/games/strike/bugs.py): both seats stop as soon as allowed, 2
players, 9 dice each. Each bug is a throw model the exact solver states, so the size at which
the verdict on (winner, winner's stock) reaches power 0.99 at alpha 0.001 is computed; two seeded
runs of our simulator with the bug at that size are rejected (a check that the simulator plays
the bug the exact model describes; a game takes milliseconds, so ten runs would take minutes)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from solver.dice import generator
from solver.games.strike.bugs import BUGS
from solver.games.strike.checks import game_outcomes
from solver.games.strike.policies import STOP, StrikeDuel, outcome_chances, solve_duel
from solver.games.strike.simulator import strike_games
from solver.verdicts import judge, plan

# bug -> games for power 0.99 at alpha 0.001 (docs/verify.md)
STATED = {"always-hit": 1224, "never-hit": 532, "struck-dice-leave": 134,
          "thrown-dice-miss": 823}
GAME = StrikeDuel(policies=(STOP, STOP))


@cache
def outcomes(bug: str | None = None):
    game = GAME if bug is None else replace(GAME, **BUGS[bug], _fixed={})
    return game, game_outcomes(game, outcome_chances(game, solve_duel(game)), str(bug))


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_stated_sizes_are_where_the_power_reaches_099(bug: str) -> None:
    assert plan(outcomes()[1], outcomes(bug)[1], 0.001)["combined"] == STATED[bug]


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_each_wrong_simulator_is_rejected_at_its_stated_size(bug: str) -> None:
    wrong = outcomes(bug)[0]
    for seed in range(2):
        winner, stock, _ = strike_games(wrong, None, STATED[bug], generator(800 + seed))
        sample = {"winner": winner + 1, "winner_stock": stock}
        assert judge(outcomes()[1], sample, 0.001, "pearson", 0)["verdict"] == "rejected"
