"""Policy iteration over independent components: the loop both engines run (the cyclic engine's
`_GroupSolver`, the level engine's chunks), written once.

Each component's members play a policy. Evaluate it (the values of every metric under that
policy), check it (each member's best response to those values, against its value), and stop a
component once its Bellman residual is within the tolerance; else adopt the best responses and go
round again. A component whose policy repeats has movers whose best responses cycle (or
rounding does): the problem may then look for a mixed stationary equilibrium there
(`solver.engine.mixed`); if it finds none, the component stops at the residual it has. The
engines differ in how they respond and evaluate, which the `Problem` they pass supplies.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Protocol

import numpy as np

TOLERANCE = 1e-12
MAX_ITERATIONS = 100


class Problem(Protocol):
    """The components of one solve step, as the loop drives them. Masks are over members."""

    component: np.ndarray  # member -> its component
    loops: np.ndarray  # component -> some result of a member leads back into it

    def evaluate(self, members: np.ndarray) -> None:
        """Set the masked members' values (every metric) to those of the policy they play."""

    def check(self, members: np.ndarray) -> np.ndarray:
        """The masked members' best responses to the current values: |response - value| per
        masked member, the responses kept for `adopt`."""

    def adopt(self, members: np.ndarray) -> None:
        """Play the responses of the last check where masked."""

    def signature(self, component: int) -> bytes:
        """The policy a component plays, to tell when it repeats."""

    # Optional: `mix(component, tolerance)`, called when a component's policy repeats: play a
    # mixed equilibrium there if one is found (values set), returning its residual, else None.


def iterate(problem: Problem, tolerance: float = TOLERANCE) -> tuple[float, int]:
    """Iterate every component to a Bellman residual within `tolerance` (or until its policy
    repeats), from the policy the members play now; the largest residual left and the most
    iterations taken."""
    component, loops = problem.component, problem.loops
    active = np.ones(len(loops), dtype=bool)
    worst = np.zeros(len(loops))
    residual, iterations = 0.0, 0
    seen: defaultdict[int, set[bytes]] = defaultdict(set)  # component -> policies played
    while active.any() and iterations < MAX_ITERATIONS:
        iterations += 1
        problem.evaluate(active[component])
        active &= loops
        if not active.any():
            break
        running = active[component]
        worst = np.zeros(len(loops))
        np.maximum.at(worst, component[running], problem.check(running))
        settled = active & (worst <= tolerance)
        residual = max(residual, float(worst[settled].max(initial=0.0)))
        active &= ~settled
        if not active.any():
            break
        problem.adopt(active[component])
        for c in np.flatnonzero(active).tolist():
            signature = problem.signature(c)
            if signature in seen[c]:  # the policy repeats: mix, or stop at this residual
                active[c] = False
                mixed = problem.mix(c, tolerance) if hasattr(problem, "mix") else None
                residual = max(residual, float(worst[c]) if mixed is None else mixed)
            seen[c].add(signature)
    if active.any():  # out of iterations
        residual = max(residual, float(worst[active].max()))
    return residual, iterations
