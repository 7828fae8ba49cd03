"""The cyclic-game engine: exact optimal play for games whose positions can repeat.

A game is positions, each with a mover, a local model of the mover's decision (a compiled turn or
explicit options) whose results lead to other positions or to terminal payoffs. A turn that
changes nothing passes the move, so positions form cycles. The engine builds the position graph
with networkx, condenses it into strongly connected components, and solves components from the
end of the game backwards; components of equal height (longest path to the end) are independent
and are solved together, so one batched local pass serves all of them.

Within components: policy iteration. Fix each position's best response to the current values,
solve the linear system of that policy (all metrics at once), repeat until the Bellman residual is
below the tolerance. Exact mode then repeats the iteration in rationals from the float solution,
solving each component's system with sympy, until the policy is stable and the Bellman equations
hold exactly.

Values are "metrics": each player's objective, and any other quantity worth reporting under the
same play (P(win alone), P(tie), ...). Each mover maximises its own objective metric.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from solver.engine import mixed
from solver.engine.iteration import MAX_ITERATIONS, TOLERANCE, iterate
from solver.engine.local import Response
from solver.engine.mixed import Mixed
from solver.errors import InputError


class Local(Protocol):
    """The mover's decision at a position, as the engine calls it (`solver.engine.local` has
    the two kinds: a compiled turn and explicit options)."""

    n_results: int
    batch: int  # how many utility vectors one call to `respond` may take

    def respond(self, utilities: np.ndarray, secondary: np.ndarray | None = None) -> Response:
        """Best responses to a batch of utility vectors (batch, results): their values at once,
        their result distributions when asked. Ties go to the option best for `secondary`
        (a utility vector per row, when given), then to the first."""

    def best_exact(self, utilities: Sequence[Fraction]) -> tuple[Fraction, list[Fraction]]:
        """The exact best value and result distribution for one utility vector (same ties)."""


@dataclass(frozen=True)
class Terminal:
    """The end of the game: one number per metric (exact numbers, converted for float solves)."""

    values: tuple[Any, ...]


class CyclicGame(Protocol):
    """A game as the engine sees it: positions (hashable), each with a mover who maximises one
    metric through a local decision whose results lead to positions or terminal payoffs."""

    metrics: int  # how many numbers each position's value has (the game names them)

    def start(self) -> Hashable:
        """Where the game begins: `solve` explores from here unless told otherwise."""

    def objective(self, position: Hashable) -> int:
        """The metric the mover of this position maximises."""

    def local(self, position: Hashable) -> Local:
        """The mover's decision here. Positions sharing one object are batched together."""

    def successors(self, position: Hashable) -> Sequence[Hashable | Terminal]:
        """Where each result of the local model leads. Return the same Terminal object for the
        same payoff: terminals are told apart by identity, which keeps exploration fast."""

    def progress(self, position: Hashable) -> int:
        """A number that never decreases from a position to its successors (the score sum, say).
        Successors of higher progress cannot be on a cycle through the position, so the
        component search only needs the edges within one progress level. Checked."""

    # Optional: `similar(position)` yields positions, solved earlier, whose values are a good
    # first guess for this one's (a neighbouring score, say). It only affects speed.
    # Optional: `tie_metric(position)`, a metric the mover's ties are broken by (the highest
    # wins; None: the first option), consulted only among options equal for the objective.


@dataclass
class GameGraph:
    """Every position reachable from the start, with successors as rows of one value table:
    positions first (0..P-1), then terminals (P..P+T-1)."""

    positions: list[Hashable]
    index: dict[Hashable, int]
    progress: np.ndarray  # position -> the game's progress measure
    locals: list[Local]
    local_of: np.ndarray  # position -> index into locals
    successors: list[np.ndarray]  # position -> table row of each result
    objective: np.ndarray  # position -> metric maximised by its mover
    terminals: list[tuple[Any, ...]]  # exact terminal payoffs
    tie_metric: np.ndarray | None = None  # position -> metric its mover's ties go by

    @property
    def size(self) -> int:
        return len(self.positions)


def explore(game: CyclicGame, start: Hashable) -> GameGraph:
    """Breadth-first search from the start; terminals are deduplicated by their payoffs."""
    positions, index = [start], {start: 0}
    locals_: list[Local] = []
    local_ids: dict[int, int] = {}
    local_of, raw_successors, objective, progress, tie = [], [], [], [], []
    tie_metric = getattr(game, "tie_metric", None)
    terminal_ids: dict[int, int] = {}  # id(Terminal) -> terminal number
    terminals: list[Terminal] = []  # keeps every Terminal alive, so ids stay unique
    queue = deque([start])
    while queue:
        position = queue.popleft()
        local = game.local(position)
        local_of.append(local_ids.setdefault(id(local), len(locals_)))
        if local_of[-1] == len(locals_):
            locals_.append(local)
        objective.append(game.objective(position))
        tie.append(None if tie_metric is None else tie_metric(position))
        progress.append(game.progress(position))
        row = []
        for successor in game.successors(position):
            if type(successor) is Terminal:
                number = terminal_ids.get(id(successor))
                if number is None:
                    number = terminal_ids[id(successor)] = len(terminals)
                    terminals.append(successor)
                row.append(-1 - number)
                continue
            number = index.get(successor)
            if number is None:
                number = index[successor] = len(positions)
                positions.append(successor)
                queue.append(successor)
            row.append(number)
        if len(row) != local.n_results:
            raise ValueError(f"{position}: {len(row)} successors for {local.n_results} results")
        raw_successors.append(row)
    size = len(positions)
    successors = [np.array([s if s >= 0 else size - 1 - s for s in row], dtype=np.int64)
                  for row in raw_successors]
    return GameGraph(positions, index, np.array(progress, dtype=np.int64), locals_,
                     np.array(local_of), successors, np.array(objective, dtype=np.int64),
                     [t.values for t in terminals],
                     None if all(t is None for t in tie) else np.array(tie, dtype=np.int64))


def components(graph: GameGraph) -> list[list[list[int]]]:
    """Strongly connected components in groups that can be solved together, in solving order.

    The networkx graph holds every position and every edge within a progress level (edges that
    raise the progress cannot close a cycle). Levels are solved from the highest progress down;
    within a level, the condensation's topological generations from the last one back: the
    components of one generation do not depend on each other."""
    import networkx as nx  # here, not at the top: importing it is a large part of a cold start
    digraph = nx.DiGraph()
    digraph.add_nodes_from(range(graph.size))
    for p, row in enumerate(graph.successors):
        targets = np.unique(row[row < graph.size])
        rise = graph.progress[targets] - graph.progress[p]
        if np.any(rise < 0):
            q = int(targets[np.argmax(rise < 0)])
            raise ValueError(f"progress falls from {graph.positions[p]} to {graph.positions[q]}")
        digraph.add_edges_from((p, int(s)) for s in targets[rise == 0])
    condensed = nx.condensation(digraph)
    groups: dict[tuple[int, int], list[list[int]]] = defaultdict(list)
    for generation, nodes in enumerate(nx.topological_generations(condensed)):
        for c in nodes:
            members = sorted(condensed.nodes[c]["members"])
            groups[(-int(graph.progress[members[0]]), -generation)].append(members)
    return [sorted(groups[key]) for key in sorted(groups)]


@dataclass
class Solution:
    """Values of every position for every metric, float64 and optionally exact (a
    `solver.engine.solution.SolvedGame`)."""

    graph: GameGraph
    table: np.ndarray  # (positions + terminals, metrics)
    exact: list[list[Fraction]] | None
    residual: float
    iterations: int
    components: int
    seconds: dict[str, float] = field(default_factory=dict)
    mixed: list[tuple[list[Hashable], Mixed]] = field(default_factory=list)  # components where
    # pure best responses cycled and a mixed equilibrium is played: positions, the mix
    cached = False  # the cyclic engine's solves are not cached whole

    @property
    def size(self) -> int:
        return self.graph.size

    def __contains__(self, position: object) -> bool:
        return position in self.graph.index

    def positions(self) -> Iterator[Hashable]:
        return iter(self.graph.positions)

    def local(self, position: Hashable) -> Local:
        return self.graph.locals[int(self.graph.local_of[self.graph.index[position]])]

    def values(self, position: Hashable) -> np.ndarray:
        return self.table[self.graph.index[position]]

    def exact_values(self, position: Hashable) -> list[Fraction]:
        return self._exact()[self.graph.index[position]]

    def utilities(self, position: Hashable) -> np.ndarray:
        """The mover's value of each result of the position's local model."""
        p = self.graph.index[position]
        return self.table[self.graph.successors[p], self.graph.objective[p]]

    def exact_utilities(self, position: Hashable) -> list[Fraction]:
        p = self.graph.index[position]
        metric = int(self.graph.objective[p])
        exact = self._exact()
        return [exact[int(s)][metric] for s in self.graph.successors[p]]

    def _exact(self) -> list[list[Fraction]]:
        if self.exact is None:
            raise ValueError("solved without exact values")
        return self.exact


def solve(game: CyclicGame, start: Hashable | None = None, *, exact: bool = False,
          tolerance: float = TOLERANCE, progress: Callable[[int, int], None] | None = None
          ) -> Solution:
    """Optimal values of every position reachable from `start` (the game's start by default)."""
    clock = time.perf_counter()
    graph = explore(game, game.start() if start is None else start)
    if exact and graph.tie_metric is not None:
        raise ValueError("exact solves break ties by the first option only")
    explored = time.perf_counter()
    groups = components(graph)
    condensed = time.perf_counter()
    sweep = _Sweep(graph, game.metrics, exact, getattr(game, "similar", None))
    for done, group in enumerate(groups):
        sweep.solve(group, tolerance)
        if progress is not None:
            progress(done + 1, len(groups))
    finished = time.perf_counter()
    seconds = {"explore": explored - clock, "components": condensed - explored,
               "solve": finished - condensed, "total": finished - clock}
    return Solution(graph, sweep.table, sweep.exact_table, sweep.residual, sweep.iterations,
                    sum(len(g) for g in groups), seconds, sweep.mixes)


class _Sweep:
    """The groups of components solved in order, each reading the values of those before:
    the value tables (terminals' rows filled in), what is solved so far, and the largest
    residual and iteration count met."""

    def __init__(self, graph: GameGraph, metrics: int, exact: bool,
                 similar: Callable[[Any], Iterable[Any]] | None) -> None:
        self.graph, self.similar = graph, similar
        self.table = np.zeros((graph.size + len(graph.terminals), metrics))
        self.table[graph.size:] = np.array([[float(v) for v in t] for t in graph.terminals]) \
            if graph.terminals else np.zeros((0, metrics))
        self.exact_table: list[list[Fraction]] | None = None
        if exact:
            self.exact_table = [[Fraction(0)] * metrics for _ in range(graph.size)]
            self.exact_table += [[Fraction(v) for v in t] for t in graph.terminals]
        self.residual, self.iterations = 0.0, 0
        self.solved = np.zeros(graph.size, dtype=bool)
        self.slot = np.full(len(self.table), -1, dtype=np.int64)  # scratch: place in a group
        self.memo: dict[tuple[Any, ...], tuple[float, Any]] = {}
        self.mixes: list[tuple[list[Hashable], Mixed]] = []

    def solve(self, group: list[list[int]], tolerance: float) -> None:
        """Solve one group in float64 (then exactly, when asked), from its similar positions'
        values where the game names them."""
        graph, table = self.graph, self.table
        solver = _GroupSolver(graph, table, group, self.slot, self.memo)
        members = [p for component in group for p in component]
        if self.similar is not None:  # start from the values of similar positions solved earlier
            for p, q in _guesses(graph, self.similar, members, self.solved).items():
                table[p] = table[q]
        group_residual, group_iterations = solver.run(tolerance)
        self.solved[members] = True
        self.residual = max(self.residual, group_residual)
        self.iterations = max(self.iterations, group_iterations)
        self.mixes += [([graph.positions[p] for p in members.tolist()], found)
                       for members, found in solver.mixes]
        if self.exact_table is None:
            return
        if solver.mixes:
            raise InputError(f"exact rationals cannot value this game: pure best responses "
                             f"cycle at {self.mixes[-1][0][0]}, where play mixes, and mixed "
                             f"play is solved in float64 only (solve without --exact)")
        for component in group:
            _exact_component(graph, table, self.exact_table, component)


def _guesses(graph: GameGraph, similar: Callable[[Any], Iterable[Any]], members: list[int],
             solved: np.ndarray) -> dict[int, int]:
    """For each member, the first solved position the game calls similar."""
    guesses = {}
    for p in members:
        for other in similar(graph.positions[p]):
            q = graph.index.get(other)
            if q is not None and solved[q]:
                guesses[p] = q
                break
    return guesses


@dataclass
class _Batch:
    """Members sharing one local model: their successors and the policies they play."""

    local: Local
    rows: np.ndarray  # member indices
    successors: np.ndarray  # (rows, results) table rows
    policy: np.ndarray  # (rows, results) result distribution played; NaN while unknown


class _GroupSolver:
    """Policy iteration over a group of independent components, in float64. Each component
    stops as soon as its own residual is small; passes batch the components still running."""

    def __init__(self, graph: GameGraph, table: np.ndarray, group: list[list[int]],
                 slot: np.ndarray, memo: dict[tuple[Any, ...], tuple[float, Any]]) -> None:
        self.graph, self.table, self.slot = graph, table, slot  # slot: all -1 between uses
        self.memo = memo  # (local, utilities) -> (value, distribution) of a best response
        self.members = np.array([p for component in group for p in component], dtype=np.int64)
        self.component = np.repeat(np.arange(len(group)), [len(c) for c in group])
        self.objective = graph.objective[self.members]
        self.tie_metric = None if graph.tie_metric is None else graph.tie_metric[self.members]
        self.mixes: list[tuple[np.ndarray, Mixed]] = []  # (members, mix) where play mixes
        by_local: dict[int, list[int]] = defaultdict(list)
        for k, p in enumerate(self.members.tolist()):
            by_local[int(graph.local_of[p])].append(k)
        self.batches: list[_Batch] = []
        self.where = np.empty((len(self.members), 2), dtype=np.int64)  # member -> batch, row
        for local_id in sorted(by_local):
            rows = np.array(by_local[local_id], dtype=np.int64)
            succ = np.stack([graph.successors[p] for p in self.members[rows].tolist()])
            self.where[rows] = np.column_stack([np.full(len(rows), len(self.batches)),
                                                np.arange(len(rows))])
            self.batches.append(_Batch(graph.locals[local_id], rows, succ,
                                       np.full(succ.shape, np.nan)))
        slot[self.members] = 0
        self.loops = np.zeros(len(group), dtype=bool)  # some result leads back inside
        for batch in self.batches:
            inside = (slot[batch.successors] >= 0).any(axis=1)
            self.loops[self.component[batch.rows[inside]]] = True
        slot[self.members] = -1

    def run(self, tolerance: float) -> tuple[float, int]:
        """Iterate every component to a Bellman residual below `tolerance` (or until its
        policy repeats: `iteration.iterate`), from a best response to the table as it is (so
        good starting values in the members' rows save iterations); returns the largest
        residual and the most iterations taken."""
        everyone = np.ones(len(self.members), dtype=bool)
        self._adopt(everyone, self._respond(everyone, adopt=True))  # final where no loop
        return iterate(self, tolerance)

    # ---- what `iteration.iterate` calls -------------------------------------------------------
    def evaluate(self, members: np.ndarray) -> None:
        self._evaluate(members)

    def check(self, members: np.ndarray) -> np.ndarray:
        self.response = self._respond(members)
        return np.abs(self.response.values[members] - self.table[self.members[members],
                                                                 self.objective[members]])

    def adopt(self, members: np.ndarray) -> None:
        self._adopt(members, self.response)

    def signature(self, component: int) -> bytes:
        return b"".join(self._row(k).tobytes()
                        for k in np.flatnonzero(self.component == component).tolist())

    def mix(self, component: int, tolerance: float) -> float | None:
        """Where the component's pure best responses cycle: a mixed equilibrium from the
        policies its dynamics visit (`mixed.mix`); if found, its distributions are played,
        its values set and the mix recorded; its residual, or None."""
        ks = np.flatnonzero(self.component == component)
        members = self.members[ks]
        successors = np.stack([self.graph.successors[p] for p in members.tolist()])
        place = np.searchsorted(members, successors).clip(0, len(members) - 1)
        inside = np.where(members[place] == successors, place, -1)
        view = mixed.Component(inside, self.table[successors], self.objective[ks])
        locals_ = [self.graph.locals[int(self.graph.local_of[p])] for p in members.tolist()]

        def respond(utilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            answers = [local.respond(row[None, :]) for local, row in zip(locals_, utilities)]
            return (np.array([a.values[0] for a in answers]),
                    np.vstack([a.distributions()[:1] for a in answers]))

        found = mixed.mix(view, np.stack([self._row(k) for k in ks.tolist()]), respond,
                          tolerance)
        if found is None:
            return None
        for k, row in zip(ks.tolist(), found.policies):
            self._row(k)[:] = row
        self.table[members] = found.values
        self.mixes.append((members, found))
        return found.residual

    def _row(self, k: int) -> np.ndarray:
        batch, row = self.where[k]
        return self.batches[batch].policy[row]

    def _respond(self, mask: np.ndarray, adopt: bool = False) -> _Responses:
        """The masked members' best responses to the current table, batched by local model.
        Members facing the same utilities (common near the end of a game) share one answer,
        also with members of groups solved before (`memo`). A response's distribution costs a
        second pass, so it waits until the response is adopted; with `adopt` (every response
        will be) it is taken at once, which lets the pass's choices go: holding them for a
        whole group took gigabytes in the 3- and 4-player final rounds."""
        responses = _Responses(len(self.members))
        for batch in self.batches:
            chosen = np.flatnonzero(mask[batch.rows])
            utilities = self.table[batch.successors[chosen],
                                   self.objective[batch.rows[chosen]][:, None]]
            secondary = None if self.tie_metric is None else self.table[
                batch.successors[chosen], self.tie_metric[batch.rows[chosen]][:, None]]
            keys = [(id(batch.local), row.tobytes()) for row in (
                utilities if secondary is None else np.hstack([utilities, secondary]))]
            missing: dict[tuple[Any, ...], int] = {}
            for key, row in zip(keys, range(len(keys))):
                if key not in self.memo and key not in missing:
                    missing[key] = row
            fresh = list(missing.values())
            for i in range(0, len(fresh), batch.local.batch):
                part = fresh[i:i + batch.local.batch]
                response = batch.local.respond(
                    utilities[part], None if secondary is None else secondary[part])
                if adopt:
                    response.distributions()
                for column, row in enumerate(part):
                    responses.pending[keys[row]] = (response, column)
            for k, key in zip(batch.rows[chosen].tolist(), keys):
                responses.keys[k] = key
                responses.values[k] = (self.memo[key][0] if key in self.memo else
                                       responses.pending[key][0].values[
                                           responses.pending[key][1]])
        return responses

    def _adopt(self, mask: np.ndarray, responses: _Responses) -> None:
        """Play the responses' distributions where `mask` says (forward passes only there)."""
        for k in np.flatnonzero(mask).tolist():
            key = responses.keys[k]
            if key not in self.memo:
                response, column = responses.pending[key]
                self.memo[key] = (float(response.values[column]),
                                  response.distributions()[column])
            batch, row = self.where[k]
            self.batches[batch].policy[row] = self.memo[key][1]

    def _evaluate(self, mask: np.ndarray) -> None:
        """Set the masked members' values (all metrics) to those of their current policies."""
        import scipy.sparse as sp  # here, not at the top: a cold start pays only when solving
        import scipy.sparse.linalg as spla

        members = self.members[mask]
        n = len(members)
        self.slot[members] = np.arange(n)
        rhs = np.zeros((n, self.table.shape[1]))
        rows_, cols_, vals_ = [], [], []
        for batch in self.batches:
            chosen = mask[batch.rows]
            succ, dist = batch.successors[chosen], batch.policy[chosen]
            here = self.slot[self.members[batch.rows[chosen]]]
            inside = self.slot[succ] >= 0
            rhs[here] = np.einsum("nr,nrm->nm", np.where(inside, 0.0, dist), self.table[succ])
            r, c = np.nonzero(inside & (dist != 0))
            rows_.append(here[r])
            cols_.append(self.slot[succ[r, c]])
            vals_.append(dist[r, c])
        self.slot[members] = -1
        loops = np.concatenate(vals_) if vals_ else np.empty(0)
        if not len(loops):
            self.table[members] = rhs
            return
        matrix = sp.identity(n, format="csr") - sp.csr_matrix(
            (loops, (np.concatenate(rows_), np.concatenate(cols_))), shape=(n, n))
        self.table[members] = spla.spsolve(matrix.tocsc(), rhs).reshape(n, -1)


@dataclass
class _Responses:
    """Best responses of some members: values at once, distributions only when adopted."""

    values: np.ndarray  # per member (NaN where not asked)
    keys: dict[int, tuple[Any, ...]]  # member -> (local, utilities) key
    pending: dict[tuple[Any, ...], tuple[Response, int]]  # key -> a response not yet in the memo

    def __init__(self, members: int) -> None:
        self.values = np.full(members, np.nan)
        self.keys, self.pending = {}, {}


def _exact_component(graph: GameGraph, floats: np.ndarray, table: list[list[Fraction]],
                     component: list[int]) -> None:
    """Exact policy iteration on one component, started from the float values (so the first
    best response is the float policy, up to near-ties that exact comparison settles). It stops
    when the best responses to the exact values are the policy those values were solved for:
    then every metric, not only each mover's own, satisfies its equation exactly."""
    import sympy

    for p in component:
        table[p] = [Fraction(float(v)) for v in floats[p]]
    slot = {p: k for k, p in enumerate(component)}
    played: list[list[Fraction]] | None = None
    for _ in range(MAX_ITERATIONS):
        responses = []
        for p in component:
            metric = int(graph.objective[p])
            succ = graph.successors[p].tolist()
            _, distribution = graph.locals[int(graph.local_of[p])].best_exact(
                [table[s][metric] for s in succ])
            responses.append((succ, distribution))
        policy = [distribution for _, distribution in responses]
        if policy == played:
            return
        played = policy
        n, metrics = len(component), len(table[component[0]])
        matrix = sympy.eye(n)
        rhs = sympy.zeros(n, metrics)
        for k, (succ, distribution) in enumerate(responses):
            for s, probability in zip(succ, distribution):
                if not probability:
                    continue
                if s in slot:
                    matrix[k, slot[s]] -= sympy.Rational(probability.numerator,
                                                         probability.denominator)
                else:
                    for m in range(metrics):
                        term = probability * table[s][m]
                        rhs[k, m] += sympy.Rational(term.numerator, term.denominator)
        solution = matrix.LUsolve(rhs)
        for k, p in enumerate(component):
            table[p] = [Fraction(int(v.p), int(v.q)) for v in solution[k, :]]
    raise ArithmeticError("exact policy iteration did not settle")
