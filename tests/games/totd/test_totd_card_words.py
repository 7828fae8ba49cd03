"""The Time of the Daleks card played from its printed words (issue 28): a reader of the card's
lines sets up the plan they describe (which tools, in which order, when to discard, where Sonic
goes); what each tool does is the game's (`policies.Plan`'s icon, Sonic and discard steps, as the
words name them). The plan the words describe is the valued rule for every rule the search
knows, and its exact chance over the card's Adventures is what the card prints, for the card's
rule and for each row of its table."""

from __future__ import annotations

import itertools
import re

import pytest
from helpers import read_words

from solver.games.totd import rulecard, rulefamilies
from solver.games.totd.policies import ToolRule

# the frontier as `totd rules` found it (docs/results.md, "Which tool next"; the card
# docs/cards/totd-tools.png): the search itself takes a minute, so it is not run here
FRONTIER = ({}, {"discard": 2}, {"discard": 2, "aim": 1})
PHRASES = {  # each line of the card, as it is printed
    "met": r"Met, with your face changes\? Stop\.",
    "discard": r"(?P<empty>\d+)\+ slots empty, a die to spare\? Discard a Black die, re-roll "
               r"the rest\.",
    "icons": r"(?P<then>Then r|R)e-roll icons on dice you don't need\.",
    "sonic": r"(?P<then>Then )?Sonic \(2 tokens\) on one die you don't need(?P<aim>, colour "
             r"likeliest to show a missing symbol)?(?P<keep>; keep 3 tokens for a change)?\.",
    "nothing": r"Nothing left\? Stop\.",
}


def plan_of(lines: tuple[str, ...]) -> ToolRule:
    """The plan the words describe: stop when met, then the first tool that applies in the
    order printed (a discard first when its line is there), stop when none is left."""
    read = read_words(lines, PHRASES)
    names = [name for name, _ in read]
    assert names[0] == "met" and names[-1] == "nothing" and {"icons", "sonic"} <= set(names)
    numbers = {name: n for name, n in read}
    first, second = [name for name in names if name in ("icons", "sonic")]
    assert numbers[first]["then"] in (None, "R") and numbers[second]["then"] is not None
    return ToolRule(sonic_first=first == "sonic", keep=numbers["sonic"]["keep"] is not None,
                    discard_at=int(numbers.get("discard", {}).get("empty", 0)),
                    aim=numbers["sonic"]["aim"] is not None)


@pytest.mark.parametrize("rule", [ToolRule(*choice) for choice in itertools.product(
    (False, True), (False, True), range(5), (False, True))], ids=str)
def test_the_words_describe_the_valued_plan(rule: ToolRule) -> None:
    assert plan_of(tuple(rulecard.rule_lines(rule))) == rule


ROWS = {  # the table's words for what a row adds (the rows above it kept)
    r"basic": {},
    r"discard at (?P<discard>\d)\+": {"discard": None}, r"never discard": {"discard": 0},
    r"Sonic first": {"order": 1}, r"icons first": {"order": 0},
    r"save 3 tokens": {"keep": 1}, r"spend tokens": {"keep": 0},
    r"\+ aim Sonic": {"aim": 1}, r"first die": {"aim": 0},
}


def test_the_card_prints_the_value_of_its_words() -> None:
    best = rulefamilies.optimal()
    rows = []
    for size, choices in enumerate(FRONTIER):
        rule = rulefamilies.tool_rule(choices)
        value = rulefamilies.value(rule, exact=True)
        rows.append(rulefamilies.Learned(size, choices, rule, value, best - value))
    card = rulecard.card(rows)
    value = rulefamilies.value(plan_of(card.rule), exact=True)
    assert (f"{100 * float(best - value):.1f} points of success to perfect play "
            f"({100 * float(value):.1f}% vs {100 * float(best):.1f}%" in card.cost)
    # each row of the table: the rule above it with what the row's words add
    choices: dict[str, int] = {}
    for words, success, lost in card.table[1:-1]:
        for added in words.split(", "):
            found = [(m, change) for pattern, change in ROWS.items()
                     if (m := re.fullmatch(pattern, added))]
            assert len(found) == 1, f"no single phrase reads the table's {added!r}"
            m, change = found[0]
            choices |= {k: int(m.group(k)) if v is None else v for k, v in change.items()}
        value = rulefamilies.value(rulefamilies.tool_rule(choices), exact=True)
        assert (success, lost) == (f"{100 * float(value):.1f}%",
                                   f"{100 * float(best - value):.1f}")
    assert card.table[-1] == ("perfect play", f"{100 * float(best):.1f}%", "0")
