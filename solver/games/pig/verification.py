"""`dice-solver simulate pig` and `dice-solver verify pig`: Pig played by its rules with seeded
dice into sample files, and a simulator's samples or moves checked against the exact answer."""

from __future__ import annotations

import click
import numpy as np

from solver.commands import json_option
from solver.dice import generator
from solver.games.pig import policies as pp
from solver.games.pig.commands import force_option, target_option
from solver.games.pig.cost import check_solves
from solver.games.pig.rules import turn_totals
from solver.games.pig.simulator import pig_games, pig_turns
from solver.samples import winner_names
from solver.verification import (
    check_options,
    finish_run,
    no_samples,
    regret_report,
    run_command,
    run_options,
    score_verdict,
    timed,
    winner_verdict,
)


def play_options(command):
    """Pig: seat 1's policy, a game against seat 2's policy, the target, and --force for a
    solve estimated past the budget."""
    for option in reversed([
        click.option("--policy", default="hold 20", show_default=True,
                     help='"hold N" (hold once the turn total reaches N), or optimal (with '
                          '--duel).'),
        click.option("--duel", "opponent", default=None,
                     help="Seat 2's policy: the unit is then a game (one line per game), not "
                          "a turn."),
        target_option,
        force_option,
    ]):
        command = option(command)
    return command


def check_duel(duel: pp.PigDuel, exact: bool, force: bool) -> None:
    """Refuse a duel whose solve is estimated too long or too large (cost.py); a duel of two
    "hold N" seats is solved too (the engine values the game both policies make)."""
    check_solves(f"a Pig duel to {duel.target}", duel.target,
                 [[p.hold for p in duel.policies]], exact, force)


@click.command("pig")
@play_options
@run_options
@json_option
def simulate(policy, opponent, target, force, count, seed, out, as_json) -> None:
    """Pig turns from a score of 0 (the banked total of each) or, with --duel, games."""

    rng = generator(seed)
    chosen = pp.parse_policy(policy)
    comment = run_command("pig", policy=chosen.name, duel=opponent, target=target, n=count,
                       seed=seed)
    if opponent is None:
        if chosen.hold is None:
            chosen.turn_distribution(target)  # explains why optimal play has no single turn
        scores, seconds = timed(pig_turns, chosen.hold, target, count, rng)
        header, columns = ["score"], [scores.tolist()]
        summary = {"unit": "turn", "policy": chosen.name, "mean": float(scores.mean()),
                   "seconds": seconds}
    else:
        header, columns, summary = _duel(chosen, pp.parse_policy(opponent), target, count, rng,
                                         force)
    summary.update(samples=count, seed=seed)
    finish_run(out, comment, header, columns, summary, as_json)


def _duel(first, second, target: int, count: int, rng, force: bool
          ) -> tuple[list[str], list, dict]:
    """Games between seat 1 (`first`) and seat 2 (`second`)."""

    duel = pp.PigDuel(target, policies=(first, second))
    solution = None
    if first.hold is None or second.hold is None:
        check_duel(duel, False, force)
        solution = pp.solve_duel(duel)

    def rule(seat: int):
        hold = duel.policies[seat].hold
        if hold is not None:
            return lambda mine, theirs, total: total >= hold
        table = pp.hold_table(duel, solution, seat)
        return lambda mine, theirs, total: table[mine, theirs, np.minimum(total, target)]

    (scores, winner), seconds = timed(pig_games, [rule(0), rule(1)], target, count, rng)
    summary = {"unit": "game", "policies": [first.name, second.name], "target": target,
               "wins": [int((winner == s).sum()) for s in (0, 1)], "seconds": seconds}
    return (["winner", "score_1", "score_2"],
            [winner_names(winner), scores[:, 0].tolist(), scores[:, 1].tolist()], summary)


@click.command("pig")
@play_options
@click.option("--exact", is_flag=True, help="Exact win probabilities in a duel (small targets).")
@check_options
@json_option
def verify(policy, opponent, target, force, exact, samples, decisions, alpha, test, top,
           as_json) -> None:
    """Pig: turn totals (or game winners, with --duel) of a simulator, or its moves."""

    if decisions is not None:
        no_samples(samples)
        regrets, lines, columns = pp.decision_regrets(target, decisions, force)

        def describe(r: int) -> dict:
            return {"line": int(lines[r]), "score": int(columns["score"][r]),
                    "opponent": int(columns["opponent"][r]),
                    "turn_total": int(columns["turn_total"][r]),
                    "move": pp.MOVES[int(columns["move"][r])]}

        regret_report(f"Pig to {target}: moves of {decisions} against optimal play",
                       "P(win)", regrets, None, describe, top, as_json)
        return
    chosen = pp.parse_policy(policy)
    if opponent is not None:
        duel = pp.PigDuel(target, policies=(chosen, pp.parse_policy(opponent)))
        check_duel(duel, exact, force)
        chances = pp.win_chances(duel, pp.solve_duel(duel, exact=exact))
        seats = [{"seat": s + 1, "p_win": float(p), "p_tie": 0.0, "value": float(p),
                  **({"p_win_exact": p} if exact else {})} for s, p in enumerate(chances)]
        title = f"Pig to {target}: seat 1 plays {chosen.name}, seat 2 plays {duel.policies[1].name}"
        winner_verdict(title, seats, samples, alpha, test, top, as_json)
        return
    score_verdict(f"Pig, one turn from 0 (target {target}), policy {chosen.name}",
            chosen.turn_distribution(target), turn_totals(target),
            samples, alpha, test, top, as_json)
