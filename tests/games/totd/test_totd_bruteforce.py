"""Time of the Daleks solver versus an independent brute force, exactly, on pools of 1 to 3 dice.

The brute force (`BruteForce`) plays the rules as docs/rules.md (TotD) reads them without any of the
solver's shortcuts, and shares none of its code (it only reads the parsed Adventure: the dice, the
Challenge, the tools). A die is a list of equally likely sides (a face of weight w is w sides); the
pool is an ordered tuple of physical dice (owner, colour, face); a roll is every ordered tuple of
sides (itertools.product); every tool is an explicit action on chosen dice, in any order: face
changes and 3-token changes are actions too, before or after re-rolls, on any die they allow, and
a changed die may be re-rolled later. Success when stopping is plain counting of the faces
showing. Values are Fractions memoised on the brute force's own state.

The variant `changes_last=True` forbids any re-roll once a face has been changed (the excerpt's
"if after re-rolling you still have not rolled all the symbols, you may change ..."): reading 7
says both orders give the same probability, and the tests check it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from solver.games.totd.rules import (
    Adventure,
    Doctor,
    Tools,
    load_game,
    make_tools,
    parse_challenge,
    parse_pool,
)
from solver.games.totd.solver import Solver

GAME = load_game()

Dice = tuple[tuple[int, str, str], ...]  # (owner, colour, face) per physical die, in table order


class BruteForce:
    """One Adventure by exhaustive search over ordered rolls and explicit action sequences."""

    def __init__(self, adventure: Adventure, changes_last: bool = False) -> None:
        game = adventure.game
        self.sides = {colour: [face for face, w in zip(die.faces, die.weights) for _ in range(w)]
                      for colour, die in zip(game.colours, game.dice)}
        self.printed = {colour: set(die.faces) for colour, die in zip(game.colours, game.dice)}
        self.need = {s: n for s, n in zip(game.symbols, adventure.need) if n}
        self.symbols = game.symbols
        self.printed_only = adventure.printed_faces
        self.changes_last = changes_last
        self.doctors = len(adventure.doctors)
        self.dice: Dice = tuple((d, colour, "?") for d, doc in enumerate(adventure.doctors)
                                for colour, n in zip(game.colours, doc.pool) for _ in range(n))

        def owned(owner, tools: Tools):
            rerolls = tuple((owner, r.kind, game.colours[r.colour], r.count) for r in tools.rerolls)
            changes = tuple((owner, game.colours[c.colour], game.symbols[c.symbol])
                            for c in tools.changes)
            return rerolls, changes

        parts = [owned(-1, adventure.shared)] + [owned(d, doc.tools)
                                                 for d, doc in enumerate(adventure.doctors)]
        self.rerolls = tuple(r for p in parts for r in p[0])
        self.changes = tuple(c for p in parts for c in p[1])
        self.tokens = tuple(doc.tools.sonic for doc in adventure.doctors)
        self.value = cache(self._value)

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
        for i, (owner, kind, colour, count) in enumerate(rerolls):
            left = rerolls[:i] + rerolls[i + 1:]
            for d in range(self.doctors) if owner == -1 else (owner,):
                mine = tuple(p for p, die in enumerate(dice) if die[:2] == (d, colour))
                sizes = {"number": range(1, count + 1), "any": range(1, len(mine) + 1),
                         "all": range(len(mine), len(mine) + 1)}[kind]
                for size in sizes:
                    for chosen in combinations(mine, size):
                        if chosen and may_roll:
                            yield "roll", [(o, left, changes, tokens, changed)
                                           for o in self.rolls(dice, chosen)]
        for d in range(self.doctors):
            spent2, spent3 = self.pay(tokens, d, 2), self.pay(tokens, d, 3)
            own = [p for p, die in enumerate(dice) if die[0] == d]
            for p in own:
                if spent2 and may_roll:
                    yield "roll", [(o, rerolls, changes, spent2, changed)
                                   for o in self.rolls(dice, (p,))]
                if spent3:
                    for symbol in self.symbols:
                        if not self.printed_only or symbol in self.printed[dice[p][1]]:
                            yield "set", (self.set(dice, p, symbol), rerolls, changes, spent3,
                                          True)
                if dice[p][1] == "black" and may_roll:
                    rest = tuple(die for q, die in enumerate(dice) if q != p)
                    again = tuple(q for q, die in enumerate(rest) if die[0] == d)
                    yield "roll", [(o, rerolls, changes, tokens, changed)
                                   for o in self.rolls(rest, again)]
        for i, (owner, colour, symbol) in enumerate(changes):
            left = changes[:i] + changes[i + 1:]
            for p, die in enumerate(dice):
                if die[1] == colour and owner in (-1, die[0]):
                    yield "set", (self.set(dice, p, symbol), rerolls, left, tokens, True)

    @staticmethod
    def pay(tokens: tuple[int, ...], d: int, cost: int) -> tuple[int, ...] | None:
        if tokens[d] < cost:
            return None
        return (*tokens[:d], tokens[d] - cost, *tokens[d + 1:])

    @staticmethod
    def set(dice: Dice, p: int, symbol: str) -> Dice:
        return (*dice[:p], (dice[p][0], dice[p][1], symbol), *dice[p + 1:])


def adventure(need: str, *doctors: tuple[str, int, tuple[str, ...], tuple[str, ...]],
              shared: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
              printed: bool = False) -> Adventure:
    return Adventure(GAME, parse_challenge(GAME, need),
                     tuple(Doctor(parse_pool(GAME, pool), make_tools(GAME, sonic, rr, ch))
                           for pool, sonic, rr, ch in doctors),
                     make_tools(GAME, 0, *shared), printed)


SINGLE = {
    "two black, one re-roll": adventure("Science", ("black=2", 0, ("1 black",), ())),
    "three black, sonic 5": adventure("Science, Cunning", ("black=3", 5, (), ())),
    "three black, sonic 4": adventure("Science, Cunning", ("black=3", 4, (), ())),
    "three colours, sonic 2, face change": adventure(
        "Science, Tactics x2", ("black=1 blue=1 red=1", 2, (), ("red:Tactics",))),
    "all green, sonic 2": adventure("Running, Diplomacy",
                                    ("black=1 green=2", 2, ("all green",), ())),
    "two red, unneeded change": adventure("Science, Strength",
                                          ("blue=1 red=2", 0, ("2 red",), ("blue:Cunning",))),
    "any black and a change": adventure(
        "Running, Diplomacy", ("black=2 green=1", 0, ("any black",), ("green:Diplomacy",))),
    "twin icons": adventure("Diplomacy, Science",
                            ("black=1 green=1 blue=1", 0, ("1 green", "1 green"),
                             ("blue:Diplomacy",))),
    "chained changes": adventure("Running, Diplomacy, Science",
                                 ("black=1 green=1 blue=1", 0, (),
                                  ("green:Diplomacy", "blue:Running"))),
    "sonic 3 to any symbol": adventure("Science, Cunning", ("green=1 blue=1 red=1", 3, (), ())),
    "sonic 3 to printed faces": adventure("Science, Cunning", ("green=1 blue=1 red=1", 3, (), ()),
                                          printed=True),
    "three tools on three dice": adventure(
        "Strength x2, Tactics", ("black=1 red=2", 5, ("any red",), ("black:Strength",))),
}

JOINT = {
    "helped black, helper blue": adventure("Science, Cunning", ("black=2", 2, (), ()),
                                           ("blue=1", 0, ("1 blue",), ())),
    "shared change": adventure("Tactics, Strength", ("black=2", 0, ("1 black",), ()),
                               ("red=1", 2, (), ()), shared=((), ("black:Tactics",))),
    "shared re-roll": adventure("Running, Diplomacy", ("green=1 black=1", 2, (), ()),
                                ("black=1", 0, (), ()), shared=(("1 black",), ())),
}


@pytest.mark.parametrize("name", sorted(SINGLE) + sorted(JOINT))
def test_start_value_matches_brute_force(name: str) -> None:
    adv = SINGLE.get(name) or JOINT[name]
    assert Solver(adv, exact=True).p_success() == BruteForce(adv).start()


@pytest.mark.parametrize("name", sorted(SINGLE) + sorted(JOINT))
def test_every_first_roll_matches_brute_force(name: str) -> None:
    """The value of every position after the first roll, tools all in hand."""
    adv = SINGLE.get(name) or JOINT[name]
    solver, brute = Solver(adv, exact=True), BruteForce(adv)
    for dice in brute.rolls(brute.dice, tuple(range(len(brute.dice)))):
        showing = tuple(tuple(tuple(sum(1 for o, c, f in dice if (o, c) == (d, colour) and
                                        f == face) for face in die.faces)
                              for colour, die in zip(GAME.colours, GAME.dice))
                        for d in range(len(adv.doctors)))
        expected = brute.value(dice, brute.rerolls, brute.changes, brute.tokens, False)
        assert solver.value_at(solver.position(showing)) == expected, dice


@pytest.mark.parametrize("name", ["three colours, sonic 2, face change", "any black and a change",
                                  "chained changes", "three tools on three dice", "shared change"])
def test_changes_after_all_rerolls_give_the_same_value(name: str) -> None:
    """Reading 7: whether changes may come before re-rolls does not change the probability."""
    adv = SINGLE.get(name) or JOINT[name]
    free, last = BruteForce(adv).start(), BruteForce(adv, changes_last=True).start()
    assert free == last == Solver(adv, exact=True).p_success()


def test_float_solver_agrees_with_exact() -> None:
    for adv in list(SINGLE.values()) + list(JOINT.values()):
        exact = Solver(adv, exact=True).p_success()
        assert Solver(adv).p_success() == pytest.approx(float(exact), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name", sorted(SINGLE) + sorted(JOINT))
def test_cases_are_not_degenerate(name: str) -> None:
    """A case decided in advance (certain or hopeless) would check little."""
    assert 0 < BruteForce(SINGLE.get(name) or JOINT[name]).start() < 1
