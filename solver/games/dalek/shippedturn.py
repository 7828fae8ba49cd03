"""The default rules' turn graph shipped inside the package (shipped/turn.npz), so that the
first Dalek Dice command of a fresh install reads it (about 0.1 s) instead of building it (about
0.7 s): with the race values shipped beside it (shipped.py), a 3-player position is answered
at once.

The file is the disk cache's entry for that graph (`turn.turn_arrays`), compressed, with the key
it was built under (`turn.turn_key`: the rules and the hash of the code that builds turn
graphs). It is read only where that key is exactly the one asked for: after a change to that
code the graph is built again, as it would be without the file, and
tests/games/dalek/test_dalek_shipped.py asks for a remake (`python -m
solver.games.dalek.shipping turn`, a second). Its bytes depend on the graph only (no
timestamps), so a remake of the same graph changes nothing."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np

FILE = Path(__file__).parent / "shipped" / "turn.npz"
KEY = "key"  # the array holding the key, as JSON text


def read(key: dict) -> dict[str, np.ndarray] | None:
    """The shipped graph's arrays if it was built under exactly this key, else None."""
    try:
        with np.load(FILE, allow_pickle=False) as stored:
            if json.loads(str(stored[KEY])) != key:
                return None
            return {name: stored[name] for name in stored.files if name != KEY}
    except (OSError, ValueError, KeyError):
        return None


def write(arrays: dict[str, np.ndarray], key: dict, file: Path = FILE) -> int:
    """Write a turn graph's arrays with its key (a zip as numpy's savez_compressed makes, with
    fixed dates: the same graph gives the same bytes); returns the file's size."""
    from solver.tables import atomic_write

    buffer = io.BytesIO()
    members = {KEY: np.array(json.dumps(key, sort_keys=True)), **arrays}
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(members):
            member = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            member.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(member, "w") as handle:
                np.lib.format.write_array(handle, np.asarray(members[name]),
                                          allow_pickle=False)
    atomic_write(file, buffer.getvalue())
    return len(buffer.getvalue())
