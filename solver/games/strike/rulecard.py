"""Strike's throw rules in words (the rules and their values come from rulefamilies.py; kept
apart so that rewording a card does not throw away the cached search): the lines a player reads
at the table, the cost against an opponent who knows your rule (solver.opponents), the frontier
as data (`strike rules`) and the strategy card (`strike card`)."""

from __future__ import annotations

from solver.cards import Card
from solver.games.strike.policies import NEVER, ThrowRule
from solver.games.strike.rulefamilies import DICE, PLAYERS, Learned, optimal_values
from solver.games.strike.rules import NUMBERS
from solver.opponents import KNOWING, KNOWING_MEANS


def rule_lines(rule: ThrowRule, players: int = PLAYERS) -> list[str]:
    """The rule as a player reads it at the table, from the most dice in the arena down."""
    others = "your opponent holds" if players == 2 else "each opponent holds"
    lines = ["Setup: place a number not yet in the arena."]
    if rule.arena <= NUMBERS:
        lines.append(f"{_dice(rule.arena)} or more in the arena: throw again." if rule.arena > 1
                     else "Always throw again.")
    last = rule.arena - (2 if rule.fewer < NEVER else 1)
    for arena, need in ((rule.arena - 1, rule.stocks), (rule.arena - 2, rule.fewer)):
        if need < NEVER and arena >= 1:
            extra = f" and {others} {rule.opponent}+" if arena == last and rule.opponent > 1 \
                else ""
            lines.append(f"{_dice(arena)}: throw again if all stocks together hold {need}+"
                         f"{extra}.")
    return [*lines, "Otherwise stop."]


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def report(rows: list[Learned]) -> dict:
    """The frontier as data: the game, optimal play, each rule, its value and loss."""
    best = optimal_values()
    perfect = sum(best) / len(best)
    return {"players": PLAYERS, "dice": DICE, "p_win_optimal": perfect,
            "p_win_optimal_seats": list(best),
            "frontier": [{"size": r.size, "numbers": r.numbers, "rule": rule_lines(r.rule),
                          "p_win": r.value, "p_win_seats": list(r.seats),
                          "loss": perfect - r.value} for r in rows]}


def cost_words(row: Learned) -> str:
    """What the rule gives up, in words: valued against an opponent who knows your rule (the
    only one Strike's rules are valued against), beside perfect play's own share."""
    best = optimal_values()
    perfect = sum(best) / len(best)
    return (f"Against {KNOWING}, this rule wins {100 * row.value:.2f}% of games; "
            f"perfect play would win {100 * perfect:.2f}% (mean of both seats): "
            f"{100 * (perfect - row.value):.2f} points lost.")


def card(rows: list[Learned]) -> Card:
    """The strategy card: the frontier's best rule, the frontier as a table, its cost."""
    best = optimal_values()
    perfect = sum(best) / len(best)
    table = [("values", "rule", "wins", "lost (pts)")]
    for r in rows:
        table.append((str(r.size), ", ".join(f"{v}" for v in r.numbers.values()),
                      f"{100 * r.value:.2f}%", f"{100 * (perfect - r.value):.2f}"))
    table.append(("perfect", "", f"{100 * perfect:.2f}%", "0"))
    return Card("Strike: throw again?", tuple(rule_lines(rows[-1].rule)), cost_words(rows[-1]),
                tuple(table),
                f"dice-solver strike card: {PLAYERS} players, {DICE} dice each (31-dice "
                f"edition), hit 1/2, miss 0; each rule solved against {KNOWING} "
                f"(strike rules --json)",
                (f"For {PLAYERS} players with {DICE} dice each. Table: the best rule with 1, 2, "
                 f"3 values to remember (an arena size, stock totals); lost: percentage points "
                 f"of games won, against perfect play. {KNOWING_MEANS}",))

