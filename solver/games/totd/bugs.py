"""Deliberately wrong Time of the Daleks simulators: the corpus `verify totd` must reject
(docs/verify.md). Each plays the plan on an Adventure with one thing wrong that a simulator's
author might get wrong (a tool forgotten, a token miscounted, the wrong die thrown), so the exact
chance of each wrong simulator comes from the same exact evaluation of the plan."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from solver.dice import Die
from solver.games.totd.rules import Adventure


def _tools(adventure: Adventure, **changed) -> Adventure:
    doctor = adventure.doctors[0]
    return replace(adventure, doctors=(replace(doctor, tools=replace(doctor.tools, **changed)),))


def no_reroll_icons(adventure: Adventure) -> Adventure:
    """Bug: the re-roll icons are never used."""
    return _tools(adventure, rerolls=())


def no_face_changes(adventure: Adventure) -> Adventure:
    """Bug: the face-change icons are never used."""
    return _tools(adventure, changes=())


def one_sonic_short(adventure: Adventure) -> Adventure:
    """Bug: the Doctor starts with one Sonic Charge token fewer (a count off by one)."""
    return _tools(adventure, sonic=max(0, adventure.doctors[0].tools.sonic - 1))


def loaded_first_face(adventure: Adventure) -> Adventure:
    """Bug: every die shows its first face twice as often as each other face."""
    game = adventure.game
    dice = tuple(Die(d.name, d.faces, (2 * d.weights[0], *d.weights[1:])) for d in game.dice)
    return replace(adventure, game=replace(game, dice=dice))


BUGS: dict[str, Callable[[Adventure], Adventure]] = {
    "no-reroll-icons": no_reroll_icons,
    "no-face-changes": no_face_changes,
    "one-sonic-short": one_sonic_short,
    "loaded-first-face": loaded_first_face,
}
