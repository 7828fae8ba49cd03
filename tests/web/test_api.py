"""The page's JSON API answers exactly what the command line answers (one code path), refuses
what the command line refuses with the same one-line error, and refuses what a page must never
do: name a file, run a command that writes one, send an oversized request."""

from __future__ import annotations

import json

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
