"""Time of the Daleks: ways to play an Adventure as values, the plan "re-roll every die that is
not needed", and its exact chance of meeting the Challenge (optimal play's chance is
`solver.Solver`'s).

The plan, for one Doctor (docs/verify.md): roll the pool; while the Challenge is not met (the
stop test, with the face-change icons and one change per 3 Sonic tokens in hand), use the first
tool that re-rolls only dice that are not needed, in this order: the re-roll icons as given
(NUMBER k: up to k unneeded dice of its colour; ANY: every unneeded die of its colour; ALL: only
when no die of its colour is needed), then 2 Sonic tokens on one unneeded die. It never
discards a Black die (that re-rolls needed dice too). With no such tool left it stops.

A die is needed when it fills a slot of the Challenge with the symbol it shows; where more dice
show a symbol than the Challenge needs, the first ones in colour order (then symbol order) are
the needed ones. Dice are held as sorted symbol indices per colour. What each tool does and when
the Challenge is met are rules.py's.

`success` evaluates the plan exactly by recursion over (dice showing, tools left), sharing no
code with the optimal solver; the simulator plays the same plan with random dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np

from solver.dice import roll
from solver.errors import InputError
from solver.games.totd.rules import (
    SONIC_REROLL,
    SONIC_REROLL_DICE,
    Adventure,
    Tools,
    challenge_met,
    sonic_changes,
)
from solver.games.totd.solver import Solver

PLAN = "reroll-unneeded"
OPTIMAL = "optimal"
Dice = tuple[tuple[int, ...], ...]  # per colour: the symbols shown, sorted
Thrown = dict[int, Sequence[int]]  # per colour thrown: the symbols shown
Move = tuple[tuple[int, ...], int, Thrown]  # re-roll icons and tokens left, the dice re-rolled


@dataclass(frozen=True)
class AdventurePolicy:
    """How a Doctor plays an Adventure: optimal play, or the plan of this module."""

    optimal: bool

    @property
    def name(self) -> str:
        return OPTIMAL if self.optimal else PLAN

    def success(self, adventure: Adventure) -> Fraction:
        """P(the Challenge is met) when the policy is followed, exactly."""
        if self.optimal:
            return Solver(adventure, exact=True).p_success()
        return Plan(adventure).success()


REROLL_UNNEEDED = AdventurePolicy(optimal=False)
OPTIMAL_PLAY = AdventurePolicy(optimal=True)


def parse_policy(text: str) -> AdventurePolicy:
    """"reroll-unneeded" (the plan) or "optimal" (alias "win")."""
    words = " ".join(text.lower().split())
    if words in (PLAN, "reroll unneeded", "re-roll every die that is not needed"):
        return REROLL_UNNEEDED
    if words in (OPTIMAL, "win"):
        return OPTIMAL_PLAY
    raise InputError(f"unknown Time of the Daleks policy {text!r}: use {PLAN} or optimal")


@dataclass(frozen=True)
class Plan:
    """The plan for one Doctor's Adventure."""

    adventure: Adventure

    def __post_init__(self) -> None:
        if len(self.adventure.doctors) != 1 or self.adventure.shared != Tools():
            raise InputError("the re-roll plan is for one Doctor without Any Adventure tools")
        if self.adventure.printed_faces:
            raise InputError("the re-roll plan reads changes as any symbol (no --printed-faces)")

    @property
    def tools(self) -> Tools:
        return self.adventure.doctors[0].tools

    def start(self) -> tuple[tuple[int, ...], int]:
        """The tools at the start: every re-roll icon (by index) and the Sonic tokens."""
        return tuple(range(len(self.tools.rerolls))), self.tools.sonic

    def first_throw(self) -> dict[int, int]:
        """The dice of the first roll: the whole pool, per colour that has dice."""
        return {c: n for c, n in enumerate(self.adventure.doctors[0].pool) if n}

    # ---- the plan ---------------------------------------------------------------------------
    def spare(self, dice: Dice) -> tuple[tuple[int, ...], ...]:
        """Per colour, the symbols of the dice that are not needed."""
        left = list(self.adventure.need)
        spare = []
        for shown in dice:
            mine = []
            for symbol in shown:
                if left[symbol]:
                    left[symbol] -= 1
                else:
                    mine.append(symbol)
            spare.append(tuple(mine))
        return tuple(spare)

    def met(self, dice: Dice, tokens: int) -> bool:
        """The stop test (rules.challenge_met), remembered per position (`_met`)."""
        return _met(self, dice, tokens)

    def move(self, dice: Dice, icons: tuple[int, ...], tokens: int) -> Move | None:
        """The plan's next move: the tools left after it and the symbols re-rolled per colour;
        None when no tool re-rolls only unneeded dice."""
        spare = self.spare(dice)
        for icon in icons:
            reroll = self.tools.rerolls[icon]
            mine = spare[reroll.colour]
            most = max((n for n in reroll.sizes(len(dice[reroll.colour])) if n <= len(mine)),
                       default=0)  # as many unneeded dice as the icon allows
            if most:
                return tuple(i for i in icons if i != icon), tokens, {reroll.colour: mine[:most]}
        if tokens >= SONIC_REROLL:
            for colour, mine in enumerate(spare):
                if mine:
                    return icons, tokens - SONIC_REROLL, {colour: mine[:SONIC_REROLL_DICE]}
        return None

    def after(self, dice: Dice, rerolled: Thrown, thrown: Thrown) -> Dice:
        """The dice showing once the `rerolled` symbols (per colour) are thrown again and show
        `thrown`."""
        kept = [list(shown) for shown in dice]
        for colour, symbols in rerolled.items():
            for symbol in symbols:
                kept[colour].remove(symbol)
        return tuple(tuple(sorted(kept[c] + list(thrown.get(c, ())))) for c in range(len(kept)))

    def first_dice(self, thrown: Thrown) -> Dice:
        """The dice showing after the first roll (`first_throw`) shows `thrown`."""
        return self.after(((),) * len(self.adventure.game.colours), {}, thrown)

    # ---- exact ------------------------------------------------------------------------------
    def rolls(self, dice: dict[int, int]) -> list[tuple[Thrown, Fraction]]:
        """Every outcome of throwing dice[c] dice of each colour c: symbols per colour, with
        its exact probability."""
        game = self.adventure.game
        per_colour = []
        for colour, n in dice.items():
            faces = game.face_symbols[colour]
            per_colour.append([(colour, tuple(sorted(s for s, k in zip(faces, o)
                                                     for _ in range(k))), p)
                               for o, p in roll(game.dice[colour], n)])
        result = []
        for combo in product(*per_colour):
            result.append(({c: shown for c, shown, _ in combo},
                           np.prod([p for _, _, p in combo], dtype=object)))
        return result

    def success(self) -> Fraction:
        """P(the Challenge is met) when the plan is followed, exactly."""
        @cache
        def value(dice: Dice, icons: tuple[int, ...], tokens: int) -> Fraction:
            if self.met(dice, tokens):
                return Fraction(1)
            move = self.move(dice, icons, tokens)
            if move is None:
                return Fraction(0)
            icons, tokens, rerolled = move
            return sum((p * value(self.after(dice, rerolled, shown), icons, tokens)
                        for shown, p in self.rolls({c: len(s) for c, s in rerolled.items()})),
                       Fraction(0))

        icons, tokens = self.start()
        return sum((p * value(self.first_dice(shown), icons, tokens)
                    for shown, p in self.rolls(self.first_throw())), Fraction(0))


@cache
def _met(plan: Plan, dice: Dice, tokens: int) -> bool:
    """The plan's stop test: the Challenge met with the changes the Doctor holds."""
    return challenge_met(plan.adventure.need, dice, plan.tools.changes, sonic_changes(tokens))
