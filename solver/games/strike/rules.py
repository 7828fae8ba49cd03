"""Strike (Ravensburger 2012, Dieter Nüßle) as a cyclic game under an explicit throw model.

Dice move between the players' stocks and the arena, so positions repeat; X faces and dice that
miss the arena leave the game, which is the progress measure (it never decreases). The readings
of the rulebook are the "Strike" section of docs/rules.md; the numbers below refer to them.

The five numbers of a die are exchangeable (each 1/6, treated alike by every rule), so a position
stores the arena up to relabelling: the sizes of its groups of equal numbers, largest first.
Between throws the arena is a set, so this is `(1,) * k` for k different numbers; only the setup
can leave a group of two or more (two players placing the same number). Each throw's outcome is
given relative to the position (dice left in the arena, dice taken, dice removed), so positions
with the same arena and the same number of dice thrown share one `Choices` object, which lets the
engine value them in one batch.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import NamedTuple

from solver.engine.cyclic import Terminal
from solver.engine.local import Choices
from solver.errors import InputError

NUMBERS = 5  # numbered faces; the sixth face is the X
FACES = NUMBERS + 1
EDITIONS = {31: {2: 9, 3: 8, 4: 7, 5: 6}, 26: {2: 8, 3: 7, 4: 6, 5: 5}}  # dice per player
DEFAULT_EDITION = 31
DEFAULT_HIT = Fraction(1, 2)
DEFAULT_MISS = Fraction(0)
SCORINGS = ("win", "points")

START, MID, SETUP = 0, 1, 2  # phases: must throw, may throw again or stop, placing a die
PHASE_NAMES = {START: "start", MID: "mid-turn", SETUP: "setup"}

Arena = tuple[int, ...]  # sizes of the groups of equal numbers, largest first


class Position(NamedTuple):
    """Everything that decides the rest of the game. A seat is still in exactly when its stock
    is not empty (reading 7: only the mover can go out, at the end of its turn, and a mover
    with an empty stock ends the turn), so no separate field is needed for it. `points` holds
    each eliminated seat's points under --scoring points (0 for seats still in), `()` otherwise:
    the order of eliminations is history the payoff needs but the state would otherwise lose."""

    mover: int
    stocks: tuple[int, ...]  # by seat, seat 0 first
    arena: Arena
    phase: int
    points: tuple[int, ...]


class Outcome(NamedTuple):
    """One result of a throw: numbers left showing once, dice taken by the thrower (all dice
    showing a number two or more dice show), dice removed (X faces and misses), probability."""

    left: int
    taken: int
    removed: int
    probability: Fraction


def canonical(numbers: Sequence[int]) -> Arena:
    """The arena of these labelled dice up to relabelling: group sizes, largest first."""
    counts: dict[int, int] = defaultdict(int)
    for n in numbers:
        counts[n] += 1
    return tuple(sorted(counts.values(), reverse=True))


def representative(arena: Arena) -> list[int]:
    """Labelled dice with this arena: group k shows number k + 1 (for tables and reports)."""
    return [k + 1 for k, size in enumerate(arena) for _ in range(size)]


@cache
def _faces(fixed: Arena, rolled: int) -> dict[tuple[int, int, int], int]:
    """Ways (out of 6**rolled) for `rolled` fresh dice to land so that, together with `fixed`
    dice (count per number, numbers 1.. in order), `left` numbers show exactly once, `taken` dice
    show a number shown two or more times, and `xs` dice show X. Numbers are filled one at a time
    (multinomial counting); the X gets the dice no number took."""
    states = {(0, 0, 0): 1}  # (fresh dice used, left, taken) -> ways
    for number in range(NUMBERS):
        have = fixed[number] if number < len(fixed) else 0
        following: dict[tuple[int, int, int], int] = defaultdict(int)
        for (used, left, taken), ways in states.items():
            free = rolled - used
            for k in range(free + 1):
                shown = have + k
                key = (used + k, left + (shown == 1), taken + (shown if shown >= 2 else 0))
                following[key] += ways * comb(free, k)
        states = following
    result: dict[tuple[int, int, int], int] = defaultdict(int)
    for (used, left, taken), ways in states.items():
        result[(left, taken, rolled - used)] += ways
    return dict(result)


def _binomial(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p ** k * (1 - p) ** (n - k)


def _strike_patterns(arena: Arena, hit: Fraction) -> dict[tuple[Arena, int], Fraction]:
    """(dice left unstruck per group, dice struck) -> probability: each arena die is struck
    independently with probability `hit` (reading 4)."""
    patterns: dict[tuple[Arena, int], Fraction] = {((), 0): Fraction(1)}
    for size in arena:
        following: dict[tuple[Arena, int], Fraction] = defaultdict(Fraction)
        for (kept, struck), p in patterns.items():
            for stay in range(size + 1):
                q = _binomial(size, stay, 1 - hit)
                if q:
                    following[((*kept, stay), struck + size - stay)] += p * q
        patterns = following
    return patterns


@cache
def throw_outcomes(arena: Arena, thrown: int, hit: Fraction, miss: Fraction
                   ) -> tuple[Outcome, ...]:
    """Exact distribution of a throw of `thrown` dice into `arena` (readings 4 and 5): the hit
    patterns (how many dice of each group are struck) times the thrown dice that land, times the
    faces of every struck or landed die. Sorted by (left, taken, removed)."""
    total: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    for (kept, struck), p_strike in _strike_patterns(arena, hit).items():
        for landed in range(thrown + 1):
            p_land = _binomial(thrown, landed, 1 - miss)
            if not p_land:
                continue
            rolled = struck + landed
            scale = p_strike * p_land / FACES ** rolled
            for (left, taken, xs), ways in _faces(kept, rolled).items():
                total[(left, taken, xs + thrown - landed)] += scale * ways
    return tuple(Outcome(*key, p) for key, p in sorted(total.items()) if p)


@dataclass(frozen=True)
class Throw:
    """A throw from one arena with one number of dice, as the engine's local models: `start`
    (the throw is forced) and `mid` (result 0 is stopping, then the throw's results)."""

    outcomes: tuple[Outcome, ...]
    start: Choices
    mid: Choices


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


@dataclass
class Strike:
    """The game as the cyclic engine sees it. Metrics: with win scoring, P(seat wins) for each
    seat; with points scoring, minus the expected points of each seat (the engine maximises),
    then P(seat wins) for each seat under the same play."""

    players: int = 2
    dice: int = EDITIONS[DEFAULT_EDITION][2]
    hit: Fraction = DEFAULT_HIT
    miss: Fraction = DEFAULT_MISS
    scoring: str = "win"

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 5:
            raise InputError(f"Strike is for 2 to 5 players, not {self.players}")
        if self.dice < 2:
            raise InputError(f"each player needs at least 2 dice (one is placed at setup), "
                             f"not {self.dice}")
        for name, p in (("hit", self.hit), ("miss", self.miss)):
            if not 0 <= p <= 1:
                raise InputError(f"--{name} must be a probability between 0 and 1, not {p}")
        if self.scoring not in SCORINGS:
            raise InputError(f"scoring is one of {', '.join(SCORINGS)}, not {self.scoring!r}")
        self.hit, self.miss = Fraction(self.hit), Fraction(self.miss)
        self.total = self.players * self.dice
        self.metrics = self.players * (2 if self.scoring == "points" else 1)
        self._throws: dict[tuple[Arena, int], Throw] = {}
        self._setups: dict[Arena, tuple[Choices, list[Arena]]] = {}
        self._terminals: dict[tuple, Terminal] = {}

    # ---- the engine's protocol ------------------------------------------------------------
    def start(self) -> Position:
        """Before setup: seat 1 places first (readings 3 and 10), every stock full."""
        points = (0,) * self.players if self.scoring == "points" else ()
        return Position(0, (self.dice,) * self.players, (), SETUP, points)

    def objective(self, position: Hashable) -> int:
        return position[0]

    def progress(self, position: Hashable) -> int:
        """Dice removed from the game so far: X faces and misses only ever add to it."""
        return self.total - sum(position[1]) - sum(position[2])

    def local(self, position: Hashable) -> Choices:
        mover, stocks, arena, phase, _ = position
        if phase == SETUP:
            return self.placements(arena)[0]
        throw = self.throw(arena, stocks[mover] if not arena else 1)
        return throw.mid if phase == MID else throw.start

    def successors(self, position: Hashable) -> list[Position | Terminal]:
        mover, stocks, arena, phase, points = position
        if phase == SETUP:
            last = mover == self.players - 1
            placed = (*stocks[:mover], stocks[mover] - 1, *stocks[mover + 1:])
            return [Position(0 if last else mover + 1, placed, after, START if last else SETUP,
                             points) for after in self.placements(arena)[1]]
        stock = stocks[mover]
        thrown = stock if not arena else 1  # reading 6: the big hit throws the whole stock
        result: list[Position | Terminal] = []
        if phase == MID:
            result.append(self.end_turn(mover, stocks, arena, points))
        for outcome in self.throw(arena, thrown).outcomes:
            left = outcome.left
            kept = stock - thrown + outcome.taken
            after = (*stocks[:mover], kept, *stocks[mover + 1:])
            if outcome.taken or not left or not kept:  # readings 5, 6 and 7
                result.append(self.end_turn(mover, after, (1,) * left, points))
            else:
                result.append(Position(mover, after, (1,) * left, MID, points))
        return result

    # ---- rules ----------------------------------------------------------------------------
    def throw(self, arena: Arena, thrown: int) -> Throw:
        """The shared local models of one throw (cached per arena and number of dice)."""
        key = (arena, thrown)
        if key not in self._throws:
            outcomes = throw_outcomes(arena, thrown, self.hit, self.miss)
            n = len(outcomes)
            self._throws[key] = Throw(
                outcomes,
                Choices([[(k, o.probability) for k, o in enumerate(outcomes)]], n),
                Choices([[(0, Fraction(1))],
                         [(k + 1, o.probability) for k, o in enumerate(outcomes)]], n + 1))
        return self._throws[key]

    def placements(self, arena: Arena) -> tuple[Choices, list[Arena]]:
        """Setup (reading 10): the distinct arenas a placement can make, in the order of the
        smallest number making each when group k shows number k + 1, so ties go to the lowest
        number, as in `placement_options`."""
        if arena not in self._setups:
            after = list(dict.fromkeys(a for _, a in placement_options(representative(arena))))
            options = [[(k, Fraction(1))] for k in range(len(after))]
            self._setups[arena] = (Choices(options, len(after)), after)
        return self._setups[arena]

    def end_turn(self, mover: int, stocks: tuple[int, ...], arena: Arena,
                 points: tuple[int, ...]) -> Position | Terminal:
        """The turn passes to the next seat still in; a mover with an empty stock is out
        (reading 7), scoring the number of seats still in (reading 8)."""
        if not stocks[mover]:
            still_in = [seat for seat, s in enumerate(stocks) if s]
            if points:
                points = (*points[:mover], len(still_in), *points[mover + 1:])
            if len(still_in) == 1:
                return self.payoff(still_in[0], points)
        seat = (mover + 1) % self.players
        while not stocks[seat]:
            seat = (seat + 1) % self.players
        return Position(seat, stocks, arena, START, points)

    def payoff(self, winner: int, points: tuple[int, ...]) -> Terminal:
        """The end: one Terminal object per payoff (the engine tells terminals by identity)."""
        key = (winner, points)
        if key not in self._terminals:
            wins = tuple(Fraction(int(seat == winner)) for seat in range(self.players))
            values = wins if not points else tuple(Fraction(-p) for p in points) + wins
            self._terminals[key] = Terminal(values)
        return self._terminals[key]

    # ---- positions a user types -----------------------------------------------------------
    def position(self, numbers: Sequence[int], stocks: Sequence[int], mid_turn: bool
                 ) -> Position:
        """A position in play: the mover is seat 1, `stocks` in turn order from the mover, the
        arena's labelled numbers. Eliminated seats (stock 0) score points in seat order under
        points scoring: the order they went out in cannot change the mover's decision."""
        self.check_numbers(numbers, repeats=False)
        if len(stocks) != self.players:
            raise InputError(f"{len(stocks)} stocks given for {self.players} players")
        if any(s < 0 for s in stocks):
            raise InputError("stocks cannot be negative")
        if not stocks[0]:
            raise InputError("the mover's stock is empty: a player whose turn ends with no dice "
                             "is out, so the mover has at least one die")
        still_in = sum(1 for s in stocks if s)
        if still_in < 2:
            raise InputError("only one player has dice: the game is over")
        if mid_turn and not numbers:
            raise InputError("a mid-turn position needs dice in the arena (the turn ends when "
                             "the arena empties)")
        if sum(stocks) + len(numbers) > self.total:
            raise InputError(f"{sum(stocks) + len(numbers)} dice in play, but the game starts "
                             f"with {self.total} ({self.players} x {self.dice})")
        points: tuple[int, ...] = ()
        if self.scoring == "points":
            out = [seat for seat, s in enumerate(stocks) if not s]
            points = tuple(self.players - 1 - out.index(seat) if seat in out else 0
                           for seat in range(self.players))
        return Position(0, tuple(stocks), canonical(numbers), MID if mid_turn else START, points)

    def setup_position(self, numbers: Sequence[int]) -> Position:
        """A setup position: seats 1.. have placed `numbers` in seat order; the next seat places
        (with every seat placed, it is seat 1's first throw)."""
        self.check_numbers(numbers, repeats=True)
        placed = len(numbers)
        if placed > self.players:
            raise InputError(f"{placed} dice placed, but only {self.players} players place one")
        stocks = tuple(self.dice - (seat < placed) for seat in range(self.players))
        points = (0,) * self.players if self.scoring == "points" else ()
        if placed == self.players:
            return Position(0, stocks, canonical(numbers), START, points)
        return Position(placed, stocks, canonical(numbers), SETUP, points)

    @staticmethod
    def check_numbers(numbers: Sequence[int], repeats: bool) -> None:
        if any(not 1 <= n <= NUMBERS for n in numbers):
            raise InputError(f"arena numbers are 1 to {NUMBERS} (the sixth face, X, leaves the "
                             f"arena at once)")
        if not repeats and len(set(numbers)) != len(numbers):
            raise InputError("arena numbers repeat: two dice showing the same number are taken "
                             "at once, so between throws every number shows at most once")


def placement_options(numbers: Sequence[int]) -> list[tuple[int, Arena]]:
    """Every number a player may place at setup, with the arena it makes."""
    return [(n, canonical([*numbers, n])) for n in range(1, NUMBERS + 1)]
