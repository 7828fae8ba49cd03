"""JSON Schemas of every command's `--json` output: an interface, documented in docs/json.md
(`python -m solver.cli.jsonref`) and tested against the commands' real output.

A game's schemas sit in its package (`solver/games/<game>/schemas/<command>.json`); those of the
commands over every game (`simulate`, `verify`) sit here. Each schema carries `x-commands`, small
invocations whose output it describes (the tests run them; `{tmp}` is a scratch folder), and
`examples`, one such output."""

from __future__ import annotations

import json
from importlib.resources import files
from importlib.resources.abc import Traversable

from solver.games import registry


def location(path: tuple[str, ...]) -> Traversable:
    """The schema file of a command, given its path (`("dalek", "best-move")`)."""
    game = registry().get(path[0])
    if game is not None:
        return files(game.package) / "schemas" / f"{'-'.join(path[1:])}.json"
    return files(__name__) / f"{path[0]}.json"


def load(path: tuple[str, ...]) -> dict:
    """The schema of a command's JSON output."""
    return json.loads(location(path).read_text(encoding="utf-8"))
