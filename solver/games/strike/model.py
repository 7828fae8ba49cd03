"""Strike as the cyclic engine sees it, played by the rules in rules.py under the throw model of
throws.py.

Dice move between the players' stocks and the arena, so positions repeat; X faces and dice that
miss the arena or are struck out of it leave the game, which is the progress measure (it never
decreases). Positions store the arena up to relabelling (throws.Arena), so positions with the
same arena and the same number of dice thrown share one `Choices` object, which lets the engine
value them in one batch. Where a throw's results and the end of a turn lead is computed for arrays
(`throw_moves`, `end_turns`): for one position here, for millions by the level engine's adapter
(levels.py).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from solver.engine.cyclic import Terminal
from solver.engine.local import Choices
from solver.errors import InputError
from solver.games.strike import rules
from solver.games.strike.throws import (
    Arena,
    Outcome,
    canonical,
    outcome_arrays,
    representative,
    throw_outcomes,
)

if TYPE_CHECKING:
    Whole = int | np.ndarray  # a number, or one per game

START, MID, SETUP = 0, 1, 2  # phases: must throw, may throw again or stop, placing a die
PHASE_NAMES = {START: "start", MID: "mid-turn", SETUP: "setup"}


@dataclass(frozen=True)
class Metrics:
    """Which number of a position's value is which (the engine only sees `count`): each seat's
    objective first (minus its expected points under points scoring, else its P(win)); under
    points scoring each seat's P(win) next; then, when `stocks` is set, P(seat wins holding k
    dice) for k in 0..stocks-1, seat by seat."""

    players: int
    scoring: str = "win"
    stocks: int = 0
    points_count: str = rules.DEFAULT_POINTS_COUNT

    def points(self, seat: int) -> int:
        """Minus the seat's expected points (points scoring only)."""
        return seat

    def win(self, seat: int) -> int:
        """The seat's probability of winning."""
        return seat + (self.players if self.scoring == "points" else 0)

    def objective(self, seat: int) -> int:
        """What the seat maximises."""
        return self.points(seat) if self.scoring == "points" else self.win(seat)

    def outcome(self, seat: Whole, stock: Whole) -> Whole:
        """The place of "seat wins holding `stock` dice" among the outcomes (whole numbers or
        arrays alike); its metric is `outcome_rows[outcome(seat, stock)]`."""
        return seat * self.stocks + stock

    @property
    def outcome_rows(self) -> range:
        """The metrics of the outcomes, after every seat's P(win)."""
        first = self.win(self.players - 1) + 1
        return range(first, first + self.players * self.stocks)

    @property
    def count(self) -> int:
        return self.outcome_rows.stop

    def payoff(self, winner: int, points: tuple[int, ...], stock: int) -> tuple[Fraction, ...]:
        """The values of a finished game: `points` by seat (points scoring: the players left
        in when each seat went out, scored by reading 8's count), the winner and the dice left
        in its stock."""
        values = [Fraction(0)] * self.count
        for seat, p in enumerate(points):
            values[self.points(seat)] = Fraction(-rules.points_scored(p, self.points_count))
        values[self.win(winner)] = Fraction(1)
        if self.stocks:
            values[self.outcome_rows[self.outcome(winner, stock)]] = Fraction(1)
        return tuple(values)


class Position(NamedTuple):
    """Everything that decides the rest of the game. A seat is still in exactly when its stock
    is not empty (reading 7: only the mover can go out, at the end of its turn, and a mover
    with an empty stock ends the turn), so no separate field is needed for it. `points` holds,
    for each eliminated seat under --scoring points, the players still in after it went out
    (its points under the default count, reading 8; 0 for seats still in), `()` otherwise: the
    order of eliminations is history the payoff needs but the state would otherwise lose."""

    mover: int
    stocks: tuple[int, ...]  # by seat, seat 0 first
    arena: Arena
    phase: int
    points: tuple[int, ...]


@dataclass(frozen=True)
class Throw:
    """A throw from one arena with one number of dice, as the engine's local models: `start`
    (the throw is forced) and `mid` (result 0 is stopping, then the throw's results)."""

    outcomes: tuple[Outcome, ...]
    start: Choices
    mid: Choices


@dataclass
class Strike:
    """The game as the cyclic engine sees it; `layout` names its metrics (`Metrics`): with win
    scoring, P(seat wins) for each seat; with points scoring, minus the expected points of each
    seat (the engine maximises), then P(seat wins) for each seat under the same play."""

    players: int = 2
    dice: int = rules.EDITIONS[rules.DEFAULT_EDITION][2]
    hit: Fraction = rules.DEFAULT_HIT
    miss: Fraction = rules.DEFAULT_MISS
    scoring: str = "win"
    fly_out: Fraction = rules.DEFAULT_FLY_OUT
    empty_arena: str = rules.DEFAULT_EMPTY_ARENA
    points_count: str = rules.DEFAULT_POINTS_COUNT

    def __post_init__(self) -> None:
        if self.players not in rules.PLAYERS:
            raise InputError(f"Strike is for 2 to 5 players, not {self.players}")
        if self.dice < rules.MIN_DICE:
            raise InputError(f"each player needs at least 2 dice (one is placed at setup), "
                             f"not {self.dice}")
        for name, p in (("hit", self.hit), ("miss", self.miss), ("fly-out", self.fly_out)):
            if not 0 <= p <= 1:
                raise InputError(f"--{name} must be a probability between 0 and 1, not {p}")
        if self.scoring not in rules.SCORINGS:
            raise InputError(f"scoring is one of {', '.join(rules.SCORINGS)}, not "
                             f"{self.scoring!r}")
        if self.points_count not in rules.POINTS_COUNTS:
            raise InputError(f"the points are counted {' or '.join(rules.POINTS_COUNTS)} the "
                             f"elimination, not {self.points_count!r}")
        if self.empty_arena not in rules.EMPTY_ARENA:
            raise InputError(f"an emptied arena is read as {' or '.join(rules.EMPTY_ARENA)}, "
                             f"not {self.empty_arena!r}")
        self.hit, self.miss = Fraction(self.hit), Fraction(self.miss)
        self.fly_out = Fraction(self.fly_out)
        self.total = self.players * self.dice
        self.layout = Metrics(self.players, self.scoring, points_count=self.points_count)
        self._throws: dict[tuple[Arena, int], Throw] = {}
        self._setups: dict[Arena, tuple[Choices, list[Arena]]] = {}
        self._terminals: dict[tuple, Terminal] = {}

    @property
    def metrics(self) -> int:
        return self.layout.count

    # ---- the engine's protocol ------------------------------------------------------------
    def start(self) -> Position:
        """Before setup: the first seat places first, every stock full."""
        return Position(rules.FIRST, (self.dice,) * self.players, (), SETUP, self._no_points())

    def objective(self, position: Hashable) -> int:
        return self.layout.objective(position[0])

    def progress(self, position: Hashable) -> int:
        """Dice removed from the game so far: X faces, misses and dice struck out of the arena
        only ever add to it."""
        return self.total - sum(position[1]) - sum(position[2])

    def local(self, position: Hashable) -> Choices:
        mover, stocks, arena, phase, _ = position
        if phase == SETUP:
            return self.placements(arena)[0]
        throw = self.throw(arena, rules.dice_thrown(stocks[mover], arena, phase == START))
        return throw.mid if phase == MID else throw.start

    def successors(self, position: Hashable) -> list[Position | Terminal]:
        mover, stocks, arena, phase, points = position
        if phase == SETUP:
            return self._placed(position)
        thrown = rules.dice_thrown(stocks[mover], arena, phase == START)
        left, taken = throw_arrays(arena, thrown, self)[:2]
        seat, held = np.array([mover]), np.array([stocks])
        scored = np.array([points]) if points else None
        result: list[Position | Terminal] = []
        if phase == MID:
            result += self._moved(end_turns(seat, held, np.array([len(arena)]), scored))
        return result + self._moved(throw_moves(seat, held, scored, np.array([thrown]), left,
                                                taken, self.empty_arena))

    def _moved(self, moves: Moves) -> list[Position | Terminal]:
        """`Moves` of one position as the positions (arenas: all numbers different) and
        terminals they are."""
        points = moves.points.reshape(-1, self.players).tolist() if moves.points is not None \
            else [()] * moves.mover.size
        result: list[Position | Terminal] = []
        for mover, stocks, arena, phase, scored, winner in zip(
                moves.mover.ravel().tolist(), moves.stocks.reshape(-1, self.players).tolist(),
                moves.arena.ravel().tolist(), moves.phase.ravel().tolist(), points,
                moves.winner.ravel().tolist()):
            if winner >= 0:
                result.append(self.payoff(winner, tuple(scored), stocks[winner]))
            else:
                result.append(Position(mover, tuple(stocks), (1,) * arena, phase, tuple(scored)))
        return result

    # ---- the rules on positions -----------------------------------------------------------
    def _placed(self, position: Position) -> list[Position]:
        """Setup (reading 10): the mover places a die from its stock; the next seat places, or
        with every seat placed the first seat throws."""
        mover, stocks, arena, _, points = position
        placed = _replace(stocks, mover, stocks[mover] - rules.PLACED)
        following = rules.next_placer(mover, self.players)
        seat, phase = (rules.FIRST, START) if following is None else (following, SETUP)
        return [Position(seat, placed, after, phase, points)
                for after in self.placements(arena)[1]]

    def throw(self, arena: Arena, thrown: int) -> Throw:
        """The shared local models of one throw (cached per arena and number of dice)."""
        key = (arena, thrown)
        if key not in self._throws:
            outcomes = throw_outcomes(arena, thrown, self.hit, self.miss, self.fly_out)
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

    def payoff(self, winner: int, points: tuple[int, ...], stock: int) -> Terminal:
        """The end: one Terminal object per payoff (the engine tells terminals by identity)."""
        key = (winner, points, stock if self.layout.stocks else None)
        if key not in self._terminals:
            self._terminals[key] = Terminal(self.layout.payoff(winner, points, stock))
        return self._terminals[key]

    def _no_points(self) -> tuple[int, ...]:
        """Points of a position where nobody is out yet: one 0 per seat under points scoring."""
        return (0,) * self.players if self.scoring == "points" else ()

    # ---- positions a user types -----------------------------------------------------------
    def position(self, numbers: Sequence[int], stocks: Sequence[int], mid_turn: bool,
                 mover: int = rules.FIRST) -> Position:
        """A position in play: `stocks` by seat (seat 0 first), seat `mover` to move, the
        arena's labelled numbers. Eliminated seats (stock 0) went out in seat order (reading
        11): under points scoring, the order they went out in cannot change the mover's
        decision."""
        self.validate_numbers(numbers, repeats=False)
        self._validate_stocks(stocks, mover)
        if mid_turn and not numbers and self.empty_arena == "pass":
            raise InputError("a mid-turn position needs dice in the arena (the turn ends when "
                             "the arena empties, unless --empty-arena continue)")
        if sum(stocks) + len(numbers) > self.total:
            raise InputError(f"{sum(stocks) + len(numbers)} dice in play, but the game starts "
                             f"with {self.total} ({self.players} x {self.dice})")
        points = self._no_points()
        if points:
            left = [1] * self.players  # every seat in, then the seats out go in seat order
            for seat in (s for s, stock in enumerate(stocks) if not stock):
                left[seat] = 0
                points = _replace(points, seat, int(rules.points_going_out(left)))
        return Position(mover, tuple(stocks), canonical(numbers), MID if mid_turn else START,
                        points)

    def _validate_stocks(self, stocks: Sequence[int], mover: int) -> None:
        if len(stocks) != self.players:
            raise InputError(f"{len(stocks)} stocks given for {self.players} players")
        if any(s < 0 for s in stocks):
            raise InputError("stocks cannot be negative")
        if not 0 <= mover < self.players:
            raise InputError(f"the mover is one of seats 1 to {self.players}, not {mover + 1}")
        if not stocks[mover]:
            raise InputError("the mover's stock is empty: a player whose turn ends with no dice "
                             "is out, so the mover has at least one die")
        if rules.winner(stocks) is not None:
            raise InputError("only one player has dice: the game is over")

    def setup_position(self, numbers: Sequence[int]) -> Position:
        """A setup position: seats 1.. have placed `numbers` in seat order; the next seat places
        (with every seat placed, it is seat 1's first throw)."""
        self.validate_numbers(numbers, repeats=True)
        placed = len(numbers)
        if placed > self.players:
            raise InputError(f"{placed} dice placed, but only {self.players} players place one")
        stocks = tuple(self.dice - rules.PLACED * (seat < placed) for seat in range(self.players))
        if placed == self.players:
            return Position(rules.FIRST, stocks, canonical(numbers), START, self._no_points())
        return Position(placed, stocks, canonical(numbers), SETUP, self._no_points())

    @staticmethod
    def validate_numbers(numbers: Sequence[int], repeats: bool) -> None:
        if any(n not in rules.LABELS for n in numbers):
            raise InputError(f"arena numbers are 1 to {rules.NUMBERS} (the sixth face, X, leaves "
                             f"the arena at once; on dice numbered 2 to 6, type one less)")
        if not repeats and len(set(numbers)) != len(numbers):
            raise InputError("arena numbers repeat: two dice showing the same number are taken "
                             "at once, so between throws every number shows at most once")


class Moves(NamedTuple):
    """Where results lead, as arrays of any shape (stocks and points by seat in a last axis):
    the mover and the phase of the position reached, its stocks, the dice in its arena (all
    showing different numbers) and points (None under win scoring); `winner` is the seat that
    won where the game is over (-1 where it goes on, and only there is the rest a position)."""

    mover: np.ndarray
    stocks: np.ndarray
    arena: np.ndarray
    phase: np.ndarray
    points: np.ndarray | None
    winner: np.ndarray


def throw_arrays(arena: Arena, thrown: int, game: Strike) -> tuple[np.ndarray, ...]:
    """(left, taken, removed, probability) of each result of a throw under the game's model."""
    return outcome_arrays(arena, thrown, game.hit, game.miss, game.fly_out)


def end_turns(mover: np.ndarray, stocks: np.ndarray, arena: np.ndarray,
              points: np.ndarray | None) -> Moves:
    """The turn passes to the next seat still in; a mover with an empty stock is out
    (reading 7), scoring under points scoring (reading 8); the game ends with one seat in."""
    out = np.take_along_axis(stocks, mover[..., None], axis=-1)[..., 0] == 0
    if points is not None:
        going = out[..., None] & (np.arange(stocks.shape[-1]) == mover[..., None])
        points = np.where(going, rules.points_going_out(stocks)[..., None], points)
    winner = np.where(out, rules.winners(stocks), -1)
    following = np.where(winner < 0, rules.next_seats(mover, stocks), -1)
    return Moves(following, stocks, arena, np.full(mover.shape, START), points, winner)


def throw_moves(mover: np.ndarray, stocks: np.ndarray, points: np.ndarray | None,
                thrown: np.ndarray, left: np.ndarray, taken: np.ndarray,
                empty_arena: str) -> Moves:
    """Where each result (columns: the dice `left` in the arena and `taken`, from
    `throw_arrays`) of a throw of `thrown` dice leads from each position (rows: its mover,
    stocks, points): the thrower throws again or stops (MID) unless the turn ends."""
    rows, results = len(mover), len(left)
    stock = np.take_along_axis(stocks, mover[:, None], axis=1)[:, 0]
    kept = rules.stock_after_throw(stock[:, None], thrown[:, None], taken[None, :])
    after = np.repeat(stocks[:, None, :], results, axis=1)
    np.put_along_axis(after, np.broadcast_to(mover[:, None, None], (rows, results, 1)),
                      kept[..., None], axis=2)
    movers = np.broadcast_to(mover[:, None], (rows, results))
    arena = np.broadcast_to(left[None, :], (rows, results))
    ends = rules.turn_ends(taken[None, :], arena, kept, empty_arena)
    if points is not None:
        points = np.broadcast_to(points[:, None, :], after.shape)
    ended = end_turns(movers, after, arena, points)
    return Moves(np.where(ends, ended.mover, movers), after, arena,
                 np.where(ends, START, MID), ended.points, np.where(ends, ended.winner, -1))


def placement_options(numbers: Sequence[int]) -> list[tuple[int, Arena]]:
    """Every number a player may place at setup (reading 10: any number, never the X), with the
    arena it makes."""
    return [(n, canonical([*numbers, n])) for n in rules.LABELS]


def _replace(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1:])
