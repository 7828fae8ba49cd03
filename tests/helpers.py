"""What tests of every game share: the repository root and the real entry point in a subprocess."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from solver.cli import cli

ROOT = Path(__file__).resolve().parents[1]
HEAVY = {"numba", "scipy", "sympy", "networkx"}  # what a cached answer must not load


def run_cli(*args: str, seed: str = "0", env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
    """`python cli.py ARGS` from the repository root, as a user runs it (with `env` added to
    its environment: never set in this process, where it would leak into other tests)."""
    env = {**os.environ, "PYTHONHASHSEED": seed, **(env or {})}
    return subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def invoke(*args: str) -> dict:
    """Run a command in process and parse its JSON output."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def kill_part_way(script: str, folder: Path, levels: int) -> int:
    """Run `script` (a solve that checkpoints into its argv[1], `folder`) in a child, SIGKILL it
    once `levels` levels are stored, and give the number of levels stored when it died: the
    state a crash leaves for a resume to pick up."""
    child = subprocess.Popen([sys.executable, "-c", script, str(folder)], cwd=ROOT,
                             stderr=subprocess.PIPE)
    manifest, deadline = folder / "manifest.json", time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:
        if _stored(manifest) >= levels:
            break
        time.sleep(0.01)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL, child.stderr.read().decode()
    return _stored(manifest)


def _stored(manifest: Path) -> int:
    """The levels a checkpoint's manifest lists (0 before it is written: it is written whole)."""
    try:
        return len(json.loads(manifest.read_text())["levels"])
    except (OSError, ValueError, KeyError):
        return 0


def cached_twice(cache: Path, first: tuple[str, ...], second: tuple[str, ...]
                 ) -> tuple[dict, dict, set[str]]:
    """Two commands (with --json) in fresh processes sharing one cache: both JSON answers, and
    the top-level packages the second one imported (PYTHONPROFILEIMPORTTIME: -X importtime)."""
    env = {"DICE_SOLVER_CACHE": str(cache), "PYTHONPROFILEIMPORTTIME": "1"}
    runs = [run_cli(*args, env=env) for args in (first, second)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    imported = {m.group(1).split(".")[0] for m in
                re.finditer(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", runs[1].stderr, re.M)}
    assert "solver" in imported  # the import log was read
    return json.loads(runs[0].stdout), json.loads(runs[1].stdout), imported


def read_words(lines: Iterable[str], phrases: dict[str, str]) -> list[tuple[str, dict[str, str]]]:
    """A card's printed lines read phrase by phrase (a phrase's name and its regular expression,
    matched against the whole line): each line gives (the phrase's name, the numbers it names).
    A line no phrase reads fails the test, so a card reworded past what its reader knows is
    caught rather than skipped."""
    read = []
    for line in lines:
        found = [(name, m.groupdict()) for name, pattern in phrases.items()
                 if (m := re.fullmatch(pattern, line))]
        assert len(found) == 1, f"no single phrase reads the card's line {line!r}"
        read.append(found[0])
    return read


def every_value(values) -> np.ndarray:
    """A level solve's values (metrics, size) as one array, for comparing: the array of a
    solve without a store, or the store's levels (`StoredValues`) read whole."""
    if isinstance(values, np.ndarray):
        return values
    return values.take(np.arange(values.size))
