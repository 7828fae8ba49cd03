"""The small dense systems of the level engine and the mixed search (solver/engine/linear.py),
against sympy's exact rational solve of the same systems."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy

from solver.engine import linear


def exact(matrix: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """sympy's LU solve of one system in rationals (every float is a rational exactly)."""
    a = sympy.Matrix(matrix.shape[0], matrix.shape[1],
                     [sympy.Rational(Fraction(float(x))) for x in matrix.ravel()])
    b = sympy.Matrix(rhs.shape[0], rhs.shape[1],
                     [sympy.Rational(Fraction(float(x))) for x in rhs.ravel()])
    return np.array(a.LUsolve(b).evalf(30).tolist(), dtype=float)


def substochastic(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """I - P with P's rows summing to less than 1: the systems a component's values solve."""
    p = rng.random((count, size, size)) * (rng.random((count, size, size)) < 0.6)
    p /= p.sum(axis=2, keepdims=True) + rng.random((count, size, 1)) + 1e-3
    return np.eye(size) - p


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
def test_a_batch_of_value_systems_is_solved_to_the_exact_answer(size: int) -> None:
    """Within a few units in the last place of sympy's exact solution, system by system."""
    rng = np.random.default_rng(size)
    matrix = substochastic(rng, 12, size)
    rhs = rng.random((12, size, 3))
    got = linear.solve(matrix, rhs)
    assert got.shape == rhs.shape
    for a, b, x in zip(matrix, rhs, got):
        assert np.abs(x - exact(a, b)).max() <= 1e-14


def test_a_system_needing_row_swaps_and_a_vector_right_hand_side() -> None:
    """A zero where the first pivot would be (no solve without swapping rows), one system and a
    vector right-hand side, as the mixed search's Newton steps give it."""
    matrix = np.array([[0.0, 2.0, 1.0], [3.0, 1.0, -1.0], [1.0, -4.0, 2.0]])
    rhs = np.array([1.0, -2.0, 0.5])
    got = linear.solve(matrix, rhs)
    assert got.shape == (3,)
    assert np.abs(got - exact(matrix, rhs[:, None])[:, 0]).max() <= 1e-15


def test_a_singular_system_is_refused_as_numpy_refuses_it() -> None:
    with pytest.raises(np.linalg.LinAlgError):
        linear.solve(np.array([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]]),
                     np.ones((2, 2, 1)))


def test_an_empty_batch_gives_an_empty_answer() -> None:
    assert linear.solve(np.zeros((0, 3, 3)), np.zeros((0, 3, 2))).shape == (0, 3, 2)


def test_combine_sums_the_weighted_rows_in_order() -> None:
    """Row by row: (w0 r0 + w1 r1) + w2 r2, each step rounded as written."""
    rows = np.array([[0.1, 1e16], [0.2, 1.0], [0.3, -1e16]])
    weights = np.array([1.0, 1.0, 1.0])
    assert linear.combine(weights, rows).tolist() == [(0.1 + 0.2) + 0.3, (1e16 + 1.0) - 1e16]
    assert linear.combine(weights, rows[:, 0]) == (0.1 + 0.2) + 0.3


def test_dots_sums_each_rows_products() -> None:
    """Each row's products, summed; exact where the sums are (small integers)."""
    rows = np.arange(12.0).reshape(3, 4)
    assert linear.dots(rows, np.array([1.0, 2.0, 3.0, 4.0])).tolist() == [20.0, 60.0, 100.0]
