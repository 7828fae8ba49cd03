"""A whole sample judged by several statistics at once, and what each alternative would need.

Each statistic of `Outcomes` the sample's columns allow (a game's winner, loser's score, margin,
length, the joint of winner and loser's score) gets its own goodness-of-fit test
(`stats.goodness_of_fit`: chi-square over bins pooled to expected counts of at least 5). The
verdict controls the family-wise false-alarm rate at alpha by Holm's step-down method: it rejects
when some Holm-adjusted p-value is below alpha (equivalently the smallest p below alpha / k).
Holm rather than one combined test: the statistics are functions of the same games and strongly
dependent (margin and loser's score above all), which Holm allows without knowing the
dependence, and the report can still say which statistic rejected. Which statistics are tested
depends on n and the exact probabilities only: one whose pooled bins would hold more than half
the probability is too thin at this n and left out (never the first, the winner or the score).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.errors import InputError
from solver.outcomes import Outcomes, Statistic, aligned, counts_of
from solver.stats import MIN_EXPECTED, goodness_of_fit, holm, power, smallest_size

POWER = 0.99  # the power a plan asks for


@dataclass
class Tested:
    """One statistic's distribution: its values, their labels and exact probabilities."""

    statistic: Statistic
    codes: np.ndarray
    p: np.ndarray


def usable(outcomes: Outcomes, columns: set[str]) -> list[Tested]:
    """The statistics a sample with these columns shows, with their exact distributions."""
    return [Tested(s, *outcomes.distribution(s)) for s in outcomes.statistics
            if set(s.columns) <= columns]


def thin(p: np.ndarray, n: int) -> bool:
    """Bins pooled at n samples (expected count below MIN_EXPECTED) would hold more than half
    the probability."""
    return float(p[n * p < MIN_EXPECTED].sum()) > 0.5


def tested_at(found: list[Tested], n: int) -> list[Tested]:
    """The statistics tested at n samples: the first always, others unless too thin."""
    return found[:1] + [t for t in found[1:] if not thin(t.p, n)]


def judge(outcomes: Outcomes, sample: dict[str, np.ndarray], alpha: float, test: str,
          top: int) -> dict:
    """The verdict on a sample (columns by name) under Holm's method, with every statistic's
    own test; each statistic's report is `goodness_of_fit`'s."""
    n = len(next(iter(sample.values())))
    found = tested_at(usable(outcomes, set(sample)), n)
    reports = []
    for t in found:
        codes, counts = counts_of(t.codes, t.statistic.value(sample))
        exact = np.concatenate([t.p, np.zeros(len(codes) - len(t.codes))])
        labels = [t.statistic.label(int(c)) for c in codes]
        try:
            report = goodness_of_fit(labels, exact, counts, alpha, test, top)
        except InputError:
            if t is found[0]:
                raise
            continue
        reports.append({"key": t.statistic.key, "name": t.statistic.name,
                        "column": "/".join(t.statistic.columns), **report})
    adjusted = holm([r["p_value"] for r in reports])
    for r, a in zip(reports, adjusted):
        r["p_holm"] = float(a)
        r["verdict"] = "rejected" if a < alpha else "consistent"
    rejected = any(r["verdict"] == "rejected" for r in reports)
    return {"samples": n, "alpha": alpha, "test": test, "method": "holm",
            "verdict": "rejected" if rejected else "consistent", "statistics": reports,
            "left_out": [t.statistic.key for t in usable(outcomes, set(sample))
                         if t.statistic.key not in {r["key"] for r in reports}]}


def plan(outcomes: Outcomes, wrong: Outcomes, alpha: float, columns: set[str] | None = None,
         goal: float = POWER) -> dict:
    """Samples needed for power `goal` at alpha against `wrong` (the same play's outcomes
    under another rule, policy or bug): per statistic (its own test at alpha), and for the
    verdict over all of them (Holm: at least the largest single power at alpha / k, the chance
    of Holm's first step; a lower bound, so the stated size is enough)."""
    columns = set(outcomes.columns) if columns is None else columns
    pairs = {}
    for t in usable(outcomes, columns):
        codes, q = wrong.distribution(t.statistic)
        _, p, q = aligned(t.codes, t.p, codes, q)
        pairs[t.statistic.key] = (t, p, q)
    found = [t for t, _, _ in pairs.values()]

    def single(key: str, n: int, level: float) -> float:
        _, p, q = pairs[key]
        return power(p, q, n, level)

    def together(n: int) -> float:
        chosen = tested_at(found, n)
        return max(single(t.statistic.key, n, alpha / len(chosen)) for t in chosen)

    sizes = {key: smallest_size(lambda n, key=key: single(key, n, alpha), goal)
             for key in pairs}
    return {"goal": goal, "alpha": alpha, "unit": outcomes.unit,
            "statistics": [{"key": key, "name": pairs[key][0].statistic.name,
                            "samples": sizes[key]} for key in pairs],
            "combined": smallest_size(together, goal)}
