"""benchmarks/bench_cluster.py's model: its per-level position counts against the level engine's
own numbering, the levels it says a level reads against the numbered successors, and its
arithmetic on a race small enough to add up by hand."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_cluster
from bench_cluster import Costs, Shape, level_sizes, model, reads

from solver.games.dalek.files import parse_rules
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.turn import compile_turn


@pytest.mark.parametrize("players, target, dice", [(2, 6, 3), (3, 8, 4), (4, 5, 3)])
def test_levels_counted_as_the_engine_numbers_them(players, target, dice) -> None:
    """Counts without arrays equal the numbering's levels; every successor of a level lies in
    the level itself or in a level `reads` names (so a task given those levels has all it
    reads)."""
    game = LevelRace(DalekRace(compile_turn(parse_rules(dice=dice)), players, target))
    race = Shape(players, target, game.results, game.metrics)
    numbered = [game.positions(level) for level in range(game.levels)]
    assert level_sizes(race) == [len(positions) for positions in numbered]
    level_of = np.concatenate([np.full(len(p), level) for level, p in enumerate(numbered)])
    order = np.argsort(np.concatenate(numbered))
    for level, positions in enumerate(numbered):
        after = game.successors(positions)
        reached = set(level_of[order][after[after >= 0]].tolist()) - {level}
        assert reached <= set(reads(race, level)), level


def test_the_model_adds_up_as_by_hand(monkeypatch) -> None:
    """Two seats to 2, turn scores 0-1, one metric (9 bytes a position), one task per position,
    a second a position before the final round and half of one in it, 9 bytes a second.
    Levels 0-2 (score sums) hold 2, 4 and 2 positions, level 3 (the final round, mover 1) 2
    excesses x 1 tie x 2 scores = 4. Work 2 + 4 + 2 + 4 x 0.5 = 10 s. On 16 cores a level takes one
    position's time: 1 + 1 + 1 + 0.5 = 3.5 s. On 64 cores (4 nodes), solving 3, 2, 1, 0: level
    2 reads 3 (4 positions, new), level 1 reads 2 (new) and 3, level 0 reads 1 (new) and 3; the
    driver's node sends each new level to 3 nodes: 3 x (36 + 18 + 36) = 270 bytes; each level's
    values come back from 3 nodes of 4: 3/4 x 12 positions x 9 = 81 bytes; (270 + 81) / 9 =
    39 s. Memory, the levels still read plus the level solved (twice with Ray): one process
    holds at most 54 + 36 = 90 bytes (level 1: levels 2 and 3, and itself); the driver's node
    54 + 2 x 36 = 126, the other nodes 72 (level 0 reads levels 1 and 3)."""
    monkeypatch.setattr(bench_cluster, "BANDWIDTH", 9.0)
    race = Shape(players=2, target=2, results=2, metrics=1)
    assert level_sizes(race) == [2, 4, 2, 4]
    assert [reads(race, level) for level in range(4)] == [[1, 3], [2, 3], [3], []]
    rows, _ = model(race, Costs(before=1.0, final=0.5, reached=1.0, overhead=0.0), chunk=1)
    one, sixteen, sixty_four = rows[:3]
    worker, driver = bench_cluster.WORKER_BYTES, bench_cluster.DRIVER_BYTES
    assert math.isclose(one.hours * 3600, 10.0) and math.isclose(one.efficiency, 1.0)
    assert math.isclose(sixteen.hours * 3600, 3.5)
    assert math.isclose(sixteen.efficiency, 10 / (16 * 3.5))
    assert math.isclose(sixty_four.hours * 3600, 3.5 + 39.0)
    assert one.driver == 90 + driver and sixteen.other == 0.0
    assert sixty_four.driver == 126 + driver + 15 * worker
    assert sixty_four.other == 72 + 16 * worker
    whole, _ = model(race, Costs(before=1.0, final=0.5, reached=1.0, overhead=0.0), "whole",
                     chunk=1)
    # the whole array (12 positions, 108 bytes) to 3 nodes every level, and the values back:
    # (4 x 3 x 108 + 81) / 9 = 153 s
    assert math.isclose(whole[2].hours * 3600, 3.5 + 153.0)
    assert whole[2].driver == 2 * 108 + driver + 15 * worker
    # two ranges of the first seat's score (0 and 1): levels 0-2 hold 1 + 0, 1 + 1 and 0 + 1
    # of each mover's positions: 4 over 2 ranges against a largest range of 3
    assert math.isclose(bench_cluster.split_balance(race, 2), 4 / 2 / 3)


def test_the_widest_reads_as_by_hand() -> None:
    """Two seats to 4, turn scores 0-4 of which a turn makes only 0 and 4: levels 0-6 hold 2,
    4, 6, 8, 6, 4, 2 positions. Every score: level 0 or 1 reads 4 later levels, 24 positions
    (9 bytes each: 216); the possible ones and the warm start's next two (1, 2, 4): level 1
    reads levels 2, 3 and 5, 6 + 8 + 4 = 18 positions (162 bytes)."""
    race = Shape(players=2, target=4, results=5, metrics=1, possible=(0, 4))
    assert level_sizes(race)[:7] == [2, 4, 6, 8, 6, 4, 2]
    assert bench_cluster.widest(race) == 216 and bench_cluster.widest(race, True) == 162


def test_a_split_level_holds_what_its_ranges_read() -> None:
    """`split_held` against the numbered successors of the 3-player race to 8 (4 dice) cut in
    2 and 3 ranges of the first seat's score: the pieces a range's positions read (a later
    level's positions of one first-seat score, the final round's first level's of one sum of
    the later seats, the other final levels whole) hold no more than it says, and exactly as
    much for some level and range (it counts turn scores 4 dice cannot make, so it errs high)."""
    game = LevelRace(DalekRace(compile_turn(parse_rules(dice=4)), 3, 8))
    race = Shape(3, 8, game.results, game.metrics)
    numbered = [game.positions(level) for level in range(game.levels)]
    level_of = np.concatenate([np.full(len(p), level) for level, p in enumerate(numbered)])
    scores, _ = game.decode(np.concatenate(numbered))
    order = np.argsort(np.concatenate(numbered))
    level_of, scores = level_of[order], scores[order]
    piece = np.where(level_of <= race.top, scores[:, 0],  # by the first seat's score
                     np.where(level_of == race.top + 1, scores[:, 1:].sum(axis=1), -1))
    size: dict[tuple[int, int], int] = {}
    for key in zip(level_of.tolist(), piece.tolist()):
        size[key] = size.get(key, 0) + 1
    tight = []
    for ranges in (2, 3):
        width = math.ceil(race.target / ranges)
        for level in range(race.top + 1):
            for low in range(0, race.target, width):
                high = min(low + width, race.target) - 1
                mine = numbered[level][(scores[numbered[level], 0] >= low)
                                       & (scores[numbered[level], 0] <= high)]
                after = game.successors(mine)
                after = after[(after >= 0) & (level_of[np.maximum(after, 0)] != level)]
                read = set(zip(level_of[after].tolist(), piece[after].tolist()))
                held = sum(size[key] for key in read)
                assert held <= bench_cluster.split_held(race, level, low, high)
                tight.append(held == bench_cluster.split_held(race, level, low, high))
    assert any(tight)
