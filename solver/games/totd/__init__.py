"""Doctor Who: Time of the Daleks, the Adventure step: a pool of Story Dice against a Challenge."""

from solver.games import Game

GAME = Game("totd", "Time of the Daleks", __name__, samples={"adventure": ("success",)})
