"""Strike played by its rules (rules.py) with seeded dice, one game at a time, with labelled dice
as players see them."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.games.strike import rules
from solver.games.strike.model import MID, Position
from solver.games.strike.policies import OPTIMAL, Moves, StrikeDuel, stop_placement
from solver.games.strike.throws import canonical


def strike_games(game: StrikeDuel, moves: Moves | None, count: int,
                 rng: np.random.Generator, hit: float | None = None,
                 miss: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`count` games of Strike: each seat plays its policy in `game` ("stop", or "optimal"
    through `moves`). `hit` and `miss` are the throw model the dice follow (the game's unless
    given; struck dice fly out as `game.fly_out` says). Returns the winner (seat index), the
    winner's stock at the end and the turns taken (setup placements are not turns), per
    game."""
    model = Model(float(game.hit) if hit is None else hit,
                  float(game.miss) if miss is None else miss, float(game.fly_out))
    winners = np.empty(count, dtype=np.int64)
    stocks_left = np.empty(count, dtype=np.int64)
    turns = np.empty(count, dtype=np.int64)
    for g in range(count):
        winners[g], stocks_left[g], turns[g] = _strike_game(game, moves, rng, model)
    return winners, stocks_left, turns


class Model(NamedTuple):
    """The throw model the simulator's dice follow (reading 4 and 4b), as floats."""

    hit: float
    miss: float
    fly_out: float


def _strike_game(game: StrikeDuel, moves: Moves | None, rng: np.random.Generator,
                 model: Model) -> tuple[int, int, int]:
    """One game: the setup, then turns until one player has dice left (reading 7)."""
    stocks, arena = _setup(game, moves)
    mover = rules.FIRST
    turns = 0
    while True:
        arena = _turn(game, moves, rng, model, mover, stocks, arena)
        turns += 1
        winner = rules.winner(stocks)
        if winner is not None:
            return winner, stocks[winner], turns
        mover = rules.next_seat(mover, stocks)


def _setup(game: StrikeDuel, moves: Moves | None) -> tuple[list[int], list[int]]:
    """Reading 10: in seat order each player places a die from its stock, showing the number
    its policy picks. Returns the stocks and the arena (in the order placed)."""
    stocks = [game.dice] * game.players
    arena: list[int] = []
    seat = rules.FIRST
    while seat is not None:
        if game.policies[seat] == OPTIMAL:
            arena.append(moves.placement(game.setup_position(arena), arena))
        else:
            arena.append(stop_placement(canonical(arena)))
        stocks[seat] -= rules.PLACED
        seat = rules.next_placer(seat, game.players)
    return stocks, arena


def _turn(game: StrikeDuel, moves: Moves | None, rng: np.random.Generator, model: Model,
          mover: int, stocks: list[int], arena: list[int]) -> list[int]:
    """The mover throws until the turn ends or its policy stops (readings 4-7); `stocks`
    changes in place. Returns the arena after the turn."""
    first = True
    while True:
        thrown = rules.dice_thrown(stocks[mover], arena, first)
        arena, taken = _throw(rng, arena, thrown, model)
        first = False
        stocks[mover] = rules.stock_after_throw(stocks[mover], thrown, taken)
        if rules.turn_ends(taken, len(arena), stocks[mover], game.empty_arena):
            return arena
        rule = game.policies[mover].rule
        again = rule.throws_again(len(arena), stocks, mover) if rule is not None else \
            moves.throws_again(Position(mover, tuple(stocks), canonical(arena), MID, ()))
        if not again:
            return arena


def _throw(rng: np.random.Generator, arena: list[int], thrown: int, model: Model
           ) -> tuple[list[int], int]:
    """One throw (readings 4 and 4b): a draw u per die says whether it is struck (arena dice:
    u < hit; of those, u < hit * fly-out flew out) or lands (thrown dice), then a fresh face
    per die. Returns the numbers left and the dice taken."""
    dice = len(arena) + thrown
    chance = rng.random(dice).tolist()
    face = rng.integers(1, rules.FACES + 1, size=dice).tolist()
    struck = [u < model.hit for u in chance[:len(arena)]]
    flew = [u < model.hit * model.fly_out for u in chance[:len(arena)]]
    landed = [u >= model.miss for u in chance[len(arena):]]
    return rules.resolve(rules.thrown_into(arena, struck, flew, landed, face))
