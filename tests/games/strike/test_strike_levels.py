"""Strike on the level engine against the cyclic engine (model.py): the numbering gives the model's
positions and successors, both engines give the same values to 1e-12 (2, 3 and 4 players, both
scorings, the flagged readings), seat values sum as they must, and a solve killed part-way
resumes to the same bits."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np
import pytest
from helpers import every_value, kill_part_way, run_cli

from solver.checkpoint import Checkpoint
from solver.engine.cyclic import Terminal, explore, solve
from solver.engine.levels import chunks
from solver.engine.solving import Solving
from solver.errors import InputError
from solver.games.strike.levels import (
    SECONDS_PER_NUMBER,
    LevelStrike,
    _lehmer,
    _unlehmer,
    check,
    estimate,
    solve_levels,
)
from solver.games.strike.levels import solved as solved_game
from solver.games.strike.model import Strike
from solver.progress import Progress

CASES = [(2, 3, "win", {}), (2, 4, "points", {}), (3, 2, "points", {}), (3, 3, "win", {}),
         (4, 2, "win", {}),
         (3, 2, "win", {"miss": Fraction(1, 7), "fly_out": Fraction(1, 10),
                        "empty_arena": "continue"}),
         (3, 3, "points", {"hit": Fraction(1, 3), "empty_arena": "continue"}),
         (4, 2, "points", {"points_count": "before"})]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}p{c[1]}d-{c[2]}")
def solved(request):
    players, dice, scoring, model = request.param
    game = Strike(players, dice, scoring=scoring, **model)
    return game, LevelStrike(game), solve(game), solve_levels(game)


def test_numbering_plays_the_model(solved) -> None:
    """Every position the model reaches has a number that reads back as it, and its options
    lead where the model's successors do, with the model's probabilities."""
    game, numbered, _, _ = solved
    graph = explore(game, game.start())
    numbers = np.array([numbered.number(p) for p in graph.positions])
    assert len(set(numbers.tolist())) == len(numbers)
    assert [numbered.position(int(n)) for n in numbers] == graph.positions
    edges = numbered.options(numbers)
    for k, position in enumerate(graph.positions):
        local = game.local(position)
        expected = sorted(
            (option, numbered.target(s) if isinstance(s, Terminal) else numbered.number(s),
             float(p))
            for option, row in enumerate(local.exact)
            for s, p in zip(game.successors(position), row) if p)
        lo, hi = edges.start[k], edges.start[k + 1]
        got = sorted(zip(edges.option[lo:hi].tolist(), edges.target[lo:hi].tolist(),
                         edges.probability[lo:hi].tolist()))
        assert got == expected, position


def test_levels_agree_with_the_cyclic_engine(solved) -> None:
    _, _, cyclic, dense = solved
    assert dense.size == cyclic.size
    for position, row in zip(cyclic.graph.positions, cyclic.table):
        assert dense.values(position) == pytest.approx(row, abs=1e-12)
    assert dense.residual <= 1e-12
    assert np.isnan(dense.table[:, ~dense.index.reachable]).all()


def test_both_solutions_answer_alike(solved) -> None:
    """The level solve answers what reports ask of a solve (solver.engine.solution.SolvedGame)
    as the cyclic engine's Solution does: the same positions, each with the same local model,
    values and utilities; neither has exact values here."""
    _, _, cyclic, dense = solved
    assert set(dense.positions()) == set(cyclic.positions())
    for position in cyclic.positions():
        assert position in dense and position in cyclic
        assert dense.local(position).exact == cyclic.local(position).exact
        assert dense.utilities(position) == pytest.approx(cyclic.utilities(position), abs=1e-12)
    assert dense.exact is None and cyclic.exact is None
    with pytest.raises(ValueError):
        dense.exact_utilities(cyclic.graph.positions[0])
    with pytest.raises(ValueError):
        cyclic.exact_utilities(cyclic.graph.positions[0])


def test_seat_values_sum_as_they_must(solved) -> None:
    """Someone wins: P(win) sums to 1 over the seats. Under points scoring the seats out score
    n-1, n-2, ..., 1 and the winner 0: expected points sum to n(n-1)/2; counted before the
    elimination, n, ..., 2: n - 1 more."""
    game, _, _, dense = solved
    table = dense.table[:, dense.index.reachable]
    layout, n = game.layout, game.players
    wins = table[[layout.win(s) for s in range(n)]].sum(axis=0)
    assert np.abs(wins - 1).max() <= 1e-12
    if game.scoring == "points":
        points = -table[[layout.points(s) for s in range(n)]].sum(axis=0)
        total = n * (n - 1) / 2 + (n - 1) * (game.points_count == "before")
        assert np.abs(points - total).max() <= 1e-11


def test_orders_of_going_out_are_ranked_one_to_one() -> None:
    """Every order in which 0 to 3 of 5 seats went out (points 4, 3, 2 in that order) has its
    own rank below k! and reads back."""
    for k in range(4):
        for seats in combinations(range(5), k):
            out = np.zeros((1, 5), dtype=bool)
            out[0, list(seats)] = True
            ranks = set()
            for order in permutations(seats):
                points = np.zeros((1, 5), dtype=np.int64)
                for place, seat in enumerate(order):
                    points[0, seat] = 4 - place
                rank = _lehmer(points, out)
                ranks.add(int(rank[0]))
                assert np.array_equal(_unlehmer(rank, out, 5), points)
            assert ranks == set(range(len(ranks))) and len(ranks) == len(list(permutations(seats)))


def test_the_level_engine_refuses_the_winners_stock() -> None:
    from dataclasses import replace

    game = Strike(2, 3)
    game.layout = replace(game.layout, stocks=3)
    with pytest.raises(InputError, match="without the winner's stock"):
        LevelStrike(game)


# ---- checkpoints --------------------------------------------------------------------------------
SLOW_SOLVE = """
import sys, time
from solver.games.strike.levels import solve_levels
from solver.games.strike.model import Strike
from solver.progress import Progress
lines = Progress("strike", quiet=True)
def slowly(status):
    lines(status)
    time.sleep(0.1)
solve_levels(Strike(3, 3, scoring="points"), sys.argv[1], progress=slowly)
"""


def test_a_killed_solve_resumes_to_the_same_bits(tmp_path, monkeypatch) -> None:
    """A solve killed part-way resumes to the same bits, and is estimated on the levels it has
    left: a budget that refuses the whole game lets its rest run; a refusal says how many
    levels are left."""
    folder = tmp_path / "checkpoint"
    game = Strike(3, 3, scoring="points")
    done = kill_part_way(SLOW_SOLVE, folder, 3)
    numbered = LevelStrike(game)
    assert 3 <= done < numbered.levels  # killed part-way
    finished = Checkpoint(folder, numbered.parameters()).finished()
    left, all_levels = estimate(game, finished)[0], estimate(game)[0]
    assert 0 < left < all_levels == numbered.size * SECONDS_PER_NUMBER
    monkeypatch.setenv("DICE_SOLVER_BUDGET", str(left / 2))
    with pytest.raises(InputError, match=rf"\({numbered.levels - len(finished)} of its "
                                         rf"{numbered.levels} levels left\) would take about"):
        solved_game(game, solving=Solving("levels", folder), use_cache=False)
    monkeypatch.setenv("DICE_SOLVER_BUDGET", str((left + all_levels) / 2))
    with pytest.raises(InputError, match=r"3-player Strike with 3 dice each would take about"):
        check(game)
    said = []
    resumed = solved_game(game, solving=Solving("levels", folder), use_cache=False,
                          progress=lambda status: said.append(status))
    assert said[0].resumed_levels >= done and said[-1].levels_done == said[-1].levels
    whole = solve_levels(game)
    assert np.array_equal(every_value(resumed.table), whole.table, equal_nan=True)
    assert (resumed.residual, resumed.components) == (whole.residual, whole.components)


def test_a_checkpoint_of_another_game_is_refused(tmp_path) -> None:
    solve_levels(Strike(2, 3), tmp_path)
    with pytest.raises(InputError, match=r"other parameters \(dice 3 there, 4 here\)"):
        solve_levels(Strike(2, 4), tmp_path)


def test_resuming_is_said_even_when_quiet(tmp_path, capsys) -> None:
    game = Strike(2, 3)
    solve_levels(game, tmp_path)
    solve_levels(game, tmp_path, progress=Progress("strike", quiet=True))
    count = LevelStrike(game).levels
    assert capsys.readouterr().err == (f"strike: resuming after {count} of {count} levels "
                                       f"read from the checkpoint\n")


# ---- the command --------------------------------------------------------------------------------
def game_json(*args: str) -> dict:
    result = run_cli("strike", "game", "--players", "3", "--dice", "3", "--scoring", "points",
                     "--json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_game_on_the_level_engine_agrees_with_the_cyclic_one(tmp_path) -> None:
    cyclic = game_json("--engine", "cyclic")
    dense = game_json("--engine", "levels", "--checkpoint", str(tmp_path / "run"), "--no-cache")
    assert (cyclic["engine"], dense["engine"]) == ("cyclic", "levels")
    for a, b in zip(cyclic["seats"], dense["seats"]):
        assert b["value"] == pytest.approx(a["value"], abs=1e-12)
        assert b["p_win"] == pytest.approx(a["p_win"], abs=1e-12)
    assert dense["placements"] == cyclic["placements"]
    assert dense["positions"] == cyclic["positions"]
    again = run_cli("strike", "game", "--players", "3", "--dice", "3", "--scoring", "points",
                    "--engine", "levels", "--checkpoint", str(tmp_path / "run"), "--no-cache")
    assert again.returncode == 0, again.stderr
    assert "resuming after 9 of 9 levels read from the checkpoint" in again.stderr
    assert "levels engine" in again.stdout


def test_the_table_from_a_checkpoint_is_the_table_from_memory(tmp_path) -> None:
    """`strike table --checkpoint`: its values read from the checkpoint's levels, not the
    cache, give the bytes of the table of a solve in memory."""
    for name, extra in (("plain", ()), ("stored", ("--checkpoint", str(tmp_path / "run")))):
        result = run_cli("strike", "table", "--players", "3", "--dice", "3", "--scoring",
                         "points", "--engine", "levels", "--no-cache", "--quiet", "--out",
                         str(tmp_path / name), *extra)
        assert result.returncode == 0, result.stderr
    written = sorted(p.name for p in (tmp_path / "plain").iterdir() if p.name != "manifest.json")
    assert written
    for name in written:
        assert (tmp_path / "stored" / name).read_bytes() == (tmp_path / "plain" / name).read_bytes()


@pytest.mark.parametrize("args, words", [
    (["--engine", "levels", "--exact"], "--engine levels solves in float64 only"),
    (["--engine", "cyclic", "--checkpoint", "."], "--checkpoint is for the level engine"),
])
def test_what_an_engine_cannot_do_is_refused_in_one_line(args, words) -> None:
    result = run_cli("strike", "game", "--dice", "2", *args)
    assert result.returncode == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("players, dice, scoring", [(3, 3, "points"), (4, 2, "win")])
def test_swept_systems_agree_with_the_cyclic_engine(players, dice, scoring, monkeypatch) -> None:
    """Large systems are solved by Gauss-Seidel sweeps, not directly: every system swept here."""
    monkeypatch.setattr(chunks, "DIRECT", 0)
    game = Strike(players, dice, scoring=scoring)
    cyclic, dense = solve(game), solve_levels(game)
    assert dense.residual <= 1e-12
    for position, row in zip(cyclic.graph.positions, cyclic.table):
        assert dense.values(position) == pytest.approx(row, abs=1e-12)
