"""What is wrong with a rejected simulator: the known alternatives (a game's bug corpus, the
policies a user suspects, the rule variants that exist as flags) ranked by how much better each
explains the samples than the declared rules, by the log likelihood ratio

    log LR = sum over samples of log q(x) - log p(x),

x the finest outcome the sample file shows (every column it has together: a game's winner,
final scores and turns), p the declared play's exact probability of it, q the alternative's.
Positive: the alternative explains the samples better, by a factor e^(log LR). An alternative
that cannot produce some sample has log LR = -inf; one that produces a sample the declared play
never does, +inf. This is a description of the samples, not a test: the verdict is the test.
"""

from __future__ import annotations

import math

import numpy as np

from solver.outcomes import Outcomes


def log_likelihoods(models: list[Outcomes], sample: dict[str, np.ndarray]) -> list[float]:
    """Each model's log likelihood of the sample's rows (over the columns the sample and the
    models share)."""
    names = tuple(c for c in models[0].columns if c in sample)
    rows = np.stack([np.asarray(sample[c], dtype=np.int64) for c in names], axis=1)
    distinct, where = np.unique(rows, axis=0, return_inverse=True)
    seen = np.bincount(where.reshape(-1), minlength=len(distinct))
    result = []
    for model in models:
        cells, p = model.joint(names)
        both, index = np.unique(np.vstack([distinct, cells]), axis=0, return_inverse=True)
        index = index.reshape(-1)
        chance = np.zeros(len(both))
        chance[index[len(distinct):]] = p
        q = chance[index[:len(distinct)]]
        if np.any(q <= 0):
            result.append(-math.inf)
        else:
            result.append(float(seen @ np.log(q)))
    return result


def rank(declared: Outcomes, alternatives: dict[str, Outcomes], sample: dict[str, np.ndarray]
         ) -> list[dict]:
    """The alternatives by log likelihood ratio against the declared play, best first; among
    equal ratios (+inf when the declared play cannot produce some sample) the larger
    likelihood first, then name order."""
    names = sorted(alternatives)
    values = log_likelihoods([declared, *(alternatives[n] for n in names)], sample)
    base = values[0]
    ranked = []
    for name, value in zip(names, values[1:]):
        if value == -math.inf:
            ratio = -math.inf
        elif base == -math.inf:
            ratio = math.inf
        else:
            ratio = value - base
        ranked.append({"alternative": name, "log_lr": ratio, "log_likelihood": value})
    return sorted(ranked, key=lambda r: (-r["log_lr"], -r["log_likelihood"], r["alternative"]))


def sentence(ranked: list[dict]) -> str:
    """The one line a reader acts on."""
    if not ranked:
        return "no known alternative to compare with"
    best = ranked[0]
    if best["log_lr"] > 0:
        return (f"these samples fit {best['alternative']} better than the declared rules "
                f"(log LR {_signed(best['log_lr'])})")
    return (f"no known alternative fits these samples better than the declared rules (the "
            f"closest: {best['alternative']}, log LR {_signed(best['log_lr'])})")


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"
