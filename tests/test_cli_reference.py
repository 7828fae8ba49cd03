"""docs/cli.md is the commands' own help: regenerate it when a command changes."""

from __future__ import annotations

from pathlib import Path

from solver.cli.reference import render

DOC = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def test_reference_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), \
        "docs/cli.md is stale: python -m solver.cli.reference > docs/cli.md"
