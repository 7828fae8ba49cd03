"""Time of the Daleks: ways to play an Adventure as values, the plans a player can follow (a
`ToolRule`: which tool to use next), and their exact chance of meeting the Challenge (optimal
play's chance is `solver.Solver`'s).

A plan, for one Doctor: roll the pool; while the Challenge is not met (the stop test, with the
face-change icons and one change per 3 Sonic tokens in hand), use the first tool its rule
allows, then stop when none is left. The tools, each re-rolling only dice that are not needed:
- a re-roll icon, in the order given (NUMBER k: up to k unneeded dice of its colour; ANY: every
  unneeded die of its colour; ALL: only when no die of its colour is needed);
- 2 Sonic tokens on one unneeded die: the first in colour order, or (`aim`) one of the colour
  most likely to show a symbol still missing; with `keep`, only while 3 tokens stay for a face
  change;
- with `discard_at` k > 0, before the others: discard a Black die and roll every other die
  again when at least k slots are empty and more dice are left than the Challenge has slots.
`ToolRule()` (icons, then Sonic on the first unneeded die, never a discard) is the plan
"reroll-unneeded" of docs/verify.md.

A die is needed when it fills a slot of the Challenge with the symbol it shows; where more dice
show a symbol than the Challenge needs, the first ones in colour order (then symbol order) are
the needed ones. Dice are held as sorted symbol indices per colour. What each tool does and when
the Challenge is met are rules.py's.

`success` evaluates a plan exactly by recursion over (dice showing, tools left), sharing no
code with the optimal solver; the simulator plays the same plan with random dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import product
from math import prod

from solver.dice import roll
from solver.errors import InputError
from solver.games.totd.model import Solver
from solver.games.totd.rules import (
    SONIC_CHANGE,
    SONIC_REROLL,
    SONIC_REROLL_DICE,
    Adventure,
    Game,
    Tools,
    challenge_met,
    sonic_changes,
)

PLAN = "reroll-unneeded"
OPTIMAL = "optimal"
Dice = tuple[tuple[int, ...], ...]  # per colour: the symbols shown, sorted
Thrown = dict[int, Sequence[int]]  # per colour thrown: the symbols shown
Move = tuple[tuple[int, ...], int, Thrown, dict[int, int]]
"""Re-roll icons and tokens left, the dice taken up (symbols per colour), the dice thrown again
(per colour: as many as taken up, less a discarded Black die)."""


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
class ToolRule:
    """Which tool a plan uses next (see the module's docstring)."""

    sonic_first: bool = False  # Sonic re-rolls before the re-roll icons
    keep: bool = False  # Sonic re-rolls only while 3 tokens stay for a face change
    discard_at: int = 0  # discard a Black die when this many slots are empty (0: never)
    aim: bool = False  # Sonic on the colour most likely to show a missing symbol


@dataclass(frozen=True)
class Plan:
    """A plan for one Doctor's Adventure."""

    adventure: Adventure
    rule: ToolRule = field(default_factory=ToolRule)

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
        """The plan's next move: the tools left after it, the symbols taken up per colour and
        the dice thrown again; None when the rule allows no tool."""
        spare = self.spare(dice)
        tools = (self.sonic, self.icon) if self.rule.sonic_first else (self.icon, self.sonic)
        for tool in (self.discard, *tools):
            move = tool(dice, spare, icons, tokens)
            if move is not None:
                return move
        return None

    def icon(self, dice: Dice, spare: Dice, icons: tuple[int, ...], tokens: int) -> Move | None:
        """The first re-roll icon that re-rolls unneeded dice, on as many as it allows."""
        for icon in icons:
            reroll = self.tools.rerolls[icon]
            mine = spare[reroll.colour]
            most = max((n for n in reroll.sizes(len(dice[reroll.colour])) if n <= len(mine)),
                       default=0)
            if most:
                return (tuple(i for i in icons if i != icon), tokens,
                        {reroll.colour: mine[:most]}, {reroll.colour: most})
        return None

    def sonic(self, dice: Dice, spare: Dice, icons: tuple[int, ...], tokens: int) -> Move | None:
        """2 Sonic tokens on one unneeded die (with `keep`, only if 3 tokens stay)."""
        if tokens < SONIC_REROLL + (SONIC_CHANGE if self.rule.keep else 0):
            return None
        colours = [c for c, mine in enumerate(spare) if mine]
        if not colours:
            return None
        colour = max(colours, key=self.missing_weight(dice)) if self.rule.aim else colours[0]
        return (icons, tokens - SONIC_REROLL, {colour: spare[colour][:SONIC_REROLL_DICE]},
                {colour: SONIC_REROLL_DICE})

    def missing_weight(self, dice: Dice):
        """Per colour, the chance its die shows a symbol the Challenge still lacks (a key:
        the first colour wins ties)."""
        game, left = self.adventure.game, list(self.adventure.need)
        for shown in dice:
            for symbol in shown:
                left[symbol] -= left[symbol] > 0
        return lambda colour: Fraction(
            sum(w for f, w in zip(game.face_symbols[colour], game.dice[colour].weights)
                if left[f]), game.dice[colour].total)

    def discard(self, dice: Dice, spare: Dice, icons: tuple[int, ...],
                tokens: int) -> Move | None:
        """Discard a Black die and throw the others again, when the rule's count of slots is
        empty and a die more than the Challenge's slots is left."""
        slots, black = sum(self.adventure.need), self.adventure.game.black
        held = sum(map(len, dice))
        empty = slots - (held - sum(map(len, spare)))
        if not self.rule.discard_at or empty < self.rule.discard_at or not dice[black] \
                or held <= slots:
            return None
        taken = {c: shown for c, shown in enumerate(dice) if shown}
        return icons, tokens, taken, {c: len(s) - (c == black) for c, s in taken.items()}

    def after(self, dice: Dice, rerolled: Thrown, thrown: Thrown) -> Dice:
        """The dice showing once the `rerolled` symbols (per colour) are thrown again and show
        `thrown`."""
        return join(kept(dice, rerolled), thrown)

    def first_dice(self, thrown: Thrown) -> Dice:
        """The dice showing after the first roll (`first_throw`) shows `thrown`."""
        return self.after(((),) * len(self.adventure.game.colours), {}, thrown)

    # ---- exact ------------------------------------------------------------------------------
    def rolls(self, dice: dict[int, int], exact: bool = True
              ) -> tuple[tuple[Thrown, Fraction | float], ...]:
        """Every outcome of throwing dice[c] dice of each colour c: symbols per colour, with
        its probability (exact, or as a float)."""
        return _rolls(self.adventure.game, tuple(dice.items()), exact)

    def success(self, exact: bool = True) -> Fraction | float:
        """P(the Challenge is met) when the plan is followed: exactly, or by the same recursion
        in floats (to compare many plans quickly)."""
        one, zero = (Fraction(1), Fraction(0)) if exact else (1.0, 0.0)

        @cache
        def value(dice: Dice, icons: tuple[int, ...], tokens: int) -> Fraction | float:
            if self.met(dice, tokens):
                return one
            move = self.move(dice, icons, tokens)
            if move is None:
                return zero
            icons, tokens, rerolled, throws = move
            rest = kept(dice, rerolled)
            return sum((p * value(join(rest, shown), icons, tokens)
                        for shown, p in self.rolls(throws, exact)), zero)

        icons, tokens = self.start()
        return sum((p * value(self.first_dice(shown), icons, tokens)
                    for shown, p in self.rolls(self.first_throw(), exact)), zero)


def kept(dice: Dice, rerolled: Thrown) -> Dice:
    """The dice left on the table when the `rerolled` symbols (per colour) are taken up."""
    left = [list(shown) for shown in dice]
    for colour, symbols in rerolled.items():
        for symbol in symbols:
            left[colour].remove(symbol)
    return tuple(map(tuple, left))


def join(dice: Dice, thrown: Thrown) -> Dice:
    """The dice showing when dice `thrown` (symbols per colour) join those on the table."""
    return tuple(tuple(sorted(shown + tuple(thrown[c]))) if c in thrown else shown
                 for c, shown in enumerate(dice))


@cache
def _rolls(game: Game, dice: tuple[tuple[int, int], ...], exact: bool
           ) -> tuple[tuple[Thrown, Fraction | float], ...]:
    """Plan.rolls, remembered (a plan throws the same dice from many positions)."""
    per_colour = []
    for colour, n in dice:
        faces = game.face_symbols[colour]
        per_colour.append([(colour, tuple(sorted(s for s, k in zip(faces, o)
                                                 for _ in range(k))), p)
                           for o, p in roll(game.dice[colour], n)])
    number = Fraction if exact else float
    return tuple(({c: shown for c, shown, _ in combo}, number(prod(p for _, _, p in combo)))
                 for combo in product(*per_colour))


@cache
def _met(plan: Plan, dice: Dice, tokens: int) -> bool:
    """The plan's stop test: the Challenge met with the changes the Doctor holds."""
    return challenge_met(plan.adventure.need, dice, plan.tools.changes, sonic_changes(tokens))
