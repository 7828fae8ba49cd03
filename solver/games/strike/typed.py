"""Strike's dice as players type them: the numbers showing (1-5, docs/rules.md "Strike" reading
1) one die at a time, separated by spaces or commas, or run together ("245": every number is
one digit, so that is unambiguous); after a throw also X (a die showing X) and `out` (a die that
left the arena). Counts are not read: "2x3" could be two 3s or a 2, an X and a 3."""

from __future__ import annotations

import re

from solver.errors import InputError
from solver.games.strike.rules import LABELS, X

OUT = 0  # a die that left the arena (missed it or was struck out of it)
COUNT = re.compile(r"[0-9]*[x\u00d7*][0-9]+|[0-9]+[x\u00d7*][0-9]*", re.IGNORECASE)
RUN = re.compile(f"[{LABELS[0]}-{LABELS[-1]}]+")
NUMBER = re.compile(r"[0-9]{1,9}")


def read_dice(text: str, what: str, after_throw: bool = False, setup: bool = False
              ) -> list[int]:
    """The dice `text` lists, as labels (X: rules.X, out: OUT; only `after_throw`). `setup`:
    the arena of a setup position, where a number may show twice."""
    dice: list[int] = []
    for token in text.replace(",", " ").replace(";", " ").split():
        if token.lower() == "x":
            if not after_throw:
                raise InputError(f"X is never in the arena: a die showing X leaves the game at "
                                 f"once, so leave it out of {what}")
            dice.append(X)
        elif token.lower() == "out" and after_throw:
            dice.append(OUT)
        elif COUNT.fullmatch(token):
            raise InputError(_count_refusal(token, what, after_throw, setup))
        elif RUN.fullmatch(token):
            dice += [int(digit) for digit in token]
        elif NUMBER.fullmatch(token):
            if after_throw:  # never read as X, whose label follows the numbers
                raise InputError(f"a die shows 1 to {LABELS[-1]} or X, not {token} (on dice "
                                 f"numbered 2 to 6, type one less)")
            dice.append(int(token))  # out of range: refused by the position's validation
        else:
            example = "3 3 5 X" if after_throw else "2 4 5 (or 2,4,5 or 245)"
            raise InputError(f"{what} lists the dice one by one, e.g. {example}; "
                             f"not {token[:20]!r}")
    return dice


def _count_refusal(token: str, what: str, after_throw: bool, setup: bool) -> str:
    shown = token[:20]
    if after_throw:
        return (f"{shown!r} could be a count or dice run together: type each die apart (3 3 "
                f"for two 3s, 2 X 3 for a 2, an X and a 3)")
    if setup:
        return f"{what} lists each die placed, one by one (3,3 for two 3s), not {shown!r}"
    return (f"{what} lists each die, not counts like {shown!r}: a number showing twice is a "
            f"match and is taken, so the arena never holds two")
