"""What the mover decides at one game position, as the cyclic engine sees it.

A local model maps a utility for each of its results (the mover's value of the position each
result leads to) to the best value and the distribution of results under a best policy. Two kinds:
a compiled turn (`TurnLocal`, a whole push-your-luck turn) and an explicit list of options
(`Choices`, each option a distribution over results). Ties go to the first best option in the
model's own order, in float and exact arithmetic alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from solver.engine.turn import FLOAT_TIE, TurnGraph

BATCH_ELEMENTS = 1 << 22  # float64 node values one batched pass holds (about the L3 cache)


class Response:
    """A local model's best response to a batch of utilities: values, and the result
    distributions of that response, computed when first asked for (then what computing them
    needed, such as a turn pass's choices, is let go)."""

    def __init__(self, values: np.ndarray, distributions: Callable[[], np.ndarray]) -> None:
        self.values = values
        self._compute: Callable[[], np.ndarray] | None = distributions
        self._distributions: np.ndarray | None = None

    def distributions(self) -> np.ndarray:
        if self._compute is not None:
            self._distributions, self._compute = self._compute(), None
        assert self._distributions is not None  # computed above, once
        return self._distributions


class TurnLocal:
    """A turn graph played from its root: one batched pass values many positions at once."""

    def __init__(self, graph: TurnGraph, root: int) -> None:
        self.graph = graph
        self.root = root
        self.n_results = graph.n_results
        self.batch = max(1, BATCH_ELEMENTS // graph.size)

    def respond(self, utilities: np.ndarray, secondary: np.ndarray | None = None) -> Response:
        """Optimal values now; the result distributions only if asked (a second pass). Ties
        go to the best `secondary` (a utility per row, when given), then to the first."""
        return Response(*self.graph.respond(utilities, self.root, secondary))

    def best_exact(self, utilities: Sequence[Fraction]) -> tuple[Fraction, list[Fraction]]:
        """The exact optimal value and result distribution for one utility vector."""
        solution = self.graph.solve_exact(utilities, root=self.root)
        assert solution.distribution is not None  # solved from a root: it has one
        return solution.value(self.root), solution.distribution


class Choices:
    """Explicit options, each a distribution over results: [[(result, probability), ...], ...]."""

    def __init__(self, options: Sequence[Sequence[tuple[int, Fraction]]], n_results: int) -> None:
        if not options:
            raise ValueError("a position needs at least one option")
        self.n_results = n_results
        self.batch = 1 << 16
        self.exact = [[Fraction(0)] * n_results for _ in options]
        for row, option in zip(self.exact, options):
            for result, probability in option:
                row[result] += Fraction(probability)
            if sum(row) != 1:
                raise ValueError("an option's probabilities must sum to 1")
        self.matrix = np.array([[float(p) for p in row] for row in self.exact])

    def values(self, utilities: np.ndarray) -> np.ndarray:
        """Every option's value for a batch of utilities: (batch, options)."""
        return np.atleast_2d(utilities) @ self.matrix.T

    def pick(self, utilities: np.ndarray, secondary: np.ndarray | None = None) -> np.ndarray:
        """The first option within FLOAT_TIE of the best, per batch row; with `secondary`,
        the first of those within FLOAT_TIE of the best secondary value."""
        tied = _near_best(self.values(utilities), utilities)
        if secondary is not None:
            second = np.where(tied, self.values(secondary), -np.inf)
            tied &= _near_best(second, secondary)
        return np.argmax(tied, axis=1)

    def respond(self, utilities: np.ndarray, secondary: np.ndarray | None = None) -> Response:
        """The first best option per batch row (ties to the best `secondary`, when given):
        its value and its result distribution."""
        utilities = np.atleast_2d(utilities)
        chosen = self.pick(utilities, secondary)
        values = self.values(utilities)[np.arange(len(chosen)), chosen]
        return Response(values, lambda: self.matrix[chosen])

    def best_exact(self, utilities: Sequence[Fraction]) -> tuple[Fraction, list[Fraction]]:
        """The first exactly best option: its value and its result distribution."""
        values = [sum((p * u for p, u in zip(row, utilities) if p), Fraction(0))
                  for row in self.exact]
        best = max(range(len(values)), key=lambda i: (values[i], -i))
        return values[best], list(self.exact[best])


def _near_best(values: np.ndarray, utilities: np.ndarray) -> np.ndarray:
    """Options (columns) within FLOAT_TIE (relative to the largest utility) of each row's best."""
    scale = np.maximum(np.abs(np.atleast_2d(utilities)).max(axis=1), 1e-300)
    return values >= (values.max(axis=1) - FLOAT_TIE * scale)[:, None]
