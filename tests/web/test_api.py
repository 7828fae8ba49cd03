"""The page's JSON API answers exactly what the command line answers (one code path), refuses
what the command line refuses with the same one-line error, and refuses what a page must never
do: name a file, run a command that writes one, send an oversized request, or set any option
outside the page's allow-list (an engine, a cluster, a time budget, the cache)."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner
from helpers import run_cli

from solver.cli import cli
from solver.games import registry

pytest.importorskip("starlette.testclient",
                    reason="the web extra and an HTTP client (pip install '.[test]') are missing")
from starlette.testclient import TestClient

from solver.web.app import application

VOLATILE = {"timings", "seconds"}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(application())


def stable(data: object) -> object:
    if isinstance(data, dict):
        return {k: stable(v) for k, v in data.items() if k not in VOLATILE}
    if isinstance(data, list):
        return [stable(v) for v in data]
    return data


def query(args: tuple[str, ...]) -> dict[str, str]:
    return {args[i][2:]: args[i + 1] for i in range(0, len(args) - 1, 2)}


@pytest.mark.parametrize("name", sorted(registry()))
def test_the_api_answers_what_the_command_line_answers(client: TestClient, name: str) -> None:
    command, *args = registry()[name].examples.solve
    assert command in registry()[name].page
    answer = client.get(f"/api/{name}/{command}", params=query(tuple(args)))
    assert answer.status_code == 200, answer.text
    assert "solve;dur=" in answer.headers["server-timing"]
    cli_answer = CliRunner().invoke(cli, [name, command, *args, "--json"])
    assert stable(answer.json()) == stable(json.loads(cli_answer.stdout))


@pytest.mark.parametrize("name", sorted(registry()))
def test_bad_input_is_a_400_with_the_command_lines_error(client: TestClient, name: str) -> None:
    command, *args = registry()[name].examples.bad
    answer = client.get(f"/api/{name}/{command}", params=query(tuple(args)))
    assert answer.status_code == 400
    assert run_cli(name, command, *args).stderr == f"dice-solver: error: {answer.json()['error']}\n"


def test_dalek_dice_as_the_page_sends_them() -> None:
    """The page sends the dice tapped (roll and kept, space-separated faces) and shows the
    verdict: the API's answer is the command line's for --roll and --kept."""
    client = TestClient(application())
    params = {"roll": "H4 H4 H2 D3 D2 DOC EXT", "kept": "H4 H2 D3"}
    answer = client.get("/api/dalek/best-move", params=params)
    assert answer.status_code == 200, answer.text
    cli_answer = CliRunner().invoke(cli, ["dalek", "best-move", "--roll", params["roll"],
                                          "--kept", params["kept"], "--json"])
    assert stable(answer.json()) == stable(json.loads(cli_answer.stdout))
    assert answer.json()["verdict"].startswith("Keep ")
    bad = client.get("/api/dalek/best-move", params={"roll": "H4", "kept": "Humn 4"})
    assert bad.status_code == 400 and "did you mean Human 4?" in bad.json()["error"]
    assert "\n" not in bad.json()["error"]


def test_strike_as_the_page_sends_it() -> None:
    """The page sends the arena as typed and the stocks: the API's answer, verdict included,
    is the command line's."""
    client = TestClient(application())
    params = {"arena": "245", "stocks": "3,6", "mid-turn": "1"}
    answer = client.get("/api/strike/best-move", params=params)
    assert answer.status_code == 200, answer.text
    cli_answer = CliRunner().invoke(cli, ["strike", "best-move", "--arena", "2 4 5", "--stocks",
                                          "3,6", "--mid-turn", "--json"])
    assert stable(answer.json()) == stable(json.loads(cli_answer.stdout))
    assert answer.json()["verdict"].startswith("Throw again (win chance ")
    bad = client.get("/api/strike/best-move", params={"arena": "2x3", "stocks": "3,6"})
    assert bad.status_code == 400 and "the arena never holds two" in bad.json()["error"]


def test_files_and_unknown_things_are_refused(client: TestClient) -> None:
    for path, params in [("/api/dalek/table", {}), ("/api/nope/turn", {}),
                         ("/api/dalek/turn", {"die-file": "/etc/passwd"}),
                         ("/api/dalek/turn", {"no-such-option": "1"}),
                         ("/api/dalek/turn", {"faces": "H4 " * 200})]:
        answer = client.get(path, params=params)
        assert answer.status_code == 400, (path, params, answer.text)
        assert "\n" not in answer.json()["error"]


def test_the_page_is_served_with_no_outside_assets(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "http://" not in page.text and "https://" not in page.text
    for asset in ("/static/app.js", "/static/style.css"):
        answer = client.get(asset)
        assert answer.status_code == 200
        assert "http://" not in answer.text and "https://" not in answer.text


# Options that steer the server rather than ask about a game: a Ray head or a local cluster
# (which moves pickled objects, and outlives the request), the time budget, the cache, the
# engine, and files. The page never sends them; a request that does gets a 400.
FORBIDDEN = ("ray", "workers", "force", "no-cache", "engine", "checkpoint", "quiet", "exact",
             "die-file", "dice-file", "budget")


def page_commands() -> list[tuple[str, str]]:
    return [(game, command) for game, entry in sorted(registry().items())
            for command in entry.page]


@pytest.mark.parametrize(("game", "command"), page_commands())
def test_the_allow_list_names_game_inputs_only(game: str, command: str) -> None:
    """Every allowed name is an option of the command (a renamed option cannot silently drop
    out), and none steers the server or names a file."""
    group = registry()[game].commands()
    params = group.get_command(click.Context(group), command).params
    names = {flag.lstrip("-") for p in params if isinstance(p, click.Option) for flag in p.opts}
    allowed = registry()[game].page[command]
    assert set(allowed) <= names, set(allowed) - names
    assert not set(allowed) & set(FORBIDDEN)


@pytest.mark.parametrize(("game", "command"), page_commands())
def test_every_forbidden_option_is_refused(client: TestClient, game: str, command: str) -> None:
    """Each option outside the allow-list that the command line takes is a 400 naming it, and
    the command is not run."""
    group = registry()[game].commands()
    params = group.get_command(click.Context(group), command).params
    names = {flag.lstrip("-") for p in params if isinstance(p, click.Option) for flag in p.opts}
    refused = [name for name in FORBIDDEN if name in names]
    assert refused, "each page command takes some option the page must not pass"
    for name in refused:
        answer = client.get(f"/api/{game}/{command}", params={name: "1"})
        assert answer.status_code == 400, (name, answer.text)
        assert f"takes no '{name}'" in answer.json()["error"]


def test_a_ray_head_named_by_a_visitor_is_never_contacted_nor_kept(client: TestClient) -> None:
    """The hole this closes: a request naming a Ray head made the server connect to it, and
    the address stuck for every later visitor's solves."""
    for params in ({"players": "2", "target": "20", "ray": "127.0.0.1:1"},
                   {"players": "2", "target": "20", "ray": "auto", "workers": "2"},
                   {"players": "2", "target": "20", "force": "1"}):
        answer = client.get("/api/dalek/game", params=params)
        assert answer.status_code == 400
        assert "Ray" not in answer.json()["error"]  # refused before anything was tried
    answer = client.get("/api/dalek/game", params={"players": "2", "target": "12"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["rules"]["players"] == 2


def test_every_field_of_the_page_is_allowed_by_its_command() -> None:
    """Each field the page sends (`data-option` in its panel) is in the allow-list of the
    commands that panel asks, so no page field is refused with a 400."""
    import re

    from helpers import ROOT

    page = (ROOT / "solver" / "web" / "static" / "index.html").read_text(encoding="utf-8")
    asks = {"dalek": ("best-move",), "totd": ("best-move", "chance"), "strike": ("best-move",)}
    for game, commands in asks.items():
        panel = re.search(rf'<section id="{game}".*?</section>', page, re.S).group(0)
        fields = set(re.findall(r'data-option="([a-z-]+)"', panel))
        assert fields
        for command in commands:
            allowed = set(registry()[game].page[command])
            # roll/kept/need/showing/pool are read by one command of the panel each
            assert fields - allowed <= {"showing", "pool"}, (game, command, fields - allowed)


@pytest.mark.parametrize("name", sorted(registry()))
def test_a_request_leaves_the_command_lines_help_as_it_was(client: TestClient, name: str) -> None:
    """click builds a command's help option once, from the first context that asks: a request
    run without the command line's settings used to drop `-h` from every later `--help`."""
    command, *args = registry()[name].examples.solve
    assert client.get(f"/api/{name}/{command}", params=query(tuple(args))).status_code == 200
    for flag in ("-h", "--help"):
        shown = CliRunner().invoke(cli, [name, command, flag])
        assert shown.exit_code == 0, shown.output
        assert "  -h, --help " in shown.output
