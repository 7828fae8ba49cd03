"""Whole-game outcomes (solver/finals.py and each game's outcomes.py) against brute forces in
exact rationals that import nothing from the games' rules: Pig to a small target with both seats
holding at a turn total, and a Dalek Dice-like race of fixed turns that ends at the round's end."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from solver.finals import race_finals
from solver.games.pig import policies as pp
from solver.games.pig.outcomes import pig_outcomes

TARGET, HOLDS = 8, (3, 5)


@cache
def pig_turn(hold: int, score: int) -> dict[int, Fraction]:
    """P(bank r) in a Pig turn from `score`: a 1 loses the total, 2..6 add; hold at `hold` or
    once the score would reach TARGET (written here from the rules' text)."""
    banked: dict[int, Fraction] = defaultdict(Fraction)

    def go(total: int, p: Fraction) -> None:
        if total > 0 and (total >= hold or score + total >= TARGET):
            banked[total] += p
            return
        banked[0] += p / 6
        for face in range(2, 7):
            go(total + face, p / 6)

    go(0, Fraction(1))
    return dict(banked)


def pig_brute_force() -> dict[tuple[int, int, int], Fraction]:
    """P(final scores, turns), by expanding every game turn by turn up to 40 turns (the rest,
    below 1e-9 here, is compared with the forward pass's cells up to 40 turns only)."""
    result: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    frontier = {(0, 0): Fraction(1)}
    for turn in range(1, 41):
        seat = (turn - 1) % 2
        following: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (s1, s2), p in frontier.items():
            mine = s1 if seat == 0 else s2
            for r, q in pig_turn(HOLDS[seat], mine).items():
                after = (s1 + r, s2) if seat == 0 else (s1, s2 + r)
                if after[seat] >= TARGET:
                    result[(*after, turn)] += p * q
                else:
                    following[after] += p * q
        frontier = following
    return result


def test_pig_outcomes_match_the_brute_force() -> None:
    duel = pp.PigDuel(TARGET, policies=(pp.PigPolicy(HOLDS[0]), pp.PigPolicy(HOLDS[1])))
    outcomes = pig_outcomes(duel, None, "")
    exact = pig_brute_force()
    cells = {(int(a), int(b), int(t)): p for a, b, t, p in zip(
        outcomes.columns["score_1"], outcomes.columns["score_2"], outcomes.columns["turns"],
        outcomes.probability) if t <= 40}
    assert set(cells) <= set(exact)  # past its residual the pass leaves out cells below 1e-15
    for key, p in exact.items():
        assert cells.get(key, 0.0) == pytest.approx(float(p), rel=1e-9, abs=1e-14), key
    assert outcomes.probability.sum() == pytest.approx(1.0, abs=1e-13)


def test_pig_winner_marginal_equals_the_engines_win_chance() -> None:
    """The forward pass and the cyclic engine value the same duel by different routes."""
    duel = pp.PigDuel(30, policies=(pp.PigPolicy(None), pp.PigPolicy(12)))
    solution = pp.solve_duel(duel)
    outcomes = pig_outcomes(duel, solution, "")
    codes, p = outcomes.distribution(outcomes.statistics[0])
    assert codes.tolist() == [1, 2]
    assert p.tolist() == pytest.approx([float(c) for c in pp.win_chances(duel, solution)],
                                       abs=1e-12)


def test_a_round_race_matches_the_brute_force() -> None:
    """Two seats bank 0, 1 or 3 points a turn (different chances), the game ends after seat
    2's turn once someone has 4: the forward pass against a direct expansion."""
    turns = [[Fraction(1, 2), Fraction(1, 4), 0, Fraction(1, 4)],
             [Fraction(1, 3), Fraction(1, 3), 0, Fraction(1, 3)]]
    table = np.array([[float(x) for x in row] for row in turns])
    finals = race_finals(lambda seat, s1, s2: np.broadcast_to(table[seat], (len(s1), 4)), 4,
                         lambda s1, s2, seat: (seat == 1) & (np.maximum(s1, s2) >= 4), 12)
    exact: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    frontier = {(0, 0): Fraction(1)}
    for rounds in range(1, 30):
        following: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (s1, s2), p in frontier.items():
            for a, pa in enumerate(turns[0]):
                for b, pb in enumerate(turns[1]):
                    if pa and pb:
                        after = (s1 + a, s2 + b)
                        if max(after) >= 4:
                            exact[(*after, 2 * rounds)] += p * pa * pb
                        else:
                            following[after] += p * pa * pb
        frontier = following
    got = {(int(a), int(b), int(t)): p for a, b, t, p in zip(
        finals.score_1, finals.score_2, finals.turns, finals.probability) if t < 60}
    assert set(got) <= set(exact)
    for key, p in exact.items():
        assert got.get(key, 0.0) == pytest.approx(float(p), rel=1e-9, abs=1e-14), key
