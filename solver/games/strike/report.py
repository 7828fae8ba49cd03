"""What the Strike commands report, as plain data (the CLI formats it), and the tables.

Values are the mover's objective: P(win), or expected points under --scoring points (the engine
maximises minus the points; reports turn them back into points, so lower is better there).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from solver.engine.cyclic import solve
from solver.engine.solution import SolvedGame
from solver.formatting import exact_text, percent
from solver.games.strike.model import (
    MID,
    PHASE_NAMES,
    SETUP,
    START,
    Position,
    Strike,
    placement_options,
)
from solver.games.strike.rules import DEFAULT_EDITION
from solver.games.strike.throws import representative
from solver.tables import write_manifest, write_table

SWEEP_HITS = tuple(Fraction(n, d) for n, d in
                   ((0, 1), (1, 10), (1, 6), (1, 4), (1, 3), (1, 2), (2, 3), (3, 4), (5, 6),
                    (9, 10), (1, 1)))


def rules_of(game: Strike, edition: int = DEFAULT_EDITION) -> dict:
    """The rules and throw model a result belongs to (docs/rules.md, "Strike")."""
    return {"game": "strike", "players": game.players, "dice": game.dice, "edition": edition,
            "hit": float(game.hit), "hit_exact": exact_text(game.hit),
            "miss": float(game.miss), "miss_exact": exact_text(game.miss),
            "fly_out": float(game.fly_out), "fly_out_exact": exact_text(game.fly_out),
            "empty_arena": game.empty_arena, "scoring": game.scoring,
            **({"points_count": game.points_count} if game.scoring == "points" else {})}


def timings(seconds: float, cached: bool = False) -> dict:
    """How long a command took, and whether it read its solve from the cache (only level
    solves are cached)."""
    return {"total": seconds, "cached": cached}


def solve_timings(solution: SolvedGame[Position]) -> dict:
    """How long the solve took (or reading it from the cache)."""
    return timings(solution.seconds["total"], solution.cached)


def position_data(position: Position, numbers: list[int]) -> dict:
    """A position as reports give it (seats as players count them; the arena as typed)."""
    return {"mover": position.mover + 1, "arena": numbers, "stocks": list(position.stocks),
            "phase": PHASE_NAMES[position.phase],
            "big_hit": position.phase == START and not position.arena}


def seat_values(game: Strike, solution: SolvedGame[Position], position: Position, exact: bool
                ) -> list[dict]:
    """Each seat's value at a position: P(win), and expected points under points scoring."""
    row = solution.values(position)
    exact_row = solution.exact_values(position) if exact else None
    metric = game.layout
    seats = []
    for seat in range(game.players):
        win = metric.win(seat)
        if game.scoring == "win":
            entry: dict = {"seat": seat + 1, "value": float(row[win]), "p_win": float(row[win])}
            if exact_row is not None:
                entry["value_exact"] = entry["p_win_exact"] = exact_text(exact_row[win])
        else:
            points = metric.points(seat)
            entry = {"seat": seat + 1, "value": -float(row[points]),
                     "expected_points": -float(row[points]), "p_win": float(row[win])}
            if exact_row is not None:
                entry["value_exact"] = entry["expected_points_exact"] = \
                    exact_text(-exact_row[points])
                entry["p_win_exact"] = exact_text(exact_row[win])
        seats.append(entry)
    return seats


def option_values(solution: SolvedGame[Position], position: Position, exact: bool
                  ) -> tuple[np.ndarray, list[Fraction] | None]:
    """The mover's metric for each option of the position's local model (float, exact)."""
    local = solution.local(position)
    floats = local.values(solution.utilities(position))[0]
    if not exact:
        return floats, None
    utilities = solution.exact_utilities(position)
    return floats, [sum((q * u for q, u in zip(row, utilities) if q), Fraction(0))
                    for row in local.exact]


def labelled_options(game: Strike, position: Position, numbers: list[int]) -> list[tuple[str, int]]:
    """The mover's options as a player names them, each with its option number in the
    position's local model (several setup numbers can make the same arena)."""
    if position.phase == SETUP:
        arenas = game.placements(position.arena)[1]
        return [(f"place {n}", arenas.index(arena)) for n, arena in placement_options(numbers)]
    if position.phase == MID:
        return [("stop", 0), ("throw again", 1)]
    if not position.arena:
        stock = position.stocks[position.mover]
        return [(f"throw all {stock} (the big hit)", 0)]
    return [("throw", 0)]


def best_move(game: Strike, solution: SolvedGame[Position], position: Position, numbers: list[int],
              exact: bool, edition: int) -> dict:
    """The position, the mover's options with their values and regrets, best first (ties in
    the order the solver breaks them: stop before throwing again; at setup, repeating a number
    before a new one; then lower numbers first), and every seat's value. Seats are numbered as
    players count them: seat 1 threw first."""
    floats, exacts = option_values(solution, position, exact)
    sign = 1 if game.scoring == "win" else -1
    rows = []
    for name, option in labelled_options(game, position, numbers):
        row: dict = {"option": name, "value": sign * float(floats[option])}
        order = exacts[option] if exacts is not None else float(floats[option])
        rows.append((-order, option, len(rows), row, order))
    rows.sort(key=lambda r: r[:3])
    best = rows[0][4]
    for *_, row, order in rows:
        row["regret"] = float(best - order)
        if exacts is not None:
            row["value_exact"] = exact_text(sign * order)
            row["regret_exact"] = exact_text(best - order)
    report = {"rules": rules_of(game, edition),
              "position": position_data(position, numbers),
              "objective": "P(win)" if game.scoring == "win" else "expected points (lower wins)",
              "best": rows[0][3]["option"], "value": rows[0][3]["value"]}
    if exacts is not None:
        report["value_exact"] = rows[0][3]["value_exact"]
    options = [r[3] for r in rows]
    other = next((r[3] for r in rows if r[1] != rows[0][1]), None)  # a different move
    report["verdict"] = verdict(options[0], other, game.scoring, numbers,
                                position.stocks[position.mover])
    return report | {"options": options,
                     "seats": seat_values(game, solution, position, exact),
                     "timings": solve_timings(solution)}


def verdict(best: dict, other: dict | None, scoring: str, numbers: list[int], stock: int
            ) -> str:
    """The best option as one line a player acts on, with its value and, where there is a
    choice, the value of the other move ("Throw again (win chance 46.9%; stopping now:
    41.2%)"). `numbers` are the dice already placed at setup, `stock` the mover's."""
    name, worth = best["option"], _worth(best, scoring)
    if name.startswith("place"):
        number = int(name.split()[1])
        if other is None:
            return f"Place any number ({worth})"
        action = f"Place a {number}" if number in numbers else \
            f"Place a new number, say {number}"
        return f"{action} ({worth}; placing a {other['option'].split()[1]}: " \
               f"{_worth(other, scoring, unit=False)})"
    if name == "throw again":
        return f"Throw again ({worth}; stopping now: {_worth(other, scoring, unit=False)})"
    if name == "stop":
        return f"Stop and pass the turn ({worth}; throwing again: " \
               f"{_worth(other, scoring, unit=False)})"
    if name == "throw":
        return f"Throw a die ({worth})"
    dice = "your one die" if stock == 1 else f"all {stock} dice"
    return f"Throw {dice}, the big hit ({worth})"


def _worth(option: dict, scoring: str, unit: bool = True) -> str:
    """An option's value as players say it: a win chance, or expected points (2 decimals;
    fewer is better)."""
    if scoring == "win":
        return f"{'win chance ' if unit else ''}{percent(option['value'])}"
    return f"{option['value']:.2f}{' expected points' if unit else ''}"


def placement_line(game: Strike, solution: SolvedGame[Position]) -> list[dict]:
    """The placements of optimal play from the start, as numbers (group k shows k + 1; the
    lowest best number is named, as every number making the same arena is equally good)."""
    position, numbers, line = game.start(), [], []
    while position.phase == SETUP:
        floats, _ = option_values(solution, position, False)
        options = labelled_options(game, position, numbers)
        best = max(range(len(options)), key=lambda k: (floats[options[k][1]], -k))
        number = best + 1
        alternatives = {options[k][1] for k in range(len(options))}
        line.append({"seat": position.mover + 1, "number": number,
                     "same_as_earlier": number in numbers,
                     "choices_differ": len(alternatives) > 1})
        numbers = [*numbers, number]
        successors = game.successors(position)
        position = successors[options[best][1]]
    return line


def second_placement(game: Strike, solution: SolvedGame[Position]) -> tuple[float, float]:
    """The second placer's value when placing the first placer's number, and a new one."""
    placed = game.successors(game.start())[0]  # seat 1's numbers are all alike: one option
    floats, _ = option_values(solution, placed, False)
    sign = 1 if game.scoring == "win" else -1
    options = dict(labelled_options(game, placed, [1]))
    return sign * float(floats[options["place 1"]]), sign * float(floats[options["place 2"]])


def game_summary(game: Strike, solution: SolvedGame[Position], exact: bool, edition: int,
                 position: Position | None = None, numbers: list[int] | None = None) -> dict:
    """Each seat's value at the start (with the optimal placements) or at `position` (its
    arena typed as `numbers`), and how the solve went."""
    where = {"placements": placement_line(game, solution)} if position is None else \
        {"position": position_data(position, numbers or [])}
    return {"rules": rules_of(game, edition),
            "seats": seat_values(game, solution, position or game.start(), exact), **where,
            "residual": solution.residual, "positions": solution.size,
            "components": solution.components, "iterations": solution.iterations,
            "timings": solve_timings(solution)}


def table_header(game: Strike) -> list[str]:
    """The policy table's columns: the position as players type it (the mover, each seat's
    stock, the arena's numbers, the phase), the best option, every seat's value (P(win), or
    expected points and then P(win) under points scoring) and, mid-turn, the mover's value
    after stopping and after throwing again."""
    seats = range(1, game.players + 1)
    wins = [f"p_win_{s}" for s in seats] if game.scoring == "points" else []
    return ["mover", *(f"stock_{s}" for s in seats), "arena", "phase", "best",
            *(f"value_{s}" for s in seats), *wins, "mover_value_if_stop",
            "mover_value_if_throw"]


def _table_row(game: Strike, mover: int, stocks, numbers: list[int], phase: int, best: str,
               values: np.ndarray, choices: tuple[float, float] | None) -> tuple:
    """One row of `table_header` (values: the position's metrics; choices: the mover's
    metric after stopping and after throwing again, mid-turn)."""
    sign = 1 if game.scoring == "win" else -1
    layout, seats = game.layout, range(game.players)
    wins = [repr(float(values[layout.win(s)])) for s in seats] \
        if game.scoring == "points" else []
    return (mover + 1, *stocks, " ".join(map(str, numbers)), PHASE_NAMES[phase], best,
            *(repr(sign * float(values[layout.objective(s)]) + 0.0) for s in seats), *wins,
            *((repr(sign * float(c) + 0.0) for c in choices) if choices else ("", "")))


def _position_row(game: Strike, solution: SolvedGame[Position], position: Position) -> tuple:
    """A position's row, from the position's local model."""
    numbers = representative(position.arena)
    floats, _ = option_values(solution, position, False)
    options = labelled_options(game, position, numbers)
    best = max(range(len(options)), key=lambda k: (floats[options[k][1]], -k))
    return _table_row(game, position.mover, position.stocks, numbers, position.phase,
                      options[best][0], solution.values(position),
                      (floats[0], floats[1]) if position.phase == MID else None)


def policy_rows(game: Strike, solution: SolvedGame[Position]) -> Iterator[tuple]:
    """Every position the solve reached, one row each: by phase, stocks, mover and arena
    (cyclic engine); in the order of their numbers (level engine, `level_rows`)."""
    from solver.games.strike.levels import LevelSolution

    if not isinstance(solution, LevelSolution):
        for position in sorted(solution.positions(),
                               key=lambda p: (-p.phase, p.stocks, p.mover, p.arena)):
            yield _position_row(game, solution, position)
        return
    numbered = solution.game
    reached = np.flatnonzero(solution.index.reachable)
    setup = reached < len(numbered.setup)
    for number in reached[setup].tolist():
        yield _position_row(game, solution, numbered.setup[number])
    yield from level_rows(game, solution, reached[~setup])


def level_rows(game: Strike, solution, numbers: np.ndarray, block: int = 1 << 15
               ) -> Iterator[tuple]:
    """The rows of positions in play of a level solve, a block of numbers at a time: each
    option's value from the position's option edges (first best played, as the engine
    does)."""
    numbered = solution.game
    terminals = numbered.terminals()
    for lo in range(0, len(numbers), block):
        part = numbers[lo:lo + block]
        at = numbered.decode(part)
        values = solution.block(part)
        edges = numbered.options(part)
        row, target = edges.row, edges.target
        metric = game.layout.objective(at.mover)[row]
        utility = np.empty(len(target))
        inner = target >= 0
        utility[inner] = solution.block(target[inner])[metric[inner],
                                                       np.arange(int(inner.sum()))]
        utility[~inner] = terminals[-1 - target[~inner], metric[~inner]]
        choices = np.bincount(row * 2 + edges.option, edges.probability * utility,
                              minlength=2 * len(part)).reshape(-1, 2)
        stocks = at.stocks.tolist()
        for k, (mover, arena, phase) in enumerate(zip(at.mover.tolist(), at.arena.tolist(),
                                                      at.phase.tolist())):
            if phase == MID:
                best = "stop" if choices[k, 0] >= choices[k, 1] else "throw again"
            else:
                best = f"throw all {stocks[k][mover]} (the big hit)" if not arena else "throw"
            yield _table_row(game, mover, stocks[k], representative((1,) * arena), phase, best,
                             values[:, k], tuple(choices[k]) if phase == MID else None)


def write_tables(out: Path, command: str, game: Strike, solution: SolvedGame[Position],
                 hits: tuple[Fraction, ...] = SWEEP_HITS, edition: int = DEFAULT_EDITION
                 ) -> tuple[Path, dict]:
    """The policy and every seat's value at every position the solve reached
    (`table_header`); for two players, also the value at the start for each of `hits` (the
    rest of the model as `game`'s, cyclic engine)."""
    start = solution.values(game.start())
    files = write_table(out, "policy", table_header(game), policy_rows(game, solution))
    hits = hits if game.players == 2 else ()
    sweep = []
    for hit in hits:
        swept = replace(game, hit=hit)
        result = solve(swept, swept.start())
        same, different = second_placement(swept, result)
        first = result.values(swept.start())[swept.layout.win(0)]
        sweep.append((exact_text(hit), repr(float(first)), repr(different), repr(same),
                      result.size, f"{result.residual:.1e}"))
    if hits:
        files += write_table(out, "hit_sweep", ["hit", "p_win_seat1", "seat2_p_win_if_different",
                                                 "seat2_p_win_if_same", "positions", "residual"],
                             sweep)
    summary = {"positions": solution.size,
               "p_win_seat1": float(start[game.layout.win(0)]),
               "residual": solution.residual,
               "sweep_hits": [exact_text(h) for h in hits]}
    return write_manifest(out, files, command, rules_of(game, edition), summary), summary
