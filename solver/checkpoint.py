"""Checkpoints of long solves: each finished unit of work (a level) on disk or on shared
storage, so that a solve that dies resumes where it stopped instead of starting from nothing,
on this machine or, through a URL every node reads, on another node of a cluster.

A checkpoint is a folder: `level_<n>.npz` per finished level (plain arrays, read without pickle),
`reachable.npz` (which positions the game reaches, so that a solve read back skips the sweep)
and `manifest.json`, which holds the parameters of the solve (with the hash of the code that
computes it, as solver/cache.py keys its entries) and, per finished level, its file's SHA-256 and
statistics (and the reachable flags' SHA-256). Every file is written whole or not at all, a
level's data before the manifest that vouches for it: a solve killed at any moment leaves a
checkpoint that resumes after the levels the manifest lists whose files are intact. A
checkpoint of other parameters is refused, never mixed.

The folder is a local path, or a URL (s3://, gs://, az://, file://, any protocol fsspec knows)
read and written through fsspec, the optional extra `pip install 'dice-solver[cloud]'` with the
storage's own package (s3fs, gcsfs, adlfs). A local folder, file:// included, writes each file
under a temporary name renamed into place; other storage writes each file in one put, which
object stores keep whole or not at all.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from solver.errors import InputError
from solver.tables import atomic_write, writable

FORMAT = 2  # bump when the files' meaning changes
MANIFEST = "manifest.json"
REACHABLE = "reachable.npz"
URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")  # a scheme: fsspec's protocols, not a path


def location(text: str) -> Path | str:
    """Where a checkpoint lives, validated before any solve: a URL (kept as text: a Path would
    fold its "//") whose filesystem fsspec can open, or a local folder that may be created.
    Raises ValueError (InputError for a URL) with the reason."""
    if URL.match(text):
        _filesystem(text)
        return text
    return writable(text, directory=True)


def _filesystem(url: str) -> tuple[Any, str]:
    """(fsspec filesystem, path on it) of a URL; refused in one line without fsspec, for a
    protocol fsspec does not know, or without the storage's own package."""
    try:
        from fsspec.core import url_to_fs
    except ImportError:
        raise InputError(f"a checkpoint at {url} needs pip install 'dice-solver[cloud]' "
                         f"(fsspec) and the package of its storage (s3fs, gcsfs, adlfs)") from None
    try:
        return url_to_fs(url)
    except (ImportError, ValueError) as error:  # fsspec names the missing package or protocol
        raise InputError(f"cannot use checkpoint {url}: {error}") from None


class _Folder:
    """A local folder: each file written under a temporary name, renamed into place."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __str__(self) -> str:
        return str(self.folder)

    def check(self) -> None:
        """Refuse (ValueError) a folder that could not be made or written."""
        writable(str(self.folder), directory=True)

    def make(self) -> None:
        self.check()
        self.folder.mkdir(exist_ok=True)

    def read(self, name: str) -> bytes:
        return (self.folder / name).read_bytes()

    def write(self, name: str, data: bytes) -> None:
        atomic_write(self.folder / name, data)


class _Remote:
    """A folder on storage fsspec opens: each file written in one put. A backend's own errors
    (missing credentials, say, which are not always OSErrors) become OSErrors, so that the
    checkpoint refuses them in one line."""

    def __init__(self, url: str, filesystem: Any, root: str) -> None:
        self.url, self.filesystem, self.root = url.rstrip("/"), filesystem, root.rstrip("/")

    def __str__(self) -> str:
        return self.url

    def check(self) -> None:
        """Nothing to check before the manifest is read (which reaches the storage)."""

    def make(self) -> None:
        self._call("makedirs", self.root, exist_ok=True)

    def read(self, name: str) -> bytes:
        return self._call("cat_file", f"{self.root}/{name}")

    def write(self, name: str, data: bytes) -> None:
        self._call("pipe_file", f"{self.root}/{name}", data)

    def _call(self, method: str, *args: Any, **options: Any) -> Any:
        try:
            return getattr(self.filesystem, method)(*args, **options)
        except OSError:
            raise
        except Exception as error:  # any backend's, named in the one line
            raise OSError(f"{type(error).__name__}: {error}") from error


def _files(where: Path | str) -> _Folder | _Remote:
    """The folder a checkpoint reads and writes: local (a path, or a file:// URL) or remote."""
    text = str(where)
    if not URL.match(text):
        return _Folder(Path(where))
    filesystem, root = _filesystem(text)
    protocols = filesystem.protocol if isinstance(filesystem.protocol, tuple) else (
        filesystem.protocol,)
    return _Folder(Path(root)) if "file" in protocols else _Remote(text, filesystem, root)


class Checkpoint:
    """The finished levels of one solve in a folder (made at the first file written, so that a
    solve refused before it starts leaves none; its parent must exist) or at a URL on shared
    storage (solver.checkpoint.location)."""

    def __init__(self, folder: Path | str, parameters: dict) -> None:
        self.files = _files(folder)
        self.parameters = json.loads(json.dumps(parameters))  # as it reads back from JSON
        self.levels: dict[str, dict] = {}
        self.reached: dict | None = None  # the reachable flags' manifest entry
        self.made = False  # the folder, once the first file is written
        try:
            self.files.check()
            data = self.files.read(MANIFEST)
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            raise self._unusable(error) from None
        try:
            manifest = json.loads(data.decode("utf-8"))
            stored, levels, form = manifest["parameters"], manifest["levels"], manifest["format"]
            if not isinstance(levels, dict):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            raise InputError(f"{self.files}/{MANIFEST} is not a checkpoint manifest: delete the "
                             f"folder or give another one") from None
        if form != FORMAT:
            raise InputError(f"checkpoint {self.files} was written by another version of "
                             f"dice-solver (format {form}, this one reads {FORMAT}): give another "
                             f"folder, or delete it to start again")
        if stored != self.parameters:
            raise InputError(f"checkpoint {self.files} holds a solve of other parameters "
                             f"({_difference(stored, self.parameters)}): give another folder, "
                             f"or delete it to start again")
        self.levels, self.reached = levels, manifest.get("reachable")

    def finished(self) -> dict[int, dict]:
        """Level -> the statistics stored with it, for every level the manifest lists."""
        return {int(level): entry["stats"] for level, entry in self.levels.items()}

    def load(self, level: int) -> dict[str, np.ndarray] | None:
        """A finished level's arrays ("values" and what the engine keeps with them), or None
        if its file is missing or not what the manifest vouches for."""
        return self._read(f"level_{level}.npz", self.levels.get(str(level)))

    def save(self, level: int, arrays: dict[str, np.ndarray], stats: dict) -> None:
        """Keep a finished level's arrays: its file first, then the manifest that lists it."""
        sha256 = self._write(f"level_{level}.npz", arrays)
        self.levels[str(level)] = {"sha256": sha256, "stats": stats}
        self._write_manifest()

    def reachable(self) -> np.ndarray | None:
        """The flags `keep_reachable` kept (a bool per numbered position), or None if there are
        none or their file is not what the manifest vouches for."""
        stored = self._read(REACHABLE, self.reached)
        if stored is None or "packed" not in stored or "size" not in stored:
            return None
        return np.unpackbits(stored["packed"], count=int(stored["size"])).astype(bool)

    def keep_reachable(self, flags: np.ndarray) -> None:
        """Keep which positions the game reaches (a bit each), then the manifest."""
        sha256 = self._write(REACHABLE, {"packed": np.packbits(flags),
                                         "size": np.array(len(flags))})
        self.reached = {"sha256": sha256}
        self._write_manifest()

    def _read(self, name: str, entry: dict | None) -> dict[str, np.ndarray] | None:
        """A file's arrays, or None if it is missing or not the bytes its entry vouches for."""
        try:
            data = self.files.read(name)
            if entry is None or hashlib.sha256(data).hexdigest() != entry["sha256"]:
                return None
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                return dict(arrays)
        except (OSError, ValueError, KeyError):
            return None

    def _write(self, name: str, arrays: dict[str, np.ndarray]) -> str:
        """Write arrays as a file (whole or not at all); its SHA-256."""
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        data = buffer.getvalue()
        self._put(name, data)
        return hashlib.sha256(data).hexdigest()

    def _write_manifest(self) -> None:
        manifest = {"format": FORMAT, "parameters": self.parameters, "levels": self.levels,
                    **({} if self.reached is None else {"reachable": self.reached})}
        self._put(MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())

    def _put(self, name: str, data: bytes) -> None:
        """Write one file, making the folder first if this is the first."""
        if not self.made:
            try:
                self.files.make()
            except (OSError, ValueError) as error:
                raise self._unusable(error) from None
            self.made = True
        self.files.write(name, data)

    def _unusable(self, error: Exception) -> InputError:
        """The one line that says why the checkpoint cannot be used."""
        where = f"folder {self.files}" if isinstance(self.files, _Folder) else str(self.files)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        return InputError(f"cannot use checkpoint {where}: {reason}")


def _difference(stored: object, wanted: dict) -> str:
    """The first parameter that differs, for the refusal."""
    if not isinstance(stored, dict):
        return "no parameters there"
    for key in sorted(set(stored) | set(wanted)):
        if stored.get(key) != wanted.get(key):
            if key == "code":
                return "the solver's code has changed since"
            return f"{key} {json.dumps(stored.get(key))} there, {json.dumps(wanted.get(key))} here"
    return "none"


def compare(first: Path | str, second: Path | str) -> tuple[list[int], list[int]]:
    """(levels both checkpoints hold, those among them whose arrays differ): two checkpoints of
    one solve, say on a cluster and in one process, which must be the same bits wherever both
    finished a level. Checkpoints of other solves are refused in one line."""
    common, differ = [], []
    for level, a, b in _common_levels(first, second, own=()):
        common.append(level)
        if sorted(a) != sorted(b) or not all(_same(a[k], b[k]) for k in a):
            differ.append(level)
    return common, differ


def differences(first: Path | str, second: Path | str) -> dict[int, float]:
    """Level -> the largest difference between the values the two checkpoints hold there, for
    every level both finished: two solves of one game by different code (their parameters may
    differ in the code's hash only), so that a change to an engine can be held to the values of
    the code before it (issue 25: within 1e-12 at every position). Positions both leave unsolved
    (NaN) are skipped; a value against a NaN, or arrays of other shapes, differ infinitely."""
    return {level: _largest(a["values"], b["values"])
            for level, a, b in _common_levels(first, second, own=("code",))}


def _common_levels(first: Path | str, second: Path | str, own: tuple[str, ...]
                   ) -> Iterator[tuple[int, dict[str, np.ndarray], dict[str, np.ndarray]]]:
    """(level, first's arrays, second's) for every level both checkpoints finished, one level
    at a time (a 4-player solve's levels are gigabytes). The second must hold a solve of the
    first's parameters but for the keys in `own`, else the refusal names the first that
    differs."""
    stored = []
    for folder in (first, second):
        files = _files(folder)
        try:
            parameters = json.loads(files.read(MANIFEST))["parameters"]
            if not isinstance(parameters, dict):
                raise TypeError
        except (OSError, ValueError, KeyError, TypeError):
            raise InputError(f"{folder} holds no checkpoint (no readable {MANIFEST})") from None
        stored.append(parameters)
    wanted = {key: value for key, value in stored[0].items() if key not in own}
    wanted.update({key: stored[1][key] for key in own if key in stored[1]})
    one, other = Checkpoint(first, stored[0]), Checkpoint(second, wanted)
    for level in sorted(set(one.finished()) & set(other.finished())):
        a, b = one.load(level), other.load(level)
        if a is None or b is None:
            raise InputError(f"level {level} of {first if a is None else second} is damaged "
                             f"(its file does not match the manifest)")
        yield level, a, b


def _largest(a: np.ndarray, b: np.ndarray) -> float:
    """The largest absolute difference of two arrays of values, NaN where both are NaN."""
    if a.shape != b.shape or not np.array_equal(np.isnan(a), np.isnan(b)):
        return float("inf")
    solved = ~np.isnan(a)
    return float(np.abs(a[solved] - b[solved]).max(initial=0.0))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """The same array to the bit (NaN where NaN)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
