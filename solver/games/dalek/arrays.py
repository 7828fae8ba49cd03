"""A Dalek Dice turn on arrays: `Pairs` numbers every (reachable state, roll) pair of a compiled
turn, so a policy, a table or a log of moves is a few flat arrays over them; `Play` plays one roll
of many turns at once by the rules of `rules.py` (the simulator, the exact evaluation of a policy
and the decision scorer all play through it, and `bugs.py` subclasses it to build deliberately
wrong simulators); the codes of what follows a keep."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.dice import Die
from solver.games.dalek.rules import (
    DALEKS,
    DOCTORS,
    HUMANS,
    NOT_OVER,
    TO_ROLL,
    Rules,
    doctor_intervenes,
)
from solver.games.dalek.turn import END, ROLL, STOP, CompiledTurn

NONE = -1  # the policy says nothing here (the third Doctor ended the turn, or a table is silent)
THEN = (END, STOP, ROLL)  # codes 0, 1, 2 of what follows a keep
END_CODE, STOP_CODE, ROLL_CODE = 0, 1, 2


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
