"""What every game's companion at the table (`dice-solver play GAME`) shares: the line loop on
standard input, the one-line hint for a line it cannot read, and the save file (JSON: the game
as set up and the lines accepted, so that a later run replays them and resumes)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from difflib import get_close_matches
from pathlib import Path

import click

from solver.errors import InputError


def hint(line: str, error: InputError, words: Sequence[str], longer: Sequence[str] = ()
         ) -> str:
    """One line for a line the companion cannot read: a command word it resembles, or the
    error. `longer`: command words that take more words after them."""
    word = line.strip().split()[0].lower() if line.strip() else ""
    if word in words and word not in longer and len(line.split()) > 1:
        return f"? type {word} alone on its line"
    close = get_close_matches(word, words, n=1, cutoff=0.6)
    if close and word not in words:
        return f"? did you mean {close[0]}? (help lists the commands)"
    return f"? {error} (help lists the commands)"


def answer(companion, line: str, save_file: str | None, saved: Callable[[], dict],
           help_text: str, words: Sequence[str], longer: Sequence[str] = ()) -> str:
    """What a companion says to one line typed at the table: `help`, `score` (a companion
    that keeps one), `undo`, or a line it reads; after a line it takes, the game (`saved()`)
    is written to `save_file`, if given."""
    word = line.lower()
    if word == "help":
        return help_text
    if word in ("score", "scores") and hasattr(companion, "score"):
        return companion.score()
    try:
        said = companion.undo() if word == "undo" else companion.read(line)
    except InputError as error:
        return hint(line, error, words, longer)
    if save_file and not write_save(save_file, saved()):
        said += f"\n? cannot write {save_file}: this line is not saved"
    return said


def read_save(path: str, key: str, what: str, setup: object,
              another: Callable[[object], str]) -> list[str]:
    """The lines a save file holds when it saved this very game (its set-up, under `key`,
    equals `setup`); none for a new or empty file; one clear error when it is not a save of
    `what`, or saved another game (`another` names it from its set-up)."""
    from solver.samples import read_text

    if not Path(path).is_file() or Path(path).stat().st_size == 0:
        return []
    try:
        data = json.loads(read_text(path, f"save file {path}"))
        saved, lines = data[key], data["lines"]
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            raise TypeError
    except (ValueError, KeyError, TypeError, RecursionError):
        raise InputError(f"save file {path} is not a saved {what}") from None
    if saved != setup:
        raise InputError(f"save file {path} holds another {another(saved)}: give its options, "
                         f"or another file")
    return lines


def write_save(path: str, data: dict) -> bool:
    """The save written whole (a crash leaves the last one); False when the file cannot be
    written (play goes on)."""
    scratch = f"{path}.tmp"
    try:
        Path(scratch).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(scratch, path)
    except OSError:
        return False
    return True


def replay(read: Callable[[str], object], lines: Sequence[str]) -> None:
    """Saved lines read again, each as it was at the table."""
    for number, line in enumerate(lines, 1):
        try:
            read(line)
        except InputError as error:
            raise InputError(f"saved line {number} ({line[:40]!r}) cannot be replayed: "
                             f"{error}") from None


def run(first: str, answer: Callable[[str], str], last: Callable[[], str]) -> None:
    """Say `first`, answer each line of standard input until `stop` or its end, say `last`."""
    click.echo(first)
    for raw in sys.stdin:
        line = raw.strip()
        if line.lower() == "stop":
            break
        if line:
            click.echo(answer(line))
    click.echo(last())
