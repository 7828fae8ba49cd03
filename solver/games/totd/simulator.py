"""Time of the Daleks Adventures played with seeded dice by a plan (one Doctor)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.games.totd.policies import Plan, Thrown


def totd_adventures(plan: Plan, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` Adventures played by `plan` with random dice: 1 where the Challenge is met."""
    game = plan.adventure.game
    sides = [np.repeat(np.array(faces), die.weights)
             for faces, die in zip(game.face_symbols, game.dice)]

    def throw_symbols(dice: dict[int, int]) -> Thrown:
        """The symbols shown by dice[c] dice thrown of each colour c, one side each."""
        return {c: sides[c][rng.integers(0, len(sides[c]), size=n)].tolist()
                for c, n in dice.items()}

    return np.array([adventure(plan, throw_symbols) for _ in range(count)], dtype=np.int64)


def adventure(plan: Plan, throw_symbols: Callable[[dict[int, int]], Thrown]) -> int:
    """One Adventure played by the plan: 1 when the Challenge is met, else 0."""
    dice = plan.first_dice(throw_symbols(plan.first_throw()))
    icons, tokens = plan.start()
    while not plan.met(dice, tokens):
        move = plan.move(dice, icons, tokens)
        if move is None:
            return 0
        icons, tokens, rerolled, throws = move
        dice = plan.after(dice, rerolled, throw_symbols(throws))
    return 1
