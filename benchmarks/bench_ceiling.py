"""How close the level engine's backward pass runs to this machine's limit, and where its time
goes: `python benchmarks/bench_ceiling.py [--c] [--repeat N]`.

On the ten-dice Dalek Dice turn (merged: 154,702 nodes, 719,690 edges) and the 512 utility rows
of `bench_passes.py`, one thread, the shipped backward kernel (`tiles.backward`, no choices
recorded) is timed on:

- the graph as the engine runs it;
- the same graph renumbered in depth-first postorder from the root (children just before their
  first parent: in a model of a 512 KB cache, 11% of the child rows read miss instead of 42%),
  by height (no node waits on another of its height), by height then kind and degree (each
  node's loop as long as the last one's), and a state at a time (each chance node right after
  the keep chains of its rolls: a working set that fits the cache); the same sums in the same
  order, so the same values to the bit;
- the graph cut down to see where the time goes: chance nodes kept whole and each choice node
  reduced to its first option ("chance work"), the reverse ("choice work"), and every node
  reduced to its first edge ("the node loop": a row read and a row written per node).

With `--c` (needs gcc), the same pass written in C (plain loops, compiled with -O3 -mavx2 -mfma
and no contraction into fused multiply-adds, so the same roundings as the kernel) is timed on
the same rows, and its values are checked against the kernel's, to the bit: the gap between
the two is what a better compiler could still give this formulation.
"""

from __future__ import annotations

import argparse
import ctypes
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from bench_passes import ROWS, race_rows

from solver.engine import tiles
from solver.engine.levels.passes import TurnPasses
from solver.formatting import table

Graph = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # indptr, child, prob, is_chance

C_PASS = r"""
#include <stdint.h>
typedef struct { double v[8]; } __attribute__((aligned(64))) row;
void backward(const int32_t *indptr, const int32_t *child, const double *prob,
              const uint8_t *is_chance, int first, int root, row *values) {
    for (int node = first; node <= root; node++) {
        int lo = indptr[node], hi = indptr[node + 1];
        row acc = values[child[lo]];
        if (is_chance[node]) {
            double p = prob[lo];
            for (int j = 0; j < 8; j++) acc.v[j] *= p;
            for (int e = lo + 1; e < hi; e++) {
                const row *x = &values[child[e]];
                double q = prob[e];
                for (int j = 0; j < 8; j++) acc.v[j] += q * x->v[j];
            }
        } else {
            for (int e = lo + 1; e < hi; e++) {
                const row *x = &values[child[e]];
                for (int j = 0; j < 8; j++) acc.v[j] = x->v[j] > acc.v[j] ? x->v[j] : acc.v[j];
            }
        }
        values[node] = acc;
    }
}
"""


def postorder(graph: Graph, first: int, root: int) -> Graph:
    """The graph renumbered in depth-first postorder from the root (results keep their rows;
    each node's edges keep their order)."""
    indptr, child = graph[0], graph[1]
    seen = np.zeros(root + 1, dtype=bool)
    order: list[int] = []
    stack = [(root, int(indptr[root]))]
    seen[root] = True
    while stack:
        node, edge = stack[-1]
        if edge < indptr[node + 1]:
            stack[-1] = (node, edge + 1)
            below = int(child[edge])
            if below >= first and not seen[below]:
                seen[below] = True
                stack.append((below, int(indptr[below])))
        else:
            stack.pop()
            order.append(node)
    return renumbered(graph, first, np.array(order))


def heights(graph: Graph, first: int, root: int) -> np.ndarray:
    """Each node's height: the longest path down to a result."""
    indptr, child = graph[0], graph[1]
    height = np.zeros(root + 1, dtype=np.int64)
    for node in range(first, root + 1):
        height[node] = height[child[indptr[node]:indptr[node + 1]]].max() + 1
    return height


def by_height(graph: Graph, first: int, root: int, degree: bool = False) -> Graph:
    """The graph renumbered by height, the engine's order within a height (no node waits on
    another of its height); with `degree`, by kind and number of edges within a height (each
    node's loop runs as many times as the one before it: a predictable branch)."""
    height, inner = heights(graph, first, root), np.arange(first, root + 1)
    keys = (inner, np.diff(graph[0])[inner], graph[3][inner]) if degree else (inner,)
    return renumbered(graph, first, inner[np.lexsort((*keys, height[inner]))])


def by_state(graph: Graph, first: int, root: int) -> Graph:
    """The graph renumbered a chance node at a time, children first: before each chance node
    (a state before a roll) the nodes of its rolls' keep chains not placed yet, by height, so
    that a state's work reads rows written just before it (a working set that fits the cache)."""
    indptr, child, _, is_chance = graph
    height = heights(graph, first, root)
    placed = np.zeros(root + 1, dtype=bool)
    placed[:first] = True
    order: list[int] = []
    for state in np.flatnonzero(is_chance[first:root + 1]) + first:
        group, stack = [], [int(state)]
        while stack:
            node = stack.pop()
            for edge in range(indptr[node], indptr[node + 1]):
                below = int(child[edge])
                if not placed[below] and not is_chance[below]:
                    placed[below] = True
                    group.append(below)
                    stack.append(below)
        order += [*sorted(group, key=lambda node: (height[node], node)), int(state)]
        placed[state] = True
    return renumbered(graph, first, np.array(order))


def renumbered(graph: Graph, first: int, order: np.ndarray) -> Graph:
    """The graph's nodes above the results in `order` (results keep their rows; each node's
    edges keep their order, so a pass makes the same sums)."""
    nodes = np.concatenate([np.arange(first), order])
    number = np.empty(len(nodes), dtype=np.int64)
    number[nodes] = np.arange(len(nodes))
    return _subgraph(graph, nodes, np.diff(graph[0])[nodes], number)


def cut(graph: Graph, chance: bool, choice: bool) -> Graph:
    """The graph with the chance nodes' (`chance` False) or the choice nodes' (`choice` False)
    edges cut to the first: what remains of the pass is the kept kind's work."""
    indptr, _, _, is_chance = graph
    degree = np.diff(indptr)
    keep = np.where(is_chance, chance, choice)
    nodes = np.arange(len(degree))
    return _subgraph(graph, nodes, np.where(keep, degree, np.minimum(degree, 1)), nodes)


def _subgraph(graph: Graph, nodes: np.ndarray, degree: np.ndarray, number: np.ndarray) -> Graph:
    """`nodes` in this order, each with its first `degree` edges, children renumbered."""
    indptr, child, prob, is_chance = graph
    start = np.concatenate([[0], np.cumsum(degree)])
    edges = np.repeat(indptr[nodes] - start[:-1], degree) + np.arange(start[-1])
    return (start.astype(indptr.dtype), number[child[edges]].astype(child.dtype), prob[edges],
            is_chance[nodes])


def timed(run: Callable[[np.ndarray], None], rows: np.ndarray, first: int, root: int,
          repeat: int) -> tuple[float, np.ndarray]:
    """(best CPU ms per column of `repeat` sweeps over the rows, root values of the last tile)."""
    values = tiles.workspace(root + 1)
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for tile in range(0, len(rows), tiles.WIDTH):
            values[:first] = rows[tile:tile + tiles.WIDTH].T
            run(values)
        best = min(best, time.process_time() - start)
    return best / len(rows) * 1e3, values[root].copy()


def kernel(graph: Graph, first: int, root: int) -> Callable[[np.ndarray], None]:
    """The shipped backward kernel on a graph, no choices recorded."""
    gap = np.zeros(tiles.WIDTH)
    chosen = tiles.workspace(root + 1, np.int8)
    return lambda values: tiles.backward(*graph, first, root, gap, values, chosen, False)


def c_pass(graph: Graph, first: int, root: int) -> Callable[[np.ndarray], None]:
    """The pass compiled from `C_PASS` by gcc."""
    folder = Path(tempfile.mkdtemp())
    (folder / "pass.c").write_text(C_PASS)
    subprocess.run(["gcc", "-O3", "-mavx2", "-mfma", "-ffp-contract=off", "-shared", "-fPIC",
                    "-o", str(folder / "pass.so"), str(folder / "pass.c")], check=True)
    library = ctypes.CDLL(str(folder / "pass.so"))
    indptr, child, prob, is_chance = (np.ascontiguousarray(a) for a in graph)
    flags = is_chance.astype(np.uint8)
    pointer = ctypes.c_void_p
    arrays = [pointer(a.ctypes.data) for a in (indptr, child, prob, flags)]
    return lambda values: library.backward(*arrays, first, root, pointer(values.ctypes.data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--c", action="store_true", help="also time the pass written in C (gcc)")
    parser.add_argument("--repeat", type=int, default=3, help="timings of each (the best kept)")
    options = parser.parse_args()
    if options.c and shutil.which("gcc") is None:
        sys.exit("bench_ceiling: --c needs gcc on the PATH")
    race, rows = race_rows()
    passes = TurnPasses(race.turn.graph, race.turn.root)
    graph, root, first = passes._flat, passes.root, race.turn.graph.n_results
    with tiles.vectorizing():
        kernel(graph, first, root)(tiles.workspace(root + 1))  # compile as the engine does
    whole = [("as the engine runs it", graph),  # the whole pass, renumbered: the same values
             ("depth-first postorder", postorder(graph, first, root)),
             ("by height", by_height(graph, first, root)),
             ("by height, kind and degree", by_height(graph, first, root, True)),
             ("a state at a time", by_state(graph, first, root))]
    cuts = [("chance work (choices cut)", cut(graph, True, False)),  # part of it: other values
            ("choice work (chances cut)", cut(graph, False, True)),
            ("the node loop (all cut)", cut(graph, False, False))]
    runs = [(name, kernel(g, first, root), True) for name, g in whole]
    runs += [(name, kernel(g, first, root), False) for name, g in cuts]
    if options.c:
        runs.append(("the same pass in C (gcc -O3)", c_pass(graph, first, root), True))
    lines, edges, reference = [], len(graph[1]), None
    for name, run, complete in runs:
        ms, values = timed(run, rows, first, root, options.repeat)
        reference = values if reference is None else reference
        same = str(np.array_equal(values, reference)) if complete else ""
        lines.append([name, f"{ms:.3f}", f"{ms * 1e6 / edges:.2f}", same])
    print(f"backward pass, one thread, {ROWS} rows, {root + 1:,} nodes, {edges:,} edges")
    print(table(["graph", "ms/col", "ns/edge (whole graph)", "same bits"], lines))


if __name__ == "__main__":
    main()
