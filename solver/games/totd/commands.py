"""`dice-solver totd ...`: Doctor Who: Time of the Daleks, the Adventure's dice problem."""

from __future__ import annotations

from pathlib import Path

import click

from solver.commands import command_line, emit, json_option, table
from solver.games.totd import report as totd_report
from solver.games.totd.rules import (
    Adventure,
    load_game,
    make_tools,
    parse_challenge,
    parse_doctor,
    parse_focus,
    parse_pool,
    parse_showing,
    solo_adventure,
)

exact_option = click.option("--exact", is_flag=True, help="Also compute exact rational values.")
dice_file_option = click.option("--dice-file", type=str, default=None,
                                help="A corrected copy of solver/games/totd/dice.json.")
need_option = click.option("--need", required=True,
                           help='The Challenge, e.g. "Science x2, Cunning, Tactics".')


def game_options(command):
    """The Challenge and the dice file: every command has them."""
    command = click.option("--printed-faces", is_flag=True,
                           help="Variant: a change may only turn a die to a face it has "
                                "(default: any symbol, as the issue reads the rules).")(command)
    command = dice_file_option(command)
    return need_option(command)


def tool_options(command):
    """One Doctor's tools: Sonic tokens, re-roll icons, face-change icons."""
    command = click.option("--change", "changes", multiple=True,
                           help='A face-change icon, e.g. "green:Diplomacy" (repeatable).')(command)
    command = click.option("--reroll", "rerolls", multiple=True,
                           help='A re-roll icon: "2 black", "any blue" or "all red" '
                                '(repeatable).')(command)
    return click.option("--sonic", type=int, default=0, show_default=True,
                        help="Sonic Charge tokens (0 to 5).")(command)


def adventure_of(need: str, pool: str, dice_file: str | None, sonic: int, rerolls: tuple[str, ...],
                 changes: tuple[str, ...], printed_faces: bool = False) -> Adventure:
    """The one-Doctor Adventure the options of `chance` (and of simulate/verify) describe."""
    game = load_game(dice_file)
    return solo_adventure(game, need, parse_pool(game, pool), sonic, rerolls, changes,
                          printed_faces)


def _probability_lines(result: dict, exact: bool) -> list[str]:
    lines = [f"P(Challenge met), optimal play   {result['p_success']:.12f}"]
    if exact:
        lines.append(f"  exactly                        {result['p_success_exact']}")
    return lines


@click.group()
def totd() -> None:
    """Doctor Who: Time of the Daleks: chances and best play in an Adventure's dice challenge."""


@totd.command()
@game_options
@click.option("--pool", required=True, help='The dice pool, e.g. "black=6 blue=2" (at most 8).')
@tool_options
@exact_option
@json_option
def chance(need, dice_file, printed_faces, pool, sonic, rerolls, changes, exact, as_json) -> None:
    """The probability of meeting the Challenge with optimal play, before rolling."""
    adventure = adventure_of(need, pool, dice_file, sonic, rerolls, changes, printed_faces)
    result = totd_report.chance(adventure, exact)
    lines = [f"Challenge {result['need']}; pool {result['doctors'][0]['pool']}; "
             f"tools: {result['doctors'][0]['tools']}", *_probability_lines(result, exact)]
    lines.append(f"P(the first roll meets it)       {result['p_first_roll']:.12f}")
    if exact:
        lines.append(f"  exactly                        {result['p_first_roll_exact']}")
    emit(result, "\n".join(lines), as_json)


@totd.command("best-move")
@game_options
@click.option("--showing", required=True,
              help='The dice on the table, e.g. "black:Science black:Cunning blue:Science".')
@tool_options
@exact_option
@json_option
def best_move(need, dice_file, printed_faces, showing, sonic, rerolls, changes, exact,
              as_json) -> None:
    """Every option from the dice showing, with the tools left: its probability and regret."""
    game = load_game(dice_file)
    pool, counts = parse_showing(game, showing)
    adventure = solo_adventure(game, need, pool, sonic, rerolls, changes, printed_faces)
    report = totd_report.best_move(adventure, (counts,), exact)
    lines = [f"Challenge {report['need']}; showing {' '.join(report['showing'])}",
             f"tools left: {report['doctors'][0]['tools']}", *_probability_lines(report, exact)]
    rows = [(i + 1, o["action"], o["tool"], _dice_text(o["dice"]), f"{o['p_success']:.12f}",
             f"{o['regret']:.12f}") + ((o["p_success_exact"],) if exact else ())
            for i, o in enumerate(report["options"])]
    headers = ["#", "action", "tool", "dice", "P(met)", "regret"] + (["exact"] if exact else [])
    emit(report, "\n".join([*lines, "", table(headers, rows)]), as_json)


def _dice_text(dice: list[str] | None) -> str:
    """The dice of an option; for stopping, the changes to make (or why it fails)."""
    if dice is None:
        return "(Challenge not met)"
    return " ".join(dice) or "(met as shown)"


@totd.command()
@game_options
@click.option("--add", "added", required=True,
              help='The Dice Add icons\' total, e.g. "black=6 blue=1".')
@click.option("--focus", "focuses", multiple=True,
              help='A Dice Focus icon: "blue", or a split icon "green/blue" (repeatable).')
@click.option("--daleks", type=int, default=0, show_default=True,
              help="Dalek markers that Exterminate a die each.")
@tool_options
@click.option("--top", type=click.IntRange(1, None), default=5, show_default=True,
              help="How many pools to list.")
@exact_option
@json_option
def build(need, dice_file, printed_faces, added, focuses, daleks, sonic, rerolls, changes, top,
          exact, as_json) -> None:
    """The best pool to roll: which Focus swaps to make and which dice to discard."""
    game = load_game(dice_file)
    report = totd_report.build(game, parse_challenge(game, need), parse_pool(game, added),
                               tuple(parse_focus(game, f) for f in focuses), daleks,
                               make_tools(game, sonic, rerolls, changes), printed_faces, exact,
                               top)
    lines = [f"Challenge {report['need']}; added {report['added']}; focus "
             f"{', '.join(report['focus']) or 'none'}; Daleks {daleks}; tools: {report['tools']}",
             f"{report['pools_compared']} pools compared; best first:"]
    rows = [(i + 1, r["pool"], ", ".join(r["swaps"]) or "-", r["discard"],
             f"{r['p_success']:.12f}") + ((r["p_success_exact"],) if exact else ())
            for i, r in enumerate(report["options"])]
    headers = ["#", "pool to roll", "swaps", "discard", "P(met)"] + (["exact"] if exact else [])
    emit(report, "\n".join([*lines, "", table(headers, rows)]), as_json)


@totd.command("help")
@game_options
@click.option("--me", required=True,
              help='The helped Doctor: gathered pool (before discarding) and tools, e.g. '
                   '"black=6 blue=2; sonic 3; reroll 2 black; change green:Diplomacy".')
@click.option("--helper", default="", help='The helping Doctor\'s tools, e.g. "sonic 2; '
                                           'reroll any red".')
@click.option("--any-adventure", "shared", default="",
              help='"Any Adventure" card tools either Doctor may use, e.g. "reroll any green".')
@click.option("--time-breach", is_flag=True, help="The Dilemma has the Time-Breach condition.")
@click.option("--daleks", type=int, default=0, show_default=True,
              help="Dalek markers that Exterminate a die each.")
@click.option("--call-with-sonic", is_flag=True,
              help="The helped Doctor pays the call with a Sonic token (one fewer to use).")
@exact_option
@json_option
def help_command(need, dice_file, printed_faces, me, helper, shared, time_breach, daleks,
                 call_with_sonic, exact, as_json) -> None:
    """P(Challenge met) alone, with help from afar and with help at the location."""
    game = load_game(dice_file)
    helped = parse_doctor(game, me, needs_pool=True)
    helping = parse_doctor(game, helper, needs_pool=False).tools
    any_adventure = parse_doctor(game, shared, needs_pool=False).tools
    adventure = Adventure(game, parse_challenge(game, need), (helped,), any_adventure,
                          printed_faces)
    report = totd_report.call_for_help(adventure, helping, time_breach, daleks, call_with_sonic,
                                       exact)
    lines = [f"Challenge {report['need']}; helped Doctor {report['doctors'][0]['pool']} "
             f"({report['doctors'][0]['tools']}); helper: {report['helper_tools']}"
             + ("; Time-Breach" if time_breach else "") + (f"; Daleks {daleks}" if daleks else "")]
    rows = [(s["scenario"], s["helped_pool"], s["helper_pool"], f"{s['p_success']:.12f}")
            + ((s["p_success_exact"],) if exact else ()) for s in report["scenarios"]]
    headers = ["", "helped Doctor rolls", "helper rolls", "P(met)"] + (["exact"] if exact else [])
    emit(report, "\n".join([*lines, "", table(headers, rows)]), as_json)


@totd.command("table")
@dice_file_option
@click.option("--out", type=click.Path(file_okay=False), default="tables/time_of_the_daleks",
              show_default=True, help="Directory to write.")
def table_command(dice_file, out) -> None:
    """P(Challenge met) for common Challenges, pools and Sonic tokens, to CSV/JSON files."""
    manifest, summary = totd_report.write_tables(load_game(dice_file), Path(out),
                                                 command_line())
    click.echo(f"wrote {out}: {summary['rows']} rows ({summary['challenges']} Challenges x "
               f"{summary['pools']} pools x Sonic 0-5)")
    click.echo(f"manifest: {manifest}")

