"""Time of the Daleks Adventures played with seeded dice by a plan (one Doctor)."""

from __future__ import annotations

import numpy as np

from solver.games.totd.policies import Plan


def totd_adventures(plan: Plan, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` Adventures played by `plan` with random dice: 1 where the Challenge is met."""
    game = plan.adventure.game
    sides = [np.repeat(np.array(faces), die.weights) for faces, die in zip(plan.faces, game.dice)]

    def throw_symbols(dice: dict[int, int]) -> dict[int, list[int]]:
        return {c: sides[c][rng.integers(0, len(sides[c]), size=n)].tolist()
                for c, n in dice.items()}

    pool = plan.adventure.doctors[0].pool
    result = np.zeros(count, dtype=np.int64)
    for a in range(count):
        shown = throw_symbols({c: n for c, n in enumerate(pool) if n})
        dice = tuple(tuple(sorted(shown.get(c, []))) for c in range(len(pool)))
        icons, tokens = plan.start()
        while not plan.met(dice, tokens):
            move = plan.move(dice, icons, tokens)
            if move is None:
                break
            icons, tokens, rerolled = move
            kept = [list(d) for d in dice]
            for colour, symbols in rerolled.items():
                for symbol in symbols:
                    kept[colour].remove(symbol)
            new = throw_symbols({c: len(s) for c, s in rerolled.items()})
            dice = tuple(tuple(sorted(kept[c] + new.get(c, []))) for c in range(len(kept)))
        else:
            result[a] = 1
    return result
