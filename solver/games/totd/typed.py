"""Time of the Daleks as players type it, read into the rules' values: a Challenge ("Science x2,
Cunning"), a pool ("black=6 blue=2"), re-roll, face-change and Focus icons, a Doctor with tools,
the dice showing ("2x black:Science blue:Cunning"); and the same notation written back (pools and
Challenges as text and JSON). What cannot be read is one clear InputError naming the part."""

from __future__ import annotations

import re

from solver.errors import InputError, quoted
from solver.games.totd.rules import (
    ALL,
    ANY,
    MAX_ICONS,
    NUMBER,
    POOL_LIMIT,
    Adventure,
    Change,
    Doctor,
    Focuses,
    Game,
    Pool,
    Reroll,
    Tools,
    validate_pool_size,
)

_TIMES = ("x", "\u00d7", "*")  # "Science x2", also with a multiplication sign or a star


_MULTIPLIER = re.compile(r"^[x\u00d7*]([0-9]+)$", re.IGNORECASE)


_COUNT = re.compile(r"[0-9]{1,6}")  # a count as the options write it: ASCII digits, not too many


def count_of(text: str) -> int | None:
    """A whole number written in (at most six) ASCII digits, or None."""
    return int(text) if _COUNT.fullmatch(text) else None


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
            digits = multiplier.group(1)  # past six digits: more than any pool, refused below
            times = int(digits) if len(digits) <= 6 else POOL_LIMIT + 1
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
    if sum(need) > POOL_LIMIT:
        raise InputError(f"the Challenge names {sum(need)} symbols, but each die fills one and "
                         f"the Doctors roll at most {POOL_LIMIT} dice: it can never be met")
    return tuple(need)


def parse_pool(game: Game, text: str) -> Pool:
    """A pool such as "black=6 blue=2" as dice per colour."""
    pool = [0] * len(game.colours)
    named = set()
    for token in text.replace(",", " ").split():
        colour, sep, count = token.partition("=")
        if not sep or count_of(count) is None:
            raise InputError(f"cannot read {token!r} in the pool {text!r} (write COLOUR=N, "
                             f"e.g. \"black=6 blue=2\")")
        index = game.colour(colour)
        if index in named:
            raise InputError(f"the pool {text!r} names {game.colours[index]} twice")
        named.add(index)
        pool[index] = int(count)
    return tuple(pool)


def parse_reroll(game: Game, text: str) -> Reroll:
    """A re-roll icon: "2 black" (or "up to 2 black"), "any blue" or "all red"."""
    words = text.strip().lower().split()
    if words[:2] == ["up", "to"]:
        words = words[2:]
    if len(words) != 2:
        raise InputError(f"cannot read the re-roll {text!r} (write \"2 black\", \"any blue\" "
                         f"or \"all red\")")
    amount, colour = words
    count = count_of(amount)
    if count is not None and 1 <= count <= POOL_LIMIT:
        return Reroll(NUMBER, game.colour(colour), count)
    if amount in (ANY, ALL):
        return Reroll(amount, game.colour(colour))
    raise InputError(f"cannot read the re-roll {text!r}: the amount is a number of dice (1 to "
                     f"{POOL_LIMIT}), any or all")


def parse_change(game: Game, text: str) -> Change:
    """A face-change icon: "green:Diplomacy"."""
    colour, sep, symbol = text.strip().partition(":")
    if not sep or not colour or not symbol:
        raise InputError(f"cannot read the face change {text!r} (write COLOUR:SYMBOL, e.g. "
                         f"\"green:Diplomacy\")")
    return Change(game.colour(colour), game.symbol(symbol))


def parse_focus(game: Game, text: str) -> tuple[int, ...]:
    """A Dice Focus icon (reading 3): one colour ("blue") or a split icon ("green/blue")."""
    colours = tuple(game.colour(c) for c in text.split("/"))
    if game.black in colours:
        raise InputError(f"a Focus icon swaps a Black die for a coloured one, not {text!r}")
    return colours


def parse_focuses(game: Game, texts) -> tuple[tuple[int, ...], ...]:
    """A player's Dice Focus icons (at most MAX_ICONS: each one needs a Black die)."""
    if len(texts) > MAX_ICONS:
        raise InputError(f"at most {MAX_ICONS} Focus icons, not {len(texts)}")
    return tuple(parse_focus(game, t) for t in texts)


def make_tools(game: Game, sonic: int, rerolls: tuple[str, ...] = (),
               changes: tuple[str, ...] = ()) -> Tools:
    return Tools(sonic, tuple(parse_reroll(game, r) for r in rerolls),
                 tuple(parse_change(game, c) for c in changes))


def solo_adventure(game: Game, need: str, pool: Pool, sonic: int, rerolls: tuple[str, ...],
                   changes: tuple[str, ...], printed_faces: bool = False) -> Adventure:
    """One Doctor's Adventure, without help: a pool of 1 to 8 dice, the Doctor's tools and the
    Challenge, in the player's words."""
    doctor = Doctor(validate_pool_size(game, pool), make_tools(game, sonic, rerolls, changes))
    return Adventure(game, parse_challenge(game, need), (doctor,), printed_faces=printed_faces)


_SHOWING_TOKEN = re.compile(  # a count before a die ("2x", "2 x", "2"), after it ("x2"), a word
    r"(?P<before>[0-9]+[x\u00d7*]|[0-9]+(?:\s*[x\u00d7*](?![^\s,:0-9]))?)|(?P<after>[x\u00d7*]\s*[0-9]+)"
    r"|(?P<word>[^\s,:0-9][^\s,:]*)|(?P<other>[^\s,:])", re.IGNORECASE)


_SHOWING_EXAMPLE = "write the dice as e.g. \"2x black:Science blue:Cunning\""


def parse_showing(game: Game, text: str) -> tuple[Pool, tuple[tuple[int, ...], ...]]:
    """The dice on the table as players say them: a colour and a face per die, in any letter
    case, with a count before ("2x black:Science", "2 black Science") or after ("black:Science
    x2"); commas, colons and spaces separate. Returns the pool and, per colour, how many of its
    dice show each of the die's faces."""
    showing = [[0] * len(die.faces) for die in game.dice]
    count, colour, last = None, None, None  # a count and a colour waiting for their face
    for match in _SHOWING_TOKEN.finditer(text):
        kind, token = match.lastgroup, match.group()
        if kind == "after" and count is None and colour is None and last is not None:
            showing[last[0]][last[1]] += _die_count(token) - 1
            last = None  # "black:Science x2 x3" is not a way to say six dice
        elif kind == "before" and count is None and colour is None:
            count = _die_count(token)
        elif kind == "word" and colour is None:
            colour = _showing_colour(game, token)
        elif kind == "word":
            last = (colour, _face(game, colour, token))
            showing[colour][last[1]] += 1 if count is None else count
            count, colour = None, None
        else:
            raise InputError(f"cannot read {quoted(token)} in the dice showing {quoted(text)}: "
                             f"{_SHOWING_EXAMPLE}")
    if count is not None or colour is not None:
        raise InputError(f"the dice showing {quoted(text)} end without a face: {_SHOWING_EXAMPLE}")
    pool = tuple(sum(counts) for counts in showing)
    if not any(pool):
        raise InputError(f"no dice showing: {_SHOWING_EXAMPLE}")
    return pool, tuple(tuple(counts) for counts in showing)


def _die_count(token: str) -> int:
    """How many dice a count such as "2x", "2 x", "2" or "x2" says (1 to POOL_LIMIT)."""
    digits = "".join(ch for ch in token if ch.isascii() and ch.isdigit())
    count = count_of(digits) if len(digits) <= 6 else None
    if count is None or not 1 <= count <= POOL_LIMIT:
        raise InputError(f"a count of dice showing is 1 to {POOL_LIMIT}, not {quoted(token)}")
    return count


def _showing_colour(game: Game, word: str) -> int:
    """The colour that starts a die, or a hint when the player named its face first."""
    if word.lower() in (s.lower() for s in game.symbols):
        raise InputError(f"{quoted(word)} needs its colour first, e.g. \"black:{word}\" "
                         f"(colours: {', '.join(game.colours)})")
    return game.colour(word)


def _face(game: Game, colour: int, word: str) -> int:
    """The index among its die's faces of the face a die of this colour shows."""
    symbol = game.symbols[game.symbol(word)]
    die = game.dice[colour]
    if symbol not in die.faces:
        raise InputError(f"a {die.name} die has no {symbol} face (faces: {', '.join(die.faces)})")
    return die.faces.index(symbol)


def parse_doctor(game: Game, text: str, *, no_dice: str | None = None,
                 focus: bool = False) -> tuple[Doctor, Focuses]:
    """A Doctor written as "black=4 blue=2; sonic 3; reroll 2 black; change green:Diplomacy"
    and, where `focus`, "focus green/blue" parts. The pool part is required, unless `no_dice`
    says why this Doctor (or card) brings none; then a pool is refused with that reason."""
    pool: Pool | None = None
    sonic, rerolls, changes, focuses = 0, [], [], []
    for part in (p.strip() for p in text.split(";") if p.strip()):
        word, _, rest = part.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word == "sonic" and count_of(rest) is not None:
            sonic = count_of(rest)
        elif word == "reroll":
            rerolls.append(parse_reroll(game, rest))
        elif word == "change":
            changes.append(parse_change(game, rest))
        elif word == "focus":
            if not focus:
                raise InputError(f"cannot read {part!r}: Focus icons are read only with the "
                                 f"helper's own dice (--helper-dice own); give a pool after its "
                                 f"Focus swaps")
            focuses.append(rest)
        elif "=" in part and no_dice is not None:
            raise InputError(f"cannot read {part!r}: {no_dice} (give only tools: \"sonic N; "
                             f"reroll ...; change ...\")")
        elif "=" in part:
            if pool is not None:
                raise InputError(f"{text!r} gives two dice pools (give one, e.g. \"black=6 "
                                 f"blue=2\")")
            pool = parse_pool(game, part.removeprefix("pool "))
        else:
            expected = "a pool (black=4 blue=2), " if no_dice is None and pool is None else ""
            expected += "\"focus COLOUR\", " if focus else ""
            raise InputError(f"cannot read {part!r}: expected {expected}\"sonic N\", "
                             f"\"reroll ...\" or \"change COLOUR:SYMBOL\", separated by ;")
    if no_dice is None and pool is None:
        raise InputError(f"{text!r} gives no dice pool (start with e.g. \"black=6 blue=2;\")")
    doctor = Doctor(pool or (0,) * len(game.colours), Tools(sonic, tuple(rerolls), tuple(changes)))
    return doctor, parse_focuses(game, focuses)


def pool_text(game: Game, pool: Pool) -> str:
    """A pool written back as "black=6 blue=2" (colours in the game's order)."""
    return " ".join(f"{c}={n}" for c, n in zip(game.colours, pool) if n) or "no dice"


def pool_data(game: Game, pool: Pool) -> dict[str, int]:
    """A pool as JSON: dice per colour, every colour in the game's order."""
    return dict(zip(game.colours, pool))


def need_data(game: Game, need: tuple[int, ...]) -> dict[str, int]:
    """A Challenge as JSON: how many dice of each symbol it needs (needed symbols only)."""
    return {s: n for s, n in zip(game.symbols, need) if n}


def need_text(game: Game, need: tuple[int, ...]) -> str:
    return ", ".join(s if n == 1 else f"{s} x{n}" for s, n in zip(game.symbols, need) if n)
