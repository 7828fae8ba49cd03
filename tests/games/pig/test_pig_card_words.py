"""The Pig card played from its printed words (issue 28): a reader of the card's lines, which
knows nothing of the rule objects, turns them into where to hold at each pair of scores; those
holds are valued exactly against a perfect opponent (`fixed.duel`, as the card's own figures
are), and the value must be what the card prints. The holds must also be the valued rule's at
every pair of scores, for a rule of every family the search knows."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from helpers import read_words

from solver.games.pig import fixed
from solver.games.pig import rulecard as rc
from solver.games.pig import rulefamilies as rf

TARGET = 100
# the card's rule (docs/cards/pig-hold.png), then a rule of each other family (the
# calibration's, the paper's holds, one each for the end-race variants)
RULES = [("pace+ends", (69, 73, 21, 8)), ("hold", (20,)), ("hold+end", (24, 72)),
         ("pace", (21, 8)), ("pace+end", (71, 21, 8)), ("pace+ends", (69, TARGET, 21, 8)),
         ("pace+ends", (TARGET, 73, 21, 8))]
GOAL = r"(?P<goal>\d+)"
PHRASES = {  # each line of a Pig card, as it is printed
    "either ends": r"Either score (?P<end>\d+)\+\? Roll on until you reach " + GOAL + r"\.",
    "both ends": r"Your score (?P<mine>\d+)\+ or theirs (?P<theirs>\d+)\+\? Roll on until you "
                 r"reach " + GOAL + r"\.",
    "my end": r"Your score (?P<mine>\d+)\+\? Roll on until you reach " + GOAL + r"\.",
    "their end": r"Theirs (?P<theirs>\d+)\+\? Roll on until you reach " + GOAL + r"\.",
    "hold": r"(Otherwise hold|Hold) once the turn total reaches (?P<hold>\d+)\.",
    "pace": r"(Otherwise hold|Hold) once the turn total reaches (?P<base>\d+) \+ \(their score "
            r"\u2212 yours\) \u00f7 (?P<divisor>\d+), rounded \(\.5 up\)\.",
    "goal": r"Always hold when score plus turn total reaches " + GOAL + r"\.",
}


def half_up(x: Fraction) -> int:
    """"rounded (.5 up)"."""
    return math.floor(x + Fraction(1, 2))


def holds_from_words(lines: tuple[str, ...]) -> np.ndarray:
    """hold[mine, theirs]: the turn total at which the card's words hold. Lines are read in
    order, the first that applies decides; a turn rolls at least once, so a hold below 1 is 1."""
    read = read_words(lines, PHRASES)
    goal = int(read[-1][1]["goal"])
    assert read[-1][0] == "goal" and all(n.get("goal", str(goal)) == str(goal) for _, n in read)

    def hold_at(mine: int, theirs: int) -> int:
        at_goal = goal - mine  # "always hold when score plus turn total reaches" the goal
        for name, n in read:
            ends = {"either ends": max(mine, theirs) >= int(n.get("end", 0)),
                    "both ends": mine >= int(n.get("mine", 0)) or theirs >= int(
                        n.get("theirs", 0)),
                    "my end": mine >= int(n.get("mine", 0)),
                    "their end": theirs >= int(n.get("theirs", 0))}
            if ends.get(name):
                return at_goal
            if name == "hold":
                return max(1, min(int(n["hold"]), at_goal))
            if name == "pace":
                pace = int(n["base"]) + half_up(Fraction(theirs - mine, int(n["divisor"])))
                return max(1, min(pace, at_goal))
        return at_goal

    return np.array([[hold_at(mine, theirs) for theirs in range(goal)] for mine in range(goal)])


@pytest.fixture(scope="module")
def judge() -> rf.Judge:
    return rf.Judge(TARGET)


@pytest.mark.parametrize("shape, numbers", RULES, ids=lambda v: str(v))
def test_the_words_hold_where_the_valued_rule_holds(judge, shape, numbers) -> None:
    words = holds_from_words(tuple(rc.rule_lines(judge.rule(shape, numbers), TARGET)))
    valued = rf.SHAPE[shape].threshold(numbers, judge.mine, judge.theirs, TARGET)
    goal = TARGET - np.arange(TARGET)[:, None]
    assert (words == np.clip(valued, 1, goal)).all()


def percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def test_the_card_prints_the_value_of_its_words(judge) -> None:
    rules = [judge.rule(*rule) for rule in RULES[1:3] + RULES[:1]]
    card = rc.card(rules, judge.optimal_first, TARGET)
    holds = holds_from_words(card.rule)
    first, second = fixed.duel(fixed.threshold_play(holds, judge.rows), judge.optimal)
    assert (f"it wins {percent(first)} going first and {percent(second)} going second"
            in card.cost)
    assert f"it loses {100 * (0.5 - (first + second) / 2):.2f} games in 100" in card.cost
    # the table: where the words hold at the lead in the row, both scores low (no end race)
    for words, at in card.table[1:]:
        lead = 0 if words == "level" else int(words.split()[-1]) * (
            1 if words.startswith("ahead") else -1)
        assert int(at) == holds[max(lead, 0) + 5, max(-lead, 0) + 5]


LINES = {"end": "Either score {end}+? Roll on until you reach {goal}.",  # the rule's line
         "ends": "Your score {mine}+ or theirs {theirs}+? Roll on until you reach {goal}.",
         "hold": "Hold once the turn total reaches {hold}.",
         "pace": "Hold once the turn total reaches {base} + (their score \u2212 yours) \u00f7 "
                 "{divisor}, rounded (.5 up)."}
SHORT = {"end": r"end (?P<end>\d+)", "ends": r"ends (?P<mine>\d+)/(?P<theirs>\d+)",
         "hold": r"hold (?P<hold>\d+)", "pace": r"(?P<base>\d+) \+ gap/(?P<divisor>\d+)"}


def test_the_simpler_rules_in_small_print_are_worth_what_it_says(judge) -> None:
    """The small print names the simpler rules in a few words ("end 71, 21 + gap/8", gap as in
    the rule's line): each written out as the card's lines would say it, read and valued."""
    rules = [judge.rule(*rule) for rule in RULES[1:5] + RULES[:1]]
    note = rc.card(rules, judge.optimal_first, TARGET).notes[0]
    listed = re.fullmatch(r"Simpler rules lose \(games in 100\): (.*)\.", note)
    assert listed is not None
    entries = listed.group(1).split("; ")
    assert len(entries) == len(rules) - 1
    for entry in entries:
        words, loss = entry.rsplit(": ", 1)
        parts = read_words(words.removesuffix(" (Neller-Presser)").split(", "), SHORT)
        lines = [LINES[name].format(goal=TARGET, **n) for name, n in parts]
        lines.append(f"Always hold when score plus turn total reaches {TARGET}.")
        holds = holds_from_words(tuple(lines))
        first, second = fixed.duel(fixed.threshold_play(holds, judge.rows), judge.optimal)
        assert f"{100 * (0.5 - (first + second) / 2):.2f}" == loss
