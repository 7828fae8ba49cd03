"""Time of the Daleks tool rules in words (the rules and their exact values come from
rulefamilies.py; kept apart so that rewording a card does not throw away the cached search): the
lines a player reads at the table, the cost against optimal play, the frontier as data (`totd
rules`) and the strategy card (`totd card`)."""

from __future__ import annotations

from solver.cards import Card
from solver.formatting import exact_text
from solver.games.totd.files import load_game
from solver.games.totd.policies import ToolRule
from solver.games.totd.rulefamilies import SCENARIOS, Learned, optimal
from solver.games.totd.typed import parse_pool


def report(rows: list[Learned]) -> dict:
    """The frontier as data: the Adventures judged, optimal play, each rule and its loss."""
    return {
        "scenarios": [{"need": need, "pool": pool, "sonic": sonic, "rerolls": list(rerolls),
                       "changes": list(changes)}
                      for need, pool, sonic, rerolls, changes in SCENARIOS],
        "p_optimal": float(optimal()), "p_optimal_exact": exact_text(optimal()),
        "frontier": [{"size": r.size, "choices": r.choices, "rule": rule_lines(r.rule),
                      "p_success": float(r.value), "p_success_exact": exact_text(r.value),
                      "loss": float(r.loss), "loss_exact": exact_text(r.loss)} for r in rows]}


def cost_words(row: Learned) -> str:
    """What the rule gives up against perfect play, in words."""
    dice = [sum(parse_pool(load_game(), pool)) for _, pool, *_ in SCENARIOS]
    return (f"Loses {100 * float(row.loss):.1f} points of success to perfect play "
            f"({100 * float(row.value):.1f}% vs {100 * float(optimal()):.1f}%; mean of "
            f"{len(SCENARIOS)} Adventures, {min(dice)}-{max(dice)} dice).")


def card(rows: list[Learned]) -> Card:
    """The strategy card: the frontier's best rule, the frontier as a table (each row adds
    choices to the one above), its cost."""
    table = [("rule", "success", "lost")]
    previous: dict[str, int] = {}
    for r in rows:
        added = [_CHOICE_WORDS[n](v) for n, v in r.choices.items() if previous.get(n) != v]
        table.append((", ".join(added) or "basic", f"{100 * float(r.value):.1f}%",
                      f"{100 * float(r.loss):.1f}"))
        previous = r.choices
    table.append(("perfect play", f"{100 * float(optimal()):.1f}%", "0"))
    return Card("Time of the Daleks: tools", tuple(rule_lines(rows[-1].rule)),
                cost_words(rows[-1]), tuple(table),
                "dice-solver totd card: exact values; the Adventures: totd rules --json",
                ("A slot: one symbol of the Challenge (Science x2 is two slots), empty until "
                 "a die showing that symbol fills it. basic: icons, then Sonic, no discard. "
                 "Each row adds to the one above; lost: percentage points of success.",))


_CHOICE_WORDS = {
    "order": lambda v: "Sonic first" if v else "icons first",
    "keep": lambda v: "save 3 tokens" if v else "spend tokens",
    "discard": lambda v: f"discard at {v}+" if v else "never discard",
    "aim": lambda v: "+ aim Sonic" if v else "first die",
}


def rule_lines(rule: ToolRule) -> list[str]:
    """The rule as instructions a player reads at the table, in the order they apply."""
    lines = ["Met, with your face changes? Stop."]
    if rule.discard_at:
        lines.append(f"{rule.discard_at}+ slots empty, a die to spare? Discard a Black die, "
                     f"re-roll the rest.")
    icons = "Re-roll icons on dice you don't need."
    sonic = "Sonic (2 tokens) on one die you don't need"
    sonic += ", colour likeliest to show a missing symbol" if rule.aim else ""
    sonic += "; keep 3 tokens for a change" if rule.keep else ""
    lines += [f"{sonic}.", f"Then {icons[0].lower()}{icons[1:]}"] if rule.sonic_first else \
        [icons, f"Then {sonic}."]
    return [*lines, "Nothing left? Stop."]
