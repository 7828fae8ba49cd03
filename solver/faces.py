"""Dice as players say them at the table, for any game: a die's face names plus the other names
players use for them ("Doctor" for DOC, "Human 4" for H4), in any letter case, with a count
before ("2x H4", "2 x H4", "2 H4") or after ("H4x2", "H4 x2"; the multiplication sign too),
separated by spaces or commas. One reader for every game, so every command and companion reads
dice the same way; each game gives only its names (`Faces`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cached_property

from solver.errors import InputError

_TOKEN = re.compile(
    r"(?P<number>[0-9]+)"
    r"|(?P<times>(?<=[0-9])[x\u00d7*]|[x\u00d7*](?![^\W\d_]))"  # "2x", "x2", a lone "x"
    r"|(?P<word>[^\W\d_]+)"  # letters: a name, or a name's start ("Human" of "Human 4")
    r"|(?P<none>(?<![^\s,;])-(?![^\s,;]))"  # "-": no dice (how tables write an empty keep)
    r"|(?P<gap>[\s,;!]+)"
    r"|(?P<other>.)", re.IGNORECASE | re.DOTALL)
MOST_WORDS = 3  # the longest name, in words and numbers ("The Doctor", "Human 4")
EXAMPLE = 'write dice as e.g. "2x H4 D3 Doctor" (a count before or after a face: 2x H4, H4x2)'


def _key(words: list[str]) -> str:
    """How a name is looked up: its words and numbers, lower case, run together."""
    return "".join(words).lower()


@dataclass(frozen=True)
class Faces:
    """A die's faces and the other names each goes by (face -> names). A face's own name
    always wins over another face's alias."""

    faces: tuple[str, ...]
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @cached_property
    def _names(self) -> dict[str, tuple[int, str]]:
        """Every name, as looked up, with its face's index and the name as written."""
        names = {_key(name.split()): (index, name) for index, face in enumerate(self.faces)
                 for name in self.aliases.get(face, ())}
        names.update({_key([face]): (index, face) for index, face in enumerate(self.faces)})
        return names

    def listing(self) -> str:
        """The faces, each with its first other name: "H4 (Human 4), DOC (Doctor)"."""
        return ", ".join(f"{f} ({self.aliases[f][0]})" if self.aliases.get(f) else f
                         for f in self.faces)

    def read(self, text: str, most: int, what: str = "dice") -> tuple[int, ...]:
        """Counts over the faces of dice written as players say them ("-" or nothing: none).
        A count is 1 to `most` (the dice in play), and so is the total; anything else is one
        clear InputError."""
        tokens = [(m.lastgroup, m.group(), m.end()) for m in _TOKEN.finditer(text)
                  if m.lastgroup not in ("gap", "none")]
        counts = [0] * len(self.faces)
        count: int | None = None  # a count waiting for its face
        last: int | None = None  # the face just read, while it may still take "x2"
        i = 0
        while i < len(tokens):
            kind, token, _ = tokens[i]
            if kind == "number" and count is None:
                count = self._count(token, most, text)
                i += 1 + (i + 1 < len(tokens) and tokens[i + 1][0] == "times")
                last = None
            elif kind == "times" and i + 1 < len(tokens) and tokens[i + 1][0] == "number":
                if last is None:
                    raise InputError(f"cannot read {_quoted(token + tokens[i + 1][1])} in "
                                     f"{_quoted(text)}: a count goes before a face (2x H4) or "
                                     f"after it (H4x2), once")
                counts[last] += self._count(tokens[i + 1][1], most, text) - 1
                i, last = i + 2, None
            elif kind == "word" or token.isalpha():  # an "x" that is no count is a name
                face, used = self._name(tokens, i, text)
                counts[face] += 1 if count is None else count
                last = face if count is None else None
                count, i = None, i + used
            else:
                raise InputError(f"cannot read {_quoted(token)} in {_quoted(text)}: {EXAMPLE}")
        if count is not None:
            raise InputError(f"{_quoted(text)} ends with a count and no face: {EXAMPLE}")
        if sum(counts) > most:
            raise InputError(f"{_quoted(text)} is {sum(counts)} {what}, but there are {most} "
                             f"dice in play")
        return tuple(counts)

    def _count(self, token: str, most: int, text: str) -> int:
        if len(token) > len(str(most)) or not 1 <= int(token) <= most:
            raise InputError(f"a count of dice is 1 to {most} (the dice in play), not "
                             f"{_quoted(token)} in {_quoted(text)}")
        return int(token)

    def _name(self, tokens: list[tuple[str, str, int]], start: int, text: str
              ) -> tuple[int, int]:
        """The face a name starting at tokens[start] says, and how many tokens it takes (the
        longest name that fits: "Human 4" before "Human"). A number joins a name only after
        a word ("Human 4", "H4"), so "H4 2 D3" is H4 then two D3."""
        words = [tokens[start][1]]
        for kind, token, _ in tokens[start + 1:start + MOST_WORDS]:
            if kind not in ("word", "number") or (kind == "number" and
                                                   not words[-1][-1].isalpha()):
                break
            words.append(token)
        for used in range(len(words), 0, -1):
            found = self._names.get(_key(words[:used]))
            if found is not None:
                return found[0], used
        named = 1 + (len(words) > 1 and words[1].isdigit())  # "Humn 4": the name meant
        begin = tokens[start][2] - len(words[0])
        raise InputError(self._unknown(words, text[begin:tokens[start + named - 1][2]], text))

    def _unknown(self, words: list[str], name: str, text: str) -> str:
        """One line for a name no face has: the faces there are, and the closest name."""
        guesses = [_key(words[:n]) for n in range(len(words), 0, -1)]
        close = next((m for g in guesses for m in get_close_matches(g, self._names, 1, 0.6)),
                     None)
        hint = f"; did you mean {self._names[close][1]}?" if close else ""
        return f"unknown face {_quoted(name)} in {_quoted(text)} (faces: {self.listing()}){hint}"


def dice_words(dice: Sequence[str]) -> str:
    """Dice as players say them (and `Faces.read` reads them back): a count before a face
    shown more than once, in first-seen order ("2x H4 D3")."""
    counts: dict[str, int] = {}
    for die in dice:
        counts[die] = counts.get(die, 0) + 1
    return " ".join(die if n == 1 else f"{n}x {die}" for die, n in counts.items())


def _quoted(text: str, most: int = 40) -> str:
    """A user's text quoted in a message, shortened when long."""
    return repr(text if len(text) <= most else text[:most] + "...")
