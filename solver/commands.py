"""What every game's click commands share: output for people and for machines, parameter types,
and the options all games spell alike."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from solver.formatting import exact_text, table

if TYPE_CHECKING:
    from solver.engine.solving import Solving

__all__ = ["ENGINES", "FractionType", "InputPath", "OutputPath", "card_option",
           "command_line", "emit", "engine_options", "exact_text", "json_option",
           "no_cache_option", "solving", "table"]

json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
no_cache_option = click.option("--no-cache", is_flag=True,
                               help="Solve again instead of reading the cache.")


def emit(data: dict, text: str, as_json: bool) -> None:
    """Print JSON (machines) or the readable text (people)."""
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(text.rstrip("\n"))


def command_line() -> str:
    """The command that reproduces this run (for manifests): the command's path and every
    parameter the user set, in the command's own order."""
    context = click.get_current_context()
    parts = [context.command_path]
    for param in context.command.params:
        source = context.get_parameter_source(param.name)
        if source is None or source.name == "DEFAULT":
            continue
        value = context.params[param.name] if param.name in context.params else \
            context.meta["unexposed"][param.name]  # read where used (engine_options)
        values = value if getattr(param, "multiple", False) else [value]
        for item in values:
            if getattr(param, "is_flag", False):
                parts.append(param.opts[0] if item else param.secondary_opts[0])
            else:
                parts += [param.opts[0], shlex.quote(str(item))]
    return " ".join(parts)


class OutputPath(click.ParamType):
    """A file (or folder) a command will write, validated when the command line is read, before
    any solve: its folder exists and takes a new file (`solver.tables.writable`)."""

    name = "path"

    def __init__(self, directory: bool = False) -> None:
        self.directory = directory

    def convert(self, value, param, ctx):
        from solver.tables import writable

        try:
            return str(writable(str(value), self.directory))
        except ValueError as error:
            self.fail(str(error), param, ctx)


class CheckpointLocation(click.ParamType):
    """A checkpoint's folder, or its URL on shared storage (`solver.checkpoint.location`: the
    cloud extra and the storage's package present, the protocol known), validated when the
    command line is read, before any solve."""

    name = "folder|url"

    def convert(self, value, param, ctx):
        from solver.checkpoint import location

        try:
            return location(str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


class InputPath(click.ParamType):
    """A file a command will read ("-": standard input), validated when the command line is read,
    before any solve: it exists, is a file and can be opened."""

    name = "file"

    def convert(self, value, param, ctx):
        text = str(value)
        if text == "-":
            return text
        try:
            with open(text, "rb"):
                pass
        except IsADirectoryError:
            self.fail(f"{text} is a folder, not a file", param, ctx)
        except OSError as error:
            self.fail(f"cannot read {text}: {error.strerror or error}", param, ctx)
        return text


class FractionType(click.ParamType):
    """A probability written exactly ("1/3") or as a decimal ("0.5"), kept as a Fraction."""

    name = "fraction"

    def convert(self, value, param, ctx):
        if isinstance(value, Fraction):
            return value
        try:
            result = Fraction(str(value).strip())
        except (ValueError, ZeroDivisionError):
            self.fail(f"{value!r} is not a number such as 1/3 or 0.5", param, ctx)
        if not 0 <= result <= 1:
            self.fail(f"{value} is not a probability between 0 and 1", param, ctx)
        return result


def _card_file(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from solver.cards import writable

    return str(writable(Path(value)))


card_option = click.option("--out", required=True, type=OutputPath(), callback=_card_file,
                           help="The card to write: a .pdf or a .png file (one A6 page); "
                                "checked before any search.")

ENGINES = ("auto", "cyclic", "levels")


def engine_options(game: str, auto: str) -> list:
    """--engine and --checkpoint for a game both engines solve (`auto` says what auto picks).
    They are read where the game is solved (`solving`), not by every command that solves one."""
    remember = remembered(game)
    return [
        click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
                     expose_value=False, callback=remember,
                     help=f"How to solve: cyclic (networkx graph; exact rationals), levels "
                          f"(dense, level by level, float64; resumes from --checkpoint), auto "
                          f"({auto})."),
        click.option("--checkpoint", type=CheckpointLocation(), default=None,
                     expose_value=False, callback=remember,
                     help="Folder for the level engine's finished levels (made if missing), or "
                          "a URL on shared storage (s3://, gs://, file://...: needs pip install "
                          "'dice-solver[cloud]' and the storage's package): the same command run "
                          "again resumes after the last one (estimated, and held to the time "
                          "budget, on the levels left). It is the solve's stored answer "
                          "(nothing goes in the cache): once finished, the same command with "
                          "it answers by reading it back, solving nothing."),
        *ray_options(remember),
    ]


def remembered(game: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback that keeps an option not passed to the command (expose_value=False) where
    the game's solve reads it, `ctx.meta["<game>.<name>"]`, and for `command_line`."""

    def remember(ctx: click.Context, param: click.Parameter, value):
        ctx.meta[f"{game}.{param.name}"] = value
        ctx.meta.setdefault("unexposed", {})[param.name] = value  # for command_line
        return value

    return remember


def ray_options(remember) -> list:
    """--ray and --workers: the level engine's chunks solved on Ray, the same bits as here
    (needs the cluster extra; checked when the command line is read)."""

    def ray(ctx: click.Context, param: click.Parameter, value):
        if value is not None:
            from solver.engine.levels.cluster import require

            require()
        return remember(ctx, param, value)

    return [
        click.option("--ray", metavar="auto|ADDRESS", default=None, expose_value=False,
                     callback=ray,
                     help="Solve on Ray (implies --engine levels; needs "
                          "pip install 'dice-solver[cluster]'): auto starts a local instance "
                          "of --workers CPUs (inside a Ray job, where RAY_ADDRESS is set, it "
                          "joins that cluster), an ADDRESS (host:port) joins a running "
                          "cluster."),
        click.option("--workers", type=click.IntRange(1), default=None, expose_value=False,
                     callback=remember,
                     help="CPUs of the local Ray instance --ray auto starts (default: all)."),
    ]


def solving(game: str, exact: bool, levels_by_default: bool) -> Solving:
    """The engine, checkpoint folder and runner the command line asks for, `auto` resolved (the
    level engine where `levels_by_default` and not --exact, or with --ray, whose runner solves
    the level engine's chunks on Ray); a request no engine can serve is refused in one line."""
    from solver.engine.solving import Solving
    from solver.errors import InputError

    settings = click.get_current_context().meta
    engine = settings.get(f"{game}.engine", "auto")
    checkpoint = settings.get(f"{game}.checkpoint")
    address, workers = settings.get(f"{game}.ray"), settings.get(f"{game}.workers")
    if workers is not None and address is None:
        raise InputError("--workers is for --ray: add --ray auto")
    runner = None
    if address is not None:
        if engine == "cyclic" or exact:
            raise InputError("--ray solves on the level engine, in float64: drop "
                             + ("--exact" if exact else "--engine cyclic"))
        from solver.engine.levels.cluster import RayRunner

        if f"{game}.runner" not in settings:  # one per command: its solves share its Ray
            settings[f"{game}.runner"] = RayRunner(address, workers)
        runner = settings[f"{game}.runner"]
        engine = "levels"
    if engine == "auto":
        engine = "levels" if levels_by_default and not exact else "cyclic"
    if engine == "levels" and exact:
        raise InputError("--engine levels solves in float64 only: drop --exact, or use "
                         "--engine cyclic for exact rationals")
    if checkpoint is not None and engine != "levels":
        raise InputError("--checkpoint is for the level engine: add --engine levels")
    return Solving(engine, checkpoint, runner)
