"""Our Time of the Daleks simulator (solver/games/totd/simulator.py) plays the re-roll plan with
random dice: seeded runs land inside the 99.9% interval of the plan's exact chance of success,
and the command line reproduces a run bit for bit and accepts it.

Threshold: |z| < 3.29 (two-sided 99.9%) on fixed seeds, as in test_dalek_simulate.py."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from totd_adventures import adventure

from solver.cli import cli
from solver.dice import generator
from solver.games.totd.policies import Plan
from solver.games.totd.simulator import totd_adventures


@pytest.mark.parametrize("case", [
    ("Science x2, Cunning, Tactics", "black=4 blue=2", 4, ("any black",), ("blue:Cunning",)),
    ("Running, Diplomacy, Strength", "green=2 red=2 black=1", 2, ("all red", "1 green"), ()),
])
def test_adventures_land_inside_the_exact_interval(case) -> None:
    plan = Plan(adventure(*case))
    p = float(plan.success())
    n = 20_000
    met = totd_adventures(plan, n, generator(12))
    assert set(np.unique(met).tolist()) <= {0, 1}
    assert abs(met.sum() - n * p) < 3.29 * np.sqrt(n * p * (1 - p))


def test_cli_round_trip(tmp_path) -> None:
    args = ["--need", "Science x2, Cunning", "--pool", "black=3 blue=2", "--sonic", "3",
            "--reroll", "any black"]
    path = tmp_path / "adventures.csv"
    runner = CliRunner()
    made = runner.invoke(cli, ["simulate", "totd", *args, "--n", "3000", "--seed", "4",
                               "--out", str(path)])
    assert made.exit_code == 0, made.output
    again = runner.invoke(cli, ["simulate", "totd", *args, "--n", "3000", "--seed", "4"])
    assert again.stdout == path.read_text()
    checked = runner.invoke(cli, ["verify", "totd", *args, "--samples", str(path)])
    assert checked.exit_code == 0 and "consistent" in checked.stdout
    optimal = runner.invoke(cli, ["verify", "totd", *args, "--policy", "optimal",
                                  "--samples", str(path)])
    assert optimal.exit_code == 1  # the plan is worse than optimal play: told apart
