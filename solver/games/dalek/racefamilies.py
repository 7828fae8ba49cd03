"""The two-player race to the target with a remembered turn rule whose stopping threshold
follows the scores (issue 15): T = a + b/10 x (opponent - me), rounded down to a threshold a
turn can reach and clipped, and in the final round (the opponent has reached the target) "roll
until past them": T = opponent - me + 1. The rest of the rule (grab, hunt, ...) is a
`rulefamilies.TurnRule`'s, taken from the one-turn frontier (`base`).

A seat playing such a rule plays a fixed turn policy at each position, but not the same one
everywhere, so the race engine is given that seat's local model per position (`RuleRace`).
The other seat is one of two opponents:
- the perfect player (`PERFECT`): the equilibrium of `dalek game`, its turn at each position
  fixed (it does not know the rule). Optimal play against it wins 1/2 over the two seats, so a
  rule's loss is 1/2 less its mean. Valuing a rule is a policy evaluation (a few seconds to 60),
  which the search uses;
- a seat playing to win against the rule (`None`; it knows the rule: its best response, as in
  `dalek duel --a win`, two race solves, minutes to 60): the rule's worst case, for the
  frontier's rules only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from math import gcd

import numpy as np

from solver.engine.local import Choices, Response, TurnLocal
from solver.games.dalek.arrays import Pairs
from solver.games.dalek.duels import race_local
from solver.games.dalek.race import DalekRace, Position
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.rulefamilies import Learned, Rulebook, TurnRule
from solver.rulesearch import Family, Found, frontier, search

SLOPE = 10  # b is in tenths of a point of threshold per point behind
PERFECT = "perfect"  # a seat that plays the equilibrium's turns, fixed
SEED = 0
PACES = range(0, SLOPE + 1, 2)  # b searched: 0 to 1 point of threshold per point behind


@dataclass(frozen=True)
class RaceRule:
    """The turn rule `base` with its stop threshold a + b/10 x (opponent - me), clipped."""

    base: TurnRule
    a: int
    b: int

    def threshold(self, position: Position, most: int, step: int) -> int:
        scores, mover = position
        me, opponent = scores[mover], max(s for seat, s in enumerate(scores) if seat != mover)
        return self.at(opponent - me, most, step)

    def at(self, behind: int, most: int, step: int) -> int:
        """The threshold when `behind` points behind (negative: ahead)."""
        raw = self.a + (self.b * behind) // SLOPE
        return min(max(raw - raw % step, 0), most)

    @property
    def numbers(self) -> dict[str, int]:
        """The base's numbers with a for its stop, and b when it is not 0."""
        base = {k: v for k, v in self.base.numbers.items() if k != "stop"}
        return base | {"a": self.a} | ({"b": self.b} if self.b else {})


@dataclass
class RuleRace(DalekRace):
    """The race where some seats pick their local model by position (`rule_seats`); the
    others as `DalekRace` has them. `seat_locals` must name the rule seats too (any model):
    it tells the solver that the seats are not all optimal (no cache, the cyclic engine).
    `known`: successors and similar positions, which do not depend on play, shared by the
    races of one target so that each explores the game once (most of a fixed race's time)."""

    rule_seats: dict[int, Callable[[Position], Choices]] = field(default_factory=dict)
    known: dict[tuple[str, Position], list] = field(default_factory=dict)

    def local(self, position) -> Choices | TurnLocal:
        chooser = self.rule_seats.get(position[1])
        return chooser(position) if chooser is not None else super().local(position)

    def successors(self, position):
        key = ("successors", position)
        if key not in self.known:
            self.known[key] = super().successors(position)
        return self.known[key]

    def similar(self, position):
        key = ("similar", position)
        if key not in self.known:
            self.known[key] = list(super().similar(position))
        return self.known[key]


class Played:
    """A position's turn as one fixed result distribution in floats (the perfect player's,
    from a float solve): a local model without options, for float solves only."""

    batch = 1 << 16

    def __init__(self, distribution: np.ndarray) -> None:
        self.distribution = distribution
        self.n_results = len(distribution)

    def respond(self, utilities: np.ndarray, secondary: np.ndarray | None = None) -> Response:
        utilities = np.atleast_2d(utilities)
        return Response(utilities @ self.distribution,
                        lambda: np.tile(self.distribution, (len(utilities), 1)))

    def best_exact(self, utilities):
        raise ValueError("the perfect player's turns are float distributions")


def perfect_turns(pairs: Pairs, target: int) -> dict[Position, Played]:
    """The equilibrium's turn at each position of the 2-player race (`dalek game`, from the
    cache when solved before): its result distribution, from one turn pass per position, kept
    in the disk cache beside the race's values."""
    from solver import cache
    from solver.games.dalek.racesolve import cache_key

    race = DalekRace(pairs.turn, 2, target)
    key = {**cache_key(race), "what": "perfect_turns",
           "code": cache.code_hash(__name__)}
    stored = cache.load(key)
    if stored is None:
        values = solve_race(race)
        positions = list(values.index)
        utilities = np.array([values.utilities(p) for p in positions])
        turn = race.optimal_turn
        rows = np.vstack([turn.respond(utilities[i:i + turn.batch]).distributions()
                          for i in range(0, len(positions), turn.batch)])
        stored = {"positions": np.array([[*s, m] for s, m in positions], dtype=np.int64),
                  "distributions": rows}
        cache.store(key, stored)
    return {(tuple(p[:-1]), int(p[-1])): Played(row) for p, row in
            zip(stored["positions"].tolist(), stored["distributions"])}


Seat = RaceRule | str | None  # a rule, PERFECT, or None: plays to win against the others


class FixedPlay:
    """The race to one target explored once (`cyclic.explore`: the game's own positions,
    successors and payoffs), for races where every seat plays a fixed turn at each position:
    then a race is one sparse linear system, P(result) x value of where it leads, solved at
    once (a turn scoring 0 passes the move, so positions repeat), instead of the engine's
    component-by-component policy iteration (some 20 times slower for a fixed race)."""

    def __init__(self, race: DalekRace) -> None:
        from solver.engine.cyclic import explore

        self.race = race
        graph = explore(race, race.start())
        self.positions, self.size = graph.positions, graph.size
        self.successors = np.stack(graph.successors)
        self.terminals = np.array([[float(v) for v in t] for t in graph.terminals])

    def values(self, turns: Callable[[Position], np.ndarray]) -> np.ndarray:
        """Each seat's share of the win from the start, when the mover of each position plays
        the result distribution `turns` gives."""
        import scipy.sparse as sp
        import scipy.sparse.linalg as spla

        play = np.stack([turns(p) for p in self.positions])
        metric = self.race.metric
        seats = [metric.value(seat) for seat in range(self.race.players)]
        inside = self.successors < self.size
        rows, cols = np.nonzero(inside & (play != 0))
        loops = sp.csr_matrix((play[rows, cols], (rows, self.successors[rows, cols])),
                              shape=(self.size, self.size))
        ends = np.where(inside, 0.0, play)
        rhs = np.einsum("pr,prm->pm", ends, self.terminals[
            np.where(inside, 0, self.successors - self.size)][:, :, seats])
        solved = spla.spsolve((sp.identity(self.size, format="csc") - loops).tocsc(), rhs)
        return np.atleast_2d(solved.reshape(self.size, -1))[0]


class RaceRules:
    """Race rules built on one turn's rulebook, each threshold's turn valued once, and the
    game explored once per target."""

    def __init__(self, book: Rulebook) -> None:
        self.book = book
        humans = [book.rules.value(f) for f in book.rules.human_faces]
        self.step = gcd(*humans)
        self.most = book.rules.dice * max(humans)
        self._locals: dict[TurnRule, Choices] = {}
        self._known: dict[int, dict] = {}
        self._perfect: dict[int, dict[Position, Played]] = {}
        self._fixed: dict[int, FixedPlay] = {}

    def local(self, base: TurnRule, stop: int) -> Choices:
        rule = replace(base, stop=stop)
        if rule not in self._locals:
            self._locals[rule] = race_local(self.book.policy(rule))
        return self._locals[rule]

    def chooser(self, rule: RaceRule, target: int) -> Callable[[Position], Choices]:
        def choose(position: Position) -> Choices:
            scores, mover = position
            opponent = max(s for seat, s in enumerate(scores) if seat != mover)
            if opponent >= target:  # the final round: pass them
                need = opponent - scores[mover] + 1
                return self.local(rule.base, min(need + (-need) % self.step, self.most))
            return self.local(rule.base, rule.threshold(position, self.most, self.step))
        return choose

    def perfect(self, target: int) -> Callable[[Position], Played]:
        if target not in self._perfect:
            self._perfect[target] = perfect_turns(self.book.pairs, target)
        return self._perfect[target].__getitem__

    def values(self, seats: tuple[Seat, ...], target: int) -> list[float]:
        """Each seat's share of the win from the start."""
        rule_seats = {seat: self.perfect(target) if rule == PERFECT else
                      self.chooser(rule, target) for seat, rule in enumerate(seats)
                      if rule is not None}
        any_rule = next(r for r in seats if isinstance(r, RaceRule))
        race = RuleRace(self.book.pairs.turn, len(seats), target,
                        seat_locals={seat: self.local(any_rule.base, any_rule.a)
                                     for seat in rule_seats},
                        rule_seats=rule_seats, known=self._known.setdefault(target, {}))
        if len(rule_seats) == len(seats):
            if target not in self._fixed:
                self._fixed[target] = FixedPlay(race)
            return self._fixed[target].values(
                lambda p: _distribution(rule_seats[p[1]](p))).tolist()
        values = solve_race(race, use_cache=False)
        return [seat["value"] for seat in values.chances(race.start())]

    def against(self, rule: RaceRule, target: int, opponent: str | None) -> tuple[float, float]:
        """The rule's share of the win going first and going second against `opponent`."""
        return (self.values((rule, opponent), target)[0],
                self.values((opponent, rule), target)[1])


def _distribution(local: Choices | Played) -> np.ndarray:
    return local.distribution if isinstance(local, Played) else local.matrix[0]


@dataclass(frozen=True)
class Valued:
    """A race rule of the frontier: its size (numbers to remember) and its shares of the win
    going first and second against the perfect player, against a seat playing to win against
    it (None until valued), and against itself going first."""

    size: int
    rule: RaceRule
    first: float
    second: float
    self_first: float
    beaten_first: float | None = None
    beaten_second: float | None = None

    @property
    def mean(self) -> float:
        return (self.first + self.second) / 2

    @property
    def loss(self) -> float:
        """Games in 1 the rule loses against perfect play (which wins 1/2 over both seats)."""
        return 0.5 - self.mean


def families(rules: RaceRules, base: TurnRule) -> list[Family]:
    """Two families on a base rule: its numbers held (one value each) with a threshold a;
    and with the pace b too. Thresholds from 0 to the most Humans, in steps the turn reaches."""
    held = [(k, v) for k, v in base.numbers.items() if k != "stop"]
    stops = range(0, rules.most + 1, rules.step)
    fixed = tuple(range(v, v + 1) for _, v in held)
    names = "+".join([k for k, _ in held] + ["a"])
    start = tuple(v for _, v in held)
    return [Family(names, (*fixed, stops), (*start, base.stop)),
            Family(names + "+b", (*fixed, stops, PACES), (*start, base.stop, 0))]


def race_rule(base: TurnRule, numbers: tuple[int, ...], paced: bool) -> RaceRule:
    a, b = (numbers[-2], numbers[-1]) if paced else (numbers[-1], 0)
    return RaceRule(base, a, b)


def learn(rules: RaceRules, bases: list[Learned], target: int, beaten: bool = True,
          log: Callable[[str], None] = lambda line: None) -> list[Valued]:
    """The race frontier: on each one-turn frontier rule (`bases`), the best threshold a, then
    the best (a, b) from it, by the mean share of the win against the perfect player (a on
    every threshold, (a, b) by coordinate ascent: `rulesearch.search`); the best of each size,
    each better than every smaller one, valued against itself and (`beaten`) against a seat
    playing to win against it."""
    found: list[tuple[Family, Found, RaceRule]] = []
    for learned in bases:
        base = learned.rule
        fixed, paced = families(rules, base)

        def worth(numbers: tuple[int, ...], pace: bool, base: TurnRule = base) -> float:
            value = sum(rules.against(race_rule(base, numbers, pace), target, PERFECT)) / 2
            log(f"{base.name} a={numbers[-1 - pace]} b={numbers[-1] if pace else 0}: "
                f"{value:.6f}")
            return value

        best = search(fixed, lambda n: worth(n, False), SEED, restarts=0)
        found.append((fixed, best, race_rule(base, best.numbers, False)))
        paced = Family(paced.name, paced.ranges, (*best.numbers, 0))
        ascent = search(paced, lambda n: worth(n, True), SEED, exhaustive=0, restarts=0)
        found.append((paced, ascent, race_rule(base, ascent.numbers, True)))
    rule_of = {id(result): rule for _, result, rule in found}
    rows = []
    for family, result in frontier([(f, r) for f, r, _ in found]):
        rule = rule_of[id(result)]
        first, second = rules.against(rule, target, PERFECT)
        beaten_first = beaten_second = None
        if beaten:
            beaten_first, beaten_second = rules.against(rule, target, None)
        rows.append(Valued(family.size, rule, first, second,
                           rules.values((rule, rule), target)[0], beaten_first, beaten_second))
        log(f"frontier: size {family.size} {rule}: {rows[-1]}")
    return rows


def optimal_first(pairs: Pairs, target: int) -> float:
    """The first seat's share of the win under optimal play (`dalek game`)."""
    race = DalekRace(pairs.turn, 2, target)
    return solve_race(race).chances(race.start())[0]["value"]


# ---- the cost, the cache ---------------------------------------------------------------------
# Measured at 60 on the reference machine (2 cores shared, load 15-19): a rule against the
# perfect player, both seats, once the game is explored: about RULE_SECONDS_PER_POSITION s per
# position; a seat playing to win: a race solve each (cost.race_cost). The search values at most
# about RULES_PER_BASE rules per one-turn base (21 thresholds, then 2-3 sweeps of the ascent).
RULE_SECONDS_PER_POSITION = 3e-4
RULES_PER_BASE = 60


def search_cost(pairs: Pairs, bases: int, target: int) -> tuple[float, float]:
    """(seconds, bytes) the search is estimated to take: the equilibrium and its turns (two
    solves), the rules against the perfect player, and up to two frontier rows per base each
    played against a seat playing to win (two solves a row)."""
    from solver.games.dalek.cost import race_cost, race_positions

    race = DalekRace(pairs.turn, 2, target)
    solve, memory = race_cost(race, False)
    positions = sum(race_positions(race))
    seconds = (2 + 4 * bases) * solve + bases * RULES_PER_BASE * positions * \
        RULE_SECONDS_PER_POSITION
    return seconds, memory


def learned(pairs: Pairs, bases: list[Learned], target: int, force: bool = False,
            log: Callable[[str], None] = lambda line: None) -> tuple[list[Valued], bool]:
    """The race frontier from the disk cache when this very code found it for these rules and
    bases before, else searched (refused first if estimated past the budget, unless `force`);
    and whether it came from the cache."""
    from solver import cache
    from solver.limits import refuse

    rules = pairs.rules
    names = [f.name for f in fields(TurnRule)]
    key = {"game": "dalek_race_rules", "faces": list(rules.die.faces),
           "weights": list(rules.die.weights), "dice": rules.dice, "tie_rule": rules.tie_rule,
           "target": target, "seed": SEED,
           "bases": [[_code(getattr(b.rule, n)) for n in names] for b in bases],
           "code": cache.code_hash(__name__)}
    stored = cache.load(key)
    if stored is not None:
        return [_from_row(numbers, row, names) for numbers, row in
                zip(stored["numbers"].tolist(), stored["values"].tolist())], True
    refuse(f"the search for race rules to {target} ({len(bases)} one-turn rules as bases)",
           *search_cost(pairs, len(bases), target), force)
    rows = learn(RaceRules(Rulebook(pairs)), bases, target, log=log)
    cache.store(key, {
        "numbers": np.array([[r.size, r.rule.a, r.rule.b] +
                             [_code(getattr(r.rule.base, n)) for n in names] for r in rows],
                            dtype=np.int64),
        "values": np.array([[r.first, r.second, r.self_first, r.beaten_first,
                             r.beaten_second] for r in rows], dtype=np.float64)})
    return rows, False


def _code(number: int | None) -> int:
    return -1 if number is None else number  # no threshold of its own (None) is stored as -1


def _from_row(numbers: list[int], values: list[float], names: list[str]) -> Valued:
    base = TurnRule(**{n: (None if v == -1 else v) for n, v in zip(names, numbers[3:])})
    return Valued(numbers[0], RaceRule(base, numbers[1], numbers[2]), *values)

