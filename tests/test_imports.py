"""The project's own import graph has no cycle (issue 24): every `import` and `from ... import`
of a `solver` module in solver/**/*.py, at module level, under TYPE_CHECKING or inside a
function, read with `ast` (nothing is imported). A cycle fails the test with its modules in
order. `python tests/test_imports.py` prints the graph, one module and what it imports a line."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules `path` imports: `from a.b import c` counts a.b.c where that is a
    module (a submodule imported by name), else a.b; a package's import counts its
    __init__ (the parent packages Python also runs are left out: they import what they
    re-export, which is no cycle of the code)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}".rstrip(".")
            subs = {f"{base}.{alias.name}" for alias in node.names}
            found |= (subs & modules) or {base}
    return {m for m in found if m in modules and m != name}


def graph() -> dict[str, set[str]]:
    paths = sorted((ROOT / "solver").rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports(p, modules) for p in paths}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (its modules, the first repeated at the end), or None: networkx's
    depth-first search, over the modules and their imports in sorted order (the same cycle on
    every run)."""
    directed = nx.DiGraph()
    directed.add_nodes_from(sorted(edges))
    directed.add_edges_from((a, b) for a in sorted(edges) for b in sorted(edges[a]))
    try:
        found = nx.find_cycle(directed)
    except nx.NetworkXNoCycle:
        return None
    return [a for a, _ in found] + [found[-1][1]]


def test_the_import_graph_has_no_cycle() -> None:
    found = cycle(graph())
    assert found is None, "import cycle: " + " -> ".join(found)


def test_a_cycle_is_found_and_shown() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle(edges) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_every_kind_of_import_is_read() -> None:
    """Module level, inside a function, relative, and a submodule imported by name."""
    edges = graph()
    assert "solver.games.dalek.levels" in edges["solver.games.dalek.racesolve"]  # in a function
    assert "solver.engine.levels.cluster" in edges["solver.commands"]  # a submodule by name
    assert "solver.engine.levels.chunks" in edges["solver.engine.levels.cluster"]


if __name__ == "__main__":
    for module, imported in sorted(graph().items()):
        print(module, "->", " ".join(sorted(imported)) or "-", file=sys.stdout)
