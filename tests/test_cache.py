"""The disk cache: a stored entry comes back, a damaged or foreign one is ignored and rebuilt;
its keys hash the code that computed a value (the static import closure of the module that keys
it), so an edit of any module a value depends on, a game's rules first, changes its keys."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from helpers import HEAVY, ROOT

from solver import cache, imports
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace
from solver.games.dalek.racesolve import cache_key, solve_race
from solver.games.dalek.turn import build_turn, compile_turn


@pytest.fixture(autouse=True)
def own_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path))
    return tmp_path


def test_round_trip_and_other_keys() -> None:
    key = {"game": "test", "n": 1}
    cache.store(key, {"a": np.arange(5)})
    assert np.array_equal(cache.load(key)["a"], np.arange(5))
    assert cache.load({"game": "test", "n": 2}) is None


def test_damaged_entry_is_ignored_and_rewritten(own_directory: Path) -> None:
    key = {"game": "test", "n": 1}
    cache.store(key, {"a": np.arange(5)})
    (data,) = own_directory.glob("*.npz")
    data.write_bytes(data.read_bytes()[:-10] + b"0123456789")
    assert cache.load(key) is None
    cache.store(key, {"a": np.arange(3)})
    assert np.array_equal(cache.load(key)["a"], np.arange(3))


def test_cached_turn_is_the_built_turn() -> None:
    rules = parse_rules(dice=5)
    built = build_turn(rules)
    compile_turn(rules)  # builds and stores
    loaded = compile_turn(rules)  # loads
    assert loaded.graph.fingerprint() == built.graph.fingerprint()
    assert loaded.chance == built.chance and loaded.decide == built.decide
    utility = np.arange(loaded.graph.n_results, dtype=np.float64)
    assert np.array_equal(loaded.graph.values(utility), built.graph.values(utility))


def test_second_race_solve_is_read_from_the_cache() -> None:
    race = DalekRace(compile_turn(parse_rules(dice=2)), 2, 6)
    first = solve_race(race)
    second = solve_race(race)
    assert not first.cached and second.cached
    assert np.array_equal(first.table, second.table)


# ---- keys: the code_hash of the module that keys a cache --------------------------------------

def key_roots() -> dict[str, set[str]]:
    """game -> the modules of its package that key a cache, read from every `code_hash(...)`
    call in solver/ (each must name its own module, `__name__`: no list kept by hand)."""
    roots: dict[str, set[str]] = {}
    for file in sorted((ROOT / "solver").rglob("*.py")):
        module = ".".join(file.relative_to(ROOT).with_suffix("").parts)
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "code_hash"):
                assert [ast.unparse(a) for a in node.args] == ["__name__"], (module, node.lineno)
                roots.setdefault(module.split(".")[2], set()).add(module)
    return roots


# each game's rule modules (docs/rules.md's readings point into them) and data read as rules;
# Time of the Daleks' pools.py is one too, but its one cached value (the tool rules) never
# builds a pool (the report does, uncached)
RULES = {"dalek": ["rules.py"], "strike": ["rules.py", "throws.py"], "pig": ["rules.py"],
         "totd": ["rules.py", "files.py", "keeps.py", "changes.py", "dice.json"]}


@pytest.fixture
def edit(monkeypatch: pytest.MonkeyPatch) -> Iterator:
    """edit(file): from then on the key reads `file` with a line added (nothing on disk is
    touched); keys are worked out afresh before, after each edit and after the test."""
    edited: set[Path] = set()
    original = imports.read

    def read(file: Path) -> bytes:
        return original(file) + (b"\n# edited\n" if file in edited else b"")

    def forget() -> None:
        cache.code_hash.cache_clear()
        imports.source.cache_clear()

    def edit_file(file: Path) -> None:
        edited.clear()
        edited.add(file)
        forget()

    monkeypatch.setattr(imports, "read", read)
    forget()
    yield edit_file
    forget()


def test_every_game_keys_its_caches() -> None:
    assert set(key_roots()) == set(RULES)


@pytest.mark.parametrize("game", sorted(RULES))
def test_editing_a_rule_module_changes_every_key_of_its_game(game: str, edit) -> None:
    roots = sorted(key_roots()[game])
    before = [cache.code_hash(root) for root in roots]
    for name in RULES[game]:
        edit(ROOT / "solver" / "games" / game / name)
        after = [cache.code_hash(root) for root in roots]
        assert all(a != b for a, b in zip(after, before)), (name, roots)


def test_editing_any_imported_module_changes_the_race_key(edit) -> None:
    from solver.games.dalek.files import parse_rules

    race = DalekRace(compile_turn(parse_rules(dice=2)), 2, 6)
    closure = imports.closure("solver.games.dalek.racesolve", {})
    assert {"solver.games.dalek.rules", "solver.games.dalek.turn", "solver.engine.cyclic",
            "solver.engine.local", "solver.engine.turn", "solver.engine.kernels",
            "solver.engine.mixed", "solver.engine.iteration", "solver.engine.levels.passes",
            "solver.engine.tiles", "solver.games.dalek.levels"} <= closure
    before = cache_key(race)
    for name in sorted(closure):
        edit(imports.path(name))
        assert cache_key(race)["code"] != before["code"], name
    edit(imports.path("solver.games.pig.rules"))  # a module the race does not import
    assert cache_key(race) == before


def test_editing_the_rules_changes_real_keys(edit) -> None:
    from solver.games.dalek.files import parse_rules
    from solver.games.dalek.turn import turn_key
    from solver.games.strike.levels import cache_key as strike_key
    from solver.games.strike.model import Strike

    keys = [lambda: turn_key(parse_rules(dice=2)), lambda: strike_key(Strike(dice=2))]
    before = [key() for key in keys]
    edit(ROOT / "solver" / "games" / "dalek" / "rules.py")
    assert [key() == b for key, b in zip(keys, before)] == [False, True]
    edit(ROOT / "solver" / "games" / "strike" / "throws.py")
    assert [key() == b for key, b in zip(keys, before)] == [True, False]


def write_package(folder: Path, name: str, files: dict[str, str]) -> None:
    for path, text in files.items():
        (folder / name / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / name / path).write_text(text, encoding="utf-8")


def test_the_closure_follows_every_kind_of_import(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"toy_{tmp_path.name.replace('-', '_')}"  # a fresh name: specs are memoised
    write_package(tmp_path, name, {
        "__init__.py": "",
        "root.py": "from typing import TYPE_CHECKING\n"
                   "from . import sibling\n"
                   "if TYPE_CHECKING:\n    from .typing_only import Hint\n"
                   "def later():\n    import toy_pkg_missing\n"
                   f"    from {name}.sub import leaf\n",
                   "sibling.py": "from .sub.deep import x\n",
        "typing_only.py": "", "unused.py": "",
        "sub/__init__.py": "", "sub/leaf.py": "from ..unused2 import y\n",
        "sub/deep.py": "", "unused2.py": "y = 1\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    found = imports.closure(f"{name}.root", {})
    assert found == {name, *(f"{name}.{m}" for m in (
        "root", "sibling", "typing_only", "sub", "sub.leaf", "sub.deep", "unused2"))}
    assert name not in sys.modules  # found, never imported


def test_a_key_imports_nothing_it_hashes() -> None:
    script = ("import sys\nfrom solver import cache\n"
              "cache.code_hash('solver.games.dalek.race', 'solver.games.pig.commands')\n"
              "print(sorted(m for m in sys.modules if m in HEAVY or m.startswith('solver.')))\n")
    done = subprocess.run([sys.executable, "-c", f"HEAVY = {sorted(HEAVY)!r}\n{script}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["['solver.cache',", "'solver.imports',", "'solver.tables']"]


def test_a_second_key_parses_nothing(edit, monkeypatch: pytest.MonkeyPatch) -> None:
    cache._parsed.cache_clear()  # each step as a fresh process would: from this cache folder
    first = cache.code_hash("solver.games.totd.rulefamilies")
    cache.code_hash.cache_clear()
    cache._parsed.cache_clear()

    def fail(name: str) -> list[str]:
        raise AssertionError(f"{name} parsed again")

    monkeypatch.setattr(imports, "_parse", fail)
    assert cache.code_hash("solver.games.totd.rulefamilies") == first
