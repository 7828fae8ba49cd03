"""Dalek Dice duels: seats racing to the target, each with its policy (a fixed turn policy, or
"win": optimal for the win from every position), and the race solved for that play."""

from __future__ import annotations

from dataclasses import dataclass

from solver.engine.local import Choices
from solver.games.dalek.arrays import Pairs
from solver.games.dalek.policies import Policy, TurnPolicy, distribution
from solver.games.dalek.race import DalekRace, RaceValues
from solver.games.dalek.racesolve import solve_race


def race_local(policy: TurnPolicy) -> Choices:
    """A fixed turn policy as the race engine's local model: one option, its exact score
    distribution (a fixed policy plays the same turn whatever the position)."""
    exact = distribution(policy)
    return Choices([[(s, p) for s, p in enumerate(exact) if p]], policy.pairs.turn.graph.n_results)


@dataclass
class Duel:
    """Seats racing to the target, each with its policy, and the race solved for that play."""

    race: DalekRace
    values: RaceValues

    def chances(self) -> list[dict]:
        """Each seat's P(win alone), P(tie for first) and value (share of the win) from the
        start, float and (when solved so) exact."""
        return self.values.chances(self.race.start())


def solve_duel(pairs: Pairs, policies: tuple[Policy, ...], target: int, exact: bool = False,
               use_cache: bool = True, force: bool = False) -> Duel:
    """The race where seat i plays `policies[i]`. With every seat playing "win" this is the
    plain race (cached like `dalek game`); a fixed seat changes the game, so that solve is
    never read from or written to the cache. `force`: see `solve_race`."""
    locals_ = {seat: race_local(p) for seat, p in enumerate(policies)
               if isinstance(p, TurnPolicy)}
    race = DalekRace(pairs.turn, len(policies), target, seat_locals=locals_)
    values = solve_race(race, exact=exact, use_cache=use_cache and not locals_, force=force)
    return Duel(race, values)
