"""What ships inside the package: the race values (solver/games/dalek/shipped.py), whose format
reads back to the bits a solve gave, which `solve_race` uses only for exactly the race they were
written for, which answer today's races and (slow) hold a fresh solve's values; and the default
rules' turn graph (shippedturn.py), today's, read where the cache has none."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import invoke
from jsonschema import Draft202012Validator

from solver import cache, schemas
from solver.cli import cli
from solver.engine.solving import Solving
from solver.games.dalek import shipped, shippedturn, turn
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace, RaceValues
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import build_turn, compile_turn, turn_arrays, turn_key

LEVELS = Solving("levels")
MADE = {"date": "2026-12-02", "commit": "0123456789abcdef"}


@pytest.fixture(autouse=True)
def _no_memory(monkeypatch) -> None:
    """Nothing read here is kept in this process's memory (`cache.remember`, which the page's
    tests may have called): the shipped files these tests write are their own."""
    monkeypatch.setattr(cache, "_memory", None)


def race_of(players: int, target: int, dice: int = 3, tie_rule: str = "ge",
            **options) -> DalekRace:
    return DalekRace(compile_turn(parse_rules(dice=dice, tie_rule=tie_rule)), players, target,
                     **options)


def assert_same_bits(fresh: RaceValues, read: RaceValues) -> None:
    assert sorted(read.index) == sorted(fresh.index)
    for position in fresh.index:
        assert fresh.values(position).tobytes() == read.values(position).tobytes(), position
    assert fresh.mixed.tobytes() == read.mixed.tobytes()
    assert (read.residual, read.iterations, read.components, read.engine) == (
        fresh.residual, fresh.iterations, fresh.components, fresh.engine)


@pytest.mark.parametrize("players, target", [(2, 12), (3, 9)])
def test_a_shipped_file_reads_back_to_the_bits_of_the_solve(tmp_path, monkeypatch, players,
                                                             target) -> None:
    monkeypatch.setattr(shipped, "FOLDER", tmp_path)
    race = race_of(players, target)
    fresh = solve_race(race, use_cache=False, solving=LEVELS)
    size = shipped.write(fresh, shipped.path(players, target), MADE)
    assert size == shipped.path(players, target).stat().st_size
    read = shipped.read(race, "levels")
    assert read is not None and read.shipped == MADE and read.cached
    assert_same_bits(fresh, read)
    first = shipped.path(players, target).read_bytes()
    shipped.write(read, shipped.path(players, target), MADE)  # its own values again: same bytes
    assert shipped.path(players, target).read_bytes() == first


def test_blocks_of_values_are_unpacked_as_rows_are_read(tmp_path, monkeypatch) -> None:
    """Blocks of 7 positions: a position, and rows across every block, read the solve's bits,
    unpacking only the blocks they reach."""
    monkeypatch.setattr(shipped, "FOLDER", tmp_path)
    monkeypatch.setattr(shipped, "BLOCK", 7)
    race = race_of(2, 12)
    fresh = solve_race(race, use_cache=False, solving=LEVELS)
    shipped.write(fresh, shipped.path(2, 12), MADE)
    read = shipped.read(race, "levels")
    assert read.table.blocks == {}  # nothing unpacked before a row is read
    position = list(fresh.index)[len(fresh.index) // 2]
    assert read.values(position).tobytes() == fresh.values(position).tobytes()
    assert list(read.table.blocks) == [read.index[position] // 7]
    rows = list(read.index.values())[::-3]  # descending, across every block
    wanted = np.array([fresh.values(p) for p in read.index])[rows]
    assert read.rows(np.array(rows)).tobytes() == wanted.tobytes()
    assert_same_bits(fresh, read)


def test_the_index_refuses_positions_it_does_not_hold(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(shipped, "FOLDER", tmp_path)
    race = race_of(2, 12)
    shipped.write(solve_race(race, use_cache=False, solving=LEVELS), shipped.path(2, 12), MADE)
    index = shipped.read(race, "levels").index
    for position in [((1, 0), 0), ((0, 0), 2), ((0, 0, 0), 0), ((-1, 0), 0), ((500, 0), 1)]:
        assert position not in index
    assert index[((0, 0), 0)] == 0  # the start: the smallest number


def test_solve_race_reads_a_shipped_file_only_for_its_very_race(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(shipped, "FOLDER", tmp_path)
    race = race_of(2, 12)
    fresh = solve_race(race, use_cache=False, solving=LEVELS)
    shipped.write(fresh, shipped.path(2, 12), MADE)
    assert solve_race(race, solving=LEVELS).shipped == MADE
    assert shipped.has(race, "levels")
    others = {"on the cyclic engine": (race, Solving("cyclic")),
              "another tie rule": (race_of(2, 12, tie_rule="gt"), LEVELS),
              "a tie worth 1/2": (race_of(2, 12, tie_value=Fraction(1, 2)), Solving("cyclic")),
              "ties broken for the leader": (race_of(2, 12, tie_break="leader"),
                                             Solving("cyclic"))}
    for why, (other, solving) in others.items():
        assert solve_race(other, solving=solving).shipped is None, why
        assert not shipped.has(other, solving.engine), why
    assert solve_race(race, use_cache=False, solving=LEVELS).shipped is None  # --no-cache
    assert solve_race(race, exact=True).shipped is None
    assert solve_race(race, solving=LEVELS, shipped=False).shipped is None  # a remake


@pytest.mark.parametrize("players, target", shipped.SHIPPED)
def test_the_shipped_files_answer_todays_races(players, target) -> None:
    """A change of the rules' reading or of the turn graph changes the key: the files must be
    remade (python -m solver.games.dalek.shipping; docs/developing.md)."""
    race = race_of(players, target, dice=10)
    assert shipped.has(race, "levels"), f"{shipped.path(players, target)} answers another race"


def test_the_shipped_turn_graph_is_todays_and_is_read_where_the_cache_has_none(
        tmp_path, monkeypatch) -> None:
    """Its key is the one today's code builds under (else: python -m solver.games.dalek.shipping
    turn), its arrays a fresh build's, and compile_turn reads it without building; other rules
    are built. A remake of the same graph writes the same bytes."""
    rules = parse_rules()
    stored = shippedturn.read(turn_key(rules))
    assert stored is not None, f"{shippedturn.FILE} was built by other code: remake it"
    built = turn_arrays(build_turn(rules))
    assert sorted(stored) == sorted(built)
    for name, array in built.items():
        assert stored[name].dtype == array.dtype and np.array_equal(stored[name], array), name
    assert shippedturn.write(built, turn_key(rules), tmp_path / "turn.npz") == \
        shippedturn.FILE.stat().st_size
    assert (tmp_path / "turn.npz").read_bytes() == shippedturn.FILE.read_bytes()
    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path / "empty"))
    built_here = []
    monkeypatch.setattr(turn, "build_turn", lambda r: built_here.append(r) or build_turn(r))
    read = compile_turn(rules)
    assert built_here == [] and read.graph.fingerprint() == build_turn(rules).graph.fingerprint()
    compile_turn(parse_rules(dice=3))
    assert len(built_here) == 1


@pytest.mark.slow
@pytest.mark.parametrize("players, target", shipped.SHIPPED)
def test_the_shipped_values_are_a_fresh_solves(players, target) -> None:
    """A fresh solve on today's code (2 players: about 25 s; 3 players: about 8 min) gives the
    shipped values to the bit, mixes included, on any CPU (the engines' arithmetic does not
    depend on OpenBLAS's kernels: solver/engine/linear.py), not only to the issue's 1e-12."""
    race = race_of(players, target, dice=10)
    read = shipped.read(race, "levels")
    fresh = solve_race(race, use_cache=False, solving=LEVELS, force=True)
    assert read is not None
    assert_same_bits(fresh, read)
    assert fresh.residual <= 1e-12


@pytest.mark.parametrize("scores", ["30,42", "30,42,12"])
def test_dalek_game_answers_from_the_shipped_values_and_says_so(scores) -> None:
    """The headline positions of the 2- and 3-player races to 60, as a fresh install asks them:
    no solve, the answer names the shipped solve (text and JSON, which its schema accepts)."""
    args = ["dalek", "game", "--scores", scores, "--seat", "2"]
    answer = invoke(*args, "--json")
    Draft202012Validator(schemas.load(("dalek", "game"))).validate(answer)
    made = shipped.read(race_of(len(scores.split(",")), 60, dice=10), "levels").shipped
    assert answer["shipped"] == made and answer["timings"]["cached"]
    text = CliRunner().invoke(cli, args).output
    assert f"read from the solve shipped with the package (solved {made['date']}" in text
