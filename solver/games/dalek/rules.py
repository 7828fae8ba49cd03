"""Dalek Dice, one turn, as the rulebook states it (numbers refer to docs/rules.md, "Dalek Dice").

The die is data: faces named H<n> (a Human worth n), D<n> (a Dalek worth n), DOC (The Doctor) and
EXT (Exterminate!). The rule functions take plain integers and also work elementwise on NumPy
arrays, so the solver's vectorised enumeration applies the very same rules as the simulator.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from solver.dice import Counts, Die
from solver.errors import InputError

DEFAULT_FACES = "H4 H2 D3 D2 DOC EXT"  # inferred layout, see shared/reference/game-facts.md
DEFAULT_DICE = 10
DOCTOR = "DOC"
EXTERMINATE = "EXT"
THIRD = 3  # the third Doctor (rule 5) or the third Exterminate (rule 6) ends the turn
BONUS = 5  # rule 8: every die kept
TIE_RULES = ("ge", "gt")
_VALUED = re.compile(r"^([HD])([1-9][0-9]*)$")


@dataclass(frozen=True, order=True)
class TurnState:
    """Where a turn stands before a roll: dice still to roll and what has been kept."""

    to_roll: int
    humans: int = 0
    daleks: int = 0
    doctors: int = 0
    exterminates: int = 0

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
        if not 1 <= self.dice <= 30:
            raise InputError(f"the number of dice must be between 1 and 30, not {self.dice}")
        for face in self.die.faces:
            if face not in (DOCTOR, EXTERMINATE) and not _VALUED.match(face):
                raise InputError(f"unknown Dalek Dice face {face!r}: faces are H<n> (Human), "
                                 f"D<n> (Dalek), DOC and EXT")

    # ---- the faces ----------------------------------------------------------------------
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

    def count(self, rolled: Counts, face: str) -> int:
        """How many dice of a roll show a face (0 when the die has no such face)."""
        return rolled[self.die.faces.index(face)] if face in self.die.faces else 0

    # ---- a turn -----------------------------------------------------------------------------
    def start(self) -> TurnState:
        """Rule 3: a turn starts by rolling all the dice."""
        return TurnState(self.dice)

    def kept_dice(self, state: TurnState) -> int:
        return self.dice - state.to_roll

    def scoring(self, state: TurnState) -> int | None:
        """The turn's points if it is over once this roll's dice are placed, else None."""
        if doctor_intervenes(state.doctors):
            return 0
        if exterminate(state.exterminates):
            return exterminate_score(state.humans, state.to_roll)
        if state.to_roll == 0:
            return self.no_dice_left_score(state.humans, state.daleks)
        return None

    def daleks_hold(self, humans, daleks):
        """Rule 8/9: the Daleks equal or exceed the Humans ("ge"), or strictly exceed ("gt")."""
        return daleks >= humans if self.tie_rule == "ge" else daleks > humans

    def no_dice_left_score(self, humans: int, daleks: int) -> int:
        """Rule 8: every die kept: Humans + 5 if the Daleks hold, else nothing."""
        return humans + BONUS if self.daleks_hold(humans, daleks) else 0

    def stop_score(self, state: TurnState) -> int:
        """Rule 8: stopping with dice left: the Humans if the Daleks hold, else nothing."""
        return state.humans if self.daleks_hold(state.humans, state.daleks) else 0


def set_aside(doctors, exterminates, doctors_rolled, exterminates_rolled):
    """Rule 3: if any Doctor shows, exactly one is kept; likewise one Exterminate. Returns the
    kept Doctors and Exterminates and how many dice this set aside (extras are rolled again)."""
    new_doctor = (doctors_rolled > 0) * 1  # * 1: integers, so two set-asides add up to 2
    new_exterminate = (exterminates_rolled > 0) * 1
    return doctors + new_doctor, exterminates + new_exterminate, new_doctor + new_exterminate


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


# ---- reading dice ---------------------------------------------------------------------------
def parse_rules(faces: str | None = None, die_file: str | None = None, dice: int = DEFAULT_DICE,
                tie_rule: str = "ge") -> Rules:
    """Rules from a face list ("H4 H2 D3 D2 DOC EXT", FACE:WEIGHT allowed) or a die file."""
    if faces is not None and die_file is not None:
        raise InputError("give the die as --faces or as --die-file, not both")
    if die_file is not None:
        faces = read_die_file(die_file)
    return Rules(Die.parse("Dalek Dice", DEFAULT_FACES if faces is None else faces), dice,
                 tie_rule)


def read_die_file(path: str) -> str:
    """A die file: JSON or TOML with `faces`, a list of names or a table of name -> weight."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read die file {path}: {error.strerror}") from None
    try:
        data = _toml().loads(text) if file.suffix == ".toml" else json.loads(text)
    except ValueError as error:
        raise InputError(f"die file {path} is malformed: {error}") from None
    faces = data.get("faces") if isinstance(data, dict) else None
    if isinstance(faces, list) and all(isinstance(f, str) for f in faces):
        return " ".join(faces)
    if isinstance(faces, dict) and all(isinstance(w, int) for w in faces.values()):
        return " ".join(f"{face}:{weight}" for face, weight in faces.items())
    raise InputError(f"die file {path} needs `faces`: a list of face names or a table of "
                     f"face = weight")


def _toml():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib


def parse_roll(rules: Rules, text: str) -> Counts:
    """A roll written as players speak ("H4 H4 D3 DOC") as counts over the die's faces."""
    counts = [0] * len(rules.die.faces)
    for token in text.replace(",", " ").split():
        counts[rules.die.index(token.upper())] += 1
    if not any(counts):
        raise InputError("the roll shows no dice")
    return tuple(counts)


def format_faces(rules: Rules, counts: Counts) -> str:
    """Counts over faces written back as a roll ("H4 H4 D3"), or "-" for none."""
    text = " ".join(f for f, c in zip(rules.die.faces, counts) for _ in range(c))
    return text or "-"
