"""Pig: roll one die, a 1 loses the turn total; the calibration game with published results."""

from solver.games import Examples, Game

GAME = Game(
    "pig", "Pig", __name__,
    Examples(solve=("game", "--target", "20"), play=("--target", "20", "--policy", "hold 10"),
             bad=("game", "--target", "1")),
    samples={"turn": ("score",), "game": ("winner", "score_1", "score_2", "turns"),
             "decision": ("score", "opponent", "turn_total", "move")},
    page={"game": ("target", "hold")})
