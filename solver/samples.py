"""Sample files and decision logs: CSV, one line per unit (a turn, a game, an Adventure), a '#'
line saying how the file was made; read back by `verify`. Knows no game: a game says which
columns it writes and which outcomes they can hold (formats in docs/verify.md)."""

from __future__ import annotations

import csv
import io
import re
import sys
import warnings
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from solver.errors import InputError
from solver.tables import atomic_write, csv_writer

TIE = "tie"


MAX_BYTES = 1 << 30  # the most text a sample file may hold (after gunzip): memory stays bounded
MAX_LINE = 10_000  # characters in one line: a sample line is a few fields
_stdin: list[bytes] = []  # standard input, read once (a file may be read for several columns)


def read_text(path: str, what: str) -> str:
    """A text file ("-": standard input), gunzipped when it is gzip data, without the byte
    order mark spreadsheets write; refused when larger than MAX_BYTES or with a line longer
    than MAX_LINE (no allocation grows with a malformed file)."""
    try:
        raw = _read_bytes(path)
        if raw[:2] == b"\x1f\x8b":
            raw = _gunzip(raw, what)
        text = raw.decode("utf-8-sig")
    except OSError as error:
        raise InputError(f"cannot read {what}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text") from None
    if len(raw) > MAX_BYTES:
        raise InputError(f"{what} holds more than {MAX_BYTES >> 20} MiB of text")
    long = re.search(f"[^\n]{{{MAX_LINE + 1}}}", text)
    if long is not None:
        line = text.count("\n", 0, long.start()) + 1
        raise InputError(f"{what} line {line} is longer than {MAX_LINE:,} characters: not a "
                         "sample file")
    return text


def _read_bytes(path: str) -> bytes:
    if path != "-":
        with open(path, "rb") as handle:
            return handle.read(MAX_BYTES + 1)
    if not _stdin:
        _stdin.append(sys.stdin.buffer.read(MAX_BYTES + 1))
    return _stdin[0]


def _gunzip(raw: bytes, what: str) -> bytes:
    """Gzip data decompressed, at most MAX_BYTES + 1 of it (a small file may expand a lot)."""
    stream = zlib.decompressobj(wbits=31)
    try:
        text = stream.decompress(raw, MAX_BYTES + 1)
    except zlib.error:
        raise InputError(f"{what} is damaged gzip data") from None
    if len(text) <= MAX_BYTES and not stream.eof:
        raise InputError(f"{what} is truncated gzip data")
    return text


def read_csv(path: str, what: str, required: Sequence[str], text: str | None = None
             ) -> tuple[list[str], list[list[str]], np.ndarray]:
    """A CSV file (`read_text`): its header, rows and their line numbers. Lines that
    start with '#' and blank lines are skipped; every row has the header's number of fields."""
    text = read_text(path, what) if text is None else text
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), start=1)
                if line.strip() and not line.startswith("#")]
    if not numbered:
        raise InputError(f"{what} is empty: it needs a header line and rows")
    if '"' in text:  # quoted fields: the csv module's reading
        split = [next(csv.reader([line])) for _, line in numbered]
    else:  # the common case, several times faster
        split = [line.split(",") for _, line in numbered]
    header = [c.strip() for c in split[0]]
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError(f"{what} line {numbered[0][0]}: the header lacks the column(s) "
                         f"{', '.join(missing)} (it has {', '.join(header)})")
    rows = split[1:]
    lines = np.array([n for n, _ in numbered[1:]], dtype=np.int64)
    widths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    if np.any(widths != len(header)):
        r = int(np.flatnonzero(widths != len(header))[0])
        raise InputError(f"{what} line {lines[r]}: {widths[r]} fields where the header has "
                         f"{len(header)}")
    return header, rows, lines


def read_outcomes(path: str, column: str, allowed: Sequence[str]) -> np.ndarray:
    """The samples' outcomes as indices into `allowed` (the outcomes the game can produce at
    all, written as the sample format writes them). A file with a fault is read again line by
    line, so the error names the line."""
    what = f"samples file {path}"
    text = read_text(path, what)
    numeric = all(a.isdigit() for a in allowed)  # scores: read as integers, much faster
    values = _fast_column(text, column, np.int64 if numeric else str)
    if values is None:
        header, rows, _ = read_csv(path, what, [column], text)
        values = np.array([row[header.index(column)].strip() for row in rows], dtype=str)
    if not len(values):
        raise InputError(f"{what} has a header but no samples")
    names = np.array([int(a) for a in allowed]) if values.dtype.kind == "i" else np.array(allowed)
    order = np.argsort(names)
    at = np.minimum(np.searchsorted(names[order], values), len(names) - 1)
    known = names[order][at] == values
    if not np.all(known):
        header, rows, lines = read_csv(path, what, [column], text)
        r = int(np.flatnonzero(~known)[0])
        raise InputError(f"{what} line {lines[r]}: {column} {rows[r][header.index(column)]!r} "
                         f"cannot happen in this game ({_describe(allowed)})")
    return order[at]


def _fast_column(text: str, column: str, dtype: type) -> np.ndarray | None:
    """One column of a plain CSV text with NumPy's compiled reader, or None when the text is
    not plain (quotes, uneven rows, a value of another type, a missing column): the careful
    reader then takes over."""
    if '"' in text:
        return None
    head = re.search(r"^(?!#)[^\n]*\S[^\n]*$", text, re.M)  # the first line with text
    if head is None:
        return None
    header = [c.strip() for c in head.group(0).split(",")]
    if column not in header:
        return None
    body = text[head.end() + 1:]
    try:
        with warnings.catch_warnings():  # an empty body is reported by the caller
            warnings.simplefilter("ignore")
            values = np.loadtxt(io.StringIO(body), delimiter=",", comments="#",
                                usecols=header.index(column), dtype=dtype, ndmin=1)
    except ValueError:
        return None
    commas = sum(c.count(",") for c in re.findall(r"^#[^\n]*", body, re.M))
    if body.count(",") - commas != len(values) * (len(header) - 1):
        return None  # some row has another number of fields
    return values


def _describe(allowed: Sequence[str]) -> str:
    if len(allowed) <= 12:
        return "possible: " + ", ".join(allowed)
    return f"possible: {', '.join(allowed[:6])}, ..., {', '.join(allowed[-3:])}"


def sample_text(comment: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A sample file's text: a '#' line saying how it was made (CSV has no comments), then the
    header and one row per unit, written by the csv module (the same bytes as joining with
    commas for the numbers and words written here, and quoted should a field ever need it)."""
    text = io.StringIO()
    text.write(f"# {comment}\n")
    csv_writer(text, header).writerows(rows)
    return text.getvalue()


def write_samples(path: str, text: str) -> None:
    try:
        atomic_write(Path(path), text.encode("utf-8"))
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror}") from None


def winner_names(winner: np.ndarray) -> list[str]:
    """Seat numbers from 1, or "tie" for a tie for first."""
    return [TIE if w < 0 else str(w + 1) for w in winner.tolist()]



def header_of(text: str) -> list[str]:
    """The column names of a sample file's text (its first line that is not a comment)."""
    head = re.search(r"^(?!#)[^\n]*\S[^\n]*$", text, re.M)
    return [] if head is None else [c.strip().strip('"') for c in head.group(0).split(",")]


def read_columns(path: str, required: Sequence[str], optional: Sequence[str],
                 labels: dict[str, dict[str, int]], text: str | None = None
                 ) -> dict[str, np.ndarray]:
    """Whole-number columns of a sample file: every `required` one, and each `optional` one the
    header has. `labels[column]` maps a column's words to numbers ("tie" -> 0 for a winner);
    other values must be whole numbers >= 0. A value that is neither is bad input naming its
    line."""
    what = f"samples file {path}"
    text = read_text(path, what) if text is None else text
    header = header_of(text)
    missing = [c for c in required if c not in header]
    if missing:
        read_csv(path, what, required, text)  # raises, naming the header's line
    names = [*required, *(c for c in optional if c in header)]
    fast = {c: _fast_column(text, c, np.int64) for c in names if c not in labels}
    if any(v is None for v in fast.values()) or len(names) > len(fast):
        header, rows, lines = read_csv(path, what, required, text)
        return {c: parsed_column(rows, lines, header.index(c), c, labels.get(c, {}), what)
                for c in names}
    values = {c: v for c, v in fast.items()}
    if not all(len(v) for v in values.values()):
        raise InputError(f"{what} has a header but no samples")
    if any(np.any(v < 0) for v in values.values()):
        header, rows, lines = read_csv(path, what, required, text)
        return {c: parsed_column(rows, lines, header.index(c), c, {}, what) for c in names}
    return values


def parsed_column(rows: list[list[str]], lines: np.ndarray, at: int, column: str,
            words: dict[str, int], what: str) -> np.ndarray:
    """One column of rows as numbers: a word of `words`, or a whole number >= 0."""
    if not rows:
        raise InputError(f"{what} has a header but no samples")
    result = np.empty(len(rows), dtype=np.int64)
    for r, row in enumerate(rows):
        text = row[at].strip()
        if text in words:
            result[r] = words[text]
        elif text.isascii() and text.isdigit() and len(text) < 18 and \
                (not words or text in words):
            result[r] = int(text)
        else:
            allowed = ", ".join(words) if words else "a whole number >= 0"
            raise InputError(f"{what} line {lines[r]}: {column} {text[:40]!r} is not "
                             f"{'one of ' if words else ''}{allowed}")
    return result
