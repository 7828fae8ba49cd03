"""Anytime-valid verdicts: a test martingale against the exact distribution, watched after every
sample, stopped as soon as it rejects, with the false-alarm rate at most alpha however often it
is looked at.

The null hypothesis is simple: the simulator's outcomes are independent draws from the exact
distribution p (over K outcomes, some with p = 0: values the play never produces). Against it,
the likelihood ratio of a Dirichlet mixture of alternatives,

    E_n = Gamma(A) / Gamma(A + n) * prod_k Gamma(a_k + n_k) / Gamma(a_k) / prod_k p_k^(n_k),

(n_k the counts after n samples, a_k the prior's weights, A their sum) is, under the null, a
nonnegative martingale starting at 1 (each alternative's likelihood ratio is one, and so is any
mixture of them). Ville's inequality then gives P(E_n >= 1/alpha for some n) <= alpha: the test
rejects the first time E_n reaches 1/alpha, at whatever sample, and a correct simulator is
rejected with probability at most alpha. An outcome with p_k = 0 seen once makes E_n infinite.

Why this and not a library: the null here is one fully known distribution over categories, for
which the mixture likelihood ratio is the textbook test martingale in closed form (a few lines
with `scipy.special.gammaln`); `confseq` and `expectation` centre on bounded means (betting
confidence sequences), which would test the mean of an outcome, not its whole distribution.

The prior: a_k = c p_k (a Dirichlet centred on the null with `CONCENTRATION` pseudo-samples), and
1/2 for an outcome the null never produces. Centred, a deviation of the size a few thousand
samples reveal costs about (K - 1)/2 log(1 + n / c) nats, against (K - 1)/2 log n for the
uniform Dirichlet(1/2). Outcomes are grouped into at most `MAX_BINS` bins of about equal null
probability (neighbours in the outcomes' order: scores, turns), chosen from p alone, before any
sample is seen; grouping is a fixed function of the outcome, so E_n stays a test martingale.

Several statistics of the same sample (a game's winner, loser's score, length) each give a test
martingale on the same samples; their average is one too, so the combined verdict rejects when
the mean of the E_n reaches 1/alpha (the price of k statistics: a factor k on the evidence).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

CONCENTRATION = 1000.0  # pseudo-samples of the prior centred on the null
NEVER_PRIOR = 0.5  # prior weight of an outcome the null never produces
MAX_BINS = 16  # outcomes grouped into at most this many bins


def group(p: np.ndarray, bins: int = MAX_BINS) -> np.ndarray:
    """The bin of each outcome: neighbours merged into at most `bins` groups of about equal
    probability (cut where the running probability crosses k / bins); outcomes with p = 0 get
    one bin of their own at the end (-1 if there are none)."""
    p = np.asarray(p, dtype=np.float64)
    possible = p > 0
    cumulative = np.cumsum(np.where(possible, p, 0.0)) / max(p.sum(), 1e-300)
    before = cumulative - np.where(possible, p, 0.0) / max(p.sum(), 1e-300)
    raw = np.minimum((before * bins + 1e-9).astype(np.int64), bins - 1)  # bin of each start
    used = np.unique(raw[possible])
    index = np.where(possible, np.searchsorted(used, raw), len(used))
    return index


@dataclass
class MixtureTest:
    """The Dirichlet-mixture e-process of one statistic (see the module's docstring): feed it
    outcome indices (into `p`) one at a time or in order, read `log_e`."""

    p: np.ndarray  # the null's probability of each outcome (sums to 1; zeros allowed)
    concentration: float = CONCENTRATION
    counts: np.ndarray = field(init=False)
    n: int = field(init=False, default=0)
    log_e: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        self.p = np.asarray(self.p, dtype=np.float64)
        self.prior = np.where(self.p > 0, self.concentration * self.p, NEVER_PRIOR)
        self.total = float(self.prior.sum())
        with np.errstate(divide="ignore"):
            self.log_p = np.log(self.p)
        self.counts = np.zeros(len(self.p), dtype=np.int64)

    def steps(self, outcomes: np.ndarray) -> np.ndarray:
        """log E after each of `outcomes` (indices into p), taken in order after those seen
        so far; the state moves on past them."""
        outcomes = np.asarray(outcomes, dtype=np.int64)
        seen = _earlier(outcomes) + self.counts[outcomes]  # n_k before each sample
        n = self.n + np.arange(len(outcomes))
        with np.errstate(divide="ignore"):
            step = (np.log(self.prior[outcomes] + seen) - np.log(self.total + n)
                    - self.log_p[outcomes])
        path = self.log_e + np.cumsum(step)
        np.add.at(self.counts, outcomes, 1)
        self.n += len(outcomes)
        if len(path):
            self.log_e = float(path[-1])
        return path


def _earlier(outcomes: np.ndarray) -> np.ndarray:
    """For each position, how many earlier positions hold the same value."""
    order = np.argsort(outcomes, kind="stable")
    ranked = outcomes[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    lengths = np.diff(np.r_[starts, len(ranked)])
    within = np.arange(len(ranked)) - np.repeat(starts, lengths)
    result = np.empty(len(outcomes), dtype=np.int64)
    result[order] = within
    return result


def combined(paths: Sequence[np.ndarray]) -> np.ndarray:
    """The log of the mean of several e-processes (log E paths over the same samples): the
    combined test martingale."""
    stacked = np.vstack(paths)
    top = np.max(stacked, axis=0)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(invalid="ignore"):
        mean = safe + np.log(np.mean(np.exp(stacked - safe), axis=0))
    return np.where(np.isposinf(top), np.inf, mean)


def first_crossing(log_e: np.ndarray, alpha: float) -> int | None:
    """The first sample (counted from 1) at which log E reaches log(1/alpha), or None."""
    hit = np.flatnonzero(log_e >= math.log(1 / alpha))
    return int(hit[0]) + 1 if len(hit) else None
