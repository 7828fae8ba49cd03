"""`dice-solver simulate pig` and `dice-solver verify pig`: Pig played by its rules with seeded
dice into sample files, and a simulator's samples or moves checked against the exact answer."""

from __future__ import annotations

import shlex

import click
import numpy as np

from solver.commands import json_option
from solver.dice import generator
from solver.errors import InputError
from solver.games.pig import policies as pp
from solver.games.pig.bugs import BUGS
from solver.games.pig.commands import force_option, target_option
from solver.games.pig.cost import refuse_solves
from solver.games.pig.outcomes import hold_rules, pig_outcomes, turn_table
from solver.games.pig.rules import turn_totals
from solver.games.pig.simulator import PigPlay, pig_games, pig_turns
from solver.outcomes import Outcomes, score
from solver.samples import winner_names
from solver.verification import (
    Alternatives,
    Judging,
    finish_run,
    no_samples,
    regret_report,
    run_command,
    run_options,
    score_verdict,
    timed,
    verify_options,
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


def refuse_duel(duel: pp.PigDuel, exact: bool, force: bool) -> None:
    """Refuse a duel whose solve is estimated too long or too large (cost.py); a duel of two
    "hold N" seats is solved too (the engine values the game both policies make)."""
    refuse_solves(f"a Pig duel to {duel.target}", duel.target,
                  [[p.hold for p in duel.policies]], exact, force)


@click.command("pig")
@play_options
@run_options
@click.option("--bug", type=click.Choice(sorted(BUGS)), default=None,
              help="Play with one rule deliberately wrong (docs/verify.md): a simulator for "
                   "`verify` to reject.")
@json_option
def simulate(policy, opponent, target, force, count, seed, out, bug, as_json) -> None:
    """Pig turns from a score of 0 (the banked total of each) or, with --duel, games."""

    rng = generator(seed)
    chosen = pp.parse_policy(policy)
    play = PigPlay() if bug is None else BUGS[bug]()
    comment = run_command("pig", policy=chosen.name, duel=opponent, target=target, n=count,
                          seed=seed, bug=bug)
    if opponent is None:
        if chosen.hold is None:
            chosen.turn_distribution(target)  # explains why optimal play has no single turn
        scores, seconds = timed(pig_turns, chosen.hold, target, count, rng, play)
        header, columns = ["score"], [scores.tolist()]
        summary = {"unit": "turn", "policy": chosen.name, "mean": float(scores.mean()),
                   "seconds": seconds}
    else:
        header, columns, summary = _duel(chosen, pp.parse_policy(opponent), target, count, rng,
                                         force, play)
    summary.update(samples=count, seed=seed)
    finish_run(out, comment, header, columns, summary, as_json)


def _duel(first, second, target: int, count: int, rng, force: bool, play: PigPlay
          ) -> tuple[list[str], list, dict]:
    """Games between seat 1 (`first`) and seat 2 (`second`)."""

    duel = pp.PigDuel(target, policies=(first, second))
    solution = None
    if first.hold is None or second.hold is None:
        refuse_duel(duel, False, force)
        solution = pp.solve_duel(duel)
    (scores, winner, turns), seconds = timed(pig_games, hold_rules(duel, solution), target,
                                             count, rng, play)
    summary = {"unit": "game", "policies": [first.name, second.name], "target": target,
               "wins": [int((winner == s).sum()) for s in (0, 1)], "seconds": seconds}
    if np.any(winner < 0):
        summary["ties"] = int((winner < 0).sum())
    return (["winner", "score_1", "score_2", "turns"],
            [winner_names(winner), scores[:, 0].tolist(), scores[:, 1].tolist(),
             turns.tolist()], summary)


@click.command("pig")
@play_options
@click.option("--exact", is_flag=True, help="Exact win probabilities in a duel (small targets).")
@verify_options
@json_option
def verify(policy, opponent, target, force, exact, samples, decisions, alpha, test, top,
           as_json, watch) -> None:
    """Pig: turn totals (or games, with --duel: winner, final scores, turns) of a simulator, or
    its moves."""

    if decisions is not None:
        no_samples(samples, watch)
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
        refuse_duel(duel, exact, force)
        solution = pp.solve_duel(duel, exact=exact)
        chances = pp.win_chances(duel, solution)
        seats = [{"seat": s + 1, "p_win": float(p), "p_tie": 0.0, "value": float(p),
                  **({"p_win_exact": p} if exact else {})} for s, p in enumerate(chances)]
        title = f"Pig to {target}: seat 1 plays {chosen.name}, seat 2 plays {duel.policies[1].name}"
        judging = Judging(pig_outcomes(duel, solution, title), watch,
                          _alternatives(duel, solution, watch.suspects, force))
        winner_verdict(title, seats, samples, alpha, test, top, as_json, judging)
        return
    title = f"Pig, one turn from 0 (target {target}), policy {chosen.name}"
    exact_turn = chosen.turn_distribution(target)
    declared = turn_outcomes(title, chosen, target)
    judging = Judging(declared, watch, _turn_alternatives(chosen, target, watch.suspects))
    score_verdict(title, exact_turn, turn_totals(target), samples, alpha, test, top, as_json,
                  judging)


def turn_outcomes(title: str, policy: pp.PigPolicy, target: int, play: PigPlay | None = None
                  ) -> Outcomes:
    """A "hold N" turn from a score of 0 under `play`'s rules, as outcomes (its banked total)."""
    play = PigPlay() if play is None else play
    width = max(target, policy.hold) + max(play.faces) + 1
    p = turn_table(play, lambda mine, theirs, total: total >= policy.hold, target, width, 1)[0, 0]
    support = np.flatnonzero(p)
    return Outcomes(title, "turn", {"score": support}, p[support], (score(),))


def _turn_alternatives(policy: pp.PigPolicy, target: int, suspects: tuple[str, ...]
                       ) -> Alternatives:
    """A turn's alternatives: the bug corpus, and the suspected policies."""

    def named(text: str) -> tuple[str, Outcomes]:
        if text in BUGS:
            return f"the bug {text}", turn_outcomes(text, policy, target, BUGS[text]())
        other = pp.parse_policy(text)
        if other.hold is None:
            raise InputError("a Pig turn is played by \"hold N\"; optimal play needs a game")
        return f"--policy {shlex.quote(other.name)}", turn_outcomes(text, other, target)

    def known() -> dict[str, Outcomes]:
        return dict(named(text) for text in (*sorted(BUGS), *suspects))

    return Alternatives(known, named)


def _alternatives(duel: pp.PigDuel, solution, suspects: tuple[str, ...], force: bool
                  ) -> Alternatives:
    """A duel's alternatives: each bug of the corpus (both seats play it), each suspected
    policy in seat 1, in seat 2 and in both, and another target (--against '--target N')."""

    def outcomes_of(name: str, policies: tuple, play: PigPlay | None = None,
                    target: int | None = None) -> tuple[str, Outcomes]:
        other = pp.PigDuel(duel.target if target is None else target, policies=policies)
        solved = solution
        if other != duel and any(p.hold is None for p in policies):
            refuse_duel(other, False, force)
            solved = pp.solve_duel(other)
        return name, pig_outcomes(other, solved, name, play)

    def named(text: str) -> tuple[str, Outcomes]:
        words = text.split()
        if text in BUGS:
            return outcomes_of(f"the bug {text}", duel.policies, BUGS[text]())
        if len(words) == 2 and words[0] == "--target" and words[1].isdigit():
            return outcomes_of(f"--target {words[1]}", duel.policies, target=int(words[1]))
        suspect = pp.parse_policy(text)
        return outcomes_of(f"both seats playing {suspect.name}", (suspect, suspect))

    def known() -> dict[str, Outcomes]:
        found = dict(named(bug) for bug in sorted(BUGS))
        for text in suspects:
            suspect = pp.parse_policy(text)
            found.update([named(text),
                          outcomes_of(f"seat 1 playing {suspect.name}",
                                      (suspect, duel.policies[1])),
                          outcomes_of(f"seat 2 playing {suspect.name}",
                                      (duel.policies[0], suspect))])
        return found

    return Alternatives(known, named)
