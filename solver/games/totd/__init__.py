"""Doctor Who: Time of the Daleks, the Adventure step: a pool of Story Dice against a Challenge."""

from solver.games import Examples, Game

GAME = Game(
    "totd", "Time of the Daleks", __name__,
    Examples(solve=("chance", "--need", "Science x2, Cunning", "--pool", "black=4"),
             play=("--need", "Science x2, Cunning", "--pool", "black=4"),
             bad=("chance", "--need", "Nothing", "--pool", "black=4")),
    samples={"adventure": ("success",)},
    page={"chance": ("need", "printed-faces", "pool", "sonic", "reroll", "change"),
          "best-move": ("need", "printed-faces", "showing", "sonic", "reroll", "change", "top"),
          "build": ("need", "printed-faces", "add", "focus", "daleks", "time-breach",
                    "breach-alone", "sonic", "reroll", "change", "top"),
          "help": ("need", "printed-faces", "me", "helper", "any-adventure", "time-breach",
                   "breach-alone", "helper-dice", "sonic-on", "daleks", "call-with-sonic")})
