"""Every registered game passes the same checks, through the real command line: its start
position solves and prints JSON; a seeded run of its own simulator is accepted by `verify`; the
distribution `verify` states sums to 1; the columns it writes are the ones it declares; bad
input is refused with one line and exit status 2. A new game gets these checks by registering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import run_cli

from solver.cli import cli
from solver.games import Game, registry

GAMES = sorted(registry())


def game(name: str) -> Game:
    return registry()[name]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout


@pytest.mark.parametrize("name", GAMES)
def test_the_start_position_solves(name: str) -> None:
    code, out = invoke(name, *game(name).examples.solve, "--json")
    assert code == 0, out
    assert isinstance(json.loads(out), dict)


@pytest.mark.parametrize("name", GAMES)
def test_verify_accepts_our_own_seeded_simulator(name: str, tmp_path: Path) -> None:
    play = game(name).examples.play
    samples = tmp_path / "samples.csv"
    code, out = invoke("simulate", name, *play, "--n", "3000", "--seed", "11", "--out",
                       str(samples), "--json")
    assert code == 0, out
    assert json.loads(out)["samples"] == 3000
    header = next(line for line in samples.read_text().splitlines() if not line.startswith("#"))
    assert tuple(header.split(",")) in game(name).samples.values()
    code, out = invoke("verify", name, *play, "--samples", str(samples), "--json")
    assert code == 0, out
    assert json.loads(out)["verdict"] == "consistent"


@pytest.mark.parametrize("name", GAMES)
def test_the_exact_distribution_sums_to_one(name: str) -> None:
    code, out = invoke("verify", name, *game(name).examples.play, "--json")
    assert code == 0, out
    assert sum(json.loads(out)["distribution"].values()) == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("name", GAMES)
def test_bad_input_is_one_line_and_exit_2(name: str) -> None:
    result = run_cli(name, *game(name).examples.bad)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dice-solver: error: "), result.stderr


def test_every_game_has_its_commands() -> None:
    for name in GAMES:
        code, out = invoke(name, "--help")
        assert code == 0 and "Commands:" in out
        for verb in ("simulate", "verify"):
            assert name in invoke(verb, "--help")[1]
