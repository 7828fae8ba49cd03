"""Fairest head starts for 2, 3 and 4 players (`dalek game --head-starts`, issue 11): each start
is valued from the race's own solve; the tests solve the race again from those very scores (a
fresh exploration of the cyclic engine, exactly for two players) and must find the same shares,
and the set of starts must be every pair of scores a game reaches with seat 1 to move."""

from __future__ import annotations

import json

import pytest
from helpers import run_cli

from solver.engine.cyclic import explore, solve
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace
from solver.games.dalek.turn import compile_turn


def head_starts(players: int, target: int, dice: int) -> dict:
    result = run_cli("dalek", "game", "--players", str(players), "--target", str(target),
                     "--dice", str(dice), "--head-starts", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["head_starts"]


def shares_from(race: DalekRace, scores: list[int], exact: bool = False) -> list:
    """Every seat's win share in a race that starts at `scores` with seat 1 to move."""
    start = (tuple(scores), 0)
    solution = solve(race, start, exact=exact)
    seats = range(race.players)
    if exact:
        return [solution.exact_values(start)[race.metric.value(s)] for s in seats]
    return [float(solution.values(start)[race.metric.value(s)]) for s in seats]


def test_two_players_every_head_start_against_its_own_exact_solve() -> None:
    race = DalekRace(compile_turn(parse_rules(dice=3)), 2, 8)
    found = head_starts(2, 8, 3)
    graph = explore(race, race.start())
    starts = sorted(s[0] for s, mover in graph.positions
                    if mover == 0 and s[1] == 0 and s[0] < race.target)
    assert found["candidates"] == len(starts) <= len(found["rows"])  # all listed
    exact = {h: shares_from(race, [h, 0], exact=True) for h in starts}
    for row in found["rows"]:
        h = row["head_starts"][0]
        assert row["head_starts"] == [h, 0]
        assert row["values"] == pytest.approx([float(v) for v in exact[h]], abs=1e-12)
    # two seats share the win: the fairest start brings seat 1 closest to 1/2
    best = min(starts, key=lambda h: (abs(exact[h][0] - 1 / 2), h))
    assert found["fairest"]["head_starts"] == [best, 0]


@pytest.mark.parametrize("players, target", [(3, 10), (4, 8)])
def test_more_players_the_fairest_starts_against_solves_from_them(players: int,
                                                                 target: int) -> None:
    race = DalekRace(compile_turn(parse_rules(dice=2)), players, target)
    found = head_starts(players, target, 2)
    graph = explore(race, race.start())
    starts = {s[:-1] for s, mover in graph.positions
              if mover == 0 and s[-1] == 0 and max(s) < race.target}
    assert found["candidates"] == len(starts)
    deviations = [row["largest_deviation"] for row in found["rows"]]
    assert deviations == sorted(deviations) and found["rows"][0] == found["fairest"]
    for row in found["rows"][:3]:
        assert row["head_starts"][-1] == 0 and tuple(row["head_starts"][:-1]) in starts
        shares = shares_from(race, row["head_starts"])
        assert row["values"] == pytest.approx(shares, abs=1e-10)
        assert row["largest_deviation"] == pytest.approx(
            max(abs(v - 1 / players) for v in shares), abs=1e-10)
