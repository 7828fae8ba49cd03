"""Strike played by its rules with seeded dice, one game at a time (docs/rules.md, "Strike")."""

from __future__ import annotations

import numpy as np

from solver.games.strike.policies import STOP as STRIKE_STOP
from solver.games.strike.policies import Moves as StrikeMoves
from solver.games.strike.policies import StrikeDuel, stop_placement
from solver.games.strike.rules import MID, NUMBERS, canonical
from solver.games.strike.rules import Position as StrikePosition

X = NUMBERS + 1  # the face that leaves the game (labels 1..5 are the numbers)


def strike_games(game: StrikeDuel, moves: StrikeMoves | None, count: int,
                 rng: np.random.Generator, hit: float | None = None,
                 miss: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`count` games of Strike (docs/rules.md, "Strike") with labelled dice: each seat plays its
    policy in `game` ("stop", or "optimal" through `moves`). `hit` and `miss` are the throw
    model the dice follow (the game's unless given). Returns the winner (seat index) and the
    winner's stock at the end, per game."""
    hit = float(game.hit) if hit is None else hit
    miss = float(game.miss) if miss is None else miss
    winners = np.empty(count, dtype=np.int64)
    stocks_left = np.empty(count, dtype=np.int64)
    for g in range(count):
        winners[g], stocks_left[g] = _strike_game(game, moves, rng, hit, miss)
    return winners, stocks_left


def _strike_game(game: StrikeDuel, moves: StrikeMoves | None, rng: np.random.Generator,
                 hit: float, miss: float) -> tuple[int, int]:
    stocks = [game.dice] * game.players
    arena: list[int] = []
    for seat in range(game.players):  # reading 10: placements in seat order
        if game.policies[seat] == STRIKE_STOP:
            number = stop_placement(canonical(arena))
        else:
            number = moves.placement(game.setup_position(arena), arena)
        arena.append(number)
        stocks[seat] -= 1
    mover = 0
    while True:
        thrown = stocks[mover] if not arena else 1  # reading 6: the big hit throws them all
        stocks[mover] -= thrown
        chance = rng.random(len(arena) + thrown).tolist()  # reading 4: strikes, then landings
        face = rng.integers(1, X + 1, size=len(arena) + thrown).tolist()
        shown = [f if u < hit else n for n, u, f in zip(arena, chance, face)]
        shown += [f for u, f in zip(chance[len(arena):], face[len(arena):]) if u >= miss]
        counts = {n: shown.count(n) for n in shown if n != X}  # reading 5: Xs leave
        taken = sum(c for c in counts.values() if c >= 2)
        arena = sorted(n for n, c in counts.items() if c == 1)
        stocks[mover] += taken
        if not (taken or not arena or not stocks[mover]) and game.policies[mover] != STRIKE_STOP:
            position = StrikePosition(mover, tuple(stocks), canonical(arena), MID, ())
            if moves.throws_again(position):
                continue
        if not stocks[mover] and sum(1 for s in stocks if s) == 1:  # reading 7
            winner = next(seat for seat, s in enumerate(stocks) if s)
            return winner, stocks[winner]
        mover = (mover + 1) % game.players
        while not stocks[mover]:
            mover = (mover + 1) % game.players
