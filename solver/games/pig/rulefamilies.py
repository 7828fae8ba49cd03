"""Pig rules a player can remember, searched with solver.rulesearch and valued against the
optimal player (the calibration of issue 15 against Neller and Presser's practical rule).

A rule says, for the two banked scores, the turn total at which to hold; a total that reaches
the goal is always held. Each family is a few integers:
- hold: hold at T;
- hold+end: hold at T, but once either score is G or more roll for the goal;
- pace: hold at B + round((their score - yours) / D);
- pace+end: the same, rolling for the goal once either score is G or more. Neller and Presser's
  "keep pace and end race" rule is this family's (G, B, D) = (71, 21, 8) to 100 (Neller and
  Presser, "Practical Play of the Dice Game Pig", The UMAP Journal 31(1), 2010, 5-19: "If either
  player's score is 71 or higher, roll for the goal. Otherwise, hold at 21 + round((j - i)/8)",
  i the player's score, j the opponent's. Only the paper's first page could be read here; the
  rule is as several independent implementations quote it from the paper, and the paper's own
  figures for it are not checked here);
- pace+ends: the same with one end-race score for your own score and one for theirs.
`round` rounds halves up (floor(x + 1/2), as Java's Math.round does; docs/rules.md, Pig
reading 3).

A rule is valued by its win probability against the optimal player (the policy of optimal
play, policies.hold_table of optimal against optimal, fixed), going first and going second,
with fixed.duel; the search maximises their mean (each seat half the time). Optimal play's own
mean is exactly 1/2, so the loss is 1/2 less the rule's mean; to 100 optimal play wins 0.5306
going first (Neller and Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1),
2004, 25-47).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.games.pig import fixed
from solver.rulesearch import Family, Found, frontier, search

SEED = 0  # the searches' seed (coordinate ascent's restarts)
PUBLISHED_RULE = ("pace+end", (71, 21, 8))  # Neller and Presser 2010, to 100
PAPER_HOLDS = (20, 25)  # the "hold at n" rules Neller and Presser 2010 compare it with


@dataclass(frozen=True)
class Shape:
    """A family of rules: its numbers' names and ranges (from the target), where the ascent
    starts, and the hold threshold it gives every pair of scores."""

    name: str
    numbers: tuple[str, ...]
    ranges: Callable[[int], tuple[range, ...]]
    start: Callable[[int], tuple[int, ...]]
    threshold: Callable[[tuple[int, ...], np.ndarray, np.ndarray, int], np.ndarray]

    def family(self, target: int) -> Family:
        return Family(self.name, self.ranges(target), self.start(target))


def _holds(target: int) -> range:
    return range(1, target // 2 + 1)


def _ends(target: int) -> range:
    """End-race scores; the target itself means never (no score below it reaches it)."""
    return range(target // 2, target + 1)


def pace(base: int, divisor: int, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """base + round((theirs - mine) / divisor), halves rounded up."""
    return base + (2 * (theirs - mine) + divisor) // (2 * divisor)


def _divisors(target: int) -> range:
    """Divisors of the score difference: 1 to 20, and no more than half the target."""
    return range(1, max(1, min(20, target // 2)) + 1)


def _scaled(target: int, *fractions: float) -> tuple[int, ...]:
    return tuple(max(1, round(f * target)) for f in fractions)


SHAPES = (
    Shape("hold", ("hold",), lambda t: (_holds(t),), lambda t: _scaled(t, 0.2),
          lambda n, mine, theirs, t: np.full(mine.shape, n[0])),
    Shape("hold+end", ("hold", "end"), lambda t: (_holds(t), _ends(t)),
          lambda t: _scaled(t, 0.2, 0.71),
          lambda n, mine, theirs, t: np.where(np.maximum(mine, theirs) >= n[1], t, n[0])),
    Shape("pace", ("base", "divisor"), lambda t: (_holds(t), _divisors(t)),
          lambda t: (*_scaled(t, 0.21), min(8, _divisors(t)[-1])),
          lambda n, mine, theirs, t: pace(n[0], n[1], mine, theirs)),
    Shape("pace+end", ("end", "base", "divisor"), lambda t: (_ends(t), _holds(t), _divisors(t)),
          lambda t: (*_scaled(t, 0.71, 0.21), min(8, _divisors(t)[-1])),
          lambda n, mine, theirs, t: np.where(np.maximum(mine, theirs) >= n[0], t,
                                              pace(n[1], n[2], mine, theirs))),
    Shape("pace+ends", ("end_mine", "end_theirs", "base", "divisor"),
          lambda t: (_ends(t), _ends(t), _holds(t), _divisors(t)),
          lambda t: (*_scaled(t, 0.71, 0.71, 0.21), min(8, _divisors(t)[-1])),
          lambda n, mine, theirs, t: np.where((mine >= n[0]) | (theirs >= n[1]), t,
                                              pace(n[2], n[3], mine, theirs))),
)
SHAPE = {shape.name: shape for shape in SHAPES}


@dataclass(frozen=True)
class Rule:
    """One member of a family, valued: its win probability against the optimal player going
    first and going second, and against itself going first."""

    shape: str
    numbers: tuple[int, ...]
    p_first: float
    p_second: float
    p_self: float

    @property
    def size(self) -> int:
        return len(self.numbers)

    @property
    def mean(self) -> float:
        return (self.p_first + self.p_second) / 2

    @property
    def loss(self) -> float:
        """Optimal play's mean (1/2) less the rule's."""
        return 0.5 - self.mean


class Judge:
    """Values rules to one target against the optimal player (solved once, on creation)."""

    def __init__(self, target: int) -> None:
        from solver.games.pig import policies as pp

        self.target = target
        duel = pp.PigDuel(target)
        solution = pp.solve_duel(duel)
        self.table = pp.hold_table(duel, solution, 0)  # hold[mine, theirs, total]
        self.optimal = fixed.table_play(self.table)
        self.optimal_first = float(pp.win_chances(duel, solution)[0])
        self.rows = fixed.threshold_turns(target)
        scores = np.arange(target)
        self.mine, self.theirs = np.meshgrid(scores, scores, indexing="ij")

    def turns(self, shape: str, numbers: tuple[int, ...]) -> np.ndarray:
        thresholds = SHAPE[shape].threshold(numbers, self.mine, self.theirs, self.target)
        return fixed.threshold_play(thresholds, self.rows)

    def against_optimal(self, shape: str, numbers: tuple[int, ...]) -> tuple[float, float]:
        first, second = fixed.duel(self.turns(shape, numbers), self.optimal)
        return float(first), float(second)

    def rule(self, shape: str, numbers: tuple[int, ...]) -> Rule:
        turns = self.turns(shape, numbers)
        first, second = fixed.duel(turns, self.optimal)
        return Rule(shape, tuple(numbers), float(first), float(second),
                    float(fixed.duel(turns, turns)[0]))


def searched(judge: Judge) -> list[tuple[Family, Found]]:
    """Every family's best member (by the mean of both seats against the optimal player)."""
    found = []
    for shape in SHAPES:
        family = shape.family(judge.target)
        found.append((family, search(family, lambda n, s=shape.name: sum(
            judge.against_optimal(s, n)) / 2, SEED)))
    return found


def learn(target: int) -> tuple[list[Rule], list[Rule], float]:
    """The frontier (the best rule of each size, each better than every smaller one), the
    calibration rules (Neller and Presser's and the holds they compare it with, to 100 only)
    and optimal play's first-seat win probability."""
    judge = Judge(target)
    best = [judge.rule(family.name, result.numbers)
            for family, result in frontier(searched(judge))]
    paper = []
    if target == 100:
        paper = [judge.rule(*PUBLISHED_RULE)] + [judge.rule("hold", (h,)) for h in PAPER_HOLDS]
    return best, paper, judge.optimal_first


# ---- the cost, the cache ---------------------------------------------------------------------
# Measured on the reference machine (2 cores shared): the search to 100 evaluates 8,411 rules
# (hold 50, hold+end 2,550, pace 1,000, pace+end 1,296, pace+ends 3,515) in 128 s of CPU, 15 ms a
# rule (fixed.duel), 340 s of wall time at load 8; estimated at 2e-8 s per position and banked
# total (21 ms a rule to 100) for EVALUATIONS rules, plus the optimal solve (cost.solve_cost).
SECONDS_PER_RESULT = 2e-8
EVALUATIONS = 9_000


def search_cost(target: int) -> tuple[float, float]:
    """(seconds, bytes) the optimal solve and the search are estimated to take."""
    from solver.games.pig.cost import solve_cost

    seconds, memory = solve_cost(target, [None, None], False)
    per_rule = SECONDS_PER_RESULT * target ** 2 * fixed.results(target)
    return seconds + EVALUATIONS * per_rule, memory


def learned(target: int, force: bool = False) -> tuple[list[Rule], list[Rule], float, bool]:
    """learn(target) from the disk cache when this very code found it before, else computed
    (refused first if estimated past the time budget unless forced); and whether cached."""
    from solver import cache
    from solver.limits import refuse

    key = {"game": "pig_rules", "target": target, "seed": SEED,
           "code": cache.code_hash(__name__)}
    stored = cache.load(key)
    if stored is not None:
        rows = [_from_row(row, numbers) for row, numbers in
                zip(stored["rules"].tolist(), stored["numbers"].tolist())]
        count = int(stored["frontier"])
        return rows[:count], rows[count:], float(stored["optimal_first"]), True
    refuse(f"the search for Pig rules to {target}", *search_cost(target), force)
    best, paper, optimal_first = learn(target)
    rows = best + paper
    width = max(r.size for r in rows)
    cache.store(key, {
        "rules": np.array([[SHAPES.index(SHAPE[r.shape]), r.p_first, r.p_second, r.p_self]
                           for r in rows]),
        "numbers": np.array([[*r.numbers] + [-1] * (width - r.size) for r in rows]),
        "frontier": np.array(len(best)), "optimal_first": np.array(optimal_first)})
    return best, paper, optimal_first, False


def _from_row(row: list[float], numbers: list[int]) -> Rule:
    return Rule(SHAPES[int(row[0])].name, tuple(n for n in numbers if n >= 0), *row[1:])
