"""Confidence intervals the simulator tests of every game share (verification ladder, step 4)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from solver.stats import goodness_of_fit

Z = 3.29  # two-sided 99.9% normal quantile


def inside(samples: np.ndarray, exact: list[Fraction]) -> tuple[float, float]:
    """The z-score of the sample mean against the exact mean (exact variance), and the
    goodness-of-fit p-value of the whole distribution."""
    values = np.arange(len(exact))
    mean = sum(v * p for v, p in zip(values.tolist(), exact))
    variance = sum((v - mean) ** 2 * p for v, p in zip(values.tolist(), exact))
    z = (samples.mean() - float(mean)) / np.sqrt(float(variance) / len(samples))
    counts = np.bincount(samples, minlength=len(exact))
    assert len(counts) == len(exact), "a score the exact distribution does not have"
    report = goodness_of_fit([str(v) for v in values], exact, counts)
    return z, report["p_value"]


def binomial_z(successes: int, n: int, p: float) -> float:
    """How many standard deviations a count of successes lies from its binomial mean."""
    return (successes - n * p) / np.sqrt(n * p * (1 - p))
