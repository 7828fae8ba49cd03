"""Export of strategy tables: CSV and JSON files, byte-identical across runs, plus a manifest.

Every file is written atomically (a temporary file renamed into place). Gzip output carries no
timestamp, so regenerating a table gives the same bytes and the same SHA-256 in the manifest.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path


def atomic_write(path: Path, data: bytes) -> None:
    """Write all of `data` to `path` or leave the old file untouched (its directory must
    exist: output locations are checked before the work, `check_output`)."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def check_output(text: str, directory: bool = False) -> Path:
    """Where a command will write, checked before any work: a file (or, with `directory`, a
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


def _encode(path: Path, text: str) -> bytes:
    raw = text.encode("utf-8")
    return gzip.compress(raw, mtime=0) if path.suffix == ".gz" else raw


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> Path:
    """A CSV table (gzip-compressed when the name ends in .gz)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    atomic_write(path, _encode(path, buffer.getvalue()))
    return path


def write_json(path: Path, data: object) -> Path:
    """A JSON document, keys in a fixed order (gzip-compressed when the name ends in .gz)."""
    atomic_write(path, _encode(path, json.dumps(data, separators=(",", ":")) + "\n"))
    return path


def write_table(directory: Path, name: str, header: Sequence[str],
                rows: Sequence[Sequence[object]], compress: bool = False) -> list[Path]:
    """The same table as `name.csv` and `name.json` ({"columns": [...], "rows": [[...], ...]}),
    in `directory` (made if missing: its folder was checked by `check_output`)."""
    directory.mkdir(exist_ok=True)
    suffix = ".gz" if compress else ""
    return [write_csv(directory / f"{name}.csv{suffix}", header, rows),
            write_json(directory / f"{name}.json{suffix}",
                       {"columns": list(header), "rows": [list(r) for r in rows]})]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
