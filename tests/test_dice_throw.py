"""Seeded throws of a die (solver.dice.throw): counts and face weights."""

from __future__ import annotations

import numpy as np
from intervals import Z

from solver.dice import Die, generator, throw


def test_throw_counts_and_weights() -> None:
    die = Die.parse("test", "A B:2 C")
    dice = np.array([0, 1, 5, 10] * 25_000)
    counts = throw(generator(3), die, dice)
    assert np.array_equal(counts.sum(axis=1), dice)
    shares = counts.sum(axis=0) / dice.sum()
    expected = np.array([1, 2, 1]) / 4
    assert np.all(np.abs(shares - expected) < Z * np.sqrt(expected * (1 - expected) /
                                                          dice.sum()))
