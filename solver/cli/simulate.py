"""`dice-solver simulate GAME ...`: seeded Monte Carlo play by the rules, written as sample files
(one CSV line per turn or game, docs/verify.md) that `dice-solver verify` checks."""

from __future__ import annotations

import shlex
import time

import click
import numpy as np

from solver.cli.common import emit
from solver.cli.dalek import json_option, rules_options
from solver.errors import InputError
from solver.games.dalek_race import DEFAULT_TARGET
from solver.simulate import BUGS

POLICY_HELP = ('points (optimal for expected points), "keep-daleks K" (alias "hold K"), win '
               '(optimal for winning, with --duel only) or a policy table: table:FILE (the '
               'turn_keeps.csv[.gz] format of `dalek table`).')


def run_options(command):
    """How many, which seed, where to: shared by every game."""
    for option in reversed([
        click.option("--n", "count", type=click.IntRange(1), required=True,
                     help="How many turns (or games, with --duel) to play."),
        click.option("--seed", type=click.IntRange(0), required=True,
                     help="Seed of the PCG64 generator: the same seed gives the same file."),
        click.option("--out", type=click.Path(dir_okay=False), default=None,
                     help="CSV file to write (default: standard output)."),
    ]):
        command = option(command)
    return command


@click.group()
def simulate() -> None:
    """Seeded Monte Carlo play by the rules: sample files for `verify`."""


def dalek_play_options(command):
    """Dalek Dice: the rules, seat 1's policy, and a race against seat 2's policy."""
    for option in reversed([
        rules_options,
        click.option("--policy", default="points", show_default=True, help=POLICY_HELP),
        click.option("--duel", "opponent", default=None,
                     help="Seat 2's policy: the unit is then a two-player race (one line per "
                          "game), not a turn."),
        click.option("--target", type=click.IntRange(1), default=DEFAULT_TARGET,
                     show_default=True, help="The race's target (with --duel)."),
    ]):
        command = option(command)
    return command


def pig_play_options(command):
    """Pig: seat 1's policy, a game against seat 2's policy, the target."""
    for option in reversed([
        click.option("--policy", default="hold 20", show_default=True,
                     help='"hold N" (hold once the turn total reaches N), or optimal (with '
                          '--duel).'),
        click.option("--duel", "opponent", default=None,
                     help="Seat 2's policy: the unit is then a game (one line per game), not "
                          "a turn."),
        click.option("--target", type=click.IntRange(2), default=100, show_default=True),
    ]):
        command = option(command)
    return command


@simulate.command("dalek")
@dalek_play_options
@run_options
@click.option("--decisions", type=click.Path(dir_okay=False), default=None,
              help="Also write every move made (position and move) to this CSV: a decision log "
                   "for `verify dalek --decisions` (turns only).")
@click.option("--bug", type=click.Choice(sorted(BUGS)), default=None,
              help="Play turns with one rule deliberately wrong (docs/verify.md): a simulator "
                   "for `verify` to reject.")
@json_option
def dalek(faces, die_file, dice, tie_rule, policy, opponent, target, count, seed, out,
          decisions, bug, as_json) -> None:
    """Dalek Dice turns (the final score of each) or, with --duel, races (the winner)."""
    from solver.games.dalek_dice import parse_rules
    from solver.games.dalek_policies import Pairs, parse_policy
    from solver.games.dalek_turn import compile_turn
    from solver.simulate import (
        Decisions,
        dalek_turns,
        decision_rows,
        generator,
        sample_text,
        write_samples,
    )

    rules = parse_rules(faces, die_file, dice, tie_rule)
    pairs = Pairs.of(compile_turn(rules))
    rng = generator(seed)
    comment = _command("dalek", policy=policy, duel=opponent,
                       target=None if opponent is None else target, n=count, seed=seed,
                       faces=" ".join(_weighted(rules.die)), dice=rules.dice,
                       tie_rule=rules.tie_rule, bug=bug)
    if opponent is not None:
        if decisions is not None or bug is not None:
            raise InputError("--decisions and --bug are for single turns, not a --duel")
        header, columns, summary = _dalek_duel(pairs, policy, opponent, target, count, rng)
    else:
        chosen = parse_policy(pairs, policy)
        log = Decisions([], [], [], [], []) if decisions is not None else None
        play = None if bug is None else BUGS[bug](rules)
        scores, seconds = _timed(dalek_turns, chosen, count, rng, play=play, decisions=log)
        header, columns = ["score"], [scores.tolist()]
        summary = {"unit": "turn", "policy": chosen.name, "mean": float(scores.mean()),
                   "seconds": seconds}
        if log is not None:
            names, rows = decision_rows(pairs.turn, log)
            write_samples(decisions, sample_text(comment, names, rows))
            summary["decisions"] = len(rows)
    summary.update(samples=count, seed=seed)
    _finish(out, comment, header, columns, summary, as_json)


def _dalek_duel(pairs, policy: str, opponent: str, target: int, count: int, rng
                ) -> tuple[list[str], list, dict]:
    """Races between seat 1 (`policy`) and seat 2 (`opponent`)."""
    from solver.games.dalek_policies import parse_policy, solve_duel
    from solver.simulate import FixedSeat, RaceSeat, dalek_games, winner_names

    policies = (parse_policy(pairs, policy, duel=True), parse_policy(pairs, opponent, duel=True))
    values = solve_duel(pairs, policies, target).values if None in policies else None
    seats = [FixedSeat(p, rng) if p is not None else RaceSeat(values, pairs, seat, rng)
             for seat, p in enumerate(policies)]
    (scores, winner), seconds = _timed(dalek_games, seats, target, count, rng)
    summary = {"unit": "game", "policies": [policy, opponent], "target": target,
               "wins": [int((winner == s).sum()) for s in (0, 1)],
               "ties": int((winner < 0).sum()), "seconds": seconds}
    return (["winner", "score_1", "score_2"],
            [winner_names(winner), scores[:, 0].tolist(), scores[:, 1].tolist()], summary)


@simulate.command("pig")
@pig_play_options
@run_options
@json_option
def pig(policy, opponent, target, count, seed, out, as_json) -> None:
    """Pig turns from a score of 0 (the banked total of each) or, with --duel, games."""
    from solver.games.pig_policies import parse_policy
    from solver.simulate import generator, pig_turns

    rng = generator(seed)
    chosen = parse_policy(policy)
    comment = _command("pig", policy=chosen.name, duel=opponent, target=target, n=count,
                       seed=seed)
    if opponent is None:
        if chosen.hold is None:
            chosen.turn_distribution(target)  # explains why optimal play has no single turn
        scores, seconds = _timed(pig_turns, chosen.hold, target, count, rng)
        header, columns = ["score"], [scores.tolist()]
        summary = {"unit": "turn", "policy": chosen.name, "mean": float(scores.mean()),
                   "seconds": seconds}
    else:
        header, columns, summary = _pig_duel(chosen, parse_policy(opponent), target, count, rng)
    summary.update(samples=count, seed=seed)
    _finish(out, comment, header, columns, summary, as_json)


def _pig_duel(first, second, target: int, count: int, rng) -> tuple[list[str], list, dict]:
    from solver.games.pig_policies import PigDuel, hold_table, solve_duel
    from solver.simulate import pig_games, winner_names

    duel = PigDuel(target, policies=(first, second))
    solution = solve_duel(duel) if first.hold is None or second.hold is None else None

    def rule(seat: int):
        hold = duel.policies[seat].hold
        if hold is not None:
            return lambda mine, theirs, total: total >= hold
        table = hold_table(duel, solution, seat)
        return lambda mine, theirs, total: table[mine, theirs, np.minimum(total, target)]

    (scores, winner), seconds = _timed(pig_games, [rule(0), rule(1)], target, count, rng)
    summary = {"unit": "game", "policies": [first.name, second.name], "target": target,
               "wins": [int((winner == s).sum()) for s in (0, 1)], "seconds": seconds}
    return (["winner", "score_1", "score_2"],
            [winner_names(winner), scores[:, 0].tolist(), scores[:, 1].tolist()], summary)


def _timed(simulator, *args, **options):
    """A simulator's result and the seconds it took (playing only: no solve, no writing)."""
    clock = time.perf_counter()
    result = simulator(*args, **options)
    return result, time.perf_counter() - clock


def _finish(out: str | None, comment: str, header: list[str], columns: list, summary: dict,
            as_json: bool) -> None:
    """Write the samples (to the file, or to standard output), then the run's summary."""
    from solver.simulate import sample_text, write_samples

    text = sample_text(comment, header, zip(*columns))
    if out is None:
        if as_json:
            raise InputError("--json describes a run written with --out")
        click.echo(text, nl=False)
        return
    write_samples(out, text)
    summary["out"] = out
    text = (f"wrote {summary['samples']} {summary['unit']}s to {out} (seed {summary['seed']}, "
            f"played in {summary['seconds']:.1f} s)")
    if "mean" in summary:
        name = "success rate" if summary["unit"] == "adventure" else "mean score"
        text += f"; {name} {summary['mean']:.6f}"
    if "wins" in summary:
        text += "; " + ", ".join(f"seat {s + 1} won {w}" for s, w in enumerate(summary["wins"]))
        text += f", ties {summary['ties']}" if "ties" in summary else ""
    if "decisions" in summary:
        text += f"; {summary['decisions']} moves logged"
    emit(summary, text, as_json)


def _command(game: str, **options) -> str:
    """The command that makes the file again, for its first line."""
    words = []
    for name, value in options.items():
        flag = f"--{name.replace('_', '-')}"
        if value is True:
            words.append(flag)
        elif isinstance(value, tuple):  # a repeatable option
            words += [f"{flag} {shlex.quote(v)}" for v in value]
        elif value is not None:
            words.append(f"{flag} {shlex.quote(str(value))}")
    return f"dice-solver simulate {game} " + " ".join(words)


def _weighted(die) -> list[str]:
    return [f if w == 1 else f"{f}:{w}" for f, w in zip(die.faces, die.weights)]


def strike_options(command):
    """The Strike game and throw model (docs/rules.md, "Strike"), and each seat's policy."""
    from solver.cli.common import FractionType
    from solver.games.strike import DEFAULT_EDITION, DEFAULT_HIT, DEFAULT_MISS, EDITIONS

    for option in reversed([
        click.option("--players", type=click.IntRange(2, 5), default=2, show_default=True),
        click.option("--edition", type=click.Choice([str(e) for e in EDITIONS]),
                     default=str(DEFAULT_EDITION), show_default=True),
        click.option("--dice", type=int, default=None,
                     help="Dice per player (default: the edition's)."),
        click.option("--hit", type=FractionType(), default=str(DEFAULT_HIT), show_default=True,
                     help="Probability that a throw strikes each arena die."),
        click.option("--miss", type=FractionType(), default=str(DEFAULT_MISS),
                     show_default=True, help="Probability that a thrown die misses."),
        click.option("--policy", default="optimal", show_default=True,
                     help='Seat 1: "stop" (stop as soon as allowed; place a new number) or '
                          'optimal (best response to the others).'),
        click.option("--duel", "opponent", default="optimal", show_default=True,
                     help="Every other seat's policy."),
    ]):
        command = option(command)
    return command


def strike_game(players: int, edition: str, dice: int | None, hit, miss, policy: str,
                opponent: str):
    """The Strike game these options describe, each seat with its policy."""
    from solver.games.strike import dice_per_player
    from solver.games.strike_policies import StrikeDuel, parse_policy

    policies = (parse_policy(policy),) + (parse_policy(opponent),) * (players - 1)
    return StrikeDuel(players, dice_per_player(players, int(edition), dice), hit, miss,
                      policies=policies)


@simulate.command("strike")
@strike_options
@click.option("--never-hit", is_flag=True,
              help="Play with dice that are never struck (a deliberately wrong simulator for "
                   "`verify` to reject; the model's --hit still picks the optimal moves).")
@run_options
@json_option
def strike(players, edition, dice, hit, miss, policy, opponent, never_hit, count, seed, out,
           as_json) -> None:
    """Strike games: the winner and the dice left in the winner's stock."""
    from solver.formatting import exact_text
    from solver.games.strike_policies import OPTIMAL, Moves, solve_duel
    from solver.simulate import generator, strike_games

    game = strike_game(players, edition, dice, hit, miss, policy, opponent)
    rng = generator(seed)
    comment = _command("strike", players=players, dice=game.dice, hit=exact_text(game.hit),
                       miss=exact_text(game.miss), policy=game.policies[0],
                       duel=game.policies[-1], n=count, seed=seed,
                       never_hit=never_hit or None)
    moves = Moves(game, solve_duel(game)) if OPTIMAL in game.policies else None
    (winner, stock), seconds = _timed(strike_games, game, moves, count, rng,
                                      hit=0.0 if never_hit else None)
    summary = {"unit": "game", "policies": list(game.policies), "seconds": seconds,
               "wins": [int((winner == s).sum()) for s in range(players)],
               "samples": count, "seed": seed}
    _finish(out, comment, ["winner", "winner_stock"], [(winner + 1).tolist(), stock.tolist()],
            summary, as_json)


def totd_options(command):
    """One Doctor's Adventure (docs/rules.md, Time of the Daleks) and the policy."""
    from solver.cli.totd import dice_file_option, tool_options

    command = tool_options(command)
    command = dice_file_option(command)
    for option in reversed([
        click.option("--need", required=True,
                     help='The Challenge, e.g. "Science x2, Cunning, Tactics".'),
        click.option("--pool", required=True, help='The dice pool, e.g. "black=6 blue=2".'),
        click.option("--policy", default="reroll-unneeded", show_default=True,
                     help="reroll-unneeded (re-roll every die that is not needed, "
                          "docs/verify.md) or optimal (verify only)."),
    ]):
        command = option(command)
    return command


def totd_adventure(need: str, pool: str, dice_file: str | None, sonic: int, rerolls, changes):
    from solver.games.time_of_the_daleks import (
        Adventure,
        Doctor,
        check_pool_size,
        load_game,
        make_tools,
        parse_challenge,
        parse_pool,
    )

    game = load_game(dice_file)
    doctor = Doctor(check_pool_size(game, parse_pool(game, pool)),
                    make_tools(game, sonic, rerolls, changes))
    return Adventure(game, parse_challenge(game, need), (doctor,))


@simulate.command("totd")
@totd_options
@run_options
@json_option
def totd(need, pool, policy, dice_file, sonic, rerolls, changes, count, seed, out,
         as_json) -> None:
    """Time of the Daleks Adventures: 1 where the Challenge is met, else 0."""
    from solver.games.totd_policies import PLAN, Plan, parse_policy
    from solver.simulate import generator, totd_adventures

    if parse_policy(policy) != PLAN:
        raise InputError("our simulator plays the reroll-unneeded plan; optimal play is "
                         "verified against the solver (verify totd --policy optimal)")
    plan = Plan(totd_adventure(need, pool, dice_file, sonic, rerolls, changes))
    comment = _command("totd", need=need, pool=pool, sonic=sonic,
                       reroll=tuple(rerolls), change=tuple(changes), policy=PLAN, n=count,
                       seed=seed)
    success, seconds = _timed(totd_adventures, plan, count, generator(seed))
    summary = {"unit": "adventure", "policy": PLAN, "mean": float(success.mean()),
               "seconds": seconds, "samples": count, "seed": seed}
    _finish(out, comment, ["success"], [success.tolist()], summary, as_json)
