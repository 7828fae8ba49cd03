"""The Dalek Dice turn as a compiled expectimax graph, valued by any utility of the final score.

Every reachable state before a roll is a chance node over the roll's outcomes (multisets, exact
multinomial weights). After the mandatory set-asides, each legal keep leads to the state after
keeping: an end of turn (a result leaf worth its score) or a choice between stopping (a leaf) and
rolling the dice left (the chance node of that state). The enumeration of keeps is vectorised per
number of dice rolled; the rules themselves are `rules.py`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import product

import numpy as np

from solver.dice import roll
from solver.engine.turn import ExactSolution, FloatSolution, TurnGraph
from solver.errors import InputError
from solver.formatting import exact_text
from solver.games.dalek.rules import (
    DALEKS,
    DOCTORS,
    FIELDS,
    HUMANS,
    NOT_OVER,
    THIRD,
    TO_ROLL,
    Rules,
    TurnState,
    doctor_intervenes,
    enough_kept,
    exterminate,
)
from solver.games.dalek.typed import format_faces

END, STOP, ROLL = "end", "stop", "roll"  # what follows a keep


def rolls_of(rules: Rules) -> dict[int, np.ndarray]:
    """Every roll of n dice (counts over the faces, in `roll(die, n)` order), for n = 1..dice."""
    return {n: np.array(roll(rules.die, n).outcomes, dtype=np.int64)
            for n in range(1, rules.dice + 1)}


@dataclass
class StateCodec:
    """Turn states as sortable int64 keys (lexicographic in the state's fields)."""

    radix: tuple[int, ...]

    @classmethod
    def for_rules(cls, rules: Rules) -> StateCodec:
        top_h, top_d = (rules.kept_values.max(axis=0, initial=0) * rules.dice).tolist()
        return cls((rules.dice + 1, top_h + 1, top_d + 1, THIRD + 1, THIRD + 1))

    def encode(self, fields: np.ndarray) -> np.ndarray:
        key = np.zeros(len(fields), dtype=np.int64)
        for i, base in enumerate(self.radix):
            key = key * base + fields[:, i]
        return key

    def decode_all(self, keys: np.ndarray) -> np.ndarray:
        """Keys back to rows of state fields."""
        fields = np.empty((len(keys), len(self.radix)), dtype=np.int64)
        rest = np.asarray(keys, dtype=np.int64)
        for i in range(len(self.radix) - 1, -1, -1):
            rest, fields[:, i] = np.divmod(rest, self.radix[i])
        return fields

    def decode(self, key: int) -> TurnState:
        fields = []
        for base in reversed(self.radix):
            key, digit = divmod(int(key), base)
            fields.append(digit)
        return TurnState(*reversed(fields))


@dataclass
class Layer:
    """The reachable states that roll n dice, and the graph nodes of their rolls."""

    keys: np.ndarray  # sorted state keys
    choice: np.ndarray  # (states, rolls): the roll's keep decision node, -1 if the Doctor ended it
    code: np.ndarray  # (states, rolls): keep code forced before that node (single options)


class StateNodes:
    """What `position_options` asks of a turn: the chance node (a roll from there) of every
    reachable state before a roll, by the state's key."""

    rules: Rules
    codec: StateCodec
    chance: dict[int, int]  # state key -> chance node

    def key(self, state: TurnState) -> int:
        return int(self.codec.encode(np.array([state.fields]))[0])

    def chance_node(self, state: TurnState) -> int:
        node = self.chance.get(self.key(state))
        if node is None:
            raise InputError(f"no turn reaches this position ({state})")
        return node


@dataclass
class CompiledTurn(StateNodes):
    """The turn graph plus the maps from game states to its nodes.

    A keep decision is a chain of choices, one per keepable face in die order (how many H4 to
    keep, then how many H2, ...): equivalent to choosing the whole keep at once, with far fewer
    edges because the chains of different rolls share their tails. A step with one option is
    no node at all: its edge goes straight on. Each edge is labelled with a keep code (the
    counts it keeps, face j in base-(dice + 1) digit j), so a best keep can be read back."""

    rules: Rules
    graph: TurnGraph
    root: int
    codec: StateCodec
    layers: dict[int, Layer] = field(default_factory=dict)  # dice rolled -> layer
    chance: dict[int, int] = field(default_factory=dict)  # state key -> chance node
    decide: dict[int, int] = field(default_factory=dict)  # state key -> stop/roll node

    @cached_property
    def rolls(self) -> dict[int, np.ndarray]:
        """Dice rolled -> every roll, as counts over the faces: made when a table, a policy or a
        cost asks (a cached turn read for one answer does without)."""
        return rolls_of(self.rules)

    @property
    def states(self) -> list[TurnState]:
        """Every reachable state before a roll, sorted."""
        return [self.codec.decode(k) for k in sorted(self.chance)]

    def node_after(self, state: TurnState) -> int:
        """The node valuing the state after keeping: a result leaf or the stop/roll choice."""
        score = self.rules.scoring(state)
        if score is not None:
            return score
        node = self.decide.get(self.key(state))
        if node is None:
            raise InputError(f"no turn reaches this position ({state})")
        return node

    def best_keep(self, node: int, code: int, chosen) -> tuple[tuple[int, ...], int]:
        """Follow a keep decision's chain of choices from `node` (`chosen(node)` gives the
        child index; `code`, the counts already forced on the way in): the counts kept over
        the die's faces, and the node the keep leads to."""
        keeps = self.graph.choice_options(labelled=True)  # edges labelled with keep codes
        while (first := int(keeps.start[node])) >= 0:
            edge = first + chosen(node)
            code += int(keeps.label[edge])
            node = int(keeps.child[edge])
        keep = [0] * len(self.rules.die.faces)
        for face in self.rules.keepable_faces:
            code, keep[face] = divmod(code, self.rules.dice + 1)
        return tuple(keep), node


@dataclass
class _Plan:
    """A layer's keep decisions before they become graph nodes: per level of the chain, the
    distinct decision rows and their edges (parent row, count kept, child row or after-state)."""

    keys: np.ndarray
    intervenes: np.ndarray  # (states, rolls)
    first: np.ndarray  # per non-intervening (state, roll), in order: its row in level 0
    levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]]  # (parent, kept, child) per level
    after: np.ndarray  # rows of state fields after keeping, the last level's children


def _plan_layer(rules: Rules, n: int, keys: np.ndarray, rolls: np.ndarray,
                codec: StateCodec) -> _Plan:
    """Rules 3 and 4 for every roll of n dice from every state of the layer, as chains."""
    aside = rules.set_aside(codec.decode_all(keys)[:, None, :], rolls[None, :, :])
    intervenes = doctor_intervenes(aside[..., DOCTORS])
    s, o = np.nonzero(~intervenes)
    faces = list(rules.keepable_faces)
    # a decision row: the state's fields so far, then the counts of the faces still to decide
    rows, first = _unique_rows(np.column_stack([aside[s, o], rolls[o][:, faces]]))
    state, this, later = slice(0, len(FIELDS)), len(FIELDS), slice(len(FIELDS) + 1, None)
    levels = []
    after = np.empty((0, len(FIELDS)), dtype=np.int64)
    for j, one in enumerate(np.eye(len(faces), dtype=np.int64)):
        counts = rows[:, this]  # this face's count; later faces follow it
        parent = np.repeat(np.arange(len(rows)), counts + 1)
        kept = np.arange(len(parent)) - np.repeat(np.cumsum(counts + 1) - (counts + 1),
                                                  counts + 1)
        child = rows[parent]
        child[:, state] = rules.keep(child[:, state], kept[:, None] * one)
        # a keep of nothing is never completed: rule 4, unless a later face may yet be kept
        legal = enough_kept(n - child[:, TO_ROLL]) | (child[:, later].sum(axis=1) > 0)
        parent, kept, child = parent[legal], kept[legal], child[legal]
        if j + 1 < len(faces):
            rows, index = _unique_rows(np.column_stack([child[:, state], child[:, later]]))
        else:
            after, index = _unique_rows(child[:, state])
        levels.append((parent, kept, index))
    return _Plan(keys, intervenes, first, levels, after)


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows (of non-negative integers) in sorted order, and each input row's index
    among them. Rows are packed into one integer each when that fits, which is much faster."""
    if not len(rows):
        return rows, np.empty(0, dtype=np.int64)
    radix = rows.max(axis=0) + 1
    if np.sum(np.log2(radix.astype(np.float64))) > 62:
        unique, inverse = np.unique(rows, axis=0, return_inverse=True)
        return unique, inverse.reshape(-1)
    key = np.zeros(len(rows), dtype=np.int64)
    for column, base in zip(rows.T, radix.tolist()):
        key = key * base + column
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return rows[first], inverse.reshape(-1)


def compile_turn(rules: Rules, use_cache: bool = True, force: bool = False) -> CompiledTurn:
    """The turn graph of these rules: from the disk cache when it was built before by this
    very code (the key holds a hash of the modules that build it), or from the package's
    shipped graph of the default rules built by it (shippedturn.py), else built and stored (and
    kept in memory where the process asked `cache.remember`). A build estimated past the
    budget is refused unless `force` (past the memory limit, always)."""
    from solver import cache
    from solver.games.dalek.cost import check_build

    if not use_cache:
        check_build(rules, force)
        return build_turn(rules)
    key = turn_key(rules)

    def read_or_build() -> CompiledTurn:
        stored = cache.load(key)
        if stored is None:  # the default rules' graph ships with the package
            from solver.games.dalek import shippedturn

            stored = shippedturn.read(key)
        if stored is not None:
            return _from_arrays(rules, stored)
        check_build(rules, force)
        turn = build_turn(rules)
        arrays = turn_arrays(turn)
        if arrays is not None:
            cache.store(key, arrays, compress=False)
        return turn

    return cache.in_memory(key, read_or_build)


def turn_key(rules: Rules) -> dict:
    """The cache key of the turn graph of these rules: the rules and a hash of the source that
    builds turn graphs (a cached graph never outlives a change)."""
    from solver import cache

    return {"game": "dalek_turn", "faces": list(rules.die.faces),
            "weights": list(rules.die.weights), "dice": rules.dice, "tie_rule": rules.tie_rule,
            "code": cache.code_hash(__name__)}


def turn_arrays(turn: CompiledTurn) -> dict[str, np.ndarray] | None:
    graph = turn.graph.to_arrays()
    if graph is None:
        return None
    arrays = {f"graph_{k}": v for k, v in graph.items()}
    arrays["root"] = np.array(turn.root)
    for name, table in (("chance", turn.chance), ("decide", turn.decide)):
        arrays[f"{name}_keys"] = np.array(list(table), dtype=np.int64)
        arrays[f"{name}_nodes"] = np.array(list(table.values()), dtype=np.int64)
    for n, layer in turn.layers.items():
        arrays[f"layer_{n}_keys"], arrays[f"layer_{n}_choice"] = layer.keys, layer.choice
        arrays[f"layer_{n}_code"] = layer.code
    return arrays


def _from_arrays(rules: Rules, arrays: dict[str, np.ndarray]) -> CompiledTurn:
    graph = TurnGraph.from_arrays({k[6:]: v for k, v in arrays.items() if k.startswith("graph_")})
    turn = CompiledTurn(rules, graph, int(arrays["root"]), StateCodec.for_rules(rules))
    for name in ("chance", "decide"):
        getattr(turn, name).update(zip(arrays[f"{name}_keys"].tolist(),
                                       arrays[f"{name}_nodes"].tolist()))
    for key, value in arrays.items():
        part = key.split("_")
        if part[0] == "layer" and part[2] == "keys":
            n = int(part[1])
            turn.layers[n] = Layer(value, arrays[f"layer_{n}_choice"], arrays[f"layer_{n}_code"])
    return turn


def build_turn(rules: Rules) -> CompiledTurn:
    """Enumerate the reachable states from the start of a turn and build the graph."""
    codec = StateCodec.for_rules(rules)
    start_key = int(codec.encode(np.array([rules.start().fields]))[0])
    pending: dict[int, set[int]] = {n: set() for n in range(rules.dice + 1)}
    pending[rules.dice].add(start_key)
    rolls = rolls_of(rules)
    plans: dict[int, _Plan] = {}
    scores: dict[int, int] = {}  # state after keeping -> its score, NOT_OVER if the turn goes on
    for n in range(rules.dice, 0, -1):  # discovery: each roll keeps a die, so n only falls
        keys = np.array(sorted(pending[n]), dtype=np.int64)
        if not len(keys):
            continue
        plan = _plan_layer(rules, n, keys, rolls[n], codec)
        for after_key, score, to_roll in zip(codec.encode(plan.after).tolist(),
                                             rules.end_score(plan.after).tolist(),
                                             plan.after[:, TO_ROLL].tolist()):
            if after_key not in scores:
                scores[after_key] = score
                if score == NOT_OVER:
                    pending[to_roll].add(after_key)
        plans[n] = plan
    going = codec.decode_all(np.array([k for k, s in scores.items() if s == NOT_OVER]))
    top = max([s for s in scores.values() if s != NOT_OVER] +
              rules.stop_score(going[:, HUMANS], going[:, DALEKS]).tolist() + [0])
    turn = CompiledTurn(rules, TurnGraph(top + 1), -1, codec)
    for n in sorted(plans):  # building: fewer dice first, children before parents
        _build_layer(turn, n, plans[n], scores, start_key)
    turn.root = turn.chance[start_key]
    return turn


def _build_layer(turn: CompiledTurn, n: int, plan: _Plan, scores: dict[int, int],
                 start_key: int) -> None:
    """The layer's keep chains (last decision first), the states' chance nodes, then their
    stop/roll nodes (the start of the turn has none: the first roll is not a choice)."""
    graph, rules = turn.graph, turn.rules
    after_keys = turn.codec.encode(plan.after).tolist()
    below = np.array([turn.decide[a] if scores[a] == NOT_OVER else scores[a]
                      for a in after_keys], dtype=np.int64)
    below_code = np.zeros(len(below), dtype=np.int64)
    for j, (parent, kept, child) in reversed(list(enumerate(plan.levels))):
        target, code = below[child], kept * (rules.dice + 1) ** j + below_code[child]
        starts = np.flatnonzero(np.diff(parent, prepend=-1))  # edges are sorted by parent
        sizes = np.diff(np.append(starts, len(parent)))
        below, below_code = target[starts], code[starts]  # one option: go straight on
        real = sizes > 1
        if real.any():
            edges = np.repeat(real, sizes)
            ids = graph.add_choice(np.concatenate([[0], np.cumsum(sizes[real])]), target[edges],
                                   labels=code[edges])
            below[real], below_code[real] = ids, 0
    rolls = plan.intervenes.shape[1]
    choice = np.full(plan.intervenes.shape, -1, dtype=np.int64)
    forced = np.zeros(plan.intervenes.shape, dtype=np.int64)
    choice[~plan.intervenes] = below[plan.first]
    forced[~plan.intervenes] = below_code[plan.first]
    turn.layers[n] = Layer(plan.keys, choice, forced)
    dist = roll(rules.die, n)
    keys = plan.keys.tolist()
    chance_ids = graph.add_chance(np.arange(0, choice.size + 1, rolls),
                                  np.where(choice >= 0, choice, 0).ravel(),  # Doctor: score 0
                                  dist.weights * len(keys), [dist.denominator] * len(keys))
    turn.chance.update(zip(keys, chance_ids.tolist()))
    stoppable = [k for k in keys if k != start_key]
    if stoppable:
        fields = turn.codec.decode_all(np.array(stoppable))
        stop = rules.stop_score(fields[:, HUMANS], fields[:, DALEKS])
        child = np.column_stack([stop, [turn.chance[k] for k in stoppable]]).ravel()
        decide_ids = graph.add_choice(np.arange(0, 2 * len(stoppable) + 1, 2), child)
        turn.decide.update(zip(stoppable, decide_ids.tolist()))


def points_utility(turn: CompiledTurn) -> list[Fraction]:
    """Expected points: each final score is worth itself."""
    return [Fraction(s) for s in range(turn.graph.n_results)]


@dataclass(frozen=True)
class TurnOption:
    """One legal answer to a roll: the Human and Dalek dice kept, then what happens."""

    keep: tuple[int, ...]  # counts over the die's faces
    action: str  # END (the turn is over), STOP or ROLL
    node: int  # the graph node that values this option


def position_options(turn: CompiledTurn, state: TurnState, rolled: tuple[int, ...]
                     ) -> list[TurnOption]:
    """Every legal keep for a roll made from `state`, each followed by stop or roll where both
    are allowed. Empty when the third Doctor ends the turn (rule 5)."""
    rules = turn.rules
    result = []
    for keep, after, score in zip(*_keeps(rules, state, rolled)):
        if score != NOT_OVER:
            result.append(TurnOption(keep, END, score))
        else:
            result.append(TurnOption(keep, STOP, rules.stop_score(after.humans, after.daleks)))
            result.append(TurnOption(keep, ROLL, turn.chance_node(after)))
    return result


def _keeps(rules: Rules, state: TurnState, rolled: tuple[int, ...]
           ) -> tuple[list[tuple[int, ...]], list[TurnState], list[int]]:
    """Every legal keep of one roll from `state` (counts over the faces, fewer dice of the
    first faces first), the state after it and the turn's score then (or NOT_OVER). None at
    all when the third Doctor ends the turn (rule 5)."""
    _validate_roll(state, rolled)
    aside = rules.set_aside(np.array(state.fields), rolled)
    if doctor_intervenes(aside[DOCTORS]):
        return [], [], []
    faces = list(rules.keepable_faces)
    vectors = list(product(*(range(rolled[f] + 1) for f in faces)))
    kept = np.array(vectors, dtype=np.int64).reshape(len(vectors), len(faces))
    kept = kept[rules.may_keep(rolled, kept)]
    after = rules.keep(aside, kept)
    keeps = np.zeros((len(kept), len(rolled)), dtype=np.int64)
    keeps[:, faces] = kept
    return ([tuple(k) for k in keeps.tolist()], [TurnState(*a) for a in after.tolist()],
            rules.end_score(after).tolist())


def _validate_roll(state: TurnState, rolled: tuple[int, ...]) -> None:
    if sum(rolled) != state.to_roll:
        raise InputError(f"the roll shows {sum(rolled)} dice but {state.to_roll} were rolled")


def validate_position(rules: Rules, state: TurnState) -> None:
    """Refuse a position no turn can reach: too many dice, a third Doctor or Exterminate already
    kept, or kept sums that the Human and Dalek faces cannot make."""
    for name, value in (("humans", state.humans), ("daleks", state.daleks),
                        ("doctors", state.doctors), ("exterminates", state.exterminates)):
        if value < 0:
            raise InputError(f"--{name} cannot be negative ({value})")
    if state.to_roll > rules.dice:
        raise InputError(f"the roll shows {state.to_roll} dice but the game has {rules.dice}")
    if doctor_intervenes(state.doctors):
        raise InputError(f"{state.doctors} kept Doctors: the third Doctor already ended the turn")
    if exterminate(state.exterminates):
        raise InputError(f"{state.exterminates} kept Exterminates: the third one already ended "
                         f"the turn")
    valued = rules.kept_dice(state) - state.doctors - state.exterminates
    if valued < 0:
        raise InputError(f"{rules.kept_dice(state)} dice are kept (the game has {rules.dice}, "
                         f"{state.to_roll} rolled), fewer than the kept Doctors and Exterminates")
    humans = rules.kept_sums(rules.human_faces, valued)
    daleks = rules.kept_sums(rules.dalek_faces, valued)
    if not any(state.humans in humans[i] and state.daleks in daleks[valued - i]
               for i in range(valued + 1)):
        raise InputError(f"no {valued} kept Human and Dalek dice add up to {state.humans} Humans "
                         f"and {state.daleks} Daleks with faces {' '.join(rules.die.faces)} "
                         f"(the game has {rules.dice} dice and the roll shows {state.to_roll}: "
                         f"say what the others show with --humans, --daleks, --doctors and "
                         f"--exterminates)")


@dataclass
class PointsSolution:
    """The turn solved for expected points, in float64 and (optionally) exactly."""

    turn: CompiledTurn
    floats: FloatSolution
    exact: ExactSolution | None = None

    def value(self, node: int) -> float:
        return float(self.floats.values[node, 0])

    def exact_value(self, node: int) -> Fraction:
        if self.exact is None:
            raise ValueError("solved without --exact")
        return self.exact.value(node)

    def distribution(self) -> list[float]:
        """P(final score = s) for every s under the optimal policy (float)."""
        graph = self.turn.graph
        return graph.distribution(self.floats, self.turn.root)[0].tolist()


def solve_points(turn: CompiledTurn, exact: bool = False) -> PointsSolution:
    """Maximise the expected points of the turn."""
    utility = points_utility(turn)
    floats = turn.graph.solve(np.array([float(u) for u in utility]), policy=True)
    solution = PointsSolution(turn, floats)
    if exact:
        solution.exact = turn.graph.solve_exact(utility, root=turn.root)
    return solution


@dataclass
class PointsValues(StateNodes):
    """The values a best move for expected points reads, without the graph: each state's
    chance node and its points-optimal value (float, and exact when asked). Results are worth
    their score. Small enough to cache as JSON, so a cached best move starts at once."""

    rules: Rules
    codec: StateCodec
    chance: dict[int, int]
    n_results: int
    floats: dict[int, float]  # chance node -> value
    exact: dict[int, str] | None = None  # chance node -> exact value as "p/q", read when asked

    @classmethod
    def of(cls, turn: CompiledTurn, exact: bool) -> PointsValues:
        """Read off the turn: the float pass best moves always used (NumPy only, no numba) and,
        with `exact`, the exact pass."""
        utility = points_utility(turn)
        floats = turn.graph.values([float(u) for u in utility])
        nodes = list(turn.chance.values())
        solution = turn.graph.solve_exact(utility) if exact else None
        return cls(turn.rules, turn.codec, dict(turn.chance), turn.graph.n_results,
                   dict(zip(nodes, floats[nodes].tolist())),
                   None if solution is None else {n: exact_text(solution.value(n))
                                                  for n in nodes})

    def value(self, node: int) -> float:
        return float(node) if node < self.n_results else self.floats[node]

    def exact_value(self, node: int) -> Fraction:
        if self.exact is None:
            raise ValueError("read without exact values")
        return Fraction(node) if node < self.n_results else Fraction(self.exact[node])

    def to_json(self) -> dict:
        nodes = list(self.chance.values())
        return {"n_results": self.n_results, "keys": list(self.chance), "nodes": nodes,
                "floats": [self.floats[n] for n in nodes],
                "exact": None if self.exact is None else [self.exact[n] for n in nodes]}

    @classmethod
    def from_json(cls, rules: Rules, data: dict) -> PointsValues:
        nodes = data["nodes"]
        exact = None if data["exact"] is None else dict(zip(nodes, data["exact"]))
        return cls(rules, StateCodec.for_rules(rules), dict(zip(data["keys"], nodes)),
                   data["n_results"], dict(zip(nodes, data["floats"])), exact)


def place(rules: Rules, state: TurnState, rolled: tuple[int, ...], keep: tuple[int, ...]
          ) -> tuple[TurnState, int | None]:
    """Play one roll by the rules: set aside, the Doctor's check, then keep `keep` (counts over
    the faces; only Humans and Daleks). Returns the state after keeping and the turn's score if
    the turn is now over (None while the player may stop or roll)."""
    _validate_roll(state, rolled)
    aside = TurnState(*rules.set_aside(np.array(state.fields), rolled).tolist())
    if doctor_intervenes(aside.doctors):
        return TurnState(state.to_roll, state.humans, state.daleks, aside.doctors,
                         state.exterminates), 0
    if any(keep[f] for f in range(len(keep)) if f not in rules.keepable_faces):
        raise InputError("only Human and Dalek dice are kept by choice")
    for option, after, score in zip(*_keeps(rules, state, rolled)):
        if option == tuple(keep):
            return after, None if score == NOT_OVER else score
    raise InputError(f"keeping {format_faces(rules, keep)} from {format_faces(rules, rolled)} "
                     f"is not allowed (it must be in the roll, and one die must be kept)")
