"""Solving Strike with the cyclic engine, plus a guard on the engine's exact pass.

The engine's exact pass (`solver.engine.cyclic._exact_component`) starts from the float values
and stops as soon as every member's own metric satisfies its equation. When the mover's value is
a number floats hold exactly (a mover certain to go out: -2 points, or P(win) 0), that happens
on the first pass, and the other seats' metrics keep their float approximations. `settle_exact`
re-checks every metric and re-solves the components where that happened; it can go once the
engine checks every metric.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction

from solver.engine.cyclic import MAX_ITERATIONS, Solution, components, solve
from solver.games.strike.rules import Strike


def solve_strike(game: Strike, start: Hashable, *, exact: bool = False,
                 progress: Callable[[int, int], None] | None = None) -> Solution:
    """Optimal play from `start` (float64 to the engine's tolerance, or exact rationals)."""
    solution = solve(game, start, exact=exact, progress=progress)
    if exact:
        settle_exact(solution)
    return solution


def settle_exact(solution: Solution) -> int:
    """Make the exact values satisfy every metric's equation under the exact best responses,
    component by component in solving order; returns how many linear solves that took."""
    graph, table = solution.graph, solution.exact
    solves = 0
    for group in components(graph):
        for component in group:
            for _ in range(MAX_ITERATIONS):
                policy = {p: _best_response(solution, p) for p in component}
                if all(_expected(table, succ, dist) == table[p]
                       for p, (succ, dist) in policy.items()):
                    break
                _evaluate(table, component, policy)
                solves += 1
            else:
                raise ArithmeticError("exact policy iteration did not settle")
    return solves


def _best_response(solution: Solution, p: int) -> tuple[list[int], list[Fraction]]:
    graph = solution.graph
    succ = graph.successors[p].tolist()
    metric = int(graph.objective[p])
    _, distribution = graph.locals[int(graph.local_of[p])].best_exact(
        [solution.exact[s][metric] for s in succ])
    return succ, distribution


def _expected(table: list[list[Fraction]], succ: list[int], dist: list[Fraction]
              ) -> list[Fraction]:
    row = [Fraction(0)] * len(table[succ[0]])
    for s, q in zip(succ, dist):
        if q:
            for m, v in enumerate(table[s]):
                row[m] += q * v
    return row


def _evaluate(table: list[list[Fraction]], component: list[int],
              policy: dict[int, tuple[list[int], list[Fraction]]]) -> None:
    """Solve V = P V + r over the component, every metric at once (Gauss-Jordan in Fractions;
    the game ends with probability 1, so I - P is invertible)."""
    slot = {p: k for k, p in enumerate(component)}
    n, metrics = len(component), len(table[component[0]])
    rows: list[list[Fraction]] = []
    for p in component:
        row = [Fraction(0)] * (n + metrics)
        row[slot[p]] += 1
        succ, dist = policy[p]
        for s, q in zip(succ, dist):
            if not q:
                continue
            if s in slot:
                row[slot[s]] -= q
            else:
                for m, v in enumerate(table[s]):
                    row[n + m] += q * v
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        scale = head[col]
        head[:] = [v / scale for v in head]
        for r in range(n):
            factor = rows[r][col]
            if r != col and factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], head)]
    for p in component:
        table[p] = rows[slot[p]][n:]
