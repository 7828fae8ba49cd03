"""Time of the Daleks: the plan "re-roll every die that is not needed" as a value, and its exact
chance of meeting the Challenge (optimal play's chance is `totd_solver.Solver`'s).

The plan, for one Doctor (docs/verify.md): roll the pool; while the Challenge is not met (the
stop test, with the face-change icons and one change per 3 Sonic tokens in hand), use the first
tool that re-rolls only dice that are not needed, in this order: the re-roll icons as given
(NUMBER k: up to k unneeded dice of its colour; ANY: every unneeded die of its colour; ALL: only
when no die of its colour is needed), then 2 Sonic tokens on one unneeded die. It never
discards a Black die (that re-rolls needed dice too). With no such tool left it stops.

A die is needed when it fills a slot of the Challenge with the symbol it shows; where more dice
show a symbol than the Challenge needs, the first ones in colour order (then symbol order) are
the needed ones. Dice are held as sorted symbol indices per colour.

`success` evaluates the plan exactly by recursion over (dice showing, tools left), sharing no
code with the optimal solver; `Adventurer` plays the same plan with random dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from itertools import product

import numpy as np

from solver.dice import roll
from solver.errors import InputError
from solver.games.totd.rules import SONIC_CHANGE, SONIC_REROLL, Adventure

PLAN = "reroll-unneeded"
OPTIMAL = "optimal"
Dice = tuple[tuple[int, ...], ...]  # per colour: the symbols shown, sorted


def parse_policy(text: str) -> str:
    words = " ".join(text.lower().split())
    if words in (PLAN, "reroll unneeded", "re-roll every die that is not needed"):
        return PLAN
    if words in (OPTIMAL, "win"):
        return OPTIMAL
    raise InputError(f"unknown Time of the Daleks policy {text!r}: use {PLAN} or optimal")


@dataclass(frozen=True)
class Plan:
    """The plan for one Doctor's Adventure."""

    adventure: Adventure

    def __post_init__(self) -> None:
        if len(self.adventure.doctors) != 1 or self.adventure.shared != type(
                self.adventure.shared)():
            raise InputError("the re-roll plan is for one Doctor without Any Adventure tools")
        if self.adventure.printed_faces:
            raise InputError("the re-roll plan reads changes as any symbol (no --printed-faces)")

    @cached_property
    def faces(self) -> tuple[tuple[int, ...], ...]:
        """Per colour, each face's symbol index (in the die's face order)."""
        game = self.adventure.game
        return tuple(tuple(game.symbol(f) for f in die.faces) for die in game.dice)

    @property
    def tools(self):
        return self.adventure.doctors[0].tools

    def start(self) -> tuple[tuple[int, ...], int]:
        """The tools at the start: every re-roll icon (by index) and the Sonic tokens."""
        return tuple(range(len(self.tools.rerolls))), self.tools.sonic

    # ---- the rules the plan needs ---------------------------------------------------------
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
        """The stop test (readings 2 and 8), remembered per position (`_met`)."""
        return _met(self, dice, tokens)

    def move(self, dice: Dice, icons: tuple[int, ...], tokens: int
             ) -> tuple[tuple[int, ...], int, dict[int, tuple[int, ...]]] | None:
        """The plan's next move: the tools left after it and the symbols re-rolled per colour;
        None when no tool re-rolls only unneeded dice."""
        spare = self.spare(dice)
        for icon in icons:
            reroll = self.tools.rerolls[icon]
            mine = spare[reroll.colour]
            if reroll.kind == "all":
                chosen = mine if mine and len(mine) == len(dice[reroll.colour]) else ()
            else:
                chosen = mine[:reroll.count] if reroll.kind == "number" else mine
            if chosen:
                return tuple(i for i in icons if i != icon), tokens, {reroll.colour: chosen}
        if tokens >= SONIC_REROLL:
            for colour, mine in enumerate(spare):
                if mine:
                    return icons, tokens - SONIC_REROLL, {colour: mine[:1]}
        return None

    # ---- exact ----------------------------------------------------------------------------
    def rolls(self, dice: dict[int, int]) -> list[tuple[dict[int, tuple[int, ...]], Fraction]]:
        """Every outcome of throwing dice[c] dice of each colour c: symbols per colour, with
        its exact probability."""
        game = self.adventure.game
        per_colour = []
        for colour, n in dice.items():
            dist = roll(game.dice[colour], n)
            per_colour.append([(colour, tuple(sorted(s for s, k in zip(self.faces[colour], o)
                                                     for _ in range(k))), p)
                               for o, p in dist])
        result = []
        for combo in product(*per_colour):
            result.append(({c: shown for c, shown, _ in combo},
                           np.prod([p for _, _, p in combo], dtype=object)))
        return result

    def success(self) -> Fraction:
        """P(the Challenge is met) when the plan is followed, exactly."""
        pool = self.adventure.doctors[0].pool

        @cache
        def value(dice: Dice, icons: tuple[int, ...], tokens: int) -> Fraction:
            if self.met(dice, tokens):
                return Fraction(1)
            move = self.move(dice, icons, tokens)
            if move is None:
                return Fraction(0)
            icons, tokens, rerolled = move
            kept = [list(shown) for shown in dice]
            for colour, symbols in rerolled.items():
                for symbol in symbols:
                    kept[colour].remove(symbol)
            total = Fraction(0)
            for shown, p in self.rolls({c: len(s) for c, s in rerolled.items()}):
                after = tuple(tuple(sorted(kept[c] + list(shown.get(c, ()))))
                              for c in range(len(kept)))
                total += p * value(after, icons, tokens)
            return total

        icons, tokens = self.start()
        first = self.rolls({c: n for c, n in enumerate(pool) if n})
        return sum((p * value(tuple(shown.get(c, ()) for c in range(len(pool))), icons, tokens)
                    for shown, p in first), Fraction(0))


@cache
def _met(plan: Plan, dice: Dice, tokens: int) -> bool:
    """The stop test (readings 2 and 8): some use of the face-change icons (each on one die
    of its colour) and of one change per 3 tokens (any die, any symbol) fills every slot.
    Icons are tried on every die they may change; token changes go to dice that fill no
    slot."""
    need = plan.adventure.need
    targets = [[None, *sorted(set(dice[c.colour]))] for c in plan.tools.changes]
    for choice in product(*targets):
        counts = [0] * len(need)
        for shown in dice:
            for symbol in shown:
                counts[symbol] += 1
        for change, shown in zip(plan.tools.changes, choice):
            if shown is not None:
                counts[shown] -= 1
                counts[change.symbol] += 1
        if any(c < 0 for c in counts):  # one icon per die: not enough dice showing it
            continue
        missing = sum(max(n - c, 0) for n, c in zip(need, counts))
        spare = sum(counts) - sum(min(n, c) for n, c in zip(need, counts))
        if missing <= min(tokens // SONIC_CHANGE, spare):
            return True
    return False
