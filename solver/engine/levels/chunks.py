"""A chunk of a level solved: whole components by policy iteration, the turn graph's passes
(`_TurnChunk`) or explicit options (`_OptionChunk`, large systems by Gauss-Seidel sweeps)
giving the best responses. `solve_chunk` is a pure function of its inputs: chunks may run in
any process, in any order."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import cast

import numpy as np
from numba import njit

from solver.engine import linear, mixed
from solver.engine.iteration import iterate
from solver.engine.levels.protocols import LevelGame, OptionGame
from solver.engine.levels.reach import CHUNK, within
from solver.engine.levels.records import SOLVED, ChunkResult, ChunkTask, Edges, LevelStats
from solver.engine.levels.view import ChunkView, Window, solved
from solver.engine.turn import FLOAT_TIE

DIRECT = 2000  # option games: systems up to this many members are solved direct, others swept
SWEPT = 1e-15  # a sweep that moves no value by more than this ends them (the error is a few times
# it: a sweep shrinks it by about the chance to stay in the level, below 5/6 in Strike)
MAX_SWEEPS = 100_000


def solve_chunk(game: LevelGame | OptionGame, window: Window, task: ChunkTask, eager: bool,
                tolerance: float) -> ChunkResult:
    """Solve a chunk from the values and states of the finished levels its level reads (the
    window, only read; of its own level it reads its own positions, which it keeps apart), and
    the level's eager flag. A pure function of its inputs, so chunks may run in any process,
    in any order."""
    clock = time.perf_counter()
    view = ChunkView(game, window, task.positions, eager, tolerance)
    chunk = (_TurnChunk(view, task.positions, task.labels) if task.edges is None else
             _OptionChunk(view, task.positions, task.labels, task.edges))
    stats = chunk.run()
    return ChunkResult(view.values.positions, view.values.own, stats, view.mixes, view.eager,
                       time.perf_counter() - clock)


class _Chunk(ABC):
    """Whole components of one level, solved together by policy iteration
    (`iteration.iterate`, as the cyclic engine's `_GroupSolver`): who is in which component,
    what each maximises, and the values they start from. The kinds of game differ in how a
    member responds and what its policy is (`_TurnChunk`, `_OptionChunk`)."""

    def __init__(self, solver: ChunkView, positions: np.ndarray, labels: np.ndarray) -> None:
        self.solver, self.positions = solver, positions
        self.stats = LevelStats()
        starts = np.flatnonzero(np.diff(labels, prepend=-1))
        self.component = np.cumsum(np.diff(labels, prepend=-1) != 0) - 1
        self.starts = starts
        self.sizes = np.diff(np.append(starts, len(labels)))
        self.rank = np.arange(len(labels)) - starts[self.component]  # place in its component
        self.order = np.argsort(positions)
        self.loops = np.zeros(len(starts), dtype=bool)
        self.objective = solver.game.objective(positions)

    def member_of(self, targets: np.ndarray) -> np.ndarray:
        """The member each target is, -1 for none."""
        place = within(self.positions[self.order], targets)
        return np.where(place >= 0, self.order[place], -1)

    def _warm_start(self) -> None:
        """Start from the values of the first similar position solved before (what the cyclic
        engine does: the first response is then usually final)."""
        similar = getattr(self.solver.game, "similar", None)
        if similar is None:
            self.solver.values[:, self.positions] = 0.0
            return
        candidates = similar(self.positions)
        solved = candidates >= 0
        solved[solved] = (self.solver.state[candidates[solved]] & SOLVED).astype(bool)
        has = solved.any(axis=1)
        first = candidates[has, np.argmax(solved[has], axis=1)]
        self.solver.values[:, self.positions[has]] = self.solver.values[:, first]
        self.solver.values[:, self.positions[~has]] = 0.0  # as the cyclic engine starts

    def members(self, component: int) -> slice:
        """A component's members: labels come sorted, so they are one run."""
        return slice(self.starts[component], self.starts[component] + self.sizes[component])

    def run(self) -> LevelStats:
        """Every component to a Bellman residual within the tolerance (or until its policy
        repeats), from the first best responses."""
        self.start()
        self.stats.residual, self.stats.iterations = iterate(self, self.solver.tolerance)
        self.stats.components = len(self.sizes)
        return self.stats

    @abstractmethod
    def start(self) -> None:
        """Every member plays its best response to the values it starts from."""

    # what policy iteration drives (`iteration.Problem`)
    @abstractmethod
    def evaluate(self, members: np.ndarray) -> None: ...

    @abstractmethod
    def check(self, members: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def adopt(self, members: np.ndarray) -> None: ...

    @abstractmethod
    def signature(self, component: int) -> bytes: ...


class _TurnChunk(_Chunk):
    """Members of a game with one shared turn graph: a policy is the result distribution of the
    turn played, and a response a pass of the turn graph."""

    def __init__(self, solver: ChunkView, positions: np.ndarray, labels: np.ndarray) -> None:
        super().__init__(solver, positions, labels)
        self.game = cast(LevelGame, solver.game)  # a chunk without edges: a turn game's
        self.successors = self.game.successors(positions)
        self.inside = self.member_of(self.successors)  # member a result leads to
        self.loops[self.component[(self.inside >= 0).any(axis=1)]] = True
        # every metric of the results leaving the components (zero for those staying in): they
        # are finished levels' or ends', fixed while the chunk runs, so read from the window once
        leaving = self.inside < 0
        self.fixed = np.zeros((*self.successors.shape, solver.game.metrics))
        self.fixed[leaving] = solver.rows(self.successors[leaving])
        self.policy = np.empty(self.successors.shape)
        self.checks = 0
        self._warm_start()

    def start(self) -> None:
        everyone = np.ones(len(self.positions), dtype=bool)
        self.policy[:] = self._respond(everyone, True)[1]

    def evaluate(self, members: np.ndarray) -> None:
        active = np.zeros(len(self.sizes), dtype=bool)
        active[self.component[members]] = True
        self._evaluate(active)

    def check(self, members: np.ndarray) -> np.ndarray:
        """Best responses of the running members. Most first checks fail where most did in the
        chunk before: then they take the distributions with them, saving a second pass."""
        self.checks += 1
        self.eager = self.solver.eager and self.checks == 1
        if self.checks == 1:
            self.solver.eager = False
            self.checked = len(np.unique(self.component[members]))
        best, self.dist = self._respond(members, self.eager)
        self.running = members
        values = self.solver.values[self.objective[members], self.positions[members]]
        return np.abs(best - values)

    def adopt(self, members: np.ndarray) -> None:
        if self.checks == 1:  # most components failed their first check
            self.solver.eager = len(np.unique(self.component[members])) > 0.5 * self.checked
        dist = self.dist if self.eager else None
        self.policy[members] = (dist[members[self.running]] if dist is not None else
                                self._respond(members, True)[1])

    def signature(self, component: int) -> bytes:
        return self.policy[self.members(component)].tobytes()

    def mix(self, component: int, tolerance: float) -> float | None:
        """As the cyclic engine's `_GroupSolver.mix`: where pure best responses cycle, a mixed
        equilibrium (`mixed.mix`), played and recorded if found; its residual, or None."""
        ks = np.arange(len(self.positions))[self.members(component)]
        inside = np.where(self.inside[ks] >= 0, self.rank[np.maximum(self.inside[ks], 0)], -1)
        view = mixed.Component(inside, self.solver.rows(self.successors[ks]), self.objective[ks])
        found = mixed.mix(view, self.policy[ks], self._distributions, tolerance)
        if found is None:
            return None
        self.policy[ks] = found.policies
        self.solver.values[:, self.positions[ks]] = found.values.T
        self.solver.mixes.append((self.positions[ks], found))
        return found.residual

    def _respond(self, mask: np.ndarray, distributions: bool
                 ) -> tuple[np.ndarray, np.ndarray | None]:
        """Best responses of the masked members to the current values; rows of utilities that
        repeat are passed once. np.unique sorts the rows too: in a tile of neighbours the
        columns choose alike more often, and the forward pass is cheaper (rows shuffled, or in
        the order of their bytes, cost 9-12% more, with the same bits)."""
        utilities = self._utilities(np.flatnonzero(mask))
        unique, inverse = np.unique(utilities, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        best, dist = self.game.turn.respond(unique, distributions)
        self.stats.backward += len(unique)
        if dist is not None:  # asked for
            self.stats.forward += len(unique)
            return best[inverse], dist[inverse]
        return best[inverse], None

    def _utilities(self, members: np.ndarray) -> np.ndarray:
        """Each member's objective value of each result (members, results): `ChunkView.utilities`
        from the fixed rows, and the members' own values where a result stays in the chunk."""
        objective = self.objective[members]
        utilities = self.fixed[members[:, None], np.arange(self.fixed.shape[1]), objective[:, None]]
        row, result = np.nonzero(self.inside[members] >= 0)
        utilities[row, result] = self.solver.values[objective[row],
                                                    self.successors[members[row], result]]
        return solved(utilities)

    def _distributions(self, utilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Best values and result distributions of rows of utilities (`mixed.Respond`)."""
        best, dist = self.game.turn.respond(utilities, True)
        assert dist is not None  # asked for
        return best, dist

    def _evaluate(self, active: np.ndarray) -> None:
        """Set the active components' values (every metric) to those of their policies: the
        results leaving the component give the right-hand side, those staying in it a small
        linear system per component, solved in batches of equal size."""
        members = np.flatnonzero(active[self.component])
        rhs = np.zeros((len(members), self.solver.game.metrics))
        for r in range(self.inside.shape[1]):  # a result staying in adds zero: the same sums
            rhs += self.policy[members, r, None] * self.fixed[members, r]
        values = rhs.copy()
        for size in np.unique(self.sizes[active & self.loops]).tolist():
            self._solve_systems(members, rhs, values, size)
        self.solver.values[:, self.positions[members]] = values.T

    def _solve_systems(self, members: np.ndarray, rhs: np.ndarray, values: np.ndarray,
                       size: int) -> None:
        """Into `values`: the linear systems (I - P) x = rhs of the looping components of one
        size."""
        mine = (self.sizes[self.component[members]] == size) & self.loops[self.component[members]]
        rows = np.flatnonzero(mine)  # members of those components, component by component
        count = len(rows) // size
        matrix = np.broadcast_to(np.eye(size), (count, size, size)).copy()
        block = np.repeat(np.arange(count), size)
        for r in range(self.inside.shape[1]):
            target = self.inside[members[rows], r]
            hit = target >= 0
            np.subtract.at(matrix, (block[hit], self.rank[members[rows[hit]]],
                                    self.rank[target[hit]]),
                           self.policy[members[rows[hit]], r])
        solved = linear.solve(matrix, rhs[rows].reshape(count, size, -1))
        values[rows] = solved.reshape(len(rows), -1)


class _OptionChunk(_Chunk):
    """Members of a game of explicit options (`Edges`): a policy is the option each member
    plays, a response the first option within FLOAT_TIE of the best (as `local.Choices` picks
    it). Components can be large (Strike's dice move between stocks and the arena without
    leaving the level, so a level is nearly one component): small systems are solved sparse
    and direct, large ones by Gauss-Seidel sweeps from the values they hold (the fill-in of a
    direct solve grows too fast; every policy leaves the level with some probability within
    two moves, so the sweeps contract). Responses and right-hand sides are worked out `CHUNK`
    members at a time: a member's sums run over its own edges in the same order either way,
    and the temporaries stay those of a block."""

    def __init__(self, solver: ChunkView, positions: np.ndarray, labels: np.ndarray,
                 edges: Edges) -> None:
        super().__init__(solver, positions, labels)
        self.edges = edges
        self.inside = np.empty(len(edges.target), dtype=np.int32)  # member an edge leads to
        for first, part in self._parts():
            inside = self.member_of(part.target)
            self.inside[edges.start[first]:edges.start[first] + len(inside)] = inside
            self.loops[self.component[part.row[inside >= 0] + first]] = True
        self.width = int(edges.option.max(initial=0)) + 1
        self.chosen = np.zeros(len(positions), dtype=np.int8)
        self._warm_start()

    def _parts(self) -> Iterator[tuple[int, Edges]]:
        """(first member, its block's edges) of every block of `CHUNK` members."""
        for first in range(0, len(self.positions), CHUNK):
            yield first, self.edges.part(first, min(first + CHUNK, len(self.positions)))

    def start(self) -> None:
        everyone = np.ones(len(self.positions), dtype=bool)
        self.chosen[:] = self._respond(everyone)[1]

    def check(self, members: np.ndarray) -> np.ndarray:
        best, self.response = self._respond(members)
        values = self.solver.values[self.objective[members], self.positions[members]]
        return np.abs(best - values)

    def adopt(self, members: np.ndarray) -> None:
        self.chosen[members] = self.response[members[self.response_of]]

    def signature(self, component: int) -> bytes:
        return self.chosen[self.members(component)].tobytes()

    def _respond(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(value, option) of the masked members' best responses to the current values."""
        self.response_of = mask
        best, chosen = [np.empty(0)], [np.empty(0, dtype=np.int8)]
        for first, part in self._parts():
            block = mask[first:first + len(part.start) - 1]
            if block.any():
                found = self._respond_part(first, part, block)
                best.append(found[0])
                chosen.append(found[1])
        return np.concatenate(best), np.concatenate(chosen)

    def _respond_part(self, first: int, part: Edges, mask: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        """`_respond` for one block's masked members (mask over the block)."""
        own = part.row
        edges = mask[own]
        row = (np.cumsum(mask) - 1)[own[edges]]  # place among the masked members
        count = int(mask.sum())
        utilities = self.solver.utilities(part.target[edges, None],
                                          self.objective[own[edges] + first])[:, 0]
        key = row * self.width + part.option[edges]
        values = np.bincount(key, part.probability[edges] * utilities,
                             minlength=count * self.width).reshape(count, self.width)
        present = np.bincount(key, minlength=count * self.width).reshape(count, self.width) > 0
        values[~present] = -np.inf
        starts = np.flatnonzero(np.diff(row, prepend=-1))
        scale = np.maximum(np.maximum.reduceat(np.abs(utilities), starts), 1e-300)
        floor = values.max(axis=1) - FLOAT_TIE * scale
        chosen = np.argmax(values >= floor[:, None], axis=1)
        self.stats.backward += count
        return values[np.arange(count), chosen], chosen.astype(np.int8)

    def evaluate(self, members: np.ndarray) -> None:
        """The masked members' values under the options they play: edges leaving the component
        give the right-hand side, those staying in it one sparse system (a block per
        component)."""
        import scipy.sparse as sp
        import scipy.sparse.linalg as spla

        count = int(members.sum())
        place = np.cumsum(members) - 1
        sides, links = [np.empty((0, self.solver.game.metrics))], []
        for first, part in self._parts():
            block = members[first:first + len(part.start) - 1]
            if block.any():
                found = self._played(first, part, block, place)
                sides.append(found[0])
                links.append(found[1:])
        rhs = np.concatenate(sides)
        row, column, probability = (np.concatenate(p) for p in zip(*links)) if links else \
            (np.empty(0, dtype=np.int64),) * 3
        if not len(row):
            values = rhs
        elif count <= DIRECT:
            matrix = sp.identity(count, format="csc") - sp.csc_matrix(
                (probability, (row, column)), shape=(count, count))
            values = spla.spsolve(matrix, rhs).reshape(count, -1)
        else:  # edges are in row order: the CSR layout at once
            start = np.concatenate([[0], np.cumsum(np.bincount(row, minlength=count))])
            del row
            values = np.ascontiguousarray(self.solver.values[:, self.positions[members]].T)
            self.stats.sweeps += _sweeps(start, column, probability, np.ascontiguousarray(rhs),
                                         values, SWEPT, MAX_SWEEPS)
        self.solver.values[:, self.positions[members]] = values.T
        self.stats.forward += count

    def _played(self, first: int, part: Edges, mask: np.ndarray, place: np.ndarray
                ) -> tuple[np.ndarray, ...]:
        """For one block's masked members, under the options they play: the right-hand side
        (edges leaving the component), and the edges staying in it (row and column among all
        masked members, probability)."""
        own = part.row
        played = mask[own] & (part.option == self.chosen[first:first + len(mask)][own])
        row = place[own[played] + first]
        target = self.inside[self.edges.start[first]:][:len(own)][played]
        probability = part.probability[played]
        out = target < 0
        terms = probability[out, None] * self.solver.rows(part.target[played][out])
        low = place[first + np.argmax(mask)]  # the block's first masked member
        count = int(mask.sum())
        rhs = np.column_stack([np.bincount(row[out] - low, terms[:, m], minlength=count)
                               for m in range(terms.shape[1])])
        loop = ~out & (probability != 0)
        return (rhs, row[loop], place[target[loop]].astype(np.int32), probability[loop])


@njit(cache=True, nogil=True)
def _sweeps(start: np.ndarray, index: np.ndarray, weight: np.ndarray, rhs: np.ndarray,
            values: np.ndarray, tolerance: float, most: int) -> int:
    """Gauss-Seidel on x = A x + rhs (A in CSR: start, index, weight; a row per member, a
    column per metric), in place from `values`, until no value moves by more than `tolerance`
    in a sweep (or `most` sweeps); how many sweeps it took."""
    rows, metrics = rhs.shape
    sums = np.empty(metrics)
    for sweep in range(most):
        change = 0.0
        for i in range(rows):
            for m in range(metrics):
                sums[m] = rhs[i, m]
            for e in range(start[i], start[i + 1]):
                j, w = index[e], weight[e]
                for m in range(metrics):
                    sums[m] += w * values[j, m]
            for m in range(metrics):
                change = max(change, abs(sums[m] - values[i, m]))
                values[i, m] = sums[m]
        if change <= tolerance:
            return sweep + 1
    return most
