"""What tests of every game share: the repository root and the real entry point in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
