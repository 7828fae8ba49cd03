"""The turn passes over tiles of eight columns (solver/engine/tiles.py) against a plain numpy
reference of the loop kernels they replaced: the same sums in the same order and the same tie
rule, so values, choices and distributions equal to the bit, for any number of rows (a last
tile of fewer than eight is padded)."""

from __future__ import annotations

import numpy as np
import pytest
from engine_graphs import layered_graph

from solver.engine import tiles
from solver.engine.levels import TurnPasses
from solver.engine.turn import FLOAT_TIE
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import compile_turn


def reference(flat: tuple[np.ndarray, ...], root: int, utilities: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(every node's values, every choice node's chosen option, the result distributions),
    one row per utility row, as the loop kernels computed them: a chance node's weighted sum
    child by child, a choice node's maximum by selects, its choice replaced by a later option
    only if better by more than the row's gap; mass pushed from the root down the choices."""
    indptr, child, prob, is_chance = flat
    rows, first = utilities.shape
    gap = FLOAT_TIE * np.maximum(np.abs(utilities).max(axis=1), 1e-300)
    values = np.zeros((root + 1, rows))
    values[:first] = utilities.T
    chosen = np.zeros((root + 1, rows), dtype=np.int64)
    for node in range(first, root + 1):
        lo, hi = int(indptr[node]), int(indptr[node + 1])
        if is_chance[node]:
            total = prob[lo] * values[child[lo]]
            for e in range(lo + 1, hi):
                total += prob[e] * values[child[e]]
            values[node] = total
            continue
        best = values[child[lo]].copy()
        picked, pick = best.copy(), np.zeros(rows, dtype=np.int64)
        for e in range(lo + 1, hi):
            v = values[child[e]]
            best = np.where(v > best, v, best)
            better = v > picked + gap
            pick = np.where(better, e - lo, pick)
            picked = np.where(better, v, picked)
        values[node], chosen[node] = best, pick
    mass = np.zeros((root + 1, rows))
    mass[root] = 1.0
    for node in range(root, first - 1, -1):
        lo, hi = int(indptr[node]), int(indptr[node + 1])
        for e in range(lo, hi):
            push = prob[e] * mass[node] if is_chance[node] else np.where(
                chosen[node] == e - lo, mass[node], 0.0)
            mass[child[e]] += push
    return values, chosen, mass[:first].T


def small_dalek_turn() -> tuple:
    turn = compile_turn(parse_rules(dice=3))
    return turn.graph, turn.root


def random_turn() -> tuple:
    graph = layered_graph(results=12, layers=9, width=40, seed=7)
    return graph, graph.size - 1


@pytest.mark.parametrize("build", [random_turn, small_dalek_turn])
@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 6, 7, 8, 13, 21])
def test_tiles_equal_the_loop_kernels(build, rows: int) -> None:
    """Values at the root, each choice of a tile and the distributions, to the bit."""
    graph, root = build()
    passes = TurnPasses(graph, root)
    flat, top = passes._flat, passes.root
    rng = np.random.default_rng(rows)
    utilities = rng.integers(0, 4, size=(rows, graph.n_results)) / 3  # many exact ties
    utilities[rows // 2:] += rng.random((rows - rows // 2, graph.n_results)) * 1e-3
    values, chosen, dist = reference(flat, top, utilities)

    width = min(rows, tiles.WIDTH)
    work = np.zeros((top + 1, tiles.WIDTH))
    work[:graph.n_results, :width] = utilities[:width].T
    picks = np.zeros((top + 1, tiles.WIDTH), dtype=passes._choice_type)
    gap = np.zeros(tiles.WIDTH)
    gap[:width] = FLOAT_TIE * np.abs(utilities[:width]).max(axis=1)
    tiles.backward(*flat, graph.n_results, top, gap, work, picks, True)
    assert np.array_equal(work[:, :width], values[:, :width])
    choice = ~flat[3][:top + 1]
    choice[:graph.n_results] = False
    assert np.array_equal(picks[choice, :width], chosen[choice, :width])

    passes.threads = 1
    best, got = passes.respond(utilities, True)
    assert np.array_equal(best, values[top])
    assert np.array_equal(got, dist)
    assert np.array_equal(passes.respond(utilities, False)[0], values[top])
