"""`dice-solver play GAME`: a companion that follows a whole game at the table, roll by roll:
it reads plain lines from standard input (any terminal, ssh, or a script), says the best move at
once, and keeps the position. Each game's companion is its own (`solver.games.<game>.play`)."""

from __future__ import annotations

import click

from solver.cli.simulate import GameCommands


@click.group(cls=GameCommands, hook="play")
def play() -> None:
    """Follow a whole game at the table: type each roll, get the best move at once."""
