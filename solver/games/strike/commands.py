"""`dice-solver strike ...`: Strike under an explicit throw model (docs/rules.md, "Strike")."""

from __future__ import annotations

from pathlib import Path

import click

from solver.commands import (
    FractionType,
    Progress,
    command_line,
    emit,
    exact_text,
    json_option,
    table,
)
from solver.engine.cyclic import solve
from solver.errors import InputError
from solver.games.strike import report as strike_report
from solver.games.strike.model import Strike
from solver.games.strike.rules import (
    DEFAULT_EDITION,
    DEFAULT_HIT,
    DEFAULT_MISS,
    EDITIONS,
    SCORINGS,
    dice_per_player,
)


def model_options(command):
    """The throw model, the dice and the scoring: every command that solves has them."""
    for option in reversed([
        click.option("--hit", type=FractionType(), default=str(DEFAULT_HIT), show_default=True,
                     help="Probability that a throw strikes (re-rolls) each arena die."),
        click.option("--miss", type=FractionType(), default=str(DEFAULT_MISS),
                     show_default=True,
                     help="Probability that a thrown die misses the arena (and leaves)."),
        click.option("--edition", type=click.Choice([str(e) for e in EDITIONS]),
                     default=str(DEFAULT_EDITION), show_default=True,
                     help="Dice in the box: 31 (9/8/7/6 per player) or 26 (8/7/6/5)."),
        click.option("--dice", type=int, default=None,
                     help="Dice per player (overrides the edition's number)."),
        click.option("--scoring", type=click.Choice(SCORINGS), default="win",
                     show_default=True,
                     help="win: P(win); points: expected points (eliminated players score "
                          "the number still in; lower is better)."),
        click.option("--exact", is_flag=True, help="Exact rationals (small dice counts only)."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
    ]):
        command = option(command)
    return command


def _game(players: int, hit, miss, edition: str, dice: int | None, scoring: str) -> Strike:
    return Strike(players, dice_per_player(players, int(edition), dice), hit, miss, scoring)


def _model_text(game: Strike, edition: str) -> str:
    scoring = "P(win)" if game.scoring == "win" else "expected points, lower is better"
    return (f"Strike, {game.players} players, {game.dice} dice each ({edition}-dice edition"
            f"{'' if game.dice == EDITIONS[int(edition)][game.players] else ', --dice'}); "
            f"hit {exact_text(game.hit)}, miss {exact_text(game.miss)}; "
            f"objective: {scoring}")


def _solve(game: Strike, start, exact: bool, quiet: bool):
    progress = Progress(f"solving {game.players}-player Strike", quiet)
    try:
        return solve(game, start, exact=exact, progress=progress)
    finally:
        progress.close()


def _seat_rows(seats: list[dict], exact: bool, scoring: str) -> str:
    name = "P(win)" if scoring == "win" else "E[points]"
    headers = ["seat", name] + (["P(win)"] if scoring == "points" else []) + \
        (["exact"] if exact else [])
    rows = [(s["seat"], f"{s['value']:.12f}")
            + ((f"{s['p_win']:.12f}",) if scoring == "points" else ())
            + ((s["value_exact"],) if exact else ()) for s in seats]
    return table(headers, rows)


@click.group()
def strike() -> None:
    """Strike: throw dice into the arena, take the pairs, the last player with dice wins."""


@strike.command()
@click.option("--players", type=int, default=2, show_default=True)
@model_options
@json_option
def game(players, hit, miss, edition, dice, scoring, exact, quiet, as_json) -> None:
    """Each seat's value at the start, after optimal placements, under optimal play."""
    rules = _game(players, hit, miss, edition, dice, scoring)
    solution = _solve(rules, rules.start(), exact, quiet)
    summary = strike_report.game_summary(rules, solution, exact, int(edition))
    placed = []
    for p in summary["placements"]:
        why = "" if not p["choices_differ"] else (
            " (a number already placed)" if p["same_as_earlier"] else " (a new number)")
        placed.append(f"seat {p['seat']} places {p['number']}{why}")
    lines = [_model_text(rules, edition), "setup: " + "; ".join(placed),
             _seat_rows(summary["seats"], exact, scoring),
             f"{summary['positions']} positions, {summary['components']} components, "
             f"residual {summary['residual']:.2e}, {summary['seconds']['total']:.1f} s"]
    emit(summary, "\n".join(lines), as_json)


@strike.command("best-move")
@click.option("--arena", default="", show_default=True,
              help="Numbers showing in the arena (1-5), e.g. 2,4,5; empty: the big hit is due.")
@click.option("--stocks", default=None,
              help="Stocks in turn order from the mover, e.g. 3,6 (0 for a player out).")
@click.option("--mid-turn", is_flag=True,
              help="The mover has thrown this turn and may stop.")
@click.option("--setup", is_flag=True,
              help="Setup: --arena is the numbers seats 1.. placed; the next seat places.")
@click.option("--players", type=int, default=None,
              help="Number of players (default: as many as --stocks gives, or 2).")
@model_options
@json_option
def best_move(arena, stocks, mid_turn, setup, players, hit, miss, edition, dice, scoring, exact,
              quiet, as_json) -> None:
    """The mover's options (stop or throw again; at setup, the number to place) with their
    values and regrets, best first."""
    numbers = _numbers(arena, "--arena")
    if setup:
        if stocks is not None or mid_turn:
            raise InputError("--setup positions take no --stocks or --mid-turn (every stock "
                             "is full but for the die placed)")
        rules = _game(players or 2, hit, miss, edition, dice, scoring)
        position = rules.setup_position(numbers)
    else:
        if stocks is None:
            raise InputError("give --stocks (or --setup for a setup position)")
        amounts = _numbers(stocks, "--stocks")
        if players is not None and players != len(amounts):
            raise InputError(f"--stocks gives {len(amounts)} players, --players {players}")
        rules = _game(len(amounts), hit, miss, edition, dice, scoring)
        position = rules.position(numbers, amounts, mid_turn)
    solution = _solve(rules, position, exact, quiet)
    report = strike_report.best_move(rules, solution, position, numbers, exact)
    where = (f"setup, seat {report['seat']} places next" if setup else
             f"seat {report['seat']} to move ({report['phase']}"
             f"{', the big hit' if report['big_hit'] else ''}); stocks from the mover: "
             f"{', '.join(map(str, report['stocks']))}")
    lines = [_model_text(rules, edition),
             f"arena: {' '.join(map(str, numbers)) or '(empty)'}; {where}",
             f"best: {report['best']}", ""]
    unit = report["objective"]
    rows = [(o["option"], f"{o['value']:.12f}", f"{o['regret']:.12f}")
            + ((o["value_exact"],) if exact else ()) for o in report["options"]]
    lines.append(table(["option", unit, "regret"] + (["exact"] if exact else []), rows))
    lines += ["", f"each seat (seat 1 = {'the first to place' if setup else 'the mover'}):",
              _seat_rows(report["seats"], exact, scoring)]
    emit(report, "\n".join(lines), as_json)


def _numbers(text: str, option: str) -> list[int]:
    """Whole numbers separated by commas (or spaces); empty text is an empty list."""
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise InputError(f"{option} takes whole numbers separated by commas, not {text!r}") \
            from None


@strike.command("table")
@click.option("--out", type=click.Path(file_okay=False), default="tables/strike",
              show_default=True, help="Directory to write.")
def table_command(out) -> None:
    """Write the 2-player policy (stop or throw again) and P(win) of every position, and the
    first player's chance as a function of --hit."""
    manifest, summary = strike_report.write_tables(Path(out), command_line())
    click.echo(f"wrote {out}: {summary['positions']} positions; P(seat 1 wins) "
               f"{summary['p_win_seat1']:.12f}; --hit sweep over "
               f"{', '.join(summary['sweep_hits'])}")
    click.echo(f"manifest: {manifest}")
