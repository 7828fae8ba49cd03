"""Checkpoints of long solves: each finished unit of work (a level) on disk, so that a solve
that dies resumes where it stopped instead of starting from nothing.

A checkpoint is a folder: `level_<n>.npz` per finished level (plain arrays, read without pickle)
and `manifest.json`, which holds the parameters of the solve (with the hash of the code that
computes it, as solver/cache.py keys its entries) and, per finished level, its file's SHA-256 and
statistics. Every file is written atomically, a level's data before the manifest that vouches
for it: a solve killed at any moment leaves a checkpoint that resumes after the levels the
manifest lists whose files are intact. A checkpoint of other parameters is refused, never mixed.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np

from solver.errors import InputError
from solver.tables import atomic_write, writable

FORMAT = 2  # bump when the files' meaning changes
MANIFEST = "manifest.json"


class Checkpoint:
    """The finished levels of one solve in a folder (made if missing; its parent must exist)."""

    def __init__(self, folder: Path, parameters: dict) -> None:
        self.folder = folder
        self.parameters = json.loads(json.dumps(parameters))  # as it reads back from JSON
        self.levels: dict[str, dict] = {}
        try:
            writable(str(folder), directory=True)
            folder.mkdir(exist_ok=True)
            data = (folder / MANIFEST).read_bytes()
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise InputError(f"cannot use checkpoint folder {folder}: {reason}") from None
        try:
            manifest = json.loads(data.decode("utf-8"))
            stored, levels, form = manifest["parameters"], manifest["levels"], manifest["format"]
            if not isinstance(levels, dict):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            raise InputError(f"{folder / MANIFEST} is not a checkpoint manifest: delete the "
                             f"folder or give another one") from None
        if form != FORMAT:
            raise InputError(f"checkpoint {folder} was written by another version of dice-solver "
                             f"(format {form}, this one reads {FORMAT}): give another folder, or "
                             f"delete it to start again")
        if stored != self.parameters:
            raise InputError(f"checkpoint {folder} holds a solve of other parameters "
                             f"({_difference(stored, self.parameters)}): give another folder, "
                             f"or delete it to start again")
        self.levels = levels

    def finished(self) -> dict[int, dict]:
        """Level -> the statistics stored with it, for every level the manifest lists."""
        return {int(level): entry["stats"] for level, entry in self.levels.items()}

    def load(self, level: int) -> dict[str, np.ndarray] | None:
        """A finished level's arrays ("values" and what the engine keeps with them), or None
        if its file is missing or not what the manifest vouches for."""
        entry = self.levels.get(str(level))
        try:
            data = (self.folder / f"level_{level}.npz").read_bytes()
            if entry is None or hashlib.sha256(data).hexdigest() != entry["sha256"]:
                return None
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                return dict(arrays)
        except (OSError, ValueError, KeyError):
            return None

    def save(self, level: int, arrays: dict[str, np.ndarray], stats: dict) -> None:
        """Keep a finished level's arrays: its file first, then the manifest that lists it."""
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        data = buffer.getvalue()
        atomic_write(self.folder / f"level_{level}.npz", data)
        self.levels[str(level)] = {"sha256": hashlib.sha256(data).hexdigest(), "stats": stats}
        manifest = {"format": FORMAT, "parameters": self.parameters, "levels": self.levels}
        atomic_write(self.folder / MANIFEST,
                     (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())


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


def compare(first: Path, second: Path) -> tuple[list[int], list[int]]:
    """(levels both checkpoints hold, those among them whose arrays differ): two checkpoints of
    one solve, say on a cluster and in one process, which must be the same bits wherever both
    finished a level. Checkpoints of other solves are refused in one line."""
    stored = []
    for folder in (first, second):
        try:
            stored.append(json.loads((folder / MANIFEST).read_text("utf-8"))["parameters"])
        except (OSError, ValueError, KeyError, TypeError):
            raise InputError(f"{folder} holds no checkpoint (no readable {MANIFEST})") from None
    one, other = (Checkpoint(folder, stored[0]) for folder in (first, second))
    common = sorted(set(one.finished()) & set(other.finished()))
    differ = []
    for level in common:
        a, b = one.load(level), other.load(level)
        if a is None or b is None:
            raise InputError(f"level {level} of {first if a is None else second} is damaged "
                             f"(its file does not match the manifest)")
        if sorted(a) != sorted(b) or not all(_same(a[k], b[k]) for k in a):
            differ.append(level)
    return common, differ


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """The same array to the bit (NaN where NaN)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
