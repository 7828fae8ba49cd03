"""docs/developing.md's layout names every module and package of solver/ (and of the engine), so
a module added without a line there fails here instead of drifting out of the guide."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "developing.md").read_text(encoding="utf-8")


def test_the_layout_names_every_module() -> None:
    solver = ROOT / "solver"
    wanted = [f"solver/{p.name}" for p in sorted(solver.glob("*.py")) if p.name != "__init__.py"]
    wanted += [f"solver/{p.name}/" for p in sorted(solver.iterdir())
               if p.is_dir() and (p / "__init__.py").exists()]
    engine = solver / "engine"
    wanted += [p.name for folder in (engine, engine / "levels") for p in sorted(folder.glob("*.py"))
               if p.name != "__init__.py"]
    missing = [name for name in wanted if name not in GUIDE]
    assert not missing, f"docs/developing.md's layout does not name: {', '.join(missing)}"
