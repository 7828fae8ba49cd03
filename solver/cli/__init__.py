"""The `dice-solver` command: one group per game; bad input is one line on stderr, exit 2."""

from __future__ import annotations

import importlib
import sys

import click

from solver import __version__
from solver.errors import InputError
from solver.games import registry

VERBS = {  # commands over every game -> the module holding the click group of that name
    "play": "solver.cli.play",
    "serve": "solver.cli.serve",
    "simulate": "solver.cli.simulate",
    "verify": "solver.cli.verify",
}


class Games(click.Group):
    """Loads a game's commands only when that game is asked for, so a query pays only for the
    libraries its own game needs (a cold start is part of every query's time)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(registry()) | set(VERBS) | set(super().list_commands(ctx)))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in registry():
            return registry()[name].commands()
        if name in VERBS:
            return getattr(importlib.import_module(VERBS[name]), name)
        return super().get_command(ctx, name)


@click.group(cls=Games,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="dice-solver")
def cli() -> None:
    """Exact probabilities and provably optimal play for dice games."""



def main(argv: list[str] | None = None) -> None:
    """Run the command line; turn every user error into one clear line and exit status 2."""
    try:
        code = cli.main(args=argv, prog_name="dice-solver", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else str(error))
        sys.exit(0)
    except click.ClickException as error:
        fail(error.format_message())
    except InputError as error:
        fail(str(error))
    except click.exceptions.Abort:
        fail("aborted")
    except KeyboardInterrupt:
        fail("interrupted")
    sys.exit(code if isinstance(code, int) else 0)


def fail(message: str) -> None:
    """The one line a user sees for bad input, then exit status 2."""
    click.echo(f"dice-solver: error: {message}", err=True)
    sys.exit(2)
