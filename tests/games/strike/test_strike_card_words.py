"""The Strike card played from its printed words (issue 28): a reader of the card's lines, which
knows nothing of ThrowRule, turns them into the decision to throw again; it decides as the
valued rule does at every mid-turn position, and played by the engine in each seat against an
opponent who knows your rule (as the card's figures are), it wins what the card prints."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import pytest
from helpers import read_words

from solver.games.strike import rulecard, rulefamilies
from solver.games.strike.policies import (
    OPTIMAL,
    StrikeDuel,
    StrikePolicy,
    ThrowRule,
    solve_duel,
    win_chances,
)

PHRASES = {  # each line of the Strike card, as it is printed
    "setup": r"Setup: place a number not yet in the arena\.",
    "always": r"Always throw again\.",
    "from": r"(?P<dice>\d+) dice or more in the arena: throw again\.",
    "stocks": r"(?P<dice>\d+) (die|dice): throw again if all stocks together hold (?P<stocks>\d+)"
              r"\+( and (your|each) opponent holds (?P<opponent>\d+)\+)?\.",
    "otherwise": r"Otherwise stop\.",
}


@dataclass(frozen=True)
class Words:
    """The card's lines as a rule the engine plays (it asks `throws_again` mid-turn, and
    places at setup as for every rule: "a number not yet in the arena")."""

    lines: tuple[str, ...]

    def throws_again(self, arena: int, stocks: tuple[int, ...], mover: int) -> bool:
        """The first line that speaks of `arena` dice decides; none: stop."""
        for name, n in read_words(self.lines, PHRASES):
            if name == "always" or (name == "from" and arena >= int(n["dice"])):
                return True
            if name == "stocks" and arena == int(n["dice"]):
                opponents = [s for seat, s in enumerate(stocks) if seat != mover]
                return sum(stocks) >= int(n["stocks"]) and all(
                    s >= int(n["opponent"] or 0) for s in opponents)
        return False


def test_the_card_has_a_setup_line_and_ends_in_stop() -> None:
    lines = rulecard.rule_lines(ThrowRule(3, 5, 13))
    read = [name for name, _ in read_words(lines, PHRASES)]
    assert read[0] == "setup" and read[-1] == "otherwise"


@pytest.mark.parametrize("rule", [ThrowRule(), ThrowRule(1), ThrowRule(2), ThrowRule(3, 5),
                                  ThrowRule(3, 5, 13), ThrowRule(3, 5, opponent=4),
                                  ThrowRule(3, 5, 13, 4), ThrowRule(2, 7, opponent=3)],
                         ids=str)
def test_the_words_throw_where_the_valued_rule_throws(rule: ThrowRule) -> None:
    """Every arena and pair of stocks (9 dice each), either mover, where a turn goes on: an
    arena of 1 to 5 dice (an emptied one ends the turn, reading 6b as the card plays it) and an
    opponent holding one die or more (with none it has lost)."""
    words = Words(tuple(rulecard.rule_lines(rule)))
    for arena, mine, theirs, mover in itertools.product(range(1, 6), range(10), range(1, 10),
                                                         range(2)):
        stocks = (mine, theirs) if mover == 0 else (theirs, mine)
        assert words.throws_again(arena, stocks, mover) == rule.throws_again(arena, stocks,
                                                                             mover)


def test_the_card_prints_the_value_of_its_words(strike_frontier) -> None:
    card = rulecard.card(strike_frontier)
    words = StrikePolicy("card words", Words(card.rule))
    seats = []
    for seat in range(2):
        policies = [OPTIMAL, OPTIMAL]  # the other seat: its best response to the words
        policies[seat] = words
        duel = StrikeDuel(2, 9, policies=tuple(policies), outcomes=False)
        seats.append(float(win_chances(duel, solve_duel(duel))[seat]))
    mean = sum(seats) / 2
    perfect = sum(rulefamilies.optimal_values()) / 2
    assert f"this rule wins {100 * mean:.2f}% of games" in card.cost
    assert f"{100 * (perfect - mean):.2f} points lost" in card.cost
    assert re.search(r"Against an opponent who knows your rule", card.cost)
    assert card.table[-2][2:] == (f"{100 * mean:.2f}%", f"{100 * (perfect - mean):.2f}")
