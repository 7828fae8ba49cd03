"""The Dalek Dice turn rules of `rulefamilies` in words: the lines a player reads at the table,
the cost against perfect play, the frontier as data (`dalek rules`) and the strategy card
(`dalek card`). Kept apart from the search so that rewording a card does not throw away the
cached frontier (its key hashes the search's code)."""

from __future__ import annotations

from fractions import Fraction

from solver.cards import Card
from solver.formatting import exact_text
from solver.games.dalek.policies import Pairs
from solver.games.dalek.rulefamilies import NEVER, Learned, TurnRule, most_humans, optimal
from solver.games.dalek.rules import Rules


def top_human(rules: Rules) -> str:
    """The highest Human face, as the die names it (H4)."""
    return rules.die.faces[max(rules.human_faces, key=rules.value)]


NOTHING_KEPT = "Nothing kept on a roll? Keep the lowest Dalek, else the lowest Human."


def rule_lines(rules: Rules, rule: TurnRule) -> list[str]:
    """The rule as instructions a player reads at the table, in the order they apply; a rule
    that hunts also needs NOTHING_KEPT (the card prints it in small type)."""
    lines = []
    if rule.hunt < NEVER:
        when = ("Exterminates \u2265 Doctors" if rule.hunt == 0 else
                f"Exterminates \u2265 Doctors + {rule.hunt}" if rule.hunt > 0 else
                f"Exterminates + {-rule.hunt} \u2265 Doctors")
        lines += [f"Hunt while kept {when}: keep every {top_human(rules)}, no Dalek.",
                  "Else keep every Dalek. Then Humans, highest first, while the Daleks hold."]
    else:
        lines.append("Keep every Dalek, then Humans, highest first, while the Daleks hold.")
    if rule.grab:
        lines.append("3rd Exterminate: keep all rolled.")
    most = most_humans(rules)
    extra = []
    if rule.doctor_stop is not None and rule.doctor_stop < min(rule.stop, most):
        extra.append(f"{rule.doctor_stop}+ with two Doctors")
    if rule.late_stop is not None and rule.late_stop < min(rule.stop, most) and rule.late_dice:
        extra.append(f"{rule.late_stop}+ with {rule.late_dice} or fewer dice left")
    if rule.stop < most:
        lines.append(f"Stop at {rule.stop}+ Humans{' (' + '; '.join(extra) + ')' if extra else ''}"
                     f" if the Daleks hold.")
    elif extra:
        lines.append(f"Stop only at {' or '.join(extra)}, if the Daleks hold.")
    else:
        lines.append("Never stop: roll until no dice are left.")
    return lines


def all_lines(rules: Rules, rule: TurnRule) -> list[str]:
    return rule_lines(rules, rule) + ([NOTHING_KEPT] if rule.hunt < NEVER else [])


def cost_words(row: Learned) -> str:
    """What the rule gives up against perfect play, in words."""
    return (f"Loses {float(row.loss):.2f} points per turn against perfect play; scores nothing "
            f"{100 * float(row.p_zero):.0f}% of the time.")


def report(pairs: Pairs, rows: list[Learned]) -> dict:
    """The frontier as data: optimal play, and each rule with its worth and loss."""
    best, zero = optimal(pairs)
    return {"expected_points_optimal": float(best), "expected_points_optimal_exact":
            exact_text(best), "p_zero_optimal": float(zero),
            "frontier": [{"size": r.size, "numbers": r.rule.numbers,
                          "rule": all_lines(pairs.rules, r.rule),
                          "expected_points": float(r.points),
                          "expected_points_exact": exact_text(r.points),
                          "loss": float(r.loss), "loss_exact": exact_text(r.loss),
                          "p_zero": float(r.p_zero), "p_zero_exact": exact_text(r.p_zero)}
                         for r in rows]}


CARD_MARGIN = Fraction(1, 20)  # the card prints the smallest rule this close to the best one


def card_row(rows: list[Learned]) -> Learned:
    """The rule the card prints: the smallest of the frontier within CARD_MARGIN points of its
    best (a number more to remember for less than that is not worth the trouble at the table)."""
    return next(r for r in rows if r.points >= rows[-1].points - CARD_MARGIN)


def card(pairs: Pairs, rows: list[Learned], footer: str) -> Card:
    """The strategy card: the rule of `card_row`, the frontier up to it as a table (each row
    names the numbers it adds), its cost in words."""
    best, zero = optimal(pairs)
    chosen = card_row(rows)
    table = [("rule", "points", "lost", "P(0)")]
    for previous, r in zip([None, *rows], rows[:rows.index(chosen) + 1]):
        added = [_NUMBER_WORDS[n] for n in r.rule.numbers
                 if previous is not None and n not in previous.rule.numbers]
        table.append((f"stop at {r.rule.stop}" if previous is None else
                      "+ " + ", ".join(dict.fromkeys(added)),
                      f"{float(r.points):.2f}", f"{float(r.loss):.2f}",
                      f"{100 * float(r.p_zero):.0f}%"))
    table.append(("perfect", f"{float(best):.2f}", "0", f"{100 * float(zero):.0f}%"))
    notes = [NOTHING_KEPT] if chosen.rule.hunt < NEVER else []
    notes.append("Table: each row adds to the rule above; P(0): the turn scores nothing.")
    notes = [" ".join(notes)]
    return Card("Dalek Dice: one turn", tuple(rule_lines(pairs.rules, chosen.rule)),
                cost_words(chosen), tuple(table), footer, tuple(notes))


_NUMBER_WORDS = {"grab": "grab", "hunt": "hunt", "doctor_stop": "Doctors", "late_dice": "late T",
                 "late_stop": "late T"}
