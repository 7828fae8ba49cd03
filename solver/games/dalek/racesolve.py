"""The Dalek Dice race solved on either engine (the cyclic one, exact or float64; the level
one, float64), its float solve read from the values shipped with the package (shipped.py) when
they answer exactly this race, else read from and written to the disk cache under `cache_key`.
Apart from race.py, which defines the race, so that the level engine's adapter (levels.py) can
import the race without the race importing it back."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solver.engine.solving import Solving
from solver.errors import InputError
from solver.games.dalek.cost import check_race
from solver.games.dalek.race import DalekRace, Position, RaceValues, mixed_rows, race_key


def cache_key(race: DalekRace, engine: str = "cyclic") -> dict:
    """What a cached solve of this race answers: the race (`race.race_key`) and the code that
    solved it, this module's import closure: the race, both engines and the turn passes (the
    turn graph's fingerprint covers its data, not the code that values it)."""
    from solver import cache

    return {**race_key(race, engine), "code": cache.code_hash(__name__)}


def solve_race(race: DalekRace, *, exact: bool = False, progress=None, use_cache: bool = True,
               force: bool = False, solving: Solving | None = None, shipped: bool = True,
               part: Position | None = None) -> RaceValues:
    """Solve the race (float64, or exact rationals on the cyclic engine) as `solving` says (the
    engine, the level engine's checkpoint and runner), reusing the shipped values of this very
    race (unless not `shipped`: they are what a remake replaces) or a cached float solve
    (`use_cache` False: neither, a solve again); where `solving` names a race file, its values
    (for exactly this race and engine; any other refused) and nothing else. A level solve
    with a checkpoint is not put in the cache: the checkpoint is its stored solve, read back
    level by level by the same command (every level finished, nothing solved). A solve
    estimated past the budget is refused unless `force` (past the memory limit, always).
    `part`: a position the caller reads (a --scores position). Where the whole race is neither
    shipped nor cached and a level solve of it (without a checkpoint) is estimated past the time
    budget, only the part of the race from that position is solved (`levels.LevelRace.starts`:
    its values are the whole solve's to the bit) and cached under its own key.
    `progress` is called as the engine reports (cyclic: (done, total); levels: a
    levels.Status)."""
    from solver import cache

    solving = solving or Solving()
    engine = solving.engine

    _check_engine(race, exact, engine)
    if solving.values is not None:
        return _from_file(race, exact, solving.values, engine)
    use_cache = use_cache and not race.seat_locals  # the keys describe optimal seats only
    if use_cache and shipped and not exact:
        from solver.games.dalek import shipped as shipped_values

        values = cache.in_memory({**race_key(race, engine), "shipped": True},
                                 lambda: shipped_values.read(race, engine))
        if values is not None:
            return values
    key = cache_key(race, engine)
    if use_cache and not exact:
        cached = cache.in_memory(key, lambda: _read_cached(race, key, engine))
        if cached is not None:
            return cached
    part = _part_to_solve(race, solving, part)
    if part is not None:
        from solver.games.dalek.levels import part_key

        key = {**key, **part_key(race, part)}
        if use_cache:
            cached = cache.in_memory(key, lambda: _read_cached(race, key, engine, part))
            if cached is not None:
                return cached
    if engine == "levels":  # imported here: a cached answer loads no numba
        from solver.games.dalek.levels import solve_levels

        values = solve_levels(race, solving.checkpoint, progress, force, solving.runner, part)
    else:
        values = _solve_cyclic(race, exact, progress, force)
    if use_cache and not exact and solving.checkpoint is None:  # a checkpoint keeps its own
        _store(key, values)
    return values


def _check_engine(race: DalekRace, exact: bool, engine: str) -> None:
    """Refuse what the engine cannot solve."""
    if engine == "levels" and exact:
        raise ValueError("the level engine solves in float64 only")
    if race.tie_break != "first" and (exact or engine == "levels"):
        raise InputError("only the cyclic engine in float64 breaks ties by another seat")


def _from_file(race: DalekRace, exact: bool, file: Path, engine: str) -> RaceValues:
    """The race's values read from a race file written for exactly this race and engine."""
    from solver.games.dalek import shipped

    if exact:
        raise InputError("a race file holds float64 values: drop --exact")
    return shipped.load(file, race, engine)


def _part_to_solve(race: DalekRace, solving: Solving, part: Position | None
                   ) -> Position | None:
    """`part` where only the part of the race from it is to be solved: on the level engine
    without a checkpoint, the whole race estimated past the time budget; else None."""
    if part is None or solving.engine != "levels" or solving.checkpoint is not None:
        return None
    from solver import limits
    from solver.games.dalek.levels import solve_seconds

    return part if solve_seconds(race) > limits.budget() else None


def _store(key: dict, values: RaceValues) -> None:
    """Put a float solve in the disk cache under `key`."""
    from solver import cache

    positions, rows = values.stored()
    cache.store(key, {"positions": positions, "table": values.rows(rows),
                      "residual": np.array(values.residual),
                      "iterations": np.array(values.iterations),
                      "components": np.array(values.components),
                      **({"mixed": values.mixed} if len(values.mixed) else {})})


def _read_cached(race: DalekRace, key: dict, engine: str, part: Position | None = None
                 ) -> RaceValues | None:
    """The values of the race's solve (or of its part from `part`) stored in the disk cache
    under `key`, or None."""
    from solver import cache

    stored = cache.load(key)
    if stored is None:
        return None
    index = {(tuple(row[:-1]), int(row[-1])): i
             for i, row in enumerate(stored["positions"].tolist())}
    return RaceValues(race, index, stored["table"], residual=float(stored["residual"]),
                      iterations=int(stored["iterations"]),
                      components=int(stored["components"]), cached=True,
                      engine=engine, mixed=stored.get("mixed", np.empty((0, 0))), part=part)


def _solve_cyclic(race: DalekRace, exact: bool, progress, force: bool) -> RaceValues:
    from solver.engine.cyclic import solve

    check_race(race, exact, force)
    solution = solve(race, race.start(), exact=exact, progress=progress)
    graph = solution.graph
    return RaceValues(race, graph.index, solution.table[:graph.size],
                      None if solution.exact is None else solution.exact[:graph.size],
                      solution.residual, solution.iterations, solution.components,
                      solution.seconds, mixed=mixed_rows(
                          [(positions, mix) for positions, mix in solution.mixed]))
