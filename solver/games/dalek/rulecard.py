"""The Dalek Dice turn rules of `rulefamilies` in words: the lines a player reads at the table,
the cost against perfect play, the frontier as data (`dalek rules`) and the strategy card
(`dalek card`), and the same for the two-player race (`racefamilies`: `dalek rules --race`,
`dalek card --race`). Kept apart from the search so that rewording a card does not throw away the
cached frontier (its key hashes the search's code)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import gcd

from solver.cards import Card
from solver.formatting import exact_text
from solver.games.dalek.arrays import Pairs
from solver.games.dalek.racefamilies import SLOPE, RaceRule, Valued
from solver.games.dalek.rulefamilies import NEVER, Learned, TurnRule, most_humans, optimal
from solver.games.dalek.rules import Rules
from solver.opponents import KNOWING, KNOWING_MEANS, PERFECT, PERFECT_MEANS


def top_human(rules: Rules) -> str:
    """The highest Human face, as the die names it (H4)."""
    return rules.die.faces[max(rules.human_faces, key=rules.value)]


# a Human that does not fit does not end the keep: a lower one may still fit
HUMANS_THAT_FIT = "Humans, highest first, each if the Daleks still hold with it"
NOTHING_KEPT = "Nothing kept on a roll? Keep the lowest Dalek, else the lowest Human."


def rule_lines(rules: Rules, rule: TurnRule, stop: str | None = None) -> list[str]:
    """The rule as instructions a player reads at the table, in the order they apply; a rule
    also needs NOTHING_KEPT (the card prints it in small type). `stop`: the words
    of a threshold that is not a number (a race rule's, which follows the scores)."""
    lines = []
    if rule.hunt < NEVER:
        when = ("Exterminates \u2265 Doctors" if rule.hunt == 0 else
                f"Exterminates \u2265 Doctors + {rule.hunt}" if rule.hunt > 0 else
                f"Exterminates + {-rule.hunt} \u2265 Doctors")
        lines += [f"Hunt while kept {when}: keep every {top_human(rules)} and no Dalek; then "
                  f"other {HUMANS_THAT_FIT}.",
                  f"Else keep every Dalek. Then {HUMANS_THAT_FIT}."]
    else:
        lines.append(f"Keep every Dalek, then {HUMANS_THAT_FIT}.")
    if rule.grab:
        lines.append("3rd Exterminate: keep all rolled.")
    most = most_humans(rules)
    extra = []
    if rule.doctor_stop is not None and rule.doctor_stop < min(rule.stop, most):
        extra.append(f"{rule.doctor_stop}+ with two Doctors")
    if rule.late_stop is not None and rule.late_stop < min(rule.stop, most) and rule.late_dice:
        extra.append(f"{rule.late_stop}+ with {rule.late_dice} or fewer dice left")
    if stop is not None or rule.stop < most:
        limit = stop or rule.stop
        lines.append(f"Stop at {limit}+ Humans{' (' + '; '.join(extra) + ')' if extra else ''}"
                     f" if the Daleks hold.")
    elif extra:
        lines.append(f"Stop only at {' or '.join(extra)}, if the Daleks hold.")
    else:
        lines.append("Never stop: roll until no dice are left.")
    return lines


def all_lines(rules: Rules, rule: TurnRule) -> list[str]:
    return [*rule_lines(rules, rule), NOTHING_KEPT]


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
    notes = [NOTHING_KEPT]
    added = {w for row in table[2:-1] for w in row[0].removeprefix("+ ").split(", ")}
    notes.append("Table: each row adds to the rule above"
                 + "".join(f"; {w}: {_DEFINITIONS[w]}" for w in _DEFINITIONS if w in added)
                 + "; P(0): the turn scores nothing.")
    notes = [" ".join(notes)]
    return Card("Dalek Dice: one turn", tuple(rule_lines(pairs.rules, chosen.rule)),
                cost_words(chosen), tuple(table), footer, tuple(notes))


_NUMBER_WORDS = {"grab": "grab", "hunt": "hunt", "doctor_stop": "Doctors", "late_dice": "late T",
                 "late_stop": "late T"}
_DEFINITIONS = {"grab": "keep all rolled on the 3rd Exterminate",  # what each table row adds
                "hunt": "the Hunt line", "Doctors": "the lower stop with two Doctors",
                "late T": "the lower stop with few dice left"}


# ---- the two-player race (racefamilies) -------------------------------------------------------
RACE_MARGIN = 0.005  # the race card prints the smallest rule within half a game in 100 of the best
LEADS = (-20, 0, 20)  # the leads the race card's table shows


def race_lines(rules: Rules, rule: RaceRule, target: int) -> list[str]:
    """A race rule as instructions read at the table: the turn rule with its threshold T (a
    number, or T when it follows the scores), then the final round."""
    lines = rule_lines(rules, replace(rule.base, stop=rule.a), "T" if rule.b else None)
    return [*lines, f"They hit {target}? Roll until past them."]


def formula(rule: RaceRule) -> str:
    """How T follows the scores."""
    return (f"T = {rule.a} + {_tenths(rule.b)} x (their score \u2212 yours), rounded down to "
            f"even.")


def _tenths(b: int) -> str:
    return f"{b / SLOPE:g}"


def race_table(rules: Rules, rule: RaceRule) -> tuple[tuple[str, ...], ...]:
    """T at a few leads, for a rule whose threshold follows the scores."""
    if not rule.b:
        return ()
    humans = [rules.value(f) for f in rules.human_faces]
    most, step = most_humans(rules), gcd(*humans)
    rows = [("you are", "stop at")]  # T is the threshold the rule line names
    for lead in LEADS:
        words = "level" if lead == 0 else f"{'ahead' if lead > 0 else 'behind'} by {abs(lead)}"
        rows.append((words, f"T = {rule.at(-lead, most, step)}"))
    return tuple(rows)


def race_cost_words(row: Valued, optimal_first: float) -> str:
    """What a race rule gives up, in words: against a perfect opponent, each seat; and against
    an opponent who knows your rule (solver.opponents)."""
    words = (f"Against {PERFECT}: {100 * row.first:.1f}% first, "
             f"{100 * row.second:.1f}% second, {100 * row.mean:.1f} games in 100 (perfect "
             f"play: 50).")
    if row.beaten_first is not None:
        words += (f" Against {KNOWING}: "
                  f"{50 * (row.beaten_first + row.beaten_second):.1f}.")
    return words


def race_card_row(rows: list[Valued]) -> Valued:
    """The rule the race card prints: the smallest of the frontier within RACE_MARGIN of its
    best mean (a number more for less than half a game in 100 is not worth the trouble)."""
    return next(r for r in rows if r.mean >= rows[-1].mean - RACE_MARGIN)


def race_card(rules: Rules, rows: list[Valued], optimal_first: float, target: int,
              footer: str) -> Card:
    """The race card: the rule of `race_card_row`, its thresholds by lead, its cost, and what
    the frontier's other rules win."""
    chosen = race_card_row(rows)
    at = rows.index(chosen)
    simpler = "; ".join(f"{_race_short(r)}: {100 * r.mean:.1f}" for r in rows[:at])
    notes = [formula(chosen.rule)] if chosen.rule.b else []
    notes += [NOTHING_KEPT, PERFECT_MEANS] + (
        [KNOWING_MEANS] if chosen.beaten_first is not None else [])
    if simpler:
        notes.append(f"Simpler rules win (games in 100): {simpler}.")
    if rows[at + 1:]:
        notes.append(f"Rules with more to remember win up to "
                     f"{100 * max(r.mean for r in rows[at + 1:]):.1f}, under half a game more.")
    return Card(f"Dalek Dice: race to {target}", tuple(race_lines(rules, chosen.rule, target)),
                race_cost_words(chosen, optimal_first), race_table(rules, chosen.rule), footer,
                (" ".join(notes),))


def _race_short(row: Valued) -> str:
    """A race rule in a few words: "hunt, stop at 12 + 0.4 x behind"."""
    base = row.rule.base
    keeps = [w for n, w in _NUMBER_WORDS.items() if n in base.numbers and n != "late_dice"]
    stop = f"stop at {row.rule.a}" + (f" + {_tenths(row.rule.b)} x behind" if row.rule.b else "")
    return ", ".join([*dict.fromkeys(keeps), stop])


def race_report(rules: Rules, rows: list[Valued], optimal_first: float, target: int) -> dict:
    """The race frontier as data."""
    def entry(row: Valued) -> dict:
        mean_beaten = None if row.beaten_first is None else (
            row.beaten_first + row.beaten_second) / 2
        return {"size": row.size, "numbers": row.rule.numbers,
                "rule": race_lines(rules, row.rule, target) + (
                    [formula(row.rule)] if row.rule.b else []) + [NOTHING_KEPT],
                "p_first": row.first, "p_second": row.second, "p_mean": row.mean,
                "loss": row.loss, "p_self_first": row.self_first,
                "p_beaten_first": row.beaten_first, "p_beaten_second": row.beaten_second,
                "p_beaten_mean": mean_beaten}

    return {"target": target, "players": 2, "p_optimal_first": optimal_first,
            "frontier": [entry(r) for r in rows]}
