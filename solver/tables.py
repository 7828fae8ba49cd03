"""Export of strategy tables: CSV and JSON files (or a Parquet file, for tables of millions of
rows), byte-identical across runs, plus a manifest.

Every file is written atomically (a temporary file renamed into place) and streamed: a table
never sits whole in memory. Gzip output carries no timestamp, so regenerating a table gives the
same bytes and the same SHA-256 in the manifest.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import tempfile
import zlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain, islice
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import numpy as np

SEPARATORS = (",", ":")  # compact JSON: no spaces
FORMATS = ("csv", "parquet")  # what write_table writes: CSV and JSON, or Parquet
BATCH = 65536  # rows a Parquet file takes at a time (a row group)


def atomic_write(path: Path, data: bytes) -> None:
    """Write all of `data` to `path` or leave the old file untouched (its directory must
    exist: output locations are validated before the work, `writable`)."""
    with atomic_file(path) as handle:
        handle.write(data)


@contextmanager
def atomic_file(path: Path, compress: bool = False) -> Iterator[BinaryIO]:
    """A binary file to write `path` through: a temporary file in its folder, renamed into
    place when the block ends, removed (the old file untouched) if it raises. With `compress`,
    gzip without a timestamp or a name in the header, so the bytes depend on the data only."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as raw:
            if compress:
                packed = _Gzip(raw)
                yield packed  # type: ignore[misc]
                packed.finish()
            else:
                yield raw
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class _Gzip(io.RawIOBase):
    """Gzip written as the data comes, the bytes of gzip.compress(data, mtime=0) (zlib's
    header: no time, no name, level 9; gzip.GzipFile's header differs in its OS byte)."""

    def __init__(self, raw: BinaryIO) -> None:
        super().__init__()
        self.raw, self.packer = raw, zlib.compressobj(9, zlib.DEFLATED, 31)

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.raw.write(self.packer.compress(data))
        return len(data)

    def finish(self) -> None:
        """The end of the stream and the trailer (CRC and length)."""
        self.raw.write(self.packer.flush())


def writable(text: str, directory: bool = False) -> Path:
    """Where a command will write, validated before any work: a file (or, with `directory`, a
    folder that may be created in an existing folder) whose folder exists and takes a new file.
    Raises ValueError with the reason."""
    if not text.strip():
        raise ValueError("an empty path")
    path = Path(text)
    if directory and path.exists() and not path.is_dir():
        raise ValueError(f"{text} is a file, not a folder")
    if not directory and path.is_dir():
        raise ValueError(f"{text} is a folder, not a file")
    folder = path if directory and path.is_dir() else path.parent
    if not folder.exists():
        raise ValueError(f"the folder {folder} does not exist (create it first)")
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".dice-solver-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        raise ValueError(f"cannot write in {folder}: {error.strerror or error}") from None
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def _text_file(path: Path) -> Iterator[TextIO]:
    """UTF-8 text written atomically to `path` (gzip-compressed when the name ends in .gz),
    newlines as written."""
    with atomic_file(path, compress=path.suffix == ".gz") as handle:
        text = io.TextIOWrapper(handle, encoding="utf-8", newline="")
        try:
            yield text
        finally:
            text.detach()  # flushed; the binary file is closed (and renamed) by atomic_file


def csv_writer(text: TextIO, header: Sequence[str]) -> Any:
    """The project's CSV (lines end in a bare newline) on `text`, its header written."""
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    return writer


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> Path:
    """A CSV table (gzip-compressed when the name ends in .gz), written as the rows come."""
    with _text_file(path) as text:
        csv_writer(text, header).writerows(rows)
    return path


def write_json(path: Path, data: object) -> Path:
    """A JSON document, keys in a fixed order (gzip-compressed when the name ends in .gz)."""
    with _text_file(path) as text:
        text.write(json.dumps(data, separators=SEPARATORS) + "\n")
    return path


def write_table(directory: Path, name: str, header: Sequence[str],
                rows: Iterable[Sequence[object]], compress: bool = False, form: str = "csv"
                ) -> list[Path]:
    """The same table as `name.csv` and `name.json` ({"columns": [...], "rows": [[...], ...]}),
    or with `form` "parquet" as `name.parquet` (`write_parquet`), in `directory` (made if
    missing: its folder was validated by `writable`). The rows are read once, as they come,
    and written to both files together, so a table of millions of rows never sits in memory;
    both files are renamed into place only when every row is written (the bytes are those of
    write_csv and write_json on the whole table)."""
    directory.mkdir(exist_ok=True)
    if form == "parquet":
        return [write_parquet(directory / f"{name}.parquet", header, rows)]
    suffix = ".gz" if compress else ""
    paths = [directory / f"{name}.csv{suffix}", directory / f"{name}.json{suffix}"]
    with _text_file(paths[0]) as table, _text_file(paths[1]) as document:
        writer = csv_writer(table, header)
        document.write(json.dumps({"columns": list(header)}, separators=SEPARATORS)[:-1]
                       + ',"rows":[')
        for k, row in enumerate(rows):
            writer.writerow(row)
            document.write(("," if k else "") + json.dumps(list(row), separators=SEPARATORS))
        document.write("]}\n")
    return paths


def write_blocks(directory: Path, name: str, header: Sequence[str],
                 blocks: Iterable[Sequence[np.ndarray]], form: str = "csv") -> list[Path]:
    """`write_table`'s files from blocks of columns (NumPy arrays of integers or float64, a
    block's columns of one length), for tables of tens of millions of rows: Parquet takes the
    arrays as they are, no row built in Python; CSV and JSON take rows with every float as its
    repr text, as `write_table`'s callers give floats. The same bytes as `write_table` on
    those rows (but for a Parquet file of no rows, whose columns the arrays type)."""
    if form != "parquet":
        return write_table(directory, name, header, _rows(blocks), form=form)
    directory.mkdir(exist_ok=True)
    blocks = iter(blocks)
    first = next(blocks, None)
    if first is None:  # no arrays to type the columns: as the rows path types none
        return [write_parquet(directory / f"{name}.parquet", header, ())]
    import pyarrow as pa

    schema = pa.schema([(column, pa.float64() if values.dtype.kind == "f" else pa.int64())
                        for column, values in zip(header, first)])
    path = directory / f"{name}.parquet"
    return [_parquet(path, schema, _regrouped(chain([first], blocks)))]


def _rows(blocks: Iterable[Sequence[np.ndarray]]) -> Iterator[tuple]:
    """The rows of blocks of columns, floats as their repr text (exact)."""
    for block in blocks:
        yield from zip(*(column.tolist() if column.dtype.kind != "f" else
                         [repr(v) for v in column.tolist()] for column in block))


def _regrouped(blocks: Iterable[Sequence[np.ndarray]]) -> Iterator[list[np.ndarray]]:
    """Blocks of columns as row groups of BATCH rows (the last one shorter), the groups the
    rows path writes: the same file."""
    pending: list[Sequence[np.ndarray]] = []
    count = 0
    for block in blocks:
        pending.append(block)
        count += len(block[0])
        if count >= BATCH:
            joined = [np.concatenate(parts) for parts in zip(*pending)]
            full = count - count % BATCH
            for start in range(0, full, BATCH):
                yield [column[start:start + BATCH] for column in joined]
            pending, count = [[column[full:] for column in joined]], count - full
    if count:
        yield [np.concatenate(parts) for parts in zip(*pending)]


def check_parquet() -> None:
    """Raise ValueError (the reason, for one line) where Parquet cannot be written: pyarrow,
    an optional extra, is not installed."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise ValueError("--format parquet needs pyarrow: pip install 'dice-solver[parquet]' "
                         "(or pyarrow itself)") from None


def write_parquet(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> Path:
    """A Parquet table (zstd), written as the rows come, a row group of BATCH rows at a time.
    Each column's type is read off the first rows: integers stay int64; text that reads as a
    float (the tables write floats as repr text, exact) becomes float64, the same number bit
    for bit; other text stays text. No time is written, so the bytes depend on the rows and
    the pyarrow version (its name is in the file) only."""
    import pyarrow as pa

    rows = iter(rows)
    batch = list(islice(rows, BATCH))
    schema = pa.schema([(column, _arrow_type(pa, [row[k] for row in batch]))
                        for k, column in enumerate(header)])

    def batches() -> Iterator[list[list]]:
        nonlocal batch
        while batch:
            yield [_typed(field.type, pa, [row[k] for row in batch])
                   for k, field in enumerate(schema)]
            batch = list(islice(rows, BATCH))

    return _parquet(path, schema, batches())


def _parquet(path: Path, schema: Any, batches: Iterable[Sequence]) -> Path:
    """A Parquet file (zstd) of these batches of columns, a row group each."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with atomic_file(path) as handle, pq.ParquetWriter(handle, schema, compression="zstd",
                                                       write_statistics=True) as writer:
        for columns in batches:
            writer.write_table(pa.table([pa.array(values, field.type)
                                         for field, values in zip(schema, columns)],
                                        schema=schema))
    return path


def _typed(kind: Any, pa: Any, values: list) -> list:
    """A column's values as its Parquet type holds them (text as the CSV writes it)."""
    if kind == pa.float64():
        return [float(v) for v in values]
    if kind == pa.string():
        return ["" if v is None else str(v) for v in values]
    return values


def _arrow_type(pa: Any, values: list) -> Any:
    """A column's Parquet type from its first values (see `write_parquet`)."""
    if all(isinstance(v, int) for v in values):
        return pa.int64()
    try:
        for v in values:
            float(v)
    except (TypeError, ValueError):
        return pa.string()
    return pa.float64()


def sha256(path: Path) -> str:
    """The file's SHA-256, read a piece at a time (a table can be gigabytes)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for piece in iter(lambda: handle.read(1 << 24), b""):
            digest.update(piece)
    return digest.hexdigest()


def write_manifest(directory: Path, files: Sequence[Path], command: str,
                   parameters: dict, summary: dict) -> Path:
    """manifest.json: what was solved, the command that regenerates it, each file's SHA-256."""
    manifest = {
        "command": command,
        "parameters": parameters,
        "summary": summary,
        "files": {f.name: {"sha256": sha256(f), "bytes": f.stat().st_size}
                  for f in sorted(files, key=lambda p: p.name)},
    }
    path = directory / "manifest.json"
    atomic_write(path, (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
    return path
