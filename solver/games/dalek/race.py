"""Dalek Dice as a whole game: players race to the target (docs/rules.md, "The race").

A position is every player's score and the seat to move. Someone at or above the target means the
final round is on: the seats after them still play once, and the game ends after the last seat's
turn. So (scores, mover) says who still plays, and no other field is needed. Each turn is the
compiled turn of `turn.py`, played for the mover's share of the win. A position's value is a row of
metrics, three per seat, which `RaceMetrics` names.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, reduce
from typing import Protocol

import numpy as np

from solver.engine import linear
from solver.engine.cyclic import Terminal
from solver.engine.local import Choices, TurnLocal
from solver.errors import InputError
from solver.games.dalek.rules import (
    DEFAULT_TARGET,
    MAX_PLAYERS,
    MAX_TARGET,
    reaches_target,
    winners,
)
from solver.games.dalek.turn import CompiledTurn

Position = tuple[tuple[int, ...], int]  # (scores by seat, seat to move)
# How a mover chooses among options exactly equal for itself (docs/rules.md, reading 15): the
# first in the turn's fixed order, or the one best for the leader (the highest score among the
# other seats, the first of them in turn order on equal scores), the next seat or the previous.
TIE_BREAKS = ("first", "leader", "next", "previous")


def seat_max(scores):
    """The highest score of each position (scores by seat in the last axis). As `max` over that
    axis, but a seat at a time: numpy reduces a short last axis about ten times slower, and the
    level engine numbers millions of successors this way."""
    return reduce(np.maximum, np.moveaxis(np.asarray(scores), -1, 0))


def seat_min(scores):
    """The lowest score of each position, as `seat_max`."""
    return reduce(np.minimum, np.moveaxis(np.asarray(scores), -1, 0))


def final_round(scores, mover, target: int):
    """Rule 10: a seat has reached the target and the seats after it still play (a position
    with seat 1 to move never is: the round would be over). Scores by seat in the last axis;
    one position or arrays of them."""
    return (np.asarray(mover) > 0) & reaches_target(seat_max(scores), target)


def canonical(scores: np.ndarray, mover: np.ndarray, target: int) -> np.ndarray:
    """Positions (rows of scores, movers) as the solvers key them. In the final round every
    seat before the mover has played its last turn; one that trails another such seat can no
    longer win or tie, so its score is written as 0: no value changes, and positions that differ
    only there are one position (with 3 or 4 players this shrinks the final round many times)."""
    scores = np.array(scores, dtype=np.int64)
    seats = np.arange(scores.shape[1])
    before = seats < mover[:, None]
    best = seat_max(np.where(before, scores, -1))
    trailing = before & (scores < best[:, None]) & final_round(scores, mover, target)[:, None]
    scores[trailing] = 0
    return scores


def after_turn(scores: np.ndarray, mover: np.ndarray, players: int, results: int, target: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rules 10 and 11 for rows of positions and every turn score 0..results-1: the scores
    after the mover adds it (rows, results, seats), the next mover (rows), and whether the game
    ends there (rows, results): after the last seat's turn, once someone has reached the
    target. Scores not canonical yet."""
    rows = len(mover)
    after = np.repeat(np.asarray(scores, dtype=np.int64)[:, None, :], results, axis=1)
    after[np.arange(rows), :, mover] += np.arange(results)
    last = mover == players - 1
    ends = last[:, None] & reaches_target(seat_max(after), target)
    return after, np.where(last, 0, mover + 1), ends


def radix_number(digits: np.ndarray, base: int) -> np.ndarray:
    """Rows of digits (first most significant) as numbers: how positions are numbered (the
    level engine's numbering, levels.py; the shipped files, shipped.py)."""
    number = np.zeros(len(digits), dtype=np.int64)
    for column in np.asarray(digits, dtype=np.int64).T:
        number = number * base + column
    return number


def radix_digits(numbers: np.ndarray, base: int, count: int) -> np.ndarray:
    """Numbers back to rows of `count` digits (`radix_number` undone)."""
    digits = np.zeros((len(numbers), count), dtype=np.int64)
    rest = np.asarray(numbers, dtype=np.int64)
    for i in range(count - 1, -1, -1):
        rest, digits[:, i] = np.divmod(rest, base)
    return digits


def similar(scores: np.ndarray, mover: np.ndarray, players: int) -> list[np.ndarray]:
    """Scores one or two points further on for the mover or the next seat, in that order (four
    candidates per row, same mover): positions solved earlier whose play is mostly the same,
    the solvers' first guess of a position's policy."""
    rows = np.arange(len(mover))
    candidates = []
    for seat in (mover, (mover + 1) % players):
        for step in (1, 2):
            moved = np.array(scores, dtype=np.int64)
            moved[rows, seat] += step
            candidates.append(moved)
    return candidates


@dataclass(frozen=True)
class RaceMetrics:
    """Where each seat's numbers sit in a position's row of metrics (the engine sees only how
    many there are): its share of the win (its objective: win alone = 1, a k-way tie for first
    = 1/k or the tie value given), P(win alone) and P(tie for first)."""

    players: int

    @property
    def count(self) -> int:
        return 3 * self.players

    def value(self, seat: int) -> int:
        return seat

    def win(self, seat: int) -> int:
        return self.players + seat

    def tie(self, seat: int) -> int:
        return 2 * self.players + seat


@dataclass
class DalekRace:
    """The race as a cyclic game. `seat_locals` may give a seat another local model (a fixed
    policy, for duels); by default every seat plays the optimal turn for its own objective.
    `tie_break` names how a mover chooses among options equal for itself (TIE_BREAKS).
    `against` (a seat): the paranoid game, where every other seat plays to minimise that seat's
    win share (one more metric, minus that share, is their common objective): a zero-sum game
    whose value is what the seat is sure of whatever the others do."""

    turn: CompiledTurn
    players: int = 2
    target: int = DEFAULT_TARGET
    tie_value: Fraction | None = None
    seat_locals: dict[int, Choices | TurnLocal] = field(default_factory=dict)
    tie_break: str = "first"
    against: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.players <= MAX_PLAYERS:
            raise InputError(f"the race needs 2 to {MAX_PLAYERS} players, not {self.players}")
        if not 1 <= self.target <= MAX_TARGET:
            raise InputError(f"the target must be between 1 and {MAX_TARGET}, not "
                             f"{self.target}")
        if self.tie_value is not None and not 0 <= self.tie_value <= 1:
            raise InputError(f"the tie value must lie between 0 and 1, not {self.tie_value}")
        if self.tie_break not in TIE_BREAKS:
            raise InputError(f"the tie-break must be one of {', '.join(TIE_BREAKS)}, not "
                             f"{self.tie_break!r}")
        if self.against is not None and not 0 <= self.against < self.players:
            raise InputError(f"the seat played against must be between 1 and {self.players}")
        self.metric = RaceMetrics(self.players)
        # what the engine sees; the paranoid game's coalition maximises the last one
        self.metrics = self.metric.count + (self.against is not None)
        self._payoffs: dict[tuple[int, ...], Terminal] = {}
        if not any(self.scores_at_all(seat) for seat in range(self.players)):
            raise InputError("no seat can ever score (with this die, and these policies): the "
                             "race would never end")

    def scores_at_all(self, seat: int) -> bool:
        """Some turn of this seat scores more than 0."""
        local = self.seat_locals.get(seat)
        if isinstance(local, Choices):
            return any(p for option in local.exact for p in option[1:])
        return bool(self.possible[1:].any())

    @cached_property
    def optimal_turn(self) -> TurnLocal:
        return TurnLocal(self.turn.graph, self.turn.root)

    @cached_property
    def possible(self) -> np.ndarray:
        """The turn scores that can happen at all (others get no probability under any play)."""
        return self.turn.graph.possible_results()

    @cached_property
    def held(self) -> np.ndarray:
        """held[s]: some game gives a seat the score s (turns add up the scores a turn can
        make), for s below the target plus the highest turn score: the scores a position can
        hold (a seat stops adding once a score reaches the target: the game ends that round)."""
        steps = np.flatnonzero(self.possible[1:]) + 1  # a score of 0 changes nothing
        held = np.zeros(self.target + (int(steps.max()) if len(steps) else 0), dtype=bool)
        held[0] = True
        for score in range(self.target):
            if held[score]:
                held[score + steps] = True
        return held

    def start(self) -> Position:
        return ((0,) * self.players, 0)

    def objective(self, position: Hashable) -> int:
        return int(self.objectives(np.asarray(position[1])))

    def objectives(self, mover: np.ndarray) -> np.ndarray:
        """The metric each mover maximises: its own share of the win; in the paranoid game
        every seat but `against` maximises minus that seat's share."""
        own = self.metric.value(mover)
        if self.against is None:
            return own
        return np.where(mover == self.against, own, self.metric.count)

    def tie_metric(self, position: Hashable) -> int | None:
        """The metric the mover's exact ties go by (the seat `tie_break` names: its share), or
        None for the first option."""
        if self.tie_break == "first":
            return None
        scores, mover = position
        n = self.players
        if self.tie_break == "leader":
            others = [(mover + k) % n for k in range(1, n)]
            seat = max(others, key=lambda s: (scores[s], -others.index(s)))
        else:
            seat = (mover + (1 if self.tie_break == "next" else -1)) % n
        return self.metric.value(seat)

    def local(self, position: Hashable) -> Choices | TurnLocal:
        return self.seat_locals.get(position[1], self.optimal_turn)

    def progress(self, position: Hashable) -> int:
        """The sum of the scores before the final round (a score of 0 passes the move: cycles
        stay within a sum). Final-round positions come after all of those, in seat order: they
        form no cycle, and their merged scores (see `canonical`) may sum to less."""
        scores, mover = position
        if self.final_round(scores, mover):
            return self.players * self.target + mover
        return sum(scores)

    def final_round(self, scores, mover):
        """Rule 10 (see `final_round`), for one position or arrays of them."""
        return final_round(scores, mover, self.target)

    def similar(self, position: Hashable):
        """Positions one or two points further on for the mover or the next seat (see
        `similar`): solved earlier (more progress), and mostly played the same way."""
        scores, mover = position
        for moved in similar(np.array([scores]), np.array([mover]), self.players):
            yield self.canonical(tuple(moved[0].tolist()), mover)

    def canonical(self, scores: tuple[int, ...], mover: int) -> Position:
        """The position as the solver keys it (see `canonical`)."""
        written = canonical(np.array([scores]), np.array([mover]), self.target)[0]
        return tuple(written.tolist()), mover

    def successors(self, position: Hashable) -> Sequence[Hashable | Terminal]:
        scores, mover = position
        after, following, ends = after_turn(np.array([scores]), np.array([mover]),
                                            self.players, len(self.possible), self.target)
        result = []
        for points, possible in enumerate(self.possible.tolist()):
            scores_after = tuple(after[0, points].tolist())
            if not possible:
                result.append(self._impossible)
            elif ends[0, points]:
                result.append(self.payoff(scores_after))
            else:
                result.append(self.canonical(scores_after, int(following[0])))
        return result

    @cached_property
    def _impossible(self) -> Terminal:
        """Where a score no turn can make leads: never reached, so its payoff is irrelevant."""
        return Terminal((Fraction(0),) * self.metrics)

    def payoff(self, scores: tuple[int, ...]) -> Terminal:
        """The end of the game (rule 11), each winner's share as reading 12 has it."""
        won = winners(scores)
        if won not in self._payoffs:
            k = len(won)
            share = Fraction(1) if k == 1 else (
                self.tie_value if self.tie_value is not None else Fraction(1, k))
            values = [Fraction(0)] * self.metrics
            for seat in won:
                values[self.metric.value(seat)] = share
                values[(self.metric.win if k == 1 else self.metric.tie)(seat)] = Fraction(1)
            if self.against is not None:
                values[self.metric.count] = -values[self.metric.value(self.against)]
            self._payoffs[won] = Terminal(tuple(values))
        return self._payoffs[won]

    def check_position(self, scores: tuple[int, ...], mover: int) -> Position:
        """A position a user typed: right number of scores, a seat that still plays."""
        if len(scores) != self.players:
            raise InputError(f"{len(scores)} scores given for {self.players} players")
        if any(s < 0 for s in scores):
            raise InputError("scores cannot be negative")
        if not 0 <= mover < self.players:
            raise InputError(f"seat must be between 1 and {self.players}")
        for s in scores:
            if s >= len(self.held) or not self.held[s]:
                raise InputError(f"no game of this race gives a seat {s} points (turns score "
                                 f"{_listed(np.flatnonzero(self.possible))})")
        if any(reaches_target(s, self.target) for s in scores[mover:]):
            raise InputError(f"a seat from the mover on has reached {self.target}: the game "
                             f"would be over before this turn")
        return self.canonical(tuple(scores), mover)


def _listed(numbers: np.ndarray) -> str:
    """Numbers for a message: all of them, or the first few."""
    shown = ", ".join(map(str, numbers[:12].tolist()))
    return shown + (", ..." if len(numbers) > 12 else "")


class Taken(Protocol):
    """Values not held whole, read by position numbers: a checkpoint's levels
    (levels.StoredValues), a shipped file's blocks (shipped.ShippedTable)."""

    def take(self, rows: np.ndarray) -> np.ndarray:
        """(metrics, rows): the values of these positions."""


@dataclass
class RaceValues:
    """Every position's metrics under optimal play, from a solve or from the cache. Read
    through `rows`: the table is in memory, or (a level solve with a checkpoint) the
    checkpoint's levels, read a few at a time, or (shipped.py) the shipped file's blocks."""

    race: DalekRace
    index: dict[Position, int]
    table: np.ndarray | Taken  # (positions, metrics), or values not held whole
    exact: list[list[Fraction]] | None = None
    residual: float = 0.0
    iterations: int = 0
    components: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    cached: bool = False
    engine: str = "cyclic"  # the engine that solved it: cyclic or levels
    mixed: np.ndarray = field(default_factory=lambda: np.empty((0, 0)))  # where play mixes:
    # a row per turn policy mixed at a position: scores..., seat, weight, P(score 0), points
    shipped: dict | None = None  # read from the package's shipped values: their solve's date
    # and commit (shipped.py)
    part: Position | None = None  # only the part of the race from this position was solved

    def stored(self) -> tuple[np.ndarray, np.ndarray]:
        """Every position (rows: scores by seat, then the mover) and its row of `table`, in
        the index's order: what the disk cache and the shipped files keep."""
        positions = np.array([[*scores, mover] for scores, mover in self.index],
                             dtype=np.int64).reshape(-1, self.race.players + 1)
        rows = np.fromiter(self.index.values(), dtype=np.int64, count=len(positions))
        return positions, rows

    def rows(self, rows: np.ndarray) -> np.ndarray:
        """(rows, metrics): these rows of the table (numbers the index gives), wherever it
        is held: every reader of the values reads them here."""
        if isinstance(self.table, np.ndarray):
            return self.table[rows]
        return self.table.take(rows).T

    def in_table_order(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every position in the tables' order (score sum, then the scores seat by seat, then
        the mover) as blocks (scores by seat, movers, rows of metrics): one block sorted here,
        or, where the index gives that order itself (`in_table_order`: the level engine's,
        one score sum at a time), a block per score sum."""
        ordered = getattr(self.index, "in_table_order", None)
        if ordered is None:
            positions = sorted(self.index, key=lambda p: (sum(p[0]), p[0], p[1]))
            numbers = np.array([self.index[p] for p in positions], dtype=np.int64)
            yield (np.array([p[0] for p in positions], dtype=np.int64).reshape(
                -1, self.race.players), np.array([p[1] for p in positions], dtype=np.int64),
                   self.rows(numbers))
            return
        for numbers, scores, movers in ordered():
            yield scores, movers, self.rows(numbers)

    def mixes(self) -> list[dict]:
        """The positions where the mover mixes turn policies (pure best responses cycled
        there): each policy's probability, its P(score 0) and expected points."""
        found: dict[tuple, dict] = {}
        n = self.race.players
        for row in self.mixed.tolist():
            scores, seat = [int(v) for v in row[:n]], int(row[n])
            entry = found.setdefault((*scores, seat), {"scores": scores, "seat": seat + 1,
                                                       "policies": []})
            entry["policies"].append({"probability": row[n + 1], "p_score_0": row[n + 2],
                                      "expected_points": row[n + 3]})
        return list(found.values())

    def row(self, position: Position) -> int:
        row = self.index.get(position)
        if row is None:
            raise InputError(f"no game reaches scores {', '.join(map(str, position[0]))} with "
                             f"seat {position[1] + 1} to move")
        return row

    def values(self, position: Position) -> np.ndarray:
        return self.rows(np.array([self.row(position)]))[0]

    def chances(self, position: Position) -> list[dict]:
        """Each seat's P(win alone), P(tie for first) and value (share of the win) from a
        position, float and (when solved so) exact."""
        metric = self.race.metric
        row = self.values(position)
        exact = None if self.exact is None else self.exact[self.row(position)]
        seats = []
        for seat in range(self.race.players):
            entry: dict = {"seat": seat + 1, "p_win": float(row[metric.win(seat)]),
                           "p_tie": float(row[metric.tie(seat)]),
                           "value": float(row[metric.value(seat)])}
            if exact is not None:
                entry.update(p_win_exact=exact[metric.win(seat)],
                             p_tie_exact=exact[metric.tie(seat)],
                             value_exact=exact[metric.value(seat)])
            seats.append(entry)
        return seats

    def utilities(self, position: Position) -> np.ndarray:
        """The mover's objective value of each turn score from this position."""
        metric = self.race.objective(position)
        successors = self.race.successors(position)
        inner = self.rows(np.array([self.row(s) for s in successors
                                    if not isinstance(s, Terminal)], dtype=np.int64))
        found = iter(inner[:, metric].tolist())
        return np.array([float(s.values[metric]) if isinstance(s, Terminal) else next(found)
                         for s in successors])

    def exact_utilities(self, position: Position) -> list[Fraction]:
        if self.exact is None:
            raise ValueError("solved without exact values")
        metric = self.race.objective(position)
        return [s.values[metric] if isinstance(s, Terminal) else self.exact[self.row(s)][metric]
                for s in self.race.successors(position)]


def race_key(race: DalekRace, engine: str = "cyclic") -> dict:
    """What a solve of this race answers: the rules and the race, without the code, which the
    module that solves adds (`racesolve.cache_key`; a level checkpoint, `levels.LevelRace`). The
    engines agree to 1e-12, not to the bit, so each keeps its own entry."""
    rules = race.turn.rules
    key = {"game": "dalek_race", "faces": list(rules.die.faces),
           "weights": list(rules.die.weights), "dice": rules.dice, "tie_rule": rules.tie_rule,
           "players": race.players, "target": race.target,
           "tie_value": None if race.tie_value is None else str(race.tie_value),
           "turn_graph": race.turn.graph.fingerprint()}
    if race.tie_break != "first":
        key["tie_break"] = race.tie_break
    if race.against is not None:
        key["against"] = race.against
    if engine == "levels":
        key["engine"] = "levels"
    return key


def mixed_rows(mixes: list) -> np.ndarray:
    """RaceValues.mixed from an engine's mixes ((positions, Mixed) per component): a row per
    policy a member plays with positive probability, for members that mix."""
    rows = []
    for positions, mix in mixes:
        for (scores, mover), candidates, weights in zip(positions, mix.candidates, mix.weights):
            if np.count_nonzero(weights) < 2:
                continue
            points = linear.dots(candidates, np.arange(candidates.shape[1]))
            rows += [[*scores, mover, w, c[0], p]
                     for w, c, p in zip(weights.tolist(), candidates, points.tolist()) if w > 0]
    return np.array(rows, dtype=np.float64)
