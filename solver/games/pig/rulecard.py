"""Pig rules in words: the lines a player reads at the table, the small table of holds, the
cost against perfect play, the strategy card and the report of `pig rules` (the rules and their
values come from rulefamilies.py; kept apart so that rewording a card does not invalidate the
cached search)."""

from __future__ import annotations

import numpy as np

from solver.cards import Card
from solver.games.pig.rulefamilies import PUBLISHED_RULE, SHAPE, Rule, pace
from solver.opponents import PERFECT, PERFECT_MEANS


def rule_lines(rule: Rule, target: int) -> list[str]:
    """The rule as instructions read at the table, in the order they apply."""
    n = numbers(rule)
    lines = []
    if n.get("end", target) < target:
        lines.append(f"Either score {n['end']}+? Roll on until you reach {target}.")
    ends = [f"{who} {n[k]}+" for k, who in (("end_mine", "your score"),
                                               ("end_theirs", "theirs"))
            if n.get(k, target) < target]
    if ends:
        lines.append(f"{' or '.join(ends).capitalize()}? Roll on until you reach {target}.")
    start = "Otherwise hold" if lines else "Hold"
    if "hold" in n:
        lines.append(f"{start} once the turn total reaches {n['hold']}.")
    else:
        lines.append(f"{start} once the turn total reaches {n['base']} + (their score \u2212 "
                     f"yours) \u00f7 {n['divisor']}, rounded (.5 up).")
    return [*lines, f"Always hold when score plus turn total reaches {target}."]


def pace_table(rule: Rule) -> tuple[tuple[str, ...], ...]:
    """Where a pace rule holds at a few leads: a header row, then rows."""
    n = numbers(rule)
    if "divisor" not in n:
        return ()
    rows = [("you are", "hold at")]
    for lead in (-40, -20, 0, 20, 40):
        at = int(pace(n["base"], n["divisor"], np.int64(0), np.int64(-lead)))
        words = "level" if lead == 0 else f"{'ahead' if lead > 0 else 'behind'} by {abs(lead)}"
        rows.append((words, str(max(at, 1))))
    return tuple(rows)


def cost_words(rule: Rule, optimal_first: float) -> str:
    """What the rule gives up against a perfect opponent (the only one Pig's rules are valued
    against), in words, each seat stated."""
    return (f"Against {PERFECT} it wins {100 * rule.p_first:.1f}% going first and "
            f"{100 * rule.p_second:.1f}% going second (perfect play: "
            f"{100 * optimal_first:.1f}% and {100 * (1 - optimal_first):.1f}%). Starting "
            f"every other game, it loses {100 * rule.loss:.2f} games in 100 more than perfect "
            f"play would.")


def card(rules: list[Rule], optimal_first: float, target: int) -> Card:
    """The strategy card: the frontier's best rule, a table of its holds, its cost, and what
    the smaller rules of the frontier lose."""
    rule = rules[-1]
    simpler = "; ".join(f"{_short(r)}{_PAPER.get((r.shape, r.numbers), '')}: "
                        f"{100 * r.loss:.2f}" for r in rules[:-1])
    notes = ((f"Simpler rules lose (games in 100): {simpler}.",) if simpler else ()) + (
        PERFECT_MEANS,)
    return Card(f"Pig to {target}: when to hold", tuple(rule_lines(rule, target)),
                cost_words(rule, optimal_first), pace_table(rule),
                f"dice-solver pig card: exact values against {PERFECT} (dice-solver pig "
                f"rules)", notes)


_PAPER = {PUBLISHED_RULE: " (Neller-Presser)"}


def _short(rule: Rule) -> str:
    """A rule in a few characters: "hold 24, end 72", "end 71, 21 + gap/8"."""
    n = numbers(rule)
    words = {"end": lambda: f"end {n['end']}",
             "end_mine": lambda: f"ends {n['end_mine']}/{n['end_theirs']}",
             "hold": lambda: f"hold {n['hold']}",
             "base": lambda: f"{n['base']} + gap/{n['divisor']}"}
    return ", ".join(say() for name, say in words.items() if name in n)


def numbers(rule: Rule) -> dict[str, int]:
    """The rule's numbers by name."""
    return dict(zip(SHAPE[rule.shape].numbers, rule.numbers))


def report(best: list[Rule], paper: list[Rule], optimal_first: float, target: int) -> dict:
    """The frontier and the calibration as data."""
    def entry(rule: Rule) -> dict:
        return {"size": rule.size, "family": rule.shape,
                "numbers": numbers(rule),
                "rule": rule_lines(rule, target), "p_first": rule.p_first,
                "p_second": rule.p_second, "p_mean": rule.mean, "loss": rule.loss,
                "p_self_first": rule.p_self}

    return {"p_optimal_first": optimal_first,
            "frontier": [entry(r) for r in best], "calibration": [entry(r) for r in paper]}
