"""The wrong-simulator corpus: `verify` must reject each deliberately wrong simulator at a stated
sample size, and accept the right simulator at about the stated false-alarm rate.

Each wrong simulator is our simulator with one rule changed (`solver.games.dalek.bugs.BUGS`: a
`Play` subclass, or the die it throws). The same forward pass that evaluates a policy exactly
(`distribution(policy, play)`) gives each wrong simulator's exact distribution, hence the power
of the test at n samples (`solver.stats.power`, noncentral chi-square). The stated sample size
of a bug is the smallest multiple of 50 where that power reaches 0.999 with the points policy at
alpha = 0.001; there, ten seeded runs of the wrong simulator must all be rejected (if the power
is right, all ten are with probability >= 0.99; the seeds are fixed, so the test is
deterministic)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from scipy import stats

from solver.dice import generator
from solver.games.dalek import arrays
from solver.games.dalek import policies as dp
from solver.games.dalek.bugs import BUGS
from solver.games.dalek.files import parse_rules
from solver.games.dalek.simulator import dalek_turns
from solver.games.dalek.turn import compile_turn
from solver.stats import goodness_of_fit, power

# bug -> the stated sample size: the power reaches 0.999 at alpha = 0.001
CORPUS = {"loaded-doctor": 350, "bonus-when-stopping": 1300, "exterminate-beats-doctor": 1200}


@cache
def points() -> dp.TurnPolicy:
    return dp.points_policy(arrays.Pairs.of(compile_turn(parse_rules())))


@cache
def exact() -> list:
    return dp.distribution(points())


def labels(size: int) -> list[str]:
    return [str(s) for s in range(size)]


@pytest.mark.parametrize("bug", sorted(CORPUS))
def test_stated_sample_size_is_where_power_reaches_0999(bug: str) -> None:
    n = CORPUS[bug]
    wrong = dp.distribution(points(), BUGS[bug](points().rules))
    size = max(len(wrong), len(exact()))
    right = list(exact()) + [0] * (size - len(exact()))
    wrong = [float(w) for w in wrong] + [0.0] * (size - len(wrong))
    assert power(right, wrong, n) >= 0.999 > power(right, wrong, n - 50)


@pytest.mark.parametrize("bug", sorted(CORPUS))
def test_each_wrong_simulator_is_rejected(bug: str) -> None:
    n = CORPUS[bug]
    size = 100  # above any score either rule set can give
    right = list(exact()) + [0] * (size - len(exact()))
    for seed in range(10):
        samples = dalek_turns(points(), n, generator(seed), play=BUGS[bug](points().rules))
        report = goodness_of_fit(labels(size), right, np.bincount(samples, minlength=size))
        assert report["verdict"] == "rejected", (bug, seed, report["p_value"])


def test_right_simulator_false_alarm_rate() -> None:
    """200 seeded runs of 2,000 turns of the right simulator: the number rejected at alpha must
    be a plausible Binomial(200, alpha) draw (inside its central 99.9%), at the default alpha
    = 0.001 (at most 2: P(X >= 3) = 0.0011) and at alpha = 0.05 (rejections happen there, so
    this also shows the test is not simply blind)."""
    size = len(exact())
    p_values = np.array([
        goodness_of_fit(labels(size), exact(), np.bincount(
            dalek_turns(points(), 2_000, generator(1000 + seed)), minlength=size))["p_value"]
        for seed in range(200)])
    for alpha in (0.001, 0.05):
        rejected = int(np.sum(p_values < alpha))
        low, high = stats.binom.ppf(0.0005, 200, alpha), stats.binom.isf(0.0005, 200, alpha)
        assert low <= rejected <= high, (alpha, rejected)
