"""Dalek Dice turn rules a person can remember, searched for the best of each size and valued
exactly against optimal play (issue 15).

Every rule starts from the human rule "keep the Daleks, stop at T" (`policies.keep_daleks`: keep
every Dalek, keep Humans while the Daleks hold, stop once the Humans reach T) and may add:
- grab: on the third Exterminate keep every Human and Dalek rolled (their Humans count twice,
  and a turn that keeps every die gets the bonus);
- hunt h: while the Exterminates kept outnumber the Doctors kept by h or more (h may be 0 or
  below), hunt the third Exterminate: keep every Human of the highest face, no Dalek;
- doctor stop: with two Doctors kept, stop once the Humans reach this lower threshold;
- late dice and late stop: with this many dice or fewer left to roll, stop at this threshold.
A rule's size is how many numbers it takes (grab is a 0 or 1). The families are nested, each the
one before with more numbers (`FAMILIES`), so each size's best rule is at least as good as the
one before. The chain was chosen from what optimal play does (it hunts the third Exterminate,
keeps few Daleks, and rarely stops with dice left); two more variants were tried and left out,
since no search found a gain from them: keeping the highest Human face while the Daleks hold
with a margin, and hunting with the next Human face too. Each rule is a `TurnPolicy` built on
arrays (`policies.dalek_keeps`, `policies.stop_at`) and valued by `policies.distribution` in
exact integers; optimal play's value is the turn solver's (`turn.solve_points`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from fractions import Fraction
from math import gcd

import numpy as np

from solver.formatting import exact_text
from solver.games.dalek.arrays import Pairs
from solver.games.dalek.policies import TurnPolicy, dalek_keeps, distribution, stop_at
from solver.games.dalek.rules import DOCTORS, EXTERMINATES, THIRD, TO_ROLL, Rules, exterminate
from solver.games.dalek.turn import solve_points
from solver.rulesearch import Family, Found, search

NEVER = THIRD + 1  # a hunt margin no turn reaches (Exterminates less Doctors is at most 3)
SEED = 0
EXHAUSTIVE = 400  # families of at most this many rules are searched exhaustively (a rule takes
# a policy build and an exact pass, some 0.2-0.5 s with 10 dice); larger ones by the ascent
RESTARTS = 4
FAMILIES = (  # the numbers of each family, keep numbers first (the search varies the last
    ("stop",),  # fastest, and a keep is built once for all the stops tried with it)
    ("grab", "stop"),
    ("grab", "hunt", "stop"),
    ("grab", "hunt", "doctor_stop", "stop"),
    ("grab", "hunt", "late_dice", "doctor_stop", "late_stop", "stop"),
)


@dataclass(frozen=True)
class TurnRule:
    """A remembered rule's numbers; the defaults are "keep the Daleks, stop at T"."""

    stop: int
    grab: int = 0
    hunt: int = NEVER
    doctor_stop: int | None = None  # None: the same as stop
    late_dice: int = 0
    late_stop: int | None = None

    def threshold(self, after: np.ndarray) -> np.ndarray:
        """The Humans to reach before stopping, for states after a keep (last axis)."""
        stop = np.full(len(after), self.stop)
        if self.doctor_stop is not None:
            stop = np.where(after[:, DOCTORS] >= THIRD - 1, np.minimum(stop, self.doctor_stop),
                            stop)
        if self.late_stop is not None:
            stop = np.where(after[:, TO_ROLL] <= self.late_dice,
                            np.minimum(stop, self.late_stop), stop)
        return stop

    @property
    def numbers(self) -> dict[str, int]:
        """The numbers that differ from "keep the Daleks" (stop always)."""
        default = TurnRule(self.stop)
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name == "stop" or getattr(self, f.name) != getattr(default, f.name)}

    @property
    def name(self) -> str:
        extra = [f"{k} {v}" for k, v in self.numbers.items() if k != "stop"]
        return ", ".join([f"keep-daleks {self.stop}", *extra])


def rule_of(names: tuple[str, ...], numbers: tuple[int, ...]) -> TurnRule:
    return replace(TurnRule(0), **dict(zip(names, numbers)))


class Rulebook:
    """The rules of one game (die, dice, tie rule) as policies, each keep built once."""

    def __init__(self, pairs: Pairs) -> None:
        self.pairs = pairs
        rules = pairs.rules
        self.set_aside = rules.set_aside(pairs.fields[pairs.state_of], pairs.rolled)
        self._keeps: dict[tuple[int, int], np.ndarray] = {}

    @property
    def rules(self) -> Rules:
        return self.pairs.rules

    def keeps(self, grab: int, hunt: int) -> np.ndarray:
        key = (grab, hunt)
        if key not in self._keeps:
            if len(self._keeps) >= 4:  # the search changes one number at a time
                self._keeps.pop(next(iter(self._keeps)))
            exterminates = self.set_aside[:, EXTERMINATES]
            hunting = exterminates - self.set_aside[:, DOCTORS] >= hunt
            self._keeps[key] = dalek_keeps(self.pairs, hunting,
                                           bool(grab) & exterminate(exterminates))
        return self._keeps[key]

    def policy(self, rule: TurnRule) -> TurnPolicy:
        return stop_at(self.pairs, rule.name, self.keeps(rule.grab, rule.hunt), rule.threshold)

    def worth(self, rule: TurnRule) -> tuple[Fraction, Fraction]:
        """The rule's exact expected points and P(score 0)."""
        exact = distribution(self.policy(rule))
        return sum((s * p for s, p in enumerate(exact)), Fraction(0)), exact[0]

    def families(self) -> list[Family]:
        """The nested families, each starting from keep-daleks at its default threshold."""
        rules = self.rules
        step = gcd(*(rules.value(f) for f in rules.human_faces))
        most = most_humans(rules)
        thresholds = range(0, most + 1, step)
        ranges = {"stop": thresholds, "grab": range(2), "hunt": range(1 - THIRD, NEVER + 1),
                  "doctor_stop": thresholds, "late_dice": range(rules.dice),
                  "late_stop": thresholds}
        start = {"grab": 0, "hunt": NEVER, "doctor_stop": most, "late_dice": 0,
                 "late_stop": most, "stop": 0}
        return [Family("+".join(names), tuple(ranges[n] for n in names),
                       tuple(start[n] for n in names)) for names in FAMILIES]


def most_humans(rules: Rules) -> int:
    """The most Humans a turn can keep: past it no threshold differs."""
    return rules.dice * max(rules.value(f) for f in rules.human_faces)


@dataclass(frozen=True)
class Learned:
    """One rule of the frontier: its size, rule, exact expected points, loss and P(score 0)."""

    size: int
    rule: TurnRule
    points: Fraction
    loss: Fraction
    p_zero: Fraction


def optimal(pairs: Pairs) -> tuple[Fraction, Fraction]:
    """Optimal play's exact expected points and P(score 0) (`dalek turn --exact`)."""
    solution = solve_points(pairs.turn, exact=True)
    return solution.exact_value(pairs.turn.root), solution.exact.distribution[0]


def learn(pairs: Pairs) -> list[Learned]:
    """The frontier: each family's best rule (ranked by their exact values as floats),
    each family started from the best rule before it, so no size is worse than a smaller one;
    a size that gains nothing over the one before is left out."""
    book = Rulebook(pairs)
    best_points, _ = optimal(pairs)
    rows: list[Learned] = []
    previous: TurnRule | None = None
    for family in book.families():
        names = tuple(family.name.split("+"))
        if previous is not None:
            family = Family(family.name, family.ranges,
                            tuple(getattr(previous, n) if getattr(previous, n) is not None
                                  else family.start[k] for k, n in enumerate(names)))
        found: Found = search(family, lambda n, names=names: float(book.worth(
            rule_of(names, n))[0]), SEED, exhaustive=EXHAUSTIVE, restarts=RESTARTS)
        rule = rule_of(names, found.numbers)
        points, p_zero = book.worth(rule)
        if not rows or points > rows[-1].points:
            rows.append(Learned(len(names), rule, points, best_points - points, p_zero))
        previous = rule
    return rows


# Searching the 10-dice turn took 753 s (a loaded machine, 2 cores shared by some ten jobs), so
# the frontier is kept in the disk cache (`learned`). The families' sizes bound the rules one
# search values: 357 in the exhaustive ones, about 2,500 in the ascents (5 starts, 3-4 sweeps of
# 51 and 82 rules); `cost.check_turn` is told a bound above that.
SEARCH_POLICIES = 4000


def learned(pairs: Pairs, force: bool = False) -> tuple[list[Learned], bool]:
    """The frontier from the disk cache when this very code found it for these rules before,
    else searched (refused first if estimated past the budget, unless `force`); and whether it
    came from the cache."""
    from solver import cache
    from solver.games.dalek import cost

    rules = pairs.rules
    key = {"game": "dalek_turn_rules", "faces": list(rules.die.faces),
           "weights": list(rules.die.weights), "dice": rules.dice, "tie_rule": rules.tie_rule,
           "seed": SEED, "code": cache.code_hash(__name__)}
    stored = cache.load(key)
    if stored is not None:
        return [_from_row(numbers, texts) for numbers, texts in
                zip(stored["numbers"].tolist(), stored["values"].tolist())], True
    cost.check_turn(pairs.turn, force, exact=1, policies=SEARCH_POLICIES)
    rows = learn(pairs)
    names = [f.name for f in fields(TurnRule)]
    cache.store(key, {
        "numbers": np.array([[r.size] + [_code(getattr(r.rule, n)) for n in names]
                             for r in rows], dtype=np.int64),
        "values": np.array([[exact_text(r.points), exact_text(r.loss), exact_text(r.p_zero)]
                            for r in rows])})
    return rows, False


def _code(number: int | None) -> int:
    return -1 if number is None else number  # no threshold of its own (None) is stored as -1


def _from_row(numbers: list[int], texts: list[str]) -> Learned:
    names = [f.name for f in fields(TurnRule)]
    rule = TurnRule(**{n: (None if v == -1 else v) for n, v in zip(names, numbers[1:])})
    points, loss, p_zero = (Fraction(t) for t in texts)
    return Learned(numbers[0], rule, points, loss, p_zero)
