"""Pig strategy rules (issue 15, the calibration): the fixed-policy evaluator against the engine
and a direct rational solve, the published figures, optimal play as a bound, the card's values
recomputed, a seeded simulation, a repeatable search, and the commands."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from helpers import run_cli
from intervals import Z, binomial_z

from solver.dice import generator
from solver.games.pig import fixed
from solver.games.pig import policies as pp
from solver.games.pig import rulecard as rc
from solver.games.pig import rulefamilies as rf
from solver.games.pig.simulator import pig_games
from solver.rulesearch import EXHAUSTIVE, search


@pytest.fixture(scope="module")
def judge40() -> rf.Judge:
    return rf.Judge(40)


def value_iteration(turns_a: np.ndarray, turns_b: np.ndarray) -> tuple[float, float]:
    """The same chances as fixed.duel by plain iteration of W_A = a.W_B, W_B = b.W_A over every
    pair of scores at once (independent of its anti-diagonal sweep)."""
    target, _, width = turns_a.shape
    w_a, w_b = np.zeros((target, target)), np.zeros((target, target))
    i, j, r = np.ix_(range(target), range(target), range(width))
    for _ in range(100_000):
        pad_b = np.vstack([w_b, np.ones((width, target))])  # A has reached the goal
        pad_a = np.hstack([w_a, np.zeros((target, width))])  # B has reached the goal
        new_a = (turns_a * pad_b[i + r, j]).sum(axis=2)
        new_b = (turns_b.transpose(1, 0, 2) * pad_a[i, j + r]).sum(axis=2)
        done = max(abs(new_a - w_a).max(), abs(new_b - w_b).max()) < 1e-15
        w_a, w_b = new_a, new_b
        if done:
            return w_a[0, 0], w_b[0, 0]
    raise AssertionError("value iteration did not settle")


def rational_duel(turns_a: np.ndarray, turns_b: np.ndarray) -> Fraction:
    """P(A wins moving first) by Gauss-Jordan elimination over every state, in Fractions."""
    target, _, width = turns_a.shape
    index = {(s, i, j): n for n, (s, i, j) in enumerate(
        (s, i, j) for s in range(2) for i in range(target) for j in range(target))}
    rows = []
    for (s, i, j), n in index.items():
        row = [Fraction(0)] * (len(index) + 1)
        row[n] += 1
        for r in range(width):
            p = turns_a[i, j, r] if s == 0 else turns_b[j, i, r]
            if not p:
                continue
            after = (i + r, j) if s == 0 else (i, j + r)
            if after[0] >= target:
                row[-1] += p  # A wins
            elif after[1] < target:
                row[index[(1 - s, *after)]] -= p
        rows.append(row)
    for col in range(len(rows)):
        pivot = next(k for k in range(col, len(rows)) if rows[k][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for k in range(len(rows)):
            if k != col and rows[k][col]:
                factor = rows[k][col]
                rows[k] = [a - factor * b for a, b in zip(rows[k], rows[col])]
    return rows[index[(0, 0, 0)]][-1]


def test_a_score_dependent_rule_against_hold_matches_a_rational_solve() -> None:
    target = 8
    rows = fixed.threshold_turns(target, exact=True)
    mine, theirs = np.meshgrid(range(target), range(target), indexing="ij")
    rule = fixed.threshold_play(rf.SHAPE["pace+end"].threshold((5, 3, 2), mine, theirs, target),
                                rows)
    hold = fixed.threshold_play(np.full((target, target), 4), rows)
    assert fixed.duel(rule, hold)[0] == rational_duel(rule, hold)


def test_hold_duels_match_the_engine() -> None:
    target = 20
    rows = fixed.threshold_turns(target)
    for a, b in ((5, 9), (20, 3), (7, 7)):
        turns = [fixed.threshold_play(np.full((target, target), h), rows) for h in (a, b)]
        duel = pp.PigDuel(target, policies=(pp.PigPolicy(a), pp.PigPolicy(b)))
        engine = pp.win_chances(duel, pp.solve_duel(duel))[0]
        assert fixed.duel(*turns)[0] == pytest.approx(engine, abs=1e-12)


def test_the_optimal_table_against_itself_is_the_game_value(judge40: rf.Judge) -> None:
    first, second = fixed.duel(judge40.optimal, judge40.optimal)
    assert first == pytest.approx(judge40.optimal_first, abs=1e-12)
    assert first + second == pytest.approx(1, abs=1e-12)


def test_optimal_play_bounds_every_rule(judge40: rf.Judge) -> None:
    """Optimal play is a best response to itself, so no rule beats it from either seat."""
    rng = np.random.default_rng(3)
    for shape in rf.SHAPES:
        family = shape.family(40)
        for _ in range(6):
            numbers = tuple(int(rng.choice(r)) for r in family.ranges)
            first, second = judge40.against_optimal(shape.name, numbers)
            assert first <= judge40.optimal_first + 1e-12
            assert second <= 1 - judge40.optimal_first + 1e-12


def test_the_card_states_values_recomputed_independently(judge40: rf.Judge) -> None:
    rule = judge40.rule("pace+end", rf.SHAPE["pace+end"].start(40))
    card = rc.card([rule], judge40.optimal_first, 40)
    first, second = value_iteration(judge40.turns(rule.shape, rule.numbers), judge40.optimal)
    stated = [float(x) for x in re.findall(r"([0-9.]+)(?:%| games in 100)", card.cost)]
    assert stated[:2] == [round(100 * first, 1), round(100 * second, 1)]
    assert stated[2:4] == [round(100 * judge40.optimal_first, 1),
                           round(100 * (1 - judge40.optimal_first), 1)]
    assert stated[4] == round(100 * (0.5 - (first + second) / 2), 2)


def test_a_simulated_rule_against_optimal_play_lands_in_its_interval(judge40: rf.Judge) -> None:
    numbers = rf.SHAPE["pace+end"].start(40)
    target, n = 40, 20_000
    rule = rf.SHAPE["pace+end"].threshold
    table = judge40.table
    _, winner, _ = pig_games(
        [lambda m, t, k: k >= rule(numbers, m, t, target),
         lambda m, t, k: table[m, t, np.minimum(k, target)]], target, n, generator(11))
    p_first = judge40.against_optimal("pace+end", numbers)[0]
    assert abs(binomial_z(int((winner == 0).sum()), n, p_first)) < Z


def test_the_search_is_repeatable_and_beats_its_start() -> None:
    """Coordinate ascent (the family is past rulesearch.EXHAUSTIVE) from a seeded start."""
    judge = rf.Judge(24)
    family = rf.SHAPE["pace+ends"].family(24)
    assert family.members > EXHAUSTIVE

    def value(numbers):
        return sum(judge.against_optimal("pace+ends", numbers)) / 2

    first, second = search(family, value, rf.SEED), search(family, value, rf.SEED)
    assert first == second and first.value >= value(family.start)


def test_the_frontier_grows_with_size() -> None:
    best, paper, _ = rf.learn(10)
    assert not paper  # the calibration is to 100 only
    assert [r.size for r in best] == sorted({r.size for r in best})
    assert all(later.mean > earlier.mean for earlier, later in pairwise(best))


def test_published_figures_to_100_and_the_card_rule_simulated() -> None:
    """Neller and Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25(1), 2004: to
    100 the first player wins 0.5306 under optimal play and 0.5347 when both hold at 20. Then
    the committed card's rule (docs/cards/pig-hold.png) played against the optimal player by
    the simulator, going first."""
    judge = rf.Judge(100)
    assert round(float(fixed.duel(judge.optimal, judge.optimal)[0]), 4) == 0.5306
    hold20 = judge.rule("hold", (20,))
    assert round(hold20.p_self, 4) == 0.5347
    paper = judge.rule(*rf.PUBLISHED_RULE)
    assert paper.p_first <= judge.optimal_first and paper.mean > hold20.mean
    card_rule, n = ("pace+ends", (69, 73, 21, 8)), 20_000
    rule, table = rf.SHAPE[card_rule[0]].threshold, judge.table
    _, winner, _ = pig_games(
        [lambda m, t, k: k >= rule(card_rule[1], m, t, 100),
         lambda m, t, k: table[m, t, np.minimum(k, 100)]], 100, n, generator(12))
    p_first = judge.against_optimal(*card_rule)[0]
    assert abs(binomial_z(int((winner == 0).sum()), n, p_first)) < Z


def test_rules_and_card_commands(tmp_path) -> None:
    out = tmp_path / "card.png"
    result = run_cli("pig", "card", "--out", str(out), "--target", "10", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert out.read_bytes().startswith(b"\x89PNG") and report["loss"] > 0
    bad = run_cli("pig", "card", "--out", str(tmp_path / "card.svg"), "--target", "10")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
