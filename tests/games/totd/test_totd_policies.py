"""Time of the Daleks, the plan "re-roll every die that is not needed"
(solver/games/totd/policies.py), evaluated exactly by its own recursion: against a hand
computation, against the optimal solver where the plan has nothing to re-roll with (so both only
stop: this checks the plan's stop test, face-change chains included), against the solver's chance
that the first roll passes the stop test, and never above optimal play."""

from __future__ import annotations

from fractions import Fraction

import pytest
from totd_adventures import adventure

from solver.dice import roll
from solver.errors import InputError
from solver.games.totd.files import load_game
from solver.games.totd.model import Solver
from solver.games.totd.policies import OPTIMAL_PLAY, REROLL_UNNEEDED, Plan, parse_policy
from solver.games.totd.rules import Adventure, Doctor
from solver.games.totd.typed import parse_challenge, parse_pool

GAME = load_game()


def test_hand_computation() -> None:
    """Two Black dice, Science needed, 2 Sonic tokens: the first roll shows a Science with
    1 - (5/6)^2 = 11/36; otherwise both dice are unneeded and the tokens re-roll one (1/6)."""
    plan = Plan(adventure("Science", "black=2", sonic=2))
    assert plan.success() == Fraction(11, 36) + Fraction(25, 36) * Fraction(1, 6)


@pytest.mark.parametrize("case", [
    ("Science x2, Cunning, Tactics", "blue=3 red=2", 0, (), ("blue:Cunning", "red:Science")),
    ("Running, Diplomacy, Science", "green=2 blue=2 red=1", 1, (), ("green:Diplomacy",)),
    ("Running, Diplomacy, Tactics", "green=3 red=2", 0, (), ("green:Diplomacy", "red:Running")),
    ("Diplomacy, Strength", "green=1 red=1", 0, (), ("green:Diplomacy", "green:Strength")),
])
def test_without_re_rolls_the_plan_is_optimal_play(case) -> None:
    """No Black die, no re-roll icon, fewer than 2 tokens: stopping is the only move."""
    a = adventure(*case)
    assert Plan(a).success() == Solver(a, exact=True).p_success()


@pytest.mark.parametrize("case", [
    ("Science x2, Cunning, Tactics", "black=4 blue=2", 3, (), ("blue:Cunning",)),
    ("Running, Diplomacy, Science, Cunning", "black=2 green=2 blue=1", 5, (),
     ("green:Diplomacy", "black:Science")),
    ("Diplomacy, Tactics", "black=1 green=1", 0, (), ("green:Diplomacy", "green:Tactics")),
])
def test_first_roll_stop_test_matches_the_solver(case) -> None:
    a = adventure(*case)
    plan = Plan(a)
    pool = a.doctors[0].pool
    first = sum((p for shown, p in plan.rolls({c: n for c, n in enumerate(pool) if n})
                 if plan.met(tuple(shown.get(c, ()) for c in range(len(pool))),
                             a.doctors[0].tools.sonic)), Fraction(0))
    assert first == Solver(a, exact=True).p_first_roll()


@pytest.mark.parametrize("case", [
    ("Science x2, Cunning", "black=3 blue=2", 3, ("any black",), ()),
    ("Science x2, Cunning, Tactics", "black=4 blue=2", 4, ("2 blue", "all black"),
     ("blue:Cunning",)),
    ("Running, Strength", "green=2 red=2", 2, ("any red",), ()),
])
def test_the_plan_never_beats_optimal_play(case) -> None:
    a = adventure(*case)
    plan, best = Plan(a).success(), Solver(a, exact=True).p_success()
    assert 0 < plan <= best


def test_rolls_are_the_dice_distribution() -> None:
    plan = Plan(adventure("Science", "black=1 blue=2"))
    rolls = plan.rolls({0: 1, 2: 2})
    assert sum(p for _, p in rolls) == 1
    assert len(rolls) == len(roll(GAME.dice[0], 1)) * len(roll(GAME.dice[2], 2))
    assert all(len(shown[0]) == 1 and len(shown[2]) == 2 for shown, _ in rolls)


def test_names_and_scope() -> None:
    assert parse_policy("Re-roll every die that is not needed") == REROLL_UNNEEDED
    assert parse_policy("win") == OPTIMAL_PLAY
    for policy in (REROLL_UNNEEDED, OPTIMAL_PLAY):  # the canonical name reads back
        assert parse_policy(policy.name) == policy
    assert REROLL_UNNEEDED.name == "reroll-unneeded" and OPTIMAL_PLAY.name == "optimal"
    with pytest.raises(InputError):
        parse_policy("pray")
    helped = Adventure(GAME, parse_challenge(GAME, "Science"),
                       (Doctor(parse_pool(GAME, "black=2")), Doctor(parse_pool(GAME, "blue=1"))))
    with pytest.raises(InputError, match="one Doctor"):
        Plan(helped)
