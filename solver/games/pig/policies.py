"""Ways to play Pig as values ("hold N", optimal for winning), a seat each, and their worth.

`PigDuel` is Pig with a policy per seat: a "hold N" seat's turn is a fixed distribution of
banked totals, an optimal seat plays its best response to the other (both optimal: the usual
game). Its solution gives each seat's exact win probability, and the hold-or-roll table that
the simulator follows for an optimal seat. Decisions of a log are scored against optimal play by
both seats, in win probability.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.engine.cyclic import Solution, solve
from solver.engine.turn import TurnGraph
from solver.errors import InputError
from solver.games.pig.cost import refuse_solves
from solver.games.pig.model import HOLD, ROLL, PigGame, hold_at_distribution
from solver.games.pig.rules import SCORING, has_won, must_hold, opponent
from solver.samples import read_csv

_HOLD = re.compile(r"^hold(?:\s+at)?\s+([0-9]{1,18})$")  # N fits an int64
MOVES = ("hold", "roll")  # by option: MOVES[HOLD], MOVES[ROLL]
DECISION_COLUMNS = ("score", "opponent", "turn_total", "move")


@dataclass(frozen=True)
class PigPolicy:
    """Hold once the turn total reaches `hold` (or the goal), or play optimally (hold None)."""

    hold: int | None

    @property
    def name(self) -> str:
        return "optimal" if self.hold is None else f"hold {self.hold}"

    def turn_distribution(self, target: int) -> list:
        """Exact P(banked total = r) of a turn from a score of 0: a "hold N" policy only, since
        optimal play depends on both scores."""
        if self.hold is None:
            raise InputError("optimal Pig play depends on both scores, so it has no single turn "
                             "distribution: play games against an opponent (--duel)")
        return hold_at_distribution(self.hold, 0, target)


def parse_policy(text: str) -> PigPolicy:
    """"optimal" (alias "win") or "hold N" ("hold at N")."""
    words = " ".join(text.lower().split())
    if words in ("optimal", "win"):
        return PigPolicy(None)
    match = _HOLD.match(words)
    if match is None:
        raise InputError(f"unknown Pig policy {text[:40]!r}: use \"optimal\" or \"hold N\"")
    if int(match.group(1)) < 1:
        raise InputError("hold needs a turn total of at least 1")
    return PigPolicy(int(match.group(1)))


@dataclass(frozen=True)
class PigDuel(PigGame):
    """Two-player Pig where each seat follows its own policy (seat 0 moves first)."""

    policies: tuple[PigPolicy, PigPolicy] = (PigPolicy(None), PigPolicy(None))

    @cached_property
    def seat_games(self) -> tuple[PigGame, PigGame]:
        """Each seat's moves as the plain game plays them: PigGame with that seat's hold."""
        return (PigGame(self.target, self.policies[0].hold),
                PigGame(self.target, self.policies[1].hold))

    def local(self, position):
        return self.seat_games[position[2]].local(position)


def solve_duel(duel: PigDuel, exact: bool = False) -> Solution:
    return solve(duel, duel.start(), exact=exact)


def hold_table(duel: PigDuel, solution: Solution, seat: int) -> np.ndarray:
    """hold[mine, theirs, total]: whether an optimal `seat` holds (the engine's first-best
    choice; totals that reach the goal always hold)."""
    target = duel.target
    turn = duel.seat_games[seat].turn
    graph = turn.graph
    positions = [p for p in solution.graph.positions if p[2] == seat]
    nodes, totals, _ = _choices(graph)
    table = np.ones((target, target, target + 1), dtype=bool)
    if not positions:
        return table
    utilities = np.stack([solution.utilities(p) for p in positions])
    chosen = graph.solve(utilities, policy=True).chosen
    for k, position in enumerate(positions):
        mine, theirs = position[seat], position[opponent(seat)]
        table[mine, theirs, totals] = chosen[nodes, k] == HOLD
    return table


def _choices(graph: TurnGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hold-or-roll nodes of a Pig turn graph (model.compile_turn), each with its turn total
    (its HOLD option is the leaf of that total) and the chance node of rolling on."""
    options = graph.choice_options()
    nodes = options.nodes
    first = options.start[nodes]
    return nodes, options.child[first + HOLD], options.child[first + ROLL]


def win_chances(duel: PigDuel, solution: Solution) -> list:
    """Each seat's probability of winning from the start (floats, exact when solved so)."""
    start = duel.start()
    if solution.exact is not None:
        return list(solution.exact_values(start))
    return [float(v) for v in solution.values(start)]


# ---- decisions ------------------------------------------------------------------------------
def decision_regrets(target: int, path: str, force: bool = False
                     ) -> tuple[np.ndarray, np.ndarray, dict]:
    """A log of Pig moves (score, opponent, turn_total, move) scored against optimal play by
    both seats: each move's loss of win probability (rounding below 0 clipped). The log is read
    and validated, and the solve refused past its budget (cost.py), before anything is solved.
    Returns the regrets, the line numbers and the columns read."""
    what = f"decision log {path}"
    header, rows, lines = read_csv(path, what, DECISION_COLUMNS)
    if not rows:
        raise InputError(f"{what} has no moves, only its header")
    at = {c: header.index(c) for c in DECISION_COLUMNS}
    numbers = np.empty((len(rows), 3), dtype=np.int64)
    move = np.empty(len(rows), dtype=np.int64)
    for r, (row, line) in enumerate(zip(rows, lines)):
        try:
            numbers[r] = [int(row[at[c]]) for c in DECISION_COLUMNS[:3]]
            move[r] = MOVES.index(row[at["move"]].strip().lower())
        except (ValueError, OverflowError):
            raise InputError(f"{what} line {line}: expected whole numbers and hold or roll") \
                from None
    mine, theirs, total = numbers.T
    least = min(SCORING)  # a turn total after a roll that did not end the turn
    bad = ((mine < 0) | (theirs < 0) | has_won(mine, target) | has_won(theirs, target)
           | (total < least))
    _refuse(bad, lines, what, f"scores lie in 0..{target - 1} and a turn total after a roll "
                              f"is at least {least}")
    forced = must_hold(mine, total, target)
    _refuse(forced & (move == ROLL), lines, what,
            "the turn total reaches the goal: the turn is held (rule 16), there is no roll")
    refuse_solves(f"Pig to {target}", target, [(None, None)], False, force)
    duel = PigDuel(target)
    solution = solve_duel(duel)
    keys, column = np.unique(mine * target + theirs, return_inverse=True)
    positions = [(int(k) // target, int(k) % target, 0) for k in keys]
    utilities = np.stack([solution.utilities(p) for p in positions])
    graph = duel.turn.graph
    values = graph.solve(utilities).values
    choice, roll_on = _choice_nodes(graph, target)
    k = np.where(forced, least, total)  # a forced hold has no choice node; any total will do
    hold = utilities[column, total]
    chosen = np.where(move == HOLD, hold, values[roll_on[k], column])
    regrets = np.where(forced, 0.0, np.maximum(values[choice[k], column] - chosen, 0.0))
    return regrets, lines, {"score": mine, "opponent": theirs, "turn_total": total, "move": move}


def _choice_nodes(graph: TurnGraph, target: int) -> tuple[np.ndarray, np.ndarray]:
    """By turn total: the hold-or-roll node and the chance node of rolling on; -1 for totals
    without a choice."""
    choice = np.full(target + 1, -1, dtype=np.int64)
    roll_on = np.full(target + 1, -1, dtype=np.int64)
    nodes, totals, rolls = _choices(graph)
    choice[totals], roll_on[totals] = nodes, rolls
    return choice, roll_on


def _refuse(bad: np.ndarray, lines: np.ndarray, what: str, message: str) -> None:
    if np.any(bad):
        raise InputError(f"{what} line {lines[int(np.flatnonzero(bad)[0])]}: {message}")
