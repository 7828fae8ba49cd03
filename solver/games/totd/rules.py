"""Doctor Who: Time of the Daleks, the Adventure's dice problem: every rule of it, once.

Numbers in docstrings refer to docs/rules.md (TotD). The dice (symbols, faces, supply) come from a
data file a user may correct (`solver/games/totd/dice.json`); this module reads it and the
player's description of a Challenge, a pool and the tools, and refuses what cannot be (one clear
InputError) rather than guessing. The solver, the re-roll plan, the simulator and the reports ask
this module what a tool does, how many dice a pool holds and when a Challenge is met.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from functools import cache, cached_property
from itertools import product
from pathlib import Path

from solver.dice import Die
from solver.errors import InputError

DATA_FILE = Path(__file__).resolve().parent / "dice.json"
BLACK = "black"
POOL_LIMIT = 8  # reading 3: discard down to eight dice
MAX_ICONS = 8  # re-roll, face-change or Focus icons one player may give (bounds the search)
MAX_SYMBOLS, MAX_COLOURS, MAX_SUPPLY, MAX_WEIGHT = 20, 8, 99, 1000  # what a dice file may hold
MAX_SONIC = 5  # a TARDIS Console holds at most five Sonic Charge tokens
SONIC_REROLL = 2  # reading 4.2: tokens to re-roll any one die
SONIC_REROLL_DICE = 1  # reading 4.2: the dice one Sonic re-roll throws again
SONIC_CHANGE = 3  # reading 4.2: tokens to set any one die to any symbol
NUMBER, ANY, ALL = "number", "any", "all"  # reading 4.1: the three kinds of Dice Re-roll icon
ANY_ADVENTURE = -1  # reading 6: the holder of "Any Adventure" card tools, which either Doctor uses
HELP_SIZES = {"afar": (7, 1), "location": (5, 3)}  # reading 6: (helped Doctor, helper)
TIME_BREACH_LOSS = 1  # reading 6: the helped Doctor's pool is one die smaller
SPLIT, OWN = "split", "own"  # reading 6: the helper's dice come from the split pool, or their own
OWN_POOL, EITHER_POOL = "own", "either"  # reading 6: the dice a Doctor's Sonic tokens act on
CALL_COST = 1  # reading 6: the Sonic Charge tokens a call for help costs (--call-with-sonic)


def _did_you_mean(name: str, names: tuple[str, ...]) -> str:
    """"; did you mean X?" for the closest of `names` (any letter case), or nothing."""
    lowered = {n.lower(): n for n in names}
    close = get_close_matches(name.lower(), lowered, 1, 0.6)
    return f"; did you mean {lowered[close[0]]}?" if close else ""


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
            raise InputError(f"unknown colour {_shown(text)} (colours: {', '.join(self.colours)})"
                             + _did_you_mean(name, self.colours))
        return self.colours.index(name)

    def symbol(self, text: str) -> int:
        """The index of a symbol named in any letter case, or a clear error."""
        lowered = [s.lower() for s in self.symbols]
        if text.strip().lower() not in lowered:
            raise InputError(f"unknown symbol {_shown(text)} (symbols: {', '.join(self.symbols)})"
                             + _did_you_mean(text.strip(), self.symbols))
        return lowered.index(text.strip().lower())

    @property
    def black(self) -> int:
        return self.colours.index(BLACK)

    @cached_property
    def face_symbols(self) -> tuple[tuple[int, ...], ...]:
        """Per colour, the symbol (index) each face of its die shows, in the die's face order."""
        return tuple(tuple(self.symbols.index(f) for f in die.faces) for die in self.dice)

    def printed(self, colour: int) -> frozenset[int]:
        """The symbols a colour's die prints (reading 1)."""
        return frozenset(self.face_symbols[colour])


@cache
def load_game(path: str | None = None) -> Game:
    """The dice from the shipped data file, or from a user's corrected copy (reading 1; "-":
    standard input)."""
    file = path if path else str(DATA_FILE)
    data = _read_json(file)
    symbols, colours, supply, faces = _dice_fields(file, data)
    _check_dice_fields(file, symbols, colours, supply)
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


def _check_dice_fields(file: str, symbols: tuple, colours: tuple[str, ...],
                       supply: tuple) -> None:
    """Distinct symbols and colours (words the options can name), Black among the colours, and
    whole numbers of dice."""
    if not 1 <= len(symbols) <= MAX_SYMBOLS or not 1 <= len(colours) <= MAX_COLOURS:
        raise InputError(f"dice file {file}: 1 to {MAX_SYMBOLS} symbols and 1 to "
                         f"{MAX_COLOURS} colours")
    for name in (*symbols, *colours):
        if not isinstance(name, str) or not _NAME.fullmatch(name) or _MULTIPLIER.match(name) \
                or name.lower() in _TIMES:
            raise InputError(f"dice file {file}: {_shown(name)} is not a name the options can "
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
                             f"from 1 to {MAX_WEIGHT}, not {_shown(weight)}")
    return Die(colour, tuple(table), tuple(table.values()))


def _shown(value) -> str:
    """A value from a file, quoted and cut short enough for a one-line error."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# ---- what the player holds ------------------------------------------------------------------
Pool = tuple[int, ...]
"""How many dice of each colour, in the game's colour order."""
Focuses = tuple[tuple[int, ...], ...]
"""Dice Focus icons, each the colours it may swap in (reading 3)."""


def reroll_sizes(kind: str, count: int, dice: int) -> range:
    """Reading 4.1: how many of a colour's `dice` a Dice Re-roll icon throws again. NUMBER: "up
    to that number" (at least one); ANY: "any or all"; ALL: "all (but not anything less)"."""
    if kind == NUMBER:
        return range(1, min(count, dice) + 1)
    if kind == ANY:
        return range(1, dice + 1)
    return range(dice, dice + 1)


def sonic_reroll_sizes(dice: int) -> range:
    """Reading 4.2: 2 Sonic Charge tokens re-roll any one die (here of a group of `dice`)."""
    return reroll_sizes(NUMBER, SONIC_REROLL_DICE, dice)


def sonic_changes(tokens: int) -> int:
    """Reading 4.2: how many dice a Doctor's `tokens` Sonic Charge tokens can set to any
    symbol (3 tokens a die)."""
    return tokens // SONIC_CHANGE


def may_use(holder: int, doctor: int) -> bool:
    """Reading 6: a Doctor uses their own tools on their own dice, and the Any Adventure card
    tools (held by ANY_ADVENTURE) on either Doctor's."""
    return holder in (ANY_ADVENTURE, doctor)


def may_spend_sonic(owner: int, doctor: int, sonic_on: str) -> bool:
    """Reading 6: a Doctor's Sonic Charge tokens re-roll or change their own dice (OWN_POOL:
    the card restriction read as covering tokens too) or a die of either pool (EITHER_POOL:
    the restriction names only cards, and tokens act on "any one die")."""
    return sonic_on == EITHER_POOL or owner == doctor


@dataclass(frozen=True, order=True)
class Reroll:
    """A Dice Re-roll icon (reading 4.1): up to `count` dice (NUMBER), ANY or ALL of a colour."""

    kind: str
    colour: int
    count: int = 0

    def sizes(self, dice: int) -> range:
        """How many of the colour's `dice` the icon throws again."""
        return reroll_sizes(self.kind, self.count, dice)

    def text(self, game: Game) -> str:
        amount = str(self.count) if self.kind == NUMBER else self.kind
        return f"{amount} {game.colours[self.colour]}"


@dataclass(frozen=True, order=True)
class Change:
    """A Dice Change Face icon (reading 4.4): one die of the colour to the symbol."""

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
        for kind, icons in (("re-roll", self.rerolls), ("face-change", self.changes)):
            if len(icons) > MAX_ICONS:
                raise InputError(f"at most {MAX_ICONS} {kind} icons per Doctor (or on Any "
                                 f"Adventure cards), not {len(icons)}")

    def text(self, game: Game) -> str:
        parts = [f"{self.sonic} sonic"] if self.sonic else []
        parts += [f"reroll {r.text(game)}" for r in self.rerolls]
        parts += [f"change {c.text(game)}" for c in self.changes]
        return "; ".join(parts) or "no tools"

    def data(self, game: Game) -> dict:
        """The tools as JSON: tokens, and lists of icons (empty when there are none)."""
        return {"sonic": self.sonic, "rerolls": [r.text(game) for r in self.rerolls],
                "changes": [c.text(game) for c in self.changes]}


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
    sonic_on: str = OWN_POOL  # reading 6: the dice a Doctor's Sonic tokens act on

    def __post_init__(self) -> None:
        check_supply(self.game, tuple(sum(d.pool[c] for d in self.doctors)
                                      for c in range(len(self.game.colours))))
        if self.shared.sonic:
            raise InputError("Sonic Charge tokens belong to a Doctor, not to an Any Adventure card")
        for _, tools in self.toolkits():
            for change in tools.changes:
                if change.symbol not in self.change_symbols(change.colour):
                    raise InputError(f"change {change.text(self.game)}: the "
                                     f"{self.game.dice[change.colour].name} die has no "
                                     f"{self.game.symbols[change.symbol]} face (--printed-faces)")

    def toolkits(self) -> tuple[tuple[int, Tools], ...]:
        """Who holds which tools (reading 6): the Any Adventure card tools (ANY_ADVENTURE), then
        each Doctor's, by the Doctor's index."""
        return ((ANY_ADVENTURE, self.shared), *enumerate(d.tools for d in self.doctors))

    def change_symbols(self, colour: int) -> frozenset[int]:
        """The symbols a change may set a die of this colour to: any symbol (reading 4.2), or
        with --printed-faces only the faces its die prints."""
        if self.printed_faces:
            return self.game.printed(colour)
        return frozenset(range(len(self.game.symbols)))

    def with_doctors(self, doctors: tuple[Doctor, ...]) -> Adventure:
        return replace(self, doctors=doctors)


# ---- building the pool and calling for help ---------------------------------------------------
def focus(game: Game, pool: Pool, colour: int, taken: Pool | None = None) -> Pool | None:
    """Reading 3: a Dice Focus icon exchanges one Black die of the pool for a die of its colour,
    if a Black die is left and the supply (less the dice `taken` by the other Doctor, reading
    6) has one of that colour (None when it cannot)."""
    others = taken[colour] if taken else 0
    if pool[game.black] == 0 or pool[colour] + others >= game.supply[colour]:
        return None
    return tuple(n - (c == game.black) + (c == colour) for c, n in enumerate(pool))


def check_daleks(daleks: int) -> None:
    """Reading 3: Dalek markers are counted (one die each is Exterminated)."""
    if daleks < 0:
        raise InputError(f"the number of Daleks cannot be negative ({daleks})")


def dice_to_roll(gathered: int, limit: int, daleks: int) -> int:
    """Readings 3 and 6: how many of `gathered` dice are rolled: discard down to the pool
    limit, then Exterminate one more die per Dalek marker."""
    return max(0, min(gathered, limit) - daleks)


def help_pools(time_breach: bool, breach_alone: bool = False) -> list[tuple[str, int, int]]:
    """Reading 6: (case, the helped Doctor's pool limit, the helper's) alone, with help from
    afar and with help at the location. Time-Breach takes a die from the helped Doctor's pool
    when helped (the excerpt); alone, only with `breach_alone` (the limit then 7, the total
    both help cases leave; else 8, the excerpt's general limit)."""
    loss = TIME_BREACH_LOSS if time_breach else 0
    return [("alone", POOL_LIMIT - (loss if breach_alone else 0), 0),
            ("help from afar", HELP_SIZES["afar"][0] - loss, HELP_SIZES["afar"][1]),
            ("help at the location", HELP_SIZES["location"][0] - loss, HELP_SIZES["location"][1])]


@dataclass(frozen=True)
class Call:
    """A call for help (reading 6): the helper (their tools, and under OWN their own gathered
    dice and Focus icons), the Dilemma's Time-Breach, the Daleks, and the readings chosen."""

    helper: Doctor
    focuses: Focuses = ()
    helper_dice: str = SPLIT
    time_breach: bool = False
    breach_alone: bool = False  # Time-Breach lowers a lone Doctor's limit too (help_pools)
    call_with_sonic: bool = False
    daleks: int = 0

    def __post_init__(self) -> None:
        check_daleks(self.daleks)
        if self.helper_dice == OWN and not any(self.helper.pool):
            raise InputError("--helper-dice own: give the helper's own dice, e.g. --helper "
                             "\"black=2 blue=1; sonic 2\"")


def pay_call(tools: Tools) -> Tools:
    """Reading 6: the helped Doctor's tools after paying the call for help with Sonic tokens."""
    if tools.sonic < CALL_COST:
        raise InputError("--call-with-sonic: the helped Doctor has no Sonic token to pay")
    return replace(tools, sonic=tools.sonic - CALL_COST)


# ---- a Challenge met --------------------------------------------------------------------------
def challenge_met(need: tuple[int, ...], dice: tuple[tuple[int, ...], ...],
                  changes: tuple[Change, ...], sonic: int) -> bool:
    """Readings 2 and 8 for one Doctor's dice (per colour, the symbols shown): met when some use
    of the face-change icons (each on its own die of its colour) and of `sonic` 3-token changes
    (any die, any symbol) fills every slot. Icons are tried on every die they may change;
    3-token changes go to dice that fill no slot."""
    targets = [[None, *sorted(set(dice[c.colour]))] for c in changes]
    for choice in product(*targets):
        counts = _after_icons(len(need), dice, changes, choice)
        if counts is not None and _slots_left(need, counts) <= min(sonic, _spare(need, counts)):
            return True
    return False


def _after_icons(symbols: int, dice: tuple[tuple[int, ...], ...], changes: tuple[Change, ...],
                 choice: tuple[int | None, ...]) -> list[int] | None:
    """How many dice show each symbol once each icon has turned a die of its colour showing
    choice[i] (None: icon not used) to its symbol; None when the colour has too few such dice
    (an icon changes one die, and a die is changed once)."""
    left = [list(shown) for shown in dice]
    counts = [0] * symbols
    for change, shown in zip(changes, choice):
        if shown is None:
            continue
        if shown not in left[change.colour]:
            return None
        left[change.colour].remove(shown)
        counts[change.symbol] += 1
    for shown in left:
        for symbol in shown:
            counts[symbol] += 1
    return counts


def _slots_left(need: tuple[int, ...], counts: list[int]) -> int:
    """Reading 2: the slots of the Challenge no die fills (each die fills one, of its symbol)."""
    return sum(max(n - c, 0) for n, c in zip(need, counts))


def _spare(need: tuple[int, ...], counts: list[int]) -> int:
    """Reading 2: the dice that fill no slot (symbols not needed, or more than needed)."""
    return sum(counts) - sum(min(n, c) for n, c in zip(need, counts))


# ---- reading the player's words ---------------------------------------------------------------
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


def check_pool_size(game: Game, pool: Pool) -> Pool:
    """Reading 3: a pool holds 1 to 8 dice (and no more than the supply)."""
    if not any(pool):
        raise InputError("the pool has no dice")
    if sum(pool) > POOL_LIMIT:
        raise InputError(f"a dice pool holds at most {POOL_LIMIT} dice, not {sum(pool)} "
                         f"(use `totd build` to choose which to discard)")
    check_supply(game, pool)
    return pool


def check_supply(game: Game, pool: Pool, whose: str = "") -> None:
    """Reading 1: no more dice of a colour than the game has (`whose` says whose dice)."""
    for colour, (n, supply) in enumerate(zip(pool, game.supply)):
        if n > supply:
            raise InputError(f"{whose}{n} {game.colours[colour]} dice, but the supply has only "
                             f"{supply}")


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
    doctor = Doctor(check_pool_size(game, pool), make_tools(game, sonic, rerolls, changes))
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
            raise InputError(f"cannot read {_shown(token)} in the dice showing {_shown(text)}: "
                             f"{_SHOWING_EXAMPLE}")
    if count is not None or colour is not None:
        raise InputError(f"the dice showing {_shown(text)} end without a face: {_SHOWING_EXAMPLE}")
    pool = tuple(sum(counts) for counts in showing)
    if not any(pool):
        raise InputError(f"no dice showing: {_SHOWING_EXAMPLE}")
    return pool, tuple(tuple(counts) for counts in showing)


def _die_count(token: str) -> int:
    """How many dice a count such as "2x", "2 x", "2" or "x2" says (1 to POOL_LIMIT)."""
    digits = "".join(ch for ch in token if ch.isascii() and ch.isdigit())
    count = count_of(digits) if len(digits) <= 6 else None
    if count is None or not 1 <= count <= POOL_LIMIT:
        raise InputError(f"a count of dice showing is 1 to {POOL_LIMIT}, not {_shown(token)}")
    return count


def _showing_colour(game: Game, word: str) -> int:
    """The colour that starts a die, or a hint when the player named its face first."""
    if word.lower() in (s.lower() for s in game.symbols):
        raise InputError(f"{_shown(word)} needs its colour first, e.g. \"black:{word}\" "
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
