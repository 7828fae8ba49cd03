"""`dice-solver pig ...`: Pig, the calibration game with published optimal-play results."""

from __future__ import annotations

import click

from solver.commands import Progress, emit, json_option, table
from solver.engine.cyclic import solve
from solver.formatting import exact_text, exact_texts, seats_text
from solver.games.pig.model import PigGame

# Neller and Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25(1), 2004: to 100,
# the first player wins about 0.5306 under optimal play and about 0.5347 when both hold at 20.
PUBLISHED = {100: {"optimal": 0.5306, "hold at 20": 0.5347}}

A_HELP = "Seat 1's policy (it moves first)."
B_HELP = "Seat 2's policy."


@click.group()
def pig() -> None:
    """Pig: roll one die, a 1 loses the turn total; first to the target wins."""


@pig.command()
@click.option("--target", type=int, default=100, show_default=True,
              help="The score that wins at once.")
@click.option("--hold", type=int, default=20, show_default=True,
              help='Also evaluate both players holding at this total or at the goal.')
@click.option("--exact", is_flag=True, help="Exact rationals (small targets only).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@json_option
def game(target, hold, exact, quiet, as_json) -> None:
    """The first player's chance to win, under optimal play and under "hold at N"."""
    summary: dict = {"target": target, "players": 2}
    rows = []
    for name, rules in (("optimal", PigGame(target)), (f"hold at {hold}", PigGame(target, hold))):
        progress = Progress(f"Pig to {target}, {name}", quiet)
        solution = solve(rules, rules.start(), exact=exact, progress=progress)
        progress.close()
        first = float(solution.values(rules.start())[0])
        entry = {"p_first_wins": first, "residual": solution.residual,
                 "positions": solution.graph.size, "seconds": solution.seconds["total"]}
        if exact:
            entry["p_first_wins_exact"] = exact_text(solution.exact_values(rules.start())[0])
        published = PUBLISHED.get(target, {}).get(name)
        if published is not None:
            entry["published"] = published
        summary[name] = entry
        rows.append((name, f"{first:.10f}", "" if published is None else published,
                     f"{solution.residual:.1e}", f"{solution.seconds['total']:.1f}"))
    lines = [f"Pig to {target}, 2 players: probability that the first player wins",
             table(["play", "P(first wins)", "published", "residual", "seconds"], rows)]
    if exact:
        lines += [f"{name} exactly: {summary[name]['p_first_wins_exact']}"
                  for name in summary if isinstance(summary[name], dict)]
    emit(summary, "\n".join(lines), as_json)


@pig.command("duel")
@click.option("--a", "first", default="optimal", show_default=True, help=A_HELP + ' "optimal" '
              '(or "win") plays its best response to the other seat; "hold N" holds at N.')
@click.option("--b", "second", default="hold 20", show_default=True, help=B_HELP)
@click.option("--target", type=click.IntRange(2), default=100, show_default=True)
@click.option("--exact", is_flag=True, help="Exact rationals (small targets only).")
@json_option
def duel(first, second, target, exact, as_json) -> None:
    """Two Pig policies against each other: each seat's chance to win."""
    from solver.games.pig import policies as pp

    duel = pp.PigDuel(target, policies=(pp.parse_policy(first), pp.parse_policy(second)))
    chances = pp.win_chances(duel, pp.solve_duel(duel, exact=exact))
    seats = [{"seat": s + 1, "policy": duel.policies[s].name, "p_win": float(p), "p_tie": 0.0,
              "value": float(p), **({"p_win_exact": p} if exact else {})}
             for s, p in enumerate(chances)]
    points = [f"{float(sum(r * q for r, q in enumerate(p.turn_distribution(target)))):.6f}"
              if p.hold is not None else "-" for p in duel.policies]
    title = f"Pig duel to {target}: seat 1 moves first"
    emit({"target": target, "seats": exact_texts(seats)},
         seats_text(title, [p.name for p in duel.policies], exact_texts(seats), points),
         as_json)
