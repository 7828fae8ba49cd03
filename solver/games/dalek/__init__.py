"""Dalek Dice: push-your-luck with ten custom dice, keep/stop decisions each roll, race to 60."""

from solver.games import Examples, Game

GAME = Game(
    "dalek", "Dalek Dice", __name__,
    Examples(solve=("turn", "--dice", "4"), play=("--dice", "4"), bad=("turn", "--dice", "0")),
    samples={"turn": ("score",), "game": ("winner", "score_1", "score_2", "turns"),
             "decision": ("turn", "to_roll", "humans", "daleks", "doctors", "exterminates", "roll",
                          "keep", "then")},
    page={"turn": ("faces", "dice", "tie-rule", "distribution"),
          "best-move": ("faces", "dice", "tie-rule", "roll", "kept", "humans", "daleks",
                        "doctors", "exterminates", "scores", "seat", "players", "target",
                        "tie-value", "top"),
          "game": ("faces", "dice", "tie-rule", "players", "target", "tie-value",
                   "head-starts", "scores", "seat", "paranoid")},
    preload=(("best-move", "--roll", "H4 H4 H2 D3 D2 D2 H4 DOC EXT H2"),  # read, kept: the turn
             ("best-move", "--roll", "H4 H4 H2 D3 D2 D2 H4 DOC EXT H2", "--scores", "0,0")))
