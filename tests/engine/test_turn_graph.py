"""The compiled turn graph: its two float passes agree, and a hand-built graph gives its value."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from engine_graphs import layered_graph

from solver.engine.turn import TurnGraph


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_numpy_pass_equals_kernel_pass(seed: int) -> None:
    """`values` (NumPy, for single queries) and `solve` (compiled, batched) are the same
    recurrence; they may differ only in the order of additions."""
    graph = layered_graph(results=12, layers=9, width=40, seed=seed)
    rng = np.random.default_rng(7)
    utilities = rng.random((5, graph.n_results)) * 60
    batched = graph.solve(utilities).values
    for column, utility in enumerate(utilities):
        assert np.allclose(graph.values(utility), batched[:, column], rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", [4, 5])
def test_exact_pass_equals_float_pass(seed: int) -> None:
    """The exact pass in scaled integers gives the float pass's values (to rounding) at every
    node of the last layer, and its result distribution sums to 1."""
    graph = layered_graph(results=6, layers=7, width=10, seed=seed)
    utility = [Fraction(int(u)) for u in np.random.default_rng(seed).integers(0, 30, 6)]
    floats = graph.solve(np.array([float(u) for u in utility])).values[:, 0]
    for root in range(graph.size - 10, graph.size):
        exact = graph.solve_exact(utility, root=root)
        assert float(exact.value(root)) == pytest.approx(floats[root], abs=1e-12)
        assert sum(exact.distribution) == 1


def test_small_graph_by_hand() -> None:
    """Results 0, 1, 2 worth 0, 1, 2. A coin (1/3 heads) gives result 2 on heads, else a choice
    between result 1 and another coin (1/2: result 2 or 0, worth 1): ties go to the first
    child, so the choice takes result 1. Value: 1/3 * 2 + 2/3 * 1 = 4/3."""
    graph = TurnGraph(3)
    (coin,) = graph.add_chance(np.array([0, 2]), np.array([2, 0]), [1, 1], [2])
    (choice,) = graph.add_choice(np.array([0, 2]), np.array([1, coin]))
    (root,) = graph.add_chance(np.array([0, 2]), np.array([2, choice]), [1, 2], [3])
    exact = graph.solve_exact([Fraction(0), Fraction(1), Fraction(2)], root=int(root))
    assert exact.value(int(root)) == Fraction(4, 3)
    assert exact.distribution == [Fraction(0), Fraction(2, 3), Fraction(1, 3)]
    assert exact.choice(graph, int(choice)) == 0
    floats = graph.solve(np.array([0.0, 1.0, 2.0]), policy=True)
    assert floats.values[root, 0] == pytest.approx(4 / 3, abs=1e-15)
    assert graph.distribution(floats, int(root))[0] == pytest.approx([0, 2 / 3, 1 / 3])
