"""Our Dalek Dice simulator (solver/games/dalek/simulator.py): seeded runs land inside the
confidence intervals of the exact values (the verification ladder's step 4), runs are
reproducible bit for bit, and a decision log's regrets add up to the exact cost of the policy
that made it.

Statistical thresholds: every check is a 99.9% interval (|z| < 3.29) or a goodness-of-fit test
at alpha = 0.001 on a fixed seed, so a correct simulator fails one check with probability 0.001;
the seeds are fixed, so the outcome is deterministic."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from intervals import Z, binomial_z, inside

from solver.cli import cli
from solver.dice import generator
from solver.games.dalek import duels
from solver.games.dalek import policies as dp
from solver.games.dalek.decisions import decision_regrets
from solver.games.dalek.simulator import (
    Decisions,
    dalek_games,
    dalek_turns,
    decision_rows,
    race_seats,
)
from solver.samples import sample_text


@pytest.mark.parametrize(("game", "policy"), [
    (("H4 H2 D3 D2 DOC EXT", 10, "ge"), "points"),
    (("H4 H2 D3 D2 DOC EXT", 10, "ge"), "keep-daleks 8"),
    (("H4 H2 D3 D2 DOC EXT", 10, "gt"), "points"),
    (("H4:2 H2 D3 D2 DOC EXT", 6, "ge"), "keep-daleks 3"),
    (("H3 H1 D4 D1 DOC:2 EXT", 5, "gt"), "points"),
])
def test_dalek_turns_land_inside_the_exact_intervals(game, policy: str, pairs_of) -> None:
    pairs = pairs_of(*game)
    chosen = dp.parse_policy(policy, pairs)
    samples = dalek_turns(chosen, 100_000, generator(11))
    z, p_value = inside(samples, dp.distribution(chosen))
    assert abs(z) < Z and p_value > 0.001


@pytest.mark.parametrize("first", ["keep-daleks 4", "win"])
def test_dalek_races_land_inside_the_exact_intervals(first: str, pairs_of) -> None:
    """Races to 20 with four dice: a fixed policy, and a seat that plays each turn to win
    (one optimal turn policy per position met), against keep-daleks 6."""
    pairs = pairs_of(dice=4)
    policies = (dp.parse_policy(first, pairs, duel=True), dp.keep_daleks(pairs, 6))
    duel = duels.solve_duel(pairs, policies, 20)
    seats = duel.chances()
    players = race_seats(pairs, policies, duel.values, generator(4))
    n = 20_000 if first != "win" else 5_000
    scores, winner, _ = dalek_games(players, 20, n)
    assert np.all(scores.max(axis=1) >= 20) and np.all(scores[winner >= 0].max(axis=1) ==
                                                        scores[winner >= 0, winner[winner >= 0]])
    for outcome, p in ((0, seats[0]["p_win"]), (1, seats[1]["p_win"]), (-1, seats[0]["p_tie"])):
        assert abs(binomial_z(int((winner == outcome).sum()), n, p)) < Z


def test_cli_runs_are_reproducible_bit_for_bit(tmp_path: Path) -> None:
    runner = CliRunner()
    written = []
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        path = tmp_path / f"{name}.csv"
        result = runner.invoke(cli, ["simulate", "dalek", "--policy", "keep-daleks 8", "--n",
                                     "3000", "--seed", seed, "--out", str(path)])
        assert result.exit_code == 0, result.output
        written.append(path.read_bytes())
    assert written[0] == written[1] != written[2]
    first = written[0].decode().splitlines()
    assert first[0] == ("# dice-solver simulate dalek --policy 'keep-daleks 8' --n 3000 "
                        "--seed 7 --faces 'H4 H2 D3 D2 DOC EXT' --dice 10 --tie-rule ge")
    assert first[1] == "score" and len(first) == 3002
    pig = [runner.invoke(cli, ["simulate", "pig", "--policy", "optimal", "--duel", "hold 10",
                               "--target", "20", "--n", "50", "--seed", "1"]).output
           for _ in range(2)]
    assert pig[0] == pig[1] and pig[0].splitlines()[1] == "winner,score_1,score_2,turns"


def test_decision_log_regrets_add_up_to_the_policys_cost(tmp_path: Path, pairs_of) -> None:
    """By the performance-difference identity, the expected sum of a turn's regrets (against
    optimal play) is the optimal expected points less the policy's: the log's mean regret per
    turn must land in the 99.9% interval around that exact gap."""
    pairs = pairs_of()
    policy = dp.keep_daleks(pairs, 8)
    log = Decisions([], [], [], [], [])
    n = 20_000
    dalek_turns(policy, n, generator(2), decisions=log)
    header, rows = decision_rows(pairs.turn, log)
    path = tmp_path / "moves.csv"
    path.write_text(sample_text("test", header, rows))
    regrets, moves = decision_regrets(pairs, str(path))
    per_turn = np.bincount(np.array(moves.extra["turn"], dtype=np.int64) - 1, regrets,
                           minlength=n)
    gap = float(sum(s * p for s, p in enumerate(dp.distribution(dp.points_policy(pairs)))) -
                sum(s * p for s, p in enumerate(dp.distribution(policy))))
    assert abs(per_turn.mean() - gap) < Z * per_turn.std(ddof=1) / np.sqrt(n)
    points = dp.points_policy(pairs)
    log = Decisions([], [], [], [], [])
    dalek_turns(points, 2_000, generator(3), decisions=log)
    path.write_text(sample_text("test", *decision_rows(pairs.turn, log)))
    assert np.all(decision_regrets(pairs, str(path))[0] < 1e-9)
