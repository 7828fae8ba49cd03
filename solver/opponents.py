"""The two opponents a remembered rule is valued against, defined once. Every card, report and
doc names them with these words and no others (tests/test_opponents.py reads the docs for it);
a game that computes only one of the two says which."""

from __future__ import annotations

PERFECT = "a perfect opponent"
PERFECT_MEANS = ("A perfect opponent plays the game's optimal strategy (the equilibrium: each "
                 "seat's best play against the other's best play) and does not know your rule.")
KNOWING = "an opponent who knows your rule"
KNOWING_MEANS = ("An opponent who knows your rule plays the best response to it: every move the "
                 "one that wins most against your rule.")
