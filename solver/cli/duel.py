"""`dice-solver dalek duel` and `dice-solver pig duel`: policy A against policy B, each seat's
exact chance to win.

`solver.cli.dalek` and `solver.cli.pig` register these commands on their last line. The Dalek
Dice command takes that game's option decorators from `solver.cli.dalek`, which imports this
module while it loads; so it is built on first access (a module `__getattr__`), and loading
`pig` first never has to import `dalek` half-way."""

from __future__ import annotations

from fractions import Fraction

import click

from solver.cli.common import emit, table
from solver.formatting import exact_text

A_HELP = "Seat 1's policy (it moves first)."
B_HELP = "Seat 2's policy."


def seats_text(title: str, names: list[str], seats: list[dict], points: list[str]) -> str:
    """Each seat's policy and chances, as a table."""
    rows = [(s["seat"], name, point, f"{s['p_win']:.10f}", f"{s['p_tie']:.10f}",
             f"{s['value']:.10f}") for s, name, point in zip(seats, names, points)]
    lines = [title, table(["seat", "policy", "turn points", "P(win alone)", "P(tie)", "value"],
                          rows)]
    lines += [f"seat {s['seat']} wins alone with probability exactly {s['p_win_exact']}"
              for s in seats if "p_win_exact" in s]
    return "\n".join(lines)


def _exact_texts(seats: list[dict]) -> list[dict]:
    return [{k: exact_text(v) if isinstance(v, Fraction) else v for k, v in s.items()}
            for s in seats]


@click.command("duel")
@click.option("--a", "first", default="optimal", show_default=True, help=A_HELP + ' "optimal" '
              '(or "win") plays its best response to the other seat; "hold N" holds at N.')
@click.option("--b", "second", default="hold 20", show_default=True, help=B_HELP)
@click.option("--target", type=click.IntRange(2), default=100, show_default=True)
@click.option("--exact", is_flag=True, help="Exact rationals (small targets only).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def pig_duel(first, second, target, exact, as_json) -> None:
    """Two Pig policies against each other: each seat's chance to win."""
    from solver.games import pig_policies as pp

    duel = pp.PigDuel(target, policies=(pp.parse_policy(first), pp.parse_policy(second)))
    chances = pp.win_chances(duel, pp.solve_duel(duel, exact=exact))
    seats = [{"seat": s + 1, "policy": duel.policies[s].name, "p_win": float(p), "p_tie": 0.0,
              "value": float(p), **({"p_win_exact": p} if exact else {})}
             for s, p in enumerate(chances)]
    points = [f"{float(sum(r * q for r, q in enumerate(p.turn_distribution(target)))):.6f}"
              if p.hold is not None else "-" for p in duel.policies]
    title = f"Pig duel to {target}: seat 1 moves first"
    emit({"target": target, "seats": _exact_texts(seats)},
         seats_text(title, [p.name for p in duel.policies], _exact_texts(seats), points),
         as_json)


def _dalek_duel() -> click.Command:
    from solver.cli.dalek import json_option, rules_options
    from solver.games.dalek_race import DEFAULT_TARGET

    @click.command("duel")
    @rules_options
    @click.option("--a", "first", default="win", show_default=True,
                  help=A_HELP + ' win (or optimal): optimal for winning against the other seat; '
                  'points; "keep-daleks K" (alias "hold K"); a policy table (table:FILE).')
    @click.option("--b", "second", default="points", show_default=True, help=B_HELP)
    @click.option("--target", type=click.IntRange(1), default=DEFAULT_TARGET, show_default=True)
    @click.option("--exact", is_flag=True,
                  help="Exact rationals (small targets and few dice only).")
    @json_option
    def dalek_duel(faces, die_file, dice, tie_rule, first, second, target, exact,
                   as_json) -> None:
        """Two Dalek Dice policies race each other: each seat's chance to win.

        A fixed policy plays the same turn whatever the score; "win" plays each turn for its
        share of the win against the other seat (both "win": the game of `dalek game`)."""
        from solver.games import dalek_policies as dp
        from solver.games.dalek_dice import parse_rules
        from solver.games.dalek_turn import compile_turn

        rules = parse_rules(faces, die_file, dice, tie_rule)
        pairs = dp.Pairs.of(compile_turn(rules))
        policies = (dp.parse_policy(pairs, first, duel=True),
                    dp.parse_policy(pairs, second, duel=True))
        duel = dp.solve_duel(pairs, policies, target, exact=exact)
        seats = duel.chances()
        names = [dp.WIN if p is None else p.name for p in policies]
        points = ["-" if p is None else
                  f"{float(sum(s * q for s, q in enumerate(dp.distribution(p)))):.6f}"
                  for p in policies]
        for seat, name in zip(seats, names):
            seat["policy"] = name
        title = (f"Dalek Dice duel to {target} ({rules.dice} dice: {' '.join(rules.die.faces)}; "
                 f"tie rule {rules.tie_rule}): seat 1 moves first")
        data = {"target": target, "seats": _exact_texts(seats),
                "residual": duel.values.residual, "positions": len(duel.values.index)}
        emit(data, seats_text(title, names, _exact_texts(seats), points), as_json)

    return dalek_duel


def __getattr__(name: str):
    if name == "dalek_duel":
        command = _dalek_duel()
        globals()[name] = command
        return command
    raise AttributeError(name)
