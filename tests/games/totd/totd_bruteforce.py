"""An independent brute force of one Time of the Daleks Adventure, for the tests.

It plays the rules as docs/rules.md (TotD) reads them without any of the solver's shortcuts, and
shares no code with the solver or with rules.py: it reads the dice from the data file itself and
the Challenge, the pools and the tools from the same words the tests give the solver. A die is a
list of equally likely sides (a face of weight w is w sides); the pool is an ordered tuple of
physical dice (owner, colour, face); a roll is every ordered tuple of sides (itertools.product);
every tool is an explicit action on chosen dice, in any order: face changes and 3-token changes
are actions too, before or after re-rolls, on any die they allow, and a changed die may be
re-rolled later. Success when stopping is plain counting of the faces showing. Values are
Fractions memoised on the brute force's own state.

The variant `changes_last=True` forbids any re-roll once a face has been changed (the excerpt's
"if after re-rolling you still have not rolled all the symbols, you may change ..."): reading 7
says both orders give the same probability, and the tests check it. The variant
`sonic_either=True` lets a Doctor's Sonic tokens re-roll or change a die of either pool (reading
6, --sonic-on either); a Black-die discard still re-rolls only its Doctor's dice.

`best_help` plays a call for help (reading 6) on its own: it labels every gathered die, tries
every way to hand the dice to the two Doctors (split from the helped Doctor's pool, discarding
exactly the excess; or each Doctor's own, the helper's Focus icons used or not, keeping any dice
within the limits and the supply from which no discarded die could be kept) and to Exterminate
one die per Dalek from either pool, and plays each result with the brute force above; the limits
are given to it, so the tests can shrink them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from pathlib import Path

DICE_FILE = Path(__file__).resolve().parents[3] / "solver" / "games" / "totd" / "dice.json"
EITHER = -1  # the owner of an "Any Adventure" tool

Dice = tuple[tuple[int, str, str], ...]  # (owner, colour, face) per physical die, in table order
Doctor = tuple[dict[str, int], int, Sequence[str], Sequence[str]]  # pool, sonic, rerolls, changes


def read_need(text: str) -> dict[str, int]:
    """"Science x2, Cunning" -> {"Science": 2, "Cunning": 1}."""
    need: dict[str, int] = {}
    for item in text.split(","):
        symbol, _, times = item.strip().partition(" x")
        need[symbol] = need.get(symbol, 0) + int(times or 1)
    return need


def read_pool(text: str) -> dict[str, int]:
    """"black=2 blue=1" -> {"black": 2, "blue": 1}."""
    return {colour: int(n) for colour, n in (token.split("=") for token in text.split())}


class BruteForce:
    """One Adventure by exhaustive search over ordered rolls and explicit action sequences."""

    def __init__(self, need: str, doctors: Sequence[Doctor],
                 shared: tuple[Sequence[str], Sequence[str]] = ((), ()),
                 printed_only: bool = False, changes_last: bool = False,
                 sonic_either: bool = False) -> None:
        data = json.loads(DICE_FILE.read_text(encoding="utf-8"))
        faces = {colour: die["faces"] for colour, die in data["dice"].items()}
        self.sides = {colour: [face for face, w in table.items() for _ in range(w)]
                      for colour, table in faces.items()}
        self.printed = {colour: set(table) for colour, table in faces.items()}
        self.symbols = tuple(data["symbols"])
        self.need = read_need(need)
        self.printed_only = printed_only
        self.changes_last = changes_last
        self.sonic_either = sonic_either
        self.doctors = len(doctors)
        self.dice: Dice = tuple((d, colour, "?") for d, (pool, *_) in enumerate(doctors)
                                for colour in self.sides for _ in range(pool.get(colour, 0)))
        owners = [(EITHER, *shared)] + [(d, rr, ch) for d, (_, _, rr, ch) in enumerate(doctors)]
        self.rerolls = tuple(self.reroll(owner, text) for owner, rr, _ in owners for text in rr)
        self.changes = tuple((owner, *text.split(":")) for owner, _, ch in owners for text in ch)
        self.tokens = tuple(sonic for _, sonic, _, _ in doctors)
        self.value = cache(self._value)

    @staticmethod
    def reroll(owner: int, text: str) -> tuple[int, str, str, int]:
        """"2 red" (up to 2), "any blue" or "all green" as (owner, kind, colour, count)."""
        amount, colour = text.split()
        if amount.isdigit():
            return owner, "number", colour, int(amount)
        return owner, amount, colour, 0

    # ---- the game ----------------------------------------------------------------------------
    def met(self, dice: Dice) -> bool:
        faces = [face for _, _, face in dice]
        return all(faces.count(s) >= n for s, n in self.need.items())

    def rolls(self, dice: Dice, positions: tuple[int, ...]) -> list[Dice]:
        """Every equally likely ordered outcome of re-rolling the dice at these positions."""
        outcomes = []
        for faces in product(*(self.sides[dice[i][1]] for i in positions)):
            new = list(dice)
            for i, face in zip(positions, faces):
                new[i] = (dice[i][0], dice[i][1], face)
            outcomes.append(tuple(new))
        return outcomes

    def start(self) -> Fraction:
        outcomes = self.rolls(self.dice, tuple(range(len(self.dice))))
        return sum((self.value(o, self.rerolls, self.changes, self.tokens, False)
                    for o in outcomes), Fraction(0)) / len(outcomes)

    def _value(self, dice: Dice, rerolls, changes, tokens, changed: bool) -> Fraction:
        best = Fraction(int(self.met(dice)))
        for kind, result in self.moves(dice, rerolls, changes, tokens, changed):
            if kind == "roll":
                value = sum((self.value(*r) for r in result), Fraction(0)) / len(result)
            else:
                value = self.value(*result)
            best = max(best, value)
        return best

    def moves(self, dice: Dice, rerolls, changes, tokens, changed: bool):
        """("roll", [next states]) or ("set", next state) for every explicit action."""
        may_roll = not (self.changes_last and changed)
        if may_roll:
            yield from self.icon_rerolls(dice, rerolls, changes, tokens, changed)
        for d in range(self.doctors):
            yield from self.doctor_moves(d, dice, rerolls, changes, tokens, changed, may_roll)
        for i, (owner, colour, symbol) in enumerate(changes):
            left = changes[:i] + changes[i + 1:]
            for p, die in enumerate(dice):
                if die[1] == colour and owner in (EITHER, die[0]):
                    yield "set", (self.set(dice, p, symbol), rerolls, left, tokens, True)

    def icon_rerolls(self, dice: Dice, rerolls, changes, tokens, changed: bool):
        """Each re-roll icon on each choice of its Doctor's dice of its colour."""
        for i, (owner, kind, colour, count) in enumerate(rerolls):
            left = rerolls[:i] + rerolls[i + 1:]
            for d in range(self.doctors) if owner == EITHER else (owner,):
                mine = tuple(p for p, die in enumerate(dice) if die[:2] == (d, colour))
                sizes = {"number": range(1, count + 1), "any": range(1, len(mine) + 1),
                         "all": range(len(mine), len(mine) + 1)}[kind]
                for size in sizes:
                    for chosen in combinations(mine, size):
                        if chosen:
                            yield "roll", [(o, left, changes, tokens, changed)
                                           for o in self.rolls(dice, chosen)]

    def doctor_moves(self, d: int, dice: Dice, rerolls, changes, tokens, changed: bool,
                     may_roll: bool):
        """Doctor d's 2-token re-rolls and 3-token changes (on their own dice, or with
        sonic_either on any die) and Black-die discards (their own dice), on each die."""
        spent2, spent3 = self.pay(tokens, d, 2), self.pay(tokens, d, 3)
        for p in (p for p, die in enumerate(dice) if die[0] == d or self.sonic_either):
            if spent2 and may_roll:
                yield "roll", [(o, rerolls, changes, spent2, changed)
                               for o in self.rolls(dice, (p,))]
            if spent3:
                for symbol in self.symbols:
                    if not self.printed_only or symbol in self.printed[dice[p][1]]:
                        yield "set", (self.set(dice, p, symbol), rerolls, changes, spent3, True)
            if dice[p][:2] == (d, "black") and may_roll:
                rest = tuple(die for q, die in enumerate(dice) if q != p)
                again = tuple(q for q, die in enumerate(rest) if die[0] == d)
                yield "roll", [(o, rerolls, changes, tokens, changed)
                               for o in self.rolls(rest, again)]

    @staticmethod
    def pay(tokens: tuple[int, ...], d: int, cost: int) -> tuple[int, ...] | None:
        if tokens[d] < cost:
            return None
        return (*tokens[:d], tokens[d] - cost, *tokens[d + 1:])

    @staticmethod
    def set(dice: Dice, p: int, symbol: str) -> Dice:
        return (*dice[:p], (dice[p][0], dice[p][1], symbol), *dice[p + 1:])


def best_help(need: str, helped: Doctor, helper: Doctor, limits: tuple[int, int], daleks: int,
              own: bool = False, focuses: Sequence[str] = (),
              sonic_either: bool = False) -> Fraction:
    """The best chance, over every choice the rules leave the Doctors, of a call for help with
    these pool limits (helped Doctor, helper; a helper limit of 0 is the helped Doctor alone).
    The helped Doctor's pool is what they gathered; the helper's is theirs (own) or ignored
    (the dice are split from the helped Doctor's)."""
    data = json.loads(DICE_FILE.read_text(encoding="utf-8"))
    supply = {colour: die["supply"] for colour, die in data["dice"].items()}
    mine = [c for c, n in helped[0].items() for _ in range(n)]
    theirs = [c for c, n in helper[0].items() for _ in range(n)] if own else []
    best = Fraction(0)
    seen = set()
    for hands in _hands(mine, theirs, limits, own, focuses, supply):
        for kept in _exterminated(hands, daleks):
            pools = tuple(tuple(sorted(hand)) for hand in kept)
            if pools in seen:
                continue
            seen.add(pools)
            doctors = [({c: pools[0].count(c) for c in set(pools[0])}, *helped[1:])]
            if limits[1]:
                doctors.append(({c: pools[1].count(c) for c in set(pools[1])}, *helper[1:]))
            best = max(best, BruteForce(need, doctors, sonic_either=sonic_either).start())
    return best


def _hands(mine: list[str], theirs: list[str], limits: tuple[int, int], own: bool,
           focuses: Sequence[str], supply: dict[str, int]):
    """Every (helped Doctor's dice, helper's dice) after discarding exactly the excess."""
    if not own:  # each gathered die to the helped Doctor, the helper or the discard pile
        excess = max(0, len(mine) - limits[0] - limits[1])
        for where in product((0, 1, 2), repeat=len(mine)):
            hands = [[c for c, w in zip(mine, where) if w == k] for k in (0, 1)]
            if len(hands[0]) <= limits[0] and len(hands[1]) <= limits[1] and \
                    where.count(2) == excess:
                yield hands
        return
    for gathered in _focused(mine, theirs, focuses, supply):
        hands = (mine, gathered)
        for keep in product(*(product((0, 1), repeat=len(hand)) for hand in hands)):
            kept = [[c for c, k in zip(hand, ks) if k] for hand, ks in zip(hands, keep)]
            if _may_keep(kept, limits, supply) and not any(
                    _may_keep([[*hand, c] if h == g else hand for h, hand in enumerate(kept)],
                              limits, supply)
                    for g in (0, 1) for c, k in zip(hands[g], keep[g]) if not k):
                yield kept


def _may_keep(kept: list[list[str]], limits: tuple[int, int], supply: dict[str, int]) -> bool:
    """Each Doctor within their limit, the two within the supply of each colour."""
    both = kept[0] + kept[1]
    return all(len(hand) <= limit for hand, limit in zip(kept, limits)) and \
        all(both.count(c) <= n for c, n in supply.items())


def _focused(mine: list[str], theirs: list[str], focuses: Sequence[str],
             supply: dict[str, int]):
    """The helper's dice after each Focus icon is used (a Black die for one of its colours,
    while the supply has one left beside both Doctors' dice) or not."""
    for picks in product(*([None, *f.split("/")] for f in focuses)):
        dice = list(theirs)
        for colour in (c for c in picks if c is not None):
            if "black" not in dice or mine.count(colour) + dice.count(colour) >= supply[colour]:
                break
            dice.remove("black")
            dice.append(colour)
        else:
            yield dice


def _exterminated(hands: list[list[str]], daleks: int):
    """Every way for the Daleks to take one die each from either hand (all, if too few)."""
    labelled = [(k, i) for k, hand in enumerate(hands) for i in range(len(hand))]
    for gone in combinations(labelled, min(daleks, len(labelled))):
        yield [[c for i, c in enumerate(hand) if (k, i) not in gone]
               for k, hand in enumerate(hands)]
