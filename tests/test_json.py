"""`--json` is an interface: every schema shipped in the package is a valid JSON Schema whose
examples it accepts, the real output of its commands validates against it, and docs/json.md is
the current rendering of the schemas."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import ROOT
from jsonschema import Draft202012Validator

from solver import schemas
from solver.cli import cli
from solver.cli.jsonref import documented, render

PATHS = documented()


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, strike_frontier) -> dict[tuple[str, ...], list[dict]]:
    """Every schema's commands run once, in documentation order (so a sample file that a
    `simulate` command writes is there for the `verify` commands that read it); `strike rules`
    and `strike card` read the card game's frontier from the session's cache (strike_frontier),
    not from a search of minutes."""
    scratch = tmp_path_factory.mktemp("json")
    results: dict[tuple[str, ...], list[dict]] = {}
    for path in PATHS:
        for command in schemas.load(path)["x-commands"]:
            args = [word.replace("{tmp}", str(scratch)) for word in command]
            result = CliRunner().invoke(cli, [*args, "--json"])
            assert result.exit_code in (0, 1), f"{args}: {result.output}"
            results.setdefault(path, []).append(json.loads(result.stdout))
    return results


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_schema_is_valid_and_accepts_its_examples(path: tuple[str, ...]) -> None:
    schema = schemas.load(path)
    Draft202012Validator.check_schema(schema)
    assert schema["examples"] and schema["x-commands"]
    for example in schema["examples"]:
        Draft202012Validator(schema).validate(example)


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_real_output_matches_the_schema(path: tuple[str, ...], outputs: dict) -> None:
    validator = Draft202012Validator(schemas.load(path))
    for output in outputs[path]:
        validator.validate(output)


def test_docs_are_current() -> None:
    doc = ROOT / "docs" / "json.md"
    assert Path(doc).read_text(encoding="utf-8") == render(), \
        "docs/json.md is stale: python -m solver.cli.jsonref > docs/json.md"
