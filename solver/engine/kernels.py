"""Compiled passes over a turn graph (numba): the hot loops of every solve.

Nodes are numbered children first, so one sweep in increasing id evaluates the graph and one
sweep in decreasing id pushes probability from the root down. Node values are rows of a
(nodes x batch) array: each edge reads one contiguous row, so a batch of utility vectors costs
little more than one. Sums run in edge order, so results are identical run to run.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def _average(node: int, lo: int, hi: int, child: np.ndarray, prob: np.ndarray,
             values: np.ndarray) -> None:
    """A chance node: the probability-weighted sum of its children's rows, in edge order."""
    c, p = child[lo], prob[lo]
    for b in range(values.shape[1]):
        values[node, b] = p * values[c, b]
    for e in range(lo + 1, hi):
        c, p = child[e], prob[e]
        for b in range(values.shape[1]):
            values[node, b] += p * values[c, b]


@njit(cache=True, nogil=True, inline="always")
def _maximum(node: int, lo: int, hi: int, child: np.ndarray, values: np.ndarray) -> None:
    """A choice node, no choice recorded: the maximum of its children's rows."""
    c = child[lo]
    for b in range(values.shape[1]):
        values[node, b] = values[c, b]
    for e in range(lo + 1, hi):
        c = child[e]
        for b in range(values.shape[1]):
            values[node, b] = max(values[node, b], values[c, b])


@njit(cache=True, nogil=True, inline="always")
def _first_choice(node: int, c: int, values: np.ndarray, chosen: np.ndarray,
                  picked: np.ndarray, lex: bool, second: np.ndarray,
                  picked2: np.ndarray) -> None:
    """A choice node's scan starts at its first child c: its value, chosen, picked."""
    for b in range(values.shape[1]):
        values[node, b] = values[c, b]
        chosen[node, b] = 0
        picked[b] = values[c, b]
    if lex:
        for b in range(values.shape[1]):
            picked2[b] = second[c, b]


@njit(cache=True, nogil=True, inline="always")
def _consider(node: int, option: int, c: int, values: np.ndarray, floor_gap: np.ndarray,
              chosen: np.ndarray, picked: np.ndarray, lex: bool, second: np.ndarray,
              second_gap: np.ndarray, picked2: np.ndarray) -> None:
    """A later child c (the node's `option`-th): the node's value takes its maximum; it
    replaces the current choice if better by more than the gap, or, with a tie-break utility,
    if tied within the gap and better on `second` by more than its gap."""
    for b in range(values.shape[1]):
        v = values[c, b]
        if v > values[node, b]:
            values[node, b] = v
        if v > picked[b] + floor_gap[b]:
            chosen[node, b] = option
            picked[b] = v
            if lex:
                picked2[b] = second[c, b]
        elif lex and v >= picked[b] - floor_gap[b] and second[c, b] > picked2[b] + second_gap[b]:
            chosen[node, b] = option
            picked2[b] = second[c, b]


@njit(cache=True, nogil=True, inline="always")
def _choose(node: int, lo: int, hi: int, child: np.ndarray, values: np.ndarray,
            floor_gap: np.ndarray, chosen: np.ndarray, picked: np.ndarray, lex: bool,
            second: np.ndarray, second_gap: np.ndarray, picked2: np.ndarray) -> None:
    """A choice node, its choice recorded (see `backward`); `picked`, `picked2` are scratch
    rows for the current choice's values."""
    _first_choice(node, child[lo], values, chosen, picked, lex, second, picked2)
    for e in range(lo + 1, hi):
        _consider(node, e - lo, child[e], values, floor_gap, chosen, picked, lex, second,
                  second_gap, picked2)
    if lex:
        for b in range(values.shape[1]):
            second[node, b] = picked2[b]


@njit(cache=True, nogil=True)
def backward(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray, is_chance: np.ndarray,
             first: int, values: np.ndarray, floor_gap: np.ndarray, chosen: np.ndarray,
             record: bool, second: np.ndarray, second_gap: np.ndarray) -> None:
    """Fill values[first:] from the leaves' rows: chance nodes average, choice nodes take the
    maximum. With `record`, chosen[node, b] is the choice: scanning the children in order, a
    later child replaces the current one only if it is better by more than floor_gap[b], so
    ties blurred by rounding go to the first child, and the choice is within the gap of best.
    `second` (nodes x batch, or no rows) is a tie-break utility, filled along with `values`
    (chance nodes average it, choice nodes take their choice's): with `record`, a later child
    tied with the current choice (within the gap) replaces it if its second value is higher
    by more than second_gap[b]."""
    lex = record and second.shape[0] > 0
    picked = np.empty(values.shape[1])
    picked2 = np.empty(values.shape[1])
    for node in range(first, values.shape[0]):
        lo, hi = indptr[node], indptr[node + 1]
        if is_chance[node]:
            _average(node, lo, hi, child, prob, values)
            if lex:
                _average(node, lo, hi, child, prob, second)
        elif record:
            _choose(node, lo, hi, child, values, floor_gap, chosen, picked, lex, second,
                    second_gap, picked2)
        else:
            _maximum(node, lo, hi, child, values)


@njit(cache=True, nogil=True)
def forward(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray, is_chance: np.ndarray,
            first: int, root: int, chosen: np.ndarray, mass: np.ndarray) -> None:
    """Push probability 1 from the root down the chosen edges; mass must start at zero."""
    batch = mass.shape[1]
    for b in range(batch):
        mass[root, b] = 1.0
    for node in range(root, first - 1, -1):
        lo = indptr[node]
        if is_chance[node]:
            for e in range(lo, indptr[node + 1]):
                c, p = child[e], prob[e]
                for b in range(batch):
                    mass[c, b] += p * mass[node, b]
            continue
        for b in range(batch):
            m = mass[node, b]
            if m != 0.0:
                mass[child[lo + chosen[node, b]], b] += m


@njit(cache=True, nogil=True)
def backward_fixed(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray,
                   is_chance: np.ndarray, first: int, values: np.ndarray,
                   policy: np.ndarray) -> None:
    """Like `backward`, but each choice node follows policy[node] (one policy for the batch)."""
    batch = values.shape[1]
    for node in range(first, values.shape[0]):
        lo, hi = indptr[node], indptr[node + 1]
        if is_chance[node]:
            _average(node, lo, hi, child, prob, values)
            continue
        c = child[lo + policy[node]]
        for b in range(batch):
            values[node, b] = values[c, b]
