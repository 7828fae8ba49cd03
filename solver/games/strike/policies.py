"""Ways to play Strike as values ("stop as soon as allowed", optimal for winning), a seat each,
and the exact chance each seat wins.

`StrikeDuel` is Strike where a seat may follow a fixed policy: its decisions become single-option
local models (a stop, a placement), so the engine values the game that policy makes; the other
seats best-respond (all optimal: the game of `strike game`). The simulator asks `Moves` for an
optimal seat's decision in a position, read off the solution's values.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from solver.engine.cyclic import Solution, solve
from solver.engine.local import Choices
from solver.errors import InputError
from solver.games.strike.model import MID, SETUP, Metrics, Strike
from solver.games.strike.rules import LABELS
from solver.games.strike.throws import Arena, canonical, representative

NEVER = 99  # a ThrowRule number that never holds (more dice than any game has)


@dataclass(frozen=True)
class ThrowRule:
    """When to throw again, as a few numbers a person remembers (issue 15): always with
    `arena` dice or more in the arena; with one die fewer, when the stocks (every seat's, the
    mover's too) hold `stocks` dice or more; with two fewer, when they hold `fewer` or more.
    On the last of those (two fewer if `fewer` is set, else one fewer) also only while every
    opponent still in holds `opponent` dice or more. The defaults never throw again: the
    "stop" policy."""

    arena: int = NEVER
    stocks: int = NEVER
    fewer: int = NEVER
    opponent: int = 0

    def throws_again(self, arena: int, stocks: Sequence[int], mover: int) -> bool:
        """The rule's decision mid-turn: `arena` dice showing, `stocks` by seat."""
        if arena >= self.arena:
            return True
        need = {self.arena - 1: self.stocks, self.arena - 2: self.fewer}.get(arena, NEVER)
        last = self.arena - (2 if self.fewer < NEVER else 1)
        if arena == last and min(s for seat, s in enumerate(stocks)
                                 if seat != mover and s) < self.opponent:
            return False
        return sum(stocks) >= need


@dataclass(frozen=True)
class StrikePolicy:
    """A seat's way to play, by its canonical name: "optimal" (the best response to the other
    seats; `rule` None) or a fixed rule for throwing again ("stop": stop after every throw
    that lets it), which places a new number at setup."""

    name: str
    rule: ThrowRule | None = None


STOP, OPTIMAL = StrikePolicy("stop", ThrowRule()), StrikePolicy("optimal")


def parse_policy(text: str) -> StrikePolicy:
    """"stop" (alias "stop as soon as allowed") or "optimal" (alias "win")."""
    words = " ".join(text.lower().split())
    if words in ("optimal", "win"):
        return OPTIMAL
    if words in ("stop", "stop as soon as allowed"):
        return STOP
    raise InputError(f"unknown Strike policy {text[:40]!r}: use \"stop\" (stop as soon as "
                     f"allowed) or \"optimal\"")


def stop_placement(arena: Arena) -> int:
    """The "stop" policy's setup placement: the lowest number not yet in the arena (a new
    number gives the first thrower no pair); with all five shown, the lowest number."""
    shown = set(representative(arena))
    return next((n for n in LABELS if n not in shown), LABELS[0])


@dataclass
class StrikeDuel(Strike):
    """Strike where seat i plays `policies[i]`: a rule (ThrowRule; "stop" is one) decides
    mid-turn by its numbers and places `stop_placement`; "optimal" seats best-respond to the
    others.

    Win scoring only. Beside each seat's P(win) (the objectives), the metrics carry the joint
    distribution of the game's outcome: P(seat w wins holding k dice in stock) (`Metrics.outcome`),
    which `verify strike` compares samples with (a finer outcome than the winner alone, so fewer
    games show a wrong simulator)."""

    policies: tuple[StrikePolicy, ...] = (OPTIMAL, OPTIMAL)
    outcomes: bool = True  # carry P(seat wins holding k dice) (verify's finer outcome)
    _fixed: dict[tuple, Choices] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if len(self.policies) != self.players:
            raise InputError(f"{len(self.policies)} policies for {self.players} players")
        if self.scoring != "win":
            raise InputError("policies are compared by their chance to win (win scoring)")
        # a winner holds 0..total dice; without outcomes, only each seat's P(win)
        self.layout = Metrics(self.players, stocks=self.total + 1 if self.outcomes else 0)

    def local(self, position: Hashable) -> Choices:
        mover, stocks, arena, phase, _ = position
        model = super().local(position)
        rule = self.policies[mover].rule
        if rule is None or phase not in (MID, SETUP):
            return model
        if phase == MID:  # option 0 is stopping (result 0 with certainty), 1 throwing again
            option = int(rule.throws_again(sum(arena), stocks, mover))
            key = (MID, option, model.n_results) if option == 0 else (MID, option, model)
        else:
            after = self.placements(arena)[1]
            option = after.index(canonical([*representative(arena), stop_placement(arena)]))
            key = (SETUP, arena)
        if key not in self._fixed:  # one object per kind, so the engine batches positions
            self._fixed[key] = Choices([[(r, p) for r, p in enumerate(model.exact[option])
                                         if p]], model.n_results)
        return self._fixed[key]


def solve_duel(game: StrikeDuel, exact: bool = False) -> Solution:
    return solve(game, game.start(), exact=exact)


def win_chances(game: StrikeDuel, solution: Solution) -> list:
    """Each seat's probability of winning from the start (exact when solved so)."""
    values = _start_values(game, solution)
    return [values[game.layout.win(seat)] for seat in range(game.players)]


def outcome_chances(game: StrikeDuel, solution: Solution) -> list:
    """P(seat w wins holding k dice) from the start, in the order of `Metrics.outcome`."""
    values = _start_values(game, solution)
    return [values[row] for row in game.layout.outcome_rows]


def _start_values(game: StrikeDuel, solution: Solution) -> list:
    start = game.start()
    if solution.exact is not None:
        return list(solution.exact_values(start))
    return [Fraction(float(v)) for v in solution.values(start)]


class Moves:
    """An optimal seat's decisions, read off a solution: the option its local model picks for
    the position's utilities (the engine's own first-best choice), cached per position."""

    def __init__(self, game: StrikeDuel, solution: Solution) -> None:
        self.game, self.solution = game, solution
        self.cache: dict[Hashable, int] = {}

    def option(self, position: Hashable) -> int:
        if position not in self.cache:
            local = self.game.local(position)
            utilities = self.solution.utilities(position)
            self.cache[position] = int(local.pick(np.atleast_2d(utilities))[0])
        return self.cache[position]

    def placement(self, position: Hashable, numbers: list[int]) -> int:
        """The number to place: the lowest one making the arena the solution chooses."""
        after = self.game.placements(position[2])[1][self.option(position)]
        return next(n for n in LABELS if canonical([*numbers, n]) == after)

    def throws_again(self, position: Hashable) -> bool:
        return self.option(position) != 0

