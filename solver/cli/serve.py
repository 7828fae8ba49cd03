"""`dice-solver serve`: the page for a phone at the table, and its JSON API."""

from __future__ import annotations

import ipaddress
import json
import os
import shlex

import click

from solver.errors import InputError
from solver.games import registry

LOOPBACK = "127.0.0.1"


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--host", default=LOOPBACK, show_default=True,
              help="The address to listen on. Another address than this machine's own shares "
                   "the page with the local network (a warning is printed).")
@click.option("--budget", type=click.FloatRange(0.1, 600), default=10.0, show_default=True,
              help="Seconds one request's solve may be estimated to take; longer ones are "
                   "refused (the page offers what is cached or small).")
def serve(port: int, host: str, budget: float) -> None:
    """Serve the page (Dalek Dice, Time of the Daleks, Strike) and its JSON API.

    Needs the web extra: pip install 'dice-solver[web]'. The API takes the command line's
    options (`/api/dalek/best-move?roll=H4+D3+DOC`) and answers with the command's JSON."""
    try:
        import uvicorn

        from solver.web.app import application
    except ImportError:
        raise InputError("the page needs the web extra: pip install 'dice-solver[web]'") \
            from None
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    os.environ["DICE_SOLVER_BUDGET"] = str(budget)
    app = application()
    _preload()
    if not loopback:
        click.echo(f"warning: listening on {host}: anyone on that network can use this page",
                   err=True)
    click.echo(f"dice-solver page on http://{host}:{port}/ (Ctrl+C stops it)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _preload() -> None:
    """Answer what the page asks first, once (each game's `preload`, else its example), and
    say so: modules imported, turn graphs read from the cache and kept in memory for the
    requests to come (`cache.remember`). Each is held to the server's budget like a request, so
    a race that is not cached is refused here (and on the page), not solved."""
    from solver import cache
    from solver.web.api import Api

    cache.remember()
    api = Api()
    for name, game in sorted(registry().items()):
        for command, *args in game.preload or (game.examples.solve,):
            query = [(args[i][2:], args[i + 1]) for i in range(0, len(args) - 1, 2)]
            answer = api.run(name, command, query)
            request = f"{name} {command} {shlex.join(args)}"
            click.echo(f"preloaded {request} ({answer.seconds:.1f} s)" if answer.status == 200
                       else f"not preloaded {request}: {json.loads(answer.body)['error']}",
                       err=True)
