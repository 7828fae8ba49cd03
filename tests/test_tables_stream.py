"""solver/tables.py writes tables as the rows come: the bytes must be those of the whole table
rendered in memory (the committed tables' SHA-256s depend on it), and a failure part-way must
leave the old files as they were."""

from __future__ import annotations

import csv
import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.tables import write_csv, write_json, write_table

HEADER = ["seat", "name", "value", "note"]


def rows(n: int) -> Iterator[tuple]:
    """Rows of every kind a table holds: ints, floats, text with commas, quotes, newlines and
    non-ASCII characters, empty cells (a generator: it can be read only once)."""
    for k in range(n):
        yield (k, f"pos {k}, \"quoted\"" if k % 7 == 0 else "é ü\nline" if k % 11 == 0 else "",
               k / 7 + 1e-300 * (k % 3), repr(k * 0.1))


def in_memory(n: int, compress: bool) -> tuple[bytes, bytes]:
    """The CSV and JSON of `rows(n)` rendered whole, as the writer did before it streamed."""
    table = list(rows(n))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(table)
    document = json.dumps({"columns": HEADER, "rows": [list(r) for r in table]},
                          separators=(",", ":")) + "\n"
    encoded = [buffer.getvalue().encode("utf-8"), document.encode("utf-8")]
    return tuple(gzip.compress(b, mtime=0) if compress else b for b in encoded)


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize("n", [0, 3, 40_000])  # 40,000 rows: many chunks through gzip
def test_streamed_table_has_the_in_memory_bytes(tmp_path: Path, n: int, compress: bool) -> None:
    paths = write_table(tmp_path / "t", "policy", HEADER, rows(n), compress=compress)
    suffix = ".gz" if compress else ""
    assert [p.name for p in paths] == [f"policy.csv{suffix}", f"policy.json{suffix}"]
    assert tuple(p.read_bytes() for p in paths) == in_memory(n, compress)
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == sorted(p.name for p in paths)


def test_csv_and_json_files_alone(tmp_path: Path) -> None:
    csv_bytes, json_bytes = in_memory(500, True)
    assert write_csv(tmp_path / "a.csv.gz", HEADER, rows(500)).read_bytes() == csv_bytes
    data = {"columns": HEADER, "rows": [list(r) for r in rows(500)]}
    assert write_json(tmp_path / "a.json.gz", data).read_bytes() == json_bytes
    assert write_json(tmp_path / "b.json", data).read_bytes() == gzip.decompress(json_bytes)


def test_a_failure_part_way_leaves_the_old_files(tmp_path: Path) -> None:
    old = write_table(tmp_path, "policy", HEADER, rows(10))
    before = [p.read_bytes() for p in old]

    def broken() -> Iterator[tuple]:
        yield from rows(20_000)
        raise RuntimeError("the solve's arrays ran out")

    with pytest.raises(RuntimeError):
        write_table(tmp_path, "policy", HEADER, broken())
    assert [p.read_bytes() for p in old] == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["policy.csv", "policy.json"]
