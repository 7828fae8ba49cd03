"""Time of the Daleks solver versus an independent brute force, exactly, on pools of 1 to 3 dice.

The brute force (totd_bruteforce.py) plays the rules without any of the solver's shortcuts and
shares none of its code, rules.py included: each case is written once in words, which rules.py
reads for the solver and the brute force reads on its own. See totd_bruteforce.py for how it
plays (every tool an explicit action, in any order) and for the `changes_last` variant.
"""

from __future__ import annotations

import pytest
from totd_bruteforce import BruteForce, read_pool

from solver.games.totd.files import load_game
from solver.games.totd.model import Solver
from solver.games.totd.rules import EITHER_POOL, OWN_POOL, Adventure, Doctor
from solver.games.totd.typed import make_tools, parse_challenge, parse_pool

GAME = load_game()

DoctorWords = tuple[str, int, tuple[str, ...], tuple[str, ...]]  # pool, sonic, rerolls, changes


def case(need: str, *doctors: DoctorWords,
         shared: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()), printed: bool = False,
         sonic_either: bool = False) -> dict:
    """An Adventure in words: the Challenge, each Doctor, the Any Adventure tools, the
    variants (printed faces only; Sonic tokens on either Doctor's dice)."""
    return {"need": need, "doctors": doctors, "shared": shared, "printed": printed,
            "sonic_either": sonic_either}


def adventure(words: dict) -> Adventure:
    """The case as rules.py reads it, for the solver."""
    return Adventure(GAME, parse_challenge(GAME, words["need"]),
                     tuple(Doctor(parse_pool(GAME, pool), make_tools(GAME, sonic, rr, ch))
                           for pool, sonic, rr, ch in words["doctors"]),
                     make_tools(GAME, 0, *words["shared"]), words["printed"],
                     EITHER_POOL if words["sonic_either"] else OWN_POOL)


def brute_force(words: dict, changes_last: bool = False) -> BruteForce:
    """The case as the brute force reads it."""
    doctors = [(read_pool(pool), sonic, rr, ch) for pool, sonic, rr, ch in words["doctors"]]
    return BruteForce(words["need"], doctors, words["shared"], words["printed"], changes_last,
                      words["sonic_either"])


SINGLE = {
    "two black, one re-roll": case("Science", ("black=2", 0, ("1 black",), ())),
    "three black, sonic 5": case("Science, Cunning", ("black=3", 5, (), ())),
    "three black, sonic 4": case("Science, Cunning", ("black=3", 4, (), ())),
    "three colours, sonic 2, face change": case(
        "Science, Tactics x2", ("black=1 blue=1 red=1", 2, (), ("red:Tactics",))),
    "all green, sonic 2": case("Running, Diplomacy", ("black=1 green=2", 2, ("all green",), ())),
    "two red, unneeded change": case("Science, Strength",
                                     ("blue=1 red=2", 0, ("2 red",), ("blue:Cunning",))),
    "any black and a change": case(
        "Running, Diplomacy", ("black=2 green=1", 0, ("any black",), ("green:Diplomacy",))),
    "twin icons": case("Diplomacy, Science",
                       ("black=1 green=1 blue=1", 0, ("1 green", "1 green"), ("blue:Diplomacy",))),
    "chained changes": case("Running, Diplomacy, Science",
                            ("black=1 green=1 blue=1", 0, (), ("green:Diplomacy", "blue:Running"))),
    "sonic 3 to any symbol": case("Science, Cunning", ("green=1 blue=1 red=1", 3, (), ())),
    "sonic 3 to printed faces": case("Science, Cunning", ("green=1 blue=1 red=1", 3, (), ()),
                                     printed=True),
    "three tools on three dice": case(
        "Strength x2, Tactics", ("black=1 red=2", 5, ("any red",), ("black:Strength",))),
}

JOINT = {
    "helped black, helper blue": case("Science, Cunning", ("black=2", 2, (), ()),
                                      ("blue=1", 0, ("1 blue",), ())),
    "shared change": case("Tactics, Strength", ("black=2", 0, ("1 black",), ()),
                          ("red=1", 2, (), ()), shared=((), ("black:Tactics",))),
    "shared re-roll": case("Running, Diplomacy", ("green=1 black=1", 2, (), ()),
                           ("black=1", 0, (), ()), shared=(("1 black",), ())),
    "helper's tokens re-roll the helped Doctor's die": case(
        "Science, Cunning", ("black=2", 0, (), ()), ("blue=1", 2, (), ()), sonic_either=True),
    "helped Doctor's tokens change the helper's die": case(
        "Strength, Tactics", ("red=1", 3, (), ()), ("black=1", 0, ("1 black",), ()),
        sonic_either=True),
    "both Doctors' tokens on either pool": case(
        "Running, Diplomacy, Science", ("green=2", 2, (), ()), ("blue=1", 3, (), ()),
        sonic_either=True, printed=True),
}
CASES = SINGLE | JOINT


@pytest.mark.parametrize("name", sorted(CASES))
def test_start_value_matches_brute_force(name: str) -> None:
    words = CASES[name]
    assert Solver(adventure(words), exact=True).p_success() == brute_force(words).start()


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_first_roll_matches_brute_force(name: str) -> None:
    """The value of every position after the first roll, tools all in hand."""
    words = CASES[name]
    solver, brute = Solver(adventure(words), exact=True), brute_force(words)
    for dice in brute.rolls(brute.dice, tuple(range(len(brute.dice)))):
        showing = tuple(tuple(tuple(sum(1 for o, c, f in dice if (o, c) == (d, colour) and
                                        f == face) for face in die.faces)
                              for colour, die in zip(GAME.colours, GAME.dice))
                        for d in range(len(words["doctors"])))
        expected = brute.value(dice, brute.rerolls, brute.changes, brute.tokens, False)
        assert solver.value_at(solver.position(showing)) == expected, dice


@pytest.mark.parametrize("name", ["three colours, sonic 2, face change", "any black and a change",
                                  "chained changes", "three tools on three dice", "shared change"])
def test_changes_after_all_rerolls_give_the_same_value(name: str) -> None:
    """Reading 7: whether changes may come before re-rolls does not change the probability."""
    words = CASES[name]
    free, last = brute_force(words).start(), brute_force(words, changes_last=True).start()
    assert free == last == Solver(adventure(words), exact=True).p_success()


def test_float_solver_agrees_with_exact() -> None:
    for words in CASES.values():
        exact = Solver(adventure(words), exact=True).p_success()
        assert Solver(adventure(words)).p_success() == pytest.approx(float(exact), rel=1e-12,
                                                                     abs=1e-15)


@pytest.mark.parametrize("name", sorted(CASES))
def test_cases_are_not_degenerate(name: str) -> None:
    """A case decided in advance (certain or hopeless) would check little."""
    assert 0 < brute_force(CASES[name]).start() < 1


@pytest.mark.parametrize("name", sorted(n for n in CASES if CASES[n]["sonic_either"]))
def test_tokens_on_either_pool_change_these_cases(name: str) -> None:
    """Reading 6, --sonic-on either: each such case is worth more than with tokens on their
    owner's dice only, so the cases above check the variant, not the default again."""
    words = CASES[name]
    own = dict(words, sonic_either=False)
    assert brute_force(words).start() > brute_force(own).start()
    assert Solver(adventure(own), exact=True).p_success() == brute_force(own).start()
