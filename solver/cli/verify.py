"""`dice-solver verify GAME ...`: is a simulator right? Its samples against the exact distribution
of the same play (a goodness-of-fit verdict), or its moves against optimal play (regrets).
Formats and thresholds: docs/verify.md."""

from __future__ import annotations

from fractions import Fraction

import click
import numpy as np

from solver.cli.common import emit, table
from solver.cli.dalek import json_option
from solver.cli.simulate import (
    dalek_play_options,
    pig_play_options,
    strike_game,
    strike_options,
    totd_adventure,
    totd_options,
)
from solver.errors import InputError
from solver.formatting import exact_text
from solver.verify import ALPHA, TESTS

REJECTED = 1  # exit status of a rejected simulator (bad input is 2), for scripts and CI
TEST_NAMES = {"pearson": "Pearson chi-square", "g": "G-test"}


def check_options(command):
    """What to check and how strictly: shared by every game."""
    for option in reversed([
        click.option("--samples", default=None,
                     help="A simulator's sample file (CSV, docs/verify.md). Without --samples "
                          "and --decisions: print the exact distribution a simulator must "
                          "match."),
        click.option("--decisions", default=None,
                     help="A decision log (CSV of positions and moves): each move's regret "
                          "against optimal play."),
        click.option("--alpha", type=float, default=ALPHA, show_default=True,
                     help="Significance level of the verdict (the false-alarm rate)."),
        click.option("--test", type=click.Choice(sorted(TESTS)), default="pearson",
                     show_default=True, help="Pearson's chi-square or the G-test."),
        click.option("--top", type=click.IntRange(0), default=5, show_default=True,
                     help="How many of the most deviating outcomes (or worst moves) to list."),
    ]):
        command = option(command)
    return command


@click.group()
def verify() -> None:
    """Check a simulator: samples against the exact distribution, or moves against optimal play.

    Exit status: 0 when the samples are consistent with the exact distribution, 1 when the
    verdict rejects them, 2 for bad input."""


@verify.command("dalek")
@dalek_play_options
@check_options
@json_option
def dalek(faces, die_file, dice, tie_rule, policy, opponent, target, samples, decisions, alpha,
          test, top, as_json) -> None:
    """Dalek Dice: turn scores (or race winners, with --duel) of a simulator, or its moves."""
    from solver.games import dalek_policies as dp
    from solver.games.dalek_dice import parse_rules
    from solver.games.dalek_turn import compile_turn

    rules = parse_rules(faces, die_file, dice, tie_rule)
    pairs = dp.Pairs.of(compile_turn(rules))
    game = (f"Dalek Dice ({rules.dice} dice: {' '.join(rules.die.faces)}; tie rule "
            f"{rules.tie_rule})")
    if decisions is not None:
        _no_samples(samples)
        regrets, moves = dp.decision_regrets(pairs, decisions)
        turns = moves.extra.get("turn")
        _regret_report(f"{game}: moves of {decisions} against optimal play for expected points",
                       "expected points", regrets, turns,
                       lambda r: dp.describe_move(pairs, moves, r), top, as_json)
        return
    if opponent is not None:
        policies = (dp.parse_policy(pairs, policy, duel=True),
                    dp.parse_policy(pairs, opponent, duel=True))
        seats = dp.solve_duel(pairs, policies, target).chances()
        title = f"{game}, race to {target}: seat 1 plays {policy}, seat 2 plays {opponent}"
        _games(title, seats, samples, alpha, test, top, as_json)
        return
    chosen = dp.parse_policy(pairs, policy)
    possible = pairs.turn.graph.possible_results().tolist()
    _scores(f"{game}, one turn, policy {chosen.name}", dp.distribution(chosen),
            [s for s, ok in enumerate(possible) if ok], samples, alpha, test, top, as_json)


@verify.command("pig")
@pig_play_options
@click.option("--exact", is_flag=True, help="Exact win probabilities in a duel (small targets).")
@check_options
@json_option
def pig(policy, opponent, target, exact, samples, decisions, alpha, test, top, as_json) -> None:
    """Pig: turn totals (or game winners, with --duel) of a simulator, or its moves."""
    from solver.games import pig_policies as pp

    if decisions is not None:
        _no_samples(samples)
        regrets, lines, columns = pp.decision_regrets(target, decisions)

        def describe(r: int) -> dict:
            return {"line": int(lines[r]), "score": int(columns["score"][r]),
                    "opponent": int(columns["opponent"][r]),
                    "turn_total": int(columns["turn_total"][r]),
                    "move": pp.MOVES[int(columns["move"][r])]}

        _regret_report(f"Pig to {target}: moves of {decisions} against optimal play",
                       "P(win)", regrets, None, describe, top, as_json)
        return
    chosen = pp.parse_policy(policy)
    if opponent is not None:
        duel = pp.PigDuel(target, policies=(chosen, pp.parse_policy(opponent)))
        chances = pp.win_chances(duel, pp.solve_duel(duel, exact=exact))
        seats = [{"seat": s + 1, "p_win": float(p), "p_tie": 0.0, "value": float(p),
                  **({"p_win_exact": p} if exact else {})} for s, p in enumerate(chances)]
        title = f"Pig to {target}: seat 1 plays {chosen.name}, seat 2 plays {duel.policies[1].name}"
        _games(title, seats, samples, alpha, test, top, as_json)
        return
    _scores(f"Pig, one turn from 0 (target {target}), policy {chosen.name}",
            chosen.turn_distribution(target), [0, *range(2, target + 6)],  # rules 15, 16
            samples, alpha, test, top, as_json)


@verify.command("strike")
@strike_options
@click.option("--exact", is_flag=True, help="Exact probabilities (small games only).")
@check_options
@json_option
def strike(players, edition, dice, hit, miss, policy, opponent, exact, samples, decisions,
           alpha, test, top, as_json) -> None:
    """Strike: the winner and the winner's dice left of each game of a simulator."""
    from solver.formatting import exact_text
    from solver.games.strike_policies import outcome_chances, solve_duel, win_chances
    from solver.verify import read_outcomes

    if decisions is not None:
        raise InputError("decision logs are read for Dalek Dice and Pig only")
    game = strike_game(players, edition, dice, hit, miss, policy, opponent)
    solution = solve_duel(game, exact=exact)
    seats = ", ".join(f"seat {s + 1} {p}" for s, p in enumerate(game.policies))
    chances = ", ".join(f"{float(p):.6f}" for p in win_chances(game, solution))
    title = (f"Strike, {players} players, {game.dice} dice each, hit {exact_text(game.hit)}, "
             f"miss {exact_text(game.miss)} ({seats}; P(win) {chances})")
    labels = [f"{w + 1}:{k}" for w in range(players) for k in range(game.stocks)]

    def read(path: str) -> np.ndarray:
        winner = read_outcomes(path, "winner", [str(w + 1) for w in range(players)])
        stock = read_outcomes(path, "winner_stock", [str(k) for k in range(game.stocks)])
        return winner * game.stocks + stock

    _outcomes(title, "winner:stock", labels, outcome_chances(game, solution), None, samples,
              alpha, test, top, as_json, read)


@verify.command("totd")
@totd_options
@check_options
@json_option
def totd(need, pool, policy, dice_file, sonic, rerolls, changes, samples, decisions, alpha,
         test, top, as_json) -> None:
    """Time of the Daleks: the successes (1) and failures (0) of a simulator's Adventures."""
    from solver.games.totd_policies import PLAN, Plan, parse_policy
    from solver.games.totd_solver import Solver

    if decisions is not None:
        raise InputError("decision logs are read for Dalek Dice and Pig only")
    adventure = totd_adventure(need, pool, dice_file, sonic, rerolls, changes)
    chosen = parse_policy(policy)
    success = Plan(adventure).success() if chosen == PLAN else \
        Solver(adventure, exact=True).p_success()
    tools = adventure.doctors[0].tools.text(adventure.game)
    title = f"Time of the Daleks: {need}; pool {pool}; {tools}; policy {chosen}"
    _outcomes(title, "success", ["0", "1"], [1 - success, success], [0, 1], samples, alpha,
              test, top, as_json)


def _no_samples(samples: str | None) -> None:
    if samples is not None:
        raise InputError("give --samples or --decisions, not both")


def _scores(title: str, exact: list[Fraction], scores: list[int], samples: str | None,
            alpha: float, test: str, top: int, as_json: bool) -> None:
    """Turn scores: `scores` are what the game can produce at all, `exact[s]` the policy's
    probability of score s (the list stops at its highest possible score)."""
    padded = exact + [Fraction(0)] * (max(scores) + 1 - len(exact))
    _outcomes(title, "score", [str(s) for s in scores], [padded[s] for s in scores], scores,
              samples, alpha, test, top, as_json)


def _games(title: str, seats: list[dict], samples: str | None, alpha: float, test: str,
           top: int, as_json: bool) -> None:
    """Winners of two-seat games: seat 1, seat 2, or a tie for first (a category with
    probability 0, as in Pig, is simply never expected)."""
    exact = [Fraction(seats[0].get("p_win_exact", seats[0]["p_win"])),
             Fraction(seats[1].get("p_win_exact", seats[1]["p_win"])),
             Fraction(seats[0].get("p_tie_exact", seats[0]["p_tie"]))]
    _outcomes(title, "winner", ["1", "2", "tie"], exact, None, samples, alpha, test, top,
              as_json)


def _outcomes(title: str, column: str, labels: list[str], exact: list[Fraction],
              values: list[int] | None, samples: str | None, alpha: float, test: str, top: int,
              as_json: bool, read=None) -> None:
    """The verdict on a sample file, or without one the exact distribution it must follow.
    `read(path)` gives the samples' outcomes as indices into `labels` (by default the one
    column named `column`)."""
    from solver.verify import goodness_of_fit, read_outcomes

    if samples is None:
        rows = [(label, f"{float(p):.12f}", exact_text(p)) for label, p in zip(labels, exact)
                if p]
        data = {"title": title, "outcome": column,
                "distribution": {label: float(p) for label, p in zip(labels, exact) if p},
                "distribution_exact": {label: exact_text(p) for label, p in zip(labels, exact)
                                       if p}}
        lines = [f"{title}: the exact distribution a simulator must match", "",
                 table([column, "probability", "exact"], rows)]
        if values is not None:
            mean = sum((v * p for v, p in zip(values, exact)), Fraction(0))
            data.update(mean=float(mean), mean_exact=exact_text(mean))
            lines.insert(1, f"mean {float(mean):.12f} = {exact_text(mean)}")
        emit(data, "\n".join(lines), as_json)
        return
    index = read_outcomes(samples, column, labels) if read is None else read(samples)
    counts = np.bincount(index, minlength=len(labels))
    report = goodness_of_fit(labels, exact, counts, alpha, test, top, values)
    report.update(title=title, samples_file=samples, outcome=column)
    emit(_jsonable(report), _verdict_text(title, samples, column, report), as_json)
    if report["verdict"] == "rejected":
        click.get_current_context().exit(REJECTED)


def _verdict_text(title: str, samples: str, column: str, report: dict) -> str:
    lines = [f"{title}: {report['samples']} samples from {samples}"]
    level = f"alpha {report['alpha']:g}"
    if report.get("never"):
        shown = ", ".join(f"{column} {o['outcome']} ({o['observed']} times)"
                          for o in report["never"])
        lines.append(f"verdict: REJECTED: this play never produces {shown}")
    else:
        word = "REJECTED" if report["verdict"] == "rejected" else "consistent with the exact " \
                                                                   "distribution"
        lines.append(f"verdict: {word} ({TEST_NAMES[report['test']]} {report['statistic']:.2f} "
                     f"on {report['dof']} degrees of freedom, p = {report['p_value']:.3g}, "
                     f"{level})")
        pooled = ", ".join(report["pooled"]) or "none"
        lines.append(f"{report['bins']} bins; outcomes expected fewer than "
                     f"{report['min_expected']:g} times pooled into one: {pooled}")
    mean = report.get("mean")
    if mean is not None:
        where = "inside" if mean["inside"] else "OUTSIDE"
        lines.append(f"mean: exact {mean['exact']:.6f}, sample {mean['sample']:.6f}, "
                     f"{100 * mean['confidence']:g}% interval [{mean['low']:.6f}, "
                     f"{mean['high']:.6f}]: exact mean {where} (z = {mean['z']:.2f})")
    if report["deviations"]:
        rows = [(d["outcome"], d["observed"], f"{d['expected']:.1f}", f"{d['z']:.2f}")
                for d in report["deviations"]]
        lines += ["", "most deviating outcomes:",
                  table([column, "observed", "expected", "z"], rows)]
    return "\n".join(lines)


def _regret_report(title: str, unit: str, regrets: np.ndarray, turns: list[str] | None,
                   describe, top: int, as_json: bool) -> None:
    """Totals of a decision log's regrets and its worst moves."""
    from solver.verify import regret_summary

    data = {"title": title, "unit": unit, **regret_summary(regrets, turns, describe, top)}
    lines = [title,
             f"{data['moves']} moves, {data['optimal_moves']} optimal; total regret "
             f"{data['total_regret']:.6f} ({unit}), {data['mean_regret_per_move']:.6f} per move"]
    if "turns" in data:
        lines.append(f"{data['turns']} turns: {data['mean_regret_per_turn']:.6f} per turn")
    if data["worst"]:
        keys = [k for k in data["worst"][0] if k != "regret"]
        rows = [[w[k] for k in keys] + [f"{w['regret']:.6f}"] for w in data["worst"]]
        lines += ["", "worst moves:", table([*keys, "regret"], rows)]
    emit(data, "\n".join(lines), as_json)


def _jsonable(value):
    """Infinite numbers as strings, which JSON has no number for."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return "inf" if isinstance(value, float) and np.isinf(value) else value
