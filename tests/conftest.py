"""Shared fixtures for the tests."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

# Solved tables and built turns go to a fresh cache directory for the session (subprocesses
# inherit it): tests never read what an older version left, nor write into the user's cache.
os.environ["DICE_SOLVER_CACHE"] = tempfile.mkdtemp(prefix="dice-solver-tests-")
atexit.register(shutil.rmtree, os.environ["DICE_SOLVER_CACHE"], True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In CI (CI=true), tests marked slow (over 10 s from an empty cache) are skipped."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        skip = pytest.mark.skip(reason="slow (over 10 s from an empty cache): skipped in CI")
        for item in items:
            if "slow" in item.keywords:
                item.add_marker(skip)


# Strike's card game (2 players, 9 dice each): the best throw rule of each size, as the search
# found it (docs/results.md, "When to throw again"; docs/cards/strike-throw.png). The search itself
# takes 327 s of CPU, so the suite runs it on 3 dice (test_strike_rulefamilies.py) and checks these
# rules at 9 dice by their worth, recomputed, and against their neighbours.
STRIKE_CARD_FRONTIER = ({"arena": 2}, {"arena": 3, "stocks": 5},
                        {"arena": 3, "stocks": 5, "fewer": 13})


@pytest.fixture(scope="session")
def strike_frontier() -> list:
    """The card game's frontier in the session's cache, where `strike rules` and `strike card`
    read it (stored by `rulefamilies.learned` itself, its search replaced by these rules)."""
    from solver.games.strike import rulefamilies
    from solver.games.strike.policies import ThrowRule

    def found() -> list[rulefamilies.Learned]:
        rules = [ThrowRule(**numbers) for numbers in STRIKE_CARD_FRONTIER]
        return [rulefamilies.Learned(len(numbers), rule, rulefamilies.seat_values(rule),
                                     rulefamilies.value(rule))
                for numbers, rule in zip(STRIKE_CARD_FRONTIER, rules)]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rulefamilies, "learn", found)
        return rulefamilies.learned()[0]
