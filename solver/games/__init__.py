"""The games dice-solver knows. Each is one package that declares itself in its `__init__` (a
`Game`: its name, its commands, its sample columns); adding a game is one package and one line in
`PACKAGES`. Declarations import nothing heavy, so listing the games costs no solver import: a
game's modules load only when one of its commands runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import Any

PACKAGES = ("dalek", "pig", "strike", "totd")


@dataclass(frozen=True)
class Examples:
    """Small requests every game answers in seconds: the contract test (tests/test_contract.py)
    runs them for each registered game, and docs/developing.md shows them."""

    solve: tuple[str, ...]  # `dice-solver NAME *solve --json`: a solve from the start
    play: tuple[str, ...]  # options `simulate NAME` and `verify NAME` both take
    bad: tuple[str, ...]  # `dice-solver NAME *bad`: refused with one line and exit status 2


@dataclass(frozen=True)
class Game:
    """A game as the command line sees it. Its package holds `commands` (a click group named
    `name`), `verification` (the click commands `simulate` and `verify`) and, where the game has a
    companion for the table, `play` (the click command `play`)."""

    name: str  # the command word: `dice-solver NAME ...`, `simulate NAME`, `verify NAME`
    title: str  # as its rulebook names it
    package: str
    examples: Examples
    samples: dict[str, tuple[str, ...]] = field(default_factory=dict)  # unit -> CSV columns
    # the commands the web page may run, each with the options a request may set (the long
    # names without dashes): an allow-list of the game's inputs, never a file, an engine, a
    # cluster, a time budget or the cache, so no request can steer the server
    page: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # requests (command, options) `serve` answers at start-up, as the page will ask them first
    # (default: the example solve); each is held to the server's budget, so none starts a solve
    preload: tuple[tuple[str, ...], ...] = ()

    def module(self, name: str) -> ModuleType:
        return import_module(f"{self.package}.{name}")

    def commands(self) -> Any:
        """The game's click group."""
        return getattr(self.module("commands"), self.name)

    def simulate(self) -> Any:
        """`dice-solver simulate NAME`: seeded play by the rules into a sample file."""
        return self.module("verification").simulate

    def verify(self) -> Any:
        """`dice-solver verify NAME`: a simulator's samples or moves against the exact answer."""
        return self.module("verification").verify

    def play(self) -> Any:
        """`dice-solver play NAME`: the companion that follows a whole game at the table (the
        click command `play` of the package's `play` module), or None if the game has none."""
        try:
            return self.module("play").play
        except ModuleNotFoundError as error:
            if error.name != f"{self.package}.play":
                raise
            return None


@cache
def registry() -> dict[str, Game]:
    """Every game, by its command word."""
    games = [import_module(f"{__name__}.{package}").GAME for package in PACKAGES]
    return {game.name: game for game in games}
