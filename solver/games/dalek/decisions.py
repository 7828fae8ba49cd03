"""Decision logs scored against optimal play: a turn's moves in expected points, a race's moves
(the scores, the seat to move, the roll, the dice kept, stop or roll) in win probability against
the race's optimal play by every seat (the race of `dalek game`). A move's regret is the value
after the best move less the value after the move made, both followed by optimal play."""

from __future__ import annotations

import numpy as np

from solver.errors import InputError
from solver.games.dalek.arrays import Pairs, Play
from solver.games.dalek.files import Moves, read_moves
from solver.games.dalek.race import RaceValues
from solver.games.dalek.rules import NOT_OVER
from solver.games.dalek.turn import points_utility

SEAT = "seat"


def score_columns(header: list[str]) -> list[str]:
    """The race log's score columns (score_1, score_2, ...), or [] for a turn's log."""
    found = []
    while f"score_{len(found) + 1}" in header:
        found.append(f"score_{len(found) + 1}")
    return found


def decision_regrets(pairs: Pairs, path: str) -> tuple[np.ndarray, Moves]:
    """A turn's decision log (the columns of a policy table, one row per move) scored against
    optimal play for expected points: each move's regret is the optimal value of its (state,
    roll) less the value of the move made, then optimal play (rounding below 0 clipped)."""
    moves = read_moves(pairs, path, f"decision log {path}")
    utility = np.array([[float(u) for u in points_utility(pairs.turn)]])
    values = pairs.turn.graph.values(utility[0])[:, None]
    column = np.zeros(len(moves.pair), dtype=np.int64)
    return move_regrets(pairs, moves, values, utility, column), moves


def move_regrets(pairs: Pairs, moves: Moves, values: np.ndarray, utilities: np.ndarray,
                 column: np.ndarray) -> np.ndarray:
    """Each move's regret: the value of its roll's best keep less the value of the move made,
    with node values `values[:, column[r]]` and final scores worth `utilities[column[r]]`
    (rounding below 0 clipped)."""
    state = pairs.state_of[moves.pair]
    after, score = Play(pairs.rules).roll(pairs.fields[state], pairs.rolled[moves.pair],
                                          moves.keep, moves.then)
    going = score == NOT_OVER
    worth = np.empty(len(score))
    worth[~going] = utilities[column[~going], score[~going]]
    worth[going] = values[pairs.chance[pairs.states(after[going])], column[going]]
    best = values[pairs.choice[0, moves.pair], column]
    return np.maximum(best - worth, 0.0)


def race_regrets(pairs: Pairs, race_values: RaceValues, path: str
                 ) -> tuple[np.ndarray, Moves, np.ndarray, np.ndarray]:
    """A race's decision log scored against optimal play: (regrets, moves, scores by row,
    seats). The log has a policy table's columns, `seat` (the mover, from 1) and one
    `score_<seat>` per player (the scores when the turn began)."""
    what = f"decision log {path}"
    race = race_values.race
    moves = read_moves(pairs, path, what)
    names = [f"score_{s + 1}" for s in range(race.players)]
    missing = [n for n in [*names, SEAT] if n not in moves.extra]
    if missing:
        raise InputError(f"{what}: a race's log needs the columns {', '.join(missing)} "
                         f"({race.players} players)")
    scores = np.empty((len(moves.pair), race.players), dtype=np.int64)
    seats = np.empty(len(moves.pair), dtype=np.int64)
    positions: dict[tuple, int] = {}
    column = np.empty(len(moves.pair), dtype=np.int64)
    for r, line in enumerate(moves.lines.tolist()):
        try:
            scores[r] = [int(moves.extra[n][r]) for n in names]
            seats[r] = int(moves.extra[SEAT][r]) - 1
            position = race.check_position(tuple(scores[r].tolist()), int(seats[r]))
        except InputError as error:
            raise InputError(f"{what} line {line}: {error}") from None
        except ValueError:
            raise InputError(f"{what} line {line}: scores and seat are whole numbers") from None
        column[r] = positions.setdefault(position, len(positions))
    if not len(column):
        raise InputError(f"{what} has no moves, only its header")
    graph = pairs.turn.graph
    utilities = np.stack([race_values.utilities(p) for p in positions])
    values = graph.solve(utilities).values
    return move_regrets(pairs, moves, values, utilities, column), moves, scores, seats
