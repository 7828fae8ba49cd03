"""Adventures written as the tests write them (one Doctor, in the player's words), shared by the
Time of the Daleks tests."""

from __future__ import annotations

from solver.games.totd.files import load_game
from solver.games.totd.rules import Adventure, Doctor
from solver.games.totd.typed import make_tools, parse_challenge, parse_pool

GAME = load_game()


def adventure(need: str, pool: str, sonic: int = 0, rerolls: tuple[str, ...] = (),
              changes: tuple[str, ...] = ()) -> Adventure:
    return Adventure(GAME, parse_challenge(GAME, need),
                     (Doctor(parse_pool(GAME, pool), make_tools(GAME, sonic, rerolls, changes)),))
