"""The cheap figures docs/results.md quotes (those the program computes in seconds) against the
program: each figure is read from the document as printed, computed again through the command
line's JSON, and compared at the document's own precision. A change that moves a figure fails
here until the document moves with it. (Figures from solves of minutes or hours are measured,
not recomputed in the suite: their commands are printed beside them.)"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import cache

import pytest
from click.testing import CliRunner
from helpers import ROOT

from solver.cli import cli

RESULTS = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
DALEK_TURN = "tie rule | expected points, optimal play | exactly | P(score 0)"
PIG = "play | P(first player wins) | published (Neller and Presser 2004) | seconds"
STRIKE_FIRST = ("players | dice each | seat values, P(win) (seat 1 first) | positions | solve s | "
                "command")
STRIKE_HIT = "hit | P(seat 1 wins) | seat 2, new number | seat 2, repeated number"
STRIKE_FLY = ("fly-out | P(seat 1 wins) | seat 2, new number | seat 2, repeated number | "
              "positions | residual")
TOTD_TOOLS = "tools | P(met) | P(first roll)"
TOTD_HELP = ("helper's dice | Sonic tokens on | Time-Breach | alone | help from afar | "
             "help at the location")


def row(header: str, *first: str) -> list[str]:
    """The cells of the one row that starts with the cells `first` in the one table of
    results.md whose header row is `header` (its cells, as printed, joined by " | ")."""
    tables, rows = [], None
    for line in RESULTS.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.strip().startswith("|"):
            rows = None
        elif rows is None:
            rows = []
            if " | ".join(cells) == header:
                tables.append(rows)
        elif not set(line.strip()) <= set("|-: "):
            rows.append(cells)
    assert len(tables) == 1, f"{len(tables)} tables of docs/results.md have the header {header!r}"
    found = [cells for cells in tables[0] if cells[:len(first)] == list(first)]
    assert len(found) == 1, f"{len(found)} rows of the table {header!r} start with {first}"
    return found[0]


def sentence(pattern: str) -> re.Match:
    """The one place results.md says `pattern` (a regular expression over its text, line
    breaks read as spaces)."""
    text = " ".join(RESULTS.split())
    found = list(re.finditer(pattern, text))
    assert len(found) == 1, f"{len(found)} matches in docs/results.md for {pattern!r}"
    return found[0]


def printed(value: float, text: str) -> bool:
    """`value` printed with as many decimals as `text` has is `text`."""
    decimals = len(text.partition(".")[2])
    return f"{value:.{decimals}f}" == text


@cache
def answer(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ---- Dalek Dice, one turn ------------------------------------------------------------------
@pytest.mark.parametrize(("tie", "options"), [("ge", ()), ("gt", ("--tie-rule", "gt"))])
def test_dalek_turn_table(tie: str, options: tuple[str, ...]) -> None:
    cells = row(DALEK_TURN, f"`{tie}` (Daleks equal or exceed)" if tie == "ge" else
                f"`{tie}` (Daleks strictly exceed)")
    turn = answer("dalek", "turn", "--exact", *options)
    assert printed(float(Fraction(turn["expected_points_exact"])), cells[1])
    assert printed(float(Fraction(turn["p_zero_exact"])), cells[3])
    if tie == "ge":
        assert cells[2] == turn["expected_points_exact"]


def test_dalek_rulebook_example_keep() -> None:
    said = sentence(r"Jenna's first keep \(H4 H4 H4 D3 D3 D3, then roll\) is worth ([0-9.]+) "
                    r"expected points where H4 H4 D3 D3 D3 D2 then roll is worth ([0-9.]+), "
                    r"the best of the ([0-9]+) options")
    move = answer("dalek", "best-move", "--roll", "H4 H4 H4 H2 H2 D3 D3 D3 D2 DOC")
    options = {(" ".join(o["keep"]), o["action"]): o["value"] for o in move["options"]}
    assert printed(options[("H4 H4 H4 D3 D3 D3", "roll")], said[1])
    assert printed(move["options"][0]["value"], said[2])
    assert move["options"][0]["keep"] == ["H4", "H4", "D3", "D3", "D3", "D2"]
    assert len(move["options"]) == int(said[3])


# ---- Pig --------------------------------------------------------------------------------
def test_pig_first_player() -> None:
    game = answer("pig", "game")
    chances = {p["name"]: p["p_first_wins"] for p in game["policies"]}
    assert printed(chances["optimal"], row(PIG, "optimal")[1])
    assert printed(chances["hold 20"], row(PIG, "both hold at 20 or at the goal")[1])


# ---- Strike -------------------------------------------------------------------------------
@pytest.mark.parametrize(("cells", "options"), [
    (("2", "9 (31-dice)"), ()), (("2", "8 (26-dice)"), ("--edition", "26"))])
def test_strike_first_player_table(cells: tuple[str, ...], options: tuple[str, ...]) -> None:
    shown = row(STRIKE_FIRST, *cells)[2].split(", ")
    seats = answer("strike", "game", *options)["seats"]
    assert len(shown) == len(seats)
    assert all(printed(seat["p_win"], text) for seat, text in zip(seats, shown))


def test_strike_exact_small_games() -> None:
    said = sentence(r"with 2 dice each \(`--dice 2`\) seat 1 wins exactly ([0-9]+/[0-9]+) "
                    r"\(([0-9.]+), exact\), with 3 dice each ([0-9.]+) \(exact\)")
    two = answer("strike", "game", "--dice", "2", "--exact")["seats"][0]
    three = answer("strike", "game", "--dice", "3", "--exact")["seats"][0]
    assert two["p_win_exact"] == said[1] and printed(two["p_win"], said[2])
    assert printed(three["p_win"], said[3])


def test_strike_placement() -> None:
    said = sentence(r"With two players, seat 2 wins ([0-9.]+) placing a new number and "
                    r"([0-9.]+) repeating seat 1's")
    move = answer("strike", "best-move", "--setup", "--arena", "1")
    values = {o["option"]: o["value"] for o in move["options"]}
    assert printed(values["place 2"], said[1]) and printed(values["place 1"], said[2])


@cache
def seat_one(*options: str) -> float:
    return answer("strike", "game", *options)["seats"][0]["p_win"]


def test_strike_hit_table_and_what_it_says() -> None:
    half, most = row(STRIKE_HIT, "1/2")[1], row(STRIKE_HIT, "9/10")[1]
    assert printed(seat_one(), half) and printed(seat_one("--hit", "9/10"), most)
    said = sentence(r"from hit 1/2 up it changes by about half a point \(([0-9.]+): "
                    r"([0-9.]+) at 1/2, ([0-9.]+) at 9/10\)")
    assert (said[2], said[3]) == (half, most)
    assert printed(100 * (seat_one("--hit", "9/10") - seat_one()), said[1])


def test_strike_fly_out_table_and_what_it_says() -> None:
    said = sentence(r"repeating one costs more as more struck dice leave \(([0-9.]+) points at "
                    r"0, ([0-9.]+) at 1\)")
    for fly, cells, cost in (("0", row(STRIKE_FLY, "0 (default)"), said[1]),
                             ("1", row(STRIKE_FLY, "1"), said[2])):
        options = ("--fly-out", fly) if fly != "0" else ()
        move = answer("strike", "best-move", "--setup", "--arena", "1", *options)
        values = {o["option"]: o["value"] for o in move["options"]}
        assert printed(seat_one(*options), cells[1])
        assert printed(values["place 2"], cells[2]) and printed(values["place 1"], cells[3])
        assert printed(100 * (values["place 2"] - values["place 1"]), cost)


# ---- Time of the Daleks -----------------------------------------------------------------------
def test_totd_all_six_symbols() -> None:
    said = sentence(r"the first roll meets it with ([0-9]+/[0-9]+) = ([0-9.]+) .*? lifts it to "
                    r"([0-9]+/[0-9]+) = ([0-9.]+)\.")
    chance = answer("totd", "chance", "--need",
                    "Running, Diplomacy, Science, Cunning, Tactics, Strength", "--pool", "black=8",
                    "--exact")
    assert chance["p_first_roll_exact"] == said[1] and printed(chance["p_first_roll"], said[2])
    assert chance["p_success_exact"] == said[3] and printed(chance["p_success"], said[4])


@pytest.mark.parametrize(("tools", "options"), [
    ("none", ()), ("2 Sonic tokens (one re-roll)", ("--sonic", "2")),
    ('re-roll icon "2 black"', ("--reroll", "2 black")),
    ('face change "blue:Cunning"', ("--change", "blue:Cunning")),
    ("3 Sonic tokens", ("--sonic", "3"))])
def test_totd_tool_table(tools: str, options: tuple[str, ...]) -> None:
    cells = row(TOTD_TOOLS, tools)
    chance = answer("totd", "chance", "--need", "Science x2, Cunning, Tactics", "--pool",
                    "black=6 blue=2", *options)
    assert printed(chance["p_success"], cells[1]) and printed(chance["p_first_roll"], cells[2])


def test_totd_help_default_row() -> None:
    cells = row(TOTD_HELP, "split (default)", "own pool (default)", "no")
    helped = answer("totd", "help", "--need", "Science x2, Cunning, Tactics, Diplomacy", "--me",
                    "black=6 blue=2; sonic 2; reroll 2 black", "--helper",
                    "sonic 2; reroll any blue")
    chances = [s["p_success"] for s in helped["scenarios"]]
    assert all(printed(p, text) for p, text in zip(chances, cells[3:6]))
