"""Small dense linear algebra in NumPy's elementwise arithmetic: the same bits on every CPU.

NumPy's `linalg.solve`, `lstsq` and `@` call OpenBLAS, which picks its kernels by the CPU it finds
(on an AMD EPYC "SkylakeX", elsewhere "Haswell"): they sum in different orders, so the last bits
of a solution depend on the machine. Most values shrug that off, but a mixed equilibrium does not:
its weights are fixed only by gaps as small as 1e-10, so a last-bit change in a Newton step moved
the 3-player race to 60's mixing weights by 8.7e-8 and its values by 2.6e-12 (docs/results.md).
Here every operation is one elementwise ufunc (each product and difference rounded once, in the
order written) or a reduction in a fixed order, so the same inputs give the same bits anywhere.
"""

from __future__ import annotations

import numpy as np


def solve(matrix: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """x with matrix @ x = rhs, for one system or a batch: matrix (..., n, n), rhs (..., n) or
    (..., n, m). Gaussian elimination with partial pivoting (the first largest pivot); raises
    `np.linalg.LinAlgError` on a zero pivot, as `np.linalg.solve` does."""
    matrix = np.asarray(matrix, dtype=np.float64)
    rhs = np.asarray(rhs, dtype=np.float64)
    n = matrix.shape[-1]
    columns = 1 if rhs.ndim == matrix.ndim - 1 else rhs.shape[-1]
    a = matrix.reshape(-1, n, n).copy()
    b = rhs.reshape(len(a), n, columns).copy()
    batch = np.arange(len(a))
    for k in range(n):
        pivot = k + np.argmax(np.abs(a[:, k:, k]), axis=1)
        for m in (a, b):
            row = m[batch, k].copy()
            m[batch, k] = m[batch, pivot]
            m[batch, pivot] = row
        if not np.all(a[:, k, k]):
            raise np.linalg.LinAlgError("Singular matrix")
        factor = a[:, k + 1:, k] / a[:, k, None, k]
        a[:, k + 1:, k:] -= factor[:, :, None] * a[:, None, k, k:]
        b[:, k + 1:] -= factor[:, :, None] * b[:, None, k]
    x = np.empty_like(b)
    for k in reversed(range(n)):
        total = b[:, k].copy()
        for j in range(k + 1, n):
            total -= a[:, k, j, None] * x[:, j]
        x[:, k] = total / a[:, k, k, None]
    return x.reshape(rhs.shape)


def combine(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """weights @ rows for a vector of weights and the rows (rows, ...) it weighs, summed row by
    row in order: a fixed order where `@` would take OpenBLAS's."""
    total = np.zeros(rows.shape[1:])
    for weight, row in zip(weights, rows):
        total += weight * row
    return total


def dots(rows: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """rows @ vector for rows (..., n) and a vector (n): each row's products summed by NumPy's
    own reduction (pairwise, in an order fixed by n alone) where `@` would take OpenBLAS's."""
    return np.sum(rows * vector, axis=-1)
