"""`dice-solver dalek ...`: Dalek Dice queries and tables.

Every command reads its input in two steps before any work: the parameter types (bounds, files,
policy names), then one validation of the request as a whole (the die, the position, the
options that go together); each solve is refused first when its estimated cost is past the
budget (`cost`)."""

from __future__ import annotations

import functools
import time
from dataclasses import replace
from pathlib import Path

import click

from solver.commands import (
    FractionType,
    InputPath,
    OutputPath,
    card_option,
    command_line,
    emit,
    engine_options,
    json_option,
    no_cache_option,
    remembered,
    solving,
    table,
)
from solver.engine.solving import Solving
from solver.errors import InputError, brief
from solver.formatting import exact_texts, seats_text
from solver.games.dalek import answers, cost
from solver.games.dalek import report as dalek_report
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import (
    DalekRace,
    Position,
    RaceValues,
)
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.rules import (
    DEFAULT_DICE,
    DEFAULT_FACES,
    DEFAULT_TARGET,
    MAX_DICE,
    MAX_FACES,
    MAX_PLAYERS,
    MAX_TARGET,
    MAX_VALUE,
    MAX_WEIGHT,
    TIE_RULES,
    Rules,
    TurnState,
)
from solver.games.dalek.turn import compile_turn, validate_position
from solver.games.dalek.typed import kept_state, parse_dice, parse_roll
from solver.limits import duration
from solver.opponents import KNOWING, PERFECT
from solver.progress import Progress
from solver.tables import FORMATS, check_parquet

FORCE_HELP = ("Run it even if it is estimated to take longer than the time budget "
              "($DICE_SOLVER_BUDGET seconds, default 2 h); the memory limit always holds.")


def rules_options(command):
    """The die, the number of dice, the tie rule and --force: shared by every Dalek Dice
    command, which receives them read and validated as `rules` (and `force`)."""
    @functools.wraps(command)
    def read(*args, faces, die_file, dice, tie_rule, **kwargs):
        return command(*args, rules=parse_rules(faces, die_file, dice, tie_rule), **kwargs)

    for option in reversed([
        click.option("--faces", type=str, default=None,
                     help=f'The die, e.g. "{DEFAULT_FACES}": H<n> (a Human worth n), D<n> (a '
                          f'Dalek worth n; n from 1 to {MAX_VALUE}), DOC, EXT; FACE:W for a '
                          f'face on W sides (W up to {MAX_WEIGHT}); at most {MAX_FACES} '
                          f'different faces.'),
        click.option("--die-file", type=InputPath(), default=None,
                     help="JSON or TOML file (by its name; - for JSON on standard input) with "
                          "`faces`: a list of faces, or a table of face = weight."),
        click.option("--dice", type=click.IntRange(1, MAX_DICE), default=DEFAULT_DICE,
                     show_default=True, help=f"Number of dice (1 to {MAX_DICE})."),
        click.option("--tie-rule", type=click.Choice(TIE_RULES), default="ge",
                     show_default=True,
                     help="ge: Daleks equal or exceed Humans; gt: strictly exceed."),
        click.option("--force", is_flag=True, help=FORCE_HELP),
    ]):
        read = option(read)
    return read


def race_options(command):
    """The race: players, target, what a tie is worth, and how to solve it."""
    for option in reversed([
        click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
                     help=f"Number of players, 2 to {MAX_PLAYERS} (default 2, or as many as "
                          f"--scores gives); a race too large to solve is refused with its "
                          f"estimate."),
        click.option("--target", type=click.IntRange(1, MAX_TARGET), default=DEFAULT_TARGET,
                     show_default=True,
                     help=f"The score that ends the game (the round is played out; 1 to "
                          f"{MAX_TARGET})."),
        click.option("--tie-value", type=FractionType(), default=None,
                     help="What a tie for first is worth to each tied seat (default 1/k)."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
        no_cache_option,
        *engine_options("dalek", "levels unless --exact, a tie broken by another seat, or a seat "
                                  "that does not play to win; else cyclic"),
        click.option("--race-file", type=InputPath(), default=None, expose_value=False,
                     callback=remembered("dalek"),
                     help="Answer from this race file (`dalek race-file` writes one) instead "
                          "of solving: it must hold exactly this race (rules, players, target, "
                          "tie value, engine), else the command is refused."),
    ]):
        command = option(command)
    return command


class PolicyName(click.ParamType):
    """A policy's name (`policies.read_policy_name`), validated when the command line is read: a
    policy table's file must exist and be readable. The name itself is passed on."""

    name = "policy"

    def convert(self, value, param, ctx):
        from solver.games.dalek.policies import TABLE, read_policy_name

        try:
            kind, path = read_policy_name(str(value), duel=True)
        except InputError as error:
            self.fail(str(error), param, ctx)
        if kind == TABLE:
            InputPath().convert(path, param, ctx)
        return str(value)


MAX_SCORE = 10 ** 6  # past any score a game gives (a target of 1000 plus a turn's best)


class Scores(click.ParamType):
    """Every player's score in seat order, "12,40"."""

    name = "scores"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        words = str(value).replace(" ", "").split(",")
        if not all(w.isascii() and w.isdigit() for w in words):
            self.fail(f"write whole numbers from 0 up separated by commas (12,40), not "
                      f"{brief(str(value))}", param, ctx)
        if any(len(w) > len(str(MAX_SCORE)) for w in words):
            self.fail(f"a score is at most {MAX_SCORE:,}, not {brief(str(value))}", param, ctx)
        if not 2 <= len(words) <= MAX_PLAYERS:
            self.fail(f"give 2 to {MAX_PLAYERS} scores, one per player, not {len(words)}",
                      param, ctx)
        return tuple(int(w) for w in words)


def _race(rules: Rules, players: int, target: int, tie_value, force: bool) -> DalekRace:
    """The race, not solved yet (its turn compiled, from the cache when possible)."""
    return DalekRace(compile_turn(rules, force=force), players, target, tie_value)


def _race_position(rules: Rules, scores: tuple[int, ...], seat: int, players: int | None,
                   target: int, tie_value, force: bool) -> tuple[DalekRace, Position]:
    """The race a --scores position belongs to (as many players as scores), and the position
    with `seat` (as players count them) to move, validated."""
    players = len(scores) if players is None else players
    if players != len(scores):
        raise InputError(f"--scores gives {len(scores)} scores but --players is {players}")
    race = _race(rules, players, target, tie_value, force)
    return race, race.check_position(scores, seat - 1)


def engine_for(race: DalekRace, exact: bool) -> Solving:
    """How to solve this race as the command line asks (--engine, --checkpoint, --ray,
    --race-file): auto is the level engine (the faster one) for seats that all play to win, in
    float64, with ties broken as it breaks them."""
    how = solving("dalek", exact, not race.seat_locals and race.tie_break == "first")
    file = click.get_current_context().meta.get("dalek.race_file")
    if file is not None and how.checkpoint is not None:
        raise InputError("--race-file answers from the file, solving nothing: drop --checkpoint")
    return replace(how, values=None if file is None else Path(file))


def solved(race: DalekRace, exact: bool, quiet: bool, no_cache: bool, force: bool,
           position: Position | None = None) -> RaceValues:
    """The race solved (read from the cache when possible), unless its cost is refused; for a
    `position` to be read, maybe only the part of the race from it (`solve_race`'s part)."""
    how = engine_for(race, exact)
    with Progress(f"solving {race.players}-player race to {race.target}", quiet) as progress:
        return solve_race(race, exact=exact, use_cache=not no_cache, force=force, solving=how,
                          progress=progress if how.engine == "levels" else progress.steps,
                          part=position)


def shipped_text(made: dict) -> str:
    """Where values read from the package's shipped solve (or a race file) came from."""
    where = f"race file {made['file']}" if "file" in made else "the solve shipped with the package"
    commit = made["commit"][:12] + made["commit"][40:]  # a full hash, then what made_now adds
    return f"read from {where} (solved {made['date']}, commit {commit})"


def _timings(clock: float, cached: bool) -> dict:
    return {"total": time.perf_counter() - clock, "cached": cached}


def given(*names: str) -> list[str]:
    """The options among `names` (parameter names) that the user set, as they are typed."""
    context = click.get_current_context()
    flags = {param.name: param.opts[0] for param in context.command.params}
    return [flags[n] for n in names if context.get_parameter_source(n).name != "DEFAULT"]


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
def turn(rules, force, exact, distribution, as_json) -> None:
    """The value of a fresh turn played for the most expected points."""
    clock = time.perf_counter()
    summary, cached = answers.turn_summary(rules, exact, distribution, force)
    summary["timings"] = _timings(clock, cached)
    lines = [f"Dalek Dice, one turn ({rules.dice} dice: {rules.label}; tie rule "
             f"{rules.tie_rule}), optimal play for expected points",
             f"expected points   {summary['expected_points']:.12f}"]
    if exact:
        lines.append(f"  exactly         {summary['expected_points_exact']}")
    lines.append(f"P(score 0)        {summary['p_zero']:.12f}")
    if distribution:
        rows = [(row["score"], f"{row['probability']:.12f}", row.get("probability_exact", ""))
                for row in summary["distribution"]]
        headers = ["score", "probability"] + (["exact"] if exact else [])
        lines += ["", table(headers, [r[:len(headers)] for r in rows])]
    emit(summary, "\n".join(lines), as_json)


@dalek.command()
@rules_options
@race_options
@click.option("--exact", is_flag=True, help="Exact rationals (small targets and few dice only).")
@click.option("--head-starts", is_flag=True,
              help="The fairest head starts: the points each seat but the last starts with "
                   "(the last none) that bring the seats' win shares closest to equal, valued "
                   "from the race's solve; the fairest few with every seat's share.")
@click.option("--scores", type=Scores(), default=None,
              help="A position instead of the start: every player's score in seat order (e.g. "
                   "30,42,12), with --seat to move. Where the whole race is not stored and is "
                   "over the time budget, only the part of the race from it is solved (the "
                   "same values).")
@click.option("--seat", type=click.IntRange(1, MAX_PLAYERS), default=1, show_default=True,
              help="The seat to move in the --scores position.")
@click.option("--paranoid", is_flag=True,
              help="Also each seat's paranoid value: its win share when all the other seats "
                   "play against it (what it is sure of whatever they do; a solve per seat).")
@json_option
def game(rules, force, players, target, tie_value, quiet, no_cache, exact, head_starts, scores,
         seat, paranoid, as_json) -> None:
    """Each seat's chance to win the race under optimal play (its win share: a tie for first
    among k seats counts 1/k, or --tie-value), from the start or from a --scores position (read
    from the cache when that race was solved before). With 3 or more players, where pure best
    responses cycle the movers mix turn policies (listed in --json)."""
    clock = time.perf_counter()
    seats = players or (2 if scores is None else len(scores))
    if head_starts and scores is not None:
        raise InputError("--head-starts values the race from the start: drop --scores")
    if scores is None:
        if given("seat"):
            raise InputError("--seat is the seat to move in a --scores position: give --scores")
        race = _race(rules, seats, target, tie_value, force)
        position = race.start()
    else:
        race, position = _race_position(rules, scores, seat, players, target, tie_value, force)
    part = None if scores is None else position
    values = solved(race, exact, quiet, no_cache, force, part)
    summary = dalek_report.game_summary(values, position)
    if head_starts:
        summary["head_starts"] = dalek_report.head_starts(values)
    if paranoid:
        against = [solved(replace(race, against=k), exact, quiet, no_cache, force, part)
                   for k in range(race.players)]
        summary["paranoid"] = dalek_report.paranoid(against, position)
    summary["timings"] = _timings(clock, values.cached and all(
        v.cached for v in (against if paranoid else [])))
    emit(summary, _game_text(values.race, summary, exact), as_json)


def _game_text(race: DalekRace, summary: dict, exact: bool) -> str:
    rows = [(s["seat"], f"{s['p_win']:.10f}", f"{s['p_tie']:.10f}", f"{s['value']:.10f}")
            for s in summary["seats"]]
    headers = ["seat", "P(win alone)", "P(tie)", "win share"]
    if "paranoid" in summary:
        headers.append("paranoid")
        rows = [(*row, f"{p['value']:.10f}") for row, p in zip(rows, summary["paranoid"])]
    tie = "1/k" if race.tie_value is None else summary["rules"]["tie_value_exact"]
    where = summary["position"]
    start = "" if where["start"] else \
        f", from scores {','.join(map(str, where['scores']))} with seat {where['seat']} to move"
    lines = [f"Dalek Dice race to {race.target}, {race.players} players ({race.turn.rules.dice} "
             f"dice: {race.turn.rules.label}; tie rule {race.turn.rules.tie_rule}; a tie is "
             f"worth {tie}), optimal play{start}",
             table(headers, rows)]
    if exact:
        lines += [f"seat {s['seat']} win share exactly {s['value_exact']}"
                  for s in summary["seats"]]
        lines += [f"seat {p['seat']} paranoid value exactly {p['value_exact']}"
                  for p in summary.get("paranoid", [])]
    if "head_starts" in summary:
        lines += ["", *_head_starts_text(summary["head_starts"], race.players)]
    timing = shipped_text(summary["shipped"]) if "shipped" in summary else \
        "read from the cache" if summary["timings"]["cached"] else \
        f"{summary['timings']['total']:.1f} s"
    if "mixed" in summary:
        count = len(summary["mixed"])
        lines.append(f"mixed play at {count} position{'s' * (count != 1)} (where pure best "
                     f"responses cycle; --json lists them)" if count else
                     "no mixed play: pure best responses settle at every position")
    part = "" if "part" not in summary else \
        f" (only the part of the race from scores {','.join(map(str, summary['part']))}: " \
        "the whole race is over the time budget)"
    lines.append(f"{summary['positions']} positions{part}, {summary['components']} components, "
                 f"residual {summary['residual']:.2e}, {summary['engine']} engine, {timing}")
    return "\n".join(lines)


def _head_starts_text(starts: dict, players: int) -> list[str]:
    fairest = starts["fairest"]
    return [f"fairest head starts (points each seat starts with; the last seat none): "
            f"{', '.join(map(str, fairest['head_starts']))} (win shares "
            f"{', '.join(f'{v:.4f}' for v in fairest['values'])}); the "
            f"{len(starts['rows'])} fairest of {starts['candidates']:,} starts:",
            table(["head starts", *(f"seat {s + 1}" for s in range(players)),
                   "largest deviation"],
                  [(",".join(map(str, r["head_starts"])), *(f"{v:.6f}" for v in r["values"]),
                    f"{r['largest_deviation']:.6f}") for r in starts["rows"]])]


TEXT_TOP = 8  # options best-move lists for people unless --top says otherwise
SUMS = ("humans", "daleks", "doctors", "exterminates")  # the kept dice as sums


@dalek.command("best-move")
@rules_options
@click.option("--roll", "roll_text", required=True,
              help='The roll just made, e.g. "2x H4 H2 D3 Doctor" (names: H4 or Human 4, D3 or '
                   'Dalek 3, DOC or Doctor, EXT or Exterminate; any case; a count before or '
                   'after a face).')
@click.option("--kept", "kept_text", default=None,
              help='The dice set aside before this roll, e.g. "H4 H2 D3 DOC" (as --roll reads '
                   'them): every die of the game not rolled. Or give them as sums:')
@click.option("--humans", type=int, default=0, help="Humans kept before this roll (0 or more).")
@click.option("--daleks", type=int, default=0, help="Daleks kept before this roll (0 or more).")
@click.option("--doctors", type=int, default=0, help="Doctors kept before this roll (0 to 2).")
@click.option("--exterminates", type=int, default=0,
              help="Exterminates kept before this roll (0 to 2).")
@click.option("--scores", type=Scores(), default=None,
              help=f"Every player's score in seat order (e.g. 12,40; 2 to {MAX_PLAYERS} "
                   f"players): value moves by win share (as dalek game --scores solves it).")
@click.option("--seat", type=click.IntRange(1, MAX_PLAYERS), default=1, show_default=True,
              help="The mover's seat (1 = first; with --scores).")
@race_options
@click.option("--top", type=click.IntRange(1, None), default=TEXT_TOP, show_default=True,
              help="How many options the text lists (JSON lists them all).")
@click.option("--exact", is_flag=True, help="Also give exact rational values.")
@json_option
def best_move(rules, force, roll_text, kept_text, humans, daleks, doctors, exterminates, scores,
              seat, players, target, tie_value, quiet, no_cache, top, exact, as_json) -> None:
    """The best move for a roll in one line, then every legal keep with its value and regret,
    best first.

    Without --scores the value is expected points for this turn; with --scores it is the
    mover's win share in the race (the "win chance": a tie for first among k seats counts
    1/k, or --tie-value; a final-round position is one where a score has reached the target)."""
    clock = time.perf_counter()
    rolled = parse_roll(rules, roll_text)
    if kept_text is None:
        state = TurnState(sum(rolled), humans, daleks, doctors, exterminates)
    elif sums := given(*SUMS):
        raise InputError(f"give the dice kept before as --kept or as sums ({', '.join(sums)}), "
                         f"not both")
    else:
        state = kept_state(rules, parse_dice(rules, kept_text, "dice kept"), rolled)
    validate_position(rules, state)
    if scores is None:
        race_only = given("seat", "players", "target", "tie_value")
        if race_only:
            raise InputError(f"{', '.join(race_only)} describe a race position: give "
                             f"--scores too")
        values, cached = answers.points_values(rules, exact, force)
        report = dalek_report.best_move(values, state, rolled, exact)
    else:
        race, position = _race_position(rules, scores, seat, players, target, tie_value,
                                        force)
        values = solved(race, exact, quiet, no_cache, force, position)
        report = dalek_report.race_best_move(values, position, state, rolled, exact)
        cached = values.cached
    report["timings"] = _timings(clock, cached)
    emit(report, _best_move_text(report, state, exact, top), as_json)


def _best_move_text(report: dict, state: TurnState, exact: bool, top: int) -> str:
    unit = report["objective"]
    position = report["position"]
    lines = [report["verdict"], "",
             f"Position: rolled {' '.join(report['roll'])}; before it: {state}",
             f"set aside: {' '.join(report['set_aside']) or 'nothing'}"]
    if position["scores"] is not None:
        lines.insert(2, f"Race to {report['rules']['target']}: scores "
                        f"{','.join(map(str, position['scores']))}, seat {position['seat']} "
                        f"to move")
        unit = f"win share for seat {position['seat']}"
    if report["doctor_intervenes"]:
        return "\n".join(lines)
    lines.append(f"value ({unit}): {report['value']:.12f}")
    rows = [(" ".join(o["keep"]) or "-", o["action"], f"{o['value']:.12f}",
             f"{o['regret']:.12f}") + ((o["value_exact"],) if exact else ())
            for o in report["options"][:top]]
    headers = ["keep", "then", unit, "regret"] + (["exact"] if exact else [])
    every = len(report["options"])
    more = [f"... {every - top} more: --top {every}"] if every > top else []
    return "\n".join([*lines, "", table(headers, rows), *more])


@dalek.command("table")
@rules_options
@race_options
@click.option("--race", is_flag=True, help="The race table (implied by --players or --target).")
@click.option("--out", type=OutputPath(directory=True), default=None,
              help="Folder to write, made if missing in an existing folder (default "
                   "tables/dalek_dice/turn or .../race_<N>p_<T>).")
@click.option("--format", "form", type=click.Choice(FORMATS), default="csv", show_default=True,
              help="csv: each table as CSV and JSON; parquet: one Parquet file each (typed "
                   "columns, for tables of millions of rows; needs pyarrow: pip install "
                   "'dice-solver[parquet]').")
@click.option("--contrast/--no-contrast", default=None,
              help="Race table: add (or leave out) what playing each turn for points would "
                   "cost (three turn passes a position: most of the time for 3 or more "
                   "players, so left out for them unless asked for; kept for 2).")
@json_option
def table_command(rules, force, players, target, tie_value, quiet, no_cache, race, out, form,
                  contrast, as_json) -> None:
    """Write a strategy table with a manifest.

    The turn table: every state's expected points, stop-or-roll, the best keep for every roll.
    The race table (--players/--target/--race): every position's win probability, and (2
    players, or --contrast) what playing that turn for expected points instead would cost."""
    clock = time.perf_counter()
    command = command_line()
    if form == "parquet":
        try:
            check_parquet()
        except ValueError as error:
            raise InputError(str(error)) from None
    if not (race or given("players", "target")):
        if contrast is not None:
            raise InputError("--contrast and --no-contrast are for the race table: add "
                             "--players or --target")
        folder = _folder(out, "tables/dalek_dice/turn")
        compiled = compile_turn(rules, force=force)
        cost.check_turn(compiled, force, exact=1)
        manifest, summary = dalek_report.write_turn_tables(compiled, folder, command, form)
        data = dalek_report.turn_table_data(compiled, summary)
        text = (f"wrote {folder}: {summary['states']} states, {summary['rolls']} (state, roll)"
                f" pairs; expected points {summary['expected_points']}")
        cached = False
    else:
        data, text, cached, folder, manifest = _race_table(
            rules, force, players, target, tie_value, quiet, no_cache, out, form, contrast,
            command)
    data.update(out=str(folder), manifest=str(manifest), timings=_timings(clock, cached))
    emit(data, f"{text}\nmanifest: {manifest}", as_json)


def _race_table(rules, force, players, target, tie_value, quiet, no_cache, out, form, contrast,
                command) -> tuple[dict, str, bool, Path, Path]:
    """The race table written (see table_command): its JSON data, its line for people, whether
    the values were read rather than solved, the folder and the manifest."""
    players = 2 if players is None else players
    folder = _folder(out, f"tables/dalek_dice/race_{players}p_{target}")
    racing = _race(rules, players, target, tie_value, force)
    values = solved(racing, False, quiet, no_cache, force)
    contrast = players == 2 if contrast is None else contrast
    left_out = None
    if contrast:
        cost.check_contrast(racing, len(values.index), force)
    else:
        seconds = cost.contrast_seconds(racing, len(values.index))
        left_out = f"left out (about {duration(seconds)} here; --contrast adds it)"
    manifest, summary = dalek_report.write_race_tables(values, folder, command, contrast, form,
                                                       left_out)
    data = dalek_report.race_table_data(racing, summary)
    text = f"wrote {folder}: {summary['positions']} positions, every seat's chances"
    if contrast:
        text += (f"; points play loses win probability in "
                 f"{summary['positions_where_points_play_loses']} of them (largest loss "
                 f"{summary['largest_regret']:.4f})")
    else:
        text += f"; what points play would cost: {left_out}"
    if values.shipped is not None:
        data["shipped"] = values.shipped
        text += f"; values {shipped_text(values.shipped)}"
    return data, text, values.cached, folder, manifest


@dalek.command("race-file")
@rules_options
@race_options
@click.option("--out", required=True, type=OutputPath(),
              help="The file to write (checked before any solve).")
@json_option
def race_file_command(rules, force, players, target, tie_value, quiet, no_cache, out,
                      as_json) -> None:
    """Write a solved race's values as one file that --race-file reads back.

    Every seat's values at every position, and where play mixes, in the format the package
    ships its races in: a race that takes hours to solve (4 players to 60) answers at once from
    the file, on any machine and whatever code reads it, for exactly the race it holds. The
    race is solved first as `dalek game` solves it (or read from the cache, a --checkpoint,
    a shipped solve)."""
    from solver.games.dalek import shipped
    from solver.games.dalek.shipping import made_now

    clock = time.perf_counter()
    race = _race(rules, players or 2, target, tie_value, force)
    values = solved(race, False, quiet, no_cache, force)
    size = shipped.write(values, Path(out), made_now())
    summary = {"rules": dalek_report.race_data(race), "file": out, "bytes": size,
               "positions": len(values.index), "engine": values.engine,
               "residual": values.residual, "timings": _timings(clock, values.cached)}
    emit(summary, f"wrote {out}: {len(values.index):,} positions of the {race.players}-player "
                  f"race to {race.target} ({values.engine} engine, residual "
                  f"{values.residual:.2e}), {size:,} bytes", as_json)


def _folder(out: str | None, default: str) -> Path:
    """The folder to write: --out (validated as it was read) or the default, validated now."""
    from solver.tables import writable

    if out is not None:
        return Path(out)
    try:
        return writable(default, directory=True)
    except ValueError as error:
        raise InputError(f"cannot write the table to {default}: {error} (or give --out)") \
            from None


def _png(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if not value.lower().endswith(".png"):
        raise click.BadParameter(f"the plot is a PNG: give a file name ending in .png, not "
                                 f"{brief(value)}", ctx, param)
    return value


@dalek.command()
@rules_options
@race_options
@click.option("--out", type=OutputPath(), default="dalek_race.png", callback=_png,
              show_default=True, help="PNG file to write (its folder must exist).")
@json_option
def plot(rules, force, players, target, tie_value, quiet, no_cache, out, as_json) -> None:
    """A PNG of the two-player race: win share over (my score, opponent's score), and
    where playing to win differs from playing for points (needs the [plot] extra)."""
    from solver.games.dalek.plot import plot_race, pyplot

    clock = time.perf_counter()
    if players not in (None, 2):
        raise InputError(f"the plot is drawn for two players, not {players}")
    pyplot()  # matplotlib is there, before the solve
    race = _race(rules, 2, target, tie_value, force)
    values = solved(race, False, quiet, no_cache, force)
    cost.check_contrast(race, target * target, force)
    path = plot_race(values, Path(out))
    data = {"rules": dalek_report.race_data(race), "out": str(path),
            "timings": _timings(clock, values.cached)}
    emit(data, f"wrote {path}", as_json)


@dalek.command("duel")
@rules_options
@click.option("--a", "first", type=PolicyName(), default="win", show_default=True,
              help=A_HELP + ' win (or optimal): optimal for winning against the other seat; '
              'points; "keep-daleks K" (alias "hold K"); a policy table (table:FILE).')
@click.option("--b", "second", type=PolicyName(), default="points", show_default=True,
              help=B_HELP)
@click.option("--target", type=click.IntRange(1, MAX_TARGET), default=DEFAULT_TARGET,
              show_default=True, help=f"The race's target (1 to {MAX_TARGET}).")
@click.option("--exact", is_flag=True,
              help="Exact rationals (small targets and few dice only).")
@json_option
def duel(rules, force, first, second, target, exact, as_json) -> None:
    """Two Dalek Dice policies race each other: each seat's chance to win.

    A fixed policy plays the same turn whatever the score; "win" plays each turn for its
    share of the win against the other seat (both "win": the game of `dalek game`)."""
    from solver.games.dalek import arrays, duels
    from solver.games.dalek import policies as dp

    clock = time.perf_counter()
    compiled = compile_turn(rules, force=force)
    fixed = [dp.read_policy_name(p, duel=True)[0] != dp.WIN.name for p in (first, second)]
    cost.check_turn(compiled, force, policies=2 * sum(fixed))  # each played twice
    pairs = arrays.Pairs.of(compiled)
    policies = (dp.parse_policy(first, pairs, duel=True),
                dp.parse_policy(second, pairs, duel=True))
    duel = duels.solve_duel(pairs, policies, target, exact=exact, force=force)
    seats = exact_texts(duel.chances())
    names = [p.name for p in policies]
    points = [float(sum(s * q for s, q in enumerate(dp.distribution(p))))
              if isinstance(p, dp.TurnPolicy) else None for p in policies]
    for seat, name, expected in zip(seats, names, points):
        seat.update(policy=name, expected_points=expected)
    title = (f"Dalek Dice duel to {target} ({rules.dice} dice: {rules.label}; tie rule "
             f"{rules.tie_rule}): seat 1 moves first")
    data = {"rules": dalek_report.race_data(duel.race), "seats": seats,
            "residual": duel.values.residual, "positions": len(duel.values.index),
            "timings": _timings(clock, duel.values.cached)}
    emit(data, seats_text(title, names, seats, ["-" if p is None else f"{p:.6f}"
                                                for p in points]), as_json)


# ---- rules a person can remember (issue 15) -----------------------------------------------
def _learned(rules, force):
    """The turn's pairs and the frontier of remembered rules (from the cache when found)."""
    from solver.games.dalek import rulefamilies
    from solver.games.dalek.arrays import Pairs

    pairs = Pairs.of(compile_turn(rules, force=force))
    rows, cached = rulefamilies.learned(pairs, force)
    return pairs, rows, cached


def _race_learned(rules, target, force):
    """The race frontier to `target` on the one-turn frontier's rules (each from the cache
    when found), and optimal play's first-seat share."""
    from solver.games.dalek import racefamilies

    pairs, bases, turn_cached = _learned(rules, force)
    rows, cached = racefamilies.learned(pairs, bases, target, force)
    return rows, racefamilies.optimal_first(pairs, target), cached and turn_cached


def race_rule_options(command):
    """--race and its target: the two-player race's rules instead of one turn's."""
    for option in reversed([
        click.option("--race", is_flag=True,
                     help="The 2-player race's rules (their threshold follows the scores) "
                          "against a perfect opponent, instead of one turn's (implied by "
                          "--target)."),
        click.option("--target", type=click.IntRange(1, MAX_TARGET), default=DEFAULT_TARGET,
                     show_default=True, help=f"The race's target (1 to {MAX_TARGET})."),
    ]):
        command = option(command)
    return command


@dalek.command("rules")
@rules_options
@race_rule_options
@json_option
def rules_command(rules, force, race, target, as_json) -> None:
    """One turn, as rules a player can remember: the best rule of each size (how many numbers
    to remember, from "keep the Daleks, stop at T"), its exact expected points, its loss
    against perfect play and its chance of scoring nothing.

    --race: the 2-player race to --target: on each of those rules, the best threshold a, and
    a + b/10 x (their score - yours), with "roll until past them" in the final round; each
    valued against a perfect opponent (both seats), against an opponent who knows your rule,
    and against itself. The search takes tens of minutes at 60 (then cached)."""
    from solver.games.dalek import rulecard

    clock = time.perf_counter()
    if race or given("target"):
        rows, first, cached = _race_learned(rules, target, force)
        report = {"rules": dalek_report.rules_data(rules)} | rulecard.race_report(
            rules, rows, first, target) | {"timings": _timings(clock, cached)}
        lines = [f"Dalek Dice race to {target}, 2 players ({rules.dice} dice: {rules.label}; tie "
                 f"rule {rules.tie_rule}): against {PERFECT} (perfect play wins "
                 f"{100 * first:.2f}% going first, {100 * (1 - first):.2f}% second, 50 games in "
                 f"100)", ""]
        for row in report["frontier"]:
            lines.append(f"Size {row['size']}: wins {100 * row['p_first']:.2f}% first, "
                         f"{100 * row['p_second']:.2f}% second: {100 * row['p_mean']:.2f} games "
                         f"in 100 (loses {100 * row['loss']:.2f}); against {KNOWING}: "
                         f"{100 * row['p_beaten_mean']:.2f}; against itself first "
                         f"{100 * row['p_self_first']:.2f}%")
            lines += [f"  - {line}" for line in row["rule"]]
        emit(report, "\n".join(lines), as_json)
        return
    pairs, rows, cached = _learned(rules, force)
    report = {"rules": dalek_report.rules_data(rules)} | rulecard.report(pairs, rows) | {
        "timings": _timings(clock, cached)}
    lines = [f"Dalek Dice, one turn ({rules.dice} dice: {rules.label}; tie rule "
             f"{rules.tie_rule}): perfect play scores {report['expected_points_optimal']:.6f} "
             f"points, nothing {100 * report['p_zero_optimal']:.1f}% of the time.", ""]
    for row in report["frontier"]:
        lines.append(f"Size {row['size']}: {row['expected_points']:.6f} points, loses "
                     f"{row['loss']:.6f}, scores nothing {100 * row['p_zero']:.1f}%")
        lines += [f"  - {line}" for line in row["rule"]]
    emit(report, "\n".join(lines), as_json)


@dalek.command("card")
@rules_options
@race_rule_options
@card_option
@json_option
def card_command(rules, force, race, target, out, as_json) -> None:
    """A strategy card for one turn: the smallest rule of `dalek rules` within 0.05 points of
    the best, with its cost against perfect play in words.

    --race: the 2-player race to --target: the smallest rule of `dalek rules --race` within
    half a game in 100 of the best, its thresholds by lead and its cost."""
    from solver.cards import render
    from solver.formatting import exact_text
    from solver.games.dalek import rulecard

    clock = time.perf_counter()
    if race or given("target"):
        rows, first, cached = _race_learned(rules, target, force)
        footer = (f"dice-solver dalek card --race: values for {rules.dice} dice ({rules.label}), "
                  f"tie rule {rules.tie_rule}, race to {target}; {PERFECT} plays the "
                  f"equilibrium; every rule: dalek rules --race --json")
        card = rulecard.race_card(rules, rows, first, target, footer)
        render(card, Path(out))
        chosen = rulecard.race_card_row(rows)
        entry = next(e for e in rulecard.race_report(rules, rows, first, target)["frontier"]
                     if e["numbers"] == chosen.rule.numbers)
        report = {"rules": dalek_report.rules_data(rules), "out": out, "target": target,
                  **{k: entry[k] for k in ("numbers", "p_first", "p_second", "p_mean", "loss",
                                           "p_beaten_first", "p_beaten_second",
                                           "p_beaten_mean", "p_self_first")},
                  "rule": list(card.rule), "cost": card.cost,
                  "timings": _timings(clock, cached)}
        emit(report, f"{out}: {card.rule[0]} ... {card.cost}", as_json)
        return
    pairs, rows, cached = _learned(rules, force)
    footer = (f"dice-solver dalek card: exact values for {rules.dice} dice ({rules.label}), tie "
              f"rule {rules.tie_rule}; every rule of each size: dalek rules --json")
    card = rulecard.card(pairs, rows, footer)
    render(card, Path(out))
    best = rulecard.card_row(rows)
    report = {"rules": dalek_report.rules_data(rules), "out": out,
              "numbers": best.rule.numbers, "rule": list(card.rule), "cost": card.cost,
              "expected_points": float(best.points),
              "expected_points_exact": exact_text(best.points), "loss": float(best.loss),
              "loss_exact": exact_text(best.loss), "p_zero": float(best.p_zero),
              "p_zero_exact": exact_text(best.p_zero), "timings": _timings(clock, cached)}
    emit(report, f"{out}: {card.rule[0]} ... {card.cost}", as_json)
