"""The Dalek Dice turn graph through the engine's public API: its two float passes agree, its
labelled options are exactly the keep decisions, and the disk cache keeps the labels."""

from __future__ import annotations

import numpy as np
import pytest

from solver.engine.turn import NO_LABEL, TurnGraph
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import CompiledTurn, build_turn, compile_turn


@pytest.fixture(scope="module")
def turn() -> CompiledTurn:
    return build_turn(parse_rules(dice=6))


def test_numpy_pass_equals_kernel_pass(turn: CompiledTurn) -> None:
    """`values` (NumPy, for single queries) and `solve` (compiled, batched) are the same
    recurrence; they may differ only in the order of additions."""
    graph = turn.graph
    rng = np.random.default_rng(7)
    utilities = rng.random((5, graph.n_results)) * 60
    batched = graph.solve(utilities).values
    for column, utility in enumerate(utilities):
        assert np.allclose(graph.values(utility), batched[:, column], rtol=0, atol=1e-12)


def test_labelled_options_are_the_keep_decisions(turn: CompiledTurn) -> None:
    """Every choice node is a stop-or-roll decision (unlabelled: stop's points, then the roll)
    or a step of a keep (labelled with the dice it keeps); `children` agrees with the flat
    options."""
    graph = turn.graph
    every, keeps = graph.choice_options(), graph.choice_options(labelled=True)
    decide = np.array(sorted(turn.decide.values()))
    assert np.array_equal(np.union1d(decide, keeps.nodes), every.nodes)
    assert not np.isin(decide, keeps.nodes).any()
    for node in decide[:50].tolist():
        stop, roll = graph.children(node).tolist()
        assert stop < graph.n_results <= roll
        assert every.label[every.start[node]] == every.label[every.start[node] + 1] == NO_LABEL
    for node in keeps.nodes[:50].tolist():
        children = graph.children(node)
        first = keeps.start[node]
        assert np.array_equal(keeps.child[first:first + len(children)], children)
        assert np.all(keeps.label[first:first + len(children)] >= 0)


def test_cache_keeps_the_labels(turn: CompiledTurn) -> None:
    stored = TurnGraph.from_arrays(turn.graph.to_arrays())
    assert stored.fingerprint() == turn.graph.fingerprint()
    for labelled in (False, True):
        before, after = turn.graph.choice_options(labelled), stored.choice_options(labelled)
        for name in ("start", "child", "label"):
            assert np.array_equal(getattr(before, name), getattr(after, name))
    compile_turn(turn.rules)  # stored in the cache (if no test did it before)
    loaded = compile_turn(turn.rules)
    assert np.array_equal(loaded.graph.choice_options(True).label,
                          turn.graph.choice_options(True).label)
