"""The code base stays `ruff check` clean (the rules are in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_clean() -> None:
    pytest.importorskip("ruff", reason="ruff is not installed (pip install '.[test]' brings it)")
    paths = [p for p in ("solver", "tests", "benchmarks", "cli.py") if (ROOT / p).exists()]
    result = subprocess.run([sys.executable, "-m", "ruff", "check", *paths], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
