"""Strike (Ravensburger 2012, Dieter Nüßle), the rules, each written once: the solver's model
(model.py, throws.py) and the simulator both play by these. The readings of the rulebook are the
"Strike" section of docs/rules.md; the numbers below refer to them.

Dice here are labelled as players see them: a die shows a number 1..NUMBERS or the X. Stocks are
listed by seat, seat 0 (the eldest player, "seat 1" to users) first. The rules that move the
game on are written for arrays (one row per position: the level engine plays millions at once)
and serve one position as well (the cyclic engine's model, the simulator, the companion).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from solver.errors import InputError

NUMBERS = 5  # reading 1: five numbered faces, labelled 1..5
LABELS = range(1, NUMBERS + 1)
X = NUMBERS + 1  # the sixth face
FACES = X  # faces of a die, each 1/6
MATCH = 2  # reading 5: a number shown by this many dice or more is taken by the thrower
EDITIONS = {31: {2: 9, 3: 8, 4: 7, 5: 6}, 26: {2: 8, 3: 7, 4: 6, 5: 5}}  # dice per player
DEFAULT_EDITION = 31
PLAYERS = range(2, 6)  # Strike is for 2 to 5 players
PLACED = 1  # reading 10: each player places one die from their stock at setup
MIN_DICE = PLACED + 1  # a die to place and one to throw
FIRST = 0  # reading 3: the eldest player places first and throws first
DEFAULT_HIT = Fraction(1, 2)  # reading 4: the throw model's parameters
DEFAULT_MISS = Fraction(0)
DEFAULT_FLY_OUT = Fraction(0)  # reading 4b: a struck arena die never leaves the arena
EMPTY_ARENA = ("pass", "continue")  # reading 6b: an arena emptied without a match
DEFAULT_EMPTY_ARENA = "pass"
SCORINGS = ("win", "points")  # reading 8: play to win, or for the fewest points
POINTS_COUNTS = ("after", "before")  # reading 8: the players still in counted after an
DEFAULT_POINTS_COUNT = "after"  # elimination (without the player going out), or before it


def dice_per_player(players: int, edition: int = DEFAULT_EDITION, dice: int | None = None) -> int:
    """Reading 2: the edition's stock for this many players, or `dice` if given (at most what
    the edition's box holds, shared out)."""
    if edition not in EDITIONS:
        raise InputError(f"the edition is 31 or 26 dice, not {edition}")
    if players not in EDITIONS[edition]:
        raise InputError(f"Strike is for 2 to 5 players, not {players}")
    if dice is None:
        return EDITIONS[edition][players]
    if dice * players > edition:
        raise InputError(f"{players} players with {dice} dice each need {dice * players} dice; "
                         f"the {edition}-dice edition has {edition}")
    return dice


def next_placer(seat: int, players: int) -> int | None:
    """Reading 10: setup placements go in seat order; None once every seat has placed (then
    seat FIRST throws)."""
    return seat + 1 if seat + 1 < players else None


def thrown_dice(stock, arena_size, first=True):
    """Reading 6: the first throw of a turn into an empty arena is the whole stock (the big
    hit); any other throw is one die (reading 6b: a later throw into an arena the thrower
    emptied, under --empty-arena continue). Whole numbers or arrays alike."""
    return np.where(np.logical_and(first, np.equal(arena_size, 0)), stock, 1)


def dice_thrown(stock: int, arena: Sequence[int], first: bool = True) -> int:
    """`thrown_dice` for one position and its arena's dice."""
    return int(thrown_dice(stock, len(arena), first))


def thrown_into(arena: Sequence[int], struck: Sequence[bool], flew: Sequence[bool],
                landed: Sequence[bool], faces: Sequence[int]) -> list[int]:
    """Readings 4 and 4b: the faces showing once a throw settles. `faces` holds a fresh face for
    each arena die, then for each thrown die: a struck arena die shows it (an unstruck one keeps
    its number) unless it flew out of the arena (`flew`, only ever of a struck die), which has
    left the game; a thrown die that landed shows it (one that missed has left the game)."""
    shown = [face if hit else number
             for number, hit, gone, face in zip(arena, struck, flew, faces) if not gone]
    return shown + [face for lands, face in zip(landed, faces[len(arena):]) if lands]


def settle(shown: int) -> tuple[int, int]:
    """Reading 5 for one number shown by `shown` dice: (dice left in the arena, dice taken by
    the thrower)."""
    return (0, shown) if shown >= MATCH else (shown, 0)


def resolve(shown: Sequence[int]) -> tuple[list[int], int]:
    """Reading 5: X faces leave the game, every matched number's dice are taken by the thrower,
    the numbers shown once stay. Returns the numbers left (increasing) and the dice taken."""
    counts = Counter(face for face in shown if face != X)
    left, taken = [], 0
    for number in sorted(counts):
        stays, takes = settle(counts[number])
        left += [number] * stays
        taken += takes
    return left, taken


def stock_after_throw(stock: int, thrown: int, taken: int) -> int:
    """The thrower's stock after a throw: the thrown dice left it, the taken ones come back."""
    return stock - thrown + taken


def turn_ends(taken, left, stock, empty_arena: str = DEFAULT_EMPTY_ARENA):
    """Readings 5, 6, 6b and 7: a match ends the turn, so does an empty stock, and an empty
    arena (the big hit passes on) unless `empty_arena` is "continue"; otherwise the thrower may
    throw again or stop. Whole numbers (a bool) or arrays alike."""
    emptied = (left == 0) & (empty_arena == "pass")
    return (taken > 0) | emptied | (stock == 0)


def still_in(stocks: np.ndarray) -> np.ndarray:
    """Reading 7: the seats still in are those with dice in stock (stocks by seat in the last
    axis)."""
    return np.asarray(stocks) > 0


def next_seats(mover: np.ndarray, stocks: np.ndarray) -> np.ndarray:
    """Reading 3: turns go clockwise, skipping players who are out (movers, and stocks by seat
    in the last axis)."""
    mover, stocks = np.asarray(mover), np.asarray(stocks)
    players = stocks.shape[-1]
    seat = (mover + 1) % players
    for _ in range(players - 1):
        out = np.take_along_axis(stocks, seat[..., None], axis=-1)[..., 0] == 0
        seat = np.where(out, (seat + 1) % players, seat)
    return seat


def next_seat(mover: int, stocks: Sequence[int]) -> int:
    """`next_seats` for one position."""
    return int(next_seats(mover, stocks))


def winners(stocks: np.ndarray) -> np.ndarray:
    """Reading 7: the last player with dice wins; -1 while two or more have dice."""
    seats = still_in(stocks)
    return np.where(seats.sum(axis=-1) == 1, np.argmax(seats, axis=-1), -1)


def winner(stocks: Sequence[int]) -> int | None:
    """`winners` for one position: None while two or more have dice."""
    seat = int(winners(stocks))
    return None if seat < 0 else seat


def points_going_out(stocks) -> int | np.ndarray:
    """Reading 8: the number of players still in after a player goes out, which positions
    keep for each seat out (0 for a seat in); `points_scored` makes it the seat's points."""
    return still_in(stocks).sum(axis=-1)


def points_scored(left: int, count: str = DEFAULT_POINTS_COUNT) -> int:
    """Reading 8: the points of a seat that went out leaving `left` players in (0 for the
    winner, who never goes out): "players still left in the game when they are eliminated",
    counted after the elimination, or with count "before" before it (the player going out
    counted too: one more)."""
    return left + (left > 0 and count == "before")
