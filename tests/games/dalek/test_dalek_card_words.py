"""The Dalek Dice turn card played from its printed words (issue 28): a reader of the card's
lines (its small print included), which knows nothing of TurnRule or `policies.dalek_keeps`,
decides the keep and whether to stop at every (state, roll) of the turn; what a keep does, when
a turn ends and what it scores are the game's rules (`rules.py`). The words decide as the valued
rule does at every pair, for rules of every family, and their exact value (`distribution`, in
integers) is what the card prints for its rule (the table's other rows are the rules' values).
The race card: the threshold its words give at every pair of scores is the race rule's, and on
a small race its words, played by the race engine against a perfect opponent, win what it
prints."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import numpy as np
import pytest
from helpers import read_words

from solver.games.dalek import policies as dp
from solver.games.dalek import rulecard
from solver.games.dalek import rulefamilies as rf
from solver.games.dalek.arrays import Pairs
from solver.games.dalek.duels import race_local
from solver.games.dalek.racefamilies import RaceRule, RaceRules, RuleRace
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.rules import DALEKS, DOCTORS, EXTERMINATES, HUMANS, THIRD, TO_ROLL

# the frontier as `dalek rules` found it for 10 dice (docs/results.md, "Rules a person can
# remember"; the card docs/cards/dalek-turn.png prints the fourth): the search takes minutes
FRONTIER = (rf.TurnRule(14), rf.TurnRule(14, grab=1), rf.TurnRule(12, grab=1, hunt=0),
            rf.TurnRule(12, grab=1, hunt=0, doctor_stop=8))
RULES = [rf.TurnRule(4), rf.TurnRule(6, grab=1), rf.TurnRule(40, grab=1, hunt=0),
         rf.TurnRule(6, hunt=1), rf.TurnRule(8, grab=1, hunt=-1, doctor_stop=2),
         rf.TurnRule(12, grab=1, hunt=0, late_dice=2, late_stop=4, doctor_stop=6),
         rf.TurnRule(40, grab=1, hunt=0, doctor_stop=8), rf.TurnRule(40, late_dice=1, late_stop=6)]
FACE = r"(?P<face>H\d+)"
HUMANS_THEN = r"(?P<then>other Humans|Humans), highest first, each if the Daleks still hold with it"
EXTRA = r"(?P<doctors>\d+)\+ with two Doctors|(?P<late>\d+)\+ with (?P<dice>\d+) or fewer dice left"
PHRASES = {  # each line of the card, its small print's first sentence too, as printed
    "hunt": r"Hunt while kept (?P<when>.+): keep every " + FACE + r" and no Dalek; then "
            + HUMANS_THEN + r"\.",
    "else": r"Else keep every Dalek\. Then " + HUMANS_THEN + r"\.",
    "keep": r"Keep every Dalek, then " + HUMANS_THEN + r"\.",
    "grab": r"3rd Exterminate: keep all rolled\.",
    "stop": r"Stop at (?P<stop>\d+)\+ Humans(?P<extras> \(.+\))? if the Daleks hold\.",
    "only": r"Stop only at (?P<extras>.+), if the Daleks hold\.",
    "never": r"Never stop: roll until no dice are left\.",
    "nothing": r"Nothing kept on a roll\? Keep the lowest Dalek, else the lowest Human\.",
}
HUNT_WHEN = {r"Exterminates \u2265 Doctors": lambda e, d, h: e - d >= 0,
             r"Exterminates \u2265 Doctors \+ (?P<h>\d+)": lambda e, d, h: e >= d + h,
             r"Exterminates \+ (?P<h>\d+) \u2265 Doctors": lambda e, d, h: e + h >= d}


class Words:
    """The card's lines as a player follows them, on one game's rules (faces, dice, tie)."""

    def __init__(self, lines: list[str], pairs: Pairs) -> None:
        self.read = dict(read_words(lines, PHRASES))
        assert len(self.read) == len(lines)  # each phrase once
        self.rules = pairs.rules
        self.faces = list(self.rules.keepable_faces)
        self.hunt = None
        if "hunt" in self.read:
            assert "else" in self.read and "keep" not in self.read
            when = self.read["hunt"]["when"]
            found = [(test, m) for pattern, test in HUNT_WHEN.items()
                     if (m := re.fullmatch(pattern, when))]
            assert len(found) == 1, f"no phrase reads the hunt's {when!r}"
            test, m = found[0]
            self.hunt = (test, int(m.groupdict().get("h") or 0),
                         self.rules.die.faces.index(self.read["hunt"]["face"]))
        else:
            assert "keep" in self.read and "else" not in self.read
        self.extras = []  # (threshold, test on the state after the keep)
        extras = (self.read.get("stop") or self.read.get("only") or {}).get("extras") or ""
        for part in re.split(r"; | or (?=\d+\+ with)", extras.strip(" ()")) if extras else []:
            m = re.fullmatch(EXTRA, part)
            assert m is not None, f"no phrase reads the stop's {part!r}"
            if m["doctors"]:
                self.extras.append((int(m["doctors"]), lambda a: a[DOCTORS] == THIRD - 1))
            else:
                self.extras.append((int(m["late"]), lambda a, k=int(m["dice"]): a[TO_ROLL] <= k))

    def value(self, face: int) -> int:
        return self.rules.value(face)

    def keep(self, before: np.ndarray, aside: np.ndarray, rolled: np.ndarray) -> np.ndarray:
        """What the words keep of a roll from the state `before` it, `aside` the state once its
        Doctor and Exterminate are set aside (they count as kept)."""
        keep = np.zeros(len(self.faces), dtype=np.int64)
        daleks = [j for j, f in enumerate(self.faces) if f in self.rules.dalek_faces]
        humans = sorted((j for j, f in enumerate(self.faces) if f in self.rules.human_faces),
                        key=lambda j: -self.value(self.faces[j]))
        if "grab" in self.read and aside[EXTERMINATES] >= THIRD:
            keep[:] = rolled[self.faces]
        else:
            hunting = self.hunt is not None and self.hunt[0](
                aside[EXTERMINATES], aside[DOCTORS], self.hunt[1])
            if hunting:
                top = self.faces.index(self.hunt[2])
                keep[top] = rolled[self.hunt[2]]
            else:
                for j in daleks:
                    keep[j] = rolled[self.faces[j]]
            self.humans_while_the_daleks_hold(keep, aside, rolled, humans)
        if not keep.any() and (aside == before).all():  # nothing set aside either
            assert "nothing" in self.read, "the words leave a keep of no die open"
            lowest = sorted(daleks, key=lambda j: self.value(self.faces[j])) + humans[::-1]
            j = next(j for j in lowest if rolled[self.faces[j]])
            keep[j] = 1
        return keep

    def humans_while_the_daleks_hold(self, keep, aside, rolled, humans) -> None:
        """"Humans, highest first, each if the Daleks still hold with it": every Human die not
        kept yet, highest first, kept when the Daleks hold with it kept too."""
        held = aside[HUMANS] + sum(keep[j] * self.value(self.faces[j]) for j in humans)
        daleks = aside[DALEKS] + sum(keep[j] * self.value(self.faces[j])
                                     for j in range(len(self.faces)) if j not in humans)
        for j in humans:
            for _ in range(keep[j], rolled[self.faces[j]]):
                if self.rules.daleks_hold(held + self.value(self.faces[j]), daleks):
                    keep[j] += 1
                    held += self.value(self.faces[j])

    def threshold(self, after: np.ndarray) -> np.ndarray:
        """The Humans the words stop at, per state after the keep (the Daleks holding too)."""
        most = 10 ** 6  # "never stop"
        base = int(self.read["stop"]["stop"]) if "stop" in self.read else most
        stop = np.full(len(after), base)
        for limit, test in self.extras:
            stop = np.where(test(after.T), np.minimum(stop, limit), stop)
        return stop


def policy_of(words: Words, pairs: Pairs) -> dp.TurnPolicy:
    """The words played at every (state, roll) pair: their keep, then stop or roll."""
    rules = pairs.rules
    fields = pairs.fields[pairs.state_of]
    aside = rules.set_aside(fields, pairs.rolled)
    keep = np.zeros((pairs.size, len(words.faces)), dtype=np.int64)
    for i in range(pairs.size):
        keep[i] = words.keep(fields[i], aside[i], pairs.rolled[i])
    return dp.stop_at(pairs, "card words", keep, words.threshold)


@pytest.fixture(scope="module")
def pairs(pairs_of) -> Pairs:
    return pairs_of()  # the card's game: 10 dice, H4 H2 D3 D2 DOC EXT, Daleks hold on a tie


def all_lines(rule: rf.TurnRule, pairs: Pairs) -> list[str]:
    """The card's lines for a rule, and the small print's first sentence."""
    return rulecard.all_lines(pairs.rules, rule)


def same_play(rule: rf.TurnRule, pairs: Pairs) -> bool:
    words = policy_of(Words(all_lines(rule, pairs), pairs), pairs)
    valued = rf.Rulebook(pairs).policy(rule)
    return np.array_equal(words.keep, valued.keep) and np.array_equal(words.then, valued.then)


# smaller games (reading every pair of the 10-dice turn takes the reader some 20 s a rule),
# another die and the other tie rule among them
DEFAULT_FACES = "H4 H2 D3 D2 DOC EXT"
SMALL = [(DEFAULT_FACES, 4, "ge"), ("H3 H1 D4 D1 DOC:2 EXT", 4, "gt")]


@pytest.mark.parametrize("game", SMALL, ids=str)
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_the_words_play_as_the_valued_rule(rule: rf.TurnRule, game, pairs_of) -> None:
    assert same_play(rule, pairs_of(*game))


def test_the_cards_words_play_as_its_rule(pairs: Pairs) -> None:
    assert same_play(FRONTIER[-1], pairs)


def test_the_card_prints_the_value_of_its_words(pairs: Pairs) -> None:
    book = rf.Rulebook(pairs)
    best, _ = rf.optimal(pairs)
    rows = []
    for rule in FRONTIER:
        points, p_zero = book.worth(rule)
        rows.append(rf.Learned(len(rule.numbers), rule, points, best - points, p_zero))
    card = rulecard.card(pairs, rows, "a test card")
    small_print = card.notes[0].split(". ")[0] + "."
    exact = dp.distribution(policy_of(Words([*card.rule, small_print], pairs), pairs))
    points = sum((s * p for s, p in enumerate(exact)), Fraction(0))
    assert card.cost.startswith(f"Loses {float(best - points):.2f} points per turn")
    assert f"scores nothing {100 * float(exact[0]):.0f}% of the time" in card.cost
    assert card.table[-2][1:] == (f"{float(points):.2f}", f"{float(best - points):.2f}",
                                  f"{100 * float(exact[0]):.0f}%")



# ---- the race card ------------------------------------------------------------------------
RACE_PHRASES = {
    "final": r"They hit (?P<target>\d+)\? Roll until past them\.",
    "formula": r"T = (?P<a>\d+) \+ (?P<b>\d+(\.\d+)?) x \(their score \u2212 yours\), rounded "
               r"down to even\.",
}
STOP_T = r"Stop at (?P<stop>\d+|T)\+ Humans"


def race_stop(lines: list[str], notes: list[str], mine: int, theirs: int) -> int:
    """The Humans the race card's words stop at with these scores: in the final round ("they
    hit" the target), one point past them; else T, the number on the stop line, or when the
    line says T, the formula of the small print (rounded down to even; below 0 it is 0)."""
    target = int(read_words(lines[-1:], RACE_PHRASES)[0][1]["target"])
    if theirs >= target:
        return theirs - mine + 1
    stop = next(m["stop"] for line in lines if (m := re.match(STOP_T, line)))
    if stop != "T":
        return int(stop)
    (name, n), = read_words(notes, RACE_PHRASES)
    assert name == "formula"
    exact = Fraction(n["a"]) + Fraction(n["b"]) * (theirs - mine)
    return max(0, math.floor(exact / 2) * 2)


RACE_RULES = [RaceRule(FRONTIER[-1], 16, 0), RaceRule(FRONTIER[-1], 16, 4),
              RaceRule(FRONTIER[0], 14, 2), RaceRule(FRONTIER[2], 12, 10)]


@pytest.mark.parametrize("rule", RACE_RULES, ids=str)
def test_the_race_words_stop_where_the_race_rule_stops(rule: RaceRule, pairs: Pairs) -> None:
    """At every pair of scores of the race to 60, the final round too, the threshold the words
    give is the rule's (the same stop once rounded up to the Humans a turn can keep and capped
    at the most); the turn's lines around it are the turn card's, read above."""
    target, rules = 60, pairs.rules
    lines = rulecard.race_lines(rules, rule, target)
    notes = [rulecard.formula(rule)] if rule.b else []
    most, step = rf.most_humans(rules), 2

    def same(threshold: int) -> int:
        return min(max(threshold, 0) + (-max(threshold, 0)) % step, most)

    for mine, theirs in itertools.product(range(target), range(target + most)):
        valued = theirs - mine + 1 if theirs >= target else rule.at(theirs - mine, most, step)
        assert same(race_stop(lines, notes, mine, theirs)) == same(valued)


def words_chooser(card, pairs: Pairs, race: RaceRules):
    """The race card's words as the race engine plays a seat: at each position the turn its
    lines describe with the threshold its words give there, read and played by `Words`."""
    lines, notes = list(card.rule), card.notes[0].split(". ")
    notes = [n if n.endswith(".") else n + "." for n in notes]
    small_print = [n for n in notes if n.startswith("Nothing kept")]
    formulas = [n for n in notes if n.startswith("T = ")]
    turns: dict[int, object] = {}

    def choose(position):
        scores, mover = position
        stop = race_stop(lines, formulas, scores[mover], scores[1 - mover])
        if stop not in turns:
            turn = [re.sub(STOP_T, f"Stop at {stop}+ Humans", line) for line in lines[:-1]]
            turns[stop] = race_local(policy_of(Words(turn + small_print, pairs), pairs))
        return turns[stop]
    return choose


def test_the_race_card_prints_the_value_of_its_words(pairs_of) -> None:
    """The race card of 3 dice to 10 (its search takes seconds): its words played in each
    seat against a perfect opponent win what the card prints."""
    from solver.games.dalek.commands import _race_learned

    pairs, target = pairs_of(DEFAULT_FACES, 3, "ge"), 10
    rows, first, _ = _race_learned(pairs.rules, target, False)
    card = rulecard.race_card(pairs.rules, rows, first, target, "a test card")
    race = RaceRules(rf.Rulebook(pairs))
    words = words_chooser(card, pairs, race)
    shares = []
    for seat in (0, 1):
        seats = {seat: words, 1 - seat: race.perfect(target)}
        game = RuleRace(pairs.turn, 2, target,
                        seat_locals={s: race.local(FRONTIER[0], 0) for s in seats},
                        rule_seats=seats)
        shares.append(solve_race(game, use_cache=False).chances(game.start())[seat]["value"])
    assert card.cost.startswith(f"Against a perfect opponent: {100 * shares[0]:.1f}% first, "
                                f"{100 * shares[1]:.1f}% second, "
                                f"{50 * (shares[0] + shares[1]):.1f} games in 100")
