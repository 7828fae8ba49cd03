"""The code base stays `ruff check` clean (the rules are in pyproject.toml), and no function in
solver/ is rated D or worse by radon's cyclomatic complexity (docs/developing.md)."""

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


def blocks(found: list) -> list:
    """radon's blocks with the functions defined inside functions (`radon cc` hides those)."""
    return [b for block in found for b in [block, *blocks(getattr(block, "closures", []))]]


def test_no_function_rated_d_or_worse() -> None:
    pytest.importorskip("radon", reason="radon is not installed (pip install '.[test]' brings it)")
    from radon.complexity import cc_rank, cc_visit

    too_complex = [f"{file.relative_to(ROOT)}:{block.lineno} {block.fullname} rated "
                   f"{cc_rank(block.complexity)} ({block.complexity})"
                   for file in sorted((ROOT / "solver").rglob("*.py"))
                   for block in blocks(cc_visit(file.read_text(encoding="utf-8")))
                   if cc_rank(block.complexity) >= "D"]
    assert not too_complex, "split these into well-named pieces:\n" + "\n".join(too_complex)


def test_the_engine_type_checks_strictly() -> None:
    """`mypy --strict` on solver/engine (configuration in pyproject.toml); modules the engine
    imports from outside it are read for their types only."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]' brings it)")
    engine = ROOT / "solver" / "engine"
    files = [str(path.relative_to(ROOT)) for path in sorted(engine.rglob("*.py"))]
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                             *files], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
