"""How Strike games end under the seats' play, with their length: the exact distribution of
(winner, dice left in the winner's stock, turns taken), by a forward pass over the game's
positions (model.py) under each seat's policy (a rule such as "stop", or an optimal seat's
choices read off the solved game, as the simulator plays them).

Within a turn the mover's stock only shrinks until the turn ends (a throw that takes dice ends
it), so the moves inside a turn form no cycle: the pass carries the probability of every
position turn by turn, settling each turn's moves one throw at a time, and counts a turn each
time one ends (the setup's placements are no turn). It stops when less than `TOLERANCE` of the
mass is still playing. Float64 (sparse matrix passes); the winner's stock distribution it gives
equals the cyclic engine's to rounding (tested)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from scipy import sparse

from solver.engine.cyclic import Solution, Terminal
from solver.games.strike.model import SETUP, START
from solver.games.strike.policies import Moves, StrikeDuel
from solver.outcomes import Outcomes

TOLERANCE = 1e-15
MOST_TURNS = 100_000


def _option(game: StrikeDuel, moves: Moves | None, position) -> list:
    """The chosen option's result probabilities at a position (a rule's single option, or an
    optimal seat's choice)."""
    local = game.local(position)
    if len(local.exact) == 1:
        return local.exact[0]
    return local.exact[moves.option(position)]


def _ending(game: StrikeDuel, terminal: Terminal) -> tuple[int, int]:
    """(winner seat, its stock) of a game's end (its one-hot outcome metric)."""
    rows = game.layout.outcome_rows
    hit = next(k for k, row in enumerate(rows) if terminal.values[row] == 1)
    return divmod(hit, game.layout.stocks)


def game_lengths(game: StrikeDuel, solution: Solution | None) -> tuple[dict, float]:
    """P(winner, winner's stock, turns) as a dict, and the mass left unfinished."""
    moves = None if solution is None else Moves(game, solution)
    index: dict = {}
    order = [game.start()]
    index[order[0]] = 0
    within, ends, finals = defaultdict(float), defaultdict(float), defaultdict(float)
    for position in order:  # every position the play reaches, found breadth first
        here = index[position]
        phase = position[3]
        successors = game.successors(position)
        for result, p in enumerate(_option(game, moves, position)):
            if not p:
                continue
            after = successors[result]
            if isinstance(after, Terminal):
                finals[(here, _ending(game, after))] += float(p)
                continue
            if after not in index:
                index[after] = len(order)
                order.append(after)
            turn_over = phase != SETUP and after[3] == START
            (ends if turn_over else within)[(here, index[after])] += float(p)
    return _passes(len(order), within, ends, finals)


def _passes(size: int, within: dict, ends: dict, finals: dict) -> tuple[dict, float]:
    def matrix(entries: dict, columns: int) -> sparse.csr_matrix:
        if not entries:
            return sparse.csr_matrix((size, columns))
        (rows, cols), values = zip(*entries.keys()), list(entries.values())
        return sparse.csr_matrix((values, (rows, cols)), shape=(size, columns))

    endings = sorted({key for _, key in finals})
    column = {key: k for k, key in enumerate(endings)}
    w, e = matrix(within, size), matrix(ends, size)
    f = matrix({(here, column[key]): p for (here, key), p in finals.items()}, len(endings))
    result: dict = {}
    mass = np.zeros(size)
    mass[0] = 1.0
    turn = 1
    while mass.sum() > TOLERANCE and turn <= MOST_TURNS:
        following = np.zeros(size)
        while mass.any():  # the moves inside this turn, one throw at a time
            ended = f.T @ mass
            for k in np.flatnonzero(ended).tolist():
                result[(*endings[k], turn)] = result.get((*endings[k], turn), 0.0) + ended[k]
            following += e.T @ mass
            mass = w.T @ mass
        mass = following
        turn += 1
    return result, float(mass.sum())


def strike_outcomes(game: StrikeDuel, solution: Solution | None, title: str,
                    statistics: tuple) -> Outcomes:
    """Every way a game ends (winner, winner's stock, turns) as outcomes."""
    found, left = game_lengths(game, solution)
    keys = sorted(found)
    table = np.array(keys, dtype=np.int64).reshape(-1, 3)
    return Outcomes(title, "game", {"winner": table[:, 0] + 1, "winner_stock": table[:, 1],
                                    "turns": table[:, 2]},
                    np.array([found[k] for k in keys]), statistics, left)

