"""`dice-solver simulate dalek` and `dice-solver verify dalek`: Dalek Dice played by its rules with
seeded dice into sample files, and a simulator's samples or moves checked against the exact
answer."""

from __future__ import annotations

from pathlib import Path

import click
import numpy as np

from solver.commands import OutputPath, json_option
from solver.dice import generator
from solver.errors import InputError
from solver.games.dalek import arrays, cost, duels, files
from solver.games.dalek import policies as dp
from solver.games.dalek.bugs import BUGS, RACE_BUGS
from solver.games.dalek.commands import PolicyName, given, rules_options, solved
from solver.games.dalek.decisions import decision_regrets, race_regrets, score_columns
from solver.games.dalek.outcomes import duel_outcomes, round_over
from solver.games.dalek.race import DalekRace
from solver.games.dalek.rules import DEFAULT_TARGET, MAX_TARGET, Rules
from solver.games.dalek.simulator import (
    Decisions,
    check_games,
    dalek_games,
    dalek_turns,
    decision_rows,
    race_seats,
)
from solver.games.dalek.turn import compile_turn
from solver.outcomes import Outcomes, score
from solver.samples import sample_text, winner_names, write_samples
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

POLICY_HELP = ('points (optimal for expected points), "keep-daleks K" (alias "hold K"), win '
               '(optimal for winning, with --duel only) or a policy table: table:FILE (the '
               'turn_keeps.csv[.gz] format of `dalek table`).')


def play_options(command):
    """Dalek Dice: the rules, seat 1's policy, and a race against seat 2's policy."""
    for option in reversed([
        rules_options,
        click.option("--policy", type=PolicyName(), default="points", show_default=True,
                     help=POLICY_HELP),
        click.option("--duel", "opponent", type=PolicyName(), default=None,
                     help="Seat 2's policy: the unit is then a two-player race (one line per "
                          "game), not a turn."),
        click.option("--target", type=click.IntRange(1, MAX_TARGET), default=DEFAULT_TARGET,
                     show_default=True,
                     help=f"The race's target (with --duel; 1 to {MAX_TARGET})."),
    ]):
        command = option(command)
    return command


def _pairs(rules: Rules, policies: list[str], exact: bool, force: bool) -> arrays.Pairs:
    """The turn's (state, roll) pairs, once the cost of building the turn and of the turn
    policies named (played exactly with `exact`) is within the budget (else refused)."""
    turn = compile_turn(rules, force=force)
    fixed = sum(dp.read_policy_name(p, duel=True)[0] != dp.WIN.name for p in policies)
    cost.check_turn(turn, force, policies=fixed * (1 + exact))
    return arrays.Pairs.of(turn)


@click.command("dalek")
@play_options
@run_options
@click.option("--decisions", type=OutputPath(), default=None,
              help="Also write every move made (position and move) to this CSV: a decision log "
                   "for `verify dalek --decisions` (turns only).")
@click.option("--bug", type=click.Choice(sorted({*BUGS, *RACE_BUGS})), default=None,
              help="Play with one rule deliberately wrong (docs/verify.md): a simulator for "
                   "`verify` to reject (no-last-turn: races only).")
@json_option
def simulate(rules, force, policy, opponent, target, count, seed, out, decisions, bug,
             as_json) -> None:
    """Dalek Dice turns (the final score of each) or, with --duel, races (the winner)."""
    if opponent is not None and decisions is not None:
        raise InputError("--decisions is for single turns, not a --duel")
    if opponent is None and bug in RACE_BUGS:
        raise InputError(f"the bug {bug} is a race's: play races with --duel")
    if decisions is not None and out is not None and Path(decisions).resolve() == \
            Path(out).resolve():
        raise InputError("--decisions and --out name the same file")
    comment = run_command("dalek", policy=policy, duel=opponent,
                          target=None if opponent is None else target, n=count, seed=seed,
                          faces=" ".join(weighted(rules.die)), dice=rules.dice,
                          tie_rule=rules.tie_rule, bug=bug)
    if opponent is not None:
        pairs = _pairs(rules, [policy, opponent], True, force)
        header, columns, summary = _duel(pairs, policy, opponent, target, count, generator(seed),
                                         force, bug)
    else:
        pairs = _pairs(rules, [policy], False, force)
        chosen = dp.parse_policy(policy, pairs)
        if decisions is not None:
            cost.check_decisions(count, force)
        log = Decisions([], [], [], [], []) if decisions is not None else None
        play = None if bug is None else BUGS[bug](rules)
        scores, seconds = timed(dalek_turns, chosen, count, generator(seed), play=play,
                                decisions=log)
        header, columns = ["score"], [scores.tolist()]
        summary = {"unit": "turn", "policy": chosen.name, "mean": float(scores.mean()),
                   "seconds": seconds}
        if log is not None:
            names, rows = decision_rows(pairs.turn, log)
            write_samples(decisions, sample_text(comment, names, rows))
            summary["decisions"] = len(rows)
    summary.update(samples=count, seed=seed)
    finish_run(out, comment, header, columns, summary, as_json)


def _duel(pairs: arrays.Pairs, policy: str, opponent: str, target: int, count: int, rng,
          force: bool, bug: str | None = None) -> tuple[list[str], list, dict]:
    """Races between seat 1 (`policy`) and seat 2 (`opponent`), unless their cost is refused:
    the race solved for a "win" seat, and the games played (with `bug`, deliberately
    wrong)."""
    policies = (dp.parse_policy(policy, pairs, duel=True),
                dp.parse_policy(opponent, pairs, duel=True))
    racing = [isinstance(p, dp.RacePolicy) for p in policies]
    check_games(pairs, count, target, [dp.mean_points(pairs, p) for p in policies], racing,
                force)
    values = duels.solve_duel(pairs, policies, target, force=force).values if any(racing) else None
    if bug in BUGS and not all(isinstance(p, dp.TurnPolicy) for p in policies):
        raise InputError("a turn's bug plays fixed turn policies only (not win)")
    seats = race_seats(pairs, policies, values, rng, BUGS[bug](pairs.rules) if bug in BUGS
                       else None)
    (scores, winner, turns), seconds = timed(dalek_games, seats, target, count,
                                             RACE_BUGS.get(bug))
    summary = {"unit": "game", "policies": [policy, opponent], "target": target,
               "wins": [int((winner == s).sum()) for s in (0, 1)],
               "ties": int((winner < 0).sum()), "seconds": seconds}
    return (["winner", "score_1", "score_2", "turns"],
            [winner_names(winner), scores[:, 0].tolist(), scores[:, 1].tolist(),
             turns.tolist()], summary)


def weighted(die) -> list[str]:
    """The die's faces as --faces takes them, a weight written as FACE:W."""
    return [f if w == 1 else f"{f}:{w}" for f, w in zip(die.faces, die.weights)]


@click.command("dalek")
@play_options
@verify_options
@json_option
def verify(rules, force, policy, opponent, target, samples, decisions, alpha, test, top,
           as_json, watch) -> None:
    """Dalek Dice: turn scores (or races, with --duel: winner, final scores, turns) of a
    simulator, or its moves."""
    game = f"Dalek Dice ({rules.dice} dice: {rules.label}; tie rule {rules.tie_rule})"
    if decisions is not None:
        no_samples(samples, watch)
        _decisions(rules, game, decisions, target, force, top, as_json)
        return
    named = [policy] if opponent is None else [policy, opponent]
    pairs = _pairs(rules, named, True, force)
    if opponent is not None:
        policies = (dp.parse_policy(policy, pairs, duel=True),
                    dp.parse_policy(opponent, pairs, duel=True))
        duel = duels.solve_duel(pairs, policies, target, force=force)
        title = f"{game}, race to {target}: seat 1 plays {policy}, seat 2 plays {opponent}"
        judging = Judging(duel_outcomes(policies, target, title, values=duel.values), watch,
                          _alternatives(pairs, (policy, opponent), target, watch.suspects,
                                        duel.values))
        winner_verdict(title, duel.chances(), samples, alpha, test, top, as_json, judging)
        return
    chosen = dp.parse_policy(policy, pairs)
    possible = pairs.turn.graph.possible_results().tolist()
    title = f"{game}, one turn, policy {chosen.name}"
    judging = Judging(turn_outcomes(title, chosen), watch,
                      _alternatives(pairs, (policy,), None, watch.suspects))
    score_verdict(title, dp.distribution(chosen), [s for s, ok in enumerate(possible) if ok],
                  samples, alpha, test, top, as_json, judging)


def _decisions(rules: Rules, game: str, path: str, target: int, force: bool, top: int,
               as_json: bool) -> None:
    """A decision log: a turn's (scored in expected points) or, with score_1, score_2, ...
    and seat columns, a race's (scored in win share against the race's optimal play)."""
    from solver.samples import header_of, read_text

    for name in given("policy", "opponent"):
        raise InputError(f"{name} has no part in checking a decision log: its moves are "
                         f"scored against optimal play")
    players = len(score_columns(header_of(read_text(path, f"decision log {path}"))))
    for name in given("target") if players < 2 else []:
        raise InputError(f"{name} has no part in checking a turn's decision log (a race's log "
                         f"has score_1, score_2, ... and seat columns)")
    pairs = _pairs(rules, [], True, force)
    if players < 2:
        regrets, moves = decision_regrets(pairs, path)
        regret_report(f"{game}: moves of {path} against optimal play for expected points",
                      "expected points", regrets, moves.extra.get("turn"),
                      lambda r: files.describe_move(pairs, moves, r), top, as_json)
        return
    race = DalekRace(pairs.turn, players, target)
    regrets, moves, scores, seats = race_regrets(pairs, solved(race, False, True, False, force),
                                                 path)

    def describe(r: int) -> dict:
        return {"scores": ",".join(map(str, scores[r].tolist())), "seat": int(seats[r]) + 1,
                **files.describe_move(pairs, moves, r)}

    regret_report(f"{game}, {players}-player race to {target}: moves of {path} against the "
                  f"race's optimal play", "win share", regrets, moves.extra.get("turn"),
                  describe, top, as_json)


def turn_outcomes(title: str, policy: dp.TurnPolicy, play: arrays.Play | None = None) -> Outcomes:
    """A turn of `policy` under `play`'s rules (the policy's own by default), as outcomes."""
    p = np.array([float(x) for x in dp.distribution(policy, play)])
    support = np.flatnonzero(p)
    return Outcomes(title, "turn", {"score": support}, p[support], (score(),))


def _alternatives(pairs: arrays.Pairs, names: tuple[str, ...], target: int | None,
                  suspects: tuple[str, ...], values=None) -> Alternatives:
    """A turn's (one policy) or a duel's (two, and a target) alternatives: the bug corpus
    (both seats), the suspected policies (each seat and both), and the other tie rule. A "win"
    seat keeps playing the declared race's optimal turns (as a simulator that got a rule wrong
    would still follow its solved table); its alternatives under other rules are not built."""
    rules = pairs.rules

    def build(label: str, policies: tuple, play=None, ends=round_over) -> tuple[str, Outcomes]:
        if target is None:
            return label, turn_outcomes(label, policies[0], play)
        if play is not None and not all(isinstance(p, dp.TurnPolicy) for p in policies):
            raise InputError("a turn's bug is played by fixed turn policies only (not win)")
        return label, duel_outcomes(policies, target, label, play, ends, values)

    def declared(on: arrays.Pairs) -> tuple:
        return tuple(dp.parse_policy(n, on, duel=target is not None) for n in names)

    def named(text: str) -> tuple[str, Outcomes]:
        if text in BUGS:
            return build(f"the bug {text}", declared(pairs), BUGS[text](rules))
        if text in RACE_BUGS and target is not None:
            return build(f"the bug {text}", declared(pairs), ends=RACE_BUGS[text])
        words = text.split()
        if len(words) == 2 and words[0] in ("--tie-rule", "--dice"):
            other = Rules(rules.die, int(words[1]) if words[0] == "--dice" and
                          words[1].isdigit() else rules.dice,
                          words[1] if words[0] == "--tie-rule" else rules.tie_rule)
            return build(text, declared(arrays.Pairs.of(compile_turn(other))))
        suspect = dp.parse_policy(text, pairs)
        return build(f"{'every seat' if target else ''} playing {suspect.name}".strip(),
                     (suspect,) * len(names))

    def known() -> dict[str, Outcomes]:
        fixed = all(isinstance(p, dp.TurnPolicy) for p in declared(pairs))
        found = dict(named(bug) for bug in sorted(BUGS) if fixed)
        if target is not None:
            found.update(named(bug) for bug in sorted(RACE_BUGS))
        if fixed:
            found.update([named(f"--tie-rule {'gt' if rules.tie_rule == 'ge' else 'ge'}")])
        for text in suspects:
            found.update([named(text)])
            if target is not None:
                suspect, (first, second) = dp.parse_policy(text, pairs), declared(pairs)
                found.update([build(f"seat 1 playing {suspect.name}", (suspect, second)),
                              build(f"seat 2 playing {suspect.name}", (first, suspect))])
        return found

    return Alternatives(known, named)
