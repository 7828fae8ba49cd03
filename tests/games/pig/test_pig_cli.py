"""The `dice-solver pig` command line: JSON that follows the conventions (docs/json.md), and bad
input refused with one line and exit status 2 before anything is solved (the real entry point,
`python cli.py ...`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from helpers import invoke, run_cli


def test_game_json_lists_its_policies() -> None:
    """Both policies in one list, named as parse_policy reads them, each exact value beside
    its float."""
    report = invoke("pig", "game", "--target", "20", "--hold", "10", "--exact", "--json")
    assert report["rules"] == {"game": "pig", "target": 20, "players": 2}
    assert [p["name"] for p in report["policies"]] == ["optimal", "hold 10"]
    for policy in report["policies"]:
        assert policy["published"] is None
        assert float(Fraction(policy["p_first_wins_exact"])) == \
            pytest.approx(policy["p_first_wins"], abs=1e-15)
    assert set(report["timings"]) == {"total", "cached"}


def test_published_figures_stand_beside_their_policies() -> None:
    report = invoke("pig", "game", "--json", "--quiet")
    published = {p["name"]: p["published"] for p in report["policies"]}
    assert published == {"optimal": 0.5306, "hold 20": 0.5347}


def test_duel_json_states_its_rules_and_seats() -> None:
    report = invoke("pig", "duel", "--target", "12", "--a", "hold 3", "--b", "optimal",
                    "--exact", "--json")
    assert report["rules"] == {"game": "pig", "target": 12, "players": 2}
    assert [s["policy"] for s in report["seats"]] == ["hold 3", "optimal"]
    assert sum(Fraction(s["p_win_exact"]) for s in report["seats"]) == 1  # Pig has no ties


@pytest.mark.parametrize("args", [
    ["pig", "game", "--target", "100000"],
    ["pig", "game", "--target", "99999999999999999999"],
    ["pig", "game", "--target", "1000"],  # fits the bound, but not in memory
    ["pig", "game", "--target", "0"],
    ["pig", "game", "--target", "x"],
    ["pig", "game", "--hold", "-5"],
    ["pig", "game", "--hold", "0"],
    ["pig", "duel", "--a", "hold 0"],
    ["pig", "duel", "--b", "hold -3"],
    ["pig", "duel", "--target", "1"],
    ["pig", "duel", "--a", "hold " + "9" * 5000],
    ["pig", "duel", "--a", "hold \u0665"],  # a digit, but not an ASCII one
    ["simulate", "pig", "--target", "100000", "--n", "10", "--seed", "1"],
    ["simulate", "pig", "--policy", "optimal", "--n", "10", "--seed", "1"],
    ["verify", "pig", "--target", "100000000"],
])
def test_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dice-solver: error:"), result.stderr


@pytest.mark.parametrize("log", [
    "score,opponent,turn_total,move\n99999999999999999999,0,2,hold\n",
    "score,opponent,turn_total,move\n-1,0,2,hold\n",
    "score,opponent,turn_total,move\n1,0,2,jump\n",
    "score,opponent,turn_total,move\n1,0,99,roll\n",
    "score,opponent,turn_total,move\n",
    "score,opponent\n1,0\n",
])
def test_bad_decision_logs_are_one_line_and_exit_2(log: str, tmp_path: Path) -> None:
    path = tmp_path / "moves.csv"
    path.write_text(log)
    result = run_cli("verify", "pig", "--target", "20", "--decisions", str(path))
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dice-solver: error:"), result.stderr


@pytest.mark.parametrize("args", [
    ["pig", "game", "--target", "300"],
    ["pig", "duel", "--target", "300"],
    ["simulate", "pig", "--target", "300", "--duel", "optimal", "--n", "1", "--seed", "1"],
    ["verify", "pig", "--target", "300", "--duel", "optimal"],
    ["verify", "pig", "--target", "60", "--duel", "optimal", "--exact"],
])
def test_solves_past_the_budget_are_refused_first(args: list[str], monkeypatch) -> None:
    """With a budget of 10 s, a solve estimated at minutes is refused at once, naming --force."""
    monkeypatch.setenv("DICE_SOLVER_BUDGET", "10")
    result = run_cli(*args)
    assert result.returncode == 2 and "--force" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_force_runs_past_the_budget(monkeypatch) -> None:
    monkeypatch.setenv("DICE_SOLVER_BUDGET", "0.01")
    assert run_cli("pig", "game", "--target", "5").returncode == 2
    forced = run_cli("pig", "game", "--target", "5", "--force")
    assert forced.returncode == 0 and "P(first wins)" in forced.stdout, forced.stderr


def test_pig_game_is_read_from_the_cache_the_second_time(tmp_path) -> None:
    """`pig game` solved once is answered from the cache after: the same numbers, bit for
    bit, with no solver loaded."""
    from helpers import cached_twice

    question = ("pig", "game", "--target", "30", "--quiet", "--json")
    first, second, imported = cached_twice(tmp_path, question, question)
    assert first["timings"]["cached"] is False and second["timings"]["cached"] is True
    assert first["policies"] == second["policies"]
    assert not imported & {"numba", "scipy", "networkx", "sympy"}, imported
