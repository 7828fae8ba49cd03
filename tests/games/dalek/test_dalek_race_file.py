"""Race files (`dalek race-file --out F`, read back by `--race-file F`): a solved race written
whole (solver/games/dalek/shipped.py's format outside the package) answers every command as the
solve it came from did, to the bit, whichever way the solve held its values (in memory, a
checkpoint's levels, the cyclic engine's table); a file of any other race, or not whole, is
refused in one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from helpers import invoke, run_cli
from test_dalek_shipped import assert_same_bits, race_of

from solver import cache
from solver.cli import cli
from solver.engine.solving import Solving
from solver.games.dalek import shipped
from solver.games.dalek.racesolve import solve_race

RACE = ("--players", "3", "--target", "10", "--dice", "3")


@pytest.fixture(autouse=True)
def _no_memory(monkeypatch) -> None:
    """Nothing read here is kept in this process's memory (`cache.remember`)."""
    monkeypatch.setattr(cache, "_memory", None)


def refusal(*args: str) -> str:
    """The one line a refused command prints as a user runs it (exit status 2, nothing on
    standard output)."""
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == "", result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dice-solver: error: "), result.stderr
    return lines[0].removeprefix("dice-solver: error: ")


def test_a_race_file_answers_as_the_solve_did(tmp_path) -> None:
    file = tmp_path / "race.bin"
    wrote = invoke("dalek", "race-file", *RACE, "--out", str(file), "--json")
    assert wrote["bytes"] == file.stat().st_size and wrote["positions"] == 2328
    for scores, seat in [("0,0,0", "1"), ("2,5,0", "2"), ("12,7,5", "2")]:
        where = ("--scores", scores, "--seat", seat)
        solved = invoke("dalek", "game", *RACE, *where, "--no-cache", "--json")
        read = invoke("dalek", "game", *RACE, *where, "--race-file", str(file), "--json")
        assert read["seats"] == solved["seats"], scores  # the same floats, to the bit
        assert read["shipped"]["file"] == str(file) and read["timings"]["cached"]
    moves = ("dalek", "best-move", "--roll", "H4 D3 EXT", *RACE, "--scores", "2,5,0", "--seat",
             "2", "--json")
    solved = json.loads(CliRunner().invoke(cli, [*moves, "--no-cache"]).stdout)
    read = json.loads(CliRunner().invoke(cli, [*moves, "--race-file", str(file)]).stdout)
    assert read["options"] == solved["options"] and read["verdict"] == solved["verdict"]
    for name, source in {"solved": ("--no-cache",), "read": ("--race-file", str(file))}.items():
        invoke("dalek", "table", *RACE, *source, "--no-contrast", "--out", str(tmp_path / name),
               "--json")
    tables = sorted(path.name for path in (tmp_path / "solved").iterdir())
    assert "manifest.json" in tables and len(tables) > 1
    for name in tables:
        if name != "manifest.json":  # it names the command, which differs
            assert (tmp_path / "read" / name).read_bytes() == \
                (tmp_path / "solved" / name).read_bytes(), name
    text = CliRunner().invoke(cli, ["dalek", "game", *RACE, "--race-file", str(file)]).stdout
    date, commit = (json.loads(file.read_bytes().split(b"\n")[1])["solve"][k]
                    for k in ("date", "commit"))
    assert f"levels engine, read from race file {file} (solved {date}, commit " \
           f"{commit[:12]}{commit[40:]})" in text


def test_every_way_a_solve_holds_its_values_writes_the_same_file(tmp_path) -> None:
    """In memory or read level by level from a checkpoint (the level engine's index, never a
    list of positions): the same bytes; the cyclic engine's table reads back to its bits."""
    made = {"date": "2026-12-03", "commit": "0123456789abcdef"}
    race = race_of(3, 10)
    memory = solve_race(race, use_cache=False, solving=Solving("levels"))
    stored = solve_race(race, use_cache=False, solving=Solving("levels", tmp_path / "levels"))
    assert not isinstance(stored.table, type(memory.table))  # the checkpoint's levels
    shipped.write(memory, tmp_path / "memory.bin", made)
    shipped.write(stored, tmp_path / "stored.bin", made)
    assert (tmp_path / "memory.bin").read_bytes() == (tmp_path / "stored.bin").read_bytes()
    assert_same_bits(memory, shipped.load(tmp_path / "stored.bin", race, "levels"))
    cyclic = solve_race(race_of(2, 12), use_cache=False, solving=Solving("cyclic"))
    shipped.write(cyclic, tmp_path / "cyclic.bin", made)
    assert_same_bits(cyclic, shipped.load(tmp_path / "cyclic.bin", race_of(2, 12), "cyclic"))


def test_a_race_file_answers_only_its_race_and_only_whole(tmp_path) -> None:
    file = tmp_path / "race.bin"
    invoke("dalek", "race-file", *RACE, "--out", str(file), "--json")
    given = ("--race-file", str(file))
    other = ("--players", "3", "--dice", "3")
    assert refusal("dalek", "game", *other, "--target", "11", *given) == \
        f"{file} holds the values of another race (target 10, not 11)"
    assert refusal("dalek", "game", *RACE, "--engine", "cyclic", *given) == \
        f"{file} holds the values of another race (engine levels, not cyclic)"
    assert refusal("dalek", "game", *other, "--target", "10", "--tie-rule", "gt", *given) \
        .startswith(f"{file} holds the values of another race (")
    assert refusal("dalek", "game", *RACE, "--exact", *given) == \
        "a race file holds float64 values: drop --exact"
    assert refusal("dalek", "game", *RACE, "--checkpoint", str(tmp_path / "c"), *given) == \
        "--race-file answers from the file, solving nothing: drop --checkpoint"
    cut = tmp_path / "cut.bin"
    cut.write_bytes(file.read_bytes()[:-100])
    assert refusal("dalek", "game", *RACE, "--race-file", str(cut)) == \
        f"race file {cut} is damaged (cut short or added to): write it again"
    other_file = tmp_path / "other.bin"
    other_file.write_text("faces = ['H4']\n")
    assert refusal("dalek", "game", *RACE, "--race-file", str(other_file)) == \
        f"{other_file} is not a race file of dice-solver (dice-solver dalek race-file writes them)"
    assert refusal("dalek", "game", *RACE, "--race-file", str(tmp_path / "none.bin")) == \
        f"Invalid value for '--race-file': cannot read {tmp_path / 'none.bin'}: No such file " \
        "or directory"
