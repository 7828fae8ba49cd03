"""What a play's samples are judged by: its outcomes as cells (a value per sample column and an
exact probability), and the statistics read off them. Knows no game.

A turn's outcome is one column (its score); a game's are several (the winner, each seat's final
score, the turns taken), and each statistic is a function of a sample's columns: the loser's
final score, the winning margin, the game's length. The same function applied to the exact
cells gives the statistic's exact distribution, and applied to a simulator's rows its counts, so
a statistic is written once for both. Winners are codes: seat numbers from 1, `TIE` (0) for a
tie for first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

TIE = 0  # the winner code of a tie for first (seats are 1, 2, ...)
JOINT = 1 << 20  # a joint code: first value * JOINT + second value

Columns = Mapping[str, np.ndarray]


def winner_label(code: int) -> str:
    return "tie" if code == TIE else str(code)


@dataclass(frozen=True)
class Statistic:
    """A number read off each sample (`value` of its columns, whole numbers), named for people
    (`name`) and machines (`key`). `label` writes a value as the sample format or a report
    does; `ordered`: values are ordered (scores, turns), so neighbours may be grouped."""

    key: str
    name: str
    columns: tuple[str, ...]
    value: Callable[[Columns], np.ndarray]
    label: Callable[[int], str] = str
    ordered: bool = True


def _column(name: str) -> Callable[[Columns], np.ndarray]:
    return lambda c: np.asarray(c[name], dtype=np.int64)


def _joint(first: Callable[[Columns], np.ndarray], second: Callable[[Columns], np.ndarray]
           ) -> Callable[[Columns], np.ndarray]:
    return lambda c: first(c) * JOINT + second(c)


def _joint_label(first: Callable[[int], str]) -> Callable[[int], str]:
    return lambda code: f"{first(code // JOINT)}:{code % JOINT}"


def _loser(c: Columns) -> np.ndarray:
    return np.minimum(c["score_1"], c["score_2"]).astype(np.int64)


WINNER = Statistic("winner", "winner", ("winner",), _column("winner"), winner_label, False)
TURNS = Statistic("turns", "game length (turns)", ("turns",), _column("turns"))
LOSER = Statistic("loser_score", "loser's final score", ("score_1", "score_2"), _loser)
MARGIN = Statistic("margin", "winning margin", ("score_1", "score_2"),
                   lambda c: np.abs(np.asarray(c["score_1"]) - c["score_2"]).astype(np.int64))
WINNER_LOSER = Statistic("winner_loser", "winner and loser's score",
                         ("winner", "score_1", "score_2"), _joint(_column("winner"), _loser),
                         _joint_label(winner_label), False)
SCORE_RACE = (WINNER, LOSER, MARGIN, TURNS, WINNER_LOSER)  # a two-seat race to a target


def score(column: str = "score", name: str = "score") -> Statistic:
    """A single numeric outcome (a turn's score, an Adventure's success)."""
    return Statistic(column, name, (column,), _column(column))


@dataclass
class Outcomes:
    """Every outcome of a play as cells: `columns[name][i]` the value of sample column `name`
    in cell i, `probability[i]` its chance. `residual`: mass no cell holds (a forward pass
    stopped short of it); `statistics` the statistics a sample is judged by; `title` says what
    play this is."""

    title: str
    unit: str  # "turn", "game", "adventure"
    columns: dict[str, np.ndarray]
    probability: np.ndarray
    statistics: tuple[Statistic, ...]
    residual: float = 0.0
    exact: dict[str, list] = field(default_factory=dict)  # a statistic's exact fractions

    def distribution(self, statistic: Statistic) -> tuple[np.ndarray, np.ndarray]:
        """The statistic's values (sorted) and their probabilities."""
        codes, where = np.unique(statistic.value(self.columns), return_inverse=True)
        return codes, np.bincount(where.reshape(-1), self.probability, len(codes))

    def joint(self, names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The cells merged over the columns `names` (rows of values, sorted) and their
        probabilities: the finest outcome a sample with only those columns shows."""
        table = np.stack([np.asarray(self.columns[n], dtype=np.int64) for n in names], axis=1)
        rows, where = np.unique(table, axis=0, return_inverse=True)
        return rows, np.bincount(where.reshape(-1), self.probability, len(rows))


def aligned(codes: np.ndarray, p: np.ndarray, other_codes: np.ndarray, q: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two distributions of one statistic over the union of their values: (values, p, q)."""
    union = np.union1d(codes, other_codes)
    left, right = np.zeros(len(union)), np.zeros(len(union))
    left[np.searchsorted(union, codes)] = p
    right[np.searchsorted(union, other_codes)] = q
    return union, left, right


def counts_of(codes: np.ndarray, sample: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A sample's values counted against the exact values `codes`: (all values, counts), the
    values the play never produces appended after `codes` (their probability is 0)."""
    at = np.minimum(np.searchsorted(codes, sample), max(len(codes) - 1, 0))
    known = (len(codes) > 0) & (codes[at] == sample) if len(codes) else np.zeros(len(sample),
                                                                                  dtype=bool)
    extra, back = np.unique(sample[~known], return_inverse=True)
    index = np.where(known, at, 0)
    index[~known] = len(codes) + back.reshape(-1)
    return np.concatenate([codes, extra]), np.bincount(index, minlength=len(codes) + len(extra))
