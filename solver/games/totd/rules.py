"""Doctor Who: Time of the Daleks, the Adventure's dice problem: every rule of it, once.

Numbers in docstrings refer to docs/rules.md (TotD). The dice (symbols, faces, supply) come from a
data file a user may correct (`solver/games/totd/dice.json`, read by files.py); the player's words
for a Challenge, a pool and the tools are read by typed.py. This module refuses what cannot be
(one clear InputError) rather than guessing. The solver, the re-roll plan, the simulator and the
reports ask it what a tool does, how many dice a pool holds and when a Challenge is met.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from functools import cached_property
from itertools import product

from solver.dice import Die
from solver.errors import InputError, quoted

BLACK = "black"
POOL_LIMIT = 8  # reading 3: discard down to eight dice
MAX_ICONS = 8  # re-roll, face-change or Focus icons one player may give (bounds the search)
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
            raise InputError(f"unknown colour {quoted(text)} (colours: {', '.join(self.colours)})"
                             + _did_you_mean(name, self.colours))
        return self.colours.index(name)

    def symbol(self, text: str) -> int:
        """The index of a symbol named in any letter case, or a clear error."""
        lowered = [s.lower() for s in self.symbols]
        if text.strip().lower() not in lowered:
            raise InputError(f"unknown symbol {quoted(text)} (symbols: {', '.join(self.symbols)})"
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
        validate_supply(self.game, tuple(sum(d.pool[c] for d in self.doctors)
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


def validate_daleks(daleks: int) -> None:
    """Reading 3: Dalek markers are counted (one die each is Exterminated)."""
    if daleks < 0:
        raise InputError(f"the number of Daleks cannot be negative ({daleks})")


def dice_to_roll(gathered: int, limit: int, daleks: int) -> int:
    """Readings 3 and 6: how many of `gathered` dice are rolled: discard down to the pool
    limit, then Exterminate one more die per Dalek marker."""
    return max(0, min(gathered, limit) - daleks)


def alone_limit(time_breach: bool, breach_alone: bool = False) -> int:
    """Reading 6: a lone Doctor's pool limit. Time-Breach lowers it only with `breach_alone`
    (to 7, the total both help cases leave; else 8, the excerpt's general limit)."""
    return POOL_LIMIT - (TIME_BREACH_LOSS if time_breach and breach_alone else 0)


def help_pools(time_breach: bool, breach_alone: bool = False) -> list[tuple[str, int, int]]:
    """Reading 6: (case, the helped Doctor's pool limit, the helper's) alone, with help from
    afar and with help at the location. Time-Breach takes a die from the helped Doctor's pool
    when helped (the excerpt); alone, see `alone_limit`."""
    loss = TIME_BREACH_LOSS if time_breach else 0
    return [("alone", alone_limit(time_breach, breach_alone), 0),
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
        validate_daleks(self.daleks)
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


# ---- what a pool may hold ----------------------------------------------------------------------
def validate_pool_size(game: Game, pool: Pool) -> Pool:
    """Reading 3: a pool holds 1 to 8 dice (and no more than the supply)."""
    if not any(pool):
        raise InputError("the pool has no dice")
    if sum(pool) > POOL_LIMIT:
        raise InputError(f"a dice pool holds at most {POOL_LIMIT} dice, not {sum(pool)} "
                         f"(use `totd build` to choose which to discard)")
    validate_supply(game, pool)
    return pool


def validate_supply(game: Game, pool: Pool, whose: str = "") -> None:
    """Reading 1: no more dice of a colour than the game has (`whose` says whose dice)."""
    for colour, (n, supply) in enumerate(zip(pool, game.supply)):
        if n > supply:
            raise InputError(f"{whose}{n} {game.colours[colour]} dice, but the supply has only "
                             f"{supply}")
