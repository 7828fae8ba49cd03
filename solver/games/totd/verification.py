"""`dice-solver simulate totd` and `dice-solver verify totd`: Time of the Daleks played by its
rules with seeded dice into sample files, and a simulator's samples or moves checked against the
exact answer."""

from __future__ import annotations

import click
import numpy as np

from solver.commands import json_option
from solver.dice import generator
from solver.errors import InputError
from solver.games.totd.bugs import BUGS
from solver.games.totd.commands import (
    adventure_of,
    dice_file_option,
    force_option,
    need_option,
    tool_options,
)
from solver.games.totd.cost import refuse_plan, refuse_solves
from solver.games.totd.policies import REROLL_UNNEEDED, Plan, parse_policy
from solver.games.totd.simulator import totd_adventures
from solver.outcomes import Outcomes, score
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
    """One Doctor's Adventure (docs/rules.md, Time of the Daleks) and the policy."""
    command = tool_options(command)
    command = dice_file_option(command)
    for option in reversed([
        need_option,
        click.option("--pool", required=True, help='The dice pool, e.g. "black=6 blue=2".'),
        click.option("--policy", default=REROLL_UNNEEDED.name, show_default=True,
                     help="reroll-unneeded (re-roll every die that is not needed, "
                          "docs/verify.md) or optimal (verify only)."),
    ]):
        command = option(command)
    return command


@click.command("totd")
@play_options
@run_options
@force_option
@click.option("--bug", type=click.Choice(sorted(BUGS)), default=None,
              help="Play with one thing deliberately wrong (docs/verify.md): a simulator for "
                   "`verify` to reject.")
@json_option
def simulate(need, pool, policy, dice_file, sonic, rerolls, changes, count, seed, out, force,
             bug, as_json) -> None:
    """Time of the Daleks Adventures: 1 where the Challenge is met, else 0."""
    if parse_policy(policy) != REROLL_UNNEEDED:
        raise InputError("our simulator plays the reroll-unneeded plan; optimal play is "
                         "verified against the solver (verify totd --policy optimal)")
    adventure = adventure_of(need, pool, dice_file, sonic, rerolls, changes)
    plan = Plan(adventure if bug is None else BUGS[bug](adventure))
    refuse_plan(f"playing {count:,} Adventures", plan.adventure, force, count)
    comment = run_command("totd", need=need, pool=pool, sonic=sonic,
                          reroll=tuple(rerolls), change=tuple(changes),
                          policy=REROLL_UNNEEDED.name, n=count, seed=seed, bug=bug)
    success, seconds = timed(totd_adventures, plan, count, generator(seed))
    summary = {"unit": "adventure", "policy": REROLL_UNNEEDED.name, "mean": float(success.mean()),
               "seconds": seconds, "samples": count, "seed": seed}
    finish_run(out, comment, ["success"], [success.tolist()], summary, as_json)


@click.command("totd")
@play_options
@verify_options
@force_option
@json_option
def verify(need, pool, policy, dice_file, sonic, rerolls, changes, samples, decisions, alpha,
         test, top, force, as_json, watch) -> None:
    """Time of the Daleks: the successes (1) and failures (0) of a simulator's Adventures."""
    if decisions is not None:
        raise InputError("decision logs are read for Dalek Dice and Pig only")
    adventure = adventure_of(need, pool, dice_file, sonic, rerolls, changes)
    chosen = parse_policy(policy)
    if chosen.optimal:
        refuse_solves("this solve", [], [adventure], force)
    else:
        refuse_plan("the plan's exact value", adventure, force)
    success = chosen.success(adventure)
    tools = adventure.doctors[0].tools.text(adventure.game)
    title = f"Time of the Daleks: {need}; pool {pool}; {tools}; policy {chosen.name}"
    judging = Judging(_outcomes(title, success), watch, _alternatives(adventure, force))
    outcome_verdict(title, "success", ["0", "1"], [1 - success, success], [0, 1], samples, alpha,
                    test, top, as_json, judging=judging)


def _outcomes(title: str, success) -> Outcomes:
    """An Adventure's outcome: met (1) or not (0), with the chance of meeting it."""
    return Outcomes(title, "adventure", {"success": np.array([0, 1])},
                    np.array([float(1 - success), float(success)]),
                    (score("success", "success"),))


def _alternatives(adventure, force: bool) -> Alternatives:
    """The bug corpus, each played by the reroll-unneeded plan (as our simulator plays)."""

    def named(text: str) -> tuple[str, Outcomes]:
        if text not in BUGS:
            raise InputError(f"unknown Time of the Daleks alternative {text[:40]!r}: a bug "
                             f"({', '.join(sorted(BUGS))})")
        wrong = BUGS[text](adventure)
        refuse_plan("the plan's exact value", wrong, force)
        return f"the bug {text}", _outcomes(text, Plan(wrong).success())

    return Alternatives(lambda: dict(named(bug) for bug in sorted(BUGS)), named)
