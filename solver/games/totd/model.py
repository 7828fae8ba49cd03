"""The Adventure as an exact dynamic programme: what is P(Challenge met) with optimal play?

A position is the faces showing on every die and the tools left. Positions with the same tools
(and so the same dice) form a layer; a layer's values are one array with an axis per group of
dice (a Doctor's dice of one colour), indexed by the group's canonical state (keeps.py). Every
action uses up a tool (a re-roll icon, 2 Sonic tokens or a Black die), so layers form an acyclic
graph and each layer's array is the best, per position, of stopping and of each action, computed
from the arrays of the layers the actions lead to.

Face changes are not actions here: using one before more re-rolls is never better than keeping
it for the moment the player stops (docs/rules.md, TotD reading 7), so they are part of the stop
test (changes.py). The brute force in the tests plays them as explicit actions in any order.

The same code computes float64 probabilities or exact ones: exact values are Python integers
over one denominator per layer (a power of the dice's weight totals), so no Fraction arithmetic
runs in the array passes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from math import lcm, prod

import numpy as np

from solver.errors import InputError
from solver.games.totd.changes import ChangeNode, change_networks, success_grid
from solver.games.totd.keeps import Group, Keeps, keeps_for, padded_choices, reduce_die
from solver.games.totd.rules import (
    SONIC_REROLL,
    Adventure,
    Reroll,
    may_spend_sonic,
    may_use,
    sonic_changes,
    sonic_reroll_sizes,
)

REROLL, SONIC, DISCARD = "reroll", "sonic", "discard"
INT64_MAX = 2 ** 63 - 1


@dataclass(frozen=True)
class Layer:
    """The tools left: Black dice (each can be discarded to re-roll), Sonic tokens, and unused
    re-roll icons (holder, icon: rules.Adventure.toolkits), per Doctor."""

    blacks: tuple[int, ...]
    tokens: tuple[int, ...]
    rerolls: tuple[tuple[int, Reroll], ...]


@dataclass(frozen=True)
class Action:
    """A move that uses up a tool: re-roll some dice of `group`, or discard a Black die of
    `doctor` and re-roll all that Doctor's other dice."""

    kind: str
    doctor: int
    group: int | None
    icon: tuple[int, Reroll] | None
    after: Layer

    def sizes(self, dice: int) -> range:
        """How many of the group's `dice` the re-roll throws again (reading 4)."""
        if self.kind == SONIC:
            return sonic_reroll_sizes(dice)
        return self.icon[1].sizes(dice)


@dataclass(frozen=True)
class Numbers:
    """float64 probabilities, or exact integers over a denominator. Exact arrays are int64
    while the denominator fits (every value and partial sum is at most the denominator of the
    array it ends in), Python integers beyond."""

    exact: bool

    def coefficient(self, weight: int, total: int):
        return weight if self.exact else weight / total

    def power(self, total: int, exponent: int) -> int:
        """The factor a roll of `exponent` dice adds to an exact denominator (1 for floats)."""
        return total ** exponent if self.exact else 1

    def indicator(self, mask: np.ndarray) -> np.ndarray:
        return mask.astype(np.int64) if self.exact else mask.astype(np.float64)

    def fit(self, values: np.ndarray, den: int) -> np.ndarray:
        """Values ready to be computed over `den` without overflow."""
        if values.dtype == np.int64 and den > INT64_MAX:
            return values.astype(object)
        return values

    def number(self, numerator, denominator: int):
        return Fraction(int(numerator), denominator) if self.exact else float(numerator)


@dataclass(frozen=True)
class Size:
    """How big a solve is, counted before it runs (cost.py turns it into seconds and bytes)."""

    positions: int  # summed over every layer of tools the moves can reach
    layers: int
    moves: int  # moves from the start (each one a pass over a layer's positions)
    cuts: int  # stop-test work: stop keys x networks x 2 ** (needed symbols + change nodes)


@dataclass(frozen=True)
class Option:
    """A move from a position (None: stop) and its value; for a re-roll, how many of the
    group's dice showing each reduced face it throws again."""

    action: Action | None
    rerolled: tuple[int, ...] | None
    value: float | Fraction


Values = tuple[np.ndarray, int]
"""An array of values and its denominator (always 1 for floats)."""


class Solver:
    """Optimal play for one Adventure, solved layer by layer on demand and remembered."""

    def __init__(self, adventure: Adventure, exact: bool = False) -> None:
        self.adventure = adventure
        self.numbers = Numbers(exact)
        game = adventure.game
        self.groups = tuple(
            Group(d, c, reduce_die(game.face_symbols[c], game.dice[c].weights, adventure.need))
            for d, doctor in enumerate(adventure.doctors)
            for c in range(len(game.colours)) if doctor.pool[c])
        rerolls = [(holder, r) for holder, tools in adventure.toolkits() for r in tools.rerolls]
        self.start = Layer(tuple(doc.pool[game.black] for doc in adventure.doctors),
                           tuple(doc.tools.sonic for doc in adventure.doctors),
                           tuple(sorted(rerolls)))
        self._values: dict[Layer, Values] = {}
        self._stops: dict[tuple, np.ndarray] = {}

    # ---- the shape of a layer ------------------------------------------------------------------
    def dice(self, layer: Layer, g: int) -> int:
        group = self.groups[g]
        if group.colour == self.adventure.game.black:
            return layer.blacks[group.doctor]
        return self.adventure.doctors[group.doctor].pool[group.colour]

    def keeps(self, layer: Layer, g: int) -> Keeps:
        return keeps_for(self.groups[g].die, self.dice(layer, g))

    def group_of(self, doctor: int, colour: int) -> int | None:
        for g, group in enumerate(self.groups):
            if (group.doctor, group.colour) == (doctor, colour):
                return g
        return None

    def actions(self, layer: Layer) -> list[Action]:
        """Every move from a layer (each distinct icon once; an either-Doctor icon per Doctor)."""
        moves = []
        for i, (holder, icon) in enumerate(layer.rerolls):
            if (holder, icon) in layer.rerolls[:i]:
                continue
            after = replace(layer, rerolls=layer.rerolls[:i] + layer.rerolls[i + 1:])
            for d in (d for d in range(len(self.adventure.doctors)) if may_use(holder, d)):
                g = self.group_of(d, icon.colour)
                if g is not None and self.dice(layer, g):
                    moves.append(Action(REROLL, d, g, (holder, icon), after))
        for d, tokens in enumerate(layer.tokens):
            if tokens >= SONIC_REROLL:
                after = replace(layer, tokens=_minus(layer.tokens, d, SONIC_REROLL))
                moves += [Action(SONIC, group.doctor, g, None, after)
                          for g, group in enumerate(self.groups) if self.dice(layer, g)
                          and may_spend_sonic(d, group.doctor, self.adventure.sonic_on)]
            if layer.blacks[d]:
                moves.append(Action(DISCARD, d, None, None,
                                    replace(layer, blacks=_minus(layer.blacks, d, 1))))
        return moves

    def size(self) -> Size:
        """The solve's size from the start's tools, without solving: every count of Black dice
        left, every token count (2 a re-roll) and every subset of the re-roll icons."""
        blacks = self.start.blacks
        tokens = [range(t, -1, -SONIC_REROLL) for t in self.start.tokens]
        icons = prod(self.start.rerolls.count(r) + 1 for r in set(self.start.rerolls))
        per_doctor = []
        for d, black in enumerate(blacks):
            layers = [replace(self.start, blacks=(*blacks[:d], b, *blacks[d + 1:]))
                      for b in range(black + 1)]
            per_doctor.append(sum(prod(self.keeps(layer, g).states
                                       for g, group in enumerate(self.groups) if group.doctor == d)
                                  for layer in layers))
        stop_keys = prod(b + 1 for b in blacks) * prod(len({sonic_changes(t) for t in r})
                                                        for r in tokens)
        networks = self.networks(self.start)
        nodes = max((len(n) for n in networks), default=0)
        needed = sum(1 for n in self.adventure.need if n)
        layers = prod(b + 1 for b in blacks) * prod(len(r) for r in tokens) * icons
        return Size(prod(len(r) for r in tokens) * icons * prod(per_doctor), layers,
                    len(self.actions(self.start)),
                    stop_keys * len(networks) * 2 ** (needed + nodes))

    # ---- values ------------------------------------------------------------------------------
    def stop(self, layer: Layer) -> np.ndarray:
        """True where stopping (and making the best changes still in hand) meets the
        Challenge."""
        key = (layer.blacks, tuple(sonic_changes(t) for t in layer.tokens))
        if key not in self._stops:
            counts = [self.keeps(layer, g).counts for g in range(len(self.groups))]
            self._stops[key] = success_grid(counts, self.groups, self.adventure.need,
                                            self.networks(layer))
        return self._stops[key]

    def networks(self, layer: Layer) -> list[tuple[ChangeNode, ...]]:
        """The changes in hand when stopping in this layer (changes.change_networks)."""
        return change_networks(self.adventure, self.groups,
                               tuple(sonic_changes(t) for t in layer.tokens))

    def value(self, layer: Layer) -> Values:
        """The value of every position of a layer under optimal play."""
        if layer not in self._values:
            candidates = []
            for action in self.actions(layer):
                if action.kind == DISCARD:
                    candidates.append(self.after_discard(action))
                    continue
                keep_values, den = self.after_keeping(action)
                keeps = self.keeps(layer, action.group)
                best = keep_values[padded_choices(keeps, action.sizes(keeps.n))
                                   - keeps.states].max(axis=1)
                candidates.append((np.moveaxis(best, 0, action.group), den))
            stop = self.stop(layer)
            if not candidates:
                self._values[layer] = self.numbers.indicator(stop), 1
            else:  # stopping is worth 1 or 0: 1 beats everything, 0 nothing
                values, den = _best_of(self.numbers, candidates)
                self._values[layer] = np.where(stop, den, values), den
        return self._values[layer]

    def after_keeping(self, action: Action) -> Values:
        """The value of keeping each keep of the action's group and re-rolling the rest, for
        every state of the other groups (the group's keeps on axis 0, from `keeps.states`)."""
        values, den = self.value(action.after)
        keeps = self.keeps(action.after, action.group)
        rerolled = action.sizes(keeps.n)  # keeps of n - max(rerolled) to n - min(rerolled) dice
        return self.reroll(np.moveaxis(values, action.group, 0), den, keeps,
                           keeps.n - rerolled[-1], keeps.n - rerolled[0])

    def after_discard(self, action: Action) -> Values:
        """The value of a fresh roll of the Doctor's remaining dice (size-1 axes for them)."""
        values, den = self.value(action.after)
        own = [g for g, group in enumerate(self.groups) if group.doctor == action.doctor]
        return self.roll_all(values, den, action.after, own)

    def roll_all(self, values: np.ndarray, den: int, layer: Layer, groups: list[int]) -> Values:
        """Average over fresh rolls of the given groups (their axes become size 1)."""
        for g in groups:
            keeps = self.keeps(layer, g)
            if keeps.n:
                kept, den = self.reroll(np.moveaxis(values, g, 0), den, keeps, 0, 0)
                values = np.moveaxis(kept[-1:], 0, g)
        return values, den

    def reroll(self, front: np.ndarray, den: int, keeps: Keeps, lowest: int,
               highest: int) -> Values:
        """From values of the group's states (axis 0, over `den`), the value of every keep of
        `lowest` to `highest` dice (fewer than all) when the other dice are re-rolled, as an
        array over the keeps from the first keep after the states (exact: over one denominator;
        rows of other keeps are scratch)."""
        die = keeps.die
        den *= self.numbers.power(die.total, keeps.n - lowest)
        front = self.numbers.fit(front, den)
        start = keeps.states
        table = np.empty((keeps.levels[lowest][1] - start, *front.shape[1:]), dtype=front.dtype)
        coefficients = [(f, self.numbers.coefficient(w, die.total))
                        for f, w in enumerate(die.weights) if w]
        for m in range(keeps.n - 1, lowest - 1, -1):
            lo, hi = keeps.levels[m]
            source, offset = (front, 0) if m == keeps.n - 1 else (table, start)
            total = None
            for f, c in coefficients:
                term = source[keeps.successors[f, lo:hi] - offset]
                if c != 1:
                    term *= c
                if total is None:
                    total = term
                else:
                    total += term
            table[lo - start:hi - start] = total
        if self.numbers.exact:  # a keep of m dice was rolled over total ** (n - m)
            for m in range(lowest + 1, highest + 1):
                lo, hi = keeps.levels[m]
                table[lo - start:hi - start] *= die.total ** (m - lowest)
        return table, den

    # ---- answers -----------------------------------------------------------------------------
    def p_success(self):
        """P(Challenge met) with optimal play, before the first roll."""
        values, den = self.value(self.start)
        return self._fresh_roll(values, den)

    def p_first_roll(self):
        """P(the first roll meets the Challenge, changes in hand included)."""
        return self._fresh_roll(self.numbers.indicator(self.stop(self.start)), 1)

    def _fresh_roll(self, values: np.ndarray, den: int):
        values, den = self.roll_all(values, den, self.start, list(range(len(self.groups))))
        return self.numbers.number(values.reshape(-1)[0], den)

    def reduced(self, showing: tuple[tuple[tuple[int, ...], ...], ...]
                ) -> tuple[tuple[int, ...], ...]:
        """Per group, how many dice show each reduced face (surplus not yet made blank), for
        dice showing these faces: showing[d][c] counts Doctor d's dice of colour c per face of
        that colour's die."""
        game = self.adventure.game
        found = []
        for g, group in enumerate(self.groups):
            die = game.dice[group.colour]
            reduced = [0] * len(group.die.symbols)
            for symbol, count in zip(game.face_symbols[group.colour],
                                     showing[group.doctor][group.colour]):
                reduced[group.die.symbols.index(symbol) if symbol in group.die.symbols
                        else -1] += count
            if sum(reduced) != self.dice(self.start, g):
                raise InputError(f"{sum(reduced)} {die.name} dice showing, but the pool has "
                                 f"{self.dice(self.start, g)}")
            found.append(tuple(reduced))
        return tuple(found)

    def position(self, showing: tuple[tuple[tuple[int, ...], ...], ...]) -> tuple[int, ...]:
        """The state of every group for dice showing these faces (see `reduced`)."""
        return tuple(self.keeps(self.start, g).canonical(counts)
                     for g, counts in enumerate(self.reduced(showing)))

    def value_at(self, state: tuple[int, ...]):
        """The value of a position (a `position`) with the tools of the Adventure in hand."""
        values, den = self.value(self.start)
        return self.numbers.number(values[state], den)

    def options(self, showing: tuple[tuple[tuple[int, ...], ...], ...]) -> list[Option]:
        """Every move from the dice showing, with the Adventure's tools in hand, and its value:
        stop, then each action with each choice of dice, one per distinct result (re-rolling
        either of two dice showing the same face is one choice)."""
        counts = self.reduced(showing)
        state = self.position(showing)
        stop = self.stop(self.start)
        found = [Option(None, None, self.numbers.number(int(stop[state]), 1))]
        for action in self.actions(self.start):
            if action.kind == DISCARD:
                values, den = self.after_discard(action)
                where = tuple(0 if self.groups[g].doctor == action.doctor else s
                              for g, s in enumerate(state))
                found.append(Option(action, None, self.numbers.number(values[where], den)))
                continue
            table, den = self.after_keeping(action)
            rest = state[:action.group] + state[action.group + 1:]
            keeps = self.keeps(self.start, action.group)
            showing_here = counts[action.group]
            sizes = action.sizes(keeps.n)
            seen = set()
            for rerolled in sorted(product(*(range(c + 1) for c in showing_here)), key=sum):
                keep = keeps.canonical(tuple(a - b for a, b in zip(showing_here, rerolled)))
                if sum(rerolled) in sizes and keep not in seen:
                    seen.add(keep)
                    found.append(Option(action, rerolled,
                                        self.numbers.number(
                                            table[(keep - keeps.states, *rest)], den)))
        return found

    def states(self) -> int:
        """How many positions the solve has valued so far."""
        return sum(values.size for values, _ in self._values.values())


def _minus(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return (*values[:index], values[index] - amount, *values[index + 1:])


def _best_of(numbers: Numbers, candidates: list[Values]) -> Values:
    """The elementwise maximum of value arrays (broadcast), over their common denominator
    (arrays sharing a denominator are compared before any is rescaled)."""
    by_den: dict[int, np.ndarray] = {}
    for values, d in candidates:
        by_den[d] = np.maximum(by_den[d], values) if d in by_den else values
    den = lcm(*by_den)
    best = None
    for d, values in by_den.items():
        scaled = values if d == den else numbers.fit(values, den) * (den // d)
        best = scaled if best is None else np.maximum(best, scaled)
    return best, den
