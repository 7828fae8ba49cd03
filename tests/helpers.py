"""What tests of every game share: the repository root and the real entry point in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from solver.cli import cli

ROOT = Path(__file__).resolve().parents[1]


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
        if manifest.exists() and manifest.read_text().count('"sha256"') >= levels:
            break
        time.sleep(0.01)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL, child.stderr.read().decode()
    return manifest.read_text().count('"sha256"')
