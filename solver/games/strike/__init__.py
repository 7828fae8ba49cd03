"""Strike: dice thrown into an arena; matches come back, X faces leave the game; the last
player with dice wins."""

from solver.games import Examples, Game

GAME = Game(
    "strike", "Strike", __name__,
    Examples(solve=("game", "--dice", "3"), play=("--dice", "3"),
             bad=("best-move", "--arena", "9", "--stocks", "2,2")),
    samples={"game": ("winner", "winner_stock", "turns")},
    page={command: ("arena", "stocks", "mover", "mid-turn", "setup", "players", "hit", "miss",
                    "fly-out", "empty-arena", "edition", "dice", "scoring", "points-count",
                    *extra)
          for command, extra in (("game", ()), ("best-move", ("top",)))})
