"""Time of the Daleks solver versus closed forms, exactly.

With no tools but the Black dice, the player stops when the roll meets the Challenge and
otherwise discards a Black die and re-rolls everything (stopping short is worth 0), so
    P(b Black dice) = 1 - prod_{j=0..b} (1 - Q_j),
where Q_j is the probability that one roll of j Black dice and the coloured dice shows every
symbol of a Challenge of distinct symbols A, by inclusion-exclusion over the symbols that fail to
show:  Q = sum_{T subset of A} (-1)^|T| prod_dice (1 - P(die shows a symbol of T)).
One Sonic token buys nothing (a re-roll costs 2), so it must not change the answer.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import prod

import pytest

from solver.games.totd.files import load_game
from solver.games.totd.model import Solver
from solver.games.totd.rules import Adventure, Doctor, Tools
from solver.games.totd.typed import parse_challenge, parse_pool

GAME = load_game()


def face_probability(colour: str, symbols: set[str]) -> Fraction:
    die = GAME.dice[GAME.colours.index(colour)]
    return Fraction(sum(w for f, w in zip(die.faces, die.weights) if f in symbols), die.total)


def one_roll(symbols: list[str], black: int, colours: dict[str, int]) -> Fraction:
    """Q: every symbol shows at least once (inclusion-exclusion)."""
    dice = ["black"] * black + [c for c, n in colours.items() for _ in range(n)]
    total = Fraction(0)
    for size in range(len(symbols) + 1):
        for missing in combinations(symbols, size):
            total += (-1) ** size * prod(1 - face_probability(d, set(missing)) for d in dice)
    return total


def closed_form(symbols: list[str], black: int, colours: dict[str, int]) -> Fraction:
    return 1 - prod(1 - one_roll(symbols, j, colours) for j in range(black + 1))


CASES = [
    ("Science", 1, {}),
    ("Science, Cunning, Tactics", 4, {}),
    ("Running, Diplomacy, Science, Cunning, Tactics, Strength", 8, {}),
    ("Running, Diplomacy, Science, Cunning, Tactics, Strength", 5, {"green": 1, "blue": 1,
                                                                   "red": 1}),
    ("Science, Cunning, Tactics", 2, {"blue": 2, "red": 1}),
    ("Running, Diplomacy, Tactics, Strength", 0, {"green": 3, "red": 3}),
    ("Diplomacy, Strength", 3, {"green": 2, "blue": 1}),
]


@pytest.mark.parametrize("need, black, colours", CASES)
@pytest.mark.parametrize("sonic", [0, 1])
def test_no_tools_matches_inclusion_exclusion(need: str, black: int, colours: dict[str, int],
                                              sonic: int) -> None:
    pool = " ".join([f"black={black}"] + [f"{c}={n}" for c, n in colours.items()])
    adventure = Adventure(GAME, parse_challenge(GAME, need),
                          (Doctor(parse_pool(GAME, pool), Tools(sonic)),))
    solver = Solver(adventure, exact=True)
    symbols = [s.strip() for s in need.split(",")]
    assert solver.p_success() == closed_form(symbols, black, colours)
    assert solver.p_first_roll() == one_roll(symbols, black, colours)
