"""Doctor Who: Time of the Daleks, the Adventure's dice problem, as data and rules readings.

Numbers in docstrings refer to docs/rules.md (TotD). The dice (symbols, faces, supply) come from a
data file a user may correct (`solver/games/totd/dice.json`); this module reads it and the
player's description of a Challenge, a pool and the tools, and refuses what cannot be (one clear
InputError) rather than guessing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from solver.dice import Die
from solver.errors import InputError

DATA_FILE = Path(__file__).resolve().parent / "dice.json"
BLACK = "black"
POOL_LIMIT = 8  # reading 3: discard down to eight dice
MAX_SONIC = 5  # a TARDIS Console holds at most five Sonic Charge tokens
SONIC_REROLL = 2  # reading 4: tokens to re-roll any one die
SONIC_CHANGE = 3  # reading 4: tokens to set any one die to any symbol
REROLL_KINDS = ("number", "any", "all")
HELP_SIZES = {"afar": (7, 1), "location": (5, 3)}  # reading 6: (helped Doctor, helper)
TIME_BREACH_LOSS = 1  # reading 6: the helped Doctor's pool is one die smaller


@dataclass(frozen=True)
class Game:
    """The Story Dice: symbols, one Die per colour (faces are symbols), the supply per colour."""

    symbols: tuple[str, ...]
    colours: tuple[str, ...]
    dice: tuple[Die, ...]
    supply: tuple[int, ...]
    source: str

    def colour(self, text: str) -> int:
        """The index of a colour named in any letter case, or a clear error."""
        name = text.strip().lower()
        if name not in self.colours:
            raise InputError(f"unknown colour {text!r} (colours: {', '.join(self.colours)})")
        return self.colours.index(name)

    def symbol(self, text: str) -> int:
        """The index of a symbol named in any letter case, or a clear error."""
        lowered = [s.lower() for s in self.symbols]
        if text.strip().lower() not in lowered:
            raise InputError(f"unknown symbol {text!r} (symbols: {', '.join(self.symbols)})")
        return lowered.index(text.strip().lower())

    @property
    def black(self) -> int:
        return self.colours.index(BLACK)


@cache
def load_game(path: str | None = None) -> Game:
    """The dice from the shipped data file, or from a user's corrected copy."""
    file = Path(path) if path else DATA_FILE
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        raise InputError(f"cannot read dice file {file}: {error.strerror}") from None
    except ValueError as error:
        raise InputError(f"dice file {file} is not valid JSON: {error}") from None
    try:
        symbols = tuple(str(s) for s in data["symbols"])
        dice = data["dice"]
        colours = tuple(str(c).lower() for c in dice)
        supply = tuple(dice[c]["supply"] for c in dice)
        faces = [dice[c]["faces"] for c in dice]
    except (KeyError, TypeError):
        raise InputError(f"dice file {file} needs `symbols` and `dice`: colour -> "
                         f"{{supply, faces: {{symbol: weight}}}}") from None
    if len(set(s.lower() for s in symbols)) != len(symbols) or not symbols:
        raise InputError(f"dice file {file}: symbols must be distinct and not empty")
    if BLACK not in colours or len(set(colours)) != len(colours):
        raise InputError(f"dice file {file}: colours must be distinct and include {BLACK!r}")
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in supply):
        raise InputError(f"dice file {file}: each supply must be a whole number of dice")
    built = []
    for colour, table in zip(colours, faces):
        if not isinstance(table, dict) or any(f not in symbols for f in table):
            raise InputError(f"dice file {file}: the {colour} faces must be a table of "
                             f"symbol -> weight over {', '.join(symbols)}")
        built.append(Die(colour, tuple(table), tuple(table.values())))
    return Game(symbols, colours, tuple(built), supply, str(data.get("source", "")))


# ---- what the player holds ------------------------------------------------------------------
Pool = tuple[int, ...]
"""How many dice of each colour, in the game's colour order."""


@dataclass(frozen=True, order=True)
class Reroll:
    """A Dice Re-roll icon (reading 4): up to `count` dice ("number"), any or all of a colour."""

    kind: str
    colour: int
    count: int = 0

    def text(self, game: Game) -> str:
        amount = str(self.count) if self.kind == "number" else self.kind
        return f"{amount} {game.colours[self.colour]}"


@dataclass(frozen=True, order=True)
class Change:
    """A Dice Change Face icon (reading 4): one die of the colour to the symbol."""

    colour: int
    symbol: int

    def text(self, game: Game) -> str:
        return f"{game.colours[self.colour]}:{game.symbols[self.symbol]}"


@dataclass(frozen=True)
class Tools:
    """What a Doctor may use during the Adventure (reading 4)."""

    sonic: int = 0
    rerolls: tuple[Reroll, ...] = ()
    changes: tuple[Change, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.sonic <= MAX_SONIC:
            raise InputError(f"Sonic Charge tokens are 0 to {MAX_SONIC}, not {self.sonic}")

    def text(self, game: Game) -> str:
        parts = [f"{self.sonic} sonic"] if self.sonic else []
        parts += [f"reroll {r.text(game)}" for r in self.rerolls]
        parts += [f"change {c.text(game)}" for c in self.changes]
        return "; ".join(parts) or "no tools"


@dataclass(frozen=True)
class Doctor:
    """One Doctor's dice pool and tools."""

    pool: Pool
    tools: Tools = field(default_factory=Tools)


@dataclass(frozen=True)
class Adventure:
    """A Challenge, the Doctors taking part (one, or the helped Doctor then the helper) and the
    "Any Adventure" tools either may use (reading 6)."""

    game: Game
    need: tuple[int, ...]
    doctors: tuple[Doctor, ...]
    shared: Tools = field(default_factory=Tools)
    printed_faces: bool = False  # reading 4 variant: a change may only show a face the die has

    def __post_init__(self) -> None:
        check_supply(self.game, tuple(sum(d.pool[c] for d in self.doctors)
                                      for c in range(len(self.game.colours))))
        if self.shared.sonic:
            raise InputError("Sonic Charge tokens belong to a Doctor, not to an Any Adventure card")
        if self.printed_faces:
            for change in self.all_changes:
                die = self.game.dice[change.colour]
                if self.game.symbols[change.symbol] not in die.faces:
                    raise InputError(f"change {change.text(self.game)}: the "
                                     f"{die.name} die has no {self.game.symbols[change.symbol]} "
                                     f"face (--printed-faces)")

    @property
    def all_changes(self) -> tuple[Change, ...]:
        return self.shared.changes + tuple(c for d in self.doctors for c in d.tools.changes)

    def with_doctors(self, doctors: tuple[Doctor, ...]) -> Adventure:
        return replace(self, doctors=doctors)


# ---- reading the player's words ---------------------------------------------------------------
_TIMES = ("x", "\u00d7", "*")  # "Science x2", also with a multiplication sign or a star
_MULTIPLIER = re.compile(r"^[x\u00d7*](\d+)$", re.IGNORECASE)


def parse_challenge(game: Game, text: str) -> tuple[int, ...]:
    """A Challenge such as "Science x2, Cunning, Tactics" as counts per symbol (reading 2)."""
    need = [0] * len(game.symbols)
    tokens = text.replace(",", " ").replace("*", " *").replace("\u00d7", " \u00d7").split()
    last = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.lower() in _TIMES and i + 1 < len(tokens):
            token, i = token + tokens[i + 1], i + 1
        multiplier = _MULTIPLIER.match(token)
        if multiplier:
            times = int(multiplier.group(1))
            if last is None or times < 1:
                raise InputError(f"cannot read the Challenge {text!r}: write e.g. "
                                 f"\"Science x2, Cunning\"")
            need[last] += times - 1
            last = None
        else:
            last = game.symbol(token)
            need[last] += 1
        i += 1
    if not any(need):
        raise InputError("the Challenge names no symbol")
    return tuple(need)


def parse_pool(game: Game, text: str) -> Pool:
    """A pool such as "black=6 blue=2" as dice per colour."""
    pool = [0] * len(game.colours)
    named = set()
    for token in text.replace(",", " ").split():
        colour, sep, count = token.partition("=")
        if not sep or not count.isdigit():
            raise InputError(f"cannot read {token!r} in the pool {text!r} (write COLOUR=N, "
                             f"e.g. \"black=6 blue=2\")")
        index = game.colour(colour)
        if index in named:
            raise InputError(f"the pool {text!r} names {game.colours[index]} twice")
        named.add(index)
        pool[index] = int(count)
    return tuple(pool)


def check_pool_size(game: Game, pool: Pool, limit: int = POOL_LIMIT) -> Pool:
    """Reading 3: a pool holds 1 to `limit` dice (and no more than the supply)."""
    if not any(pool):
        raise InputError("the pool has no dice")
    if sum(pool) > limit:
        raise InputError(f"a dice pool holds at most {limit} dice, not {sum(pool)} "
                         f"(use `totd build` to choose which to discard)")
    check_supply(game, pool)
    return pool


def check_supply(game: Game, pool: Pool) -> None:
    """Reading 1: no more dice of a colour than the game has."""
    for colour, (n, supply) in enumerate(zip(pool, game.supply)):
        if n > supply:
            raise InputError(f"{n} {game.colours[colour]} dice, but the supply has only {supply}")


def parse_reroll(game: Game, text: str) -> Reroll:
    """A re-roll icon: "2 black" (or "up to 2 black"), "any blue" or "all red"."""
    words = text.strip().lower().split()
    if words[:2] == ["up", "to"]:
        words = words[2:]
    if len(words) != 2:
        raise InputError(f"cannot read the re-roll {text!r} (write \"2 black\", \"any blue\" "
                         f"or \"all red\")")
    amount, colour = words
    if amount.isdigit() and int(amount) >= 1:
        return Reroll("number", game.colour(colour), int(amount))
    if amount in ("any", "all"):
        return Reroll(amount, game.colour(colour))
    raise InputError(f"cannot read the re-roll {text!r}: the amount is a number of dice (1 or "
                     f"more), any or all")


def parse_change(game: Game, text: str) -> Change:
    """A face-change icon: "green:Diplomacy"."""
    colour, sep, symbol = text.strip().partition(":")
    if not sep or not colour or not symbol:
        raise InputError(f"cannot read the face change {text!r} (write COLOUR:SYMBOL, e.g. "
                         f"\"green:Diplomacy\")")
    return Change(game.colour(colour), game.symbol(symbol))


def make_tools(game: Game, sonic: int, rerolls: tuple[str, ...] = (),
               changes: tuple[str, ...] = ()) -> Tools:
    return Tools(sonic, tuple(parse_reroll(game, r) for r in rerolls),
                 tuple(parse_change(game, c) for c in changes))


def parse_showing(game: Game, text: str) -> tuple[Pool, tuple[tuple[int, ...], ...]]:
    """The dice on the table ("black:Science blue:Cunning ..."): the pool and, per colour, how
    many of its dice show each of the die's faces."""
    showing = [[0] * len(die.faces) for die in game.dice]
    for token in text.replace(",", " ").split():
        colour, sep, face = token.partition(":")
        if not sep:
            raise InputError(f"cannot read {token!r} in --showing (write COLOUR:SYMBOL, e.g. "
                             f"\"black:Science\")")
        c = game.colour(colour)
        symbol = game.symbols[game.symbol(face)]
        die = game.dice[c]
        if symbol not in die.faces:
            raise InputError(f"a {die.name} die has no {symbol} face (faces: "
                             f"{', '.join(die.faces)})")
        showing[c][die.faces.index(symbol)] += 1
    pool = tuple(sum(counts) for counts in showing)
    if not any(pool):
        raise InputError("--showing names no dice")
    return pool, tuple(tuple(counts) for counts in showing)


def parse_doctor(game: Game, text: str, *, needs_pool: bool) -> Doctor:
    """A Doctor written as "black=4 blue=2; sonic 3; reroll 2 black; change green:Diplomacy"
    (the pool part only where the Doctor brings one)."""
    pool: Pool = (0,) * len(game.colours)
    sonic, rerolls, changes = 0, [], []
    has_pool = False
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        word, _, rest = part.partition(" ")
        word = word.lower()
        if word == "sonic" and rest.strip().isdigit():
            sonic = int(rest)
        elif word == "reroll":
            rerolls.append(parse_reroll(game, rest))
        elif word == "change":
            changes.append(parse_change(game, rest))
        elif "=" in part and needs_pool and not has_pool:
            pool, has_pool = parse_pool(game, part.removeprefix("pool ")), True
        elif "=" in part and not needs_pool:
            raise InputError(f"cannot read {part!r}: the helper's dice come from the helped "
                             f"Doctor's pool (give only tools: \"sonic N; reroll ...; change "
                             f"...\")")
        else:
            expected = "a pool (black=4 blue=2), " if needs_pool and not has_pool else ""
            raise InputError(f"cannot read {part!r}: expected {expected}\"sonic N\", "
                             f"\"reroll ...\" or \"change COLOUR:SYMBOL\", separated by ;")
    if needs_pool and not has_pool:
        raise InputError(f"{text!r} gives no dice pool (start with e.g. \"black=6 blue=2;\")")
    return Doctor(pool, Tools(sonic, tuple(rerolls), tuple(changes)))


def pool_text(game: Game, pool: Pool) -> str:
    """A pool written back as "black=6 blue=2" (colours in the game's order)."""
    return " ".join(f"{c}={n}" for c, n in zip(game.colours, pool) if n) or "no dice"


def need_text(game: Game, need: tuple[int, ...]) -> str:
    return ", ".join(s if n == 1 else f"{s} x{n}" for s, n in zip(game.symbols, need) if n)
