"""Random turn graphs the engine tests share (test_turn_graph.py, test_levels.py)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from solver.engine.turn import TurnGraph


def layered_graph(results: int, layers: int, width: int, seed: int) -> TurnGraph:
    """A random acyclic turn graph: layers of chance and choice nodes, each node's children
    drawn from everything built before it (results and earlier layers), chance weights small
    integers. Any such graph is a valid turn: the passes must agree on all of them."""
    rng = np.random.default_rng(seed)
    graph = TurnGraph(results)
    built = results
    for layer in range(layers):
        degree = rng.integers(1, 5, size=width)
        indptr = np.concatenate([[0], np.cumsum(degree)])
        child = rng.integers(0, built, size=int(indptr[-1]))
        if layer % 2:
            graph.add_choice(indptr, child)
        else:
            weight = rng.integers(1, 7, size=len(child)).tolist()
            graph.add_chance(indptr, child, weight,
                             [int(sum(weight[a:b])) for a, b in pairwise(indptr)])
        built += width
    return graph
