"""Dalek Dice played by its rules with seeded dice: turns and races, many side by side (every
live one rolls at each step, so a million turns take seconds). The solver only picks moves: a
policy is a table of moves read off a solved turn, never a value."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from solver.dice import throw
from solver.errors import InputError
from solver.games.dalek.arrays import END_CODE, ROLL_CODE, STOP_CODE, THEN, Pairs, Play
from solver.games.dalek.cost import (
    SIMULATED_CALL_SECONDS,
    SIMULATED_GAME_BYTES,
    SIMULATED_TURN_SECONDS,
    STARTUP,
    WIN_SEAT_SECONDS_PER_PAIR,
    race_positions,
)
from solver.games.dalek.files import MOVE_COLUMNS
from solver.games.dalek.policies import WIN, Policy, TurnPolicy, optimal_policies
from solver.games.dalek.race import DalekRace, RaceValues
from solver.games.dalek.rules import NOT_OVER, TO_ROLL, TurnState, reaches_target, winners
from solver.games.dalek.turn import CompiledTurn
from solver.games.dalek.typed import format_faces
from solver.limits import refuse

BATCH = 1 << 17  # turns played side by side (memory: a few hundred bytes each)


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
        fields = np.tile(policy.rules.start().fields, (size, 1))
        live = np.arange(size)
        while len(live):
            now = fields[live]
            rolled = throw(rng, play.die, now[:, TO_ROLL])
            state = pairs.states(now)
            if np.any(state < 0):
                raise ValueError(f"{policy.name}: play left the compiled turn's states")
            pair = pairs.pair(state, rolled)
            keep, then = policy.keep[pair], policy.then[pair]
            after, score = play.roll(now, rolled, keep, then)
            going = score == NOT_OVER
            silent = going & (then != ROLL_CODE)
            if np.any(silent):
                raise InputError(f"the policy ({policy.name}) has no move for a roll its play "
                                 f"reaches: {_position(policy, now, rolled, silent)}")
            if decisions is not None:
                over = play.rules.end_score(after) != NOT_OVER
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
    r = int(np.flatnonzero(where)[0])
    return (f"rolled {format_faces(policy.rules, tuple(rolled[r].tolist()))} with "
            f"{TurnState(*fields[r].tolist())}")


def decision_rows(turn: CompiledTurn, decisions: Decisions) -> tuple[list[str], list[list]]:
    """A decision log as CSV rows (docs/verify.md): turn, position, roll, keep, then."""

    rules = turn.rules
    keepable = list(rules.keepable_faces)
    header = ["turn", *MOVE_COLUMNS]
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
                count: int, ends=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`count` Dalek Dice races to `target` (rules 10 and 11), seat i's turns played by
    `seats[i](scores, live)`: the turn scores of the live games (rows of `scores`). `ends`
    (score_1, score_2, seat, target) replaces rule 10's end of a two-seat game (a deliberately
    wrong simulator's). Returns the final scores (games x seats), the winner (seat index, or -1
    for a tie for first) and the turns each game took (all seats)."""
    players = len(seats)
    scores = np.zeros((count, players), dtype=np.int64)
    turns = np.zeros(count, dtype=np.int64)
    live = np.arange(count)
    while len(live):
        for seat in range(players):  # a whole round: the others finish the round (rule 10)
            scores[live, seat] += seats[seat](scores, live)
            turns[live] += 1
            if ends is not None:
                live = live[~ends(scores[live, 0], scores[live, 1], seat, target)]
        if ends is None:
            live = live[~reaches_target(scores[live].max(axis=1), target)]
    won = [winners(final) for final in scores.tolist()]
    return scores, np.array([w[0] if len(w) == 1 else -1 for w in won], dtype=np.int64), turns


def race_seats(pairs: Pairs, policies: Sequence[Policy], values: RaceValues | None,
               rng: np.random.Generator, play: Play | None = None) -> list[FixedSeat | RaceSeat]:
    """The seats of a race: a turn policy plays every turn alike (under `play`'s rules, by
    default the policy's own); "win" plays each position's optimal turn by `values` (the race
    solved for these policies)."""
    return [FixedSeat(p, rng, play) if isinstance(p, TurnPolicy)
            else RaceSeat(values, pairs, seat, rng) for seat, p in enumerate(policies)]


class FixedSeat:
    """A seat whose every turn follows one turn policy, whatever the position."""

    def __init__(self, policy: TurnPolicy, rng: np.random.Generator,
                 play: Play | None = None) -> None:
        self.policy, self.rng, self.play = policy, rng, play

    def __call__(self, scores: np.ndarray, live: np.ndarray) -> np.ndarray:
        return dalek_turns(self.policy, len(live), self.rng, play=self.play)


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
                                                             [WIN.name] * len(chunk))))
        result = np.empty(len(live), dtype=np.int64)
        for g, key in enumerate(keys):
            rows = np.flatnonzero(group.reshape(-1) == g)
            result[rows] = dalek_turns(self.policies[key], len(rows), self.rng)
        return result


# ---- what a simulation costs ------------------------------------------------------------------
def games_cost(pairs: Pairs, games: int, target: int, means: list[float], racing: list[bool]
               ) -> tuple[float, float]:
    """(seconds, bytes) of simulating `games` races to `target`, the seats expecting `means`
    points a turn (some above 0), `racing` the seats that play "win" (figures in cost.py). A
    race lasts about target / best mean rounds, the slowest of many games up to twice that and
    10 more; a "win" seat derives the optimal turn of every position it meets."""
    rounds = target / max(means) + 1
    longest = 2 * rounds + 10
    seats = len(means)
    seconds = (STARTUP + games * seats * rounds * SIMULATED_TURN_SECONDS
               + seats * longest * SIMULATED_CALL_SECONDS)
    memory = games * seats * SIMULATED_GAME_BYTES
    if any(racing):
        before, _ = race_positions(DalekRace(pairs.turn, seats, target))
        met = sum(racing) * min(before // seats, int(games * longest))
        seconds += (met * pairs.size * WIN_SEAT_SECONDS_PER_PAIR
                    + longest * min(games, before) * SIMULATED_CALL_SECONDS)
        memory += met * pairs.size * (len(pairs.rules.keepable_faces) + 1)
    return seconds, memory


def check_games(pairs: Pairs, games: int, target: int, means: list[float],
                racing: list[bool], force: bool) -> None:
    """Refuse to simulate races that would never end (no seat ever scores), or take too long
    or too much memory (`games_cost`)."""
    if max(means) <= 0:
        raise InputError("neither seat's policy ever scores: the race would never end")
    seconds, memory = games_cost(pairs, games, target, means, racing)
    refuse(f"simulating {games:,} races to {target}", seconds, memory, force)
