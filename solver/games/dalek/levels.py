"""The Dalek Dice race (race.DalekRace) on the level-by-level engine (solver/engine/levels/).

Positions are numbers. Before the final round a position is every seat's score (below the target)
and the mover, in mixed radix: ((s_1 * T + s_2) * T + ...) * players + mover. A final-round
position with seat m to move is written as race.canonical writes it: the best score so
far (at or above the target), which seats before the mover hold it (the others can no longer win:
their scores count as 0), and the scores of the seats from the mover on; one block of numbers per
mover. Levels: the score sum before the final round (a turn that scores nothing passes the move
within its level), then the final round's movers in seat order. The start is level 0.

The numbers are computed for whole arrays of positions at once; the rules are race.py's array
forms (`after_turn`, `canonical`, `final_round`, `similar`, the payoffs with their tie shares),
which its cyclic-engine methods use too: this module only numbers positions. Tests hold the
numbering's successors and similar positions to race.py's own, position by position.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import numpy as np

from solver.engine import levels
from solver.engine.turn import WORKERS
from solver.errors import InputError
from solver.games.dalek.cost import race_cost
from solver.games.dalek.race import (
    DalekRace,
    Position,
    RaceValues,
    after_turn,
    canonical,
    final_round,
    mixed_rows,
    race_key,
    radix_digits,
    radix_number,
    seat_max,
    seat_min,
    similar,
)
from solver.games.dalek.rules import reaches_target

# Seconds of the two threads per position of the numbering (reachable or not), before the final
# round and in it (the estimate halves them), calibrated on the largest race measured whole with
# today's kernels: the 3-player race to 60 from an empty cache on a quiet machine, 2 Dec 2026,
# 25 min 44 s wall (2,729 CPU s: the threads overlap at 1.77 of 2) for 648,000 numbers before the
# final round and 234,360 in it. The constants before (2.3 and 0.17 ms, from the race to 40 scaled
# by each kernel's gain) said 12.8 min; these are them times 2.02. Smaller races run longer per
# position than these say (3 players to 20: 49.9 s measured, 30 s before and 61 s after; 2 to 60:
# 23.9 s, 8.6 and 17 s: the turn graph's load and the reachability sweep weigh more there). A
# numbered position of the final round costs about a fifteenth of one before it (the level split
# of the race to 16: 0.35 and 5.2 ms). What a solve holds
# besides the values and the turn passes' workspaces: fixed (the interpreter, the code, the turn
# graph, a chunk's buffers: peaks were 410-590 MB, of which 186 MB workspaces before the merge)
# and per position (the state byte, the reachability sweep's flags, a level's lists: no growth
# measurable between the races to 30 and 40, so this errs long).
SECONDS_BEFORE_FINAL = 4.65e-3
SECONDS_FINAL = 0.34e-3
FIXED_BYTES = 300e6
BYTES_PER_POSITION = 100


class LevelRace:
    """The race as a level game: numbering, levels and successors, for arrays of positions."""

    def __init__(self, race: DalekRace, part: Position | None = None) -> None:
        if race.seat_locals:
            raise InputError("the level engine solves races where every seat plays to win")
        self.race = race
        self.part = part  # a position (race.check_position's) whose part alone is solved
        self.players, self.target = race.players, race.target
        self.metrics = race.metrics
        self.turn = levels.TurnPasses(race.turn.graph, race.turn.root)
        self.results = race.turn.graph.n_results
        n, t = self.players, self.target
        if (t + self.results) ** n >= 2**63:  # the ends of the game are keyed by their scores
            raise InputError(f"{n} scores up to {t + self.results} are more than the level "
                             f"engine can number")
        self.offsets = _offsets(n, t, self.results)
        self.before_final, self.size = self.offsets[0], self.offsets[-1]
        self.levels = n * (t - 1) + n  # score sums 0..n(t-1), then movers 1..n-1
        self._payoffs: list = [np.zeros(self.metrics)]  # terminal 0: a result no turn gives
        self._payoff_row: dict[tuple, int] = {}  # payoffs (Terminal.values) -> their row:
        # by value, not id(), which another process (a Ray worker) would not share
        self._terminal_keys = np.empty(0, dtype=np.int64)  # scores seen at an end, sorted
        self._terminal_ids = np.empty(0, dtype=np.int64)
        self._terminal_table: np.ndarray | None = None

    # ---- numbering ----------------------------------------------------------------------------
    def start(self) -> int:
        scores, mover = _arrays(self.race.start())
        return int(self.encode(scores[None, :], mover[None])[0])

    def starts(self) -> np.ndarray:
        """Where the reachability sweep starts: the start, or for a part of the race (`part`,
        a position before the final round) every position whose scores are each at least the
        position's and a score some game gives (race.held), every mover: what the position
        leads to, together with the positions one or two points on that a full solve also
        solves and takes its first guesses from (`similar`), so that the part's values are
        the full solve's to the bit. A final-round position leads to no cycle (its values do
        not depend on first guesses), so the sweep starts from it alone."""
        if self.part is None:
            return np.array([self.start()])
        if self.race.final_round(*self.part):
            scores, mover = _arrays(self.part)
            return self.encode(scores[None, :], mover[None])
        held = self.race.held[:self.target]
        axes = [np.flatnonzero(held[s:]) + s for s in self.part[0]]
        grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, self.players)
        return (radix_number(grid, self.target)[:, None] * self.players
                + np.arange(self.players)).ravel()

    def positions(self, level: int) -> np.ndarray:
        n, t = self.players, self.target
        if level > n * (t - 1):
            mover = level - n * (t - 1)
            return np.arange(self.offsets[mover - 1], self.offsets[mover], dtype=np.int64)
        scores = _compositions(level, n, t)
        return (radix_number(scores, t)[:, None] * n + np.arange(n)).ravel()

    def level_of(self, positions: np.ndarray) -> np.ndarray:
        """The level of each position: before the final round its score sum, in it the level
        of its mover's block."""
        n, t = self.players, self.target
        positions = np.asarray(positions, dtype=np.int64)
        before = positions < self.before_final
        sums = radix_digits(np.where(before, positions, 0) // n, t, n).sum(axis=1)
        final = n * (t - 1) + np.searchsorted(self.offsets, positions, side="right")
        return np.where(before, sums, final)

    def reads(self, level: int) -> list[int]:
        """The levels a level's turns and similar guesses read, its own included: before the
        final round, the score sums a turn's largest gain reaches (the similar guesses' +1
        and +2 points among them) and the final round's levels; in the final round, the next
        mover's level (similar guesses stay in the mover's own)."""
        last = self.players * (self.target - 1)  # the last score sum before the final round
        if level > last:
            return list(range(level, min(level + 2, self.levels)))
        gain = max(int(np.flatnonzero(self.turn.possible).max()), 2)
        return [*range(level, min(level + gain, last) + 1), *range(last + 1, self.levels)]

    def encode(self, scores: np.ndarray, mover: np.ndarray) -> np.ndarray:
        """The number of each position (scores by seat, rows; movers), in its canonical form
        (race.canonical); -1 where it is no position of this numbering."""
        n, t = self.players, self.target
        mover = np.asarray(mover)
        scores = canonical(np.atleast_2d(scores), mover, t)
        final = final_round(scores, mover, t)
        before = ~final & ~reaches_target(seat_max(scores), t) & (seat_min(scores) >= 0)
        result = np.where(before, radix_number(np.clip(scores, 0, t - 1), t) * n + mover, -1)
        for m in range(1, n):
            rows = np.flatnonzero(final & (mover == m))
            head, tail = scores[rows, :m], scores[rows, m:]
            best = seat_max(head)
            tied = ((head == best[:, None]) << np.arange(m)).sum(axis=1)
            ok = (reaches_target(best, t) & (best - t < self.results)
                  & ~reaches_target(seat_max(tail), t) & (seat_min(tail) >= 0))
            local = ((best - t) * (2**m - 1) + tied - 1) * t ** (n - m) + radix_number(
                np.clip(tail, 0, t - 1), t)
            result[rows] = np.where(ok, self.offsets[m - 1] + local, -1)
        return result

    def decode(self, numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(scores by seat, movers) of position numbers, in canonical form."""
        n, t = self.players, self.target
        numbers = np.asarray(numbers, dtype=np.int64)
        scores = np.zeros((len(numbers), n), dtype=np.int64)
        mover = np.zeros(len(numbers), dtype=np.int64)
        before = numbers < self.before_final
        mover[before] = numbers[before] % n
        scores[before] = radix_digits(numbers[before] // n, t, n)
        for m in range(1, n):
            rows = np.flatnonzero((numbers >= self.offsets[m - 1]) & (numbers < self.offsets[m]))
            local, tail = np.divmod(numbers[rows] - self.offsets[m - 1], t ** (n - m))
            best, tied = np.divmod(local, 2**m - 1)
            holds = ((tied[:, None] + 1) >> np.arange(m)) & 1
            scores[rows, :m] = holds * (best[:, None] + t)
            scores[rows, m:] = radix_digits(tail, t, n - m)
            mover[rows] = m
        return scores, mover

    # ---- the game -----------------------------------------------------------------------------
    def objective(self, positions: np.ndarray) -> np.ndarray:
        return self.race.objectives(self.decode(positions)[1])

    def successors(self, positions: np.ndarray) -> np.ndarray:
        """race.after_turn for arrays of positions, numbered: positions, or -1 - terminal row."""
        scores, mover = self.decode(positions)
        rows, n = len(positions), self.players
        after, following, ends = after_turn(scores, mover, n, self.results, self.target)
        result = self.encode(after.reshape(-1, n), np.repeat(following, self.results)
                             ).reshape(rows, self.results)
        if ((result < 0) & ~ends & self.turn.possible).any():
            raise ValueError("a successor has no number: the numbering misses positions")
        result[ends] = -1 - self._terminals(after[ends])
        result[:, ~self.turn.possible] = -1  # terminal 0
        return result

    def _terminals(self, scores: np.ndarray) -> np.ndarray:
        """The terminal row of each end of the game (scores by seat): race.DalekRace.payoff for
        scores not seen before, a lookup for the others."""
        base = self.target + self.results
        keys = radix_number(scores, base)
        unique, inverse = np.unique(keys, return_inverse=True)
        place = np.searchsorted(self._terminal_keys, unique)
        known = place < len(self._terminal_keys)
        known[known] = self._terminal_keys[place[known]] == unique[known]
        fresh = unique[~known]
        if len(fresh):
            ids = [self._payoff_id(tuple(row)) for row in radix_digits(fresh, base, self.players)
                   .tolist()]
            keys_all = np.concatenate([self._terminal_keys, fresh])
            ids_all = np.concatenate([self._terminal_ids, np.array(ids, dtype=np.int64)])
            order = np.argsort(keys_all)
            self._terminal_keys, self._terminal_ids = keys_all[order], ids_all[order]
            place = np.searchsorted(self._terminal_keys, unique)
        return self._terminal_ids[place][inverse.reshape(-1)]

    def _payoff_id(self, scores: tuple[int, ...]) -> int:
        terminal = self.race.payoff(scores)
        if terminal.values not in self._payoff_row:
            self._payoff_row[terminal.values] = len(self._payoffs)
            self._payoffs.append(np.array([float(v) for v in terminal.values]))
            self._terminal_table = None
        return self._payoff_row[terminal.values]

    def terminals(self) -> np.ndarray:
        if self._terminal_table is None:
            self._terminal_table = np.array(self._payoffs)
        return self._terminal_table

    def similar(self, positions: np.ndarray) -> np.ndarray:
        """race.similar for arrays of positions, numbered."""
        scores, mover = self.decode(positions)
        return np.column_stack([self.encode(moved, mover)
                                for moved in similar(scores, mover, self.players)])

    def parameters(self) -> dict:
        """What a checkpoint of this solve must match: the race on this engine and the code that
        solves it here (this module's import closure)."""
        from solver import cache

        key = {**race_key(self.race, "levels"), "code": cache.code_hash(__name__)}
        return key if self.part is None else {**key, **part_key(self.race, self.part)}


class PositionIndex(Mapping):
    """Reachable positions -> their numbers, by arithmetic (RaceValues reads it as a dict)."""

    def __init__(self, game: LevelRace, reachable: np.ndarray) -> None:
        self.game, self.reachable = game, reachable

    def __getitem__(self, position: Position) -> int:
        scores, mover = _arrays(position)
        if len(scores) != self.game.players:
            raise KeyError(position)
        number = int(self.game.encode(scores[None, :], mover[None])[0])
        if number < 0 or not self.reachable[number]:
            raise KeyError(position)
        back = self.game.decode(np.array([number]))
        if back[0][0].tolist() != list(position[0]) or int(back[1][0]) != position[1]:
            raise KeyError(position)  # not in canonical form
        return number

    def __iter__(self) -> Iterator[Position]:
        numbers = np.flatnonzero(self.reachable)
        for start in range(0, len(numbers), levels.CHUNK):
            scores, mover = self.game.decode(numbers[start:start + levels.CHUNK])
            yield from ((tuple(s), m) for s, m in zip(scores.tolist(), mover.tolist()))

    def __len__(self) -> int:
        return int(self.reachable.sum())

    def values(self) -> Iterator[int]:  # type: ignore[override]
        """The numbers, in the order of the positions `iter` gives (without a lookup each)."""
        return iter(np.flatnonzero(self.reachable).tolist())

    def in_table_order(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """(numbers, scores by seat, movers) of the reachable positions in the order the race
        tables list them (score sum, then the scores seat by seat, then the mover), a score
        sum at a time: the level of that sum before the final round, and the final round's
        positions whose canonical scores sum to it (trailing seats count 0 there, so their
        sums fall among those before the final round), merged in by scores and mover."""
        game = self.game
        n, last = game.players, game.players * (game.target - 1)
        final = np.arange(game.before_final, game.size, dtype=np.int64)
        final = final[self.reachable[final]]
        sums = np.concatenate([np.empty(0, dtype=np.int64), *(  # decoded a chunk at a time
            game.decode(final[lo:lo + levels.CHUNK])[0].sum(axis=1)
            for lo in range(0, len(final), levels.CHUNK))])
        order = np.argsort(sums, kind="stable")
        final, sums = final[order], sums[order]
        top = max(last, int(sums.max()) if len(sums) else 0)
        bounds = np.searchsorted(sums, np.arange(top + 2))
        base = game.target + game.results  # above every score a position holds
        for total in range(top + 1):
            before = game.positions(total) if total <= last else final[:0]
            numbers = np.concatenate([before[self.reachable[before]],
                                      final[bounds[total]:bounds[total + 1]]])
            scores, movers = game.decode(numbers)
            order = np.argsort(radix_number(scores, base) * n + movers, kind="stable")
            yield numbers[order], scores[order], movers[order]


def part_key(race: DalekRace, part: Position) -> dict:
    """What names a part of the race in a key: the scores it starts from (every mover's
    part is the same), and the mover too for a final-round position."""
    scores, mover = part
    return {"part": [*scores, mover] if race.final_round(scores, mover) else list(scores)}


def _offsets(players: int, target: int, results: int) -> list[int]:
    """Where the numbers of each block begin: the positions before the final round from 0,
    then the final round's, mover 1 to players - 1 (best score - target, the tied seats before
    the mover as a nonzero bit mask less 1, the scores of the seats from the mover on); the
    last entry is the size of the numbering."""
    offsets = [players * target**players]
    for m in range(1, players):
        offsets.append(offsets[-1] + results * (2**m - 1) * target ** (players - m))
    return offsets


def level_sizes(players: int, target: int, results: int) -> np.ndarray:
    """The numbered positions (reachable or not) of each level: before the final round, every
    mover of each row of scores below the target with that sum; then each mover's block of the
    final round."""
    rows = np.ones(1, dtype=np.int64)
    for _ in range(players):
        rows = np.convolve(rows, np.ones(target, dtype=np.int64))
    return np.concatenate([players * rows, np.diff(_offsets(players, target, results))])


def solve_seconds(race: DalekRace, part: Position | None = None,
                  finished: Collection[int] = ()) -> float:
    """Seconds a level solve of the race would take, from its size, or of its part from
    `part` (the share of the numbered positions whose scores are each at least the part's);
    `finished`: the levels a checkpoint holds already, which a resumed solve reads instead."""
    n, t = race.players, race.target
    sizes = level_sizes(n, t, race.turn.graph.n_results)
    costs = np.where(np.arange(len(sizes)) <= n * (t - 1), SECONDS_BEFORE_FINAL, SECONDS_FINAL)
    share = 1.0 if part is None else float(np.prod([(t - min(s, t)) / t for s in part[0]]))
    return share * float(np.delete(sizes * costs, list(finished)).sum()) / WORKERS


def estimate(game: LevelRace, finished: Collection[int] = ()) -> tuple[float, float]:
    """(seconds, bytes) a level solve of this race (or its part) would take, from its size,
    less the `finished` levels a checkpoint holds; the memory is the whole numbering's (a
    part's values are held by position number too, and a resumed solve's too)."""
    memory = (game.turn.workspace_bytes + FIXED_BYTES
              + game.size * (8 * game.metrics + BYTES_PER_POSITION))
    return solve_seconds(game.race, game.part, finished), memory


def solve_cost(race: DalekRace, exact: bool, engine: str) -> tuple[float, float]:
    """(seconds, bytes) a solve of the race on `engine` (cyclic or levels) would take."""
    if engine == "levels":
        return estimate(LevelRace(race))
    return race_cost(race, exact)


def check(game: LevelRace, force: bool = False, finished: Collection[int] = ()) -> None:
    """Refuse (one line) a level solve above the time budget (unless forced) or the memory;
    resumed from a checkpoint holding the `finished` levels, what is left of it."""
    from solver import limits

    seconds, memory = estimate(game, finished)
    what = f"the {game.players}-player race to {game.target}"
    if game.part is not None:
        what += f" from scores {','.join(map(str, game.part[0]))}"
    if finished:
        what += f" ({game.levels - len(finished)} of its {game.levels} levels left)"
    limits.refuse(what, seconds, memory, force)


def solve_levels(race: DalekRace, checkpoint: Path | str | None = None, progress=None,
                 force: bool = False, runner: levels.Runner | None = None,
                 part: Position | None = None) -> RaceValues:
    """Solve the race on the level engine (float64), or only the part of it from `part` (a
    position: `LevelRace.starts`), resuming from and writing to a checkpoint folder when given
    one, its chunks solved by `runner` (default: here). A solve estimated past the time budget
    is refused unless `force` (past the memory, always); a checkpoint that holds every level is
    read back, which the budget does not limit."""
    from solver.checkpoint import Checkpoint

    game = LevelRace(race, part)  # its turn passes merge the graph once, for the estimate and
    # the solve
    store = None if checkpoint is None else Checkpoint(checkpoint, game.parameters())
    finished = {} if store is None else store.finished()
    if len(finished) < game.levels:
        check(game, force, finished)
    solution = levels.solve(game, store=store, progress=progress, runner=runner)
    total = solution.total
    mixes = []
    for numbers, mix in solution.mixed:
        scores, movers = game.decode(numbers)
        mixes.append((list(zip(map(tuple, scores.tolist()), movers.tolist())), mix))
    table = solution.values.T if isinstance(solution.values, np.ndarray) else solution.values
    return RaceValues(race, PositionIndex(game, solution.reachable), table, part=part,
                      residual=total.residual, iterations=total.iterations,
                      components=total.components, seconds=solution.seconds, engine="levels",
                      mixed=mixed_rows(mixes))


def _arrays(position: Position) -> tuple[np.ndarray, np.ndarray]:
    return np.array(position[0], dtype=np.int64), np.array(position[1], dtype=np.int64)


def _compositions(total: int, parts: int, top: int) -> np.ndarray:
    """Every row of `parts` scores in 0..top-1 that sum to `total`, in increasing order."""
    rows = np.zeros((1, 0), dtype=np.int64)
    left = np.array([total], dtype=np.int64)
    for i in range(parts - 1):
        room = (parts - 1 - i) * (top - 1)  # what the later parts can hold
        low, high = np.maximum(0, left - room), np.minimum(top - 1, left)
        count = np.maximum(high - low + 1, 0)
        pick = np.repeat(low - np.cumsum(count) + count, count) + np.arange(count.sum())
        rows = np.column_stack([np.repeat(rows, count, axis=0), pick])
        left = np.repeat(left, count) - pick
    return np.column_stack([rows, left])
