"""Every seat at any position (issue 11): `strike game` and `strike best-move` answer a typed
position on either engine, the two agree to 1e-12, and the level engine's solve is cached: a
second query at another position of the same game reads it, loading no numba."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import HEAVY, cached_twice, invoke, run_cli

from solver.engine.cyclic import explore
from solver.games.strike.model import MID, SETUP, Position, Strike
from solver.games.strike.throws import representative


def typed(position: Position) -> list[str]:
    """The best-move options that type a position in play."""
    args = ["--stocks", ",".join(map(str, position.stocks)),
            "--arena", " ".join(map(str, representative(position.arena))),
            "--mover", str(position.mover + 1)]
    return args + (["--mid-turn"] if position.phase == MID else [])


def sample(game: Strike, count: int) -> list[Position]:
    """Positions in play a game reaches, spread over the game, that players can type: no number
    shows twice (only the setup leaves that), and seats out went out in seat order (what a
    typed position says) when the order scores."""
    graph = explore(game, game.start())
    playing = [p for p in graph.positions if p.phase != SETUP and set(p.arena) <= {1} and sum(
        s == 0 for s in p.stocks) <= (1 if game.scoring == "points" else len(p.stocks))]
    return playing[::max(1, len(playing) // count)][:count]


@pytest.mark.parametrize("players, dice, scoring", [(2, 4, "win"), (3, 3, "points"),
                                                    (4, 2, "win")])
def test_both_engines_agree_at_typed_positions(players, dice, scoring) -> None:
    rules = ["--dice", str(dice), "--scoring", scoring, "--quiet", "--json"]
    for position in sample(Strike(players, dice, scoring=scoring), 6):
        answers = [invoke("strike", command, *typed(position), *rules, "--engine", engine)
                   for command in ("best-move", "game") for engine in ("cyclic", "levels")]
        assert [a["engine"] for a in answers] == ["cyclic", "levels"] * 2
        for cyclic, dense in (answers[:2], answers[2:]):
            assert dense["position"] == cyclic["position"]
            for a, b in zip(cyclic["seats"], dense["seats"], strict=True):
                assert b["value"] == pytest.approx(a["value"], abs=1e-12)
                assert b["p_win"] == pytest.approx(a["p_win"], abs=1e-12)
        moves = answers[0]["options"], answers[1]["options"]
        assert [o["option"] for o in moves[1]] == [o["option"] for o in moves[0]]
        for a, b in zip(*moves):
            assert b["value"] == pytest.approx(a["value"], abs=1e-12)
        assert answers[2]["seats"] == answers[0]["seats"]  # game and best-move: one position


def _twice(cache: Path, *args: tuple[str, ...]) -> tuple[dict, dict, set[str]]:
    """Two strike commands in fresh processes sharing one cache (`helpers.cached_twice`)."""
    first, second = (("strike", *a, "--json") for a in args)
    return cached_twice(cache, first, second)


def test_a_second_query_reads_the_level_solve_from_the_cache(tmp_path: Path) -> None:
    game = ("--dice", "3", "--scoring", "points", "--engine", "levels", "--quiet")
    here = ("game", "--stocks", "2,0,3", "--arena", "1 4", "--mover", "3", "--mid-turn", *game)
    first, second, _ = _twice(tmp_path, here, here)
    assert (first["timings"]["cached"], second["timings"]["cached"]) == (False, True)
    assert {k: v for k, v in second.items() if k != "timings"} == \
        {k: v for k, v in first.items() if k != "timings"}
    there = ("best-move", "--stocks", "1,2,2", "--arena", "3", "--mover", "2", *game)
    moved, again, imported = _twice(tmp_path, there, there)  # solved before: cached both times
    assert moved["timings"]["cached"] and again["timings"]["cached"]
    assert not imported & HEAVY
    assert {k: v for k, v in again.items() if k != "timings"} == \
        {k: v for k, v in moved.items() if k != "timings"}


def test_no_cache_solves_again(tmp_path: Path) -> None:
    env = {"DICE_SOLVER_CACHE": str(tmp_path)}
    args = ("strike", "game", "--dice", "2", "--engine", "levels", "--json")
    runs = [json.loads(run_cli(*args, *more, env=env).stdout) for more in ((), ("--no-cache",))]
    assert [r["timings"]["cached"] for r in runs] == [False, False]
    assert runs[0]["seats"] == runs[1]["seats"]


@pytest.mark.parametrize("args, words", [
    (("--dice", "2", "--stocks", "0,1,5", "--mover", "3", "--engine", "levels"),
     "no game of these rules reaches this position from the start"),
    (("--arena", "1 2"), "give --stocks (or --setup for a setup position)"),
    (("--stocks", "2,2", "--players", "3"), "--stocks gives 2 players, --players 3"),
])
def test_a_position_the_engine_cannot_answer_is_refused_in_one_line(args, words) -> None:
    result = run_cli("strike", "game", *args)
    assert result.returncode == 2 and words in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
