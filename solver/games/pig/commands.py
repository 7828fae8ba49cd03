"""`dice-solver pig ...`: Pig, the calibration game with published optimal-play results."""

from __future__ import annotations

import time
from pathlib import Path

import click

from solver.commands import card_option, emit, json_option, table
from solver.formatting import exact_text
from solver.games.pig.cost import MAX_TARGET, refuse_solves
from solver.games.pig.rules import PLAYERS
from solver.opponents import PERFECT

# Neller and Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25(1), 2004: to 100,
# the first player wins about 0.5306 under optimal play and about 0.5347 when both hold at 20.
PUBLISHED = {100: {None: 0.5306, 20: 0.5347}}  # target -> hold (None: optimal play) -> P

A_HELP = "Seat 1's policy (it moves first)."
B_HELP = "Seat 2's policy."
TARGET_HELP = f"The score that wins at once (2 to {MAX_TARGET:,})."


def target_option(command):
    """--target, bounded: beyond MAX_TARGET no solve fits in memory."""
    return click.option("--target", type=click.IntRange(2, MAX_TARGET), default=100,
                        show_default=True, help=TARGET_HELP)(command)


def force_option(command):
    """--force: run a solve estimated to take longer than the time budget."""
    return click.option("--force", is_flag=True,
                        help="Run even if the solve is estimated to take longer than the "
                             "budget ($DICE_SOLVER_BUDGET seconds, default 2 h).")(command)


def rules_of(target: int) -> dict:
    """The rules an answer was computed under (docs/rules.md, "Pig")."""
    return {"game": "pig", "target": target, "players": PLAYERS}


def timings(start: float, cached: bool = False) -> dict:
    """How long the command took, and whether its answer was read from the cache."""
    return {"total": time.perf_counter() - start, "cached": cached}


def solved_game(target: int, hold: int, exact: bool, quiet: bool, force: bool
                ) -> tuple[list[dict], bool]:
    """`pig game`'s two solves (optimal play, both holding at `hold`), each entry with its
    solve's seconds, from the cache when this very question was solved before (and whether
    it was); solved and stored otherwise."""
    from solver import cache

    key = {"kind": "pig_game", "format": 1, "target": target, "hold": hold, "exact": exact,
           "code": cache.code_hash(__name__)}
    stored = cache.load_json(key)
    if isinstance(stored, list):
        return stored, True
    from solver.engine.cyclic import solve
    from solver.games.pig.model import PigGame
    from solver.progress import Progress

    refuse_solves(f"Pig to {target}", target, [(None, None), (hold, hold)], exact, force)
    policies = []
    for name, holds in (("optimal", None), (f"hold {hold}", hold)):
        rules = PigGame(target, holds)
        label = name if holds is None else f"hold at {hold}"
        with Progress(f"Pig to {target}, {label}", quiet) as progress:
            solution = solve(rules, rules.start(), exact=exact, progress=progress.steps)
        entry = {"name": name, "p_first_wins": float(solution.values(rules.start())[0])}
        if exact:
            entry["p_first_wins_exact"] = exact_text(solution.exact_values(rules.start())[0])
        entry.update(published=PUBLISHED.get(target, {}).get(holds),
                     residual=solution.residual, positions=solution.size,
                     seconds=solution.seconds["total"])
        policies.append(entry)
    cache.store_json(key, policies)
    return policies, False


@click.group()
def pig() -> None:
    """Pig: roll one die, a 1 loses the turn total; first to the target wins."""


@pig.command()
@target_option
@click.option("--hold", type=click.IntRange(1), default=20, show_default=True,
              help='Also evaluate both players holding at this total (1 or more) or at the '
                   'goal.')
@click.option("--exact", is_flag=True, help="Exact rationals (small targets only).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@force_option
@json_option
def game(target, hold, exact, quiet, force, as_json) -> None:
    """The first player's chance to win, under optimal play and under "hold at N" (read from
    the cache once solved; the seconds are the solve's)."""
    start = time.perf_counter()
    policies, cached = solved_game(target, hold, exact, quiet, force)
    rows = [("optimal" if p["name"] == "optimal" else f"hold at {hold}",
             f"{p['p_first_wins']:.10f}", "" if p["published"] is None else p["published"],
             f"{p['residual']:.1e}", f"{p['seconds']:.1f}") for p in policies]
    lines = [f"Pig to {target}, 2 players: probability that the first player wins",
             table(["play", "P(first wins)", "published", "residual", "seconds"], rows)]
    if exact:
        lines += [f"{row[0]} exactly: {entry['p_first_wins_exact']}"
                  for row, entry in zip(rows, policies)]
    emit({"rules": rules_of(target), "policies": policies, "timings": timings(start, cached)},
         "\n".join(lines), as_json)


@pig.command("duel")
@click.option("--a", "first", default="optimal", show_default=True, help=A_HELP + ' "optimal" '
              '(or "win") plays its best response to the other seat; "hold N" holds at N.')
@click.option("--b", "second", default="hold 20", show_default=True, help=B_HELP)
@target_option
@click.option("--exact", is_flag=True, help="Exact rationals (small targets only).")
@force_option
@json_option
def duel(first, second, target, exact, force, as_json) -> None:
    """Two Pig policies against each other: each seat's chance to win (Pig has no ties)."""
    from solver.games.pig import policies as pp

    start = time.perf_counter()
    duel = pp.PigDuel(target, policies=(pp.parse_policy(first), pp.parse_policy(second)))
    refuse_solves(f"a Pig duel to {target}", target, [[p.hold for p in duel.policies]], exact,
                  force)
    chances = pp.win_chances(duel, pp.solve_duel(duel, exact=exact))
    seats = []
    for seat, (policy, p) in enumerate(zip(duel.policies, chances)):
        entry = {"seat": seat + 1, "policy": policy.name, "p_win": float(p)}
        if exact:
            entry["p_win_exact"] = exact_text(p)
        seats.append(entry)
    points = [f"{float(sum(r * q for r, q in enumerate(p.turn_distribution(target)))):.6f}"
              if p.hold is not None else "-" for p in duel.policies]
    rows = [(s["seat"], s["policy"], point, f"{s['p_win']:.10f}")
            for s, point in zip(seats, points)]
    lines = [f"Pig duel to {target}: seat 1 moves first",
             table(["seat", "policy", "turn points", "P(win)"], rows)]
    lines += [f"seat {s['seat']} wins with probability exactly {s['p_win_exact']}"
              for s in seats if exact]
    emit({"rules": rules_of(target), "seats": seats, "timings": timings(start)},
         "\n".join(lines), as_json)


@pig.command("rules")
@target_option
@force_option
@json_option
def rules_command(target, force, as_json) -> None:
    """When to hold, as rules a player can remember: the best rule of each size (how many
    numbers to remember), its exact chance of winning against a perfect opponent going first
    and going second, and its loss; to 100 also Neller and Presser's rule (the calibration)."""
    from solver.games.pig import rulecard as rc
    from solver.games.pig import rulefamilies as rf

    start = time.perf_counter()
    best, paper, optimal_first, cached = rf.learned(target, force)
    report = rc.report(best, paper, optimal_first, target)
    lines = [f"Pig to {target}: rules against {PERFECT} (it wins "
             f"{optimal_first:.6f} going first, {1 - optimal_first:.6f} going second)", ""]
    for heading, rows in (("The best rule of each size", report["frontier"]),
                          ("Neller and Presser's rule and the holds they compare it with",
                           report["calibration"])):
        if not rows:
            continue
        lines.append(heading)
        lines.append(table(["size", "numbers", "P(win) first", "second", "mean", "loss",
                            "vs itself"],
                           [(r["size"], " ".join(f"{k}={v}" for k, v in r["numbers"].items()),
                             f"{r['p_first']:.6f}", f"{r['p_second']:.6f}",
                             f"{r['p_mean']:.6f}", f"{r['loss']:.6f}",
                             f"{r['p_self_first']:.6f}") for r in rows]))
        lines.append("")
    lines += [f"size {r['size']}: " + " ".join(r["rule"]) for r in report["frontier"]]
    emit(report | {"rules": rules_of(target),
                   "timings": {"total": time.perf_counter() - start, "cached": cached}},
         "\n".join(lines), as_json)


@pig.command("card")
@card_option
@target_option
@force_option
@json_option
def card_command(out, target, force, as_json) -> None:
    """A strategy card: the best rule of `pig rules` for when to hold, with its cost against
    perfect play in words, each seat stated."""
    from solver.cards import render
    from solver.games.pig import rulecard as rc
    from solver.games.pig import rulefamilies as rf

    start = time.perf_counter()
    best, _, optimal_first, cached = rf.learned(target, force)
    card = rc.card(best, optimal_first, target)
    render(card, Path(out))
    rule = best[-1]
    report = {"out": out, "rule": list(card.rule), "cost": card.cost,
              "numbers": rc.numbers(rule),
              "p_first": rule.p_first, "p_second": rule.p_second, "loss": rule.loss,
              "p_optimal_first": optimal_first, "rules": rules_of(target),
              "timings": {"total": time.perf_counter() - start, "cached": cached}}
    emit(report, f"{out}: {card.rule[0]} ... {card.cost}", as_json)
