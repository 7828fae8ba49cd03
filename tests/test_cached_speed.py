"""Cached answers take the fast path: a second `dalek turn` or `dalek best-move` in a fresh
process reads its answer without loading numba (nor scipy, sympy, networkx) and answers what the
first one computed, byte for byte; a server keeps what it read in memory. No timings here: the
figures are benchmarks/bench_cached.py's (docs/results.md)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from games.dalek.dalek_bruteforce import BruteForce  # shares no code with the solver
from helpers import HEAVY, cached_twice

from solver import cache
from solver.games import registry
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.rules import DEFAULT_FACES
from solver.games.dalek.turn import compile_turn


def twice(tmp_path: Path, *args: str) -> tuple[dict, dict, set[str]]:
    """A dalek command run twice in fresh processes sharing one cache (`cached_twice`)."""
    command = ("dalek", *args, "--json")
    return cached_twice(tmp_path, command, command)


def without_timings(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "timings"}


def test_a_cached_turn_summary_loads_no_numba(tmp_path: Path) -> None:
    first, second, imported = twice(tmp_path, "turn", "--dice", "3", "--exact",
                                    "--distribution")
    assert not imported & HEAVY
    assert (first["timings"]["cached"], second["timings"]["cached"]) == (False, True)
    assert without_timings(second) == without_timings(first)
    assert Fraction(second["expected_points_exact"]) == BruteForce(DEFAULT_FACES, "ge").start(3)


@pytest.mark.parametrize("exact", [False, True])
def test_a_cached_best_move_loads_no_numba(tmp_path: Path, exact: bool) -> None:
    args = ["best-move", "--dice", "3", "--roll", "H4 D3 D2"] + (["--exact"] if exact else [])
    first, second, imported = twice(tmp_path, *args)
    assert not imported & HEAVY
    assert (first["timings"]["cached"], second["timings"]["cached"]) == (False, True)
    assert without_timings(second) == without_timings(first)
    expected = BruteForce(DEFAULT_FACES, "ge").options((3, 0, 0, 0, 0), ("H4", "D3", "D2"))
    assert len(second["options"]) == len(expected) > 1
    for option in second["options"]:
        value = expected[(" ".join(option["keep"]) or "-", option["action"])]
        assert option["value"] == pytest.approx(float(value), abs=1e-12)
        if exact:
            assert Fraction(option["value_exact"]) == value


def test_a_cached_race_best_move_loads_no_numba(tmp_path: Path) -> None:
    first, second, imported = twice(tmp_path, "best-move", "--dice", "2", "--target", "8",
                                    "--roll", "H4 D3", "--scores", "0,5", "--quiet")
    assert not imported & HEAVY
    assert second["timings"]["cached"]
    assert without_timings(second) == without_timings(first)


def test_a_shipped_race_answer_loads_no_numba(tmp_path: Path) -> None:
    """The 3-player race to 60 ships solved (solver/games/dalek/shipped/): from an empty cache
    the first answer reads it (only the turn graph is built), the second too, neither solving."""
    args = ("dalek", "game", "--players", "3", "--scores", "30,42,12", "--seat", "2", "--json")
    first, second, imported = cached_twice(tmp_path, args, args)
    assert not imported & HEAVY
    assert first["shipped"] == second["shipped"] and first["timings"]["cached"]
    assert without_timings(second) == without_timings(first)


def test_a_server_keeps_what_it_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once `cache.remember` is called, the same compiled turn and the same race values come
    back; before it, each call reads the cache again (a command line answers once)."""
    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path))
    monkeypatch.setattr(cache, "_memory", None)
    rules = parse_rules(dice=2)
    assert compile_turn(rules) is not compile_turn(rules)
    solve_race(DalekRace(compile_turn(rules), 2, 8))  # solved and stored
    cache.remember()
    turn = compile_turn(rules)
    assert compile_turn(rules) is turn
    values = solve_race(DalekRace(turn, 2, 8))
    assert values.cached and solve_race(DalekRace(turn, 2, 8)) is values
    other = solve_race(DalekRace(turn, 2, 9))  # another race is its own entry
    assert other is not values and other.race.target == 9


def test_what_serve_preloads_is_what_the_page_may_ask() -> None:
    from solver.web.api import Api

    api = Api()
    for name, game in registry().items():
        for command, *args in game.preload:
            query = [(args[i][2:], args[i + 1]) for i in range(0, len(args) - 1, 2)]
            assert command in game.page
            api.arguments(name, command, query)  # refused with InputError if not allowed
