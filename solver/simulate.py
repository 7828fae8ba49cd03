"""Seeded Monte Carlo play of the games by their rules: what `verify` checks simulators against.

The simulators play the rules directly (Dalek Dice through `dalek_policies.Play`, Pig by its two
rules), with dice from NumPy's PCG64 generator seeded by the user, so a run is reproducible bit for
bit. The solver is consulted only to pick moves: a policy is a table of moves (the optimal one is
read off the solved turn once), never a value. Many turns or games are played side by side:
every live one rolls at each step, so a million Dalek Dice turns take seconds.

Sample files are CSV, one line per turn or game, formats in docs/verify.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.dice import Die
from solver.errors import InputError
from solver.games.dalek_dice import (
    BONUS,
    DOCTOR,
    Rules,
    doctor_intervenes,
    exterminate,
)
from solver.games.dalek_policies import (
    END_CODE,
    ROLL_CODE,
    STOP_CODE,
    THEN,
    WIN,
    Pairs,
    Play,
    TurnPolicy,
    optimal_policies,
)
from solver.games.dalek_race import RaceValues
from solver.games.dalek_turn import CompiledTurn
from solver.games.strike import MID, NUMBERS, canonical
from solver.games.strike import Position as StrikePosition
from solver.games.strike_policies import STOP as STRIKE_STOP
from solver.games.strike_policies import Moves as StrikeMoves
from solver.games.strike_policies import StrikeDuel, stop_placement
from solver.games.totd_policies import Plan
from solver.tables import atomic_write

BATCH = 1 << 17  # turns played side by side (memory: a few hundred bytes each)
TIE = "tie"


def generator(seed: int) -> np.random.Generator:
    """The one source of randomness: PCG64 from the user's seed."""
    if seed < 0:
        raise InputError(f"the seed must be a whole number >= 0, not {seed}")
    return np.random.Generator(np.random.PCG64(seed))


def throw(rng: np.random.Generator, die: Die, dice: np.ndarray) -> np.ndarray:
    """Counts over the die's faces of `dice[i]` dice thrown for each row i. Each die shows one
    of its total-weight equally likely sides, so face weights are exact."""
    faces = len(die.faces)
    most = int(dice.max(initial=0))
    sides = np.repeat(np.arange(faces, dtype=np.int64), die.weights)
    shown = sides[rng.integers(0, die.total, size=(len(dice), most), dtype=np.int16)]
    thrown = np.arange(most) < dice[:, None]
    cells = (np.arange(len(dice))[:, None] * faces + shown)[thrown]
    return np.bincount(cells, minlength=len(dice) * faces).reshape(len(dice), faces)


# ---- Dalek Dice ---------------------------------------------------------------------------
@dataclass
class Decisions:
    """Every move of a run, for a decision log: the turn, the position and the move."""

    turn: list[np.ndarray]
    fields: list[np.ndarray]
    rolled: list[np.ndarray]
    keep: list[np.ndarray]
    then: list[np.ndarray]


def dalek_turns(policy: TurnPolicy, count: int, rng: np.random.Generator,
                play: Play | None = None, decisions: Decisions | None = None,
                first_turn: int = 0) -> np.ndarray:
    """The final scores of `count` Dalek Dice turns from the start, following `policy` under
    `play`'s rules and dice (the policy's own rules by default). With `decisions`, every move
    is recorded there (turns numbered from `first_turn`)."""
    pairs = policy.pairs
    play = Play(policy.rules) if play is None else play
    result = np.empty(count, dtype=np.int64)
    for lo in range(0, count, BATCH):
        size = min(BATCH, count - lo)
        fields = np.zeros((size, 5), dtype=np.int64)
        fields[:, 0] = policy.rules.dice
        live = np.arange(size)
        while len(live):
            now = fields[live]
            rolled = throw(rng, play.die, now[:, 0])
            state = pairs.states(now)
            if np.any(state < 0):
                raise ValueError(f"{policy.name}: play left the compiled turn's states")
            pair = pairs.pair(state, rolled)
            keep, then = policy.keep[pair], policy.then[pair]
            after, score = play.roll(now, rolled, keep, then)
            going = score < 0
            silent = going & (then != ROLL_CODE)
            if np.any(silent):
                raise InputError(f"the policy ({policy.name}) has no move for a roll its play "
                                 f"reaches: {_position(policy, now, rolled, silent)}")
            if decisions is not None:
                over = play.final_score(after) >= 0
                decided = np.where(over, END_CODE, np.where(going, ROLL_CODE, STOP_CODE))
                shown = pairs.choice[0, pair] >= 0  # no move when the third Doctor ends it
                decisions.turn.append(first_turn + lo + live[shown])
                decisions.fields.append(now[shown])
                decisions.rolled.append(rolled[shown])
                decisions.keep.append(keep[shown])
                decisions.then.append(decided[shown])
            result[lo + live[~going]] = score[~going]
            fields[live[going]] = after[going]
            live = live[going]
    return result


def _position(policy: TurnPolicy, fields: np.ndarray, rolled: np.ndarray,
              where: np.ndarray) -> str:
    from solver.games.dalek_dice import TurnState, format_faces

    r = int(np.flatnonzero(where)[0])
    return (f"rolled {format_faces(policy.rules, tuple(rolled[r].tolist()))} with "
            f"{TurnState(*fields[r].tolist())}")


def decision_rows(turn: CompiledTurn, decisions: Decisions) -> tuple[list[str], list[list]]:
    """A decision log as CSV rows (docs/verify.md): turn, position, roll, keep, then."""
    from solver.games.dalek_dice import format_faces

    rules = turn.rules
    keepable = list(rules.keepable_faces)
    header = ["turn", "to_roll", "humans", "daleks", "doctors", "exterminates", "roll", "keep",
              "then"]
    if not decisions.turn:
        return header, []
    turns = np.concatenate(decisions.turn)
    order = np.argsort(turns, kind="stable")  # each turn's moves together, in play order
    fields = np.concatenate(decisions.fields)[order]
    rolled = np.concatenate(decisions.rolled)[order]
    keep = np.concatenate(decisions.keep)[order]
    then = np.concatenate(decisions.then)[order]
    full = np.zeros((len(keep), len(rules.die.faces)), dtype=np.int64)
    full[:, keepable] = keep
    names: dict[tuple, str] = {}

    def name(counts: tuple) -> str:
        if counts not in names:
            names[counts] = format_faces(rules, counts)
        return names[counts]

    rows = [[t + 1, *f, name(tuple(r)), name(tuple(k)), THEN[c]]
            for t, f, r, k, c in zip((turns[order]).tolist(), fields.tolist(), rolled.tolist(),
                                     full.tolist(), then.tolist())]
    return header, rows


def dalek_games(seats: Sequence[Callable[[np.ndarray, np.ndarray], np.ndarray]], target: int,
                count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """`count` Dalek Dice races to `target` (rules 10 and 11), seat i's turns played by
    `seats[i](scores, live)`: the turn scores of the live games (rows of `scores`). Returns the
    final scores (games x seats) and the winner (seat index, or -1 for a tie for first)."""
    players = len(seats)
    scores = np.zeros((count, players), dtype=np.int64)
    live = np.arange(count)
    while len(live):
        for seat in range(players):  # a whole round: the others finish the round (rule 10)
            scores[live, seat] += seats[seat](scores, live)
        live = live[scores[live].max(axis=1) < target]
    best = scores.max(axis=1)
    alone = (scores == best[:, None]).sum(axis=1) == 1
    return scores, np.where(alone, scores.argmax(axis=1), -1)


class FixedSeat:
    """A seat whose every turn follows one turn policy, whatever the position."""

    def __init__(self, policy: TurnPolicy, rng: np.random.Generator) -> None:
        self.policy, self.rng = policy, rng

    def __call__(self, scores: np.ndarray, live: np.ndarray) -> np.ndarray:
        return dalek_turns(self.policy, len(live), self.rng)


class RaceSeat:
    """A seat that plays each turn for its share of the win: in every position, the optimal
    turn for the worth the race's solution gives each final score there. One policy per
    position met, cached, so this suits small games (few dice, low targets)."""

    def __init__(self, values: RaceValues, pairs: Pairs, seat: int,
                 rng: np.random.Generator) -> None:
        self.values, self.pairs, self.seat, self.rng = values, pairs, seat, rng
        self.policies: dict[tuple[int, ...], TurnPolicy] = {}

    def __call__(self, scores: np.ndarray, live: np.ndarray) -> np.ndarray:
        positions, group = np.unique(scores[live], axis=0, return_inverse=True)
        keys = [tuple(p) for p in positions.tolist()]
        new = [k for k in keys if k not in self.policies]
        for lo in range(0, len(new), 16):  # batched turn passes, a few columns at a time
            chunk = new[lo:lo + 16]
            utilities = np.stack([self.values.utilities((k, self.seat)) for k in chunk])
            self.policies.update(zip(chunk, optimal_policies(self.pairs, utilities,
                                                             [WIN] * len(chunk))))
        result = np.empty(len(live), dtype=np.int64)
        for g, key in enumerate(keys):
            rows = np.flatnonzero(group.reshape(-1) == g)
            result[rows] = dalek_turns(self.policies[key], len(rows), self.rng)
        return result


# ---- deliberately wrong rules: the corpus `verify` must reject (docs/verify.md) --------------
class BonusWhenStopping(Play):
    """Bug: the 5-point bonus (rule 8: every die kept) is also given when stopping."""

    def stop_score(self, humans: np.ndarray, daleks: np.ndarray) -> np.ndarray:
        return np.where(self.rules.daleks_hold(humans, daleks), humans + BONUS, 0)


class ExterminateBeatsDoctor(Play):
    """Bug: a third Doctor and a third Exterminate on one roll score as Exterminate (rule 5:
    the Doctor wins, 0 points)."""

    def intervenes(self, doctors: np.ndarray, exterminates: np.ndarray) -> np.ndarray:
        return doctor_intervenes(doctors) & ~exterminate(exterminates)


def loaded_doctor(rules: Rules) -> Play:
    """Bug: the Doctor face comes up twice as often as any other face."""
    weights = [w * (2 if f == DOCTOR else 1) for f, w in zip(rules.die.faces, rules.die.weights)]
    return Play(rules, Die(rules.die.name, rules.die.faces, tuple(weights)))


BUGS: dict[str, Callable[[Rules], Play]] = {
    "loaded-doctor": loaded_doctor,
    "bonus-when-stopping": BonusWhenStopping,
    "exterminate-beats-doctor": ExterminateBeatsDoctor,
}


# ---- Pig ----------------------------------------------------------------------------------
def pig_turns(hold: int, target: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """Banked totals of `count` Pig turns from a score of 0, holding once the turn total
    reaches `hold` (or the target): rules 15 and 16."""
    if hold < 1:
        raise InputError(f"hold needs a turn total of at least 1, not {hold}")
    stop = min(hold, target)
    total = np.zeros(count, dtype=np.int64)
    live = np.arange(count)
    while len(live):
        face = rng.integers(1, 7, size=len(live))
        pig = face == 1
        total[live[pig]] = 0
        total[live[~pig]] += face[~pig]
        live = live[~pig & (total[live] < stop)]
    return total


def pig_games(holds: Sequence[Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]],
              target: int, count: int, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray]:
    """`count` games of Pig to `target`. `holds[seat](mine, theirs, total)` says whether that
    seat holds with these banked scores and turn total (arrays). Returns the final scores
    (games x 2) and the winner (0 or 1): the first to reach the target wins at once."""
    scores = np.zeros((count, 2), dtype=np.int64)
    mover = np.zeros(count, dtype=np.int64)
    total = np.zeros(count, dtype=np.int64)
    winner = np.full(count, -1, dtype=np.int64)
    live = np.arange(count)
    while len(live):
        face = rng.integers(1, 7, size=len(live))
        pig = face == 1
        total[live] = np.where(pig, 0, total[live] + face)
        who = mover[live]
        mine, theirs = scores[live, who], scores[live, 1 - who]
        hold = np.zeros(len(live), dtype=bool)
        for seat in (0, 1):
            mask = ~pig & (who == seat)
            hold[mask] = holds[seat](mine[mask], theirs[mask], total[live[mask]]) | (
                mine[mask] + total[live[mask]] >= target)
        banked = live[hold]
        scores[banked, mover[banked]] += total[banked]
        won = banked[scores[banked, mover[banked]] >= target]
        winner[won] = mover[won]
        passing = live[pig | hold]
        total[passing] = 0
        mover[passing] = 1 - mover[passing]
        live = live[winner[live] < 0]
    return scores, winner


# ---- Strike -------------------------------------------------------------------------------
X = NUMBERS + 1  # the face that leaves the game (labels 1..5 are the numbers)


def strike_games(game: StrikeDuel, moves: StrikeMoves | None, count: int,
                 rng: np.random.Generator, hit: float | None = None,
                 miss: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`count` games of Strike (docs/rules.md, "Strike") with labelled dice: each seat plays its
    policy in `game` ("stop", or "optimal" through `moves`). `hit` and `miss` are the throw
    model the dice follow (the game's unless given). Returns the winner (seat index) and the
    winner's stock at the end, per game."""
    hit = float(game.hit) if hit is None else hit
    miss = float(game.miss) if miss is None else miss
    winners = np.empty(count, dtype=np.int64)
    stocks_left = np.empty(count, dtype=np.int64)
    for g in range(count):
        winners[g], stocks_left[g] = _strike_game(game, moves, rng, hit, miss)
    return winners, stocks_left


def _strike_game(game: StrikeDuel, moves: StrikeMoves | None, rng: np.random.Generator,
                 hit: float, miss: float) -> tuple[int, int]:
    stocks = [game.dice] * game.players
    arena: list[int] = []
    for seat in range(game.players):  # reading 10: placements in seat order
        if game.policies[seat] == STRIKE_STOP:
            number = stop_placement(canonical(arena))
        else:
            number = moves.placement(game.setup_position(arena), arena)
        arena.append(number)
        stocks[seat] -= 1
    mover = 0
    while True:
        thrown = stocks[mover] if not arena else 1  # reading 6: the big hit throws them all
        stocks[mover] -= thrown
        chance = rng.random(len(arena) + thrown).tolist()  # reading 4: strikes, then landings
        face = rng.integers(1, X + 1, size=len(arena) + thrown).tolist()
        shown = [f if u < hit else n for n, u, f in zip(arena, chance, face)]
        shown += [f for u, f in zip(chance[len(arena):], face[len(arena):]) if u >= miss]
        counts = {n: shown.count(n) for n in shown if n != X}  # reading 5: Xs leave
        taken = sum(c for c in counts.values() if c >= 2)
        arena = sorted(n for n, c in counts.items() if c == 1)
        stocks[mover] += taken
        if not (taken or not arena or not stocks[mover]) and game.policies[mover] != STRIKE_STOP:
            position = StrikePosition(mover, tuple(stocks), canonical(arena), MID, ())
            if moves.throws_again(position):
                continue
        if not stocks[mover] and sum(1 for s in stocks if s) == 1:  # reading 7
            winner = next(seat for seat, s in enumerate(stocks) if s)
            return winner, stocks[winner]
        mover = (mover + 1) % game.players
        while not stocks[mover]:
            mover = (mover + 1) % game.players


# ---- Time of the Daleks -------------------------------------------------------------------
def totd_adventures(plan: Plan, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` Adventures played by `plan` with random dice: 1 where the Challenge is met."""
    game = plan.adventure.game
    sides = [np.repeat(np.array(faces), die.weights) for faces, die in zip(plan.faces, game.dice)]

    def throw_symbols(dice: dict[int, int]) -> dict[int, list[int]]:
        return {c: sides[c][rng.integers(0, len(sides[c]), size=n)].tolist()
                for c, n in dice.items()}

    pool = plan.adventure.doctors[0].pool
    result = np.zeros(count, dtype=np.int64)
    for a in range(count):
        shown = throw_symbols({c: n for c, n in enumerate(pool) if n})
        dice = tuple(tuple(sorted(shown.get(c, []))) for c in range(len(pool)))
        icons, tokens = plan.start()
        while not plan.met(dice, tokens):
            move = plan.move(dice, icons, tokens)
            if move is None:
                break
            icons, tokens, rerolled = move
            kept = [list(d) for d in dice]
            for colour, symbols in rerolled.items():
                for symbol in symbols:
                    kept[colour].remove(symbol)
            new = throw_symbols({c: len(s) for c, s in rerolled.items()})
            dice = tuple(tuple(sorted(kept[c] + new.get(c, []))) for c in range(len(kept)))
        else:
            result[a] = 1
    return result


# ---- writing samples ----------------------------------------------------------------------
def sample_text(comment: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A sample file's text: a '#' line saying how it was made, the header, one row per unit."""
    lines = [f"# {comment}", ",".join(header)]
    lines += [",".join(map(str, row)) for row in rows]
    return "\n".join(lines) + "\n"


def write_samples(path: str, text: str) -> None:
    try:
        atomic_write(Path(path), text.encode("utf-8"))
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror}") from None


def winner_names(winner: np.ndarray) -> list[str]:
    """Seat numbers from 1, or "tie" for a tie for first."""
    return [TIE if w < 0 else str(w + 1) for w in winner.tolist()]

