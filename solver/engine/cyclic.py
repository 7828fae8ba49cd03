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
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

import numpy as np

from solver.engine.local import Response

TOLERANCE = 1e-12
MAX_ITERATIONS = 100


class Local(Protocol):
    n_results: int
    batch: int  # how many utility vectors one call to `best` may take

    def best(self, utilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    def best_exact(self, utilities: Sequence[Fraction]) -> tuple[Fraction, list[Fraction]]: ...


@dataclass(frozen=True)
class Terminal:
    """The end of the game: one number per metric (exact numbers, converted for float solves)."""

    values: tuple


class CyclicGame(Protocol):
    metrics: int

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

    # Optional: `similar(position)` yields positions solved earlier whose policy is a likely
    # first guess for this one (a neighbouring score, say). It only affects speed.


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
    terminals: list[tuple]  # exact terminal payoffs

    @property
    def size(self) -> int:
        return len(self.positions)


def explore(game: CyclicGame, start: Hashable) -> GameGraph:
    """Breadth-first search from the start; terminals are deduplicated by their payoffs."""
    positions, index = [start], {start: 0}
    locals_: list[Local] = []
    local_ids: dict[int, int] = {}
    local_of, raw_successors, objective, progress = [], [], [], []
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
                     [t.values for t in terminals])


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
    """Values of every position for every metric, float64 and optionally exact."""

    graph: GameGraph
    table: np.ndarray  # (positions + terminals, metrics)
    exact: list[list[Fraction]] | None
    residual: float
    iterations: int
    components: int
    seconds: dict[str, float] = field(default_factory=dict)

    def values(self, position: Hashable) -> np.ndarray:
        return self.table[self.graph.index[position]]

    def exact_values(self, position: Hashable) -> list[Fraction]:
        if self.exact is None:
            raise ValueError("solved without exact values")
        return self.exact[self.graph.index[position]]

    def utilities(self, position: Hashable) -> np.ndarray:
        """The mover's value of each result of the position's local model."""
        p = self.graph.index[position]
        return self.table[self.graph.successors[p], self.graph.objective[p]]

    def exact_utilities(self, position: Hashable) -> list[Fraction]:
        p = self.graph.index[position]
        metric = int(self.graph.objective[p])
        return [self.exact[int(s)][metric] for s in self.graph.successors[p]]


def solve(game: CyclicGame, start: Hashable, *, exact: bool = False,
          tolerance: float = TOLERANCE, progress: Callable[[int, int], None] | None = None
          ) -> Solution:
    """Optimal values of every position reachable from `start`."""
    clock = time.perf_counter()
    graph = explore(game, start)
    explored = time.perf_counter()
    groups = components(graph)
    condensed = time.perf_counter()
    metrics = game.metrics
    table = np.zeros((graph.size + len(graph.terminals), metrics))
    table[graph.size:] = np.array([[float(v) for v in t] for t in graph.terminals]) \
        if graph.terminals else np.zeros((0, metrics))
    exact_table = None
    if exact:
        exact_table = [[Fraction(0)] * metrics for _ in range(graph.size)]
        exact_table += [[Fraction(v) for v in t] for t in graph.terminals]
    residual, iterations = 0.0, 0
    similar = getattr(game, "similar", None)
    policies: dict[int, np.ndarray] = {}  # solved position -> its result distribution
    for done, group in enumerate(groups):
        solver = _GroupSolver(graph, table, group)
        members = [p for component in group for p in component]
        guesses = {} if similar is None else _guesses(graph, similar, members, policies)
        group_residual, group_iterations = solver.run(tolerance, guesses)
        if similar is not None:
            policies.update(solver.policy)
        residual = max(residual, group_residual)
        iterations = max(iterations, group_iterations)
        if exact:
            for component in group:
                _exact_component(graph, table, exact_table, component)
        if progress is not None:
            progress(done + 1, len(groups))
    finished = time.perf_counter()
    seconds = {"explore": explored - clock, "components": condensed - explored,
               "solve": finished - condensed, "total": finished - clock}
    return Solution(graph, table, exact_table, residual, iterations,
                    sum(len(g) for g in groups), seconds)


def _guesses(graph: GameGraph, similar: Callable, members: list[int],
             policies: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """For each member, the policy of the first solved position the game calls similar that
    has the same local model (so the same results)."""
    guesses = {}
    for p in members:
        for other in similar(graph.positions[p]):
            q = graph.index.get(other)
            if q is not None and q in policies and graph.local_of[q] == graph.local_of[p]:
                guesses[p] = policies[q]
                break
    return guesses


class _GroupSolver:
    """Policy iteration over a group of independent components, in float64. Each component
    stops as soon as its own residual is small; passes batch the components still running."""

    def __init__(self, graph: GameGraph, table: np.ndarray, group: list[list[int]]) -> None:
        self.graph, self.table = graph, table
        self.components = [np.array(c, dtype=np.int64) for c in group]
        self.policy: dict[int, np.ndarray] = {}  # member -> result distribution it plays

    def run(self, tolerance: float, guesses: dict[int, np.ndarray]) -> tuple[float, int]:
        """Iterate every component to a Bellman residual below `tolerance` (or until its
        policy repeats); returns the largest residual and the most iterations taken."""
        loops = [self._loops(c) for c in self.components]
        members = np.concatenate(self.components)
        self.policy.update((p, guesses[p]) for c, looping in zip(self.components, loops)
                           if looping for p in c.tolist() if p in guesses)
        unknown = np.array([p for p in members.tolist() if p not in self.policy], np.int64)
        if len(unknown):  # a best response; for a component without loops it is final
            self._adopt(unknown, self._respond(unknown))
        active = list(range(len(self.components)))
        residual, iterations, seen = 0.0, 0, defaultdict(set)
        while active and iterations < MAX_ITERATIONS:
            iterations += 1
            running = np.concatenate([self.components[c] for c in active])
            self._evaluate(running)
            active = [c for c in active if loops[c]]
            if not active:
                break
            running = np.concatenate([self.components[c] for c in active])
            response = self._respond(running)
            gap = np.abs(response.values - self.table[running, self.graph.objective[running]])
            still, offset = [], 0
            for c in active:
                size = len(self.components[c])
                component_gap = float(gap[offset:offset + size].max())
                offset += size
                signature = b"".join(response.distribution_of(p).tobytes()
                                     for p in self.components[c].tolist()) \
                    if component_gap > tolerance else b""
                if component_gap <= tolerance or signature in seen[c]:
                    residual = max(residual, component_gap)  # settled (or only rounding left)
                    continue
                seen[c].add(signature)
                still.append(c)
            if still:
                moving = np.concatenate([self.components[c] for c in still])
                self._adopt(moving, response)
            active = still
        return residual, iterations

    def _loops(self, component: np.ndarray) -> bool:
        """Whether some result of a member leads back into the component."""
        inside = set(component.tolist())
        return any(s in inside for p in component.tolist()
                   for s in self.graph.successors[p].tolist())

    def _adopt(self, members: np.ndarray, response: _Responses) -> None:
        for p in members.tolist():
            self.policy[p] = response.distribution_of(p)

    def _respond(self, members: np.ndarray) -> _Responses:
        """The members' best responses to the current table, batched by local model."""
        responses = _Responses(members)
        by_local: dict[int, list[int]] = defaultdict(list)
        for k, p in enumerate(members.tolist()):
            by_local[int(self.graph.local_of[p])].append(k)
        for local_id in sorted(by_local):
            rows = np.array(by_local[local_id], dtype=np.int64)
            local = self.graph.locals[local_id]
            chosen = members[rows]
            succ = np.stack([self.graph.successors[p] for p in chosen.tolist()])
            utilities = self.table[succ, self.graph.objective[chosen][:, None]]
            for i in range(0, len(rows), local.batch):
                responses.add(rows[i:i + local.batch],
                              local.respond(utilities[i:i + local.batch]))
        return responses

    def _evaluate(self, members: np.ndarray) -> None:
        """Set the members' values (all metrics) to those of their current policies."""
        import scipy.sparse as sp  # here, not at the top: a cold start pays only when solving
        import scipy.sparse.linalg as spla

        n = len(members)
        slot = {p: k for k, p in enumerate(members.tolist())}
        rhs = np.zeros((n, self.table.shape[1]))
        rows_, cols_, vals_ = [], [], []
        for k, p in enumerate(members.tolist()):
            succ, dist = self.graph.successors[p], self.policy[p]
            inside = np.array([s in slot for s in succ.tolist()])
            rhs[k] = np.where(inside, 0.0, dist) @ self.table[succ]
            loops = np.flatnonzero(inside & (dist != 0))
            rows_.extend([k] * len(loops))
            cols_.extend(slot[int(s)] for s in succ[loops])
            vals_.extend(dist[loops].tolist())
        if not rows_:
            self.table[members] = rhs
            return
        matrix = sp.identity(n, format="csr") - sp.csr_matrix((vals_, (rows_, cols_)),
                                                              shape=(n, n))
        self.table[members] = spla.spsolve(matrix.tocsc(), rhs).reshape(n, -1)


class _Responses:
    """Best responses of some members: values at once, each member's distribution on demand
    (one forward pass per batch that is asked)."""

    def __init__(self, members: np.ndarray) -> None:
        self.index = {p: k for k, p in enumerate(members.tolist())}
        self.values = np.empty(len(members))
        self.where: dict[int, tuple[int, int]] = {}  # row -> (batch, column)
        self.batches: list[Response] = []
        self.computed: dict[int, np.ndarray] = {}

    def add(self, rows: np.ndarray, response: Response) -> None:
        self.values[rows] = response.values
        for column, row in enumerate(rows.tolist()):
            self.where[row] = (len(self.batches), column)
        self.batches.append(response)

    def distribution_of(self, member: int) -> np.ndarray:
        batch, column = self.where[self.index[member]]
        if batch not in self.computed:
            self.computed[batch] = self.batches[batch].distributions()
        return self.computed[batch][column]


def _exact_component(graph: GameGraph, floats: np.ndarray, table: list[list[Fraction]],
                     component: list[int]) -> None:
    """Exact policy iteration on one component, started from the float values (so the first
    best response is the float policy, up to near-ties that exact comparison settles)."""
    import sympy

    slot = {p: k for k, p in enumerate(component)}
    for p in component:
        table[p] = [Fraction(float(v)) for v in floats[p]]
    for _ in range(MAX_ITERATIONS):
        responses = []
        stable = True
        for p in component:
            metric = int(graph.objective[p])
            succ = graph.successors[p].tolist()
            value, distribution = graph.locals[int(graph.local_of[p])].best_exact(
                [table[s][metric] for s in succ])
            responses.append((succ, distribution))
            stable &= value == table[p][metric]
        if stable:
            return
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
