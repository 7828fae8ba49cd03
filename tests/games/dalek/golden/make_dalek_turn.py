"""Write tests/games/dalek/golden/dalek_turn.jsonl: Dalek Dice positions with their exact values
and best move.

Run from the repository root: `python tests/games/dalek/golden/make_dalek_turn.py` (same bytes
every run).

One JSON object per line:
  source   "brute force" (values from the independent brute force of ../dalek_bruteforce.py,
           which reaches positions with at most 4 dice left, inside any game) or
           "solver regression pin" (values the solver gave when the file was written, for 10-dice
           positions the brute force cannot reach)
  rules    faces, dice, tie_rule
  state    to_roll, humans, daleks, doctors, exterminates (kept before the roll)
  roll     the dice just rolled ("H4 D3 DOC"), or null for a fresh turn before its first roll
  best     the only optimal option {"keep": "H4 D3" or "-", "action": "end" | "stop" | "roll"};
           null for a fresh turn, or when the roll shows the third Doctor (no option)
  value    the exact expected points of the position, "p/q"
  note     why the position is here

Only positions with a single optimal option are written (the choice among equals is a convention
of the solver, not a fact to pin).
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]  # tests/games/dalek: the brute force
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))  # the repository: the solver

from dalek_bruteforce import BruteForce  # noqa: E402

from solver.games.dalek.files import parse_rules  # noqa: E402
from solver.games.dalek.rules import Rules, TurnState  # noqa: E402
from solver.games.dalek.turn import (  # noqa: E402
    CompiledTurn,
    PointsSolution,
    compile_turn,
    position_options,
    solve_points,
)
from solver.games.dalek.typed import format_faces, parse_roll  # noqa: E402

OUT = Path(__file__).with_name("dalek_turn.jsonl")
DEFAULT = "H4 H2 D3 D2 DOC EXT"
Position = tuple[str, int, str, tuple[int, int, int, int, int], str | None, str]

# (faces, dice, tie rule, state before the roll, roll or None, note)
BRUTE_FORCE: list[Position] = [
    (DEFAULT, 1, "ge", (1, 0, 0, 0, 0), None, "one die: a Dalek, Doctor or Exterminate scores 5"),
    (DEFAULT, 3, "ge", (3, 0, 0, 0, 0), None, "fresh 3-dice turn"),
    (DEFAULT, 4, "ge", (4, 0, 0, 0, 0), None, "fresh 4-dice turn"),
    (DEFAULT, 4, "gt", (4, 0, 0, 0, 0), None, "fresh 4-dice turn, Daleks must exceed"),
    ("H4:2 H2 D3 D2 DOC EXT", 4, "ge", (4, 0, 0, 0, 0), None, "fresh turn, heavy Human 4"),
    ("H3 H1 D4 D1 DOC:2 EXT", 4, "gt", (4, 0, 0, 0, 0), None, "fresh turn, odd faces"),
    (DEFAULT, 4, "ge", (4, 0, 0, 0, 0), "H4 H2 D3 D2", "first roll of a 4-dice turn"),
    (DEFAULT, 4, "gt", (4, 0, 0, 0, 0), "H4 H2 D3 D2", "the same roll, Daleks must exceed"),
    (DEFAULT, 4, "ge", (4, 0, 0, 0, 0), "DOC EXT H4 D3", "Doctor and Exterminate in one roll"),
    (DEFAULT, 3, "ge", (3, 0, 0, 0, 0), "DOC DOC DOC", "surplus Doctors go back to be rolled"),
    (DEFAULT, 10, "ge", (3, 8, 6, 1, 0), "H4 D3 DOC", "10-dice game, three dice left"),
    (DEFAULT, 10, "ge", (4, 12, 6, 0, 0), "H2 D3 D3 D2", "10-dice game, Humans ahead"),
    (DEFAULT, 10, "gt", (4, 12, 6, 0, 0), "H2 D3 D3 D2", "the same, Daleks must exceed"),
    (DEFAULT, 10, "ge", (4, 6, 3, 2, 1), "H4 H2 D3 EXT", "two Doctors kept: keep safe or push"),
    (DEFAULT, 10, "ge", (3, 4, 3, 2, 2), "DOC EXT H4", "third Doctor and third Exterminate: "
                                                       "the Doctor prevails (rule 5)"),
    (DEFAULT, 10, "ge", (3, 8, 3, 2, 0), "H4 D3 D2", "two Doctors kept, three dice left"),
    (DEFAULT, 10, "ge", (2, 8, 7, 0, 2), "EXT D3", "third Exterminate: keep the Dalek for the "
                                                     "bonus (rule 6)"),
    (DEFAULT, 10, "ge", (2, 8, 7, 0, 2), "EXT EXT", "third Exterminate with a surplus one: a "
                                                     "die is left, no bonus"),
    (DEFAULT, 10, "ge", (1, 12, 10, 1, 0), "D2", "last die: a tie goes to the Daleks with ge"),
    (DEFAULT, 10, "gt", (1, 12, 10, 1, 0), "D2", "last die: a tie loses with gt"),
    ("H4:2 H2 D3 D2 DOC EXT", 6, "ge", (3, 4, 0, 2, 0), "H4 H4 D2", "heavy Human 4, 2 Doctors"),
    ("H3 H1 D4 D1 DOC:2 EXT", 5, "gt", (4, 0, 0, 1, 0), "H3 H1 D4 D1", "odd faces"),
]

# Positions of the 10-dice game out of the brute force's reach, pinned from the solver.
SOLVER_PINS: list[Position] = [
    (DEFAULT, 10, "ge", (10, 0, 0, 0, 0), None, "fresh 10-dice turn: the headline value"),
    (DEFAULT, 10, "gt", (10, 0, 0, 0, 0), None, "fresh 10-dice turn, Daleks must exceed"),
    (DEFAULT, 10, "ge", (10, 0, 0, 0, 0), "H4 H4 H4 H2 H2 D3 D3 D3 D2 DOC",
     "Jenna's first roll (rulebook example)"),
    (DEFAULT, 10, "ge", (10, 0, 0, 0, 0), "H4 H2 H2 D3 D3 D3 D3 D2 DOC DOC",
     "Peter's first roll (rulebook example)"),
    (DEFAULT, 10, "ge", (5, 6, 6, 1, 0), "H4 H4 D3 D2 DOC",
     "Peter's second roll (French rulebook)"),
    (DEFAULT, 10, "ge", (6, 4, 3, 1, 1), "H4 H2 D3 DOC EXT EXT", "Doctor and Exterminate"),
    (DEFAULT, 10, "ge", (8, 0, 0, 2, 0), "H4 H4 H2 D3 D3 D2 EXT EXT", "two Doctors, eight dice"),
    (DEFAULT, 10, "ge", (6, 4, 3, 2, 0), "H4 H4 H2 D3 D2 EXT", "two Doctors, six dice"),
    (DEFAULT, 10, "gt", (6, 4, 3, 2, 0), "H4 H4 H2 D3 D2 EXT", "the same, Daleks must exceed"),
    (DEFAULT, 10, "ge", (7, 2, 0, 2, 0), "H4 H2 D3 D3 D2 D2 DOC", "third Doctor: turn over"),
]


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def unique_best(options: dict[tuple[str, str], Fraction]) -> dict[str, str] | None:
    """The one optimal option; refuse positions whose optimum is tied (the solver's choice
    among equals is a convention, not a fact to pin)."""
    if not options:
        return None
    top = max(options.values())
    best = sorted(o for o, v in options.items() if v == top)
    if len(best) != 1:
        raise SystemExit(f"tied optimum {best}: choose another position")
    return {"keep": best[0][0], "action": best[0][1]}


def brute_force_line(position: Position, brutes: dict[tuple[str, str], BruteForce]) -> dict:
    faces, _, tie, state, roll, _ = position
    brute = brutes.setdefault((faces, tie), BruteForce(faces, tie))
    if roll is None:
        return line("brute force", position, None, brute.value(state))
    outcome = tuple(roll.split())
    options = brute.options(state, outcome)
    return line("brute force", position, unique_best(options),
                max(options.values(), default=Fraction(0)))


@cache
def solved(faces: str, dice: int, tie: str) -> tuple[Rules, CompiledTurn, PointsSolution]:
    rules = parse_rules(faces, dice=dice, tie_rule=tie)
    turn = compile_turn(rules)
    return rules, turn, solve_points(turn, exact=True)


def solver_line(position: Position) -> dict:
    faces, dice, tie, state, roll, _ = position
    rules, turn, solution = solved(faces, dice, tie)
    if roll is None:
        return line("solver regression pin", position, None, solution.exact_value(turn.root))
    options = {(format_faces(rules, o.keep), o.action): solution.exact_value(o.node)
               for o in position_options(turn, TurnState(*state), parse_roll(rules, roll))}
    return line("solver regression pin", position, unique_best(options),
                max(options.values(), default=Fraction(0)))


def line(source: str, position: Position, best: dict[str, str] | None, value: Fraction) -> dict:
    faces, dice, tie, state, roll, note = position
    fields = ("to_roll", "humans", "daleks", "doctors", "exterminates")
    return {"source": source, "rules": {"faces": faces, "dice": dice, "tie_rule": tie},
            "state": dict(zip(fields, state)), "roll": roll, "best": best,
            "value": fraction_text(value), "note": note}


def main() -> None:
    brutes: dict[tuple[str, str], BruteForce] = {}
    lines = [brute_force_line(p, brutes) for p in BRUTE_FORCE]
    lines += [solver_line(p) for p in SOLVER_PINS]
    OUT.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    print(f"wrote {len(lines)} positions to {OUT}")


if __name__ == "__main__":
    main()
