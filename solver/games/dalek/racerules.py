"""The two-player race to the target with a remembered turn rule whose stopping threshold
follows the scores (issue 15): T = a + b/10 x (opponent - me), clipped to the thresholds a turn
can reach, and in the final round (the opponent has reached the target) "roll until past them":
T = opponent - me + 1. The rest of the rule (grab, hunt, ...) is a `rulefamilies.TurnRule`'s.

A seat playing such a rule plays a fixed turn policy at each position, but not the same one
everywhere, so the race engine is given that seat's local model per position (`RuleRace`);
the other seat plays to win (`dalek game`'s optimal turn) or the same rule. Each threshold's
policy is valued once, exactly (`policies.race_local`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from math import gcd

from solver.engine.local import Choices, TurnLocal
from solver.games.dalek.policies import race_local
from solver.games.dalek.race import DalekRace, Position, solve_race
from solver.games.dalek.rulefamilies import Rulebook, TurnRule
from solver.rulesearch import Family, Found, search

SLOPE = 10  # b is in tenths of a point of threshold per point behind


@dataclass(frozen=True)
class RaceRule:
    """The turn rule `base` with its stop threshold a + b/10 x (opponent - me), clipped."""

    base: TurnRule
    a: int
    b: int

    def threshold(self, position: Position, most: int, step: int) -> int:
        scores, mover = position
        me, opponent = scores[mover], max(s for seat, s in enumerate(scores) if seat != mover)
        raw = self.a + (self.b * (opponent - me)) // SLOPE
        return min(max(raw - raw % step, 0), most)


@dataclass
class RuleRace(DalekRace):
    """The race where some seats pick their local model by position (`rule_seats`); the
    others as `DalekRace` has them. `seat_locals` must name the rule seats too (any model):
    it tells the solver that the seats are not all optimal (no cache, the cyclic engine)."""

    rule_seats: dict[int, Callable[[Position], Choices]] = field(default_factory=dict)

    def local(self, position) -> Choices | TurnLocal:
        chooser = self.rule_seats.get(position[1])
        return chooser(position) if chooser is not None else super().local(position)


class RaceRules:
    """Race rules built on one turn's rulebook, each threshold's turn valued once."""

    def __init__(self, book: Rulebook, base: TurnRule) -> None:
        self.book, self.base = book, base
        humans = [book.rules.value(f) for f in book.rules.human_faces]
        self.step = gcd(*humans)
        self.most = book.rules.dice * max(humans)
        self._locals: dict[int, Choices] = {}

    def local(self, stop: int) -> Choices:
        if stop not in self._locals:
            self._locals[stop] = race_local(self.book.policy(replace(self.base, stop=stop)))
        return self._locals[stop]

    def chooser(self, rule: RaceRule, target: int) -> Callable[[Position], Choices]:
        def choose(position: Position) -> Choices:
            scores, mover = position
            opponent = max(s for seat, s in enumerate(scores) if seat != mover)
            if opponent >= target:  # the final round: pass them
                need = opponent - scores[mover] + 1
                return self.local(min(need + (-need) % self.step, self.most))
            return self.local(rule.threshold(position, self.most, self.step))
        return choose

    def values(self, seats: tuple[RaceRule | None, ...], target: int) -> list[float]:
        """Each seat's share of the win from the start; None: that seat plays to win."""
        rule_seats = {seat: self.chooser(rule, target) for seat, rule in enumerate(seats)
                      if rule is not None}
        race = RuleRace(self.book.pairs.turn, len(seats), target,
                        seat_locals={seat: self.local(self.base.stop) for seat in rule_seats},
                        rule_seats=rule_seats)
        values = solve_race(race, use_cache=False)
        return [seat["value"] for seat in values.chances(race.start())]

    def against_optimal(self, rule: RaceRule, target: int) -> float:
        """The rule's mean share of the win over the two seats, against a seat playing to win."""
        first = self.values((rule, None), target)[0]
        second = self.values((None, rule), target)[1]
        return (first + second) / 2


def search_rule(rules: RaceRules, target: int) -> Found:
    """The best (a, b) against an optimal opponent, from the base rule's own threshold."""
    grid = 2 * rules.step
    family = Family("a+b", (range(0, rules.most + 1, grid), range(0, SLOPE + 1, 2)),
                    (rules.base.stop - rules.base.stop % grid, 0))
    return search(family, lambda n: rules.against_optimal(RaceRule(rules.base, *n), target),
                  exhaustive=0, restarts=0)
