"""Three or more players (issue 12): the tie-break among a mover's equal options, and the paranoid
bound (each seat against a coalition of all the others).

Expected numbers come from independent computations here: a hand-built turn graph whose tie is
known, an explicit race with the independent turn brute force (tests/dalek_bruteforce.py) for the
paranoid game's Bellman equations, and the zero-sum identity of two players.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from dalek_bruteforce import BruteForce

from solver.engine.local import Choices
from solver.engine.turn import TurnGraph
from solver.games.dalek.race import DalekRace, RaceValues, solve_race
from solver.games.dalek.rules import parse_rules
from solver.games.dalek.turn import compile_turn

FACES = "H4 H2 D3 D2 DOC EXT"
Position = tuple[tuple[int, ...], int]


@cache
def turn(dice: int):
    return compile_turn(parse_rules(dice=dice))


def solved(players: int, target: int, dice: int, exact: bool = False, **options) -> RaceValues:
    race = DalekRace(turn(dice), players, target, **options)
    return solve_race(race, exact=exact, use_cache=False, engine="cyclic")


# ---- the tie-break ------------------------------------------------------------------------------
def tied_graph() -> tuple[TurnGraph, int]:
    """Results 0, 1, 2; a choice (the root) between a sure result 1 and a coin between results
    0 and 2."""
    graph = TurnGraph(3)
    coin = graph.add_chance(np.array([0, 2]), np.array([0, 2]), [1, 1], [2])
    root = graph.add_choice(np.array([0, 2]), np.array([1, coin[0]]))
    return graph, int(root[0])


@pytest.mark.parametrize("secondary, sure", [(None, True), ([0.0, 1.0, 0.0], True),
                                             ([0.0, 0.0, 1.0], False), ([1.0, 0.0, 1.0], False),
                                             ([0.0, 0.5, 1.0], True)])
def test_ties_go_to_the_secondary_then_to_the_first(secondary, sure: bool) -> None:
    """Utilities 0, 1/2, 1 make both options worth 1/2 exactly: without a secondary utility the
    first (sure) option is played; with one, the option best for it (its expected secondary:
    sure 1 vs coin 1/2 in the second case, 0 vs 1/2, 0 vs 1; equal 1/2 vs 1/2: the first)."""
    graph, root = tied_graph()
    utilities = np.array([[0.0, 0.5, 1.0]])
    second = None if secondary is None else np.array([secondary])
    best, distributions = graph.respond(utilities, root, second)
    assert best[0] == 0.5
    expected = [0.0, 1.0, 0.0] if sure else [0.5, 0.0, 0.5]
    assert distributions()[0].tolist() == expected
    options = Choices([[(1, Fraction(1))], [(0, Fraction(1, 2)), (2, Fraction(1, 2))]], 3)
    response = options.respond(utilities, second)
    assert response.distributions()[0].tolist() == expected


def test_the_secondary_never_overrules_a_better_option() -> None:
    graph, root = tied_graph()
    _, distributions = graph.respond(np.array([[0.0, 0.5, 1.000001]]), root,
                                     np.array([[0.0, 1.0, 0.0]]))
    assert distributions()[0].tolist() == [0.5, 0.0, 0.5]


@pytest.mark.parametrize("rule, scores, mover, seat", [
    ("leader", (3, 7, 7, 1), 0, 1), ("leader", (3, 7, 7, 1), 1, 2), ("leader", (9, 7, 7, 1), 2, 0),
    ("leader", (3, 2, 7, 7), 2, 3), ("next", (0, 0, 0, 0), 3, 0), ("previous", (0, 0, 0, 0), 0, 3),
    ("next", (0, 0, 0, 0), 1, 2), ("previous", (0, 0, 0, 0), 2, 1)])
def test_the_seat_a_tie_helps(rule: str, scores, mover: int, seat: int) -> None:
    """The leader: the highest score among the other seats, the first after the mover in turn
    order on equal scores; next and previous wrap round the table."""
    race = DalekRace(turn(2), 4, 20, tie_break=rule)
    assert race.tie_metric((scores, mover)) == race.metric.value(seat)
    assert DalekRace(turn(2), 4, 20).tie_metric((scores, mover)) is None


# ---- the paranoid bound -------------------------------------------------------------------------
class ExplicitRace:
    """The race's rules written out again (as test_dalek_race.py does, independently of the
    solver): who moves next, how a game ends, each seat's share of the win."""

    def __init__(self, players: int, target: int, dice: int) -> None:
        self.players, self.target, self.dice = players, target, dice

    def next(self, scores: tuple[int, ...], mover: int, points: int):
        after = list(scores)
        after[mover] += points
        if mover == self.players - 1 and max(after) >= self.target:
            return tuple(after)
        return tuple(after), (mover + 1) % self.players

    @staticmethod
    def share(final: tuple[int, ...], seat: int) -> Fraction:
        best = max(final)
        return Fraction(1, final.count(best)) if final[seat] == best else Fraction(0)


@pytest.mark.parametrize("players, target, dice", [(3, 5, 2), (2, 6, 2), (4, 3, 2)])
def test_paranoid_values_satisfy_the_zero_sum_bellman_equations(players: int, target: int,
                                                                dice: int) -> None:
    """In exact rationals, the seat played against gets the best turn for its share, every other
    mover the worst turn for it (the brute force's turn maximising minus that share), at every
    position the solve holds (its canonical positions; payoffs computed from true scores)."""
    race = ExplicitRace(players, target, dice)
    for seat in range(players):
        values = solved(players, target, dice, exact=True, against=seat)
        for (scores, mover), row in values.index.items():
            exact = values.exact[row]

            def worth(points: int, scores=scores, mover=mover, seat=seat, values=values
                      ) -> Fraction:
                following = race.next(scores, mover, points)
                if not isinstance(following[0], tuple):
                    return race.share(following, seat)
                return values.exact[values.row(values.race.canonical(*following))][seat]

            sign = 1 if mover == seat else -1
            best = BruteForce(FACES, "ge", lambda s, w=worth, k=sign: k * w(s)).start(dice)
            assert sign * best == exact[seat]


@pytest.mark.parametrize("players, target, dice", [(3, 9, 3), (4, 6, 3)])
def test_a_seat_is_sure_of_no_more_than_its_equilibrium_share(players: int, target: int,
                                                              dice: int) -> None:
    """The coalition can only lower a seat's share from what others playing for themselves
    give it: at every position, for every seat."""
    equilibrium = solved(players, target, dice)
    assert equilibrium.residual <= 1e-12
    for seat in range(players):
        paranoid = solved(players, target, dice, against=seat)
        assert paranoid.residual <= 1e-12
        assert paranoid.index == equilibrium.index
        gap = equilibrium.table[:, seat] - paranoid.table[:, seat]
        assert gap.min() >= -1e-12
        assert gap.max() > 1e-3  # the coalition does hurt somewhere


def test_two_players_paranoid_is_the_equilibrium() -> None:
    """Two players with a tie shared 1/2 each: zero-sum, so playing against a seat is what the
    other seat does anyway."""
    equilibrium = solved(2, 14, 4)
    for seat in range(2):
        paranoid = solved(2, 14, 4, against=seat)
        assert np.abs(paranoid.table[:, :2] - equilibrium.table[:, :2]).max() <= 1e-12
