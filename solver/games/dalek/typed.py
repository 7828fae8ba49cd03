"""Dalek Dice dice as players type them ("2x H4 D3 Doctor", "H4 H4 D3 DOC", "-" for none), read
into counts over the die's faces (the reader is solver/faces.py, `Rules.names`), and written back
the same way."""

from __future__ import annotations

from solver.dice import Counts
from solver.errors import InputError
from solver.games.dalek.rules import DOCTOR, EXTERMINATE, Rules, TurnState


def parse_dice(rules: Rules, text: str, what: str = "dice") -> Counts:
    """Dice written as players speak ("2x H4 D3 Doctor", "H4 H4 D3 DOC", "-" or nothing for
    none) as counts over the faces: at most the game's dice (`Rules.names`)."""
    return rules.names.read(text, rules.dice, what)


def kept_state(rules: Rules, kept: Counts, rolled: Counts) -> TurnState:
    """The state before a roll, from the dice set aside before it (counts over the faces):
    every die of the game not rolled is kept (rules 3 and 4), and the kept Humans and Daleks
    add up (rule 2)."""
    if sum(kept) + sum(rolled) != rules.dice:
        raise InputError(f"the dice kept ({sum(kept)}) and rolled ({sum(rolled)}) make "
                         f"{sum(kept) + sum(rolled)}, but the game has {rules.dice} dice (every "
                         f"die not rolled is kept)")
    humans = sum(rules.value(f) * kept[f] for f in rules.human_faces)
    daleks = sum(rules.value(f) * kept[f] for f in rules.dalek_faces)
    return TurnState(sum(rolled), humans, daleks, int(rules.count(kept, DOCTOR)),
                     int(rules.count(kept, EXTERMINATE)))


def parse_roll(rules: Rules, text: str) -> Counts:
    """A roll written as players speak ("H4 H4 D3 DOC") as counts over the die's faces."""
    counts = parse_dice(rules, text, "dice rolled")
    if not any(counts):
        raise InputError("the roll shows no dice")
    return counts


def format_faces(rules: Rules, counts: Counts) -> str:
    """Counts over faces written back as a roll ("H4 H4 D3"), or "-" for none."""
    text = " ".join(f for f, c in zip(rules.die.faces, counts) for _ in range(c))
    return text or "-"
