"""How a solve is asked to run: the engine, the level engine's checkpoint folder and the runner
of its chunks, or the file of values that answers instead of a solve. The command line builds
one from its options (--engine, --checkpoint, --ray, --workers, --race-file) and hands it to
every solve it starts, so nothing it chose outlives the request."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.engine.levels.protocols import Runner


@dataclass(frozen=True)
class Solving:
    """`engine`: "cyclic" or "levels"; `checkpoint`: a folder (or a URL on shared storage,
    solver.checkpoint) the level engine resumes from and writes each finished level to;
    `runner`: where the level engine solves its chunks (None: in this process); `values`: a
    file of a solve's values (a Dalek Dice race file, shipped.load) read instead of solving."""

    engine: str = "cyclic"
    checkpoint: Path | str | None = None
    runner: Runner | None = None
    values: Path | None = None
