"""A player's turn compiled into arrays: an acyclic expectimax graph valued by a utility of results.

A turn is chance nodes (a roll: weighted average of children) and choice nodes (a decision: the
best child), over leaves that are the turn's results (final turn scores, say). The graph is built
once per game and reused for any utility of the results: expected points (utility = score) for
one turn, or the value of the game position each score leads to in a race. Built block by block,
children first, so one pass over the blocks in order evaluates it.

A game reads its graph back through `choice_options` (every choice node's options, with the labels
the game gave them: Dalek Dice labels each keep edge with the dice it keeps) and `children`.

Float passes are vectorised over a batch of utility vectors. The exact pass picks each decision with
float values and settles near-ties with exact comparisons, then sums in integers scaled by a common
denominator per block, so it needs no Fraction arithmetic in the hot loop.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from math import lcm
from operator import mul
from typing import TypeVar

import numpy as np

WORKERS = min(2, os.cpu_count() or 1)  # each pass is split in column halves across two threads
MIN_COLUMNS = 2  # a half narrower than this is not worth a thread
_POOL = ThreadPoolExecutor(max_workers=WORKERS)

CHANCE = "chance"
CHOICE = "choice"
T = TypeVar("T")  # what a task run by `_parallel` gives
NO_LABEL = -1  # the label of a choice edge added without one
# Float values closer than this (relative to the largest utility) are compared exactly. Float
# error in a pass is orders of magnitude below it, so an exact maximum is always a candidate.
NEAR_TIE = 1e-9
# Float policies pick the first child within this (relative) distance of the best, so that exact
# ties, blurred by rounding, resolve the same way in float and in exact passes.
FLOAT_TIE = 1e-12


@dataclass
class Block:
    """Nodes [start, stop) of one kind whose children all lie in earlier blocks (CSR layout)."""

    kind: str
    start: int
    stop: int
    indptr: np.ndarray  # local edge offsets, length stop - start + 1
    child: np.ndarray  # node id of each edge's child
    prob: np.ndarray | None = None  # chance edges: float64 probability
    weight: list[int] = field(default_factory=list)  # chance edges: integer weight over the
    # node's denominator (choice blocks: empty)
    denominator: list[int] = field(default_factory=list)  # chance nodes: the common denominator
    # of their weights (choice blocks: empty)
    label: np.ndarray | None = None  # choice edges: the game's label of each (if it gave them)


@dataclass(frozen=True)
class ChoiceOptions:
    """Choice nodes' options as flat arrays, for reading a policy off many nodes at once: the
    k-th option (child) of node n is option `start[n] + k`."""

    start: np.ndarray  # per node: its first option, -1 for nodes not asked for
    child: np.ndarray  # per option: the node it leads to
    label: np.ndarray  # per option: the label it was added with, NO_LABEL if none

    @property
    def nodes(self) -> np.ndarray:
        """The choice nodes covered, in increasing order."""
        return np.flatnonzero(self.start >= 0)


@dataclass
class FloatSolution:
    """Values of every node for a batch of utilities, and the chosen child of every choice node
    (its index among the node's children), when a policy was asked for."""

    values: np.ndarray  # (nodes, batch)
    chosen: np.ndarray | None  # (nodes, batch); meaningful at choice nodes

    def choice(self, node: int, column: int = 0) -> int:
        if self.chosen is None:
            raise ValueError("solved without a policy")
        return int(self.chosen[node, column])


@dataclass
class ExactSolution:
    """Exact values (integers over a per-block scale) and the exact optimal choice of each node."""

    numerators: list[int]
    scales: list[int]  # per block
    leaf_scale: int  # the scale of the results' numerators
    block_index: np.ndarray  # per node (-1 for a result)
    chosen: dict[int, list[int]]  # block -> local edge index per node
    distribution: list[Fraction] | None = None

    def value(self, node: int) -> Fraction:
        b = int(self.block_index[node])
        return Fraction(self.numerators[node], self.leaf_scale if b < 0 else self.scales[b])

    def choice(self, graph: TurnGraph, node: int) -> int:
        b = int(self.block_index[node])
        return self.chosen[b][node - graph._blocks[b].start]


class TurnGraph:
    """An acyclic expectimax graph. Nodes 0..n_results-1 are the results (leaves). A game builds
    it with `add_chance` and `add_choice`, values it with the passes below, and reads it back with
    `children` and `choice_options` (its blocks are its own layout)."""

    def __init__(self, n_results: int) -> None:
        self.n_results = n_results
        self._blocks: list[Block] = []
        self.size = n_results
        self._starts = np.array([0], dtype=np.int64)  # results, then one entry per block
        self._options: dict[bool, ChoiceOptions] = {}  # choice_options, by `labelled`
        self._block_index_cache: np.ndarray | None = None  # `_block_index`, once asked for

    # ---- storing --------------------------------------------------------------------------
    def to_arrays(self) -> dict[str, np.ndarray] | None:
        """The graph as plain arrays (for the disk cache), or None if a weight is too large
        for int64."""
        arrays = {"n_results": np.array(self.n_results)}
        index = np.int32 if self.size < 2**31 else np.int64
        for i, block in enumerate(self._blocks):
            arrays[f"{i}_{block.kind}_indptr"] = block.indptr.astype(index)
            arrays[f"{i}_{block.kind}_child"] = block.child.astype(index)
            if block.label is not None:
                small = np.abs(block.label).max(initial=0) < 2**31
                arrays[f"{i}_{block.kind}_label"] = block.label.astype(
                    np.int32 if small else np.int64)
            if block.kind == CHANCE:
                if max(block.weight) >= 2**63 or max(block.denominator) >= 2**63:
                    return None
                arrays[f"{i}_{block.kind}_weight"] = np.array(block.weight, dtype=np.int64)
                arrays[f"{i}_{block.kind}_denominator"] = np.array(block.denominator,
                                                                  dtype=np.int64)
        return arrays

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> TurnGraph:
        """Rebuild a graph stored by `to_arrays`, block by block."""
        graph = cls(int(arrays["n_results"]))
        blocks = sorted({(int(k.split("_")[0]), k.split("_")[1]) for k in arrays if k[0].isdigit()})
        for i, kind in blocks:
            indptr, child = arrays[f"{i}_{kind}_indptr"], arrays[f"{i}_{kind}_child"]
            if kind == CHANCE:
                graph.add_chance(indptr, child, arrays[f"{i}_{kind}_weight"].tolist(),
                                 arrays[f"{i}_{kind}_denominator"].tolist())
            else:
                graph.add_choice(indptr, child, arrays.get(f"{i}_{kind}_label"))
        return graph

    # ---- building -------------------------------------------------------------------------
    def add_choice(self, indptr: np.ndarray, child: np.ndarray,
                   labels: np.ndarray | None = None) -> np.ndarray:
        """Add choice nodes (CSR: node i has children child[indptr[i]:indptr[i+1]]); their ids.
        `labels` gives each edge a number of the game's (what the option does), which the
        engine only stores and hands back in `choice_options`."""
        return self._add(Block(CHOICE, 0, 0, np.asarray(indptr, np.int64),
                               np.asarray(child, np.int64),
                               label=None if labels is None else np.asarray(labels, np.int64)))

    def add_chance(self, indptr: np.ndarray, child: np.ndarray, weight: Sequence[int],
                   denominator: Sequence[int]) -> np.ndarray:
        """Add chance nodes: edge weights are integers over each node's denominator."""
        indptr = np.asarray(indptr, np.int64)
        weight, denominator = list(weight), list(denominator)
        if max(weight) < 2**53 and max(denominator) < 2**53:  # exact in float64: one rounding
            prob = np.array(weight, np.float64) / np.repeat(np.array(denominator, np.float64),
                                                            np.diff(indptr))
        else:
            per_edge = np.repeat(np.array(denominator, dtype=object), np.diff(indptr))
            prob = np.array([w / d for w, d in zip(weight, per_edge)], dtype=np.float64)
        return self._add(Block(CHANCE, 0, 0, indptr, np.asarray(child, np.int64), prob=prob,
                               weight=weight, denominator=denominator))

    def _add(self, block: Block) -> np.ndarray:
        count = len(block.indptr) - 1
        if count <= 0:
            return np.empty(0, dtype=np.int64)
        if np.any(np.diff(block.indptr) <= 0):
            raise ValueError("every node needs at least one child")
        if len(block.child) and (block.child.min() < 0 or block.child.max() >= self.size):
            raise ValueError("children must be added before their parents")
        block.start, block.stop = self.size, self.size + count
        self._blocks.append(block)
        self.size = block.stop
        self._starts = np.append(self._starts, block.start)
        self._options = {}
        return np.arange(block.start, block.stop, dtype=np.int64)

    # ---- reading it back --------------------------------------------------------------------
    def children(self, node: int) -> np.ndarray:
        """A node's children (its options, for a choice node), in the order they were added."""
        block = self._blocks[self._block_of(node)]
        i = node - block.start
        return block.child[block.indptr[i]:block.indptr[i + 1]]

    def choice_options(self, labelled: bool = False) -> ChoiceOptions:
        """Every choice node's options (with `labelled`, only the nodes added with labels):
        with a FloatSolution's `chosen`, option `start[n] + chosen[n]` is the one played."""
        if labelled not in self._options:
            start = np.full(self.size, -1, dtype=np.int64)
            child, label, offset = [], [], 0
            for block in self._blocks:
                if block.kind != CHOICE or (labelled and block.label is None):
                    continue
                start[block.start:block.stop] = offset + block.indptr[:-1]
                child.append(block.child)
                label.append(np.full(len(block.child), NO_LABEL) if block.label is None
                             else block.label)
                offset += len(block.child)
            empty = np.empty(0, dtype=np.int64)
            self._options[labelled] = ChoiceOptions(
                start, np.concatenate(child) if child else empty,
                np.concatenate(label) if label else empty)
        return self._options[labelled]

    def _block_of(self, node: int) -> int:
        """The block holding a node (-1 for a result leaf)."""
        return int(np.searchsorted(self._starts, node, side="right")) - 2

    def fingerprint(self) -> str:
        """A hash of the whole graph: a cache keyed by it cannot outlive a change of rules.
        Hashed once per size (blocks are only ever added): a server asks it every request."""
        cached = getattr(self, "_fingerprint", None)
        if cached is None or cached[0] != self.size:
            digest = hashlib.sha256()
            for array in self._flat():
                digest.update(np.ascontiguousarray(array).tobytes())
            digest.update(str(self.n_results).encode())
            self._fingerprint = (self.size, digest.hexdigest())
        return self._fingerprint[1]

    def possible_results(self) -> np.ndarray:
        """Which results some edge leads to (the others get no probability under any play)."""
        return np.isin(np.arange(self.n_results), self._flat()[1])

    @property
    def edges(self) -> int:
        return sum(len(b.child) for b in self._blocks)

    # ---- float passes ---------------------------------------------------------------------
    def _flat(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """All edges as one CSR over node ids (leaves have none), for the compiled passes."""
        cached = getattr(self, "_flat_cache", None)
        if cached is not None and len(cached[0]) == self.size + 1:
            return cached
        counts = np.zeros(self.size, dtype=np.int64)
        is_chance = np.zeros(self.size, dtype=np.bool_)
        for block in self._blocks:
            counts[block.start:block.stop] = np.diff(block.indptr)
            is_chance[block.start:block.stop] = block.kind == CHANCE
        index = np.int32 if self.size < 2**31 and counts.sum() < 2**31 else np.int64
        indptr = np.concatenate([[0], np.cumsum(counts)]).astype(index)
        child = (np.concatenate([b.child for b in self._blocks]) if self._blocks else
                 np.empty(0, np.int64)).astype(index)
        prob = np.concatenate([b.prob if b.kind == CHANCE else np.zeros(len(b.child))
                               for b in self._blocks]) if self._blocks else np.empty(0)
        self._flat_cache = (indptr, child, prob, is_chance)
        return self._flat_cache

    def solve(self, utilities: np.ndarray, *, policy: bool = False) -> FloatSolution:
        """Values of every node for a batch of utility vectors (batch x n_results); with
        `policy`, each choice node's chosen child per batch column (first near-best)."""
        utilities = np.atleast_2d(np.asarray(utilities, dtype=np.float64))
        halves = _split(utilities.shape[0])
        parts = _parallel([partial(self._backward, utilities[part], policy) for part in halves])
        if len(parts) == 1:
            return parts[0]
        chosen = [p.chosen for p in parts if p.chosen is not None]  # with `policy`, every part's
        return FloatSolution(np.hstack([p.values for p in parts]),
                             np.hstack(chosen) if policy else None)

    def respond(self, utilities: np.ndarray, root: int, secondary: np.ndarray | None = None
                ) -> tuple[np.ndarray, Callable[[], np.ndarray]]:
        """The root's best value for each utility vector, and a function giving the result
        distributions of those best plays. Each half of the batch runs on its own thread and
        stays apart. Only the choices are kept for the distributions, not the node values: a
        cyclic solve may hold many responses before it asks. `secondary` (one row per utility
        vector): a utility consulted only where options tie (see `kernels.backward`); without
        it ties go to the first option."""
        utilities = np.atleast_2d(np.asarray(utilities, dtype=np.float64))
        if secondary is not None:
            secondary = np.atleast_2d(np.asarray(secondary, dtype=np.float64))
        parts = _parallel([partial(self._backward, utilities[part], True,
                                   None if secondary is None else secondary[part])
                           for part in _split(utilities.shape[0])])
        best = np.concatenate([p.values[root] for p in parts])
        choices = [p.chosen for p in parts if p.chosen is not None]  # solved with the policy

        def distributions() -> np.ndarray:
            return np.vstack(_parallel([partial(self._forward, c, root) for c in choices]))

        return best, distributions

    def values(self, utilities: Sequence[float]) -> np.ndarray:
        """Every node's value for one utility vector, with NumPy only. A single query (a best
        move) is valued this way: it starts at once, where the compiled kernels of `solve`
        first cost about a second of loading. `solve` gives the same numbers (tested)."""
        values = np.empty(self.size)
        values[: self.n_results] = utilities
        for block in self._blocks:
            starts = block.indptr[:-1]
            gathered = values[block.child]
            if block.kind == CHANCE:
                values[block.start:block.stop] = np.add.reduceat(gathered * block.prob, starts)
            else:
                values[block.start:block.stop] = np.maximum.reduceat(gathered, starts)
        return values

    def _backward(self, utilities: np.ndarray, policy: bool,
                  secondary: np.ndarray | None = None) -> FloatSolution:
        from solver.engine import kernels  # imported when first needed: numba loads slowly

        batch = utilities.shape[0]
        values = np.empty((self.size, batch), dtype=np.float64)
        values[: self.n_results] = utilities.T
        gap = FLOAT_TIE * np.maximum(np.abs(utilities).max(axis=1), 1e-300)
        chosen = np.empty((self.size if policy else 0, batch), dtype=np.int32)
        second = np.empty((0 if secondary is None else self.size, batch), dtype=np.float64)
        second_gap = gap
        if secondary is not None:
            second[: self.n_results] = secondary.T
            second_gap = FLOAT_TIE * np.maximum(np.abs(secondary).max(axis=1), 1e-300)
        indptr, child, prob, is_chance = self._flat()
        kernels.backward(indptr, child, prob, is_chance, self.n_results, values, gap, chosen,
                         policy, second, second_gap)
        return FloatSolution(values, chosen if policy else None)

    def evaluate(self, utilities: np.ndarray, policy: np.ndarray) -> np.ndarray:
        """Node values (nodes x batch) when every choice node follows `policy` (a child index per
        node, as in a FloatSolution column): the worth of a fixed way of playing."""
        from solver.engine import kernels

        utilities = np.atleast_2d(np.asarray(utilities, dtype=np.float64))
        values = np.empty((self.size, utilities.shape[0]), dtype=np.float64)
        values[: self.n_results] = utilities.T
        indptr, child, prob, is_chance = self._flat()
        kernels.backward_fixed(indptr, child, prob, is_chance, self.n_results, values,
                               np.ascontiguousarray(policy, dtype=np.int32))
        return values

    def distribution(self, solution: FloatSolution, root: int) -> np.ndarray:
        """The probability of each result (batch x n_results) when play starts at `root` and
        follows the solution's choices."""
        if solution.chosen is None:
            raise ValueError("solve with policy=True first")
        return self._forward(solution.chosen, root)

    def _forward(self, chosen: np.ndarray, root: int) -> np.ndarray:
        from solver.engine import kernels

        indptr, child, prob, is_chance = self._flat()
        mass = np.zeros(chosen.shape)
        kernels.forward(indptr, child, prob, is_chance, self.n_results, root,
                        np.ascontiguousarray(chosen), mass)
        return mass[: self.n_results].T

    # ---- exact pass -------------------------------------------------------------------------
    def solve_exact(self, utilities: Sequence[Fraction], root: int | None = None) -> ExactSolution:
        """Exact values of every node and the exact optimal choices; with `root`, also the exact
        distribution of results from there."""
        utilities = [Fraction(u) for u in utilities]
        if len(utilities) != self.n_results:
            raise ValueError("one utility per result is needed")
        leaf_scale = lcm(*(u.denominator for u in utilities))
        floats = self.values([float(u) for u in utilities])
        tolerance = NEAR_TIE * max(1e-300, max(abs(float(u)) for u in utilities))
        numerators: list[int] = [u.numerator * (leaf_scale // u.denominator) for u in utilities]
        numerators.extend([0] * (self.size - self.n_results))
        scales = self._scales(leaf_scale)
        chosen: dict[int, list[int]] = {}
        for b, block in enumerate(self._blocks):
            # ratio[k + 1] rescales a value of block k (k = -1: a result) to block b's scale
            ratio = np.array([scales[b] // (leaf_scale if k < 0 else scales[k])
                              for k in range(-1, b)], dtype=object)
            child = block.child.tolist()
            bounds = block.indptr.tolist()
            if block.kind == CHANCE:
                factor = (ratio[self._block_index[block.child] + 1]
                          * np.array(block.weight, dtype=object)
                          // np.repeat(np.array(block.denominator, dtype=object),
                                       np.diff(block.indptr))).tolist()
                for i in range(block.stop - block.start):
                    lo, hi = bounds[i], bounds[i + 1]
                    numerators[block.start + i] = sum(map(
                        mul, factor[lo:hi], [numerators[c] for c in child[lo:hi]]))
                continue
            picks = self._exact_picks(block, floats, tolerance, numerators, ratio)
            chosen[b] = picks
            edge = (block.indptr[:-1] + np.array(picks, dtype=np.int64))
            rescale = ratio[self._block_index[block.child[edge]] + 1].tolist()
            for i, (e, r) in enumerate(zip(edge.tolist(), rescale)):
                numerators[block.start + i] = numerators[child[e]] * r
        solution = ExactSolution(numerators, scales, leaf_scale, self._block_index, chosen)
        if root is not None:
            solution.distribution = self._exact_distribution(solution, root)
        return solution

    def _exact_picks(self, block: Block, floats: np.ndarray, tolerance: float,
                     numerators: list[int], ratio: np.ndarray) -> list[int]:
        """Each choice node's best child: the float maximum, unless other children come within
        the tolerance, in which case exact values decide (first child wins exact ties)."""
        vals = floats[block.child]
        starts = block.indptr[:-1]
        sizes = np.diff(block.indptr)
        best = np.maximum.reduceat(vals, starts)
        near = vals >= np.repeat(best, sizes) - tolerance
        picks = _first_max(vals[:, None], best[:, None] - tolerance,
                           block.indptr)[:, 0].tolist()
        for i in np.flatnonzero(np.add.reduceat(near, starts) > 1).tolist():
            lo = int(starts[i])
            best_num = None
            for j in np.flatnonzero(near[lo:lo + sizes[i]]).tolist():
                c = int(block.child[lo + j])
                num = numerators[c] * ratio[self._block_index[c] + 1]
                if best_num is None or num > best_num:
                    picks[i], best_num = j, num
        return picks

    @property
    def _block_index(self) -> np.ndarray:
        """The block of every node (-1 for results), for vectorised lookups."""
        if self._block_index_cache is None or len(self._block_index_cache) != self.size:
            self._block_index_cache = np.searchsorted(
                self._starts, np.arange(self.size), side="right") - 2
        return self._block_index_cache

    def _scales(self, leaf_scale: int) -> list[int]:
        """Per block, a multiple of every denominator its exact values can have."""
        scales, current = [], leaf_scale
        for block in self._blocks:
            if block.kind == CHANCE:
                current *= lcm(*block.denominator)
            scales.append(current)
        return scales

    def _exact_distribution(self, solution: ExactSolution, root: int) -> list[Fraction]:
        total = 1
        for block in self._blocks:
            if block.kind == CHANCE:
                total *= lcm(*block.denominator)
        mass = [0] * self.size
        mass[root] = total
        for b in range(len(self._blocks) - 1, -1, -1):
            block = self._blocks[b]
            child = block.child.tolist()
            for i, node in enumerate(range(block.start, block.stop)):
                m = mass[node]
                if not m:
                    continue
                lo, hi = int(block.indptr[i]), int(block.indptr[i + 1])
                if block.kind == CHOICE:
                    mass[child[lo + solution.chosen[b][i]]] += m
                    continue
                share, rest = divmod(m, block.denominator[i])
                assert rest == 0, "scaled mass must divide exactly"
                for e in range(lo, hi):
                    mass[child[e]] += share * block.weight[e]
        return [Fraction(m, total) for m in mass[: self.n_results]]


def _split(batch: int) -> list[slice]:
    """Column ranges for the worker threads: halves on a machine with two cores or more, when
    the batch is wide enough to share."""
    if batch < 2 * MIN_COLUMNS or WORKERS < 2:
        return [slice(0, batch)]
    half = (batch + 1) // 2
    return [slice(0, half), slice(half, batch)]


def _parallel(tasks: list[Callable[[], T]]) -> list[T]:
    """Run the tasks (compiled passes that release the GIL) side by side, results in order."""
    if len(tasks) == 1:
        return [tasks[0]()]
    futures = [_POOL.submit(task) for task in tasks]
    return [f.result() for f in futures]


def _first_max(gathered: np.ndarray, floor: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """For each segment and column, the local index of the first edge at or above `floor` (the
    segment's maximum less a tie tolerance)."""
    sizes = np.diff(indptr)
    hit = gathered >= np.repeat(floor, sizes, axis=0)
    position = np.where(hit, np.arange(len(gathered))[:, None], len(gathered))
    first = np.minimum.reduceat(position, indptr[:-1])
    return first - indptr[:-1, None]
