"""Strike: dice thrown into an arena; matches come back, X faces leave the game; the last
player with dice wins."""

from solver.games import Game

GAME = Game("strike", "Strike", __name__, samples={"game": ("winner", "winner_stock")})
