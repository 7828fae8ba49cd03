"""The page's JSON API: `/api/GAME/COMMAND?option=value...` runs the command line's own command
with those options and `--json`, and answers with its JSON (one code path, the same validation:
bad input is a 400 carrying the one-line error). Safe by default: only the commands a game
offers the page, each with an allow-list of options (`Game.page`: the game's inputs, never a
file, an engine, a cluster, a time budget or the cache, so nothing one request sets reaches the
server or outlives the request); bounded request sizes; one solve at a time; every solve held
to the server's time budget (`solver.limits`), so no request can start a long solve."""

from __future__ import annotations

import io
import json
import threading
import time
from contextlib import redirect_stdout
from dataclasses import dataclass

import click

from solver.cli import cli
from solver.errors import InputError
from solver.games import registry
from solver.limits import OverBudget, duration, held_to

MAX_QUERY = 2000  # characters of a request's query string
MAX_VALUE = 300  # characters of one option's value
TRUE = {"", "1", "true", "yes", "on"}


@dataclass
class Answer:
    """What the API sends back: a status, the JSON text (or the one-line error) and the time the
    command took on the server."""

    status: int
    body: str
    seconds: float


class Api:
    """Runs commands for the page. The lock keeps solves one at a time: the commands write to
    standard output, and one solve at a time bounds the memory a page can make the server use."""

    def __init__(self, budget: float = 10.0) -> None:
        self.lock = threading.Lock()
        self.budget = budget  # seconds a request's solve may be estimated to take

    def commands(self, game: str) -> dict[str, click.Command]:
        """The game's commands the page may run (`Game.page`)."""
        entry = registry()[game]
        group = entry.commands()
        context = click.Context(group)
        return {name: group.get_command(context, name) for name in entry.page}

    def options(self, game: str, name: str) -> dict[str, click.Option]:
        """The options of the game's command `name` a request may set: its allow-list in
        `Game.page`, by the long name without dashes."""
        command = self.commands(game)[name]
        by_name = {flag.lstrip("-"): option for option in command.params
                   if isinstance(option, click.Option) for flag in option.opts}
        return {key: by_name[key] for key in registry()[game].page[name]}

    def run(self, game: str, name: str, query: list[tuple[str, str]]) -> Answer:
        clock = time.perf_counter()
        try:
            command, args = self.arguments(game, name, query)
        except InputError as error:
            return Answer(400, _error(str(error)), time.perf_counter() - clock)
        output = io.StringIO()
        with self.lock, redirect_stdout(output), held_to(self.budget):
            clock = time.perf_counter()
            try:
                # The command line's context settings: click keeps a command's help option
                # as first built, so a request run without them would change `-h` for good.
                command.main(args=[*args, "--json"], prog_name=f"dice-solver {game} {name}",
                             standalone_mode=False, **cli.context_settings)
            except click.ClickException as error:
                return Answer(400, _error(error.format_message()), time.perf_counter() - clock)
            except OverBudget as error:
                return Answer(400, _error(f"{error.what} would take about "
                                          f"{duration(error.seconds)}, more than this server "
                                          f"gives one answer ({duration(error.limit)}); the "
                                          f"command line can run it"),
                              time.perf_counter() - clock)
            except InputError as error:
                return Answer(400, _error(str(error)), time.perf_counter() - clock)
        return Answer(200, output.getvalue(), time.perf_counter() - clock)

    def arguments(self, game: str, name: str, query: list[tuple[str, str]]
                  ) -> tuple[click.Command, list[str]]:
        """The command and its command line for a query, refused (InputError) unless every part
        is allowed."""
        if game not in registry():
            raise InputError(f"no game {game!r} (games: {', '.join(sorted(registry()))})")
        allowed = self.commands(game)
        if name not in allowed:
            raise InputError(f"{game} has no command {name!r} here (commands: "
                             f"{', '.join(sorted(allowed))})")
        options = self.options(game, name)
        if sum(len(k) + len(v) + 2 for k, v in query) > MAX_QUERY:
            raise InputError(f"the request is longer than {MAX_QUERY} characters")
        args: list[str] = []
        for key, value in query:
            option = options.get(key)
            if option is None:
                raise InputError(f"the page's {name} takes no {key!r} (it takes: "
                                 f"{', '.join(options)})")
            if len(value) > MAX_VALUE:
                raise InputError(f"the value of {key} is longer than {MAX_VALUE} characters")
            if option.is_flag:
                args += [option.opts[0]] if value.lower() in TRUE else []
            else:
                args += [option.opts[0], value]
        return allowed[name], args


def _error(message: str) -> str:
    return json.dumps({"error": message})
