"""The rule search on objectives whose best member is known by construction."""

from __future__ import annotations

from solver.rulesearch import Family, frontier, search


def peak(numbers: tuple[int, ...]) -> float:
    """A single peak at (3, 7, 2): concave, so coordinate ascent must reach it."""
    return -sum((n - c) ** 2 for n, c in zip(numbers, (3, 7, 2)))


def test_exhaustive_search_finds_the_peak() -> None:
    family = Family("small", (range(10), range(10), range(10)), (0, 0, 0))
    found = search(family, peak)
    assert found.numbers == (3, 7, 2) and found.value == 0 and found.evaluated == 1000


def test_coordinate_ascent_finds_the_peak_and_is_repeatable() -> None:
    family = Family("large", (range(40),) * 3, (20, 20, 20))
    first, second = search(family, peak, seed=5), search(family, peak, seed=5)
    assert first.numbers == (3, 7, 2) and first == second
    assert first.evaluated < family.members


def test_frontier_keeps_a_larger_rule_only_when_it_is_better() -> None:
    one = Family("one", (range(10),), (0,))
    two = Family("two", (range(10), range(10)), (0, 0))
    three = Family("three", (range(10),) * 3, (0, 0, 0))
    found = [(one, search(one, lambda n: -abs(n[0] - 3))),
             (two, search(two, lambda n: -abs(n[0] - 3))),  # a second number adds nothing
             (three, search(three, lambda n: 1 - abs(n[0] - 3)))]
    assert [family.name for family, _ in frontier(found)] == ["one", "three"]
