"""The cyclic-game engine on small games whose answers are known in closed form."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.engine.cyclic import Terminal, solve
from solver.engine.local import Choices

HALF = Fraction(1, 2)


class CoinRace:
    """Players flip a fair coin in turn; heads wins for the flipper, tails passes the coin.
    Optionally the mover may instead "take" a sure 1/3 chance (win with 1/3, else the next
    seat wins). Closed forms: with n players the seat k (0-based) wins 2^(n-1-k) / (2^n - 1);
    the take option is never better (2/3 > 1/3 for two players)."""

    def __init__(self, players: int, take: bool = False) -> None:
        self.players = players
        self.metrics = players
        self.wins = [Terminal(tuple(Fraction(int(s == w)) for s in range(players)))
                     for w in range(players)]
        # results: 0 = the mover wins, 1 = the next seat wins, 2 = the coin passes on
        options = [[(0, HALF), (2, HALF)]]
        if take:
            options.append([(0, Fraction(1, 3)), (1, Fraction(2, 3))])
        self.choice = Choices(options, 3)

    def start(self) -> int:
        return 0

    def objective(self, seat: int) -> int:
        return seat

    def progress(self, seat: int) -> int:
        return 0

    def local(self, seat: int) -> Choices:
        return self.choice

    def successors(self, seat: int) -> list:
        following = (seat + 1) % self.players
        return [self.wins[seat], self.wins[following], following]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("exact", [False, True])
def test_coin_race_closed_form(players: int, exact: bool) -> None:
    solution = solve(CoinRace(players), 0, exact=exact)
    total = 2**players - 1
    for seat in range(players):
        expected = Fraction(2 ** (players - 1 - seat), total)  # geometric series, see docstring
        assert solution.values(0)[seat] == pytest.approx(float(expected), abs=1e-14)
        if exact:
            assert solution.exact_values(0)[seat] == expected
    assert solution.residual <= 1e-12
    assert solution.components == 1  # the seats form one cycle


def test_worse_option_is_declined() -> None:
    """v = max(1/3, 1/2 + (1 - v)/2) has the fixed point v = 2/3: flipping, not taking."""
    solution = solve(CoinRace(2, take=True), 0, exact=True)
    assert solution.exact_values(0) == [Fraction(2, 3), Fraction(1, 3)]


def test_falling_progress_is_refused() -> None:
    class Backwards(CoinRace):
        def progress(self, seat: int) -> int:
            return -seat  # seat 1 follows seat 0 but claims less progress

    with pytest.raises(ValueError, match="progress falls"):
        solve(Backwards(2), 0)


class DoomedRace(CoinRace):
    """Two seats flip a coin with heads 1/3; every heads wins for seat 1 (terminal A when seat 0
    flipped it, B when seat 1 did). Metric 2, maximised by nobody, is P(the game ends at A).
    Seat 0's own value is 0 and seat 1's is 1, numbers floats hold exactly, while metric 2 is
    p0 = 1/3 + (2/3)(2/3) p0 = 3/5 from seat 0 and 2/5 from seat 1: the exact pass must solve
    every metric, not stop at the movers' own."""

    def __init__(self) -> None:
        self.players, self.metrics = 2, 3
        one = Fraction(1)
        self.ends = [Terminal((Fraction(0), one, one)), Terminal((Fraction(0), one, Fraction(0)))]
        self.choice = Choices([[(0, Fraction(1, 3)), (1, Fraction(2, 3))]], 2)

    def successors(self, seat: int) -> list:
        return [self.ends[seat], 1 - seat]


def test_exact_pass_solves_every_metric() -> None:
    solution = solve(DoomedRace(), exact=True)
    assert solution.exact_values(0) == [0, 1, Fraction(3, 5)]
    assert solution.exact_values(1) == [0, 1, Fraction(2, 5)]
    assert solution.values(0)[2] == pytest.approx(0.6, abs=1e-14)
