"""Pig: roll one die, a 1 loses the turn total; the calibration game with published results."""

from solver.games import Game

GAME = Game("pig", "Pig", __name__, samples={
    "turn": ("score",), "game": ("winner", "score_1", "score_2"),
    "decision": ("score", "opponent", "turn_total", "move")})
