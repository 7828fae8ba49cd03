"""Dalek Dice as the rulebook states it (numbers refer to docs/rules.md, "Dalek Dice").

Every rule of the game is written here once; the turn graph, the policies, the simulator and the
move validation all play by these functions. The die is data: faces named H<n> (a Human worth n),
D<n> (a Dalek worth n), DOC (The Doctor) and EXT (Exterminate!). A turn's state is five numbers
(`FIELDS`); the rules that move it take them along the last axis of an array, so one call plays
one roll or a million side by side, and the scoring rules work on plain integers too. The race
(rules 10 and 11) is scores by seat.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.dice import Counts, Die
from solver.errors import InputError, brief
from solver.faces import Faces

DEFAULT_FACES = "H4 H2 D3 D2 DOC EXT"  # inferred layout, see shared/reference/game-facts.md
DEFAULT_DICE = 10
DEFAULT_TARGET = 60  # rule 10
MAX_DICE = 30  # bounds of what a user may ask (a request inside them may still be refused
MAX_FACES = 12  # as too costly, by solver.games.dalek.cost)
MAX_VALUE = 99  # the number on a Human or Dalek face
MAX_WEIGHT = 1000  # a face's weight: how many sides of a die show it
# The rulebook: "2 or more" players. No rule bounds them; a solve's size does (docs/rules.md,
# reading 10: the final round alone holds 2^(n-1) - 1 positions per final score), and cost.py
# refuses a race by its estimate. This bound only keeps that count instant for any request.
MAX_PLAYERS = 100
MAX_TARGET = 1000
DOCTOR = "DOC"
EXTERMINATE = "EXT"
THIRD = 3  # the third Doctor (rule 5) or the third Exterminate (rule 6) ends the turn
BONUS = 5  # rule 8: every die kept
TIE_RULES = ("ge", "gt")
FIELDS = ("to_roll", "humans", "daleks", "doctors", "exterminates")  # a state, as numbers
TO_ROLL, HUMANS, DALEKS, DOCTORS, EXTERMINATES = range(len(FIELDS))
NOT_OVER = -1  # the score of a turn that goes on
_VALUED = re.compile(r"^([HD])([1-9][0-9]*)$")


@dataclass(frozen=True, order=True)
class TurnState:
    """Where a turn stands before a roll: dice still to roll and what has been kept."""

    to_roll: int
    humans: int = 0
    daleks: int = 0
    doctors: int = 0
    exterminates: int = 0

    @property
    def fields(self) -> tuple[int, ...]:
        """The state as numbers, in the order of `FIELDS`."""
        return (self.to_roll, self.humans, self.daleks, self.doctors, self.exterminates)

    def __str__(self) -> str:
        return (f"{self.to_roll} to roll, kept {self.humans} Humans, {self.daleks} Daleks, "
                f"{self.doctors} Doctor(s), {self.exterminates} Exterminate(s)")


@dataclass(frozen=True)
class Rules:
    """The dice used and the rules variant (rule 9: ties go to the Daleks with "ge")."""

    die: Die
    dice: int = DEFAULT_DICE
    tie_rule: str = "ge"

    def __post_init__(self) -> None:
        if self.tie_rule not in TIE_RULES:
            raise InputError(f"tie rule must be one of {', '.join(TIE_RULES)}, not "
                             f"{self.tie_rule!r}")
        if not 1 <= self.dice <= MAX_DICE:
            raise InputError(f"the number of dice must be between 1 and {MAX_DICE}, not "
                             f"{self.dice}")
        for face, weight in zip(self.die.faces, self.die.weights):
            valued = _VALUED.match(face)
            if face not in (DOCTOR, EXTERMINATE) and not valued:
                raise InputError(f"unknown Dalek Dice face {brief(face)}: faces are H<n> (Human), "
                                 f"D<n> (Dalek), DOC and EXT")
            if valued and (len(valued.group(2)) > len(str(MAX_VALUE)) or
                           int(valued.group(2)) > MAX_VALUE):
                raise InputError(f"face {brief(face)}: a Human or Dalek face is worth 1 to "
                                 f"{MAX_VALUE}")
            if weight > MAX_WEIGHT:
                raise InputError(f"face {face!r} has weight {brief(str(weight))}: a weight "
                                 f"(how many sides show the face) is at most {MAX_WEIGHT}")
        if len(self.die.faces) > MAX_FACES:
            raise InputError(f"the die has {len(self.die.faces)} different faces: at most "
                             f"{MAX_FACES}")
        if not self.keepable_faces:
            raise InputError("the die needs a Human (H<n>) or a Dalek (D<n>) face: with only "
                             "DOC and EXT no die could ever be kept")

    # ---- the faces (rules 1 and 2) --------------------------------------------------------
    @property
    def human_faces(self) -> tuple[int, ...]:
        """Indices of the Human faces, in die order."""
        return tuple(i for i, f in enumerate(self.die.faces) if f.startswith("H"))

    @property
    def dalek_faces(self) -> tuple[int, ...]:
        return tuple(i for i, f in enumerate(self.die.faces) if f.startswith("D") and f != DOCTOR)

    @property
    def keepable_faces(self) -> tuple[int, ...]:
        """Rule 4: the faces the player chooses to keep (Humans then Daleks)."""
        return self.human_faces + self.dalek_faces

    def value(self, face: int) -> int:
        """Rule 2: the number printed on a Human or Dalek face."""
        return int(self.die.faces[face][1:])

    def kept_sums(self, faces: Sequence[int], most: int) -> list[set[int]]:
        """Rule 2: sums[i] holds every total that exactly i kept dice of these faces (Human
        faces, or Dalek faces) can make, for i = 0..most."""
        values = {self.value(f) for f in faces}
        sums = [{0}] + [set() for _ in range(most)]
        for i in range(1, most + 1):
            sums[i] = {s + v for s in sums[i - 1] for v in values}
        return sums

    @cached_property
    def names(self) -> Faces:
        """The faces as players name them too: H<n> "Human <n>", D<n> "Dalek <n>", DOC
        "Doctor" or "The Doctor", EXT "Exterminate" (any case: `solver.faces`)."""
        spoken = {DOCTOR: ("Doctor", "The Doctor"), EXTERMINATE: ("Exterminate",)}
        return Faces(self.die.faces, {
            face: spoken.get(face) or (f"{'Human' if face[0] == 'H' else 'Dalek'} {face[1:]}",)
            for face in self.die.faces})

    @property
    def label(self) -> str:
        """The die as used, for people: its faces, and the weights that are not 1 ("H4 H2 D3
        D2 DOC EXT, weight 2 on H4 (7 in all)")."""
        faces = " ".join(self.die.faces)
        heavy = [f"{w} on {f}" for f, w in zip(self.die.faces, self.die.weights) if w != 1]
        if not heavy:
            return faces
        return f"{faces}, weight {', '.join(heavy)} ({self.die.total} in all)"

    @cached_property
    def kept_values(self) -> np.ndarray:
        """Rule 2: what one kept die of each keepable face adds to (Humans, Daleks)."""
        return np.array([(self.value(f), 0) if f in self.human_faces else (0, self.value(f))
                         for f in self.keepable_faces], dtype=np.int64).reshape(-1, 2)

    def count(self, rolled: Counts | np.ndarray, face: str) -> np.ndarray:
        """How many dice of a roll (counts over the faces, last axis) show a face: 0 when the
        die has no such face."""
        rolled = np.asarray(rolled)
        if face not in self.die.faces:
            return np.zeros(rolled.shape[:-1], dtype=np.int64)
        return rolled[..., self.die.faces.index(face)]

    # ---- a roll (rules 3 and 4) -------------------------------------------------------------
    def start(self) -> TurnState:
        """Rule 3: a turn starts by rolling all the dice."""
        return TurnState(self.dice)

    def kept_dice(self, state: TurnState) -> int:
        return self.dice - state.to_roll

    def set_aside_dice(self, rolled: Counts | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rule 3: the Doctors and the Exterminates a roll sets aside: exactly one of each face
        that shows (extras are rolled again), so a Doctor and an Exterminate set aside two."""
        return ((self.count(rolled, DOCTOR) > 0) * 1,  # * 1: integers, so the two add up to 2
                (self.count(rolled, EXTERMINATE) > 0) * 1)

    def set_aside(self, fields: np.ndarray, rolled: Counts | np.ndarray) -> np.ndarray:
        """Rule 3: the state (fields, last axis) once a roll's Doctor and Exterminate are set
        aside: kept, and no longer to roll. `fields` and `rolled` broadcast."""
        doctor, exterminate = self.set_aside_dice(rolled)
        change = np.zeros((*doctor.shape, len(FIELDS)), dtype=np.int64)
        change[..., TO_ROLL] = -(doctor + exterminate)
        change[..., DOCTORS] = doctor
        change[..., EXTERMINATES] = exterminate
        return np.asarray(fields) + change

    def keep(self, fields: np.ndarray, kept: np.ndarray) -> np.ndarray:
        """Rules 2 and 4: the state once `kept` (counts over the keepable faces, last axis) is
        kept: their numbers add to the Humans and the Daleks, and they are no longer to roll."""
        kept = np.asarray(kept)
        change = np.zeros((*kept.shape[:-1], len(FIELDS)), dtype=np.int64)
        change[..., TO_ROLL] = -kept.sum(axis=-1)
        change[..., [HUMANS, DALEKS]] = kept @ self.kept_values
        return np.asarray(fields) + change

    def may_keep(self, rolled: Counts | np.ndarray, kept: np.ndarray) -> np.ndarray:
        """Rule 4: a keep takes only Human and Dalek dice the roll shows, and at least one die
        is kept on every roll (a set-aside Doctor or Exterminate counts)."""
        kept = np.asarray(kept)
        shown = np.asarray(rolled)[..., list(self.keepable_faces)]
        doctor, exterminate = self.set_aside_dice(rolled)
        return np.all(kept <= shown, axis=-1) & enough_kept(kept.sum(axis=-1) + doctor +
                                                            exterminate)

    # ---- the end of a turn (rules 5, 6 and 8) ------------------------------------------------
    def daleks_hold(self, humans, daleks):
        """Rule 8/9: the Daleks equal or exceed the Humans ("ge"), or strictly exceed ("gt")."""
        return daleks >= humans if self.tie_rule == "ge" else daleks > humans

    def no_dice_left_score(self, humans, daleks):
        """Rule 8: every die kept: Humans + 5 if the Daleks hold, else nothing."""
        return (humans + BONUS) * self.daleks_hold(humans, daleks)

    def stop_score(self, humans, daleks):
        """Rule 8: stopping with dice left: the Humans if the Daleks hold, else nothing."""
        return humans * self.daleks_hold(humans, daleks)

    def end_score(self, fields: np.ndarray, intervenes: np.ndarray | None = None) -> np.ndarray:
        """The turn's points if it is over once a roll's dice are placed (fields, last axis),
        else NOT_OVER: the Doctor intervenes (rule 5, which beats rule 6), the third
        Exterminate (rule 6), no die left (rule 8). `intervenes` replaces rule 5's verdict (a
        deliberately wrong simulator changes it)."""
        fields = np.asarray(fields)
        to_roll, humans, daleks = fields[..., TO_ROLL], fields[..., HUMANS], fields[..., DALEKS]
        if intervenes is None:
            intervenes = doctor_intervenes(fields[..., DOCTORS])
        return np.where(intervenes, 0, np.where(
            exterminate(fields[..., EXTERMINATES]), exterminate_score(humans, to_roll),
            np.where(to_roll == 0, self.no_dice_left_score(humans, daleks), NOT_OVER)))

    def scoring(self, state: TurnState) -> int | None:
        """The turn's points if it is over once this roll's dice are placed, else None."""
        score = int(self.end_score(np.array(state.fields)))
        return None if score == NOT_OVER else score


def doctor_intervenes(doctors):
    """Rule 5: the third Doctor ends the turn at once with no points (it beats rule 6)."""
    return doctors >= THIRD


def exterminate(exterminates):
    """Rule 6: the third Exterminate ends the turn once this roll's results are placed."""
    return exterminates >= THIRD


def exterminate_score(humans, to_roll):
    """Rule 6: twice the Humans, Daleks ignored, plus 5 after doubling if every die is kept."""
    return 2 * humans + (to_roll == 0) * BONUS


def enough_kept(kept):
    """Rule 4: at least one die is kept on every roll (a set-aside Doctor or Exterminate counts)."""
    return kept >= 1


# ---- the race (rules 10 and 11) -------------------------------------------------------------
def reaches_target(score, target: int):
    """Rule 10: a score at the target or above ends the game once the round is played out (the
    players after the one who reached it still take their turns)."""
    return score >= target


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """Rule 11: the seats with the highest score (when several, they share the win)."""
    best = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)
