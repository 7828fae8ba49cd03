"""The Dalek Dice race written out again, independently of the solver, for the tests that check
it: who moves next, how a game ends, each seat's share of the win, the positions a game
reaches and a seat's worth of each turn score (turns valued by the turn brute force,
dalek_bruteforce.py)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

from dalek_bruteforce import BruteForce

FACES = "H4 H2 D3 D2 DOC EXT"
Position = tuple[tuple[int, ...], int]


def possible_scores(dice: int) -> list[int]:
    """Every final score some play of a turn can reach (the brute force's game tree)."""
    brute = BruteForce(FACES, "ge")
    found: set[int] = set()

    @cache
    def walk(state: tuple[int, ...]) -> None:
        for outcome in {tuple(sorted(o)) for o in _rolls(brute, state[0])}:
            subsets = brute.keeps(state, outcome)
            if subsets is None:
                found.add(0)
                continue
            for _, after in subsets:
                score = brute.final_score(after)
                if score is not None:
                    found.add(score)
                else:
                    found.add(brute.stop_points(after))
                    walk(after)

    walk((dice, 0, 0, 0, 0))
    return sorted(found)


def _rolls(brute: BruteForce, n: int):
    return product(brute.faces, repeat=n)


class ExplicitRace:
    """The race's rules, written out again: who moves next, and how a game ends."""

    def __init__(self, players: int, target: int, dice: int) -> None:
        self.players, self.target, self.dice = players, target, dice
        self.scores = possible_scores(dice)

    def next(self, scores: tuple[int, ...], mover: int, points: int):
        """The position after the mover scores `points`, or the final scores (a tuple)."""
        after = list(scores)
        after[mover] += points
        if mover == self.players - 1 and max(after) >= self.target:
            return tuple(after)
        return tuple(after), (mover + 1) % self.players

    def share(self, final: tuple[int, ...], seat: int) -> Fraction:
        """Win alone: 1; a k-way tie for first: 1/k; else 0."""
        best = max(final)
        return Fraction(1, final.count(best)) if final[seat] == best else Fraction(0)

    def positions(self) -> list[Position]:
        start = ((0,) * self.players, 0)
        seen, todo = {start}, [start]
        while todo:
            scores, mover = todo.pop()
            for points in self.scores:
                following = self.next(scores, mover, points)
                if isinstance(following[0], tuple) and following not in seen:
                    seen.add(following)
                    todo.append(following)
        return sorted(seen)

    def utility(self, values, position: Position, seat: int):
        """The seat's worth of each final turn score of the mover, from `values`."""
        scores, mover = position

        def worth(points: int):
            following = self.next(scores, mover, points)
            if not isinstance(following[0], tuple):
                return self.share(following, seat)
            return values[following][seat]
        return worth
