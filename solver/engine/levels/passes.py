"""The level engine's turn passes: a turn graph played from its root for many utility rows at
once (`TurnPasses`), as compiled kernels over the graph with its duplicate nodes merged
(`_merged`: the ten-dice turn has fewer than half as many), in tiles of eight columns
(`solver.engine.tiles`) with workspaces allocated once per thread. The backward pass records
each choice in a byte, and the forward pass that gives the result distribution reuses them at
once, skipping nodes the policy never reaches."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from numba import njit, types
from numba.typed import Dict

from solver.engine import tiles
from solver.engine.turn import FLOAT_TIE, WORKERS, TurnGraph, _parallel

Workspace = tuple[np.ndarray, np.ndarray, np.ndarray]  # a thread's values, choices, masses
TILE = tiles.WIDTH  # columns per turn pass (`solver.engine.tiles`)


class TurnPasses:
    """A turn graph played from its root, as the level engine runs it: the optimal value of many
    utility rows, and the result distribution of that optimal play when asked. The values and
    the play are those of `TurnGraph.respond` to the bit; the distributions agree to about
    1e-14 (tested), as the passes run on the graph with its duplicate nodes merged
    (`_merged`), which adds the same probabilities in another order."""

    def __init__(self, graph: TurnGraph, root: int) -> None:
        self.tile = TILE
        self.threads = WORKERS  # a cluster's task holds one CPU: its copy sets 1
        self.n_results = graph.n_results
        self.possible = graph.possible_results()
        self._flat, self.root = _merged(*graph._flat(), graph.n_results, root)
        indptr, _, _, is_chance = self._flat
        degree = int(np.diff(indptr)[~is_chance].max(initial=1))
        self._choice_type = next(t for t in (np.int8, np.int16, np.int32)
                                 if degree <= np.iinfo(t).max + 1)
        self._workspaces: list[Workspace] = []
        self._compiled = False

    @property
    def workspace_bytes(self) -> int:
        """What the per-thread buffers take once allocated."""
        rows = self.root + 1
        return WORKERS * rows * self.tile * (16 + np.dtype(self._choice_type).itemsize)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled for another process (levels/cluster.py): without the workspaces, which it
        allocates for itself."""
        return {**self.__dict__, "_workspaces": [], "_compiled": False}

    def respond(self, utilities: np.ndarray, distributions: bool
                ) -> tuple[np.ndarray, np.ndarray | None]:
        """(best value per row, result distribution per row or None). Rows go in whole tiles to
        the threads (a call of one tile runs on one thread), each with its own workspace."""
        if not self._compiled:  # with the vectorizer they need (`tiles.vectorizing`), on one
            self._compiled = True  # thread, or loaded from numba's cache
            with tiles.vectorizing():
                self.respond(np.zeros((1, self.n_results)), True)
        utilities = np.array(utilities, dtype=np.float64, order="C")  # writable: the types
        rows = utilities.shape[0]  # of the first call, which compiled the kernels
        gap = FLOAT_TIE * np.maximum(np.abs(utilities).max(axis=1, initial=0.0), 1e-300)
        best = np.empty(rows)
        dist = np.empty((rows, self.n_results) if distributions else (0, self.n_results))
        whole = -(-rows // self.tile)
        cut = min(rows, -(-whole // self.threads) * self.tile)
        parts = [slice(0, cut), slice(cut, rows)] if cut < rows else [slice(0, rows)]
        indptr, child, prob, is_chance = self._flat

        def run(worker: int) -> None:
            part = parts[worker]
            values, chosen, mass = self._workspace(worker)
            tiles.respond(indptr, child, prob, is_chance, self.root, utilities[part], gap[part],
                          values, chosen, mass, best[part],
                          dist[part] if distributions else dist, distributions)

        for worker in range(len(parts)):  # allocated here, not in the threads
            self._workspace(worker)
        _parallel([partial(run, worker) for worker in range(len(parts))])
        return best, dist if distributions else None

    def _workspace(self, worker: int) -> Workspace:
        while len(self._workspaces) <= worker:
            rows = self.root + 1
            self._workspaces.append((tiles.workspace(rows),
                                     tiles.workspace(rows, self._choice_type),
                                     tiles.workspace(rows)))
        return self._workspaces[worker]


def _merged(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray, is_chance: np.ndarray,
            results: int, root: int) -> tuple[tuple[np.ndarray, ...], int]:
    """The graph below `root` with its duplicate nodes merged (same kind, same children in the
    same order, same probabilities: the same value for any utility), renumbered in the same
    order; the new root. The ten-dice turn builds its keep decisions as chains of per-face
    choices that often end alike: 341,196 nodes become 154,702, and a pass costs about half."""
    same = _duplicates(indptr, child, prob, is_chance, results, root)
    keep = same == np.arange(root + 1)
    number = np.cumsum(keep) - 1
    nodes = np.flatnonzero(keep)
    counts = np.where(nodes < results, 0, indptr[nodes + 1] - indptr[nodes])
    start = np.concatenate([[0], np.cumsum(counts)])
    edges = np.repeat(indptr[nodes] - start[:-1], counts) + np.arange(start[-1])
    index = indptr.dtype
    return ((start.astype(index), number[same[child[edges]]].astype(index), prob[edges],
             is_chance[nodes]), int(number[root]))


@njit(cache=True)
def _duplicates(indptr: np.ndarray, child: np.ndarray, prob: np.ndarray, is_chance: np.ndarray,
                results: int, root: int) -> np.ndarray:
    """For each node up to the root, the first node equal to it (itself if none): nodes in
    increasing order (children first), each keyed by a hash of its kind, probabilities and its
    children's first equals, a match confirmed edge by edge (a hash collision merges
    nothing)."""
    same = np.arange(root + 1)
    first = Dict.empty(key_type=types.int64, value_type=types.int64)
    for node in range(results, root + 1):
        lo, hi = indptr[node], indptr[node + 1]
        key = np.int64(hi - lo) * 1000003 + np.int64(is_chance[node])
        for e in range(lo, hi):
            key = key * 1000003 + np.int64(same[child[e]])
            if is_chance[node]:
                key = key * 1000003 + np.int64(prob[e] * 2.0 ** 52)
        if key not in first:
            first[key] = node
            continue
        other = first[key]
        olo = indptr[other]
        equal = is_chance[other] == is_chance[node] and indptr[other + 1] - olo == hi - lo
        for e in range(lo, hi):
            if not equal:
                break
            equal = same[child[olo + e - lo]] == same[child[e]] and prob[olo + e - lo] == prob[e]
        if equal:
            same[node] = other
    return same
