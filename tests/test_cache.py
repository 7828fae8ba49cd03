"""The disk cache: a stored entry comes back, a damaged or foreign one is ignored and rebuilt."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solver import cache
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import build_turn, compile_turn


@pytest.fixture(autouse=True)
def own_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path))
    return tmp_path


def test_round_trip_and_other_keys() -> None:
    key = {"game": "test", "n": 1}
    cache.store(key, {"a": np.arange(5)})
    assert np.array_equal(cache.load(key)["a"], np.arange(5))
    assert cache.load({"game": "test", "n": 2}) is None


def test_damaged_entry_is_ignored_and_rewritten(own_directory: Path) -> None:
    key = {"game": "test", "n": 1}
    cache.store(key, {"a": np.arange(5)})
    (data,) = own_directory.glob("*.npz")
    data.write_bytes(data.read_bytes()[:-10] + b"0123456789")
    assert cache.load(key) is None
    cache.store(key, {"a": np.arange(3)})
    assert np.array_equal(cache.load(key)["a"], np.arange(3))


def test_cached_turn_is_the_built_turn() -> None:
    rules = parse_rules(dice=5)
    built = build_turn(rules)
    compile_turn(rules)  # builds and stores
    loaded = compile_turn(rules)  # loads
    assert loaded.graph.fingerprint() == built.graph.fingerprint()
    assert loaded.chance == built.chance and loaded.decide == built.decide
    utility = np.arange(loaded.graph.n_results, dtype=np.float64)
    assert np.array_equal(loaded.graph.values(utility), built.graph.values(utility))


def test_second_race_solve_is_read_from_the_cache() -> None:
    race = DalekRace(compile_turn(parse_rules(dice=2)), 2, 6)
    first = solve_race(race)
    second = solve_race(race)
    assert not first.cached and second.cached
    assert np.array_equal(first.table, second.table)
