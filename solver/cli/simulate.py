"""`dice-solver simulate GAME ...`: seeded Monte Carlo play by the rules, written as sample files
(one CSV line per turn or game, docs/verify.md) that `dice-solver verify` checks. Each game's
command is its own (`solver.games.<game>.verification.simulate`), loaded only when asked for."""

from __future__ import annotations

import click

from solver.games import registry


class GameCommands(click.Group):
    """A group with one subcommand per registered game, taken from the game by `hook` and
    imported only when that game is asked for."""

    def __init__(self, *args, hook: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.hook = hook

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in registry() if self.get_command(ctx, name) is not None)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        game = registry().get(name)
        return None if game is None else getattr(game, self.hook)()


@click.group(cls=GameCommands, hook="simulate")
def simulate() -> None:
    """Seeded Monte Carlo play by the rules: sample files for `verify`."""
