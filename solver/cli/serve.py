"""`dice-solver serve`: the page for a phone at the table, and its JSON API."""

from __future__ import annotations

import ipaddress
import json
import shlex
import socket

import click

from solver.errors import InputError
from solver.games import registry

LOOPBACK = "127.0.0.1"
EVERYWHERE = ("0.0.0.0", "::", "")


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--host", default=LOOPBACK, show_default=True,
              help="The address to listen on. Another address than this machine's own shares "
                   "the page with the local network (a warning is printed); 0.0.0.0 listens on "
                   "every address and prints this machine's addresses on the network, with a "
                   "QR code a phone's camera opens.")
@click.option("--budget", type=click.FloatRange(0.1, 600), default=10.0, show_default=True,
              help="Seconds one request's solve may be estimated to take; longer ones are "
                   "refused (the page offers what is cached or small).")
@click.option("--certfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A TLS certificate (PEM) to serve the page over https: a phone keeps the "
                   "page for use with no network only from https (or this machine's own "
                   "address). With --keyfile.")
@click.option("--keyfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The certificate's private key (PEM).")
def serve(port: int, host: str, budget: float, certfile: str | None,
          keyfile: str | None) -> None:
    """Serve the page (Dalek Dice, Time of the Daleks, Strike) and its JSON API.

    Needs the web extra: pip install 'dice-solver[web]'. The API takes the page's options and
    answers with the command's JSON, e.g.

    \b
    /api/dalek/best-move?roll=H4+H4+H2+D3+D2+DOC+EXT&kept=H4+H2+D3"""
    try:
        import uvicorn

        from solver.web.app import application
    except ImportError:
        raise InputError("the page needs the web extra: pip install 'dice-solver[web]'") \
            from None
    if (certfile is None) != (keyfile is None):
        raise InputError("https needs both --certfile and --keyfile")
    listening = _listen(host, port)
    port = listening.getsockname()[1]
    app = application(budget)
    _preload(budget)
    urls = _urls("https" if certfile else "http", host, port)
    if not _loopback(host):
        click.echo(f"warning: listening on {host or 'every address'}: anyone on that network "
                   f"can use this page", err=True)
    for url in urls:
        click.echo(f"dice-solver page on {url}", err=True)
    if not _loopback(host) and urls:
        click.echo(f"open {urls[0]} on a phone on the same network (its camera reads this):",
                   err=True)
        click.echo(qr_text(urls[0]), err=True)
    click.echo("Ctrl+C stops it", err=True)
    config = uvicorn.Config(app, log_level="warning", ssl_certfile=certfile, ssl_keyfile=keyfile)
    uvicorn.Server(config).run(sockets=[listening])


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything is printed, so a port in use is one clear
    line (uvicorn then serves on this socket)."""
    try:
        family = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as error:
        raise InputError(f"--host {host}: no such address here ({error.strerror})") from None
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        reason = "another program is using that port: stop it, or choose another with --port" \
            if error.errno in (98, 48, 10048) else (error.strerror or str(error))
        raise InputError(f"cannot listen on {host}:{port}: {reason}") from None
    listening.listen(128)
    listening.set_inheritable(True)
    return listening


def _urls(scheme: str, host: str, port: int) -> list[str]:
    """The addresses to open: for 0.0.0.0 (or ::), this machine's addresses on its networks."""
    if host not in EVERYWHERE:
        shown = f"[{host}]" if ":" in host else host
        return [f"{scheme}://{shown}:{port}/"]
    return [f"{scheme}://{address}:{port}/" for address in network_addresses()] or \
        [f"{scheme}://{LOOPBACK}:{port}/"]


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses other than its own loopback, by interface name."""
    import psutil

    found = []
    for _, addresses in sorted(psutil.net_if_addrs().items()):
        for address in addresses:
            if address.family == socket.AF_INET and \
                    not ipaddress.ip_address(address.address).is_loopback:
                found.append(address.address)
    return found


def qr_text(url: str) -> str:
    """The URL as a QR code drawn in block characters, two modules a character, light modules
    drawn (for a terminal's light text on a dark background) with a quiet zone of two."""
    import segno

    matrix = [list(row) for row in segno.make(url, error="m", boost_error=False).matrix]
    border = 2
    size = len(matrix) + 2 * border
    light = [[not (border <= r < size - border and border <= c < size - border
                   and matrix[r - border][c - border]) for c in range(size)]
             for r in range(size)]
    light.append([True] * size)  # an even number of rows
    blocks = {(True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584",
              (False, False): " "}
    return "\n".join("".join(blocks[light[r][c], light[r + 1][c]] for c in range(size))
                     for r in range(0, size, 2))


def _preload(budget: float) -> None:
    """Answer what the page asks first, once (each game's `preload`, else its example), and
    say so: modules imported, turn graphs read from the cache and kept in memory for the
    requests to come (`cache.remember`). Each is held to the server's budget like a request, so
    a race that is not cached is refused here (and on the page), not solved."""
    from solver import cache
    from solver.web.api import Api

    cache.remember()
    api = Api(budget)
    for name, game in sorted(registry().items()):
        for command, *args in game.preload or (game.examples.solve,):
            query = [(args[i][2:], args[i + 1]) for i in range(0, len(args) - 1, 2)]
            answer = api.run(name, command, query)
            request = f"{name} {command} {shlex.join(args)}"
            click.echo(f"preloaded {request} ({answer.seconds:.1f} s)" if answer.status == 200
                       else f"not preloaded {request}: {json.loads(answer.body)['error']}",
                       err=True)
