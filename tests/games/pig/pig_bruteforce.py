"""Pig written out again from Neller and Presser's equations, independently of the solver, for
the tests that check it (test_pig_bruteforce.py, test_pig_decisions.py)."""

from __future__ import annotations


def neller_values(target: int) -> dict[tuple[int, int, int], float]:
    """P(i, j, k): the mover's chance to win with score i, opponent j, turn total k, by value
    iteration over explicit states (Neller and Presser 2004, with their equations: hold gives
    1 - P(j, i + k, 0), rolling a 1 gives 1 - P(j, i, 0)). A turn starts with a roll."""
    states = [(i, j, k) for i in range(target) for j in range(target)
              for k in range(target - i)]
    p = dict.fromkeys(states, 0.5)
    while True:
        change = 0.0
        for i, j, k in states:
            roll = (1 - p[(j, i, 0)]) / 6
            for face in range(2, 7):
                roll += (1.0 if i + k + face >= target else p[(i, j, k + face)]) / 6
            new = roll if k == 0 else max(1 - p[(j, i + k, 0)], roll)
            change = max(change, abs(new - p[(i, j, k)]))
            p[(i, j, k)] = new
        if change < 1e-15:
            return p
