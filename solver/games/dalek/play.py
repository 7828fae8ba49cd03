"""`dice-solver play dalek`: a companion for a whole game of Dalek Dice at the table.

The players type each roll as it happens; the companion answers at once with `best-move`'s
verdict (report.best_move or report.race_best_move: the same code, not a second
implementation), takes the advice to be followed unless told otherwise (`took KEEP`, or
`stop`), and keeps the dice kept, the turn, the scores and whose turn it is; after every turn it
gives each seat's win chance. The advice plays for the win when the race is solved (read from
the cache, or solved first with --race); otherwise for expected points, and it says so. The
words every companion shares (solver.companion): `stop` (the mover banks the turn), `score`,
`undo`, `help`, `quit` or `q`; a line it cannot read gets a one-line hint.
With `--save FILE` every line taken is written to FILE (JSON: the game's setup and the lines),
and a later run with the same file resumes where it stopped.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import click

from solver.commands import OutputPath
from solver.companion import Table, read_save, replay
from solver.errors import InputError
from solver.faces import dice_words
from solver.games.dalek import report as dalek_report
from solver.games.dalek import shipped
from solver.games.dalek.commands import engine_for, rules_options, solved
from solver.games.dalek.race import DalekRace, RaceValues
from solver.games.dalek.racesolve import cache_key
from solver.games.dalek.rules import (
    DEFAULT_TARGET,
    EXTERMINATE,
    MAX_PLAYERS,
    MAX_TARGET,
    Counts,
    Rules,
    TurnState,
    exterminate,
    winners,
)
from solver.games.dalek.turn import END, ROLL, STOP, compile_turn, place
from solver.games.dalek.typed import parse_dice, parse_roll
from solver.limits import duration

HELP = """Type each roll as it happens, e.g. "2x H4 H2 D3 Doctor" (H4 or Human 4, D3 or Dalek 3,
DOC or Doctor, EXT or Exterminate; any case; a count before or after a face). The advice plays
for the win (each seat's win chance) when the race is solved: read from the cache, or solved
first with --race (2 players to 60: a minute or two, once; then it is cached); otherwise it
plays for expected points and says so. The advice is taken to be followed; then type the next
roll (yours, or the next seat's), or:
  took KEEP [roll|stop]  you kept KEEP from the last roll instead ("took H4 D3", "took nothing
                         roll"); without roll or stop, the better of the two for that keep
  stop     the mover stops now and banks the turn"""


@dataclass(frozen=True)
class Roll:
    """A roll typed at the table: where it was made, the advice and the option taken (None when
    the Doctor intervenes: nothing to choose)."""

    before: Step
    rolled: Counts
    advice: dict
    taken: dict | None


@dataclass(frozen=True)
class Step:
    """Where the game stands after a line: the scores, the seat to move and its turn so far
    (the state before its next roll and the dice kept), the last roll while `took` may still
    change what was kept from it, and whether the game is over."""

    scores: tuple[int, ...]
    seat: int
    turn: TurnState
    kept: Counts
    last: Roll | None = None
    over: bool = False


class Companion:
    """One game followed line by line (the lines taken are its whole history)."""

    def __init__(self, race: DalekRace, values: RaceValues | None) -> None:
        self.rules, self.players, self.target = race.turn.rules, race.players, race.target
        self.turn, self.values = race.turn, values
        rules = self.rules
        start = Step((0,) * self.players, 0, rules.start(), (0,) * len(rules.die.faces))
        self.steps = [start]
        self.said = [self.prompt(start)]
        self.lines: list[str] = []

    @property
    def step(self) -> Step:
        return self.steps[-1]

    def read(self, line: str) -> str:
        """Take one line (a roll, took ..., stop) and say what follows; InputError if it cannot
        be taken."""
        words = line.lower().split()
        if words[0] == "took":
            step, said = self.took(line.split(maxsplit=1)[1] if len(words) > 1 else "")
        elif words == ["stop"]:
            step, said = self.stop()
        else:
            step, said = self.roll(line)
        self.steps.append(step)
        self.said.append(said)
        self.lines.append(" ".join(line.split()))
        return said

    def undo(self) -> str:
        if not self.lines:
            return "Nothing to undo."
        for history in (self.steps, self.said, self.lines):
            history.pop()
        return f"Undone. {self.said[-1]}"

    # ---- the lines ---------------------------------------------------------------------------
    def roll(self, line: str) -> tuple[Step, str]:
        step = self.step
        if step.over:
            raise InputError("the game is over: undo takes back the last line")
        rolled = parse_roll(self.rules, line)
        if sum(rolled) != step.turn.to_roll:
            raise InputError(f"that is {sum(rolled)} dice, but seat {step.seat + 1} rolls "
                             f"{step.turn.to_roll}")
        advice = self.advice(step, rolled)
        after = self.play(Roll(step, rolled, advice, advice["best"]))
        return after, f"{advice['verdict']}\n{self.said_after(after)}"

    def took(self, text: str) -> tuple[Step, str]:
        last = self.step.last
        if last is None:
            raise InputError("took names what you kept from the last roll: type a roll first")
        if last.taken is None:
            raise InputError("the Doctor intervened on the last roll: nothing was kept")
        words = text.split()
        action = words.pop().lower() if words and words[-1].lower() in (ROLL, STOP) else None
        keep = " ".join(w for w in words if w.lower() not in ("nothing", "none"))
        kept = dalek_report.face_list(self.rules, parse_dice(self.rules, keep, "dice kept"))
        options = [o for o in last.advice["options"] if o["keep"] == kept]
        if not options:
            raise InputError(f"{dice_words(kept) or 'nothing'} is not a keep of the last roll "
                             f"({dice_words(last.advice['roll'])}): keep Humans and Daleks it "
                             f"shows, at least one die with the Doctor or Exterminate set aside")
        chosen = next((o for o in options if action in (None, o["action"])), None)
        if chosen is None:
            raise InputError(f"keeping {dice_words(kept) or 'nothing'} ends the turn: no "
                             f"{action}")
        after = self.play(replace(last, taken=chosen))
        return after, f"Taken: {_option_words(chosen)}.{self.cost(last.advice, chosen)}\n" \
                      f"{self.said_after(after)}"

    def cost(self, advice: dict, chosen: dict) -> str:
        """A word on what a keep other than the best costs, in the advice's own value."""
        best = advice["best"]
        lost = best["value"] - chosen["value"]
        if chosen == best or lost <= 0:
            return ""
        if self.values is None:
            return (f" It costs {lost:.2f} expected points against the advice "
                    f"({_option_words(best)}: {best['value']:.2f}, this: {chosen['value']:.2f}).")
        return (f" It costs {100 * lost:.1f} percentage points of win chance against the advice "
                f"({_option_words(best)}: {best['value']:.1%}, this: {chosen['value']:.1%}).")

    def stop(self) -> tuple[Step, str]:
        """The mover stops: the keep of the last roll, then stop instead of rolling on."""
        step = self.step
        if step.over or step.last is None or step.last.taken is None or \
                step.last.taken["action"] != ROLL:
            raise InputError(f"nothing to stop: seat {step.seat + 1} has not rolled yet this "
                             f"turn (a turn starts with a roll)")
        kept = step.last.taken["keep"]
        chosen = next(o for o in step.last.advice["options"]
                      if o["keep"] == kept and o["action"] == STOP)
        after = self.play(replace(step.last, taken=chosen))
        return after, self.said_after(after)

    # ---- the game ------------------------------------------------------------------------
    def advice(self, step: Step, rolled: Counts) -> dict:
        """best-move's report for this roll (the race's when solved)."""
        if self.values is None:
            return dalek_report.best_move(self.turn, step.turn, rolled, False)
        position = self.values.race.check_position(step.scores, step.seat)
        return dalek_report.race_best_move(self.values, position, step.turn, rolled, False)

    def play(self, roll: Roll) -> Step:
        """The step once the option taken from a roll is played: the turn goes on (roll), or
        its points are banked and the next seat moves (the game ends after the last seat's
        turn once a score has reached the target)."""
        rules, step, taken = self.rules, roll.before, roll.taken
        keep = [0] * len(rules.die.faces) if taken is None else \
            list(parse_dice(rules, " ".join(taken["keep"])))
        after, points = place(rules, step.turn, roll.rolled, tuple(keep))
        for face in roll.advice["set_aside"]:
            keep[rules.die.faces.index(face)] += 1
        kept = tuple(a + b for a, b in zip(step.kept, keep))
        if taken is not None and taken["action"] == ROLL:
            return Step(step.scores, step.seat, after, kept, roll)
        if points is None:  # stop
            points = rules.stop_score(after.humans, after.daleks)
        scores = list(step.scores)
        scores[step.seat] += points
        last = step.seat == self.players - 1
        over = last and max(scores) >= self.target
        return Step(tuple(scores), 0 if last else step.seat + 1, rules.start(),
                    (0,) * len(kept), roll, over)

    # ---- what it says --------------------------------------------------------------------
    def said_after(self, step: Step) -> str:
        """After a roll's option is played: the turn so far, or its points, the scores and each
        seat's win chance; then the prompt."""
        roll = step.last
        mover = roll.before.seat + 1
        if roll.taken is not None and roll.taken["action"] == ROLL:
            turn = step.turn
            return (f"Kept {dice_words(dalek_report.face_list(self.rules, step.kept))}: "
                    f"{turn.humans} Humans, {turn.daleks} Daleks.\n{self.prompt(step)}")
        points = step.scores[roll.before.seat] - roll.before.scores[roll.before.seat]
        why = ("the Doctor intervenes" if roll.taken is None else
               "stops" if roll.taken["action"] == STOP else
               "the third Exterminate" if exterminate(roll.before.turn.exterminates +
                                                      roll.advice["set_aside"].count(EXTERMINATE))
               else "no dice left")
        return f"Seat {mover} scores {points} ({why}). {self.scores_text(step)}\n" \
               f"{self.prompt(step)}"

    def scores_text(self, step: Step) -> str:
        """The scores, and each seat's win chance when the race is solved."""
        text = f"Scores: {', '.join(map(str, step.scores))}."
        if self.values is None or step.over:
            return text
        race = self.values.race
        chances = self.values.chances(race.canonical(step.scores, step.seat))
        return text + " Win chances: " + ", ".join(
            f"seat {c['seat']} {c['value']:.1%}" for c in chances) + "."

    def prompt(self, step: Step) -> str:
        """What to type next: the mover's roll, or how the game ended."""
        if step.over:
            best = winners(step.scores)
            if len(best) == 1:
                return f"Game over: seat {best[0] + 1} wins with {step.scores[best[0]]}."
            return (f"Game over: seats {', '.join(str(s + 1) for s in best)} tie for first with "
                    f"{step.scores[best[0]]} (they share the win).")
        dice = step.turn.to_roll
        return f"Seat {step.seat + 1}, roll {dice} {'die' if dice == 1 else 'dice'}:"

    def score(self) -> str:
        """The scores; mid-turn, the mover's chance now (the value of the option taken: the
        turn played on as advised), else each seat's at the start of the turn."""
        step = self.step
        last = step.last
        if last is None or last.taken is None or last.taken["action"] != ROLL or step.over:
            return f"{self.scores_text(step)}\n{self.prompt(step)}"
        value = last.taken["value"]
        kept = dice_words(dalek_report.face_list(self.rules, step.kept))
        now = (f"{value:.2f} expected points for this turn" if self.values is None else
               f"win chance {value:.1%}")
        others = "" if self.values is None or self.players != 2 else \
            f" (seat {2 - step.seat}: {1 - value:.1%})"
        return (f"Scores: {', '.join(map(str, step.scores))}. Seat {step.seat + 1}'s turn so "
                f"far: kept {kept} ({step.turn.humans} Humans, {step.turn.daleks} Daleks); "
                f"now, playing on as advised: {now}{others}.\n{self.prompt(step)}")


def _option_words(option: dict) -> str:
    keep = f"keep {dice_words(option['keep'])}" if option["keep"] else "keep nothing"
    return keep + {END: ", the turn ends", STOP: " and stop", ROLL: ", then roll"}[
        option["action"]]


# ---- the race --------------------------------------------------------------------------------
def race_values(race: DalekRace, solve: bool | None, quiet: bool, force: bool
                ) -> tuple[RaceValues | None, str]:
    """The race's values if the advice can play for the win (shipped with the package, cached,
    or solved now with `solve`, which --race sets; --points clears it), and what the advice
    plays for, in words. Without --race nothing is solved at start-up."""
    from solver import cache

    name = f"the {race.players}-player race to {race.target}"
    engine = engine_for(race, False).engine
    cached = solve is not False and (shipped.has(race, engine)
                                     or cache.load(cache_key(race, engine)) is not None)
    if not cached:
        if solve is False:
            return None, "The advice plays for expected points (--points)."
        from solver.games.dalek.levels import solve_cost  # numba: only for a race to solve

        seconds, _ = solve_cost(race, False, engine)
        if not solve:
            return None, (f"The advice plays for expected points: {name} is not solved yet "
                          f"(about {duration(seconds)}; --race solves it first).")
        if not quiet:
            click.echo(f"Solving {name} (estimated {duration(seconds)}; cached afterwards)...",
                       err=True)
    values = solved(race, False, quiet, False, force)
    return values, "The advice plays for the win (win chances: each seat's share of the win)."


# ---- saving and resuming ---------------------------------------------------------------------
def _another(setup: object) -> str:
    if not isinstance(setup, dict):
        return "game (unreadable)"
    return (f"game ({setup.get('players')} players to {setup.get('target')}, "
            f"{setup.get('dice')} dice {' '.join(map(str, setup.get('faces') or []))})")


def saved(companion: Companion) -> dict:
    """What a save file holds: the game and its lines so far."""
    return {"game": setup(companion.rules, companion.players, companion.target),
            "lines": companion.lines}


def setup(rules: Rules, players: int, target: int) -> dict:
    """What a save file must match to resume: the rules, the players and the target."""
    return {**dalek_report.rules_data(rules), "players": players, "target": target}


def _die_from_a_file(command):
    """Refuse --die-file - before the die is read: play reads the rolls from standard input."""
    @functools.wraps(command)
    def check(*args, die_file, **kwargs):
        if die_file == "-":
            raise InputError("play reads the rolls from standard input: give --die-file as a "
                             "file")
        return command(*args, die_file=die_file, **kwargs)
    return check


@click.command()
@_die_from_a_file
@rules_options
@click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=2, show_default=True,
              help=f"Number of players (2 to {MAX_PLAYERS}), seat 1 first.")
@click.option("--target", type=click.IntRange(1, MAX_TARGET), default=DEFAULT_TARGET,
              show_default=True, help="The score that ends the game (the round is played out).")
@click.option("--race/--points", "solve", default=None,
              help="--race: solve the race first if it is not cached, to advise for the win "
                   "(within the time budget; --force past it); --points: advise for expected "
                   "points. Default: the race when it is cached (nothing is solved unasked).")
@click.option("--save", "save_file", type=OutputPath(), default=None,
              help="A JSON file that keeps the game after every line; if it holds this game, "
                   "play resumes where it stopped.")
@click.option("--quiet", is_flag=True, help="No progress line while the race solves.")
def play(rules, force, players, target, solve, save_file, quiet) -> None:
    """Follow a whole game: type each roll as it happens, get best-move's verdict at once,
    with the kept dice, the turn, the scores, whose turn it is and each seat's win chance kept
    for you.

    The advice is taken to be followed. Words: took KEEP [roll|stop] (you kept something
    else), stop (bank the turn now), score, undo, help, quit or q (leave). Advice plays for
    the win when the race is cached (or solved first with --race), else for expected points,
    and says which."""
    lines = read_save(save_file, "game", "Dalek Dice game", setup(rules, players, target),
                      _another) if save_file else []
    race = DalekRace(compile_turn(rules, force=force), players, target)
    values, plays_for = race_values(race, solve, quiet, force)
    companion = Companion(race, values)
    replay(companion.read, lines)
    table = Table(companion, HELP, ("took",), longer=("took",), save_file=save_file,
                  saved=lambda: saved(companion))
    table.run(f"Dalek Dice, {players} players to {target} ({rules.dice} dice: {rules.label}; "
              f"tie rule {rules.tie_rule}). {plays_for}\n{companion.said[-1]}",
              lambda: "" if companion.step.over else "Left the game.")
