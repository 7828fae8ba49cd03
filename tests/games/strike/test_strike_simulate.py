"""Our Strike simulator (solver/games/strike/simulator.py, labelled dice thrown by the rules):
seeded games land inside the exact distribution of (winner, winner's dice left), and the wrong
simulator whose dice are never struck is rejected at its stated sample size.

Thresholds as in test_dalek_simulate.py: goodness of fit at alpha = 0.001 on fixed seeds. The
stated size for the never-hit bug is the smallest multiple of 50 games at which the power
(`solver.stats.power`, from the exact distributions of both throw models) reaches 0.999, with
both seats stopping as soon as allowed (a fixed policy, so the wrong simulator's distribution is
exact too: the game with --hit 0); ten seeded runs there must all be rejected."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from solver.cli import cli
from solver.dice import generator
from solver.games.strike.policies import (
    OPTIMAL,
    STOP,
    Moves,
    StrikeDuel,
    StrikePolicy,
    outcome_chances,
    solve_duel,
)
from solver.games.strike.simulator import strike_games
from solver.stats import goodness_of_fit, power

NEVER_HIT_GAMES = 700


@cache
def solved(dice: int, policies: tuple[StrikePolicy, StrikePolicy], hit: int = 1
           ) -> tuple[StrikeDuel, Moves, list]:
    duel = StrikeDuel(dice=dice, policies=policies, hit=hit / 2)
    solution = solve_duel(duel)
    return duel, Moves(duel, solution), outcome_chances(duel, solution)


def p_value(duel: StrikeDuel, exact: list, winner: np.ndarray, stock: np.ndarray) -> float:
    counts = np.bincount(duel.layout.outcome(winner, stock), minlength=len(exact))
    return goodness_of_fit([str(i) for i in range(len(exact))], exact, counts)["p_value"]


@pytest.mark.parametrize("policies", [(STOP, STOP), (OPTIMAL, STOP), (STOP, OPTIMAL)])
def test_games_land_inside_the_exact_distribution(policies: tuple[StrikePolicy, StrikePolicy]
                                                  ) -> None:
    duel, moves, exact = solved(5, policies)
    winner, stock, _ = strike_games(duel, moves, 3_000, generator(21))
    assert p_value(duel, exact, winner, stock) > 0.001


def test_never_hit_is_rejected_at_its_stated_size() -> None:
    duel, moves, exact = solved(9, (STOP, STOP))
    wrong = [float(p) for p in solved(9, (STOP, STOP), hit=0)[2]]
    assert power(exact, wrong, NEVER_HIT_GAMES) >= 0.999 > power(exact, wrong,
                                                                 NEVER_HIT_GAMES - 50)
    for seed in range(10):
        winner, stock, _ = strike_games(duel, moves, NEVER_HIT_GAMES, generator(seed), hit=0.0)
        assert p_value(duel, exact, winner, stock) < 0.001, seed


def test_cli_round_trip(tmp_path) -> None:
    runner = CliRunner()
    path = tmp_path / "games.csv"
    args = ["--dice", "4", "--policy", "stop", "--duel", "optimal"]
    made = runner.invoke(cli, ["simulate", "strike", *args, "--n", "2000", "--seed", "5",
                               "--out", str(path)])
    assert made.exit_code == 0, made.output
    again = runner.invoke(cli, ["simulate", "strike", *args, "--n", "2000", "--seed", "5"])
    assert again.stdout == path.read_text()
    checked = runner.invoke(cli, ["verify", "strike", *args, "--samples", str(path)])
    assert checked.exit_code == 0 and "consistent" in checked.stdout
    swapped = runner.invoke(cli, ["verify", "strike", "--dice", "4", "--policy", "optimal",
                                  "--duel", "stop", "--samples", str(path)])
    assert swapped.exit_code == 1 and "REJECTED" in swapped.stdout
