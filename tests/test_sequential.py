"""The anytime-valid test (solver/sequential.py): its closed form against a direct computation,
and its guarantee by simulation: many seeded runs of the right simulator, monitored after every
sample, reject at most an alpha share (Ville's inequality), while a wrong one is stopped early."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
from scipy import stats

from solver.dice import generator
from solver.games.pig.bugs import BUGS
from solver.games.pig.simulator import pig_turns
from solver.sequential import MixtureTest, combined, first_crossing, group


def test_the_mixture_is_a_dirichlet_multinomial_likelihood_ratio() -> None:
    """log E after a short sequence equals log of the Dirichlet-multinomial predictive product
    (computed here step by step: (a_k + n_k) / (A + n) per sample) over the null's product."""
    p = np.array([0.5, 0.3, 0.2, 0.0])
    test = MixtureTest(p, concentration=10.0)
    a = [5.0, 3.0, 2.0, 0.5]
    sequence = [0, 2, 2, 1, 0, 2]
    path = test.steps(np.array(sequence))
    counts, log_e = [0, 0, 0, 0], 0.0
    for n, k in enumerate(sequence):
        log_e += math.log((a[k] + counts[k]) / (sum(a) + n)) - math.log(p[k])
        counts[k] += 1
        assert path[n] == pytest.approx(log_e, rel=1e-12)
    assert test.steps(np.array([3]))[0] == math.inf  # an outcome the null never produces


def test_the_mixture_has_mean_one_under_the_null() -> None:
    """E[E_n] = 1 exactly under the null: summed over every sequence of 4 samples."""
    p = np.array([0.6, 0.3, 0.1])
    total = 0.0
    for sequence in product(range(3), repeat=4):
        e = math.exp(MixtureTest(p, concentration=5.0).steps(np.array(sequence))[-1])
        total += e * math.prod(p[list(sequence)])
    assert total == pytest.approx(1.0, rel=1e-12)


def test_groups_are_neighbours_of_about_equal_probability() -> None:
    p = np.full(40, 1 / 40)
    bins = group(np.append(p, 0.0), 8)
    assert bins[:-1].tolist() == np.repeat(np.arange(8), 5).tolist() and bins[-1] == 8


def _monitored(hold: int, play, runs: int, n: int, alpha: float, seed: int) -> list[int | None]:
    """For each seeded run of n Pig turns: the sample at which the test (against the exact
    distribution of "hold 20" turns) first rejects, or None."""
    from solver.games.pig.policies import PigPolicy
    from solver.games.pig.verification import turn_outcomes

    outcomes = turn_outcomes("", PigPolicy(20), 100)
    codes, p = outcomes.columns["score"], outcomes.probability
    bins = group(p)
    grouped = np.append(np.bincount(bins, p), 0.0)
    stopped = []
    for run in range(runs):
        scores = pig_turns(hold, 100, n, generator(seed + run), play)
        at = np.minimum(np.searchsorted(codes, scores), len(codes) - 1)
        index = np.where(codes[at] == scores, bins[at], len(grouped) - 1)
        stopped.append(first_crossing(MixtureTest(grouped / grouped.sum()).steps(index),
                                      alpha))
    return stopped


def test_the_right_simulator_is_rejected_at_most_at_the_alpha_rate_however_often_watched(
        ) -> None:
    """1,000 seeded runs of 2,000 turns of the right simulator, the test read after every
    sample: the share ever rejected is at most alpha (by Ville's inequality), here checked
    against the upper 99.9% point of Binomial(1000, alpha)."""
    for alpha in (0.05, 0.2):
        stopped = _monitored(20, None, 1000, 2000, alpha, 7000)
        rejected = sum(s is not None for s in stopped)
        assert rejected <= stats.binom.isf(0.001, 1000, alpha), (alpha, rejected)


def test_a_wrong_simulator_is_stopped_early() -> None:
    """A five-sided die: every one of 20 seeded runs stopped, long before 2,000 turns."""
    stopped = _monitored(20, BUGS["five-sided-die"](), 20, 2000, 0.001, 9000)
    assert all(s is not None and s < 1000 for s in stopped), stopped


def test_the_mean_of_e_processes_is_one_too() -> None:
    """The combined path is the log of the mean of the e-values."""
    paths = [np.array([0.0, 1.0, -2.0]), np.array([2.0, 0.5, np.inf])]
    both = combined(paths)
    assert both[0] == pytest.approx(math.log((1 + math.exp(2)) / 2))
    assert both[1] == pytest.approx(math.log((math.e + math.exp(0.5)) / 2))
    assert both[2] == math.inf
