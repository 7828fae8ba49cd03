"""Which of the package's files a module's results can depend on: the static import closure.

A cache key hashes these files (`cache.code_hash`), so it must not forget one: every `import`
and `from ... import` is followed wherever it stands (module level, inside functions, under
TYPE_CHECKING), relative or absolute, and `from package import name` counts `package.name` when
that is a submodule. Following too much only costs a solve again; missing a module lets a cached
answer outlive a change. Files are found by their import specs, never imported: reading a
cached answer must not load what computing it needs (numba's kernels).
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from importlib.machinery import ModuleSpec, PathFinder
from importlib.util import find_spec
from pathlib import Path


@cache
def spec(name: str) -> ModuleSpec | None:
    """The module's import spec, found without importing it or its parent packages (as
    `importlib.util.find_spec` would a submodule's parents), or None if there is no such
    module."""
    parent, _, _ = name.rpartition(".")
    if not parent:
        return find_spec(name)  # a top-level name is looked up without importing it
    above = spec(parent)
    if above is None or above.submodule_search_locations is None:
        return None
    return PathFinder.find_spec(name, list(above.submodule_search_locations))


def path(name: str) -> Path:
    """The module's source file."""
    found = spec(name)
    if found is None or found.origin is None:
        raise ModuleNotFoundError(f"no source for module {name!r}")
    return Path(found.origin)


def read(file: Path) -> bytes:
    """A file's bytes: the one place the closure and the key read a file."""
    return file.read_bytes()


@cache
def source(name: str) -> bytes:
    """The module's source (read once: the parser and the key both want it)."""
    return read(path(name))


def _package(name: str) -> str:
    """The package a module's relative imports start from."""
    found = spec(name)
    is_package = found is not None and found.submodule_search_locations is not None
    return name if is_package else name.rpartition(".")[0]


def _absolute(module: str | None, level: int, package: str) -> str:
    """The absolute name of `from <level dots><module> import ...` inside `package`."""
    if level == 0:
        return module or ""
    base = package.rsplit(".", level - 1)[0] if level > 1 else package
    return f"{base}.{module}" if module else base


def _parse(name: str) -> list[str]:
    """Every name the module's source imports, absolute, in any place: for `from x import y`,
    both x and x.y (which is kept only where it is a module)."""
    package = _package(name)
    names: set[str] = set()
    for node in ast.walk(ast.parse(source(name), filename=str(path(name)))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return sorted(names)


def named(name: str, parsed: dict) -> list[str]:
    """`_parse(name)`, read from `parsed` (module name -> [hash of its file name and source,
    its imports]) where it holds this very source, else parsed and put there: parsing is most
    of the time a cached query would spend on its key."""
    digest = hashlib.sha256(f"{path(name).name}\0".encode() + source(name)).hexdigest()
    entry = parsed.get(name)
    if not (isinstance(entry, list) and len(entry) == 2 and entry[0] == digest
            and isinstance(entry[1], list) and all(isinstance(n, str) for n in entry[1])):
        entry = parsed[name] = [digest, _parse(name)]
    return entry[1]


def _with_parents(name: str) -> list[str]:
    """The module and every package above it: importing it runs each of their `__init__`."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def closure(root: str, parsed: dict) -> frozenset[str]:
    """The modules of root's package (`solver`) that importing `root` can run, and those any of
    them imports (the root and its parent packages included); `parsed` as for `named`. Other
    packages (numpy, the standard library) are not followed: their versions are not the
    project's code."""
    top = root.partition(".")[0]

    def ours(name: str) -> bool:
        return name.partition(".")[0] == top and spec(name) is not None

    if not ours(root):
        raise ModuleNotFoundError(f"no module named {root!r}")
    found: set[str] = set()
    todo = _with_parents(root)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        for imported in named(name, parsed):
            todo += [n for n in _with_parents(imported) if n not in found and ours(n)]
    return frozenset(found)


def data_files(names: frozenset[str]) -> list[Path]:
    """The data files beside the code (in a package's own folder, not its subfolders, such as
    Time of the Daleks' dice.json), which its modules may read as they run."""
    folders = {path(name).parent for name in names if path(name).name == "__init__.py"}
    return sorted(p for folder in folders for p in folder.iterdir()
                  if p.is_file() and p.suffix not in (".py", ".pyc"))


def contents(names: frozenset[str]) -> list[tuple[str, bytes]]:
    """What results computed by these modules depend on: each module's name and source, in
    order of name, then each data file beside them (named by its path in the project)."""
    top = path(min(names)).parent.parent  # the shortest name: the top package
    return ([(name, source(name)) for name in sorted(names)]
            + [(p.relative_to(top).as_posix(), read(p)) for p in data_files(names)])
