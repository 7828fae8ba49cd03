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

import numpy as np
import pytest

from solver.tables import BATCH, write_blocks, write_csv, write_json, write_table

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


def blocks(sizes: list[int]) -> Iterator[list[np.ndarray]]:
    """Blocks of columns (ints, floats whose reprs are long, short and exponents) of these
    sizes, empty ones and ones larger than a Parquet batch among them."""
    start = 0
    for size in sizes:
        k = np.arange(start, start + size, dtype=np.int64)
        yield [k, k % 3, k / 7 + 1e-300 * (k % 3), (k % 5) * 0.5]
        start += size


COLUMNS = ["k", "kind", "value", "half"]
SIZES = [0, 5, 2 * BATCH + 17, 0, BATCH - 22, 3, BATCH]  # groups cut across blocks, and within


def as_rows(sizes: list[int]) -> Iterator[tuple]:
    """The rows `write_blocks` stands for: the floats as their repr text."""
    for block in blocks(sizes):
        for k, kind, value, half in zip(*(column.tolist() for column in block)):
            yield k, kind, repr(value), repr(half)


@pytest.mark.parametrize("sizes", [SIZES, [], [0, 0]])
def test_blocks_of_columns_write_the_rows_bytes(tmp_path: Path, sizes: list[int]) -> None:
    made = write_blocks(tmp_path / "blocks", "t", COLUMNS, blocks(sizes))
    wanted = write_table(tmp_path / "rows", "t", COLUMNS, as_rows(sizes))
    assert [p.read_bytes() for p in made] == [p.read_bytes() for p in wanted]


@pytest.mark.parametrize("sizes", [SIZES, []])
def test_blocks_of_columns_write_the_rows_parquet(tmp_path: Path, sizes: list[int]) -> None:
    """Parquet from the arrays as they are: the same file, row groups and all, as from the
    rows (floats as text, read back to the same bits)."""
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow (the parquet extra) missing")
    made, = write_blocks(tmp_path / "blocks", "t", COLUMNS, blocks(sizes), form="parquet")
    wanted, = write_table(tmp_path / "rows", "t", COLUMNS, as_rows(sizes), form="parquet")
    assert made.read_bytes() == wanted.read_bytes()
    assert pq.ParquetFile(made).metadata.num_row_groups == -(-sum(sizes) // BATCH)


def test_empty_blocks_keep_their_columns_types(tmp_path: Path) -> None:
    """No rows, but arrays: their types, where rows alone would give none (int64 throughout)."""
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow (the parquet extra) missing")
    made, = write_blocks(tmp_path, "t", COLUMNS, blocks([0, 0]), form="parquet")
    table = pq.read_table(made)
    assert table.num_rows == 0
    assert [str(kind) for kind in table.schema.types] == ["int64", "int64", "double", "double"]
