"""Ways to play a Dalek Dice turn, as values, and the exact distribution of points each gives.

A turn policy answers every (state before a roll, roll) with a keep and then stop or roll. It is
held as flat arrays over every (reachable state, roll) pair of the compiled turn, so a simulator
finds a move with two integer searches instead of a solver call, and a user's table (the CSV that
`dice-solver dalek table` writes) becomes the same arrays. Built-in policies: `points` (optimal
for expected points), `keep-daleks K` (a simple human rule, see `keep_daleks`), and the optimal
turn for any utility of the final score (the win share each score leads to, in a race). The race
policy "win" is no turn policy: it plays each position's own optimal turn (`RacePolicy`).

`distribution` follows a policy forward over turn states in exact integers (playing through
`arrays.Play`); it shares nothing with the solver's optimisation, so it also checks it (the points
policy's distribution equals the solver's). Duels of policies: duels.py; the files of moves a
policy table is read from: files.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.dice import roll
from solver.errors import InputError, brief
from solver.games.dalek.arrays import END_CODE, NONE, ROLL_CODE, STOP_CODE, Pairs, Play
from solver.games.dalek.files import read_moves
from solver.games.dalek.rules import DALEKS, HUMANS, MAX_DICE, MAX_VALUE, NOT_OVER, Rules, TurnState
from solver.games.dalek.turn import points_utility, solve_points
from solver.games.dalek.typed import format_faces


@dataclass(eq=False)
class TurnPolicy:
    """A keep and a stop-or-roll for every (state, roll) pair: `keep[p]` counts over the
    keepable faces (Humans, then Daleks, in die order), `then[p]` END/STOP/ROLL code or NONE.
    Stored as int8 (counts are at most 30), so a race can hold one policy per position.
    `name` is how `parse_policy` reads it back (optimal turns for a race position are "win")."""

    name: str
    pairs: Pairs
    keep: np.ndarray
    then: np.ndarray

    def __post_init__(self) -> None:
        self.keep = self.keep.astype(np.int8)
        self.then = self.then.astype(np.int8)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TurnPolicy) and self.name == other.name and
                self.pairs is other.pairs and np.array_equal(self.keep, other.keep) and
                np.array_equal(self.then, other.then))

    @property
    def rules(self) -> Rules:
        return self.pairs.rules


@dataclass(frozen=True)
class RacePolicy:
    """"win": every turn played for the mover's share of the win from the position it starts
    in, so the turn changes with the scores. It exists only in a race (a duel), which solves
    for it: each seat playing it is optimal against the others."""

    name: str = "win"


Policy = TurnPolicy | RacePolicy
WIN = RacePolicy()


# ---- built-in policies ----------------------------------------------------------------------
def optimal_policies(pairs: Pairs, utilities: np.ndarray, names: list[str]) -> list[TurnPolicy]:
    """The optimal turn for each utility of the final score (rows of `utilities`), ties going
    to the solver's canonical first option."""
    turn = pairs.turn
    chosen = turn.graph.solve(np.atleast_2d(utilities), policy=True).chosen
    return [_from_choices(pairs, chosen[:, c], name) for c, name in enumerate(names)]


def points_policy(pairs: Pairs) -> TurnPolicy:
    """Optimal play for the turn's expected points."""
    utility = np.array([float(u) for u in points_utility(pairs.turn)])
    return optimal_policies(pairs, utility, ["points"])[0]


def _from_choices(pairs: Pairs, chosen: np.ndarray, name: str) -> TurnPolicy:
    """Read a whole policy off the graph's choices: follow every pair's chain of keep choices
    at once (the vectorised form of `CompiledTurn.best_keep`)."""
    turn, rules = pairs.turn, pairs.rules
    keeps = turn.graph.choice_options(labelled=True)  # edges labelled with keep codes
    node, code = pairs.choice.copy()
    live = node >= 0
    node, code = node[live], code[live]
    while True:
        step = np.flatnonzero(keeps.start[node] >= 0)
        if not len(step):
            break
        edge = keeps.start[node[step]] + chosen[node[step]]
        code[step] += keeps.label[edge]
        node[step] = keeps.child[edge]
    keep = np.zeros((pairs.size, len(rules.keepable_faces)), dtype=np.int64)
    digits = np.empty((len(code), keep.shape[1]), dtype=np.int64)
    for j in range(keep.shape[1]):
        code, digits[:, j] = np.divmod(code, rules.dice + 1)
    keep[live] = digits
    then = np.full(pairs.size, NONE, dtype=np.int64)
    over = node < turn.graph.n_results
    then[live] = np.where(over, END_CODE, np.where(chosen[node] == 1, ROLL_CODE, STOP_CODE))
    return TurnPolicy(name, pairs, keep, then)


def keep_daleks(pairs: Pairs, k: int) -> TurnPolicy:
    """The human rule "keep the Daleks, stop at K": keep every Dalek rolled; then take the Humans
    rolled from the highest value down, each one only if the Daleks still hold with it (the tie
    rule decides); if that keeps no die at all (the roll shows only Humans that do not fit, and
    no Doctor or Exterminate), keep one lowest-valued Human, as rule 4 demands. Then stop once
    the kept Humans reach K and the Daleks hold; otherwise roll."""
    if k < 0:
        raise InputError(f"keep-daleks needs a whole number of Humans >= 0, not {k}")
    return stop_at(pairs, f"keep-daleks {k}", dalek_keeps(pairs), lambda after: k)


def dalek_keeps(pairs: Pairs, hunting: bool | np.ndarray = False,
                grab: bool | np.ndarray = False) -> np.ndarray:
    """The keep of "keep the Daleks" for every pair (see `keep_daleks`), and the variants a
    remembered rule adds (solver/games/dalek/rulefamilies.py), each for all pairs or per pair:
    where `hunting`, no Dalek is kept but every die of the highest Human face is (the Humans
    after them still only while the Daleks hold); where `grab`, every Human and Dalek rolled
    is kept. A keep of no die at all takes one lowest Dalek, or else one lowest Human (rule 4):
    with every Dalek kept, that is `keep_daleks`'s one lowest Human."""
    rules = pairs.rules
    fields, rolled = pairs.fields[pairs.state_of], pairs.rolled
    faces = list(rules.keepable_faces)
    keep = np.zeros((pairs.size, len(faces)), dtype=np.int64)
    for j, face in enumerate(faces):
        if face in rules.dalek_faces:
            keep[:, j] = np.where(hunting, 0, rolled[:, face])
    by_value = sorted((j for j, f in enumerate(faces) if f in rules.human_faces),
                      key=lambda j: -rules.value(faces[j]))
    if by_value:
        keep[:, by_value[0]] = np.where(hunting, rolled[:, faces[by_value[0]]], 0)
    kept = rules.keep(fields, keep)
    for j in by_value:
        one = np.eye(len(faces), dtype=np.int64)[j]
        for _ in range(rules.dice):  # one more of this face while the Daleks hold
            more = rules.keep(kept, one)
            fits = (keep[:, j] < rolled[:, faces[j]]) & rules.daleks_hold(more[:, HUMANS],
                                                                          more[:, DALEKS])
            if not fits.any():
                break
            keep[:, j] += fits
            kept[fits] = more[fits]
    keep = np.where(np.asarray(grab)[..., None], rolled[:, faces], keep)
    daleks = sorted((j for j, f in enumerate(faces) if f in rules.dalek_faces),
                    key=lambda j: rules.value(faces[j]))
    for j in daleks + by_value[::-1]:  # rule 4: one lowest die when nothing else is kept
        empty = ~rules.may_keep(rolled, keep) & (rolled[:, faces[j]] > 0)
        keep[empty, j] = 1
    return keep


def stop_at(pairs: Pairs, name: str, keep: np.ndarray,
            threshold: Callable[[np.ndarray], int | np.ndarray]) -> TurnPolicy:
    """The policy that keeps `keep` and then stops once the kept Humans reach the threshold
    (a function of the states after the keep, last axis) and the Daleks hold; else rolls."""
    rules = pairs.rules
    play = Play(rules)
    fields = pairs.fields[pairs.state_of]
    after, score = play.roll(fields, pairs.rolled, keep, np.full(pairs.size, ROLL_CODE))
    stop = (after[:, HUMANS] >= threshold(after)) & rules.daleks_hold(after[:, HUMANS],
                                                                      after[:, DALEKS])
    then = np.where(score != NOT_OVER, END_CODE, np.where(stop, STOP_CODE, ROLL_CODE))
    ended = play.intervenes(after)
    then[ended] = NONE
    keep = keep.copy()
    keep[ended] = 0
    return TurnPolicy(name, pairs, keep, then)


# ---- a policy table read from a file (files.py reads its rows) -----------------------------
def read_table(pairs: Pairs, path: str) -> TurnPolicy:
    """A user's policy table (the `turn_keeps.csv[.gz]` format of `dice-solver dalek table`):
    one row per (state, roll) it plays; a turn reaching a pair it leaves out is an error."""
    moves = read_moves(pairs, path, f"policy table {path}")
    seen = np.zeros(pairs.size, dtype=np.int64)
    np.add.at(seen, moves.pair, 1)
    if np.any(seen > 1):
        twice = moves.lines[np.flatnonzero(seen[moves.pair] > 1)[1]]
        raise InputError(f"policy table {path} line {twice}: a second row for the same state "
                         f"and roll")
    keep = np.zeros((pairs.size, moves.keep.shape[1]), dtype=np.int64)
    then = np.full(pairs.size, NONE, dtype=np.int64)
    keep[moves.pair], then[moves.pair] = moves.keep, moves.then
    return TurnPolicy(f"{TABLE}{path}", pairs, keep, then)


# ---- exact worth of a policy --------------------------------------------------------------
def distribution(policy: TurnPolicy, play: Play | None = None) -> list[Fraction]:
    """P(final turn score = s) for s = 0..max, exactly, when the turn follows `policy` under
    `play`'s rules and dice. A forward pass over the states, in integers over one common
    denominator (die total ^ (dice (dice + 1) / 2): every state's mass divides by the next roll's
    denominator, since each roll keeps a die)."""
    pairs = policy.pairs
    play = Play(policy.rules) if play is None else play
    dice, total = policy.rules.dice, play.die.total
    scale = total ** (dice * (dice + 1) // 2)
    mass = np.zeros(len(pairs.keys), dtype=object)
    mass[pairs.states(np.array([policy.rules.start().fields]))[0]] = scale
    scores: dict[int, int] = {}
    for n in range(dice, 0, -1):
        lo, hi = pairs.layer(n)
        live = np.flatnonzero(mass[lo:hi] != 0) + lo
        if not len(live):
            continue
        outcomes = roll(play.die, n)
        count = len(outcomes)
        pair = (pairs.first[live][:, None] + np.arange(count)).ravel()
        after, score = play.roll(pairs.fields[live].repeat(count, axis=0), pairs.rolled[pair],
                                 policy.keep[pair], policy.then[pair])
        going = score == NOT_OVER
        _validate_moves(policy, pair[going & (policy.then[pair] != ROLL_CODE)])
        share = np.repeat(mass[live] // outcomes.denominator, count) * \
            np.tile(np.array(outcomes.weights, dtype=object), len(live))
        for s, m in zip(score[~going].tolist(), share[~going].tolist()):
            scores[s] = scores.get(s, 0) + m
        target = pairs.states(after[going])
        if np.any(target < 0):
            raise ValueError(f"{policy.name}: play left the compiled turn's states")
        np.add.at(mass, target, share[going])
    top = max(scores)
    return [Fraction(scores.get(s, 0), scale) for s in range(top + 1)]


def mean_points(pairs: Pairs, policy: Policy) -> float:
    """A seat's expected points per turn: its turn policy's exactly, or for "win" (a turn that
    changes with the position) the most any turn can expect."""
    if isinstance(policy, TurnPolicy):
        return float(sum(s * p for s, p in enumerate(distribution(policy))))
    return solve_points(pairs.turn).value(pairs.turn.root)


def _validate_moves(policy: TurnPolicy, missing: np.ndarray) -> None:
    """A turn that goes on needs the policy's stop-or-roll: a table that leaves it out fails."""
    if len(missing):
        pairs = policy.pairs
        p = int(missing[0])
        state = TurnState(*pairs.fields[pairs.state_of[p]].tolist())
        raise InputError(f"the policy ({policy.name}) has no move for the roll "
                         f"{format_faces(policy.rules, tuple(pairs.rolled[p]))} in the state "
                         f"{state}, which its play reaches")


# ---- policies by name ----------------------------------------------------------------------
TABLE = "table:"  # a policy table named on the command line: table:FILE
POINTS, KEEP_DALEKS = "points", "keep-daleks"
MOST_HUMANS = MAX_VALUE * MAX_DICE  # "keep-daleks K" past it never stops before the dice run out


def read_policy_name(text: str, duel: bool = False) -> tuple[str, int | str | None]:
    """A policy named on the command line, read without the turn: ("points", None),
    ("win", None), ("keep-daleks", K) or ("table:", FILE). "points" is optimal for expected
    points; "keep-daleks K" (alias "hold K") see `keep_daleks`; a policy table is "table:FILE"
    or a FILE ending in .csv or .csv.gz; "win" (optimal for winning) only in a duel; "optimal"
    means "points" for a single turn and "win" in a duel. InputError for anything else."""
    words = " ".join(text.split())
    lower = words.lower()
    if lower == "optimal":
        lower = WIN.name if duel else POINTS
    if lower == POINTS:
        return POINTS, None
    if lower == WIN.name:
        if not duel:
            raise InputError("the 'win' policy depends on the game position: use it in a duel "
                             "(--duel, or dalek duel)")
        return WIN.name, None
    head, _, number = lower.partition(" ")
    if head in (KEEP_DALEKS, "hold") and number.isascii() and number.isdigit():
        if len(number) > len(str(MOST_HUMANS)) or int(number) > MOST_HUMANS:
            raise InputError(f"keep-daleks K takes K from 0 to {MOST_HUMANS} Humans, not "
                             f"{brief(number)}")
        return KEEP_DALEKS, int(number)
    if lower.startswith(TABLE) or lower.endswith((".csv", ".csv.gz")):
        path = words[len(TABLE):] if lower.startswith(TABLE) else words
        if not path:
            raise InputError("table: needs the policy table's file name (table:FILE)")
        return TABLE, path
    raise InputError(f"unknown Dalek Dice policy {brief(text)}: use points, \"keep-daleks K\", "
                     f"win (in a duel) or a policy table (table:FILE)")


def parse_policy(text: str, pairs: Pairs, duel: bool = False) -> Policy:
    """A policy named on the command line (`read_policy_name`), built for this turn."""
    kind, value = read_policy_name(text, duel)
    if kind == POINTS:
        return points_policy(pairs)
    if kind == KEEP_DALEKS:
        return keep_daleks(pairs, int(value))
    if kind == TABLE:
        return read_table(pairs, str(value))
    return WIN
