"""Verdicts on a simulator: its outcomes against the exact distribution under the same policy.

Any game reduces to outcomes (a turn's score, a game's winner, an adventure's success), their
exact probabilities under a policy, and a simulator's counts of them. The verdict is a
goodness-of-fit test (Pearson's chi-square, or the G-test) at a stated significance level, after
pooling every outcome whose expected count is below 5 into one bin (the usual condition for the
chi-square approximation); an outcome the policy can never produce rejects at once. Beside it: the
outcomes that deviate most (z-scores), and for numeric outcomes the exact mean against the
sample mean and its confidence interval. docs/verify.md states the formats and thresholds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from solver.errors import InputError
from solver.formatting import exact_text

ALPHA = 0.001  # default significance level: one false alarm in a thousand correct runs
MIN_EXPECTED = 5.0  # bins expected to hold fewer samples are pooled
TESTS = {"pearson": "pearson", "g": "log-likelihood"}  # --test -> scipy's lambda_


def goodness_of_fit(labels: Sequence[str], exact: Sequence[Fraction], counts: np.ndarray,
                    alpha: float = ALPHA, test: str = "pearson", top: int = 5,
                    values: Sequence[float] | None = None) -> dict:
    """The verdict on `counts` (samples per outcome) against the exact probabilities `exact`
    of the outcomes `labels`; `values` makes outcomes numeric (a score) for the mean."""
    from scipy import stats  # here: a cold start of other commands does not pay for scipy

    if not 0 < alpha < 1:
        raise InputError(f"the significance level must lie between 0 and 1, not {alpha}")
    if test not in TESTS:
        raise InputError(f"the test is one of {', '.join(TESTS)}, not {test!r}")
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    p = np.array([float(x) for x in exact])
    expected = n * p
    report: dict = {"samples": n, "test": test, "alpha": alpha, "min_expected": MIN_EXPECTED}
    never = np.flatnonzero((p == 0) & (counts > 0))
    pooling = _pool(expected)
    if len(never):
        report.update(statistic=math.inf, dof=None, p_value=0.0,
                      never=[{"outcome": labels[i], "observed": int(counts[i])} for i in never])
    elif pooling is None:
        raise InputError(f"{n} samples are too few for a test: fewer than two bins would be "
                         f"expected to hold {MIN_EXPECTED:g} samples each")
    else:
        bins, pooled = pooling
        possible = bins >= 0
        observed_bins = np.bincount(bins[possible], counts[possible])
        expected_bins = np.bincount(bins[possible], expected[possible])
        statistic, p_value = stats.power_divergence(observed_bins, expected_bins,
                                                    lambda_=TESTS[test])
        report.update(statistic=float(statistic), dof=len(expected_bins) - 1,
                      p_value=float(p_value), bins=len(expected_bins),
                      pooled=[labels[i] for i in np.flatnonzero(pooled)])
    report["verdict"] = "rejected" if report["p_value"] < alpha else "consistent"
    report["deviations"] = deviations(labels, p, counts, top)
    if values is not None:
        report["mean"] = mean_check(np.asarray(values, dtype=np.float64), exact, counts, alpha)
    return report


def _pool(expected: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """A bin for every possible outcome: its own when its expected count reaches MIN_EXPECTED,
    else one shared last bin; a shared bin still below the threshold takes in the smallest
    large bin too. Returns the bins and which outcomes were pooled; None when fewer than two
    bins remain (no test is possible)."""
    possible = expected > 0
    large = possible & (expected >= MIN_EXPECTED)
    if np.any(possible & ~large) and expected[possible & ~large].sum() < MIN_EXPECTED:
        if not large.any():
            return None
        large[np.flatnonzero(large)[np.argmin(expected[large])]] = False
    pooled = possible & ~large
    bins = np.full(len(expected), -1, dtype=np.int64)
    bins[large] = np.arange(int(large.sum()))
    bins[pooled] = int(large.sum())
    if int(large.sum()) + bool(pooled.any()) < 2:
        return None
    return bins, pooled


def deviations(labels: Sequence[str], p: np.ndarray, counts: np.ndarray, top: int) -> list[dict]:
    """The `top` outcomes whose counts deviate most from n p, in binomial standard deviations
    (an outcome the policy never produces but the samples show has z = infinity)."""
    n = int(counts.sum())
    expected = n * p
    sd = np.sqrt(expected * (1 - p))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(sd > 0, (counts - expected) / np.where(sd > 0, sd, 1),
                     np.where(counts > expected, np.inf, 0.0))
    shown = np.flatnonzero((counts > 0) | (p > 0))
    order = shown[np.lexsort((shown, -np.abs(z[shown])))][:top]
    return [{"outcome": labels[i], "observed": int(counts[i]), "expected": float(expected[i]),
             "z": float(z[i])} for i in order]


def mean_check(values: np.ndarray, exact: Sequence[Fraction], counts: np.ndarray,
               alpha: float) -> dict:
    """The exact mean against the sample mean, its (1 - alpha) confidence interval (normal,
    from the sample's standard deviation) and its z-score (from the exact variance)."""
    from scipy import stats

    n = int(counts.sum())
    mean = sum((Fraction(v) * q for v, q in zip(values.tolist(), exact) if q), Fraction(0))
    variance = float(sum((Fraction(v) - mean) ** 2 * q
                         for v, q in zip(values.tolist(), exact) if q))
    sample = float(counts @ values) / n
    spread = float(counts @ (values - sample) ** 2) / max(n - 1, 1)
    half = float(stats.norm.ppf(1 - alpha / 2)) * math.sqrt(spread / n)
    z = (sample - float(mean)) / math.sqrt(variance / n) if variance > 0 else 0.0
    return {"expected": float(mean), "expected_exact": exact_text(mean), "sample": sample,
            "confidence": 1 - alpha, "low": sample - half, "high": sample + half,
            "inside": bool(sample - half <= float(mean) <= sample + half), "z": z}


def regret_summary(regrets: np.ndarray, turns: Sequence[str] | None, describe, top: int
                   ) -> dict:
    """A decision log's regrets: total, per move, per turn (when the log numbers its turns),
    how many moves were optimal (regret at most 1e-9, rounding), and the `top` worst moves
    (`describe(row)` names one), largest regret first."""
    order = np.lexsort((np.arange(len(regrets)), -regrets))[:top]
    summary: dict = {"moves": len(regrets), "total_regret": float(regrets.sum()),
                     "mean_regret_per_move": float(regrets.mean()) if len(regrets) else 0.0,
                     "optimal_moves": int(np.sum(regrets <= 1e-9)),
                     "worst": [{**describe(int(r)), "regret": float(regrets[r])} for r in order]}
    if turns is not None:
        summary["turns"] = len(set(turns))
        summary["mean_regret_per_turn"] = summary["total_regret"] / max(summary["turns"], 1)
    return summary


def power(exact: Sequence[Fraction], wrong: Sequence[float], n: int, alpha: float = ALPHA
          ) -> float:
    """The chance that the Pearson test at level alpha rejects n samples drawn from `wrong`
    (probabilities of the same outcomes) when `exact` is the truth: the noncentral chi-square
    approximation, with noncentrality n * sum (q - p)^2 / p over the bins `goodness_of_fit`
    would pool. Mass `wrong` puts on outcomes `exact` never produces is seen with probability
    1 - (1 - mass)^n and rejects at once."""
    from scipy import stats

    p = np.array([float(x) for x in exact])
    q = np.array([float(x) for x in wrong])
    pooling = _pool(n * p)
    if pooling is None:
        return 0.0
    bins = pooling[0]
    possible = bins >= 0
    pb, qb = np.bincount(bins[possible], p[possible]), np.bincount(bins[possible], q[possible])
    dof = len(pb) - 1
    tested = stats.ncx2.sf(stats.chi2.isf(alpha, dof), dof, n * float(((qb - pb) ** 2 / pb).sum()))
    unseen = (1 - float(q[~possible].sum())) ** n
    return float(1 - unseen * (1 - tested))


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjustment: the family-wise false-alarm rate of rejecting every
    hypothesis whose adjusted p-value is below alpha is at most alpha, whatever the dependence
    between the tests (Holm 1979). The smallest adjusted value is k times the smallest p."""
    p = np.asarray(p_values, dtype=np.float64)
    k = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(np.minimum(1.0, (k - np.arange(k)) * p[order]))
    adjusted = np.empty(k)
    adjusted[order] = stepped
    return adjusted


def smallest_size(power_at, goal: float = 0.99, most: int = 10**9) -> int | None:
    """The smallest n with power_at(n) >= goal, by doubling then bisection (power grows with n
    up to the small steps pooling makes); None past `most`."""
    high = 1
    while power_at(high) < goal:
        high *= 2
        if high > most:
            return None
    low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if power_at(middle) >= goal else (middle, high)
    return high
