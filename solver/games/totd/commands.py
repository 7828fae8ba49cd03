"""`dice-solver totd ...`: Doctor Who: Time of the Daleks, the Adventure's dice problem."""

from __future__ import annotations

import time
from pathlib import Path

import click

from solver.commands import (
    InputPath,
    OutputPath,
    card_option,
    command_line,
    emit,
    json_option,
    table,
)
from solver.errors import InputError
from solver.games.totd import report as totd_report
from solver.games.totd.files import load_game
from solver.games.totd.rules import (
    EITHER_POOL,
    MAX_ICONS,
    MAX_SONIC,
    OWN,
    OWN_POOL,
    POOL_LIMIT,
    SPLIT,
    TIME_BREACH_LOSS,
    Adventure,
    Call,
    alone_limit,
    sonic_changes,
)
from solver.games.totd.typed import (
    make_tools,
    need_text,
    parse_challenge,
    parse_doctor,
    parse_focuses,
    parse_pool,
    parse_showing,
    pool_text,
    solo_adventure,
)

exact_option = click.option("--exact", is_flag=True, help="Also compute exact rational values.")
dice_file_option = click.option("--dice-file", type=InputPath(), default=None,
                                help="A corrected copy of solver/games/totd/dice.json (UTF-8 "
                                     "JSON; - reads standard input).")
need_option = click.option("--need", required=True,
                           help=f'The Challenge, e.g. "Science x2, Cunning, Tactics" (at most '
                                f'{POOL_LIMIT} symbols).')
force_option = click.option("--force", is_flag=True,
                            help="Solve even when the estimate is past the time budget "
                                 "($DICE_SOLVER_BUDGET seconds, default 2 h).")
daleks_option = click.option("--daleks", type=click.IntRange(0, POOL_LIMIT), default=0,
                             show_default=True,
                             help=f"Dalek markers that Exterminate a die each (0 to {POOL_LIMIT}).")


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
                           help=f'A face-change icon, e.g. "green:Diplomacy" (repeatable, at '
                                f'most {MAX_ICONS}).')(command)
    command = click.option("--reroll", "rerolls", multiple=True,
                           help=f'A re-roll icon: "2 black" (1 to {POOL_LIMIT} dice), "any blue" '
                                f'or "all red" (repeatable, at most {MAX_ICONS}).')(command)
    return click.option("--sonic", type=int, default=0, show_default=True,
                        help=f"Sonic Charge tokens (0 to {MAX_SONIC}).")(command)


def time_breach_options(command):
    """The Dilemma's Time-Breach and how it reads for a Doctor alone (docs/rules.md, Time of
    the Daleks, reading 6): every command that sets a pool limit has them (`breach_reading`)."""
    command = click.option(
        "--breach-alone", type=click.Choice([str(POOL_LIMIT), str(POOL_LIMIT - TIME_BREACH_LOSS)]),
        default=None,
        help=f"Reading, with --time-breach: the pool limit of a Doctor alone ({POOL_LIMIT}, the "
             f"default: only helped pools shrink; {POOL_LIMIT - TIME_BREACH_LOSS}: the whole "
             f"limit drops by one).")(command)
    return click.option("--time-breach", is_flag=True,
                        help="The Dilemma has the Time-Breach condition.")(command)


def breach_reading(time_breach: bool, breach_alone: str | None) -> bool:
    """Whether Time-Breach lowers a lone Doctor's limit too (--breach-alone 7). --breach-alone
    without --time-breach would change nothing, so it is refused rather than ignored."""
    if breach_alone is None:
        return False
    if not time_breach:
        raise InputError(f"--breach-alone {breach_alone} is a reading of Time-Breach: add "
                         f"--time-breach, or leave it out")
    return int(breach_alone) < POOL_LIMIT


def adventure_of(need: str, pool: str, dice_file: str | None, sonic: int, rerolls: tuple[str, ...],
                 changes: tuple[str, ...], printed_faces: bool = False) -> Adventure:
    """The one-Doctor Adventure the options of `chance` (and of simulate/verify) describe."""
    game = load_game(dice_file)
    return solo_adventure(game, need, parse_pool(game, pool), sonic, rerolls, changes,
                          printed_faces)


def rules_of(dice_file: str | None, printed_faces: bool, **readings) -> dict:
    """The readings an answer was computed under (docs/rules.md, Time of the Daleks)."""
    return {"printed_faces": printed_faces, "dice_file": dice_file, **readings}


def finish(report: dict, rules: dict, start: float) -> dict:
    """The report with the rules it answered and its timings (nothing here is cached)."""
    return report | {"rules": rules,
                     "timings": {"total": time.perf_counter() - start, "cached": False}}


def _probability_lines(result: dict, exact: bool, labels: dict[str, str]) -> list[str]:
    """P(Challenge met) and any other probabilities labelled, values in one column."""
    width = max(len(label) for label in labels.values()) + 3
    lines = []
    for key, label in labels.items():
        lines.append(f"{label:<{width}}{result[key]:.12f}")
        if exact:
            lines.append(f"{'  exactly':<{width}}{result[key + '_exact']}")
    return lines


SUCCESS = {"p_success": "P(Challenge met), optimal play"}
TEXT_TOP = 8  # options best-move lists for people unless --top says otherwise


def first_roll_label(adventure: Adventure) -> str:
    """What p_first_roll is: the first roll alone, or with the face changes in hand."""
    tools = adventure.doctors[0].tools
    if tools.changes or sonic_changes(tools.sonic):
        return "P(first roll + changes in hand meet it, no re-roll)"
    return "P(the first roll meets it)"


@click.group()
def totd() -> None:
    """Doctor Who: Time of the Daleks: chances and best play in an Adventure's dice challenge."""


@totd.command()
@game_options
@click.option("--pool", required=True,
              help=f'The dice pool, e.g. "black=6 blue=2" (1 to {POOL_LIMIT} dice).')
@tool_options
@exact_option
@force_option
@json_option
def chance(need, dice_file, printed_faces, pool, sonic, rerolls, changes, exact, force,
           as_json) -> None:
    """The probability of meeting the Challenge with optimal play, before rolling, and of the
    first roll meeting it (with the face changes in hand, without re-rolling)."""
    start = time.perf_counter()
    adventure = adventure_of(need, pool, dice_file, sonic, rerolls, changes, printed_faces)
    result = finish(totd_report.chance(adventure, exact, force),
                    rules_of(dice_file, printed_faces), start)
    game = adventure.game
    doctor = adventure.doctors[0]
    lines = [f"Challenge {need_text(game, adventure.need)}; pool "
             f"{pool_text(game, doctor.pool)}; tools: {doctor.tools.text(game)}",
             *_probability_lines(result, exact,
                                 SUCCESS | {"p_first_roll": first_roll_label(adventure)})]
    emit(result, "\n".join(lines), as_json)


@totd.command("best-move")
@game_options
@click.option("--showing", required=True,
              help=f'The dice on the table, e.g. "black:Science black:Cunning blue:Science" '
                   f'(1 to {POOL_LIMIT} dice).')
@tool_options
@click.option("--top", type=click.IntRange(1, None), default=None,
              help=f"How many options to list (default: {TEXT_TOP} in text, all in JSON).")
@exact_option
@force_option
@json_option
def best_move(need, dice_file, printed_faces, showing, sonic, rerolls, changes, top, exact, force,
              as_json) -> None:
    """The best next action and its chance in one line, then every option from the dice
    showing, with the tools left: its probability and regret."""
    start = time.perf_counter()
    game = load_game(dice_file)
    pool, counts = parse_showing(game, showing)
    adventure = solo_adventure(game, need, pool, sonic, rerolls, changes, printed_faces)
    report = finish(totd_report.best_move(adventure, (counts,), exact, force),
                    rules_of(dice_file, printed_faces), start)
    every = len(report["options"])
    report["options"] = report["options"][:top or (None if as_json else TEXT_TOP)]
    lines = [report["verdict"], "",
             f"Challenge {need_text(game, adventure.need)}; showing "
             f"{' '.join(report['showing'])}",
             f"tools left: {adventure.doctors[0].tools.text(game)}",
             *_probability_lines(report, exact, SUCCESS)]
    rows = [(i + 1, o["action"], o["tool"], _dice_text(o, report["met_on_stopping"]),
             f"{o['p_success']:.12f}", f"{o['regret']:.12f}")
            + ((o["p_success_exact"],) if exact else ())
            for i, o in enumerate(report["options"])]
    headers = ["#", "action", "tool", "dice", "P(met)", "regret"] + (["exact"] if exact else [])
    more = every - len(rows)
    note = [f"({more} more option{'s' * (more > 1)}: --top {every} lists them)"] if more else []
    emit(report, "\n".join([*lines, "", table(headers, rows), *note]), as_json)


def _dice_text(option: dict, met: bool) -> str:
    """The dice of an option; for stopping, the changes to make (or why it fails)."""
    if option["action"] == "stop":
        if not met:
            return "(Challenge not met)"
        return " ".join(option["changes"]) or "(met as shown)"
    if option["action"] == "discard a Black die":
        return f"the other {len(option['dice'])} dice"
    return " ".join(option["dice"])


@totd.command()
@game_options
@click.option("--add", "added", required=True,
              help='The Dice Add icons\' total, e.g. "black=6 blue=1" (within the supply).')
@click.option("--focus", "focuses", multiple=True,
              help=f'A Dice Focus icon: "blue", or a split icon "green/blue" (repeatable, at '
                   f'most {MAX_ICONS}).')
@daleks_option
@time_breach_options
@tool_options
@click.option("--top", type=click.IntRange(1, None), default=5, show_default=True,
              help="How many pools to list.")
@exact_option
@force_option
@json_option
def build(need, dice_file, printed_faces, added, focuses, daleks, time_breach, breach_alone,
          sonic, rerolls, changes, top, exact, force, as_json) -> None:
    """The best pool to roll: which Focus swaps to make and which dice to discard."""
    start = time.perf_counter()
    alone = breach_reading(time_breach, breach_alone)
    limit = alone_limit(time_breach, alone)
    game = load_game(dice_file)
    tools = make_tools(game, sonic, rerolls, changes)
    challenge = parse_challenge(game, need)
    report = finish(totd_report.build(game, challenge, parse_pool(game, added),
                                      parse_focuses(game, focuses), daleks, tools, printed_faces,
                                      exact, top, force, limit),
                    rules_of(dice_file, printed_faces, pool_limit=limit, time_breach=time_breach,
                             breach_alone=alone_limit(True, alone)), start)
    breach = f"; Time-Breach (a Doctor alone: {limit} dice)" if time_breach else ""
    lines = [f"Challenge {need_text(game, challenge)}; added "
             f"{_pool_words(game, report['added'])}; focus "
             f"{', '.join(report['focus']) or 'none'}; Daleks {daleks}; tools: "
             f"{tools.text(game)}{breach}",
             f"{report['pools_compared']} pools compared; best first:"]
    rows = [(i + 1, _pool_words(game, r["pool"]), ", ".join(r["swaps"]) or "-",
             _pool_words(game, r["discard"]), f"{r['p_success']:.12f}")
            + ((r["p_success_exact"],) if exact else ())
            for i, r in enumerate(report["options"])]
    headers = ["#", "pool to roll", "swaps", "discard", "P(met)"] + (["exact"] if exact else [])
    emit(report, "\n".join([*lines, "", table(headers, rows)]), as_json)


def _pool_words(game, pool: dict[str, int]) -> str:
    """A pool from a report ("black=6 blue=2", or "no dice")."""
    return pool_text(game, tuple(pool.values()))


@totd.command("help")
@game_options
@click.option("--me", required=True,
              help='The helped Doctor: gathered pool (after Focus, before discarding) and '
                   'tools, e.g. "black=6 blue=2; sonic 3; reroll 2 black; change '
                   'green:Diplomacy".')
@click.option("--helper", default="",
              help='The helping Doctor\'s tools, e.g. "sonic 2; reroll any red"; with '
                   '--helper-dice own also their own dice and Focus icons, e.g. "black=2 red=1; '
                   'focus blue; sonic 2".')
@click.option("--any-adventure", "shared", default="",
              help='"Any Adventure" card tools either Doctor may use, e.g. "reroll any green".')
@time_breach_options
@click.option("--helper-dice", type=click.Choice([SPLIT, OWN]), default=SPLIT,
              show_default=True,
              help="Reading: the helper rolls dice split from the helped Doctor's pool (split), "
                   "or gathers their own and discards to their own limit (own).")
@click.option("--sonic-on", type=click.Choice([OWN_POOL, EITHER_POOL]), default=OWN_POOL,
              show_default=True,
              help="Reading: a Doctor's Sonic tokens act on their own dice only (own), or on "
                   "either Doctor's (either).")
@daleks_option
@click.option("--call-with-sonic", is_flag=True,
              help="The helped Doctor pays the call with a Sonic token (one fewer to use).")
@exact_option
@force_option
@json_option
def help_command(need, dice_file, printed_faces, me, helper, shared, time_breach, breach_alone,
                 helper_dice, sonic_on, daleks, call_with_sonic, exact, force, as_json) -> None:
    """P(Challenge met) alone, with help from afar and with help at the location."""
    start = time.perf_counter()
    alone = breach_reading(time_breach, breach_alone)
    game = load_game(dice_file)
    helped, _ = parse_doctor(game, me)
    if not any(helped.pool):
        raise InputError("--me: the helped Doctor's pool has no dice")
    split = ("under --helper-dice split the helper's dice come from the helped Doctor's pool "
             "(or use --helper-dice own)")
    helping, focuses = parse_doctor(game, helper, no_dice=split if helper_dice == SPLIT else None,
                                    focus=helper_dice == OWN)
    any_adventure, _ = parse_doctor(game, shared, no_dice="Any Adventure cards bring no dice")
    adventure = Adventure(game, parse_challenge(game, need), (helped,), any_adventure.tools,
                          printed_faces, sonic_on)
    call = Call(helping, focuses, helper_dice, time_breach, alone, call_with_sonic, daleks)
    rules = rules_of(dice_file, printed_faces, time_breach=time_breach,
                     breach_alone=alone_limit(True, alone), helper_dice=helper_dice,
                     sonic_on=sonic_on, call_with_sonic=call_with_sonic)
    report = finish(totd_report.call_for_help(adventure, call, exact, force), rules, start)
    lines = [_help_header(game, adventure, call, rules)]
    rows = [(s["scenario"], _pool_words(game, s["helped_pool"]),
             _pool_words(game, s["helper_pool"]) if s["helper_limit"] else "-",
             f"{s['p_success']:.12f}") + ((s["p_success_exact"],) if exact else ())
            for s in report["scenarios"]]
    headers = ["", "helped Doctor rolls", "helper rolls", "P(met)"] + (["exact"] if exact else [])
    emit(report, "\n".join([*lines, "", table(headers, rows)]), as_json)


def _help_header(game, adventure: Adventure, call: Call, rules: dict) -> str:
    """The call in one line; readings other than the defaults are named."""
    helped = adventure.doctors[0]
    helper = call.helper.tools.text(game)
    if call.helper_dice == OWN:
        focus = "".join(f"; focus {'/'.join(game.colours[c] for c in f)}" for f in call.focuses)
        helper = f"own dice {pool_text(game, call.helper.pool)}{focus}; {helper}"
    readings = [("Time-Breach", call.time_breach),
                (f"Time-Breach alone: {rules['breach_alone']} dice", call.breach_alone),
                ("Sonic tokens on either pool", rules["sonic_on"] == EITHER_POOL),
                (f"Daleks {call.daleks}", call.daleks > 0)]
    return (f"Challenge {need_text(game, adventure.need)}; "
            f"helped Doctor {pool_text(game, helped.pool)} ({helped.tools.text(game)}); helper: "
            f"{helper}" + "".join(f"; {text}" for text, shown in readings if shown))


@totd.command("table")
@dice_file_option
@click.option("--out", type=OutputPath(directory=True), default="tables/time_of_the_daleks",
              show_default=True, help="Directory to write (its parent folder must exist).")
@json_option
def table_command(dice_file, out, as_json) -> None:
    """P(Challenge met) for common Challenges, pools and Sonic tokens, to CSV/JSON files."""
    start = time.perf_counter()
    manifest, summary = totd_report.write_tables(load_game(dice_file), Path(out),
                                                 command_line())
    report = {"out": out, "manifest": str(manifest), **summary,
              "sonic": list(totd_report.TABLE_SONIC),
              "timings": {"total": time.perf_counter() - start, "cached": False}}
    emit(report, f"wrote {out}: {summary['rows']} rows ({summary['challenges']} Challenges x "
                 f"{summary['pools']} pools x Sonic 0-5)\nmanifest: {manifest}", as_json)


@totd.command("rules")
@json_option
def rules_command(as_json) -> None:
    """Which tool to use next, as rules a player can learn: the best rule of each size, its
    exact chance of meeting the Challenge and its loss against perfect play (over a fixed set
    of Adventures)."""
    from solver.games.totd import rulecard, rulefamilies

    start = time.perf_counter()
    rows, cached = rulefamilies.learned()
    report = rulecard.report(rows) | {
        "timings": {"total": time.perf_counter() - start, "cached": cached}}
    lines = [f"Perfect play: P(Challenge met) {report['p_optimal']:.6f} on average over "
             f"{len(report['scenarios'])} Adventures (totd rules --json lists them).", ""]
    for row in report["frontier"]:
        lines.append(f"Size {row['size']}: P(met) {row['p_success']:.6f}, loses "
                     f"{row['loss']:.6f}")
        lines += [f"  - {line}" for line in row["rule"]]
    emit(report, "\n".join(lines), as_json)


@totd.command("card")
@card_option
@json_option
def card_command(out, as_json) -> None:
    """A strategy card: the best rule for which tool to use next, with its cost against
    perfect play in words."""
    from solver.cards import render
    from solver.formatting import exact_text
    from solver.games.totd import rulecard, rulefamilies

    start = time.perf_counter()
    rows, cached = rulefamilies.learned()
    card = rulecard.card(rows)
    render(card, Path(out))
    report = {"out": out, "rule": list(card.rule), "cost": card.cost,
              "p_success": float(rows[-1].value), "p_success_exact": exact_text(rows[-1].value),
              "loss": float(rows[-1].loss), "loss_exact": exact_text(rows[-1].loss),
              "timings": {"total": time.perf_counter() - start, "cached": cached}}
    emit(report, f"{out}: {card.rule[0]} ... {card.cost}", as_json)
