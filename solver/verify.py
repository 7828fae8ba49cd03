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

import csv
import gzip
import io
import math
import re
import warnings
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

from solver.errors import InputError
from solver.formatting import exact_text

ALPHA = 0.001  # default significance level: one false alarm in a thousand correct runs
MIN_EXPECTED = 5.0  # bins expected to hold fewer samples are pooled
TESTS = {"pearson": "pearson", "g": "log-likelihood"}  # --test -> scipy's lambda_


def read_text(path: str, what: str) -> str:
    """A text file, gunzipped when its name ends in .gz."""
    try:
        raw = Path(path).read_bytes()
        return (gzip.decompress(raw) if path.endswith(".gz") else raw).decode("utf-8")
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        raise InputError(f"cannot read {what}: {getattr(error, 'strerror', None) or error}") \
            from None
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text") from None


def read_csv(path: str, what: str, required: Sequence[str], text: str | None = None
             ) -> tuple[list[str], list[list[str]], np.ndarray]:
    """A CSV file (gzip when named .gz): its header, rows and their line numbers. Lines that
    start with '#' and blank lines are skipped; every row has the header's number of fields."""
    text = read_text(path, what) if text is None else text
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), start=1)
                if line.strip() and not line.startswith("#")]
    if not numbered:
        raise InputError(f"{what} is empty: it needs a header line and rows")
    if '"' in text:  # quoted fields: the csv module's reading
        split = [next(csv.reader([line])) for _, line in numbered]
    else:  # the common case, several times faster
        split = [line.split(",") for _, line in numbered]
    header = [c.strip() for c in split[0]]
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError(f"{what} line {numbered[0][0]}: the header lacks the column(s) "
                         f"{', '.join(missing)} (it has {', '.join(header)})")
    rows = split[1:]
    lines = np.array([n for n, _ in numbered[1:]], dtype=np.int64)
    widths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    if np.any(widths != len(header)):
        r = int(np.flatnonzero(widths != len(header))[0])
        raise InputError(f"{what} line {lines[r]}: {widths[r]} fields where the header has "
                         f"{len(header)}")
    return header, rows, lines


def read_outcomes(path: str, column: str, allowed: Sequence[str]) -> np.ndarray:
    """The samples' outcomes as indices into `allowed` (the outcomes the game can produce at
    all, written as the sample format writes them). A file with a fault is read again line by
    line, so the error names the line."""
    what = f"samples file {path}"
    text = read_text(path, what)
    numeric = all(a.isdigit() for a in allowed)  # scores: read as integers, much faster
    values = _fast_column(text, column, np.int64 if numeric else str)
    if values is None:
        header, rows, _ = read_csv(path, what, [column], text)
        values = np.array([row[header.index(column)].strip() for row in rows], dtype=str)
    if not len(values):
        raise InputError(f"{what} has a header but no samples")
    names = np.array([int(a) for a in allowed]) if values.dtype.kind == "i" else np.array(allowed)
    order = np.argsort(names)
    at = np.minimum(np.searchsorted(names[order], values), len(names) - 1)
    known = names[order][at] == values
    if not np.all(known):
        header, rows, lines = read_csv(path, what, [column], text)
        r = int(np.flatnonzero(~known)[0])
        raise InputError(f"{what} line {lines[r]}: {column} {rows[r][header.index(column)]!r} "
                         f"cannot happen in this game ({_describe(allowed)})")
    return order[at]


def _fast_column(text: str, column: str, dtype: type) -> np.ndarray | None:
    """One column of a plain CSV text with NumPy's compiled reader, or None when the text is
    not plain (quotes, uneven rows, a value of another type, a missing column): the careful
    reader then takes over."""
    if '"' in text:
        return None
    head = re.search(r"^(?!#)[^\n]*\S[^\n]*$", text, re.M)  # the first line with text
    if head is None:
        return None
    header = [c.strip() for c in head.group(0).split(",")]
    if column not in header:
        return None
    body = text[head.end() + 1:]
    try:
        with warnings.catch_warnings():  # an empty body is reported by the caller
            warnings.simplefilter("ignore")
            values = np.loadtxt(io.StringIO(body), delimiter=",", comments="#",
                                usecols=header.index(column), dtype=dtype, ndmin=1)
    except ValueError:
        return None
    commas = sum(c.count(",") for c in re.findall(r"^#[^\n]*", body, re.M))
    if body.count(",") - commas != len(values) * (len(header) - 1):
        return None  # some row has another number of fields
    return values


def _describe(allowed: Sequence[str]) -> str:
    if len(allowed) <= 12:
        return "possible: " + ", ".join(allowed)
    return f"possible: {', '.join(allowed[:6])}, ..., {', '.join(allowed[-3:])}"


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
    return {"exact": float(mean), "exact_text": exact_text(mean), "sample": sample,
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
