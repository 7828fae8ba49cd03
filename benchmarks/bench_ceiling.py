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
the two is what a better compiler could still give this formulation. `--c` also times the
forward pass (`tiles.forward`, the choices each tile's backward pass recorded) against the same
pass in C, and checks the result distributions agree to the bit.
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
from solver.engine.turn import FLOAT_TIE
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

C_FORWARD = r"""
#include <stdint.h>
#define PUSH(to, q) (to)[0] += (q) * m0; (to)[1] += (q) * m1; (to)[2] += (q) * m2; \
    (to)[3] += (q) * m3; (to)[4] += (q) * m4; (to)[5] += (q) * m5; (to)[6] += (q) * m6; \
    (to)[7] += (q) * m7;
void forward(const int32_t *indptr, const int32_t *child, const double *prob,
             const uint8_t *is_chance, int64_t first, int64_t root, const int8_t *chosen,
             double *mass) {
    for (int64_t node = root; node >= first; node--) {
        double *m = mass + (uint64_t)node * 8;
        double m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6],
               m7 = m[7];
        if (m0 + m1 + m2 + m3 + m4 + m5 + m6 + m7 == 0.0) continue;
        uint64_t lo = indptr[node], hi = indptr[node + 1];
        const int8_t *k = chosen + (uint64_t)node * 8;
        if (is_chance[node]) {
            for (uint64_t e = lo; e < hi; e++) {
                double *to = mass + (uint64_t)child[e] * 8, q = prob[e];
                PUSH(to, q)
            }
        } else if (k[1] == k[0] && k[2] == k[0] && k[3] == k[0] && k[4] == k[0] &&
                   k[5] == k[0] && k[6] == k[0] && k[7] == k[0]) {
            double *to = mass + (uint64_t)child[lo + k[0]] * 8;
            PUSH(to, 1.0)
        } else {
            mass[(uint64_t)child[lo + k[0]] * 8] += m0;
            mass[(uint64_t)child[lo + k[1]] * 8 + 1] += m1;
            mass[(uint64_t)child[lo + k[2]] * 8 + 2] += m2;
            mass[(uint64_t)child[lo + k[3]] * 8 + 3] += m3;
            mass[(uint64_t)child[lo + k[4]] * 8 + 4] += m4;
            mass[(uint64_t)child[lo + k[5]] * 8 + 5] += m5;
            mass[(uint64_t)child[lo + k[6]] * 8 + 6] += m6;
            mass[(uint64_t)child[lo + k[7]] * 8 + 7] += m7;
        }
        m[0] = m[1] = m[2] = m[3] = m[4] = m[5] = m[6] = m[7] = 0.0;
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


def compiled(source: str) -> ctypes.CDLL:
    """C source compiled by gcc with the kernels' roundings (no contraction into fused
    multiply-adds) and loaded."""
    folder = Path(tempfile.mkdtemp())
    (folder / "pass.c").write_text(source)
    subprocess.run(["gcc", "-O3", "-mavx2", "-mfma", "-ffp-contract=off", "-shared", "-fPIC",
                    "-o", str(folder / "pass.so"), str(folder / "pass.c")], check=True)
    return ctypes.CDLL(str(folder / "pass.so"))


def pointers(graph: Graph) -> list[ctypes.c_void_p]:
    """The graph's arrays as C sees them: the caller keeps the graph alive (a numpy bool is
    one byte, 0 or 1, so the kinds pass as they are, with no copy to outlive)."""
    assert all(a.flags.c_contiguous for a in graph) and graph[3].dtype == np.bool_
    return [ctypes.c_void_p(a.ctypes.data) for a in graph]


def c_pass(graph: Graph, first: int, root: int) -> Callable[[np.ndarray], None]:
    """The pass compiled from `C_PASS` by gcc."""
    library, arrays = compiled(C_PASS), pointers(graph)
    return lambda values: library.backward(*arrays, first, root,
                                           ctypes.c_void_p(values.ctypes.data))


def forward_against_c(graph: Graph, first: int, root: int, rows: np.ndarray, repeat: int
                      ) -> list[list[str]]:
    """The forward pass of every tile of `rows` (after its backward pass recorded the choices),
    the kernel's and C's in turn: best CPU ms per column of each, and whether the result
    distributions are the same bits."""
    library, arrays = compiled(C_FORWARD), pointers(graph)
    values, mass = tiles.workspace(root + 1), tiles.workspace(root + 1)
    choices = []
    for tile in range(0, len(rows), tiles.WIDTH):
        chosen = tiles.workspace(root + 1, np.int8)
        values[:first] = rows[tile:tile + tiles.WIDTH].T
        gap = FLOAT_TIE * np.abs(rows[tile:tile + tiles.WIDTH]).max(axis=1)  # the engine's
        tiles.backward(*graph, first, root, gap, values, chosen, True)
        choices.append(chosen)

    def kernel_forward(chosen: np.ndarray) -> None:
        tiles.forward(*graph, first, root, chosen, mass)

    def c_forward(chosen: np.ndarray) -> None:
        library.forward(*arrays, ctypes.c_int64(first), ctypes.c_int64(root),
                        ctypes.c_void_p(chosen.ctypes.data), ctypes.c_void_p(mass.ctypes.data))

    best, results = {}, {}
    for _ in range(repeat):
        for name, run in (("tiles.forward", kernel_forward), ("the same pass in C", c_forward)):
            start, got = time.process_time(), []
            for chosen in choices:
                mass[root] = 1.0
                run(chosen)
                got.append(mass[:first].copy())
                mass[:first] = 0.0
            best[name] = min(best.get(name, float("inf")), time.process_time() - start)
            results[name] = np.concatenate(got, axis=1)
    same = str(np.array_equal(*results.values()))
    return [[name, f"{seconds / len(rows) * 1e3:.3f}", same] for name, seconds in best.items()]


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
    if options.c:
        print("\nforward pass, one thread, the same rows (each tile's recorded choices)")
        with tiles.vectorizing():  # the forward kernel compiled as the engine compiles it
            lines = forward_against_c(graph, first, root, rows, options.repeat)
        print(table(["pass", "ms/col", "same bits"], lines))


if __name__ == "__main__":
    main()
