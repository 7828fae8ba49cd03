"""The `dice-solver` command: one group per game; bad input is one line on stderr, exit 2."""

from __future__ import annotations

import sys

import click

from solver import __version__
from solver.cli.common import fail
from solver.cli.dalek import dalek
from solver.cli.pig import pig
from solver.cli.totd import totd
from solver.errors import InputError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="dice-solver")
def cli() -> None:
    """Exact probabilities and provably optimal play for dice games."""


cli.add_command(dalek)
cli.add_command(pig)
cli.add_command(totd)


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
