"""Deliberately wrong Strike simulators: the corpus `verify strike` must reject (docs/verify.md).
Each plays the rules with one thing wrong that the exact model can state (a throw model or a
reading changed), so its exact outcomes come from the same solver."""

from __future__ import annotations

from fractions import Fraction

BUGS: dict[str, dict] = {
    "never-hit": {"hit": Fraction(0)},  # arena dice are never struck
    "always-hit": {"hit": Fraction(1)},  # every arena die is struck by every throw
    "struck-dice-leave": {"fly_out": Fraction(1)},  # a struck die leaves the arena
    "thrown-dice-miss": {"miss": Fraction(1, 6)},  # a thrown die misses the arena 1 time in 6
}
