"""Pig, the rules (Neller and Presser, "Optimal Play of the Dice Game Pig", 2004; docs/rules.md,
"Pig", readings 1 and 2), each written once: the engine adapter (model.py), the policies and the
simulator all play by these.

Two players race to a target. A turn: roll one die; a 1 ends the turn with nothing, any other
face adds to the turn total; after each roll the player may hold (bank the turn total) or roll
again. The first player whose banked score reaches the target wins at once.

The functions take whole numbers or NumPy arrays of them alike (the simulator plays many games
at once), so they use arithmetic and comparisons only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    Whole = int | np.ndarray  # a number, or one per game

SIDES = 6  # one ordinary die
FACES = range(1, SIDES + 1)
PIG = 1  # the face that ends the turn and loses the turn total
SCORING = tuple(face for face in FACES if face != PIG)  # the faces that add to the turn total
PLAYERS = 2


def ends_turn(face: Whole) -> bool | np.ndarray:
    """Reading 15: rolling a 1 ends the turn."""
    return face == PIG


def roll(total: Whole, face: Whole) -> Whole:
    """Reading 15: the turn total after rolling `face`: a 1 loses it (0), another face adds."""
    return (face != PIG) * (total + face)


def may_hold(total: Whole) -> bool | np.ndarray:
    """Reading 16: a turn starts with a roll; holding at a turn total of 0 is not a move."""
    return total > 0


def must_hold(score: Whole, total: Whole, target: int) -> bool | np.ndarray:
    """Reading 16: a turn total that takes the score to the target is held (holding then wins,
    so rolling on can never do better)."""
    return has_won(bank(score, total), target)


def bank(score: Whole, total: Whole) -> Whole:
    """Holding banks the turn total: the new score."""
    return score + total


def has_won(score: Whole, target: int) -> bool | np.ndarray:
    """Reading 15: the first player whose banked score reaches the target wins at once."""
    return score >= target


def opponent(seat: Whole) -> Whole:
    """Two players take turns: the other seat."""
    return 1 - seat


def most_banked(target: int) -> int:
    """The largest total a turn from a score of 0 can bank: the highest face rolled at a total
    one short of the target."""
    return target - 1 + SIDES


def turn_totals(target: int) -> list[int]:
    """The totals a turn from a score of 0 can bank: 0 after a 1, else a scoring face or more,
    up to `most_banked`."""
    return [0, *range(min(SCORING), most_banked(target) + 1)]
