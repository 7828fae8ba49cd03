"""Strike with a policy per seat (solver/games/strike/policies.py): all-optimal seats give the
plain game's values; the outcome distribution (winner, winner's dice) is exact and adds up to
the win chances; a best response never does worse than the fixed policy it replaces."""

from __future__ import annotations

import pytest

from solver.engine.cyclic import solve
from solver.errors import InputError
from solver.games.strike.model import Strike
from solver.games.strike.policies import (
    OPTIMAL,
    STOP,
    StrikeDuel,
    StrikePolicy,
    outcome_chances,
    parse_policy,
    solve_duel,
    stop_placement,
    win_chances,
)


def test_all_optimal_is_the_plain_game() -> None:
    duel = StrikeDuel(dice=3)
    plain = Strike(dice=3)
    expected = solve(plain, plain.start(), exact=True).exact_values(plain.start())
    assert win_chances(duel, solve_duel(duel, exact=True)) == list(expected)


@pytest.mark.parametrize("policies", [(STOP, OPTIMAL), (OPTIMAL, STOP), (STOP, STOP)])
def test_outcomes_add_up_to_the_win_chances(policies: tuple[StrikePolicy, StrikePolicy]
                                             ) -> None:
    duel = StrikeDuel(dice=3, policies=policies)
    solution = solve_duel(duel, exact=True)
    outcomes = outcome_chances(duel, solution)
    assert sum(outcomes) == 1
    stocks = range(duel.layout.stocks)
    for seat, p in enumerate(win_chances(duel, solution)):
        assert sum(outcomes[duel.layout.outcome(seat, k)] for k in stocks) == p
        assert not outcomes[duel.layout.outcome(seat, 0)]  # a winner holds at least one die


def test_best_response_beats_stopping() -> None:
    stop = win_chances(*_solved(StrikeDuel(policies=(STOP, STOP))))[0]
    best = win_chances(*_solved(StrikeDuel(policies=(OPTIMAL, STOP))))[0]
    assert best > stop


def _solved(duel: StrikeDuel):
    return duel, solve_duel(duel)


def test_names_and_placements() -> None:
    assert parse_policy("Win") == OPTIMAL and parse_policy("stop as soon as allowed") == STOP
    for policy in (STOP, OPTIMAL):
        assert parse_policy(policy.name) == policy
    with pytest.raises(InputError):
        parse_policy("throw twice")
    assert stop_placement(()) == 1 and stop_placement((1, 1)) == 3  # arena 1, 2 shows
    with pytest.raises(InputError, match="win scoring"):
        StrikeDuel(scoring="points")
