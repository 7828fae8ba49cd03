"""Our Pig simulator: seeded turns and games land inside the exact intervals."""


from __future__ import annotations

import numpy as np
from intervals import Z, binomial_z, inside

from solver.dice import generator
from solver.games.pig import policies as pp
from solver.games.pig.simulator import pig_games, pig_turns


def test_pig_turns_land_inside_the_exact_interval() -> None:
    samples = pig_turns(20, 100, 200_000, generator(5))
    z, p_value = inside(samples, pp.parse_policy("hold 20").turn_distribution(100))
    assert abs(z) < Z and p_value > 0.001


def test_pig_games_land_inside_the_exact_interval() -> None:
    target, n = 30, 20_000
    duel = pp.PigDuel(target, policies=(pp.PigPolicy(None), pp.PigPolicy(20)))
    solution = pp.solve_duel(duel)
    table = pp.hold_table(duel, solution, 0)
    scores, winner, _ = pig_games([lambda m, t, k: table[m, t, np.minimum(k, target)],
                                lambda m, t, k: k >= 20], target, n, generator(8))
    assert np.all(scores.max(axis=1) >= target) and np.all(scores.min(axis=1) < target)
    assert np.array_equal(winner, scores.argmax(axis=1))
    p_first = pp.win_chances(duel, solution)[0]
    assert abs(binomial_z(int((winner == 0).sum()), n, p_first)) < Z
