"""Ways to play a Dalek Dice turn, as values, and the exact distribution of points each gives.

A turn policy answers every (state before a roll, roll) with a keep and then stop or roll. It is
held as flat arrays over every (reachable state, roll) pair of the compiled turn, so a simulator
finds a move with two integer searches instead of a solver call, and a user's table (the CSV that
`dice-solver dalek table` writes) becomes the same arrays. Built-in policies: `points` (optimal
for expected points), `keep-daleks K` (a simple human rule, see `keep_daleks`), and the optimal
turn for any utility of the final score (the win share each score leads to, in a race). The race
policy "win" is no turn policy: it plays each position's own optimal turn (`RacePolicy`).

`Play` plays one roll of many turns at once by the rules of `rules.py`: the simulator, the exact
evaluation and the decision scorer all play through it, and `bugs.py` subclasses it to build
deliberately wrong simulators. `distribution` follows a policy forward over turn states in exact
integers; it shares nothing with the solver's optimisation, so it also checks it (the points
policy's distribution equals the solver's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from solver.dice import Die, roll
from solver.engine.local import Choices
from solver.errors import InputError
from solver.games.dalek.race import DalekRace, RaceValues, solve_race
from solver.games.dalek.rules import (
    DALEKS,
    DOCTORS,
    FIELDS,
    HUMANS,
    MAX_DICE,
    MAX_VALUE,
    NOT_OVER,
    TO_ROLL,
    Rules,
    TurnState,
    brief,
    doctor_intervenes,
    format_faces,
    parse_dice,
)
from solver.games.dalek.turn import END, ROLL, STOP, CompiledTurn, points_utility
from solver.samples import read_csv

NONE = -1  # the policy says nothing here (the third Doctor ended the turn, or a table is silent)
THEN = (END, STOP, ROLL)  # codes 0, 1, 2 of what follows a keep
END_CODE, STOP_CODE, ROLL_CODE = 0, 1, 2
MOVE_COLUMNS = (*FIELDS, "roll", "keep", "then")  # a move in a policy table or decision log


class Play:
    """One roll of many turns played by the rules, on arrays (one row per turn).

    `die` is the die actually thrown (the rules' die unless a test loads it). A deliberately
    wrong simulator overrides `intervenes` or `stop_score`."""

    def __init__(self, rules: Rules, die: Die | None = None) -> None:
        self.rules = rules
        self.die = rules.die if die is None else die
        if self.die.faces != rules.die.faces:
            raise ValueError("the thrown die must have the rules' faces")

    def roll(self, fields: np.ndarray, rolled: np.ndarray, kept: np.ndarray, then: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
        """States after keeping `kept` (counts of the keepable faces) from `rolled` (counts of
        every face), and each turn's score, or NOT_OVER while it goes on (`then` is ROLL_CODE)."""
        after = self.rules.keep(self.rules.set_aside(fields, rolled), kept)
        score = self.rules.end_score(after, self.intervenes(after))
        stop = (score == NOT_OVER) & (then == STOP_CODE)
        score[stop] = self.stop_score(after[stop, HUMANS], after[stop, DALEKS])
        return after, score

    def intervenes(self, after: np.ndarray) -> np.ndarray:
        """Rule 5: the Doctor intervenes (state fields after the roll, last axis)."""
        return doctor_intervenes(after[..., DOCTORS])

    def stop_score(self, humans: np.ndarray, daleks: np.ndarray) -> np.ndarray:
        """Rule 8: the points of stopping with dice left."""
        return self.rules.stop_score(humans, daleks)


@dataclass
class Pairs:
    """Every (reachable state, roll) pair of a compiled turn, numbered: states in key order
    (so by dice to roll), each followed by every roll of its dice in `roll(die, n)` order."""

    turn: CompiledTurn
    keys: np.ndarray  # (states,) sorted state keys
    fields: np.ndarray  # (states, FIELDS)
    first: np.ndarray  # (states + 1,) each state's first pair; the last entry is the count
    radix: np.ndarray  # per face: a roll's code is counts @ radix
    codes: np.ndarray  # sorted codes of every roll of 1..dice dice
    rank: np.ndarray  # each code's position among the rolls of its size

    @classmethod
    def of(cls, turn: CompiledTurn) -> Pairs:
        rules = turn.rules
        sizes = sorted(turn.layers)
        keys = np.concatenate([turn.layers[n].keys for n in sizes])
        per_state = np.concatenate([np.full(len(turn.layers[n].keys), len(turn.rolls[n]))
                                    for n in sizes])
        faces = len(rules.die.faces)
        radix = (rules.dice + 1) ** np.arange(faces - 1, -1, -1, dtype=np.int64)
        codes = np.concatenate([turn.rolls[n] @ radix for n in turn.rolls])
        rank = np.concatenate([np.arange(len(turn.rolls[n])) for n in turn.rolls])
        order = np.argsort(codes, kind="stable")
        return cls(turn, keys, turn.codec.decode_all(keys),
                   np.concatenate([[0], np.cumsum(per_state)]), radix, codes[order], rank[order])

    @property
    def rules(self) -> Rules:
        return self.turn.rules

    @property
    def size(self) -> int:
        return int(self.first[-1])

    def states(self, fields: np.ndarray) -> np.ndarray:
        """The index of each state (rows of fields); -1 for a state no turn reaches."""
        radix = np.array(self.turn.codec.radix)
        inside = np.all((fields >= 0) & (fields < radix), axis=1)
        keys = self.turn.codec.encode(np.where(inside[:, None], fields, 0))
        index = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        return np.where(inside & (self.keys[index] == keys), index, -1)

    def pair(self, state: np.ndarray, rolled: np.ndarray) -> np.ndarray:
        """The pair of each (state index, roll as counts over the faces)."""
        return self.first[state] + self.rank[np.searchsorted(self.codes, rolled @ self.radix)]

    @cached_property
    def state_of(self) -> np.ndarray:
        """Each pair's state."""
        return np.repeat(np.arange(len(self.keys)), np.diff(self.first))

    @cached_property
    def rolled(self) -> np.ndarray:
        """Each pair's roll as counts over the faces."""
        return np.concatenate([self.turn.rolls[int(f[TO_ROLL])] for f in self.fields])

    @cached_property
    def choice(self) -> np.ndarray:
        """Each pair's keep decision node in the turn graph (-1: the third Doctor ended it),
        and the keep code forced on the way to it."""
        sizes = sorted(self.turn.layers)
        return np.stack([np.concatenate([self.turn.layers[n].choice.ravel() for n in sizes]),
                         np.concatenate([self.turn.layers[n].code.ravel() for n in sizes])])

    @cached_property
    def chance(self) -> np.ndarray:
        """Each state's chance node (its roll) in the turn graph."""
        return np.array([self.turn.chance[k] for k in self.keys.tolist()], dtype=np.int64)

    def layer(self, n: int) -> tuple[int, int]:
        """The states [lo, hi) that roll n dice."""
        return (int(np.searchsorted(self.fields[:, TO_ROLL], n)),
                int(np.searchsorted(self.fields[:, TO_ROLL], n, side="right")))


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


# ---- moves written in files: policy tables and decision logs ----------------------------------
@dataclass
class Moves:
    """Rows of (position, move) read from a file, checked against the rules."""

    lines: np.ndarray  # the file line of each row (1 = header)
    pair: np.ndarray
    keep: np.ndarray  # counts over the keepable faces
    then: np.ndarray  # END/STOP/ROLL codes
    extra: dict[str, list[str]]  # other columns, as text


def read_moves(pairs: Pairs, path: str, what: str) -> Moves:
    """Rows with the columns of `dice-solver dalek table` (to_roll, humans, daleks, doctors,
    exterminates, roll, keep, then; others are kept as text): each a legal move by the rules
    in a position some turn reaches. `what` names the file in errors."""
    header, rows, lines = read_csv(path, what, MOVE_COLUMNS)
    rules = pairs.rules
    keepable = list(rules.keepable_faces)
    columns = {name: header.index(name) for name in header}
    fields = np.empty((len(rows), len(FIELDS)), dtype=np.int64)
    rolled = np.empty((len(rows), len(rules.die.faces)), dtype=np.int64)
    kept = np.empty((len(rows), len(keepable)), dtype=np.int64)
    then = np.empty(len(rows), dtype=np.int64)
    faces: dict[str, tuple[int, ...]] = {}
    for r, (row, line) in enumerate(zip(rows, lines)):
        try:
            fields[r] = [int(row[columns[c]]) for c in FIELDS]
            rolled[r] = _faces(rules, row[columns["roll"]], faces)
            counts = _faces(rules, row[columns["keep"]], faces)
            then[r] = THEN.index(row[columns["then"]].strip().lower())
        except (ValueError, OverflowError, InputError) as error:  # OverflowError: past int64
            raise InputError(f"{what} line {line}: {_reason(error)}") from None
        if any(c for f, c in enumerate(counts) if f not in keepable):
            raise InputError(f"{what} line {line}: only Human and Dalek dice are kept by choice")
        kept[r] = [counts[f] for f in keepable]
    _check_rows(fields, rolled.sum(axis=1) == fields[:, TO_ROLL], lines, what,
                "the roll shows {shown} dice but {to_roll} were to roll",
                shown=rolled.sum(axis=1), to_roll=fields[:, TO_ROLL])
    state = pairs.states(fields)
    _check_rows(fields, state >= 0, lines, what, "no turn reaches this position ({state})")
    pair = pairs.pair(state, rolled)
    _check_rows(fields, pairs.choice[0, pair] >= 0, lines, what,
                "the third Doctor ends the turn on this roll: there is no move to make")
    _check_rows(fields, rules.may_keep(rolled, kept), lines, what,
                "this keep is not allowed (it must be in the roll, and one die must be kept)")
    _, score = Play(rules).roll(fields, rolled, kept, np.full(len(rows), ROLL_CODE))
    _check_rows(fields, (score != NOT_OVER) == (then == END_CODE), lines, what,
                "'then' must be 'end' exactly when the keep ends the turn")
    extra = {name: [row[i] for row in rows] for name, i in columns.items()
             if name not in MOVE_COLUMNS}
    return Moves(lines, pair, kept, then, extra)


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


def _faces(rules: Rules, text: str, cache: dict[str, tuple[int, ...]]) -> tuple[int, ...]:
    """`parse_dice`, once per distinct text (a file repeats the same rolls many times)."""
    if text not in cache:
        cache[text] = parse_dice(rules, text)
    return cache[text]


def _reason(error: Exception) -> str:
    return str(error) if isinstance(error, InputError) else \
        "expected whole numbers, faces such as 'H4 D3' (or '-') and then end, stop or roll"


def _check_rows(fields: np.ndarray, ok: np.ndarray, lines: np.ndarray, what: str, message: str,
                **values: np.ndarray) -> None:
    """Raise for the first row that is not ok, naming its line and position."""
    bad = np.flatnonzero(~ok)
    if len(bad):
        r = int(bad[0])
        words = {name: int(v[r]) for name, v in values.items()}
        raise InputError(f"{what} line {lines[r]}: " + message.format(
            state=TurnState(*fields[r].tolist()), **words))


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
        _check_moves(policy, pair[going & (policy.then[pair] != ROLL_CODE)])
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


def _check_moves(policy: TurnPolicy, missing: np.ndarray) -> None:
    """A turn that goes on needs the policy's stop-or-roll: a table that leaves it out fails."""
    if len(missing):
        pairs = policy.pairs
        p = int(missing[0])
        state = TurnState(*pairs.fields[pairs.state_of[p]].tolist())
        raise InputError(f"the policy ({policy.name}) has no move for the roll "
                         f"{format_faces(policy.rules, tuple(pairs.rolled[p]))} in the state "
                         f"{state}, which its play reaches")



# ---- policies by name, and duels ------------------------------------------------------------
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


def race_local(policy: TurnPolicy) -> Choices:
    """A fixed turn policy as the race engine's local model: one option, its exact score
    distribution (a fixed policy plays the same turn whatever the position)."""
    exact = distribution(policy)
    return Choices([[(s, p) for s, p in enumerate(exact) if p]], policy.pairs.turn.graph.n_results)


@dataclass
class Duel:
    """Seats racing to the target, each with its policy, and the race solved for that play."""

    race: DalekRace
    values: RaceValues

    def chances(self) -> list[dict]:
        """Each seat's P(win alone), P(tie for first) and value (share of the win) from the
        start, float and (when solved so) exact."""
        return self.values.chances(self.race.start())


def solve_duel(pairs: Pairs, policies: tuple[Policy, ...], target: int, exact: bool = False,
               use_cache: bool = True, force: bool = False) -> Duel:
    """The race where seat i plays `policies[i]`. With every seat playing "win" this is the
    plain race (cached like `dalek game`); a fixed seat changes the game, so that solve is
    never read from or written to the cache. `force`: see `solve_race`."""
    locals_ = {seat: race_local(p) for seat, p in enumerate(policies)
               if isinstance(p, TurnPolicy)}
    race = DalekRace(pairs.turn, len(policies), target, seat_locals=locals_)
    values = solve_race(race, exact=exact, use_cache=use_cache and not locals_, force=force)
    return Duel(race, values)


def describe_move(pairs: Pairs, moves: Moves, row: int) -> dict:
    """One move of a log as players write it."""
    rules = pairs.rules
    keep = [0] * len(rules.die.faces)
    for face, count in zip(rules.keepable_faces, moves.keep[row].tolist()):
        keep[face] = count
    p = int(moves.pair[row])
    return {"line": int(moves.lines[row]),
            "position": str(TurnState(*pairs.fields[pairs.state_of[p]].tolist())),
            "roll": format_faces(rules, tuple(pairs.rolled[p].tolist())),
            "keep": format_faces(rules, tuple(keep)), "then": THEN[int(moves.then[row])]}
