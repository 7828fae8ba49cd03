"""What every game's companion at the table (`dice-solver play GAME`) shares: one vocabulary
(`stop` ends the mover's turn, `quit` or `q` leaves, `score`, `undo`, `help`), the line loop on
standard input, the one-line hint for a line it cannot read, and the save file (JSON: the game
as set up and the lines accepted, so that a later run replays them and resumes)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Protocol

import click

from solver.errors import InputError

QUIT = ("quit", "q")  # leave the program (a save file keeps the game)
WORDS = ("stop", "quit", "q", "score", "undo", "help")  # every companion's own words
VOCABULARY = """  score    where the game stands and the chances now
  undo     take back the last line taken
  quit, q  leave (with --save, the game is kept: run the same command to resume)
  help     this text"""


class Companion(Protocol):
    """What a game's companion does with the lines typed at the table."""

    lines: list[str]  # the lines taken so far: the game's whole history

    def read(self, line: str) -> str: ...  # take a line (InputError: not taken)
    def undo(self) -> str: ...  # take back the last line taken
    def score(self) -> str: ...  # where the game stands, with the chances now


def hint(line: str, error: InputError, words: Sequence[str], longer: Sequence[str] = ()
         ) -> str:
    """One line for a line the companion cannot read: a command word it resembles, or the
    error. `longer`: command words that take more words after them."""
    word = line.strip().split()[0].lower() if line.strip() else ""
    if word in words and word not in longer and len(line.split()) > 1:
        return f"? type {word} alone on its line"
    close = get_close_matches(word, words, n=1, cutoff=0.6)
    if close and word not in words and len(line.split()) == 1:
        return f"? did you mean {close[0]}? (help lists the commands)"
    return f"? {error} (help lists the commands)"


@dataclass
class Table:
    """One companion at the table: the words every companion shares (`stop` is the game's own:
    the mover ends the turn), its help, and the save file written after each line taken."""

    companion: Companion
    help_text: str
    words: Sequence[str]  # the game's words beyond WORDS (e.g. took)
    longer: Sequence[str] = ()  # those that take more words after them
    save_file: str | None = None
    saved: Callable[[], dict] = dict
    rejected: str | None = None  # the line just typed, when it was not taken

    def answer(self, line: str) -> str:
        """What the companion says to one line typed at the table (not `quit`)."""
        word = line.lower()
        if word != "undo":  # only an undo right after a line not taken is about that line
            self.rejected = None
        if word == "help":
            return f"{self.help_text}\n{VOCABULARY}"
        if word in ("score", "scores"):
            return self.companion.score()
        if word == "undo" and self.rejected is not None:
            said = (f"Nothing undone: your last line ({self.rejected[:40]!r}) was not taken. "
                    f"Type undo again to take back the line before it.")
            self.rejected = None
            return said
        try:
            said = self.companion.undo() if word == "undo" else self.companion.read(line)
        except InputError as error:
            self.rejected = line
            return hint(line, error, (*WORDS, *self.words), self.longer)
        if self.save_file and not write_save(self.save_file, self.saved()):
            said += f"\n? cannot write {self.save_file}: this line is not saved"
        return said

    def run(self, first: str, last: Callable[[], str]) -> None:
        """Say `first`, answer each line of standard input until `quit` (or `q`) or its end,
        then say `last` (if it says anything)."""
        click.echo(first)
        for raw in sys.stdin:
            line = raw.strip()
            if line.lower() in QUIT:
                break
            if line:
                click.echo(self.answer(line))
        if said := last():
            click.echo(said)


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
