"""The files a Dalek Dice user gives, read and validated against the rules: the die file
(`--die-file`, JSON or TOML), and rows of moves (a policy table of `dice-solver dalek table`, or a
decision log of `verify --decisions`, scored here against optimal play)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.dice import Die
from solver.errors import InputError
from solver.games.dalek.arrays import END_CODE, ROLL_CODE, THEN, Pairs, Play
from solver.games.dalek.rules import (
    DEFAULT_DICE,
    DEFAULT_FACES,
    FIELDS,
    NOT_OVER,
    TO_ROLL,
    Rules,
    TurnState,
)
from solver.games.dalek.typed import format_faces, parse_dice
from solver.samples import read_csv


def parse_rules(faces: str | None = None, die_file: str | None = None, dice: int = DEFAULT_DICE,
                tie_rule: str = "ge") -> Rules:
    """Rules from a face list ("H4 H2 D3 D2 DOC EXT", FACE:WEIGHT allowed) or a die file."""
    if faces is not None and die_file is not None:
        raise InputError("give the die as --faces or as --die-file, not both")
    if die_file is not None:
        faces = read_die_file(die_file)
    text = DEFAULT_FACES if faces is None else faces
    return Rules(Die.parse("Dalek Dice", text), dice, tie_rule)


def read_die_file(path: str) -> str:
    """A die file: JSON or TOML (by its name) with `faces`, a list of names or a table of
    name -> weight ("-": JSON on standard input; gzip, a byte order mark and size limits as
    every input file, `solver.samples.read_text`)."""
    from solver.samples import read_text

    text = read_text(path, f"die file {path}")
    try:
        data = _toml().loads(text) if Path(path).suffix == ".toml" else json.loads(text)
    except (ValueError, RecursionError) as error:
        reason = str(error) if isinstance(error, ValueError) else "nested too deep"
        raise InputError(f"die file {path} is malformed: {reason}") from None
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


# ---- moves written in files: policy tables and decision logs ----------------------------------
MOVE_COLUMNS = (*FIELDS, "roll", "keep", "then")  # a move in a policy table or decision log


@dataclass
class Moves:
    """Rows of (position, move) read from a file, validated against the rules."""

    lines: np.ndarray  # the file line of each row (1 = header)
    pair: np.ndarray
    keep: np.ndarray  # counts over the keepable faces
    then: np.ndarray  # END/STOP/ROLL codes
    extra: dict[str, list[str]]  # other columns, as text


def read_moves(pairs: Pairs, path: str, what: str) -> Moves:
    """Rows with the columns of `dice-solver dalek table` (to_roll, humans, daleks, doctors,
    exterminates, roll, keep, then; others are kept as text): each a legal move by the rules
    in a position some turn reaches. `what` names the file in errors."""
    header, rows, lines = read_csv(path, what, MOVE_COLUMNS)
    rules = pairs.rules
    keepable = list(rules.keepable_faces)
    columns = {name: header.index(name) for name in header}
    fields = np.empty((len(rows), len(FIELDS)), dtype=np.int64)
    rolled = np.empty((len(rows), len(rules.die.faces)), dtype=np.int64)
    kept = np.empty((len(rows), len(keepable)), dtype=np.int64)
    then = np.empty(len(rows), dtype=np.int64)
    faces: dict[str, tuple[int, ...]] = {}
    for r, (row, line) in enumerate(zip(rows, lines)):
        try:
            fields[r] = [int(row[columns[c]]) for c in FIELDS]
            rolled[r] = _faces(rules, row[columns["roll"]], faces)
            counts = _faces(rules, row[columns["keep"]], faces)
            then[r] = THEN.index(row[columns["then"]].strip().lower())
        except (ValueError, OverflowError, InputError) as error:  # OverflowError: past int64
            raise InputError(f"{what} line {line}: {_reason(error)}") from None
        if any(c for f, c in enumerate(counts) if f not in keepable):
            raise InputError(f"{what} line {line}: only Human and Dalek dice are kept by choice")
        kept[r] = [counts[f] for f in keepable]
    _validate_rows(fields, rolled.sum(axis=1) == fields[:, TO_ROLL], lines, what,
                "the roll shows {shown} dice but {to_roll} were to roll",
                shown=rolled.sum(axis=1), to_roll=fields[:, TO_ROLL])
    state = pairs.states(fields)
    _validate_rows(fields, state >= 0, lines, what, "no turn reaches this position ({state})")
    pair = pairs.pair(state, rolled)
    _validate_rows(fields, pairs.choice[0, pair] >= 0, lines, what,
                "the third Doctor ends the turn on this roll: there is no move to make")
    _validate_rows(fields, rules.may_keep(rolled, kept), lines, what,
                "this keep is not allowed (it must be in the roll, and one die must be kept)")
    _, score = Play(rules).roll(fields, rolled, kept, np.full(len(rows), ROLL_CODE))
    _validate_rows(fields, (score != NOT_OVER) == (then == END_CODE), lines, what,
                "'then' must be 'end' exactly when the keep ends the turn")
    extra = {name: [row[i] for row in rows] for name, i in columns.items()
             if name not in MOVE_COLUMNS}
    return Moves(lines, pair, kept, then, extra)


def _faces(rules: Rules, text: str, cache: dict[str, tuple[int, ...]]) -> tuple[int, ...]:
    """`parse_dice`, once per distinct text (a file repeats the same rolls many times)."""
    if text not in cache:
        cache[text] = parse_dice(rules, text)
    return cache[text]


def _reason(error: Exception) -> str:
    return str(error) if isinstance(error, InputError) else \
        "expected whole numbers, faces such as 'H4 D3' (or '-') and then end, stop or roll"


def _validate_rows(fields: np.ndarray, ok: np.ndarray, lines: np.ndarray, what: str, message: str,
                **values: np.ndarray) -> None:
    """Raise for the first row that is not ok, naming its line and position."""
    bad = np.flatnonzero(~ok)
    if len(bad):
        r = int(bad[0])
        words = {name: int(v[r]) for name, v in values.items()}
        raise InputError(f"{what} line {lines[r]}: " + message.format(
            state=TurnState(*fields[r].tolist()), **words))


def describe_move(pairs: Pairs, moves: Moves, row: int) -> dict:
    """One move of a log as players write it."""
    rules = pairs.rules
    keep = [0] * len(rules.die.faces)
    for face, count in zip(rules.keepable_faces, moves.keep[row].tolist()):
        keep[face] = count
    p = int(moves.pair[row])
    return {"line": int(moves.lines[row]),
            "position": str(TurnState(*pairs.fields[pairs.state_of[p]].tolist())),
            "roll": format_faces(rules, tuple(pairs.rolled[p].tolist())),
            "keep": format_faces(rules, tuple(keep)), "then": THEN[int(moves.then[row])]}
