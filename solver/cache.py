"""Solved tables on disk, so a second query is instant.

One directory ($DICE_SOLVER_CACHE, else ~/.cache/dice-solver). An entry is a .npz of plain arrays
(loaded with allow_pickle=False), or a JSON value for a small answer, beside a JSON record of the
exact key it answers and the SHA-256 of the data. Both are written atomically; an entry whose
record, key or hash does not match is treated as missing and rewritten. A cache that cannot be
read or written never breaks a command: it says so once on stderr and the command goes on
without it.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from solver import imports
from solver.tables import atomic_write

FORMAT = 1  # bump when the arrays' meaning changes
_warned: list[str] = []  # the one warning given in this process, if any
_memory: dict[str, object] | None = None  # once `remember` is called: entry -> what it made
T = TypeVar("T")


# the disk entry of what each module imports (`imports.named`), by the hash of its source
IMPORTS = {"game": "imports"}


@functools.cache
def code_hash(*roots: str) -> str:
    """A hash of the source of every module the roots import, directly or not (and the data
    files beside them): put in a key with the root that computes a value (usually the caller's
    `__name__`), it keeps a cached result from outliving a change to any code that computed it.
    Modules are found, not imported: a cached query must not pay for loading numba's kernels.
    What each module imports is kept on disk by its source's hash, so a cached query reads the
    files but parses none it parsed before."""
    parsed = _parsed()
    before = json.dumps(parsed, sort_keys=True)
    names = frozenset().union(*(imports.closure(root, parsed) for root in roots))
    if json.dumps(parsed, sort_keys=True) != before:
        store_json(IMPORTS, parsed)
    digest = hashlib.sha256()
    for label, data in imports.contents(names):
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


@functools.cache
def _parsed() -> dict:
    """The modules' imports as stored (once per process; `code_hash` adds to it)."""
    stored = load_json(IMPORTS)
    return stored if isinstance(stored, dict) else {}


def directory() -> Path:
    configured = os.environ.get("DICE_SOLVER_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "dice-solver"


def _unusable(error: OSError) -> None:
    """Say once per process that the cache cannot be used, and why; the command goes on."""
    if not _warned:
        reason = error.strerror or str(error)
        _warned.append(reason)
        print(f"dice-solver: warning: cache {directory()} cannot be used ({reason}); going on "
              "without it (set DICE_SOLVER_CACHE to a writable directory)", file=sys.stderr)


def remember() -> None:
    """From now on this process keeps in memory what `in_memory` makes: for a long-running
    process (the page's server), where each request would otherwise read and rebuild the same
    turn graph. A command line process never calls it: it answers once."""
    global _memory
    if _memory is None:
        _memory = {}


def in_memory(key: dict, make: Callable[[], T]) -> T:
    """`make()`, or once `remember` was called, what it made for this key (in this cache
    directory) before in this process. None is not kept: it means nothing was found yet."""
    if _memory is None:
        return make()
    name = str(_paths(key, "")[1])
    if name not in _memory:
        made = make()
        if made is None:
            return made
        _memory[name] = made
    return _memory[name]


def _paths(key: dict, suffix: str) -> tuple[dict, Path, Path]:
    record = {"format": FORMAT, **key}
    text = json.dumps(record, sort_keys=True)
    name = f"{key.get('game', 'solve')}-{hashlib.sha256(text.encode()).hexdigest()[:20]}"
    return record, directory() / f"{name}{suffix}", directory() / f"{name}.json"


def _read(key: dict, suffix: str) -> bytes | None:
    """The stored bytes for exactly this key, once their record vouches for them, or None."""
    record, data_path, meta_path = _paths(key, suffix)
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        data = data_path.read_bytes()
    except FileNotFoundError:
        return None
    except NotADirectoryError as error:  # the cache path runs through a file
        _unusable(error)
        return None
    except (OSError, ValueError, UnicodeDecodeError):  # unreadable or corrupt record
        return None
    if meta.get("key") != record or meta.get("sha256") != hashlib.sha256(data).hexdigest():
        return None
    return data


def _write(key: dict, data: bytes, suffix: str) -> Path | None:
    """Write the data for this key (data first, then the record that vouches for it), or None
    where the cache cannot be written."""
    record, data_path, meta_path = _paths(key, suffix)
    meta = {"key": record, "sha256": hashlib.sha256(data).hexdigest()}
    try:
        data_path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(data_path, data)
        atomic_write(meta_path, (json.dumps(meta, indent=2, sort_keys=True) + "\n").encode())
    except OSError as error:
        _unusable(error)
        return None
    return data_path


def load(key: dict) -> dict[str, np.ndarray] | None:
    """The arrays stored for exactly this key, or None (absent, or corrupt and so ignored)."""
    data = _read(key, ".npz")
    if data is None:
        return None
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            return {name: arrays[name] for name in arrays.files}
    except (OSError, ValueError, KeyError):  # a corrupt archive
        return None


def store(key: dict, arrays: dict[str, np.ndarray], compress: bool = True) -> Path | None:
    """Write the arrays for this key, or None where the cache cannot be written. Uncompressed
    entries are larger but load faster."""
    buffer = io.BytesIO()
    (np.savez_compressed if compress else np.savez)(buffer, **arrays)
    return _write(key, buffer.getvalue(), ".npz")


def load_json(key: dict) -> object | None:
    """The JSON value stored for exactly this key, or None: a small answer read back without
    NumPy's archive reader (floats come back bit for bit: JSON writes their shortest repr)."""
    data = _read(key, ".data.json")
    try:
        return None if data is None else json.loads(data)
    except ValueError:
        return None


def store_json(key: dict, value: object) -> Path | None:
    """Write a JSON value for this key, or None where the cache cannot be written."""
    return _write(key, json.dumps(value).encode(), ".data.json")
