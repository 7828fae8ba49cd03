"""Mixed stationary play in one component where pure best responses cycle (issue 12).

With three or more players the game is not zero-sum, and policy iteration can come back to a
policy it had: each mover's best response changes the others' values so that theirs change back.
A stationary equilibrium may then need a mover to mix turn policies. Here a component is taken on
its own (the values of every result that leaves it are fixed: later components are solved), and:

1. each member is restricted to a few candidate turn policies (the ones its dynamics played), each
   a distribution over the turn's results; a mixed policy is their convex combination, again a
   distribution over results, which the engines play and evaluate like any other;
2. the restricted game is solved for an equilibrium by support enumeration, smallest supports
   first: for each choice of supports, the indifference conditions (every candidate in a member's
   support is worth the same to it) are solved by Newton's method in the mixing weights, and the
   solution is kept if its weights are probabilities and no candidate outside a support is better;
3. every member's best response over all turn policies is computed (the Bellman residual); where
   it beats the mix, it joins the candidates, and the restricted game is solved again.

What this guarantees: when it stops with a residual within the tolerance, no member gains more than
that by any turn policy at any one position: a stationary equilibrium of the component up to the
tolerance, and its weights make each mixing member indifferent to the same precision. What it does
not: that one exists (for undiscounted games stationary equilibria need not), that it is the only
one, or that the first one found is the one other dynamics would reach.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, product

import numpy as np

from solver.engine import linear

NEWTON_STEPS = 60
STEP = 1e-4  # of the central differences that give Newton's Jacobian: the gaps can be as small
# as 1e-10 over the whole simplex, so a step of 1e-7 moves them less than their rounding
Respond = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]  # utilities -> (values, dists)


@dataclass
class Component:
    """A component of a stationary game, as mixing sees it: for each member (its position) and
    each result of its turn, the member the result leads to (-1: out of the component) and, for
    results that leave, the values of every metric there; and the metric each member maximises."""

    inside: np.ndarray  # (members, results) int
    outside: np.ndarray  # (members, results, metrics); ignored where inside >= 0
    objective: np.ndarray  # (members,) int

    def evaluate(self, policies: np.ndarray) -> np.ndarray:
        """Every metric at every member (members, metrics) when each plays its distribution."""
        n = len(self.objective)
        stay = self.inside >= 0
        matrix = np.eye(n)
        for k, r in zip(*np.nonzero(stay)):
            matrix[k, self.inside[k, r]] -= policies[k, r]
        rhs = np.einsum("kr,krm->km", np.where(stay, 0.0, policies), self.outside)
        return linear.solve(matrix, rhs)

    def utilities(self, values: np.ndarray) -> np.ndarray:
        """Each member's worth of each result (members, results) given the members' values."""
        own = self.outside[np.arange(len(self.objective)), :, self.objective].copy()
        stay = self.inside >= 0
        k, r = np.nonzero(stay)
        own[k, r] = values[self.inside[k, r], self.objective[k]]
        return own


@dataclass
class Mixed:
    """A mixed stationary play of a component: each member's candidates and weights (the
    distribution it plays is their weighted sum), its values and Bellman residual."""

    candidates: list[np.ndarray]  # per member: (candidates, results)
    weights: list[np.ndarray]  # per member: (candidates,)
    values: np.ndarray  # (members, metrics)
    residual: float
    rounds: int  # restricted games solved

    @property
    def policies(self) -> np.ndarray:
        return played(self.weights, self.candidates)


def played(weights: list[np.ndarray], candidates: list[np.ndarray]) -> np.ndarray:
    """The distribution each member plays (members, results): its candidates, weighted."""
    return np.stack([linear.combine(w, c) for w, c in zip(weights, candidates)])


def pack(mixes: list[tuple[np.ndarray, Mixed]]) -> dict[str, np.ndarray]:
    """Mixes ((positions, Mixed) per component) as plain arrays, for a checkpoint that holds no
    pickles: a row per candidate (its component, member position, weight and distribution) and
    a row per component (residual, rounds). The values are the positions' own."""
    rows = [(c, position, weight, candidate)
            for c, (positions, found) in enumerate(mixes)
            for position, candidates, weights in zip(positions.tolist(), found.candidates,
                                                     found.weights)
            for candidate, weight in zip(candidates, weights.tolist())]
    if not rows:
        return {}
    return {"mix_component": np.array([r[0] for r in rows], dtype=np.int64),
            "mix_position": np.array([r[1] for r in rows], dtype=np.int64),
            "mix_weight": np.array([r[2] for r in rows]),
            "mix_policy": np.stack([r[3] for r in rows]),
            "mix_residual": np.array([found.residual for _, found in mixes]),
            "mix_rounds": np.array([found.rounds for _, found in mixes], dtype=np.int64)}


def unpack(arrays: dict[str, np.ndarray], values: np.ndarray,
           positions: np.ndarray | None = None) -> list[tuple[np.ndarray, Mixed]]:
    """`pack`'s mixes back, each member's values read from `values` (metrics, positions): a
    column per position number, or per one of `positions` (sorted) if given."""
    if "mix_component" not in arrays:
        return []
    component, position = arrays["mix_component"], arrays["mix_position"]

    def columns(members: np.ndarray) -> np.ndarray:
        return members if positions is None else np.searchsorted(positions, members)

    mixes = []
    for c, (residual, rounds) in enumerate(zip(arrays["mix_residual"].tolist(),
                                               arrays["mix_rounds"].tolist())):
        rows = np.flatnonzero(component == c)
        members, first = np.unique(position[rows], return_index=True)
        members = members[np.argsort(first)]  # in the order packed
        own = [rows[position[rows] == member] for member in members]
        mixes.append((members, Mixed([arrays["mix_policy"][r] for r in own],
                                     [arrays["mix_weight"][r] for r in own],
                                     values[:, columns(members)].T, residual, rounds)))
    return mixes


def mix(component: Component, policies: np.ndarray, respond: Respond, tolerance: float,
        steps: int = 12) -> Mixed | None:
    """A mixed equilibrium of a component whose pure play cycles, from the distributions it
    plays now: the candidates are the policies pure dynamics visit from there (each member's
    best response to the values of the policy before, `steps` times or until a policy
    repeats), then `solve`."""
    candidates = [[row] for row in policies]
    seen = {policies.tobytes()}
    for _ in range(steps):
        policies = respond(component.utilities(component.evaluate(policies)))[1]
        for k, row in enumerate(policies):
            candidates[k].append(row)
        if policies.tobytes() in seen:
            break
        seen.add(policies.tobytes())
    return solve(component, [np.array(c) for c in candidates], respond, tolerance)


def solve(component: Component, candidates: list[np.ndarray], respond: Respond,
          tolerance: float, rounds: int = 10) -> Mixed | None:
    """A mixed equilibrium of the component from these candidates (per member, rows of result
    distributions), adding best responses until the Bellman residual is within the tolerance;
    None if a restricted game has no equilibrium found, or `rounds` pass without one."""
    candidates = [_distinct(c) for c in candidates]
    for round_ in range(1, rounds + 1):
        weights = restricted_equilibrium(component, candidates, tolerance)
        if weights is None:
            return None
        policies = played(weights, candidates)
        values = component.evaluate(policies)
        own = values[np.arange(len(values)), component.objective]
        best, responses = respond(component.utilities(values))
        residual = float(np.max(np.abs(best - own)))
        mixed = Mixed(candidates, weights, values, residual, round_)
        if residual <= tolerance:
            return mixed
        better = best - own > tolerance
        candidates = [_distinct(np.vstack([c, responses[k:k + 1]])) if better[k] else c
                      for k, c in enumerate(candidates)]
    return None


def restricted_equilibrium(component: Component, candidates: list[np.ndarray],
                           tolerance: float) -> list[np.ndarray] | None:
    """Weights per member over its candidates making a stationary equilibrium of the game
    restricted to them (support enumeration, smallest supports first), or None."""
    supports = [[s for size in range(1, len(c) + 1) for s in combinations(range(len(c)), size)]
                for c in candidates]
    for choice in sorted(product(*supports), key=lambda s: sum(map(len, s))):
        weights = _indifferent(component, candidates, choice)
        if weights is not None and _stable(component, candidates, weights, tolerance):
            return weights
    return None


def worths(component: Component, candidates: list[np.ndarray],
           weights: list[np.ndarray]) -> list[np.ndarray]:
    """Each member's worth of each of its candidates, the others playing their weights."""
    policies = played(weights, candidates)
    utilities = component.utilities(component.evaluate(policies))
    return [linear.dots(c, utilities[k]) for k, c in enumerate(candidates)]


def _indifferent(component: Component, candidates: list[np.ndarray],
                 support: tuple[tuple[int, ...], ...]) -> list[np.ndarray] | None:
    """Weights on the given supports that make every member indifferent among its support
    (Newton's method in the free weights, from the uniform mix), or None."""
    free = [(k, s) for k, s in enumerate(support) for _ in s[1:]]
    sizes = [len(c) for c in candidates]

    def weights_of(x: np.ndarray) -> list[np.ndarray]:
        weights, at = [], 0
        for k, s in enumerate(support):
            w = np.zeros(sizes[k])
            w[list(s[1:])] = x[at:at + len(s) - 1]
            w[s[0]] = 1.0 - w.sum()
            weights.append(w)
            at += len(s) - 1
        return weights

    def gaps(x: np.ndarray) -> np.ndarray:
        worth = worths(component, candidates, weights_of(x))
        return np.array([worth[k][j] - worth[k][s[0]] for k, s in enumerate(support)
                         for j in s[1:]])

    x = np.concatenate([np.full(len(s) - 1, 1.0 / len(s)) for s in support])
    if not free:
        return weights_of(x)
    for _ in range(NEWTON_STEPS):
        f = gaps(x)
        if np.max(np.abs(f)) < 1e-15:
            break
        jacobian = np.column_stack([(gaps(x + STEP * e) - gaps(x - STEP * e)) / (2 * STEP)
                                    for e in np.eye(len(x))])
        try:
            x = x - linear.solve(jacobian, f)
        except np.linalg.LinAlgError:  # a zero pivot: as lstsq's least-norm step from an
            break  # all-0 Jacobian (most singular ones measured), no step; the gaps below decide
    weights = weights_of(x)
    if not np.max(np.abs(gaps(x))) <= 1e-13 or min(w.min() for w in weights) < -1e-12:  # NaN too
        return None
    return [np.clip(w, 0.0, None) / np.clip(w, 0.0, None).sum() for w in weights]


def _stable(component: Component, candidates: list[np.ndarray], weights: list[np.ndarray],
            tolerance: float) -> bool:
    """No member has a candidate better than what it plays (by more than the tolerance)."""
    worth = worths(component, candidates, weights)
    return all(v.max() <= linear.combine(w, v) + tolerance for v, w in zip(worth, weights))


def _distinct(rows: np.ndarray) -> np.ndarray:
    """Candidate distributions without repeats (equal within 1e-15), in their first order."""
    kept: list[np.ndarray] = []
    for row in np.atleast_2d(rows):
        if not any(np.max(np.abs(row - k)) <= 1e-15 for k in kept):
            kept.append(row)
    return np.array(kept)
