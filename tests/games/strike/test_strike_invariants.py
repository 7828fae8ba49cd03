"""Strike: conservation of dice, closed forms of the throw model, symmetries, and the position's
fields each mattering. Expected numbers come from the rules (closed forms in the comments)."""

from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction
from functools import cache
from importlib import import_module
from itertools import product
from math import prod

import numpy as np
import pytest
from helpers import ROOT

from solver.engine.cyclic import Solution, solve
from solver.games.strike.model import MID, SETUP, START, Position, Strike
from solver.games.strike.rules import resolve, thrown_into
from solver.games.strike.throws import canonical, throw_outcomes

HALF = Fraction(1, 2)
PARAMETERS = [Fraction(0), Fraction(1, 3), HALF, Fraction(1)]


@cache
def solved(players: int, dice: int, hit: Fraction = HALF, miss: Fraction = Fraction(0),
           scoring: str = "win") -> tuple[Strike, Solution]:
    game = Strike(players, dice, hit, miss, scoring)
    return game, solve(game, game.start())


def edges(game: Strike, solution: Solution):
    """(position, result index, where it leads) for every result of every position."""
    for position in solution.graph.positions:
        for k, target in enumerate(game.successors(position)):
            yield position, k, target


def in_play(position: Position) -> int:
    return sum(position.stocks) + sum(position.arena)


# ---- the throw model ----------------------------------------------------------------------
@pytest.mark.parametrize("hit", PARAMETERS)
@pytest.mark.parametrize("miss", PARAMETERS)
def test_throws_are_distributions_that_conserve_dice(hit: Fraction, miss: Fraction) -> None:
    for arena, thrown in [((), 1), ((), 4), ((1,), 1), ((1, 1, 1), 1), ((2, 1), 1),
                          ((1,) * 5, 1), ((3, 1, 1), 1)]:
        outcomes = throw_outcomes(arena, thrown, hit, miss)
        assert sum(o.probability for o in outcomes) == 1
        for o in outcomes:
            assert sum(arena) + thrown == o.left + o.taken + o.removed
            assert o.taken != 1 and o.left <= 5


@pytest.mark.parametrize("miss", PARAMETERS)
def test_with_no_hit_the_arena_dice_never_change(miss: Fraction) -> None:
    """--hit 0: only the thrown die moves. Into k different numbers it lands (1 - miss) and
    shows a new number (5 - k of 6 faces), one of the k (a pair, taken) or X; or it misses."""
    for k in range(6):
        expected = {(k + 1, 0, 0): (1 - miss) * Fraction(5 - k, 6),
                    (k - 1, 2, 0): (1 - miss) * Fraction(k, 6),
                    (k, 0, 1): miss + (1 - miss) / 6}
        got = {(o.left, o.taken, o.removed): o.probability
               for o in throw_outcomes((1,) * k, 1, Fraction(0), miss)}
        assert got == {key: p for key, p in expected.items() if p}


def test_with_every_die_struck_the_arena_is_thrown_afresh() -> None:
    """--hit 1, --miss 0: every die is rolled, so k arena dice and one thrown die fare as a big
    hit of k + 1 dice, whatever the arena showed."""
    one = Fraction(1)
    for arena in [(1,), (1, 1), (2,), (1, 1, 1), (2, 1), (3,), (1,) * 5]:
        assert throw_outcomes(arena, 1, one, Fraction(0)) == \
            throw_outcomes((), sum(arena) + 1, one, Fraction(0))


def test_a_die_that_misses_leaves_the_game() -> None:
    """--miss 1: the thrown die always leaves; with --hit 0 too, nothing else happens."""
    for arena in [(1,), (1, 1, 1), (2, 1)]:
        (only,) = throw_outcomes(arena, 1, Fraction(0), Fraction(1))
        pairs = sum(g for g in arena if g >= 2)
        assert (only.left, only.taken, only.removed, only.probability) == \
            (sum(1 for g in arena if g == 1), pairs, 1, 1)


@pytest.mark.parametrize(("arena", "thrown"), [((3,), 1), ((1, 2, 5), 1), ((4, 4), 1), ((), 3)])
@pytest.mark.parametrize("fly_out", [Fraction(0), Fraction(1, 5)])
def test_the_simulators_throw_is_the_models(arena: tuple[int, ...], thrown: int,
                                            fly_out: Fraction) -> None:
    """Every draw of the simulator's throw (rules.thrown_into, then rules.resolve on labelled
    dice), weighted by the throw model, adds up to the model's exact distribution: an arena die
    stays (1 - hit), is struck out of the arena (hit x fly-out) or struck and rolled."""
    hit, miss = Fraction(1, 3), Fraction(1, 4)
    fates = {"stays": 1 - hit, "flies out": hit * fly_out, "rolled": hit * (1 - fly_out)}
    dice = len(arena) + thrown
    got: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    for fate in product(fates, repeat=len(arena)):
        struck = [f != "stays" for f in fate]
        flew = [f == "flies out" for f in fate]
        for landed in product((False, True), repeat=thrown):
            p = prod(fates[f] for f in fate) * \
                prod(1 - miss if lands else miss for lands in landed) / 6 ** dice
            for faces in product(range(1, 7), repeat=dice):
                left, taken = resolve(thrown_into(arena, struck, flew, landed, faces))
                got[(len(left), taken, dice - len(left) - taken)] += p
    expected = throw_outcomes(canonical(arena), thrown, hit, miss, fly_out)
    assert {key: p for key, p in got.items() if p} == \
        {(o.left, o.taken, o.removed): o.probability for o in expected}


# ---- the solved game ----------------------------------------------------------------------
@pytest.mark.parametrize("players,dice", [(2, 9), (3, 3)])
def test_every_transition_conserves_dice(players: int, dice: int) -> None:
    """Dice in the arena + stocks + removed = dice at the start, along every result."""
    game, solution = solved(players, dice)
    total = players * dice
    for position, k, target in edges(game, solution):
        assert in_play(position) + game.progress(position) == total
        if position.phase == SETUP or (position.phase == MID and k == 0):
            removed = 0  # a placement or stopping moves no die out of the game
        else:
            thrown = 1 if position.arena else position.stocks[position.mover]
            outcome = throw_outcomes(position.arena, thrown, game.hit, game.miss)[
                k - (position.phase == MID)]
            removed = outcome.removed
        if isinstance(target, Position):
            assert in_play(target) == in_play(position) - removed


@pytest.mark.parametrize("players,dice", [(2, 9), (3, 3), (4, 2)])
def test_one_player_goes_out_at_a_time_and_only_the_mover(players: int, dice: int) -> None:
    game, solution = solved(players, dice)
    for position, _, target in edges(game, solution):
        before = {seat for seat, s in enumerate(position.stocks) if s}
        if position.phase != SETUP:
            assert position.mover in before
        if isinstance(target, Position):
            after = {seat for seat, s in enumerate(target.stocks) if s}
            assert after <= before and before - after <= {position.mover}
            assert len(after) >= 2 and target.mover in after


def test_a_big_hit_without_a_match_puts_the_thrower_out() -> None:
    game, solution = solved(2, 9)
    big_hits = [p for p in solution.graph.positions if p.phase == START and not p.arena]
    assert big_hits
    for position in big_hits:
        stock = position.stocks[position.mover]
        outcomes = throw_outcomes((), stock, game.hit, game.miss)
        for outcome, target in zip(outcomes, game.successors(position)):
            if outcome.taken == 0:  # out: the turn passes on (or the game is over)
                assert not isinstance(target, Position) or (
                    target.stocks[position.mover] == 0 and target.mover != position.mover)
            else:
                assert target.stocks[position.mover] == outcome.taken
                assert target.phase == START and target.mover != position.mover


@pytest.mark.parametrize("players,dice", [(2, 9), (3, 3)])
def test_win_probabilities_sum_to_one(players: int, dice: int) -> None:
    _, solution = solved(players, dice)
    sums = solution.table[:solution.graph.size].sum(axis=1)
    assert np.allclose(sums, 1.0, atol=1e-12)


def test_two_seats_mirror_each_other() -> None:
    """Swapping the seats (and the stocks with them) swaps the values: the engine solves the two
    positions separately, so this holds only if neither seat is treated differently."""
    _, solution = solved(2, 9)
    positions = set(solution.graph.positions)
    mirrored = 0
    for p in positions:
        twin = Position(1 - p.mover, p.stocks[::-1], p.arena, p.phase, p.points)
        if p.phase != SETUP and twin in positions:
            assert solution.values(p) == pytest.approx(solution.values(twin)[::-1], abs=1e-12)
            mirrored += 1
    assert mirrored > 1000


def test_two_player_points_are_the_losses() -> None:
    """With 2 players the one eliminated scores 1 and the winner 0: expected points are
    P(lose), and play (so every value) is as for the win."""
    _, by_points = solved(2, 6, scoring="points")
    _, by_wins = solved(2, 6)
    for position in by_points.graph.positions:
        plain = position._replace(points=())
        points, wins = by_points.values(position), by_wins.values(plain)
        assert -points[:2] == pytest.approx(1 - wins, abs=1e-12)
        assert points[2:] == pytest.approx(wins, abs=1e-12)


@pytest.mark.parametrize("players,dice", [(3, 3), (4, 2)])
def test_points_shared_out_are_those_of_the_places(players: int, dice: int) -> None:
    """Every game hands out points players - 1, ..., 1, 0 once each (reading 8), so the seats'
    expected points sum to players (players - 1) / 2 at every position."""
    _, solution = solved(players, dice, scoring="points")
    points = -solution.table[:solution.graph.size, :players].sum(axis=1)
    assert np.allclose(points, players * (players - 1) / 2, atol=1e-10)
    wins = solution.table[:solution.graph.size, players:].sum(axis=1)
    assert np.allclose(wins, 1.0, atol=1e-12)


# ---- every field of the position matters --------------------------------------------------
def test_mid_turn_and_start_of_turn_differ() -> None:
    """Where stopping beats throwing, the same stocks and arena are worth less to a mover who
    must throw: a key without the phase would give one of them a wrong value."""
    _, solution = solved(2, 9)
    positions = set(solution.graph.positions)
    differing = 0
    for p in positions:
        start = p._replace(phase=START)
        if p.phase == MID and start in positions:
            mover = p.mover
            assert solution.values(p)[mover] >= solution.values(start)[mover] - 1e-12
            differing += solution.values(p)[mover] > solution.values(start)[mover] + 1e-3
    assert differing > 0


def test_who_moves_matters() -> None:
    _, solution = solved(2, 9)
    positions = set(solution.graph.positions)
    assert any(abs(solution.values(p)[0] - solution.values(p._replace(mover=1 - p.mover))[0])
               > 1e-3 for p in positions if p.phase == START
               and p._replace(mover=1 - p.mover) in positions)


def test_the_order_players_went_out_matters_under_points() -> None:
    """With 4 players, two seats out in either order share stocks and arena but not points:
    the points field keeps them apart (and the mover's own value is the same in both)."""
    _, solution = solved(4, 2, scoring="points")
    by_rest: dict[tuple, list[Position]] = {}
    for p in solution.graph.positions:
        if sum(1 for s in p.stocks if not s) == 2:
            by_rest.setdefault(p._replace(points=()), []).append(p)
    pairs = [group for group in by_rest.values() if len(group) == 2]
    assert pairs
    for a, b in pairs:
        assert not np.allclose(solution.values(a)[:4], solution.values(b)[:4])
        assert solution.values(a)[a.mover] == pytest.approx(solution.values(b)[b.mover],
                                                             abs=1e-12)


def test_rules_doc_names_where_each_reading_lives() -> None:
    """docs/rules.md ends each Strike reading with its place in code (`rules.NAME`, ...): every
    name it gives exists."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("## Strike"):text.index("## Pig")]
    names = set(re.findall(r"`((?:rules|model|throws)\.[A-Za-z_.]+)`", section))
    names -= {"rules.py", "model.py", "throws.py"}  # files the section names
    assert len(names) >= 25
    for name in names:
        module, *path = name.split(".")
        found = import_module(f"solver.games.strike.{module}")
        for attribute in path:
            found = getattr(found, attribute)
