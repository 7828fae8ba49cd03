"""`dice-solver dalek ...`: Dalek Dice queries and tables."""

from __future__ import annotations

from pathlib import Path

import click

from solver.commands import FractionType, Progress, command_line, emit, json_option, table
from solver.errors import InputError
from solver.formatting import exact_texts, seats_text
from solver.games.dalek import report as dalek_report
from solver.games.dalek.race import DalekRace, solve_race
from solver.games.dalek.rules import (
    DEFAULT_DICE,
    DEFAULT_FACES,
    DEFAULT_TARGET,
    TIE_RULES,
    TurnState,
    parse_roll,
    parse_rules,
)
from solver.games.dalek.turn import check_position, compile_turn


def rules_options(command):
    """The die, the number of dice and the tie rule: shared by every Dalek Dice command."""
    command = click.option("--tie-rule", type=click.Choice(TIE_RULES), default="ge",
                           show_default=True,
                           help="ge: Daleks equal or exceed Humans; gt: strictly exceed.")(command)
    command = click.option("--dice", type=int, default=DEFAULT_DICE, show_default=True,
                           help="Number of dice.")(command)
    command = click.option("--die-file", type=str, default=None,
                           help="JSON/TOML file with `faces` (list, or face = weight).")(command)
    command = click.option("--faces", type=str, default=None,
                           help=f'The die, e.g. "{DEFAULT_FACES}" (FACE:WEIGHT allowed).')(command)
    return command


def race_options(command):
    """The race: players, target, what a tie is worth, and how to solve it."""
    for option in reversed([
        click.option("--players", type=int, default=None,
                     help="Number of players (default 2, or as many as --scores gives)."),
        click.option("--target", type=int, default=DEFAULT_TARGET, show_default=True,
                     help="The score that ends the game (the round is played out)."),
        click.option("--tie-value", type=FractionType(), default=None,
                     help="What a tie for first is worth to each tied seat (default 1/k)."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
        click.option("--no-cache", is_flag=True, help="Solve again instead of reading the cache."),
    ]):
        command = option(command)
    return command


def _race(faces, die_file, dice, tie_rule, players, target, tie_value, exact, quiet, no_cache):
    """Build and solve the race (from the cache when possible)."""
    players = 2 if players is None else players
    race = DalekRace(compile_turn(parse_rules(faces, die_file, dice, tie_rule)), players, target,
                     tie_value)
    progress = Progress(f"solving {players}-player race to {target}", quiet)
    try:
        return solve_race(race, exact=exact, progress=progress, use_cache=not no_cache)
    finally:
        progress.close()


A_HELP = "Seat 1's policy (it moves first)."
B_HELP = "Seat 2's policy."


@click.group()
def dalek() -> None:
    """Dalek Dice: keep Humans, keep enough Daleks, beware the Doctor."""


@dalek.command()
@rules_options
@click.option("--exact", is_flag=True, help="Also compute exact rational values.")
@click.option("--distribution", is_flag=True, help="Probability of every final score.")
@json_option
def turn(faces, die_file, dice, tie_rule, exact, distribution, as_json) -> None:
    """The value of a fresh turn played for the most expected points."""
    rules = parse_rules(faces, die_file, dice, tie_rule)
    summary = dalek_report.turn_summary(compile_turn(rules), exact, distribution)
    lines = [f"Dalek Dice, one turn ({rules.dice} dice: {' '.join(rules.die.faces)}; "
             f"tie rule {tie_rule}), optimal play for expected points",
             f"expected points   {summary['expected_points']:.12f}"]
    if exact:
        lines.append(f"  exactly         {summary['expected_points_exact']}")
    lines.append(f"P(score 0)        {summary['p_zero']:.12f}")
    if distribution:
        rows = [(s, f"{p:.12f}", summary.get("distribution_exact", {}).get(s, ""))
                for s, p in summary["distribution"].items()]
        headers = ["score", "probability"] + (["exact"] if exact else [])
        lines += ["", table(headers, [r[:len(headers)] for r in rows])]
    emit(summary, "\n".join(lines), as_json)


@dalek.command()
@rules_options
@race_options
@click.option("--exact", is_flag=True, help="Exact rationals (small targets and few dice only).")
@click.option("--head-starts", is_flag=True,
              help="Two players: seat 1's chances for each head start, and the fairest one.")
@json_option
def game(faces, die_file, dice, tie_rule, players, target, tie_value, quiet, no_cache, exact,
         head_starts, as_json) -> None:
    """Each seat's chance to win the race under optimal play."""
    values = _race(faces, die_file, dice, tie_rule, players, target, tie_value, exact, quiet,
                   no_cache)
    summary = dalek_report.game_summary(values)
    if head_starts:
        summary["head_starts"] = dalek_report.head_starts(values)
    rows = [(s["seat"], f"{s['p_win']:.10f}", f"{s['p_tie']:.10f}", f"{s['value']:.10f}")
            for s in summary["seats"]]
    lines = [f"Dalek Dice race to {target}, {summary['players']} players ({dice} dice: "
             f"{' '.join(summary['faces'])}; tie rule {tie_rule}; a tie is worth "
             f"{summary['tie_value']}), optimal play",
             table(["seat", "P(win alone)", "P(tie)", "value"], rows)]
    if exact:
        lines += [f"seat {s['seat']} value exactly {s['value_exact']}" for s in summary["seats"]]
    if head_starts:
        starts = summary["head_starts"]
        lines += ["", f"head start for seat 1 (seat 2 starts at 0); fairest: "
                      f"{starts['fairest']} points",
                  table(["head start", "seat 1 value"],
                        [(r["head_start"], f"{r['value_seat_1']:.6f}")
                         for r in starts["rows"]][:25])]
    timing = "read from the cache" if values.cached else f"{values.seconds['total']:.1f} s"
    lines.append(f"{summary['positions']} positions, {summary['components']} components, "
                 f"residual {summary['residual']:.2e}, {timing}")
    emit(summary, "\n".join(lines), as_json)


@dalek.command("best-move")
@rules_options
@click.option("--roll", "roll_text", required=True, help='The roll just made, e.g. "H4 H2 D3 DOC".')
@click.option("--humans", type=int, default=0, help="Humans kept before this roll.")
@click.option("--daleks", type=int, default=0, help="Daleks kept before this roll.")
@click.option("--doctors", type=int, default=0, help="Doctors kept before this roll.")
@click.option("--exterminates", type=int, default=0, help="Exterminates kept before this roll.")
@click.option("--scores", default=None,
              help="Every player's score in seat order (e.g. 12,40): value moves by win share.")
@click.option("--seat", type=int, default=1, show_default=True,
              help="The mover's seat (1 = first).")
@race_options
@click.option("--exact", is_flag=True, help="Also give exact rational values.")
@json_option
def best_move(faces, die_file, dice, tie_rule, roll_text, humans, daleks, doctors, exterminates,
              scores, seat, players, target, tie_value, quiet, no_cache, exact, as_json) -> None:
    """Every legal keep for a roll, with its value and regret, best first.

    Without --scores the value is expected points for this turn; with --scores it is the
    mover's share of the win in the race (a final-round position is one where a score has
    reached the target)."""
    rules = parse_rules(faces, die_file, dice, tie_rule)
    rolled = parse_roll(rules, roll_text)
    state = TurnState(sum(rolled), humans, daleks, doctors, exterminates)
    check_position(rules, state)
    if scores is None:
        report = dalek_report.best_move(compile_turn(rules), state, rolled, exact)
        unit = "expected points"
    else:
        numbers = _scores(scores)
        values = _race(faces, die_file, dice, tie_rule, players or len(numbers), target,
                       tie_value, exact, quiet, no_cache)
        position = values.race.check_position(numbers, seat - 1)
        report = dalek_report.race_best_move(values, position, state, rolled, exact)
        unit = f"P(win) for seat {seat}"
    lines = [f"Position: rolled {report['roll']}; before it: {state}",
             f"set aside: {report['set_aside']}"]
    if scores is not None:
        lines.insert(0, f"Race to {target}: scores {scores}, seat {seat} to move")
    if report["doctor_intervenes"]:
        lines.append("The Doctor intervenes: the turn is over with 0 points.")
    else:
        lines.append(f"value ({unit}): {report['value']:.12f}")
        rows = [(o["keep"], o["action"], f"{o['value']:.12f}", f"{o['regret']:.12f}")
                + ((o["value_exact"],) if exact else ()) for o in report["options"]]
        headers = ["keep", "then", unit, "regret"] + (["exact"] if exact else [])
        lines += ["", table(headers, rows)]
    emit(report, "\n".join(lines), as_json)


def _scores(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(s) for s in text.replace(" ", "").split(","))
    except ValueError:
        raise InputError(f"--scores takes whole numbers separated by commas, not {text!r}") \
            from None


@dalek.command("table")
@rules_options
@race_options
@click.option("--race", is_flag=True, help="The race table (implied by --players or --target).")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Directory to write (default tables/dalek_dice/turn or .../race_<N>p_<T>).")
def table_command(faces, die_file, dice, tie_rule, players, target, tie_value, quiet, no_cache,
                  race, out) -> None:
    """Write a strategy table with a manifest.

    The turn table: every state's expected points, stop-or-roll, the best keep for every roll.
    The race table (--players/--target/--race): every position's win probability, and what
    playing that turn for expected points instead would cost."""
    command = command_line()
    target_given = click.get_current_context().get_parameter_source("target").name != "DEFAULT"
    if not (race or players is not None or target_given):
        rules = parse_rules(faces, die_file, dice, tie_rule)
        folder = Path(out or "tables/dalek_dice/turn")
        manifest, summary = dalek_report.write_turn_tables(compile_turn(rules), folder, command)
        click.echo(f"wrote {folder}: {summary['states']} states, {summary['rolls']} (state, roll)"
                   f" pairs; expected points {summary['expected_points']}")
    else:
        values = _race(faces, die_file, dice, tie_rule, players, target, tie_value, False, quiet,
                       no_cache)
        folder = Path(out or f"tables/dalek_dice/race_{values.race.players}p_{target}")
        manifest, summary = dalek_report.write_race_tables(values, folder, command)
        click.echo(f"wrote {folder}: {summary['positions']} positions; points play loses win "
                   f"probability in {summary['positions_where_points_play_loses']} of them "
                   f"(largest loss {summary['largest_regret']:.4f})")
    click.echo(f"manifest: {manifest}")


@dalek.command()
@rules_options
@race_options
@click.option("--out", type=click.Path(dir_okay=False), default="dalek_race.png",
              show_default=True, help="PNG file to write.")
def plot(faces, die_file, dice, tie_rule, players, target, tie_value, quiet, no_cache,
         out) -> None:
    """A PNG of the two-player race: win probability over (my score, opponent's score), and
    where playing to win differs from playing for points (needs the [plot] extra)."""
    from solver.games.dalek.plot import plot_race

    values = _race(faces, die_file, dice, tie_rule, players, target, tie_value, False, quiet,
                   no_cache)
    click.echo(f"wrote {plot_race(values, Path(out))}")


@dalek.command("duel")
@rules_options
@click.option("--a", "first", default="win", show_default=True,
              help=A_HELP + ' win (or optimal): optimal for winning against the other seat; '
              'points; "keep-daleks K" (alias "hold K"); a policy table (table:FILE).')
@click.option("--b", "second", default="points", show_default=True, help=B_HELP)
@click.option("--target", type=click.IntRange(1), default=DEFAULT_TARGET, show_default=True)
@click.option("--exact", is_flag=True,
              help="Exact rationals (small targets and few dice only).")
@json_option
def duel(faces, die_file, dice, tie_rule, first, second, target, exact, as_json) -> None:
    """Two Dalek Dice policies race each other: each seat's chance to win.

    A fixed policy plays the same turn whatever the score; "win" plays each turn for its
    share of the win against the other seat (both "win": the game of `dalek game`)."""
    from solver.games.dalek import policies as dp

    rules = parse_rules(faces, die_file, dice, tie_rule)
    pairs = dp.Pairs.of(compile_turn(rules))
    policies = (dp.parse_policy(first, pairs, duel=True),
                dp.parse_policy(second, pairs, duel=True))
    duel = dp.solve_duel(pairs, policies, target, exact=exact)
    seats = duel.chances()
    names = [p.name for p in policies]
    points = [f"{float(sum(s * q for s, q in enumerate(dp.distribution(p)))):.6f}"
              if isinstance(p, dp.TurnPolicy) else "-" for p in policies]
    for seat, name in zip(seats, names):
        seat["policy"] = name
    title = (f"Dalek Dice duel to {target} ({rules.dice} dice: {' '.join(rules.die.faces)}; "
             f"tie rule {rules.tie_rule}): seat 1 moves first")
    data = {"target": target, "seats": exact_texts(seats),
            "residual": duel.values.residual, "positions": len(duel.values.index)}
    emit(data, seats_text(title, names, exact_texts(seats), points), as_json)
