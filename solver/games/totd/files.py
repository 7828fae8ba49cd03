"""The Time of the Daleks dice file (reading 1): the shipped `dice.json`, or a user's corrected
copy (`--dice-file`), read and validated into the rules' `Game` (symbols, one die per colour, the
supply)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from solver.dice import Die
from solver.errors import InputError, quoted
from solver.games.totd.rules import BLACK, Game
from solver.games.totd.typed import _MULTIPLIER, _TIMES

DATA_FILE = Path(__file__).resolve().parent / "dice.json"


MAX_SYMBOLS, MAX_COLOURS, MAX_SUPPLY, MAX_WEIGHT = 20, 8, 99, 1000  # what a dice file may hold


@cache
def load_game(path: str | None = None) -> Game:
    """The dice from the shipped data file, or from a user's corrected copy (reading 1; "-":
    standard input)."""
    file = path if path else str(DATA_FILE)
    data = _read_json(file)
    symbols, colours, supply, faces = _dice_fields(file, data)
    _validate_dice_fields(file, symbols, colours, supply)
    dice = tuple(_die(file, colour, table, symbols) for colour, table in zip(colours, faces))
    source = data.get("source", "")
    return Game(symbols, colours, dice, supply, source if isinstance(source, str) else "")


def _read_json(file: str) -> dict:
    """The file's JSON object, or one clear line saying why it cannot be read."""
    from solver.samples import read_text  # here: only a dice file needs it

    text = read_text(file, f"dice file {file}")
    try:
        data = json.loads(text)
    except ValueError as error:
        raise InputError(f"dice file {file} is not valid JSON: {error}") from None
    except RecursionError:
        raise InputError(f"dice file {file} nests too deep to be a dice file") from None
    if not isinstance(data, dict):
        raise InputError(f"dice file {file} must hold a JSON object {_SHAPE}")
    return data


_SHAPE = "{symbols: [...], dice: {colour: {supply, faces: {symbol: weight}}}}"


_NAME = re.compile(r"[^\W\d][\w'-]*")  # a word: a letter, then letters, digits, ' or -


def _dice_fields(file: str, data: dict) -> tuple[tuple[str, ...], tuple[str, ...], tuple, list]:
    """The symbols, the colours (lower case), each colour's supply and face table, as written."""
    try:
        symbols, dice = data["symbols"], data["dice"]
        if not isinstance(symbols, list) or not isinstance(dice, dict) or \
                not all(isinstance(d, dict) for d in dice.values()):
            raise TypeError
        supply = tuple(dice[c]["supply"] for c in dice)
        faces = [dice[c]["faces"] for c in dice]
    except (KeyError, TypeError):
        raise InputError(f"dice file {file} needs {_SHAPE}") from None
    return tuple(symbols), tuple(str(c).lower() for c in dice), supply, faces


def _validate_dice_fields(file: str, symbols: tuple, colours: tuple[str, ...],
                       supply: tuple) -> None:
    """Distinct symbols and colours (words the options can name), Black among the colours, and
    whole numbers of dice."""
    if not 1 <= len(symbols) <= MAX_SYMBOLS or not 1 <= len(colours) <= MAX_COLOURS:
        raise InputError(f"dice file {file}: 1 to {MAX_SYMBOLS} symbols and 1 to "
                         f"{MAX_COLOURS} colours")
    for name in (*symbols, *colours):
        if not isinstance(name, str) or not _NAME.fullmatch(name) or _MULTIPLIER.match(name) \
                or name.lower() in _TIMES:
            raise InputError(f"dice file {file}: {quoted(name)} is not a name the options can "
                             f"use (one word, starting with a letter)")
    if len(set(s.lower() for s in symbols)) != len(symbols):
        raise InputError(f"dice file {file}: symbols must be distinct")
    if BLACK not in colours or len(set(colours)) != len(colours):
        raise InputError(f"dice file {file}: colours must be distinct and include {BLACK!r}")
    if any(not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_SUPPLY
           for n in supply):
        raise InputError(f"dice file {file}: each supply must be a whole number of dice, 0 to "
                         f"{MAX_SUPPLY}")


def _die(file: str, colour: str, table, symbols: tuple[str, ...]) -> Die:
    """A colour's die from its face table (symbol -> weight), every face a known symbol."""
    if not isinstance(table, dict) or not table or any(f not in symbols for f in table):
        raise InputError(f"dice file {file}: the {colour} faces must be a table of "
                         f"symbol -> weight over {', '.join(symbols)}")
    for face, weight in table.items():
        if not isinstance(weight, int) or isinstance(weight, bool) or \
                not 1 <= weight <= MAX_WEIGHT:
            raise InputError(f"dice file {file}: the {colour} face {face} needs a whole weight "
                             f"from 1 to {MAX_WEIGHT}, not {quoted(weight)}")
    return Die(colour, tuple(table), tuple(table.values()))
