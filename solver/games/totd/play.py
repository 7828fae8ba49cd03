"""`dice-solver play totd`: a companion for one Adventure at the table.

The player types the dice showing after each roll or re-roll (as `--showing` reads them); the
companion answers at once with `best-move`'s verdict (report.best_move: the same code, not a
second implementation), keeps the tools and dice left, and assumes the advice was taken unless
told `took N` (option N of the last list; what it costs is said). The dice typed must be what
the dice could show: the dice not re-rolled show what they showed. The words every companion
shares (solver.companion): `stop` (stop rolling: the Adventure ends with the dice as they are),
`score`, `undo`, `help`, `quit` or `q`; a line it cannot read gets a one-line hint. With
`--save FILE` every step is written to FILE (JSON: the Adventure as given and the lines
accepted) and a later run with the same file resumes where it stopped.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import cached_property

import click

from solver.commands import OutputPath
from solver.companion import Table, read_save, replay
from solver.errors import InputError
from solver.games.totd import report as totd_report
from solver.games.totd.commands import force_option, game_options, tool_options
from solver.games.totd.files import load_game
from solver.games.totd.rules import POOL_LIMIT, SONIC_REROLL, Adventure, Doctor, Game, Pool, Tools
from solver.games.totd.typed import parse_pool, parse_showing, pool_text, solo_adventure

SHOWN = 3  # options listed under each verdict
HELP = """Type the dice showing after each roll, e.g. "2x black:Science blue:Cunning" (every die
on the table, colour then face; counts before or after, any case). After each answer:
  the dice showing     you took the advice: the tools left follow it
  took N               you took option N of the list instead (then type the dice)
  stop     stop rolling: the Adventure ends with the dice as they are"""


@dataclass(frozen=True)
class Step:
    """Where the Adventure stands: the tools and dice left, the last advice (None before the
    first roll) and the option the player takes from it."""

    tools: Tools
    pool: Pool
    advice: dict | None = None
    taken: dict | None = None


class Companion:
    """One Adventure followed line by line (the lines accepted are its whole history)."""

    def __init__(self, setup: dict, force: bool) -> None:
        self.setup = setup
        self.force = force
        self.game: Game = load_game(setup["dice_file"])
        first = solo_adventure(self.game, setup["need"], parse_pool(self.game, setup["pool"]),
                               setup["sonic"], tuple(setup["rerolls"]), tuple(setup["changes"]),
                               setup["printed_faces"])
        self.need = first.need
        self.steps = [Step(first.doctors[0].tools, first.doctors[0].pool)]
        self.first = first
        self.lines: list[str] = []

    @cached_property
    def chance(self) -> float:
        """P(Challenge met) before rolling, with best play (`totd chance`'s)."""
        return totd_report.chance(self.first, False, self.force)["p_success"]

    @property
    def step(self) -> Step:
        return self.steps[-1]

    def over(self) -> bool:
        """Whether the option taken is to stop (the Challenge met, or nothing left to try)."""
        taken = self.step.taken
        return taken is not None and taken["action"] == "stop"

    def read(self, line: str) -> str:
        """Take one line (dice, took N or stop) and say what to do next; InputError if it
        cannot be taken."""
        if self.over():
            raise InputError("the Adventure is over: type undo to take back a line, or quit")
        words = line.lower().split()
        if words == ["stop"]:
            step = self.stopped()
        elif words and words[0] == "took":
            step = self.took(words[1:])
        else:
            step = self.roll(line)
        self.steps.append(step)
        self.lines.append(" ".join(line.split()))
        return self.say(step)

    def stopped(self) -> Step:
        """Stop rolling: the stop option of the last advice (its face changes played)."""
        advice = self.step.advice
        if advice is None:
            raise InputError("nothing to stop: roll your dice first and type what they show")
        return replace(self.step, taken=next(o for o in advice["options"]
                                             if o["action"] == "stop"))

    def undo(self) -> str:
        if not self.lines:
            return "Nothing to undo."
        self.steps.pop()
        self.lines.pop()
        return f"Undone. {self.say(self.step)}"

    def took(self, words: list[str]) -> Step:
        """Option N of the list last shown (only those: the player saw no other)."""
        listed = self.step.advice["options"][:SHOWN] if self.step.advice else []
        if not listed:
            raise InputError("no advice yet: type the dice showing after your roll")
        if len(words) != 1 or not words[0].isascii() or not words[0].isdigit() or \
                not 1 <= int(words[0]) <= len(listed):
            raise InputError(f"write took N, N an option of the last list (1 to {len(listed)})")
        return replace(self.step, taken=listed[int(words[0]) - 1])

    def roll(self, line: str) -> Step:
        """The dice showing after the option taken: checked against the dice left, then the
        advice for them."""
        tools, pool = self.after(self.step)
        dice, counts = parse_showing(self.game, line)
        if dice != pool:
            raise InputError(f"that is {pool_text(self.game, dice)}, but the dice left are "
                             f"{pool_text(self.game, pool)}: type every die showing")
        self.check_unmoved(counts)
        adventure = Adventure(self.game, self.need, (Doctor(pool, tools),),
                              printed_faces=self.setup["printed_faces"])
        advice = totd_report.best_move(adventure, (counts,), False, self.force)
        return Step(tools, pool, advice, advice["best"])

    def check_unmoved(self, counts: tuple[tuple[int, ...], ...]) -> None:
        """The dice not thrown again must show what they showed: refused if not."""
        taken = self.step.taken
        if taken is None or taken["action"] == "discard a Black die":  # every die is thrown
            return
        unmoved = Counter(self.step.advice["showing"]) - Counter(taken["dice"])
        now = Counter(f"{self.game.colours[c]}:{self.game.dice[c].faces[f]}"
                      for c, faces in enumerate(counts) for f, n in enumerate(faces)
                      for _ in range(n))
        if missing := unmoved - now:
            rerolled = totd_report.dice_words(taken["dice"])
            raise InputError(f"{totd_report.dice_words(sorted(missing.elements()))} should "
                             f"still show: only {rerolled} was thrown again, so the dice not "
                             f"re-rolled show {totd_report.dice_words(sorted(unmoved.elements()))}")

    def after(self, step: Step) -> tuple[Tools, Pool]:
        """The tools and dice left once the option taken is done (none before the first
        roll)."""
        taken, tools, pool = step.taken, step.tools, step.pool
        if taken is None or taken["action"] == "stop":
            return tools, pool
        if taken["action"] == "re-roll icon":
            icon = next(r for r in tools.rerolls if r.text(self.game) == taken["tool"])
            rerolls = list(tools.rerolls)
            rerolls.remove(icon)
            return replace(tools, rerolls=tuple(rerolls)), pool
        if taken["action"] == "Sonic re-roll":
            return replace(tools, sonic=tools.sonic - SONIC_REROLL), pool
        black = self.game.black
        return tools, tuple(n - (c == black) for c, n in enumerate(pool))

    def say(self, step: Step) -> str:
        """The advice for a step: the verdict, the next few options, what to type next."""
        if step.advice is None:
            chance = totd_report.percent(self.chance)
            return (f"Roll your {pool_text(self.game, step.pool)} ({chance} to meet the "
                    f"Challenge with best play) and type the dice showing (help for the "
                    f"commands).")
        if step.taken is not step.advice["best"]:
            if step.taken["action"] == "stop":
                return self.end()
            number = step.advice["options"].index(step.taken) + 1
            return f"Taking option {number}, {_option_words(step.taken)}.{self.cost(step)} " + \
                self.next_line(step.taken)
        if step.taken["action"] == "stop":  # nothing better to try: no list
            return "\n".join([step.advice["verdict"], self.next_line(step.taken)])
        rows = [f"  {i + 1}. {_option_words(o)}: {totd_report.percent(o['p_success'])}"
                for i, o in enumerate(step.advice["options"][:SHOWN])]
        return "\n".join([step.advice["verdict"], *rows, self.next_line(step.taken)])

    def cost(self, step: Step) -> str:
        """A word on what an option other than the advice costs."""
        best, taken = step.advice["best"]["p_success"], step.taken["p_success"]
        if taken >= best:
            return ""
        return (f" It costs {100 * (best - taken):.1f} percentage points against the advice "
                f"({totd_report.percent(best)} to meet the Challenge; this: "
                f"{totd_report.percent(taken)}).")

    def score(self) -> str:
        """The Challenge, the dice and tools left, and the chance now (of the option taken)."""
        step = self.step
        tools, pool = self.after(step)
        chance = self.chance if step.taken is None else step.taken["p_success"]
        state = "the Adventure is over" if self.over() else \
            f"chance now to meet it: {totd_report.percent(chance)}"
        return (f"Challenge {', '.join(self.need_words())}; dice: "
                f"{pool_text(self.game, pool)}; tools left: {tools.text(self.game)}; {state}.")

    def need_words(self) -> list[str]:
        return [f"{self.game.symbols[s]}" + (f" x{n}" if n > 1 else "")
                for s, n in enumerate(self.need) if n]

    def next_line(self, taken: dict) -> str:
        if taken["action"] == "stop":
            return "The Adventure is over (undo takes back the last line; quit leaves)."
        return "Type the dice showing after it (or took N, stop, score, undo, help, quit)."

    def end(self) -> str:
        """The last word: where the Adventure stopped."""
        advice = self.step.advice
        if advice is None:
            return "Left before the first roll."
        if not self.over():
            return "Left the Adventure."
        if advice["met_on_stopping"]:
            changes = next(o["changes"] for o in advice["options"] if o["action"] == "stop")
            return "Stopped: the Challenge is met" + (f" (change {', '.join(changes)})"
                                                      if changes else "") + "."
        return "Stopped: the Challenge is not met."


def _option_words(option: dict) -> str:
    if option["action"] == "stop":
        return "stop"
    if option["action"] == "discard a Black die":
        return "discard a Black die, roll the rest"
    return f"{option['action']} ({option['tool']}) {totd_report.dice_words(option['dice'])}"


# ---- saving and resuming ---------------------------------------------------------------------
def _another(saved: object) -> str:
    if not isinstance(saved, dict):
        return "Adventure (unreadable)"
    return f"Adventure ({saved.get('need')!r}, pool {saved.get('pool')!r})"


@click.command()
@game_options
@click.option("--pool", required=True,
              help=f'The dice pool rolled, e.g. "black=6 blue=2" (1 to {POOL_LIMIT} dice).')
@tool_options
@click.option("--save", "save_file", type=OutputPath(), default=None,
              help="A JSON file that keeps the Adventure after every line; if it holds this "
                   "Adventure, play resumes where it stopped.")
@force_option
def play(need, dice_file, printed_faces, pool, sonic, rerolls, changes, save_file,
         force) -> None:
    """Follow one Adventure: type the dice showing after each roll, get the best next action
    at once (best-move's), with the tools left kept for you."""
    if dice_file == "-":
        raise InputError("play reads the dice showing from standard input: give --dice-file "
                         "as a file")
    setup = {"need": need, "pool": pool, "sonic": sonic, "rerolls": list(rerolls),
             "changes": list(changes), "dice_file": dice_file, "printed_faces": printed_faces}
    companion = Companion(setup, force)
    if save_file:
        replay(companion.read, read_save(save_file, "adventure", "Time of the Daleks Adventure",
                                         setup, _another))
    table = Table(companion, HELP, ("took",), longer=("took",), save_file=save_file,
                  saved=lambda: {"adventure": companion.setup, "lines": companion.lines})
    table.run(companion.say(companion.step), companion.end)


