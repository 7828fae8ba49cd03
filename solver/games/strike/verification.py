"""`dice-solver simulate strike` and `dice-solver verify strike`: Strike played by its rules with
seeded dice into sample files, and a simulator's samples or moves checked against the exact
answer."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import click
import numpy as np

from solver.commands import json_option
from solver.dice import generator
from solver.errors import InputError
from solver.formatting import exact_text
from solver.games.strike.bugs import BUGS
from solver.games.strike.commands import (
    SEATS,
    add_options,
    dice_options,
    force_option,
    readings_text,
    throw_options,
)
from solver.games.strike.cost import refuse_solves
from solver.games.strike.outcomes import strike_outcomes
from solver.games.strike.policies import (
    OPTIMAL,
    Moves,
    StrikeDuel,
    outcome_chances,
    parse_policy,
    solve_duel,
    win_chances,
)
from solver.games.strike.rules import (
    DEFAULT_EMPTY_ARENA,
    dice_per_player,
)
from solver.games.strike.simulator import strike_games
from solver.outcomes import JOINT, TURNS, Outcomes, Statistic
from solver.samples import read_outcomes
from solver.verification import (
    Alternatives,
    Judging,
    finish_run,
    outcome_verdict,
    run_command,
    run_options,
    timed,
    verify_options,
)


def play_options(command):
    """The Strike game, throw model and readings (docs/rules.md, "Strike"), each seat's policy,
    and --force for a solve estimated past the budget."""
    command = add_options(command, [
        click.option("--policy", default="optimal", show_default=True,
                     help='Seat 1: "stop" (stop as soon as allowed; place a new number) or '
                          'optimal (best response to the others).'),
        click.option("--duel", "opponent", default="optimal", show_default=True,
                     help="Every other seat's policy."),
        force_option,
    ])
    return click.option("--players", type=SEATS, default=2, show_default=True,
                        help="2 to 5.")(throw_options(dice_options(command)))


def duel_of(players: int, edition: str, dice: int | None, policy: str, opponent: str,
            **model) -> StrikeDuel:
    """The Strike game these options describe (model: hit, miss, fly_out, empty_arena), each
    seat with its policy."""
    policies = (parse_policy(policy),) + (parse_policy(opponent),) * (players - 1)
    return StrikeDuel(players, dice_per_player(players, int(edition), dice), **model,
                      policies=policies)


def solved(game: StrikeDuel, exact: bool, force: bool):
    """The game solved, refused first if estimated too long or too large (cost.py)."""
    refuse_solves(f"solving {game.players}-player Strike with {game.dice} dice each"
                  f"{' exactly' if exact else ''}", [game], exact, force)
    return solve_duel(game, exact=exact)


@click.command("strike")
@play_options
@click.option("--never-hit", is_flag=True,
              help="Play with dice that are never struck (a deliberately wrong simulator for "
                   "`verify` to reject; the model's --hit still picks the optimal moves).")
@click.option("--bug", type=click.Choice(sorted(BUGS)), default=None,
              help="Play with one thing deliberately wrong (docs/verify.md; fixed policies "
                   "such as stop only): a simulator for `verify` to reject.")
@run_options
@json_option
def simulate(players, edition, dice, policy, opponent, force, never_hit, bug, count, seed, out,
             as_json, **model) -> None:
    """Strike games: the winner and the dice left in the winner's stock."""
    game = duel_of(players, edition, dice, policy, opponent, **model)
    rng = generator(seed)
    comment = run_command("strike", players=players, dice=game.dice, hit=exact_text(game.hit),
                          miss=exact_text(game.miss),
                          fly_out=exact_text(game.fly_out) if game.fly_out else None,
                          empty_arena=None if game.empty_arena == DEFAULT_EMPTY_ARENA
                          else game.empty_arena,
                          policy=game.policies[0].name, duel=game.policies[-1].name, n=count,
                          seed=seed, never_hit=never_hit or None, bug=bug)
    moves = Moves(game, solved(game, False, force)) if OPTIMAL in game.policies else None
    if bug is not None and moves is not None:
        raise InputError("--bug plays fixed policies (stop) only")
    played = game if bug is None else replace(game, **BUGS[bug], _fixed={})
    (winner, stock, turns), seconds = timed(strike_games, played, moves, count, rng,
                                            hit=0.0 if never_hit else None)
    summary = {"unit": "game", "policies": [p.name for p in game.policies], "seconds": seconds,
               "wins": [int((winner == s).sum()) for s in range(players)],
               "samples": count, "seed": seed}
    finish_run(out, comment, ["winner", "winner_stock", "turns"],
               [(winner + 1).tolist(), stock.tolist(), turns.tolist()], summary, as_json)


@click.command("strike")
@play_options
@click.option("--exact", is_flag=True, help="Exact probabilities (small games only).")
@verify_options
@json_option
def verify(players, edition, dice, policy, opponent, force, exact, samples, decisions, alpha,
           test, top, as_json, watch, **model) -> None:
    """Strike: the winner and the winner's dice left of each game of a simulator."""
    if decisions is not None:
        raise InputError("decision logs are read for Dalek Dice and Pig only")
    game = duel_of(players, edition, dice, policy, opponent, **model)
    solution = solved(game, exact, force)
    seats = ", ".join(f"seat {s + 1} {p.name}" for s, p in enumerate(game.policies))
    chances = ", ".join(f"{float(p):.6f}" for p in win_chances(game, solution))
    title = (f"Strike, {players} players, {game.dice} dice each, hit {exact_text(game.hit)}, "
             f"miss {exact_text(game.miss)}{readings_text(game)} ({seats}; P(win) {chances})")
    stocks = range(game.layout.stocks)
    labels = [f"{w + 1}:{k}" for w in range(players) for k in stocks]  # as Metrics.outcome

    def read(path: str) -> np.ndarray:
        winner = read_outcomes(path, "winner", [str(w + 1) for w in range(players)])
        stock = read_outcomes(path, "winner_stock", [str(k) for k in stocks])
        return game.layout.outcome(winner, stock)

    chances = outcome_chances(game, solution)
    judging = Judging(strike_outcomes(game, solution, title, STATISTICS), watch,
                      _alternatives(game))
    outcome_verdict(title, "winner:stock", labels, chances, None, samples, alpha, test, top,
                    as_json, read, exact_known=exact, judging=judging)


WINNER_STOCK = Statistic("winner_stock", "winner and winner's stock", ("winner", "winner_stock"),
                         lambda c: np.asarray(c["winner"]) * JOINT + c["winner_stock"],
                         lambda code: f"{code // JOINT}:{code % JOINT}", False)


STATISTICS = (WINNER_STOCK, TURNS)  # a game's statistics: the outcome, and its length


def _alternatives(game: StrikeDuel) -> Alternatives:
    """Strike's alternatives, for seats playing stop: the bug corpus (bugs.py), the other
    reading of an emptied arena, and throw models named with --against ('--hit 1/3')."""

    def outcomes(name: str, **changes) -> tuple[str, Outcomes]:
        if OPTIMAL in game.policies:
            raise InputError("Strike's alternatives are stated for seats playing stop (an "
                             "optimal seat's moves belong to the declared game's solution)")
        return name, strike_outcomes(replace(game, **changes, _fixed={}), None, name,
                                     STATISTICS)

    def named(text: str) -> tuple[str, Outcomes]:
        if text.lstrip("-") in BUGS:
            return outcomes(f"the bug {text.lstrip('-')}", **BUGS[text.lstrip("-")])
        words = text.split()
        if len(words) == 2 and words[0] in ("--hit", "--miss", "--empty-arena"):
            value = words[1] if words[0] == "--empty-arena" else Fraction(words[1])
            return outcomes(text, **{words[0][2:].replace("-", "_"): value})
        raise InputError(f"unknown Strike alternative {text[:40]!r}: a bug ("
                         f"{', '.join(sorted(BUGS))}), '--hit P', '--miss P' or "
                         f"'--empty-arena pass|continue'")

    def known() -> dict[str, Outcomes]:
        if OPTIMAL in game.policies:
            return {}
        other = "continue" if game.empty_arena == "pass" else "pass"
        return dict([*(named(bug) for bug in sorted(BUGS)), named(f"--empty-arena {other}")])

    return Alternatives(known, named)
