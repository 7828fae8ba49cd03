"""`dice-solver strike ...`: Strike under an explicit throw model (docs/rules.md, "Strike")."""

from __future__ import annotations

import re
import time
from fractions import Fraction
from pathlib import Path

import click

from solver.commands import (
    FractionType,
    OutputPath,
    card_option,
    command_line,
    emit,
    engine_options,
    exact_text,
    json_option,
    no_cache_option,
    solving,
    table,
)
from solver.engine.cyclic import solve
from solver.errors import InputError
from solver.games.strike import report as strike_report
from solver.games.strike.cost import positions, refuse_solves
from solver.games.strike.model import Position, Strike
from solver.games.strike.rules import (
    DEFAULT_EDITION,
    DEFAULT_EMPTY_ARENA,
    DEFAULT_FLY_OUT,
    DEFAULT_HIT,
    DEFAULT_MISS,
    DEFAULT_POINTS_COUNT,
    EDITIONS,
    EMPTY_ARENA,
    MIN_DICE,
    PLAYERS,
    POINTS_COUNTS,
    SCORINGS,
    dice_per_player,
)
from solver.games.strike.typed import read_dice
from solver.opponents import KNOWING
from solver.progress import Progress

TEXT_TOP = 8  # options best-move lists in text
LEVELS_BY_DEFAULT = 20_000  # positions (cost.positions) above which game takes the level engine
MAX_DICE = max(EDITIONS) // min(PLAYERS)  # the most dice a player can have: 15 of 31
SEATS = click.IntRange(min(PLAYERS), max(PLAYERS))
WHOLE = re.compile(r"[0-9]{1,9}")  # a number of --arena or --stocks


def add_options(command, options: list):
    """Apply click options so that --help lists them in this order."""
    for option in reversed(options):
        command = option(command)
    return command


def reading_options(command):
    """The readings of docs/rules.md that are flags (4b and 6b): on every Strike command."""
    return add_options(command, [
        click.option("--fly-out", type=FractionType(), default=str(DEFAULT_FLY_OUT),
                     show_default=True,
                     help="Probability that a struck arena die flies out of the arena (and "
                          "leaves the game)."),
        click.option("--empty-arena", type=click.Choice(EMPTY_ARENA),
                     default=DEFAULT_EMPTY_ARENA, show_default=True,
                     help="An arena emptied by X faces (or dice out) with no match: pass (the "
                          "turn ends, the next player makes the big hit) or continue (the "
                          "thrower may throw one more die or stop)."),
    ])


def throw_options(command):
    """The throw model (reading 4) and the readings that are flags: every command that plays."""
    return add_options(reading_options(command), [
        click.option("--hit", type=FractionType(), default=str(DEFAULT_HIT), show_default=True,
                     help="Probability that a throw strikes (re-rolls) each arena die."),
        click.option("--miss", type=FractionType(), default=str(DEFAULT_MISS),
                     show_default=True,
                     help="Probability that a thrown die misses the arena (and leaves)."),
    ])


def dice_options(command):
    """The dice each player starts with: the edition's, or --dice."""
    return add_options(command, [
        click.option("--edition", type=click.Choice([str(e) for e in EDITIONS]),
                     default=str(DEFAULT_EDITION), show_default=True,
                     help="Dice in the box: 31 (9/8/7/6 per player) or 26 (8/7/6/5)."),
        click.option("--dice", type=click.IntRange(MIN_DICE, MAX_DICE), default=None,
                     help=f"Dice per player, {MIN_DICE} or more, at most the edition's box "
                          f"shared out (overrides the edition's number)."),
    ])


force_option = click.option(
    "--force", is_flag=True, help="Run even if the solve is estimated to take longer than the "
                                  "budget ($DICE_SOLVER_BUDGET seconds, default 2 h).")


def model_options(command):
    """The throw model, the readings, the dice and the scoring: every command that solves has
    them (docs/rules.md, "Strike")."""
    command = click.option(
        "--points-count", type=click.Choice(POINTS_COUNTS), default=None,
        help="Reading, with --scoring points: the players still in are counted after the "
             "elimination (after, the default: N-1 ... 1, the winner 0) or before it, the "
             "player going out too (before: N ... 2, the winner 0).")(command)
    return throw_options(dice_options(click.option(
        "--scoring", type=click.Choice(SCORINGS), default="win", show_default=True,
        help="win: P(win); points: expected points (eliminated players score the number still "
             "in; lower is better).")(command)))


def solve_options(command):
    """How to solve: exactly or in floats, with or without a progress bar, past the budget."""
    return add_options(command, [
        click.option("--exact", is_flag=True, help="Exact rationals (small dice counts only)."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
        no_cache_option,
        force_option,
    ])


def game_of(players: int, edition: str, dice: int | None, points_count: str | None = None,
            **model) -> Strike:
    """The Strike game these options describe (model: hit, miss, fly_out, empty_arena,
    scoring). A points count without points scoring would change nothing: refused."""
    if points_count is not None and model.get("scoring") != "points":
        raise InputError(f"--points-count {points_count} counts the points of --scoring points: "
                         f"add it, or leave --points-count out")
    return Strike(players, dice_per_player(players, int(edition), dice),
                  points_count=points_count or DEFAULT_POINTS_COUNT, **model)


def _model_text(game: Strike, edition: str) -> str:
    scoring = "P(win)" if game.scoring == "win" else "expected points, lower is better"
    return (f"Strike, {game.players} players, {game.dice} dice each ({edition}-dice edition"
            f"{'' if game.dice == EDITIONS[int(edition)][game.players] else ', --dice'}); "
            f"hit {exact_text(game.hit)}, miss {exact_text(game.miss)}{readings_text(game)}; "
            f"objective: {scoring}")


def readings_text(game: Strike) -> str:
    """The flagged readings (4b, 6b) where they differ from the defaults, for titles."""
    text = "" if not game.fly_out else f", fly-out {exact_text(game.fly_out)}"
    if game.empty_arena != DEFAULT_EMPTY_ARENA:
        text += f", emptied arena: {game.empty_arena}"
    return text


def solve_checked(game: Strike, start, exact: bool, quiet: bool, force: bool,
                  in_play: int | None = None):
    """Solve from `start`, refused first if estimated too long or too large (cost.py)."""
    refuse_solves(f"solving {game.players}-player Strike with {game.dice} dice each"
                  f"{' exactly' if exact else ''}", [game], exact, force, in_play)
    with Progress(f"solving {game.players}-player Strike", quiet) as progress:
        return solve(game, start, exact=exact, progress=progress.steps)


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


def strike_engine_options(command):
    """--engine and --checkpoint (solver/commands.py), as dalek has them."""
    return add_options(command, engine_options(
        "strike", f"levels above {LEVELS_BY_DEFAULT:,} positions unless --exact, else cyclic"))


def solve_game(rules: Strike, exact: bool, quiet: bool, force: bool, no_cache: bool,
               start: Position | None = None, in_play: int | None = None):
    """Values at `start` (default: the start of the game) on the engine the command line asks
    for, and its name. The cyclic engine solves from `start`; the level engine solves the whole
    game once (then reads it from the cache) and answers any position a game reaches."""
    from solver.games.strike import levels

    how = solving("strike", exact, positions(rules) > LEVELS_BY_DEFAULT)
    if how.engine == "cyclic":
        at = rules.start() if start is None else start
        return solve_checked(rules, at, exact, quiet, force, in_play), how.engine
    with Progress(f"solving {rules.players}-player Strike", quiet) as progress:
        solution = levels.solved(rules, solving=how, progress=progress,
                                 use_cache=not no_cache, force=force)
    if start is not None:
        solution.reaches(start)
    return solution, how.engine


def position_options(command):
    """A position as players type it (best-move and game): the arena, the stocks, the mover,
    the phase; or a setup position."""
    return add_options(command, [
        click.option("--arena", default="", show_default=True,
                     help="Numbers showing in the arena (1-5, each at most once), e.g. 2,4,5 or "
                          "\"2 4 5\" or 245; empty: the big hit is due."),
        click.option("--stocks", default=None,
                     help="Each seat's stock, seat 1 (the eldest, who threw first) first, e.g. "
                          "3,6 (0 for a player out; 2 to 5 seats)."),
        click.option("--mover", type=click.IntRange(1, max(PLAYERS)), default=None,
                     help="The seat to move, as players count them (default: seat 1)."),
        click.option("--mid-turn", is_flag=True,
                     help="The mover has thrown this turn and may stop."),
        click.option("--setup", is_flag=True,
                     help="Setup: --arena is the numbers seats 1.. placed; the next seat "
                          "places."),
        click.option("--players", type=SEATS, default=None,
                     help="Number of players, 2 to 5 (default: as many as --stocks gives, or "
                          "2)."),
    ])


def typed_position(arena: str, stocks: str | None, mover: int | None, mid_turn: bool,
                   setup: bool, players: int | None, edition: str, dice: int | None,
                   model: dict, required: bool = True
                   ) -> tuple[Strike, Position | None, list[int], int | None]:
    """(rules, position, the arena's numbers as typed, dice in play or None) of the position
    options; the position is None where none is given and none is `required`."""
    numbers = read_dice(arena, "--arena", setup=setup)
    if setup:
        if stocks is not None or mid_turn or mover is not None:
            raise InputError("--setup positions take no --stocks, --mover or --mid-turn (every "
                             "stock is full but for the die placed, and seats place in order)")
        rules = game_of(players or 2, edition, dice, **model)
        return rules, rules.setup_position(numbers), numbers, None
    if stocks is None:
        if required or numbers or mid_turn or mover is not None:
            raise InputError("give --stocks (or --setup for a setup position)")
        return game_of(players or 2, edition, dice, **model), None, numbers, None
    amounts = _numbers(stocks, "--stocks")
    if players is not None and players != len(amounts):
        raise InputError(f"--stocks gives {len(amounts)} players, --players {players}")
    rules = game_of(len(amounts), edition, dice, **model)
    position = rules.position(numbers, amounts, mid_turn, (mover or 1) - 1)
    return rules, position, numbers, sum(amounts) + len(numbers)


@strike.command()
@position_options
@model_options
@solve_options
@strike_engine_options
@json_option
def game(arena, stocks, mover, mid_turn, setup, players, edition, dice, exact, quiet, no_cache,
         force, as_json, **model) -> None:
    """Each seat's value under optimal play: at the start, after optimal placements, or at a
    position typed as for best-move (--stocks, --arena, ... or --setup)."""
    rules, position, numbers, in_play = typed_position(
        arena, stocks, mover, mid_turn, setup, players, edition, dice, model, required=False)
    solution, engine = solve_game(rules, exact, quiet, force, no_cache, position, in_play)
    summary = strike_report.game_summary(rules, solution, exact, int(edition), position,
                                         numbers)
    summary["engine"] = engine
    if position is None:
        placed = []
        for p in summary["placements"]:
            why = "" if not p["choices_differ"] else (
                " (a number already placed)" if p["same_as_earlier"] else " (a new number)")
            placed.append(f"seat {p['seat']} places {p['number']}{why}")
        where = "setup: " + "; ".join(placed)
    else:
        where = _position_line(summary["position"])
    lines = [_model_text(rules, edition), where,
             _seat_rows(summary["seats"], exact, rules.scoring),
             f"{summary['positions']} positions, {summary['components']} components, "
             f"residual {summary['residual']:.2e}, {engine} engine, "
             f"{summary['timings']['total']:.1f} s{' (cached)' * summary['timings']['cached']}"]
    emit(summary, "\n".join(lines), as_json)


@strike.command("best-move")
@position_options
@click.option("--top", type=click.IntRange(1, None), default=None,
              help=f"How many options to list (default: {TEXT_TOP} in text, all in JSON).")
@model_options
@solve_options
@strike_engine_options
@json_option
def best_move(arena, stocks, mover, mid_turn, setup, players, top, edition, dice, exact, quiet,
              no_cache, force, as_json, **model) -> None:
    """The best move in one line, then the mover's options (stop or throw again; at setup,
    the number to place) with their values and regrets, best first, and every seat's value
    (seats as players count them)."""
    rules, position, numbers, in_play = typed_position(
        arena, stocks, mover, mid_turn, setup, players, edition, dice, model)
    solution, engine = solve_game(rules, exact, quiet, force, no_cache, position, in_play)
    report = strike_report.best_move(rules, solution, position, numbers, exact, int(edition))
    report["engine"] = engine
    every = len(report["options"])
    report["options"] = report["options"][:top or (None if as_json else TEXT_TOP)]
    emit(report, _best_move_text(rules, edition, report, exact, every), as_json)


def _position_line(where: dict) -> str:
    """A report's position in words: the arena, who moves and the stocks."""
    seat = f"seat {where['mover']}"
    if where["phase"] == "setup":
        state = f"setup, {seat} places next"
    else:
        state = (f"{seat} to move ({where['phase']}{', the big hit' if where['big_hit'] else ''}"
                 f"); stocks by seat: {', '.join(map(str, where['stocks']))}")
    return f"arena: {' '.join(map(str, where['arena'])) or '(empty)'}; {state}"


def _best_move_text(rules: Strike, edition: str, report: dict, exact: bool, every: int) -> str:
    lines = [report["verdict"], "", _model_text(rules, edition),
             _position_line(report["position"]), ""]
    rows = [(o["option"], f"{o['value']:.12f}", f"{o['regret']:.12f}")
            + ((o["value_exact"],) if exact else ()) for o in report["options"]]
    lines.append(table(["option", report["objective"], "regret"] + (["exact"] if exact else []),
                       rows))
    more = every - len(rows)
    lines += [f"({more} more option{'s' * (more > 1)}: --top {every} lists them)"] if more else []
    lines += ["", "each seat:", _seat_rows(report["seats"], exact, rules.scoring)]
    return "\n".join(lines)


def _numbers(text: str, option: str) -> list[int]:
    """Whole numbers (ASCII digits, at most 9 of them: no count here comes near) separated by
    commas or spaces; empty text is an empty list."""
    parts = text.replace(",", " ").split()
    bad = next((p for p in parts if not WHOLE.fullmatch(p)), None)
    if bad is not None:
        raise InputError(f"{option} takes whole numbers separated by commas, not {bad[:20]!r}")
    return [int(p) for p in parts]


@strike.command("table")
@click.option("--out", type=OutputPath(directory=True), default=None,
              help="Folder to write, made if missing in an existing folder (default "
                   "tables/strike for 2 players, tables/strike_<N>p otherwise).")
@click.option("--players", type=SEATS, default=2, show_default=True, help="2 to 5.")
@model_options
@click.option("--quiet", is_flag=True, help="No progress bar.")
@no_cache_option
@force_option
@strike_engine_options
@json_option
def table_command(out, players, edition, dice, quiet, no_cache, force, as_json, **model) -> None:
    """Write the policy (stop or throw again) and every seat's value at every position a game
    reaches, keyed as players type positions; for 2 players also the first player's chance as
    a function of --hit (default: 2 players, 9 dice each, hit 1/2, no miss)."""
    start = time.perf_counter()
    game = game_of(players, edition, dice, **model)
    folder = Path(out) if out is not None else _folder(
        "tables/strike" if players == 2 else f"tables/strike_{players}p")
    solution, engine = solve_game(game, False, quiet, force, no_cache)
    manifest, summary = strike_report.write_tables(folder, command_line(), game, solution,
                                                   edition=int(edition))
    hits = summary["sweep_hits"]
    data = {"out": str(folder), "manifest": str(manifest),
            "rules": strike_report.rules_of(game, int(edition)), "engine": engine,
            "positions": summary["positions"], "p_win_seat1": summary["p_win_seat1"],
            "residual": summary["residual"],
            "sweep_hits": [float(Fraction(h)) for h in hits], "sweep_hits_exact": hits,
            "timings": strike_report.timings(time.perf_counter() - start, solution.cached)}
    sweep = f"; --hit sweep over {', '.join(hits)}" if hits else ""
    emit(data, f"wrote {folder}: {summary['positions']} positions, every seat's value; P(seat "
               f"1 wins) {summary['p_win_seat1']:.12f}{sweep}\nmanifest: {manifest}", as_json)


def _folder(default: str) -> Path:
    """The default folder to write, validated now (as --out is when read)."""
    from solver.tables import writable

    try:
        return writable(default, directory=True)
    except ValueError as error:
        raise InputError(f"cannot write the table to {default}: {error} (or give --out)") \
            from None


@strike.command("rules")
@json_option
def rules_command(as_json) -> None:
    """When to throw again, as rules a player can learn: the best rule of each size (1, 2, 3
    numbers), its P(win) against an opponent who knows your
    rule and its loss (2 players, 9 dice each)."""
    from solver.games.strike import rulecard, rulefamilies

    start = time.perf_counter()
    rows, cached = rulefamilies.learned()
    report = rulecard.report(rows) | {
        "timings": {"total": time.perf_counter() - start, "cached": cached}}
    lines = [f"Strike, {report['players']} players, {report['dice']} dice each: a rule "
             f"player's P(win) against {KNOWING}, mean of both seats (perfect play: "
             f"{report['p_win_optimal']:.6f}).", ""]
    for row in report["frontier"]:
        lines.append(f"{row['size']} number{'s' * (row['size'] > 1)} "
                     f"({', '.join(f'{k} {v}' for k, v in row['numbers'].items())}): P(win) "
                     f"{row['p_win']:.6f}, loses {row['loss']:.6f}")
        lines += [f"  - {line}" for line in row["rule"]]
    emit(report, "\n".join(lines), as_json)


@strike.command("card")
@card_option
@json_option
def card_command(out, as_json) -> None:
    """A strategy card: the best rule for when to throw again (2 players, 9 dice each), with
    its cost against perfect play in words."""
    from solver.cards import render
    from solver.games.strike import rulecard, rulefamilies

    start = time.perf_counter()
    rows, cached = rulefamilies.learned()
    card = rulecard.card(rows)
    render(card, Path(out))
    perfect = rulecard.report(rows)["p_win_optimal"]
    report = {"out": out, "rule": list(card.rule), "cost": card.cost,
              "numbers": rows[-1].numbers, "p_win": rows[-1].value,
              "loss": perfect - rows[-1].value,
              "timings": {"total": time.perf_counter() - start, "cached": cached}}
    emit(report, f"{out}: {card.rule[1]} ... {card.cost}", as_json)
