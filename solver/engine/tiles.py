"""The turn passes over a tile of eight columns, one variable per column.

Node values are stored node-major, a row of `WIDTH` columns per node (a child's tile is one
contiguous read). A kernel looping over a width known only at run time keeps its sums in memory:
it stores each partial sum back to the node's row and reads it again at the next edge. These
kernels know the width: each column's running sum (or maximum, or chosen option) is its own
local variable, so it stays in a register for the whole node, and a node's row is written once.
They do exactly what the loop kernels they replaced did: the same sums in the same order, the
same tie rule, so values, choices and distributions are the same to the bit. A call of fewer
than eight rows pads its tile (the padding columns are not read back). Both passes read and
write rows through flat views by unsigned offsets (row x 8 + column) and count their nodes
unsigned: numba tests every signed index for wrapping round from the end and multiplies by a
row length it knows only at run time, and a row taken as a view per edge cost the backward pass
about two fifths of its time (docs/method.md, "Turn passes").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from numba import njit
from numba.core import config

WIDTH = 8  # columns of a tile: the kernels below are written for exactly this many
LINE = 64  # bytes of a cache line: a node's row of eight float64 is one line, if aligned


@contextmanager
def vectorizing() -> Iterator[None]:
    """Numba compiles with LLVM's SLP vectorizer off (numba/numba#8852, miscompilations in
    other code); it is what packs a tile's eight column variables into two vector registers
    (docs/method.md, "Turn passes": it takes a best response on the ten-dice turn from 1.6 to
    about 1.0 ms a column). On while the kernels compile: `TurnPasses` makes its first call
    inside this, and numba's cache keeps what it compiled. The results are tested to the bit
    against a plain reference (tests/engine/test_tiles.py)."""
    saved = config.SLP_VECTORIZE  # type: ignore[attr-defined]
    config.SLP_VECTORIZE = 1  # type: ignore[attr-defined]
    try:
        yield
    finally:
        config.SLP_VECTORIZE = saved  # type: ignore[attr-defined]


def workspace(rows: int, dtype: type = np.float64) -> np.ndarray:
    """A zeroed (rows, `WIDTH`) array whose rows start on cache lines (numpy aligns large
    arrays to 16 bytes only, so a row of 64 bytes would straddle two lines)."""
    size = rows * WIDTH * np.dtype(dtype).itemsize
    raw = np.zeros(size + LINE, dtype=np.uint8)
    start = -raw.ctypes.data % LINE
    return raw[start:start + size].view(dtype).reshape(rows, WIDTH)


@njit(inline="always")
def _choose(v: float, best: float, picked: float, pick: int, k: int, gap: float
            ) -> tuple[float, float, int]:
    """One column of a choice node at its option `k` of value `v`: the maximum so far, and
    the option chosen (a later option replaces the chosen one only if better by more than the
    gap), as selects."""
    better = v > picked + gap
    return _max(v, best), (v if better else picked), (k if better else pick)


@njit(inline="always")
def _max(v: float, best: float) -> float:
    """The maximum as the loop kernel took it (not `max`, which keeps the first of equals)."""
    return v if v > best else best


@njit(cache=True, nogil=True)
def backward(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray, is_chance: np.ndarray,
             first: int, root: int, gap: np.ndarray, values: np.ndarray, chosen: np.ndarray,
             record: bool) -> None:
    """Values of the nodes `first`..`root` from their children's, for the eight columns of
    `values` (rows below `first` hold the results' utilities); with `record`, each choice
    node's chosen option in `chosen`. `gap` is each column's tie gap. Rows are read and written
    by unsigned offsets into flat views (see the module's docstring)."""
    g0, g1, g2, g3, g4, g5, g6, g7 = gap[0], gap[1], gap[2], gap[3], gap[4], gap[5], gap[6], gap[7]
    flat, picks = values.reshape(-1), chosen.reshape(-1)
    for node in range(np.uint64(first), np.uint64(root + 1)):
        here, lo, hi = _row(node), np.uint64(indptr[node]), np.uint64(indptr[node + _1])
        at = _row(child[lo])
        x0, x1, x2, x3 = flat[at], flat[at + _1], flat[at + _2], flat[at + _3]
        x4, x5, x6, x7 = flat[at + _4], flat[at + _5], flat[at + _6], flat[at + _7]
        if is_chance[node]:
            p = prob[lo]
            v0, v1, v2, v3 = p * x0, p * x1, p * x2, p * x3
            v4, v5, v6, v7 = p * x4, p * x5, p * x6, p * x7
            for e in range(lo + _1, hi):
                at, p = _row(child[e]), prob[e]
                v0, v1 = v0 + p * flat[at], v1 + p * flat[at + _1]
                v2, v3 = v2 + p * flat[at + _2], v3 + p * flat[at + _3]
                v4, v5 = v4 + p * flat[at + _4], v5 + p * flat[at + _5]
                v6, v7 = v6 + p * flat[at + _6], v7 + p * flat[at + _7]
        elif record:
            v0, v1, v2, v3, v4, v5, v6, v7 = x0, x1, x2, x3, x4, x5, x6, x7
            s0, s1, s2, s3, s4, s5, s6, s7 = v0, v1, v2, v3, v4, v5, v6, v7  # chosen's value
            k0 = k1 = k2 = k3 = k4 = k5 = k6 = k7 = 0
            for e in range(lo + _1, hi):
                at, k = _row(child[e]), int(e - lo)
                v0, s0, k0 = _choose(flat[at], v0, s0, k0, k, g0)
                v1, s1, k1 = _choose(flat[at + _1], v1, s1, k1, k, g1)
                v2, s2, k2 = _choose(flat[at + _2], v2, s2, k2, k, g2)
                v3, s3, k3 = _choose(flat[at + _3], v3, s3, k3, k, g3)
                v4, s4, k4 = _choose(flat[at + _4], v4, s4, k4, k, g4)
                v5, s5, k5 = _choose(flat[at + _5], v5, s5, k5, k, g5)
                v6, s6, k6 = _choose(flat[at + _6], v6, s6, k6, k, g6)
                v7, s7, k7 = _choose(flat[at + _7], v7, s7, k7, k, g7)
            picks[here], picks[here + _1], picks[here + _2], picks[here + _3] = k0, k1, k2, k3
            picks[here + _4], picks[here + _5], picks[here + _6], picks[here + _7] = k4, k5, k6, k7
        else:
            v0, v1, v2, v3, v4, v5, v6, v7 = x0, x1, x2, x3, x4, x5, x6, x7
            for e in range(lo + _1, hi):
                at = _row(child[e])
                v0, v1 = _max(flat[at], v0), _max(flat[at + _1], v1)
                v2, v3 = _max(flat[at + _2], v2), _max(flat[at + _3], v3)
                v4, v5 = _max(flat[at + _4], v4), _max(flat[at + _5], v5)
                v6, v7 = _max(flat[at + _6], v6), _max(flat[at + _7], v7)
        flat[here], flat[here + _1], flat[here + _2], flat[here + _3] = v0, v1, v2, v3
        flat[here + _4], flat[here + _5], flat[here + _6], flat[here + _7] = v4, v5, v6, v7


@njit(cache=True, nogil=True)
def forward(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray, is_chance: np.ndarray,
            first: int, root: int, chosen: np.ndarray, mass: np.ndarray) -> None:
    """Push each column's mass from the root (set by the caller) down the recorded choices,
    skipping nodes no column reaches (masses are never negative: a zero sum is no mass). A
    choice node passes a column's mass to its chosen child only (the loop kernel added zero to
    the others), the whole row at once where the eight columns chose alike (half the choice
    nodes of the ten-dice turn). `mass` is all zeros but for the root on entry and is left so,
    but for the results' rows. Rows, of masses and of choices, are addressed in flat views by
    unsigned offsets, and the nodes counted down unsigned (see the module's docstring): signed
    indices cost a quarter of this pass at its edges and 7.5% more at its nodes."""
    flat, picks = mass.reshape(-1), chosen.reshape(-1)
    for back in range(np.uint64(root - first + 1)):
        node = np.uint64(root) - back
        here = _row(node)
        m0, m1, m2, m3 = flat[here], flat[here + _1], flat[here + _2], flat[here + _3]
        m4, m5, m6, m7 = flat[here + _4], flat[here + _5], flat[here + _6], flat[here + _7]
        if m0 + m1 + m2 + m3 + m4 + m5 + m6 + m7 == 0.0:
            continue
        lo, hi = np.uint64(indptr[node]), np.uint64(indptr[node + _1])
        if is_chance[node]:
            for e in range(lo, hi):
                _push(flat, _row(child[e]), prob[e], m0, m1, m2, m3, m4, m5, m6, m7)
        else:
            k0, k1 = np.uint64(picks[here]), np.uint64(picks[here + _1])
            k2, k3 = np.uint64(picks[here + _2]), np.uint64(picks[here + _3])
            k4, k5 = np.uint64(picks[here + _4]), np.uint64(picks[here + _5])
            k6, k7 = np.uint64(picks[here + _6]), np.uint64(picks[here + _7])
            if ((k1 == k0) & (k2 == k0) & (k3 == k0) & (k4 == k0) & (k5 == k0) & (k6 == k0)
                    & (k7 == k0)):
                _push(flat, _row(child[lo + k0]), 1.0, m0, m1, m2, m3, m4, m5, m6, m7)
            else:
                flat[_row(child[lo + k0])] += m0
                flat[_row(child[lo + k1]) + _1] += m1
                flat[_row(child[lo + k2]) + _2] += m2
                flat[_row(child[lo + k3]) + _3] += m3
                flat[_row(child[lo + k4]) + _4] += m4
                flat[_row(child[lo + k5]) + _5] += m5
                flat[_row(child[lo + k6]) + _6] += m6
                flat[_row(child[lo + k7]) + _7] += m7
        flat[here], flat[here + _1], flat[here + _2], flat[here + _3] = 0.0, 0.0, 0.0, 0.0
        flat[here + _4], flat[here + _5], flat[here + _6], flat[here + _7] = 0.0, 0.0, 0.0, 0.0


_1, _2, _3, _4, _5, _6, _7 = (np.uint64(j) for j in range(1, WIDTH))  # column offsets


@njit(inline="always")
def _row(node: int | np.uint64) -> np.uint64:
    """Where a node's row starts in the flat view of a workspace, unsigned."""
    return np.uint64(node) * np.uint64(WIDTH)


@njit(inline="always")
def _push(flat: np.ndarray, at: np.uint64, p: float, m0: float, m1: float, m2: float,
          m3: float, m4: float, m5: float, m6: float, m7: float) -> None:
    """Add p times the eight columns' masses to the row at `at` (p = 1.0 adds them exactly)."""
    flat[at], flat[at + _1], flat[at + _2], flat[at + _3] = (
        flat[at] + p * m0, flat[at + _1] + p * m1, flat[at + _2] + p * m2, flat[at + _3] + p * m3)
    flat[at + _4], flat[at + _5], flat[at + _6], flat[at + _7] = (
        flat[at + _4] + p * m4, flat[at + _5] + p * m5, flat[at + _6] + p * m6,
        flat[at + _7] + p * m7)


@njit(cache=True, nogil=True)
def respond(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray, is_chance: np.ndarray,
            root: int, utilities: np.ndarray, gap: np.ndarray, values: np.ndarray,
            chosen: np.ndarray, mass: np.ndarray, best: np.ndarray, dist: np.ndarray,
            want: bool) -> None:
    """Best values (and, with `want`, result distributions) for utility rows, eight at a time
    in the given workspaces (`WIDTH` columns each; `mass` all zeros)."""
    first, rows = utilities.shape[1], utilities.shape[0]
    gaps = np.zeros(WIDTH)
    for start in range(0, rows, WIDTH):
        width = min(WIDTH, rows - start)
        for r in range(first):
            for b in range(WIDTH):
                values[r, b] = utilities[start + b, r] if b < width else 0.0
        for b in range(WIDTH):
            gaps[b] = gap[start + b] if b < width else 0.0
        backward(indptr, child, prob, is_chance, first, root, gaps, values, chosen, want)
        for b in range(width):
            best[start + b] = values[root, b]
        if want:
            for b in range(width):
                mass[root, b] = 1.0
            forward(indptr, child, prob, is_chance, first, root, chosen, mass)
            for r in range(first):
                for b in range(width):
                    dist[start + b, r] = mass[r, b]
                mass[r] = 0.0
