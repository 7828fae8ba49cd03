"""Strike (model.Strike) on the level-by-level engine (solver/engine/levels/), for the games the
cyclic engine cannot reach (5 players with 5 or 6 dice each: millions of positions).

Levels are the dice out of the game (X faces, misses and dice struck out never come back),
solved from the most dice out back to none; within a level dice move between the stocks and the
arena, so positions form cycles, solved by the engine's policy iteration. Level 0 is the setup:
the placements and the first throws from an arena the placements left with a repeated number
(only the setup makes those); the model numbers them in the order it finds them.

Every other position is a number by arithmetic. With L dice out and k dice in the arena (all
showing different numbers, so the arena up to relabelling is its size, as throws.canonical
writes it), the stocks are a composition of s = total - L - k into one part per seat, ranked among
all such compositions; the number is, within the block of (L, k),
((rank * orders + order) * players + mover) * 2 + phase (START 0, MID 1), where `order` ranks
the order in which the seats out went out (points scoring only: it decides their points). Blocks
go by L, then k, so a level's numbers are one range. Numbers no game reaches (an empty stock to
move, one seat left) stay unsolved.

A position's options are computed for arrays of positions from model.py's `throw_moves` and
`end_turns` (which the model's own successors use) and throws.py's outcomes: the engine sees
each option as edges (levels.Edges).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, factorial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from solver.checkpoint import Checkpoint
from solver.engine.local import Choices
from solver.engine.solving import Solving
from solver.errors import InputError
from solver.games.strike import rules
from solver.games.strike.model import (
    MID,
    SETUP,
    START,
    Moves,
    Position,
    Strike,
    end_turns,
    throw_arrays,
    throw_moves,
)
from solver.games.strike.rules import NUMBERS

if TYPE_CHECKING:
    from solver.engine import levels

PHASES = 2  # START and MID, outside the setup level
# What a solve costs per number of the numbering (reachable or not: 60-65% are): 5 players with
# 4 dice each, 1,914,358 numbers, took 108 s and 670 MB peak on 2 cores at load 11
# (`python benchmarks/bench_levels.py --strike`), so the time errs long on a quiet machine; the
# memory beyond the values is the interpreter and its libraries (about 300 MB), the state byte,
# the reachability sweep's flags and a level's edges.
OPTION_BLOCK = 1 << 15  # positions whose options are built at once
SECONDS_PER_NUMBER = 60e-6
FIXED_BYTES = 400e6
BYTES_PER_NUMBER = 200


class LevelStrike:
    """Strike as an option game of the level engine: numbering, levels and options, for arrays
    of positions."""

    def __init__(self, game: Strike) -> None:
        if game.layout.stocks:
            raise InputError("the level engine solves Strike for P(win) or points, without "
                             "the winner's stock")
        self.game = game
        self.players, self.total = game.players, game.total
        self.metrics = game.metrics
        n = self.players
        self.orders = factorial(n - 2) if game.scoring == "points" else 1
        self.base = self.total + 1
        self._compositions()
        self._setup()
        # blocks (L dice out, k in the arena): first number and size; level_start[L]
        self.offset = np.zeros((self.total + 1, NUMBERS + 1), dtype=np.int64)
        self.level_start = [len(self.setup)]
        for out in range(self.total - 1):
            for k in range(NUMBERS + 1):
                self.offset[out, k] = self.level_start[-1] if k == 0 else \
                    self.offset[out, k - 1] + self._block(out, k - 1)
            self.level_start.append(self.offset[out, NUMBERS] + self._block(out, NUMBERS))
        self.size = int(self.level_start[-1])
        self.target_type = np.int32 if self.size < 2**31 else np.int64  # of option edges
        self.levels = self.total  # the setup, then 0..total-2 dice out
        self._terminal_table = self._payoffs()
        self._terminal_rows: dict[tuple, int] = {}
        for row, values in enumerate(self._terminal_table.tolist()):
            self._terminal_rows.setdefault(tuple(values), row)

    def _block(self, out: int, k: int) -> int:
        s = self.total - out - k
        if s < 2:  # two seats with dice
            return 0
        return comb(s + self.players - 1, self.players - 1) * self.orders * self.players * PHASES

    def _compositions(self) -> None:
        """Every way to share s dice among the seats, for s up to the total, sorted by s then
        seat by seat: `_keys` to rank them, `_rows` to read them back."""
        rows = np.zeros((1, 0), dtype=np.int64)
        left = np.array([self.total], dtype=np.int64)
        for _ in range(self.players):
            count = left + 1
            pick = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
            rows = np.column_stack([np.repeat(rows, count, axis=0), pick])
            left = np.repeat(left, count) - pick
        keys = self._key(rows)
        order = np.argsort(keys)
        self._rows, self._keys = rows[order], keys[order]
        sums = self._rows.sum(axis=1)
        self._first = np.searchsorted(sums, np.arange(self.total + 2))  # first row of sum s

    def _key(self, stocks: np.ndarray) -> np.ndarray:
        key = stocks.sum(axis=-1)
        for column in np.moveaxis(stocks, -1, 0):
            key = key * self.base + column
        return key

    def _setup(self) -> None:
        """The setup level: every placement, and the first throws from an arena with a number
        shown twice or more, in the order the model reaches them."""
        self.setup: list[Position] = []
        self.setup_index: dict[Position, int] = {}
        queue = [self.game.start()]
        while queue:
            position = queue.pop(0)
            if position in self.setup_index:
                continue
            self.setup_index[position] = len(self.setup)
            self.setup.append(position)
            if position.phase == SETUP:
                queue += [p for p in self.game.successors(position)
                          if p.phase == SETUP or set(p.arena) != {1}]

    def _payoffs(self) -> np.ndarray:
        """The end of every game: row 0 for nothing, then winner + players * (points in radix
        players) under points scoring, else the winner."""
        n, layout = self.players, self.game.layout
        points = [()] if self.game.scoring == "win" else [
            tuple(int(d) for d in np.base_repr(i, n).zfill(n)[-n:]) for i in range(n**n)]
        table = [np.zeros(self.metrics)]
        for scored in points:
            table += [np.array([float(v) for v in layout.payoff(w, scored, 0)])
                      for w in range(n)]
        return np.array(table)

    # ---- numbering ---------------------------------------------------------------------------
    def encode(self, mover: np.ndarray, stocks: np.ndarray, arena: np.ndarray,
               phase: np.ndarray, points: np.ndarray | None) -> np.ndarray:
        """The numbers of positions outside the setup level (arena: its dice, all showing
        different numbers)."""
        s = stocks.sum(axis=-1)
        rank = np.searchsorted(self._keys, self._key(stocks)) - self._first[s]
        order = 0 if points is None else _lehmer(points, stocks == 0)
        local = ((rank * self.orders + order) * self.players + mover) * PHASES + phase
        return self.offset[self.total - s - arena, arena] + local

    def decode(self, numbers: np.ndarray) -> Moves:
        """Positions outside the setup level, as arrays (`model.Moves`, winner -1)."""
        numbers = np.asarray(numbers, dtype=np.int64)
        starts = self.offset[:self.total - 1].ravel()
        block = np.searchsorted(starts, numbers, side="right") - 1  # empty blocks: skipped
        out, arena = np.divmod(block, NUMBERS + 1)
        local = numbers - starts[block]
        local, phase = np.divmod(local, PHASES)
        local, mover = np.divmod(local, self.players)
        rank, order = np.divmod(local, self.orders)
        stocks = self._rows[self._first[self.total - out - arena] + rank]
        points = None if self.game.scoring == "win" else \
            _unlehmer(order, stocks == 0, self.players)
        return Moves(mover, stocks, arena, phase, points, np.full(len(numbers), -1))

    def number(self, position: Position) -> int:
        """A position's number (KeyError for a position of no numbering)."""
        if position in self.setup_index:
            return self.setup_index[position]
        mover, stocks, arena, phase, points = position
        if phase == SETUP or (arena and set(arena) != {1}) or len(stocks) != self.players:
            raise KeyError(position)
        held = np.array([stocks], dtype=np.int64)
        if held.min() < 0 or held.sum() + len(arena) > self.total or held.sum() < 2:
            raise KeyError(position)
        scored = np.array([points], dtype=np.int64) if points else None
        return int(self.encode(np.array([mover]), held, np.array([len(arena)]),
                               np.array([phase]), scored)[0])

    def position(self, number: int) -> Position:
        if number < len(self.setup):
            return self.setup[number]
        moves = self.decode(np.array([number]))
        points = () if moves.points is None else tuple(moves.points[0].tolist())
        return Position(int(moves.mover[0]), tuple(moves.stocks[0].tolist()),
                        (1,) * int(moves.arena[0]), int(moves.phase[0]), points)

    def _numbers(self, moves: Moves) -> np.ndarray:
        """Where `Moves` lead: position numbers, or -1 - t for terminal t."""
        result = np.empty(moves.mover.shape, dtype=np.int64)
        over = moves.winner >= 0
        key = moves.winner[over]
        if moves.points is not None:
            for seat in range(self.players):
                key = key + self.players ** (self.players - seat) * moves.points[over][:, seat]
        result[over] = -2 - key
        go = ~over
        result[go] = self.encode(moves.mover[go], moves.stocks[go], moves.arena[go],
                                 moves.phase[go], None if moves.points is None else
                                 moves.points[go])
        return result

    # ---- the engine's protocol ----------------------------------------------------------------
    def start(self) -> int:
        return 0

    def positions(self, level: int) -> np.ndarray:
        if level == 0:
            return np.arange(len(self.setup), dtype=np.int64)
        return np.arange(self.level_start[level - 1], self.level_start[level], dtype=np.int64)

    def level_of(self, positions: np.ndarray) -> np.ndarray:
        """The setup (0) for its numbers, else the level whose range holds the number."""
        return np.searchsorted(self.level_start, positions, side="right")

    def objective(self, positions: np.ndarray) -> np.ndarray:
        return self.game.layout.objective(self._movers(positions))

    def _movers(self, positions: np.ndarray) -> np.ndarray:
        setup = positions < len(self.setup)
        movers = np.empty(len(positions), dtype=np.int64)
        movers[setup] = [self.setup[p].mover for p in positions[setup].tolist()]
        movers[~setup] = self.decode(positions[~setup]).mover
        return movers

    def terminals(self) -> np.ndarray:
        return self._terminal_table

    def options(self, positions: np.ndarray) -> levels.Edges:
        """Each position's options as edges: at setup, each arena a placement makes; then
        the throw (START), or stopping and throwing again (MID, options 0 and 1). Built
        `OPTION_BLOCK` positions at a time, then joined a field at a time: a level's options
        are held whole (13 bytes an edge), their temporaries only for a block."""
        from solver.engine import levels

        blocks = [self._options(positions[lo:lo + OPTION_BLOCK])
                  for lo in range(0, max(len(positions), 1), OPTION_BLOCK)]
        if len(blocks) == 1:
            return blocks[0]
        counts = np.array([len(b.target) for b in blocks])
        start = np.concatenate([[0], *(b.start[1:] + first for b, first in
                                       zip(blocks, np.cumsum(counts) - counts))])
        joined = []
        for name in ("target", "probability", "option"):
            parts = [getattr(b, name) for b in blocks]
            for b in blocks:
                setattr(b, name, None)
            joined.append(np.concatenate(parts))
            del parts
        return levels.Edges(start, *joined)

    def _options(self, positions: np.ndarray) -> levels.Edges:
        """`options` of one block of positions."""
        from solver.engine import levels

        empty = np.empty(0, dtype=np.int64)
        parts: list[tuple[np.ndarray, ...]] = [  # (row, sequence, target, probability, option)
            (empty, empty, empty, np.empty(0), np.empty(0, dtype=np.int8))]
        setup = np.flatnonzero(positions < len(self.setup))
        for row, number in zip(setup.tolist(), positions[setup].tolist()):
            parts.append(self._setup_edges(row, self.setup[number]))
        rows = np.flatnonzero(positions >= len(self.setup))
        at = self.decode(positions[rows])
        stock = np.take_along_axis(at.stocks, at.mover[:, None], axis=1)[:, 0]
        thrown = rules.thrown_dice(stock, at.arena, at.phase == START)
        mid = np.flatnonzero(at.phase == MID)
        if len(mid):
            stop = end_turns(at.mover[mid], at.stocks[mid], at.arena[mid],
                             None if at.points is None else at.points[mid])
            parts.append((rows[mid], np.full(len(mid), -1), self._numbers(stop),
                          np.ones(len(mid)), np.zeros(len(mid), dtype=np.int8)))
        group = at.arena * self.base + thrown
        for key in np.unique(group).tolist():
            member = np.flatnonzero(group == key)
            k, count = divmod(key, self.base)
            left, taken, _, probability = throw_arrays((1,) * k, count, self.game)
            moves = throw_moves(at.mover[member], at.stocks[member],
                                None if at.points is None else at.points[member],
                                thrown[member], left, taken, self.game.empty_arena)
            shape = moves.mover.shape
            parts.append((np.repeat(rows[member], shape[1]),
                          np.tile(np.arange(shape[1]), shape[0]), self._numbers(moves).ravel(),
                          np.tile(probability, shape[0]),
                          np.repeat(at.phase[member] == MID, shape[1]).astype(np.int8)))
        row, sequence, target, probability, option = (np.concatenate(p) for p in zip(*parts))
        order = np.lexsort((sequence, row))
        start = np.concatenate([[0], np.cumsum(np.bincount(row, minlength=len(positions)))])
        return levels.Edges(start, target[order].astype(self.target_type), probability[order],
                            option[order])

    def _setup_edges(self, row: int, position: Position) -> tuple[np.ndarray, ...]:
        """A setup-level position's options, as the model's local model gives them."""
        local: Choices = self.game.local(position)
        successors = self.game.successors(position)
        found = [(option, result, float(p)) for option, weights in enumerate(local.exact)
                 for result, p in enumerate(weights) if p]
        targets = [self.target(successors[result]) for _, result, _ in found]
        count = len(found)
        return (np.full(count, row), np.arange(count), np.array(targets, dtype=np.int64),
                np.array([p for *_, p in found]),
                np.array([o for o, *_ in found], dtype=np.int8))

    def target(self, successor) -> int:
        """A model successor's number, or -1 - t for terminal t."""
        if isinstance(successor, Position):
            return self.number(successor)
        return -1 - self._terminal_rows[tuple(float(v) for v in successor.values)]

    def parameters(self) -> dict:
        """What a checkpoint of this solve must match: the rules, the model and the code."""
        from solver import cache

        game = self.game
        return {"game": "strike", "players": game.players, "dice": game.dice,
                "hit": str(game.hit), "miss": str(game.miss), "fly_out": str(game.fly_out),
                "empty_arena": game.empty_arena, "scoring": game.scoring,
                "points_count": game.points_count, "engine": "levels",
                "code": cache.code_hash(__name__)}


class PositionIndex(Mapping):
    """Reachable positions -> their numbers."""

    def __init__(self, game: LevelStrike, reachable: np.ndarray) -> None:
        self.game, self.reachable = game, reachable

    def __getitem__(self, position: Position) -> int:
        number = self.game.number(position)
        if not self.reachable[number] or self.game.position(number) != position:
            raise KeyError(position)
        return number

    def __iter__(self) -> Iterator[Position]:
        return (self.game.position(n) for n in np.flatnonzero(self.reachable).tolist())

    def __len__(self) -> int:
        return int(self.reachable.sum())


@dataclass
class LevelSolution:
    """A level solve of Strike (float64), a `solver.engine.solution.SolvedGame` as the cyclic
    engine's Solution is. The table has a column per number (NaN where unreachable), or when
    `compact` (as the cache keeps it) one per reachable position, in the order of their
    numbers; or, solved with a checkpoint, it is the checkpoint's levels read on demand.
    Readers go through `block`."""

    game: LevelStrike
    table: np.ndarray | levels.StoredValues  # (metrics, size), or (metrics, reachable
    # positions) when compact
    index: PositionIndex
    residual: float
    iterations: int
    components: int
    seconds: dict[str, float] = field(default_factory=dict)
    cached: bool = False
    compact: bool = False
    exact = None
    _rank: np.ndarray | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        return len(self.index)

    def __contains__(self, position: object) -> bool:
        return position in self.index

    def positions(self) -> Iterator[Position]:
        return iter(self.index)

    def local(self, position: Position) -> Choices:
        return self.game.game.local(position)

    def column(self, number: int) -> int:
        """The table's column of a reachable position's number."""
        if not self.compact:
            return number
        return int(np.count_nonzero(self.index.reachable[:number]))

    def columns(self, numbers: np.ndarray) -> np.ndarray:
        """`column` of many numbers (a compact table: from a rank of every number, made
        once)."""
        if not self.compact:
            return numbers
        if self._rank is None:
            self._rank = np.cumsum(self.index.reachable) - 1
        return self._rank[numbers]

    def block(self, numbers: np.ndarray) -> np.ndarray:
        """(metrics, numbers): the values of these positions, wherever the table is held."""
        if isinstance(self.table, np.ndarray):
            return self.table[:, self.columns(numbers)]
        return self.table.take(numbers)

    def values(self, position: Position) -> np.ndarray:
        return self.block(np.array([self.index[position]]))[:, 0]

    def exact_values(self, position: Position) -> list[Fraction]:
        raise ValueError("the level engine solves in float64 only")

    def exact_utilities(self, position: Position) -> list[Fraction]:
        raise ValueError("the level engine solves in float64 only")

    def utilities(self, position: Position) -> np.ndarray:
        """The mover's value of each result of the position's local model."""
        metric = int(self.game.game.layout.objective(position.mover))
        targets = [self.game.target(s) for s in self.game.game.successors(position)]
        inner = iter(self.block(np.array([t for t in targets if t >= 0], dtype=np.int64))[
            metric].tolist())
        return np.array([self.game.terminals()[-1 - t, metric] if t < 0 else next(inner)
                         for t in targets])

    def reaches(self, position: Position) -> None:
        """Refuse (one line) a position no game reaches from the start: the solve has no value
        there."""
        if position not in self:
            raise InputError("no game of these rules reaches this position from the start, so "
                             "the level engine has no value there: --engine cyclic solves from "
                             "it")


def estimate(game: Strike, finished: Collection[int] = ()) -> tuple[float, float]:
    """(seconds, bytes) a level solve of this game would take, from its numbering's size less
    the `finished` levels a checkpoint holds (a resumed solve reads them)."""
    numbered = LevelStrike(game)
    sizes = np.diff(numbered.level_start, prepend=0)  # the setup, then a level per dice out
    return (int(np.delete(sizes, list(finished)).sum()) * SECONDS_PER_NUMBER,
            FIXED_BYTES + numbered.size * (8 * numbered.metrics + BYTES_PER_NUMBER))


def check(game: Strike, force: bool = False, finished: Collection[int] = ()) -> None:
    """Refuse (one line) a level solve above the time budget (unless forced) or the memory;
    resumed from a checkpoint holding the `finished` levels, what is left of it."""
    from solver import limits

    seconds, memory = estimate(game, finished)
    what = f"solving {game.players}-player Strike with {game.dice} dice each"
    if finished:
        levels = LevelStrike(game).levels
        what += f" ({levels - len(finished)} of its {levels} levels left)"
    limits.refuse(what, seconds, memory, force)


def solve_levels(game: Strike, checkpoint: Path | str | None = None, progress=None,
                 runner: levels.Runner | None = None) -> LevelSolution:
    """Solve Strike on the level engine (float64), resuming from and writing to a checkpoint
    folder when given one, its chunks solved by `runner` (default: here)."""
    from solver.engine import levels

    numbered = LevelStrike(game)
    store = None if checkpoint is None else Checkpoint(checkpoint, numbered.parameters())
    solution = levels.solve(numbered, store=store, progress=progress, runner=runner)
    total = solution.total
    return LevelSolution(numbered, solution.values, PositionIndex(numbered, solution.reachable),
                         total.residual, total.iterations, total.components, solution.seconds)


def solved(game: Strike, *, solving: Solving | None = None, progress=None,
           use_cache: bool = True, force: bool = False) -> LevelSolution:
    """The whole game's level solve: read from the cache, else solved (after its cost is
    checked, see `check`) and cached: the values of the reachable positions, and which numbers
    those are (the numbering is arithmetic, so it needs nothing more). `solving` gives the
    checkpoint folder and the runner of the chunks; a solve with a checkpoint is not cached:
    the checkpoint is its stored solve, read back level by level."""
    from solver import cache

    solving = solving or Solving("levels")

    key = cache_key(game)
    if use_cache:
        found = cache.in_memory(key, lambda: _read_cached(game, key))
        if found is not None:
            return found
    finished = {} if solving.checkpoint is None else \
        Checkpoint(solving.checkpoint, LevelStrike(game).parameters()).finished()
    if len(finished) < LevelStrike(game).levels:  # a checkpoint holding every level is read
        check(game, force, finished)
    solution = solve_levels(game, solving.checkpoint, progress, solving.runner)
    if use_cache and solving.checkpoint is None:  # a checkpoint keeps its own solve
        reachable = solution.index.reachable
        cache.store(key, {"reachable": np.packbits(reachable),
                          "table": solution.table[:, reachable],
                          "residual": np.array(solution.residual),
                          "iterations": np.array(solution.iterations),
                          "components": np.array(solution.components)})
    return solution


def cache_key(game: Strike) -> dict:
    """What a cached level solve answers: the rules, the model and the code (`parameters`)."""
    return {**LevelStrike(game).parameters(), "game": "strike_levels"}


def _read_cached(game: Strike, key: dict) -> LevelSolution | None:
    """The level solve stored in the disk cache under `key`, or None."""
    from solver import cache

    clock = time.perf_counter()
    stored = cache.load(key)
    if stored is None:
        return None
    numbered = LevelStrike(game)
    reachable = np.unpackbits(stored["reachable"], count=numbered.size).astype(bool)
    return LevelSolution(numbered, stored["table"], PositionIndex(numbered, reachable),
                         float(stored["residual"]), int(stored["iterations"]),
                         int(stored["components"]),
                         {"total": time.perf_counter() - clock}, cached=True, compact=True)


def _lehmer(points: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The rank of the order the seats out went out in (their points: the first out scored
    the most), among the orders of that many seats: a Lehmer code, seat by seat."""
    rank = np.zeros(len(points), dtype=np.int64)
    players = points.shape[1]
    for seat in range(players):
        later = out[:, seat + 1:]
        lower = (later & (points[:, seat + 1:] > points[:, seat, None])).sum(axis=1)
        weight = np.array([factorial(c) for c in range(players)])[later.sum(axis=1)]
        rank += np.where(out[:, seat], lower * weight, 0)
    return rank


def _unlehmer(rank: np.ndarray, out: np.ndarray, players: int) -> np.ndarray:
    """The points of the seats out from `_lehmer`'s rank (0 for seats in)."""
    points = np.zeros(out.shape, dtype=np.int64)
    count = out.sum(axis=1)
    taken = np.zeros(out.shape, dtype=bool)  # places in the order (0: first out) given out
    for seat in range(players):
        later = out[:, seat + 1:].sum(axis=1)
        weight = np.array([factorial(c) for c in range(players)])[later]
        here = out[:, seat]
        digit = np.where(here, rank // weight, 0)
        rank = np.where(here, rank % weight, rank)
        free = ~taken & (np.arange(players) < count[:, None])
        place = np.argmax(np.cumsum(free, axis=1) > digit[:, None], axis=1)
        taken[np.flatnonzero(here), place[here]] = True
        points[here, seat] = players - 1 - place[here]
    return points
