"""An independent brute force of one Dalek Dice turn, for the tests.

Written from the rules as the project reads them (docs/rules.md, rules 1-9), sharing no code with
the solver: a die is a list of equally likely sides (a face of weight w is w sides), a roll is an
ordered tuple of sides (itertools.product), a keep is a subset of the rolled dice's positions (a
bitmask), and values are Fractions memoised on the brute force's own state tuple. The value of a
final turn score is a utility: the score itself (expected points) by default, or any function of
it (the win probability each score leads to, in a race).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product

State = tuple[int, int, int, int, int]  # to_roll, humans, daleks, doctors, exterminates
Option = tuple[str, str]  # (kept Human/Dalek faces as "H4 D3" or "-", "end" | "stop" | "roll")


class BruteForce:
    """One turn of Dalek Dice by exhaustive search over ordered rolls and subsets of dice."""

    def __init__(self, faces: str, tie_rule: str,
                 utility: Callable[[int], Fraction] = Fraction) -> None:
        self.faces: list[str] = []  # distinct faces in the order first written
        self.sides: list[str] = []  # one entry per equally likely side
        for token in faces.split():
            name, _, weight = token.partition(":")
            if name not in self.faces:
                self.faces.append(name)
            self.sides += [name] * (int(weight) if weight else 1)
        self.tie_rule = tie_rule
        self.utility = utility  # the worth of each final turn score
        self.values: dict[State, Fraction] = {}  # memo: value of a state before its roll

    # ---- rules 2, 8, 9 -------------------------------------------------------------------
    @staticmethod
    def kind(face: str) -> str:
        """'doctor', 'exterminate', 'human' or 'dalek'."""
        if face == "DOC":
            return "doctor"
        if face == "EXT":
            return "exterminate"
        return "human" if face[0] == "H" else "dalek"

    def daleks_hold(self, humans: int, daleks: int) -> bool:
        return daleks >= humans if self.tie_rule == "ge" else daleks > humans

    def final_score(self, state: State) -> int | None:
        """Points if the turn ends right after keeping (rules 6 and 8), else None."""
        to_roll, humans, daleks, _, exterminates = state
        if exterminates >= 3:  # rule 6: doubled Humans, +5 only when no die is left
            return 2 * humans + (5 if to_roll == 0 else 0)
        if to_roll == 0:  # rule 8: no die left
            return humans + 5 if self.daleks_hold(humans, daleks) else 0
        return None

    def stop_points(self, state: State) -> int:
        """Rule 8: stopping with dice left."""
        return state[1] if self.daleks_hold(state[1], state[2]) else 0

    # ---- one roll --------------------------------------------------------------------------
    def keeps(self, state: State, outcome: tuple[str, ...]
              ) -> Iterator[tuple[tuple[int, ...], State]] | None:
        """Rules 3-5 for an ordered roll from `state`: None when the third Doctor ends the turn,
        else every legal subset of the Human/Dalek dice (positions) with the state after it."""
        to_roll, humans, daleks, doctors, exterminates = state
        assert len(outcome) == to_roll
        kinds = [self.kind(f) for f in outcome]
        doctor_now = "doctor" in kinds  # rule 3: exactly one Doctor kept if any shows
        exterminate_now = "exterminate" in kinds
        doctors += doctor_now
        exterminates += exterminate_now
        if doctors >= 3:  # rule 5, before anything else (it beats rule 6)
            return None
        valued = [i for i, k in enumerate(kinds) if k in ("human", "dalek")]
        set_aside = doctor_now + exterminate_now

        def subsets() -> Iterator[tuple[tuple[int, ...], State]]:
            for mask in range(1 << len(valued)):
                chosen = tuple(valued[j] for j in range(len(valued)) if mask >> j & 1)
                if set_aside + len(chosen) == 0:  # rule 4: keep at least one die
                    continue
                h = sum(int(outcome[i][1:]) for i in chosen if kinds[i] == "human")
                d = sum(int(outcome[i][1:]) for i in chosen if kinds[i] == "dalek")
                yield chosen, (to_roll - set_aside - len(chosen), humans + h, daleks + d,
                               doctors, exterminates)

        return subsets()

    def after_value(self, after: State) -> Fraction:
        """Value once the dice are kept: the turn's end, or the better of stop and roll."""
        score = self.final_score(after)
        if score is not None:
            return self.utility(score)
        return max(self.utility(self.stop_points(after)), self.value(after))

    def position_value(self, state: State, outcome: tuple[str, ...]) -> Fraction:
        """Value of an ordered roll from `state`, playing the best keep."""
        subsets = self.keeps(state, outcome)
        if subsets is None:
            return self.utility(0)
        return max(self.after_value(after) for _, after in subsets)

    def value(self, state: State) -> Fraction:
        """Value of `state` before its roll: the mean over every ordered roll."""
        if state not in self.values:
            total = sum((self.position_value(state, outcome)
                         for outcome in product(self.sides, repeat=state[0])), Fraction(0))
            self.values[state] = total / len(self.sides) ** state[0]
        return self.values[state]

    def start(self, dice: int) -> Fraction:
        """Rule 3: a fresh turn rolls every die; the first roll has no stop-or-roll choice."""
        return self.value((dice, 0, 0, 0, 0))

    def rule_distribution(self, choose: Callable[[State, tuple[str, ...]], State | None],
                          stops: Callable[[State], bool], dice: int) -> dict[int, Fraction]:
        """The exact score distribution of a fixed rule over ordered rolls: `choose` gives the
        state after its keep (None when the third Doctor ends the turn), `stops` whether it
        stops there (it stops only where the Daleks hold); the turn ends where rule 6 or 8
        ends it."""

        @cache
        def dist(state: State) -> dict[int, Fraction]:
            result: dict[int, Fraction] = {}
            share = Fraction(1, len(self.sides) ** state[0])
            for outcome in product(self.sides, repeat=state[0]):
                after = choose(state, outcome)
                score = 0 if after is None else self.final_score(after)
                if score is None and not (stops(after) and self.daleks_hold(after[1], after[2])):
                    for s, p in dist(after).items():
                        result[s] = result.get(s, Fraction(0)) + share * p
                    continue
                score = self.stop_points(after) if score is None else score
                result[score] = result.get(score, Fraction(0)) + share
            return result

        return dist((dice, 0, 0, 0, 0))

    # ---- reports ---------------------------------------------------------------------------
    def keep_text(self, outcome: tuple[str, ...], chosen: tuple[int, ...]) -> str:
        """Kept faces in die order ("H4 D3"), "-" when none."""
        kept = sorted((self.faces.index(outcome[i]), outcome[i]) for i in chosen)
        return " ".join(face for _, face in kept) or "-"

    def options(self, state: State, outcome: tuple[str, ...]) -> dict[Option, Fraction]:
        """Every distinct option (kept faces, then what) with its exact value; empty when the
        Doctor intervenes. Subsets keeping the same faces must agree (a self-check)."""
        subsets = self.keeps(state, outcome)
        table: dict[Option, Fraction] = {}
        for chosen, after in subsets or ():
            keep = self.keep_text(outcome, chosen)
            score = self.final_score(after)
            values = ({(keep, "end"): self.utility(score)} if score is not None else
                      {(keep, "stop"): self.utility(self.stop_points(after)),
                       (keep, "roll"): self.value(after)})
            for option, value in values.items():
                assert table.setdefault(option, value) == value, "brute force not symmetric"
        return table

    def rolls(self, n: int) -> Iterator[tuple[str, ...]]:
        """One ordered representative of every multiset roll of n dice (for comparisons)."""
        return combinations_with_replacement(self.faces, n)


