"""`dalek table --format parquet` (issue 25): the same columns and values as the CSV, the same
bytes twice, refused in one line without pyarrow; and the points-play contrast, left out by
default for 3 or more players (and said so), kept for 2, asked for with --contrast."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import cli
from solver.errors import InputError

SMALL = ("--dice", "3", "--target", "10", "--quiet")


def _table(out: Path, *args: str) -> dict:
    result = CliRunner().invoke(cli, ["dalek", "table", *args, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="") as handle:
        header, *rows = list(csv.reader(handle))
    return header, rows


@pytest.mark.parametrize("args, name", [(SMALL, "race_positions"),
                                        (("--dice", "3"), "turn_states")])
def test_parquet_holds_the_csv_columns_and_values(tmp_path, args, name) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow (the parquet extra) missing")
    _table(tmp_path / "csv", *args)
    data = _table(tmp_path / "parquet", *args, "--format", "parquet")
    assert not (tmp_path / "parquet" / f"{name}.csv").exists()
    header, rows = _csv(tmp_path / "csv" / f"{name}.csv")
    table = pq.read_table(tmp_path / "parquet" / f"{name}.parquet")
    assert table.column_names == header and table.num_rows == len(rows) > 0
    for k, column in enumerate(table.columns):
        for text, value in zip((row[k] for row in rows), column.to_pylist()):
            assert text == (repr(value) if isinstance(value, float) else str(value))
    assert f"{name}.parquet" in json.loads(Path(data["manifest"]).read_text())["files"]


def test_parquet_is_the_same_bytes_twice(tmp_path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow (the parquet extra) missing")
    first = _table(tmp_path / "a", *SMALL, "--players", "3", "--format", "parquet")
    second = _table(tmp_path / "b", *SMALL, "--players", "3", "--format", "parquet")
    assert (Path(first["out"]) / "race_positions.parquet").read_bytes() == \
        (Path(second["out"]) / "race_positions.parquet").read_bytes()


def test_parquet_without_pyarrow_is_refused_in_one_line(tmp_path) -> None:
    args = ["dalek", "table", *SMALL, "--format", "parquet", "--out", str(tmp_path / "t")]
    program = ("import sys; sys.modules['pyarrow'] = None; from solver.cli import main; "
               f"sys.argv = ['dice-solver', *{args!r}]; main()")  # import pyarrow then fails
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2 and "pyarrow" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "t").exists()


def test_the_contrast_is_left_out_for_three_players_unless_asked(tmp_path) -> None:
    three = _table(tmp_path / "three", *SMALL, "--players", "3")
    assert "--contrast" in three["contrast"] and "largest_regret" not in three
    header, _ = _csv(tmp_path / "three" / "race_positions.csv")
    assert "regret" not in header
    manifest = json.loads(Path(three["manifest"]).read_text())
    assert manifest["summary"]["contrast"] == three["contrast"]
    asked = _table(tmp_path / "asked", *SMALL, "--players", "3", "--contrast")
    assert "contrast" not in asked and "regret" in _csv(tmp_path / "asked" /
                                                       "race_positions.csv")[0]
    two = _table(tmp_path / "two", *SMALL)
    assert "contrast" not in two and "largest_regret" in two
    without = _table(tmp_path / "without", *SMALL, "--no-contrast")
    assert "--contrast" in without["contrast"] and "largest_regret" not in without


def test_contrast_flags_are_for_the_race_table() -> None:
    result = CliRunner().invoke(cli, ["dalek", "table", "--dice", "3", "--contrast"])
    assert isinstance(result.exception, InputError) and "race table" in str(result.exception)
