"""Which tool to use next, as a rule a player can learn: the family of plans (policies.ToolRule)
searched with solver.rulesearch over a fixed set of Adventures, each plan valued by the exact
recursion of policies.Plan (in floats while searching, as fractions for the rules reported),
against optimal play (solver.Solver, exact).

A rule's size is how many choices a player must remember beyond "re-roll only dice you do not
need, icons before Sonic, never discard": the order of icons and Sonic, keeping 3 tokens for a
face change, a count of empty slots that calls for discarding a Black die, aiming Sonic at the
colour most likely to show a missing symbol.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

from solver.formatting import exact_text
from solver.games.totd.files import load_game
from solver.games.totd.policies import Plan, ToolRule
from solver.games.totd.rules import Adventure
from solver.games.totd.typed import parse_pool, solo_adventure
from solver.rulesearch import Family, Found, frontier, search

# The Adventures a rule is judged on (Challenge, pool, Sonic tokens, re-roll icons, face-change
# icons): Challenges of 2 to 5 symbols, pools of 3 to 6 dice, Black only and mixed, with and
# without re-roll and face-change icons. Each counts the same.
SCENARIOS = (
    ("Science, Strength", "black=3", 2, (), ()),
    ("Science, Cunning, Tactics", "black=4", 3, (), ()),
    ("Running, Diplomacy, Strength", "black=3 green=1 red=1", 5, (), ()),
    ("Science x2, Cunning", "black=4", 3, ("2 black",), ()),
    ("Science x2, Cunning, Tactics", "black=4 blue=1", 2, ("any blue",), ()),
    ("Tactics x2, Strength", "black=3 red=2", 2, ("all red",), ()),
    ("Running x2, Diplomacy, Tactics", "black=4 green=2", 4, ("2 black",), ("green:Running",)),
    ("Running, Diplomacy, Tactics, Strength", "black=5", 5, ("1 black",), ()),
    ("Science, Cunning, Tactics, Diplomacy", "black=6", 3, ("2 black",), ("black:Science",)),
    ("Science x2, Cunning, Tactics, Diplomacy", "black=5 blue=1", 4, (), ()),
)
CHOICES = (  # (name, values): the numbers of a rule, each with its default first
    ("order", range(2)),  # 0: icons, then Sonic; 1: Sonic, then icons
    ("keep", range(2)),  # 1: keep 3 Sonic tokens for a face change
    ("discard", range(5)),  # k > 0: discard a Black die when k or more slots are empty
    ("aim", range(2)),  # 1: Sonic on the colour most likely to show a missing symbol
)


def adventures() -> list[Adventure]:
    game = load_game()
    return [solo_adventure(game, need, parse_pool(game, pool), sonic, rerolls, changes)
            for need, pool, sonic, rerolls, changes in SCENARIOS]


def tool_rule(choices: dict[str, int]) -> ToolRule:
    """The plan a rule's numbers (by name; the others at their defaults) describe."""
    return ToolRule(sonic_first=bool(choices.get("order", 0)), keep=bool(choices.get("keep", 0)),
                    discard_at=choices.get("discard", 0), aim=bool(choices.get("aim", 0)))


@cache
def value(rule: ToolRule, exact: bool = False) -> Fraction | float:
    """The rule's mean P(Challenge met) over the scenarios."""
    return sum((Plan(a, rule).success(exact) for a in adventures()),
               Fraction(0) if exact else 0.0) / len(SCENARIOS)


@cache
def optimal(exact: bool = True) -> Fraction | float:
    """Optimal play's mean P(Challenge met) over the scenarios."""
    from solver.games.totd.model import Solver

    mean = sum((Solver(a, exact=True).p_success() for a in adventures()),
               Fraction(0)) / len(SCENARIOS)
    return mean if exact else float(mean)


def families() -> list[Family]:
    """Every choice of the numbers a player remembers (1 to all of them)."""
    found = []
    for size in range(1, len(CHOICES) + 1):
        for chosen in combinations(CHOICES, size):
            found.append(Family("+".join(name for name, _ in chosen),
                                tuple(values for _, values in chosen), (0,) * size))
    return found


def choices_of(family: Family, numbers: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(family.name.split("+"), numbers))


@dataclass(frozen=True)
class Learned:
    """One rule of the frontier: its size, choices, plan, exact mean P and loss."""

    size: int
    choices: dict[str, int]
    rule: ToolRule
    value: Fraction
    loss: Fraction


SEED = 0  # the searches' seed (every family here is small enough to be searched exhaustively)
# `python benchmarks/bench_totd.py --cost` (totd rules with an empty cache): 55 s at load
# average 5 and 123 s at 8.5 on the reference machine (2 cores shared), peak 129 MiB; estimated
# above that, so a lower budget ($DICE_SOLVER_BUDGET) refuses it before it starts
SEARCH_SECONDS, SEARCH_BYTES = 240, 400 << 20


def learn() -> list[Learned]:
    """The frontier: the best rule of each size, its exact value and its loss, from the size
    of rule a player already knows (size 0: icons, then Sonic, never a discard)."""
    found: list[tuple[Family, Found]] = []
    for family in families():
        found.append((family, search(family, lambda n, f=family: value(
            tool_rule(choices_of(f, n))), SEED)))
    best = optimal()
    rows = [Learned(0, {}, ToolRule(), value(ToolRule(), True), best - value(ToolRule(), True))]
    for family, result in frontier(found):
        choices = choices_of(family, result.numbers)
        rule = tool_rule(choices)
        exact = value(rule, exact=True)
        if exact > rows[-1].value:
            rows.append(Learned(family.size, choices, rule, exact, best - exact))
    return rows


def learned() -> tuple[list[Learned], bool]:
    """The frontier from the disk cache when this very code found it before, else searched
    (refused first if estimated past the time budget: its size is fixed, so no --force; a
    larger $DICE_SOLVER_BUDGET lets it run); and whether it came from the cache."""
    from solver import cache
    from solver.limits import refuse

    key = {"game": "totd_tool_rules", "seed": SEED,
           "code": cache.code_hash(__name__)}
    stored = cache.load(key)
    if stored is not None:
        return [_from_row(choices, text) for choices, text in
                zip(stored["choices"].tolist(), stored["values"].tolist())], True
    refuse("the search for tool rules", SEARCH_SECONDS, SEARCH_BYTES, can_force=False)
    rows = learn()
    import numpy as np

    cache.store(key, {"choices": np.array([[r.choices.get(n, -1) for n, _ in CHOICES]
                                           for r in rows], dtype=np.int64),
                      "values": np.array([exact_text(r.value) for r in rows])})
    return rows, False


def _from_row(numbers: list[int], text: str) -> Learned:
    """A frontier row from the cache: the choices made (-1: left at the default)."""
    choices = {name: n for (name, _), n in zip(CHOICES, numbers) if n >= 0}
    exact = Fraction(text)
    return Learned(len(choices), choices, tool_rule(choices), exact, optimal() - exact)
