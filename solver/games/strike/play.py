"""`dice-solver play strike`: a companion that follows a whole game of Strike at the table.

It asks for each setup placement, then after each throw for every die in the arena as it lies,
before anything is taken: the numbers, X for a die showing X, `out` for a die that left the arena
(docs/rules.md, "Strike", reading 13). From that it applies the rules itself (rules.resolve: X
and out leave the game, matched numbers go to the thrower's stock, the rest stay) and says the
next move at once: best-move's verdict (report.best_move on the same solve, not a second
implementation), and after each turn every seat's chance. The solve is `strike game`'s
(commands.solve_game): the level engine, read from the cache once solved, where that command
takes it (above 20,000 positions: 3 players and more at the editions' dice), else the cyclic
engine; --engine chooses as there. `pass` ends a turn voluntarily; `undo`, `score`, `help` and
`stop` as in every companion (solver.companion), and `--save FILE` keeps the game to resume.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

import click

from solver.commands import OutputPath
from solver.companion import Table, read_save, replay
from solver.engine.solution import SolvedGame
from solver.errors import InputError
from solver.formatting import exact_text, percent
from solver.games.strike import report as strike_report
from solver.games.strike import rules
from solver.games.strike.commands import (
    SEATS,
    force_option,
    game_of,
    model_options,
    readings_text,
    solve_checked,
    solve_game,
    strike_engine_options,
)
from solver.games.strike.model import MID, SETUP, START, Position
from solver.games.strike.typed import OUT, read_dice

STOP = ("stop", "pass")  # the thrower ends the turn by choice
HELP = """After each throw, type every die in the arena as it lies, before taking any: the
numbers (1-5), X for a die showing X, out for a die that left the arena (missed it or was
knocked out), e.g. "3 3 5 X" or "335 X". The companion takes matched dice back to the
thrower's stock, puts X and out dice out of the game and leaves the rest in the arena. At
setup, type the number placed.
  stop     the thrower ends the turn (allowed after a throw that left every number
           different; pass says the same)"""


@dataclass(frozen=True)
class State:
    """Where the game stands: each seat's stock (seat 0 first), the numbers in the arena (as
    placed at setup, else increasing), who moves and in which phase, and the winner once
    there is one."""

    stocks: tuple[int, ...]
    arena: tuple[int, ...]
    mover: int
    phase: int
    winner: int | None = None


class Companion:
    """One game followed line by line (the lines accepted are its whole history)."""

    def __init__(self, setup: dict, force: bool) -> None:
        self.setup, self.force = setup, force
        self.game = game_of(setup["players"], setup["edition"], setup["dice"],
                            hit=Fraction(setup["hit"]), miss=Fraction(setup["miss"]),
                            fly_out=Fraction(setup["fly_out"]),
                            empty_arena=setup["empty_arena"], scoring=setup["scoring"],
                            points_count=setup.get("points_count"))
        self.states = [State((self.game.dice,) * self.game.players, (), rules.FIRST, SETUP)]
        self.lines: list[str] = []
        self.extra: dict[Position, SolvedGame[Position]] = {}

    @cached_property
    def solution(self) -> SolvedGame[Position]:
        """The whole game solved once from the start, on the engine `strike game` takes (its
        cost check, its cache)."""
        return solve_game(self.game, exact=False, quiet=False, force=self.force,
                          no_cache=False)[0]

    @property
    def state(self) -> State:
        return self.states[-1]

    # ---- reading a line ----------------------------------------------------------------------
    def read(self, line: str) -> str:
        """Take one line (a placement, the dice after a throw, or pass) and say what happened
        and what to do next; InputError if it cannot be taken."""
        state = self.state
        if state.winner is not None:
            raise InputError("the game is over: type undo to take back a line, or quit")
        if line.lower() in STOP:
            said, after = self.passed(state)
        elif state.phase == SETUP:
            said, after = self.placed(state, line)
        else:
            said, after = self.thrown(state, line)
        self.states.append(after)
        self.lines.append(" ".join(line.split()))
        turned = after.phase != SETUP and (after.mover != state.mover or after.phase == START)
        standing = self.standing(after) if turned else ""
        return "\n".join(part for part in (said, standing, self.say(after)) if part)

    def passed(self, state: State) -> tuple[str, State]:
        if state.phase != MID:
            raise InputError("a turn ends by choice only after a throw that left every number "
                             "different: the turn's first throw is a must")
        seat = rules.next_seat(state.mover, state.stocks)
        return (f"Seat {state.mover + 1} stops.",
                replace(state, mover=seat, phase=START))

    def placed(self, state: State, line: str) -> tuple[str, State]:
        """Setup (reading 10): the mover places one die showing a number."""
        dice = read_dice(line, "a placement", setup=True)
        if len(dice) != 1:
            raise InputError(f"type the one number seat {state.mover + 1} placed (1 to "
                             f"{rules.NUMBERS})")
        self.game.validate_numbers(dice, repeats=True)
        stocks = _replace(state.stocks, state.mover, state.stocks[state.mover] - rules.PLACED)
        following = rules.next_placer(state.mover, self.game.players)
        after = State(stocks, (*state.arena, dice[0]),
                      rules.FIRST if following is None else following,
                      START if following is None else SETUP)
        return f"Seat {state.mover + 1} placed a {dice[0]}.", after

    def thrown(self, state: State, line: str) -> tuple[str, State]:
        """A throw (readings 4-7): the dice in the arena as they lie, before anything is
        taken, resolved by the rules."""
        stock, mover = state.stocks[state.mover], state.mover
        thrown = rules.dice_thrown(stock, state.arena, state.phase == START)
        dice = read_dice(line, "the dice showing", after_throw=True)
        if len(dice) != len(state.arena) + thrown:
            raise InputError(f"that is {_dice(len(dice))}, but {len(state.arena) + thrown} are "
                             f"in play (the {len(state.arena)} in the arena and the {thrown} "
                             f"thrown): type every die, X too, and out for a die that left "
                             f"the arena")
        left, taken = rules.resolve([d for d in dice if d != OUT])
        kept = rules.stock_after_throw(stock, thrown, taken)
        stocks = _replace(state.stocks, mover, kept)
        gone = sum(d in (rules.X, OUT) for d in dice)
        said = [f"Seat {mover + 1} takes {taken} dice back" if taken else "No match",
                f"{_dice(gone)} out of the game" if gone else "",
                f"arena {' '.join(map(str, left)) or 'empty'}", f"stock {kept}"]
        said = ("; ".join(p for p in said if p)) + "."
        if not rules.turn_ends(taken, len(left), kept, self.game.empty_arena):
            return said, State(stocks, tuple(left), mover, MID)
        winner = rules.winner(stocks)
        if winner is not None:
            return f"{said} Seat {mover + 1} is out.", State(stocks, tuple(left), mover, START,
                                                             winner)
        why = f" Seat {mover + 1} is out." if not kept else (
            " The arena is empty: the big hit is next." if not left else "")
        return f"{said}{why} Turn over.", State(stocks, tuple(left),
                                                rules.next_seat(mover, stocks), START)

    def undo(self) -> str:
        if not self.lines:
            return "Nothing to undo."
        self.states.pop()
        self.lines.pop()
        return f"Undone. {self.say(self.state)}"

    # ---- saying ------------------------------------------------------------------------------
    def position(self, state: State) -> Position:
        """The solver's position (best-move's: a setup position while placing and at the first
        throw, where two placed dice may match)."""
        if state.phase == SETUP or len(set(state.arena)) < len(state.arena):
            return self.game.setup_position(list(state.arena))
        return self.game.position(sorted(state.arena), state.stocks, state.phase == MID,
                                  state.mover)

    def advice(self, state: State) -> dict:
        """best-move's report for the state."""
        position = self.position(state)
        solution = self.solution
        if position not in solution:  # a position the start cannot reach: solved
            # from there on the cyclic engine (the level engine solves from the start only)
            if position not in self.extra:
                self.extra[position] = solve_checked(self.game, position, False, True,
                                                     self.force, sum(state.stocks)
                                                     + len(state.arena))
            solution = self.extra[position]
        numbers = list(state.arena) if state.phase == SETUP else sorted(state.arena)
        return strike_report.best_move(self.game, solution, position, numbers, False,
                                       self.setup["edition"])

    def say(self, state: State) -> str:
        """The verdict for the state and what to type next."""
        seat = f"Seat {state.mover + 1}"
        if state.winner is not None:
            return f"Seat {state.winner + 1} wins: the last player with dice."
        verdict = self.advice(state)["verdict"]
        if state.phase == SETUP:
            return f"{verdict}\n{seat} places a die: which number?"
        if state.phase == START and not state.arena:
            return f"{verdict}\n{seat} throws into the empty arena: what shows in the arena now?"
        more = " (or stop)" if state.phase == MID else ""
        return f"{verdict}\n{seat} throws: what shows in the arena now?{more}"

    def standing(self, state: State) -> str:
        """Each seat's chance after a turn (expected points under points scoring)."""
        if state.winner is not None:
            return ""
        seats = self.advice(state)["seats"]
        if self.game.scoring == "win":
            return "Win chances: " + ", ".join(f"seat {s['seat']} {percent(s['p_win'])}"
                                               for s in seats) + "."
        return "Expected points: " + ", ".join(f"seat {s['seat']} {s['value']:.2f}"
                                               for s in seats) + " (fewer is better)."

    def score(self) -> str:
        state = self.state
        out = self.game.total - sum(state.stocks) - len(state.arena)
        stocks = ", ".join(f"seat {k + 1} {n}" + (" (out)" if not n and state.phase != SETUP
                                                   else "") for k, n in enumerate(state.stocks))
        turn = f"seat {state.winner + 1} has won" if state.winner is not None else \
            f"seat {state.mover + 1} to {'place' if state.phase == SETUP else 'throw'}"
        now = self.standing(state)
        return (f"Stocks: {stocks}; arena: {' '.join(map(str, state.arena)) or 'empty'}; "
                f"out of the game: {out}; {turn}." + (f"\nNow: {now}" if now else ""))

    def first(self) -> str:
        """The opening: the game followed and the first advice."""
        game = self.game
        return (f"Strike, {game.players} players, {game.dice} dice each (hit "
                f"{exact_text(game.hit)}, miss {exact_text(game.miss)}{readings_text(game)}). "
                f"Type help for the commands.\n{self.say(self.state)}")


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _replace(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1:])


def _another(setup: object) -> str:
    if not isinstance(setup, dict):
        return "Strike game (unreadable options)"
    return f"Strike game ({', '.join(f'{k} {v}' for k, v in setup.items())})"


@click.command()
@click.option("--players", type=SEATS, default=2, show_default=True, help="2 to 5.")
@model_options
@click.option("--save", "save_file", type=OutputPath(), default=None,
              help="A JSON file that keeps the game after every line; if it holds this game, "
                   "play resumes where it stopped.")
@force_option
@strike_engine_options
def play(players, edition, dice, hit, miss, fly_out, empty_arena, scoring, points_count,
         save_file, force) -> None:
    """Follow a whole game of Strike: type each placement and, after each throw, the dice in
    the arena (X and out too); get the best move at once (best-move's), with the stocks, the
    arena and whose turn it is kept for you."""
    setup = {"players": players, "edition": int(edition), "dice": dice, "hit": exact_text(hit),
             "miss": exact_text(miss), "fly_out": exact_text(fly_out),
             "empty_arena": empty_arena, "scoring": scoring,
             **({} if points_count is None else {"points_count": points_count})}
    companion = Companion(setup, force)
    if save_file:
        replay(companion.read, read_save(save_file, "game", "Strike game", setup, _another))
    table = Table(companion, HELP, STOP, save_file=save_file,
                  saved=lambda: {"game": companion.setup, "lines": companion.lines})
    table.run(companion.first(), lambda: "Left the game." if companion.state.winner is None
              else "Game over.")


