"""The Dalek Dice turn as a compiled expectimax graph, valued by any utility of the final score.

Every reachable state before a roll is a chance node over the roll's outcomes (multisets, exact
multinomial weights). After the mandatory set-asides, each legal keep leads to the state after
keeping: an end of turn (a result leaf worth its score) or a choice between stopping (a leaf) and
rolling the dice left (the chance node of that state). The enumeration of keeps is vectorised per
number of dice rolled; the rules themselves come from `dalek_dice`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from solver.dice import roll
from solver.engine.turn import ExactSolution, FloatSolution, TurnGraph
from solver.errors import InputError
from solver.games.dalek.rules import (
    DOCTOR,
    EXTERMINATE,
    THIRD,
    Rules,
    TurnState,
    doctor_intervenes,
    enough_kept,
    format_faces,
    set_aside,
)

END, STOP, ROLL = "end", "stop", "roll"  # what follows a keep


@dataclass(frozen=True)
class Keeps:
    """Rolls of n dice and every sub-multiset of their Human and Dalek dice (pairs o, k)."""

    outcomes: np.ndarray  # (K, faces) counts
    vectors: np.ndarray  # (M, keepable faces) counts kept
    outcome: np.ndarray  # pair -> outcome row
    keep: np.ndarray  # pair -> keep vector row


def keeps_for(rules: Rules, outcomes: np.ndarray, n: int) -> Keeps:
    """All (roll, keep) pairs where the keep takes no more of a face than the roll shows."""
    keepable = np.array(rules.keepable_faces, dtype=np.int64)
    q = len(keepable)
    grids = np.indices((n + 1,) * q).reshape(q, -1).T if q else np.zeros((1, 0), np.int64)
    vectors = grids[grids.sum(axis=1) <= n]
    fits = np.all(vectors[None, :, :] <= outcomes[:, None, keepable], axis=2)
    o, k = np.nonzero(fits)
    return Keeps(outcomes, vectors, o, k)


@dataclass
class Options:
    """The legal keeps after every roll of n dice from each of several states, and where each
    leads. Options are ordered by state, then roll, then keep."""

    intervenes: np.ndarray  # (states, rolls): the third Doctor ended the turn (rule 5)
    state: np.ndarray  # per option: its state row
    outcome: np.ndarray  # per option: its roll row
    keep: np.ndarray  # per option: its keep vector row
    after: np.ndarray  # per option: (to_roll, humans, daleks, doctors, exterminates) after keeping


def options(rules: Rules, states: np.ndarray, keeps: Keeps) -> Options:
    """Rules 3 and 4 applied to every roll of `keeps` from every state (rows of
    to_roll, humans, daleks, doctors, exterminates) at once."""
    rolled = keeps.outcomes
    doc = _column(rules, rolled, DOCTOR)[None, :]
    ext = _column(rules, rolled, EXTERMINATE)[None, :]
    doctors, exterminates, aside = set_aside(states[:, 3:4], states[:, 4:5], doc, ext)
    intervenes = doctor_intervenes(doctors)
    kept = keeps.vectors.sum(axis=1)
    legal = (~intervenes[:, keeps.outcome]
             & enough_kept(kept[keeps.keep] + aside[0, keeps.outcome])[None, :])
    s, pair = np.nonzero(legal)
    o, k = keeps.outcome[pair], keeps.keep[pair]
    values = np.array([rules.value(f) for f in rules.keepable_faces], dtype=np.int64)
    humans_mask = np.array([f in rules.human_faces for f in rules.keepable_faces], dtype=bool)
    humans = keeps.vectors @ (values * humans_mask)  # rule 2: kept values add up
    daleks = keeps.vectors @ (values * ~humans_mask)
    after = np.empty((len(s), 5), dtype=np.int64)
    after[:, 0] = states[s, 0] - aside[0, o] - kept[k]
    after[:, 1] = states[s, 1] + humans[k]
    after[:, 2] = states[s, 2] + daleks[k]
    after[:, 3] = doctors[s, o]
    after[:, 4] = exterminates[s, o]
    return Options(intervenes, s, o, k, after)


def _column(rules: Rules, rolled: np.ndarray, face: str) -> np.ndarray:
    if face in rules.die.faces:
        return rolled[:, rules.die.faces.index(face)]
    return np.zeros(len(rolled), dtype=np.int64)


@dataclass
class StateCodec:
    """Turn states as sortable int64 keys (lexicographic in the state's fields)."""

    radix: tuple[int, ...]

    @classmethod
    def for_rules(cls, rules: Rules) -> StateCodec:
        top_h = max((rules.value(f) for f in rules.human_faces), default=0) * rules.dice
        top_d = max((rules.value(f) for f in rules.dalek_faces), default=0) * rules.dice
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


@dataclass
class CompiledTurn:
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
    keeps: dict[int, Keeps]  # dice rolled -> rolls (and keep vectors, for single positions)
    layers: dict[int, Layer] = field(default_factory=dict)  # dice rolled -> layer
    chance: dict[int, int] = field(default_factory=dict)  # state key -> chance node
    decide: dict[int, int] = field(default_factory=dict)  # state key -> stop/roll node
    labels: dict[int, np.ndarray] = field(default_factory=dict)  # block -> keep code per edge

    def key(self, state: TurnState) -> int:
        return int(self.codec.encode(np.array([_fields(state)]))[0])

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

    def chance_node(self, state: TurnState) -> int:
        node = self.chance.get(self.key(state))
        if node is None:
            raise InputError(f"no turn reaches this position ({state})")
        return node

    def best_keep(self, node: int, code: int, chosen) -> tuple[tuple[int, ...], int]:
        """Follow a keep decision's chain of choices from `node` (`chosen(node)` gives the
        child index; `code`, the counts already forced on the way in): the counts kept over
        the die's faces, and the node the keep leads to."""
        while (b := self.graph.block_of(node)) in self.labels:
            block = self.graph.blocks[b]
            edge = int(block.indptr[node - block.start]) + chosen(node)
            code += int(self.labels[b][edge])
            node = int(block.child[edge])
        keep = [0] * len(self.rules.die.faces)
        for face in self.rules.keepable_faces:
            code, keep[face] = divmod(code, self.rules.dice + 1)
        return tuple(keep), node


def _fields(state: TurnState) -> tuple[int, ...]:
    return (state.to_roll, state.humans, state.daleks, state.doctors, state.exterminates)


@dataclass
class _Plan:
    """A layer's keep decisions before they become graph nodes: per level of the chain, the
    distinct decision rows and their edges (parent row, count kept, child row or after-state)."""

    keys: np.ndarray
    intervenes: np.ndarray  # (states, rolls)
    first: np.ndarray  # per non-intervening (state, roll), in order: its row in level 0
    levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]]  # (parent, kept, child) per level
    after: np.ndarray  # rows of state fields after keeping, the last level's children


def _plan_layer(rules: Rules, n: int, keys: np.ndarray, outcomes: np.ndarray,
                codec: StateCodec) -> _Plan:
    """Rules 3 and 4 for every roll of n dice from every state of the layer, as chains."""
    states = codec.decode_all(keys)
    doc = _column(rules, outcomes, DOCTOR)[None, :]
    ext = _column(rules, outcomes, EXTERMINATE)[None, :]
    doctors, exterminates, aside = set_aside(states[:, 3:4], states[:, 4:5], doc, ext)
    intervenes = doctor_intervenes(doctors)
    s, o = np.nonzero(~intervenes)
    faces = rules.keepable_faces
    q = len(faces)
    # a decision row: 5 state fields so far, the counts still to decide, "must keep one yet"
    rows = np.column_stack([n - aside[0, o], states[s, 1], states[s, 2], doctors[s, o],
                            exterminates[s, o], outcomes[o][:, list(faces)],
                            ~enough_kept(aside[0, o])]).astype(np.int64)
    rows, first = _unique_rows(rows)
    levels = []
    after = np.empty((0, 5), dtype=np.int64)
    for j, face in enumerate(faces):
        counts = rows[:, 5]  # this face's count; later faces follow it
        parent = np.repeat(np.arange(len(rows)), counts + 1)
        kept = np.arange(len(parent)) - np.repeat(np.cumsum(counts + 1) - (counts + 1),
                                                  counts + 1)
        child = rows[parent].copy()
        child[:, 0] -= kept
        child[:, 1 if face in rules.human_faces else 2] += kept * rules.value(face)
        child[:, -1] &= kept == 0
        still_open = child[:, 6:-1].sum(axis=1) > 0
        legal = (child[:, -1] == 0) | still_open  # a keep of nothing is never completed
        parent, kept, child = parent[legal], kept[legal], child[legal]
        if j + 1 < q:
            child = np.column_stack([child[:, :5], child[:, 6:]])
            rows, index = _unique_rows(child)
            levels.append((parent, kept, index))
        else:
            after, index = _unique_rows(child[:, :5])
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


def compile_turn(rules: Rules, use_cache: bool = True) -> CompiledTurn:
    """The turn graph of these rules: from the disk cache when it was built before by this
    very code (the key holds a hash of the modules that build it), else built and stored."""
    from solver import cache

    key = {"game": "dalek_turn", "faces": list(rules.die.faces),
           "weights": list(rules.die.weights), "dice": rules.dice, "tie_rule": rules.tie_rule,
           "code": _code_hash()}
    stored = cache.load(key) if use_cache else None
    if stored is not None:
        return _from_arrays(rules, stored)
    turn = build_turn(rules)
    arrays = _to_arrays(turn) if use_cache else None
    if arrays is not None:
        cache.store(key, arrays, compress=False)
    return turn


def _code_hash() -> str:
    """A hash of the source that builds turn graphs: a cached graph never outlives a change."""
    from solver import cache

    return cache.code_hash("solver.dice", "solver.engine.turn", "solver.games.dalek.rules",
                           __name__)


def _to_arrays(turn: CompiledTurn) -> dict[str, np.ndarray] | None:
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
    for block, codes in turn.labels.items():
        arrays[f"labels_{block}"] = codes.astype(np.int32 if codes.max() < 2**31 else np.int64)
    return arrays


def _from_arrays(rules: Rules, arrays: dict[str, np.ndarray]) -> CompiledTurn:
    graph = TurnGraph.from_arrays({k[6:]: v for k, v in arrays.items() if k.startswith("graph_")})
    keeps = {n: keeps_for(rules, np.array(roll(rules.die, n).outcomes, dtype=np.int64), n)
             for n in range(1, rules.dice + 1)}
    turn = CompiledTurn(rules, graph, int(arrays["root"]), StateCodec.for_rules(rules), keeps)
    for name in ("chance", "decide"):
        getattr(turn, name).update(zip(arrays[f"{name}_keys"].tolist(),
                                       arrays[f"{name}_nodes"].tolist()))
    for key, value in arrays.items():
        part = key.split("_")
        if part[0] == "layer" and part[2] == "keys":
            n = int(part[1])
            turn.layers[n] = Layer(value, arrays[f"layer_{n}_choice"], arrays[f"layer_{n}_code"])
        elif part[0] == "labels":
            turn.labels[int(part[1])] = value
    return turn


def build_turn(rules: Rules) -> CompiledTurn:
    """Enumerate the reachable states from the start of a turn and build the graph."""
    codec = StateCodec.for_rules(rules)
    start_key = int(codec.encode(np.array([_fields(rules.start())]))[0])
    pending: dict[int, set[int]] = {n: set() for n in range(rules.dice + 1)}
    pending[rules.dice].add(start_key)
    keeps = {n: keeps_for(rules, np.array(roll(rules.die, n).outcomes, dtype=np.int64), n)
             for n in range(1, rules.dice + 1)}
    plans: dict[int, _Plan] = {}
    scores: dict[int, int | None] = {}  # state after keeping -> its score if the turn is over
    for n in range(rules.dice, 0, -1):  # discovery: each roll keeps a die, so n only falls
        keys = np.array(sorted(pending[n]), dtype=np.int64)
        if not len(keys):
            continue
        plan = _plan_layer(rules, n, keys, keeps[n].outcomes, codec)
        for after_key, fields in zip(codec.encode(plan.after).tolist(), plan.after.tolist()):
            if after_key not in scores:
                state = TurnState(*fields)
                scores[after_key] = rules.scoring(state)
                if scores[after_key] is None:
                    pending[state.to_roll].add(after_key)
        plans[n] = plan
    top = max([s for s in scores.values() if s is not None] +
              [rules.stop_score(codec.decode(k)) for k, s in scores.items() if s is None] + [0])
    turn = CompiledTurn(rules, TurnGraph(top + 1), -1, codec, keeps)
    for n in sorted(plans):  # building: fewer dice first, children before parents
        _build_layer(turn, n, plans[n], scores, start_key)
    turn.root = turn.chance[start_key]
    return turn


def _build_layer(turn: CompiledTurn, n: int, plan: _Plan, scores: dict[int, int | None],
                 start_key: int) -> None:
    """The layer's keep chains (last decision first), the states' chance nodes, then their
    stop/roll nodes (the start of the turn has none: the first roll is not a choice)."""
    graph, rules = turn.graph, turn.rules
    after_keys = turn.codec.encode(plan.after).tolist()
    below = np.array([scores[a] if scores[a] is not None else turn.decide[a]
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
            ids = graph.add_choice(np.concatenate([[0], np.cumsum(sizes[real])]), target[edges])
            turn.labels[len(graph.blocks) - 1] = code[edges]
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
        stop = [rules.stop_score(turn.codec.decode(k)) for k in stoppable]
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
    _check_roll(state, rolled)
    single = keeps_for(rules, np.array([rolled], dtype=np.int64), sum(rolled))
    opts = options(rules, np.array([_fields(state)], dtype=np.int64), single)
    result = []
    for k, after in zip(opts.keep.tolist(), opts.after.tolist()):
        keep = [0] * len(rules.die.faces)
        for face, count in zip(rules.keepable_faces, single.vectors[k].tolist()):
            keep[face] = count
        after_state = TurnState(*after)
        score = rules.scoring(after_state)
        if score is not None:
            result.append(TurnOption(tuple(keep), END, score))
        else:
            result.append(TurnOption(tuple(keep), STOP, rules.stop_score(after_state)))
            result.append(TurnOption(tuple(keep), ROLL, turn.chance_node(after_state)))
    return result


def _check_roll(state: TurnState, rolled: tuple[int, ...]) -> None:
    if sum(rolled) != state.to_roll:
        raise InputError(f"the roll shows {sum(rolled)} dice but {state.to_roll} were rolled")


def check_position(rules: Rules, state: TurnState) -> None:
    """Refuse a position no turn can reach: too many dice, a third Doctor or Exterminate already
    kept, or kept sums that the Human and Dalek faces cannot make."""
    for name, value in (("humans", state.humans), ("daleks", state.daleks),
                        ("doctors", state.doctors), ("exterminates", state.exterminates)):
        if value < 0:
            raise InputError(f"--{name} cannot be negative ({value})")
    if state.to_roll > rules.dice:
        raise InputError(f"the roll shows {state.to_roll} dice but the game has {rules.dice}")
    if state.doctors >= THIRD:
        raise InputError(f"{state.doctors} kept Doctors: the third Doctor already ended the turn")
    if state.exterminates >= THIRD:
        raise InputError(f"{state.exterminates} kept Exterminates: the third one already ended "
                         f"the turn")
    valued = rules.kept_dice(state) - state.doctors - state.exterminates
    if valued < 0:
        raise InputError(f"{rules.kept_dice(state)} dice are kept (the game has {rules.dice}, "
                         f"{state.to_roll} rolled), fewer than the kept Doctors and Exterminates")
    humans = _sums([rules.value(f) for f in rules.human_faces], valued)
    daleks = _sums([rules.value(f) for f in rules.dalek_faces], valued)
    if not any(state.humans in humans[i] and state.daleks in daleks[valued - i]
               for i in range(valued + 1)):
        raise InputError(f"no {valued} kept Human and Dalek dice add up to {state.humans} Humans "
                         f"and {state.daleks} Daleks with faces {' '.join(rules.die.faces)} "
                         f"(the game has {rules.dice} dice and the roll shows {state.to_roll}: "
                         f"say what the others show with --humans, --daleks, --doctors and "
                         f"--exterminates)")


def _sums(values: list[int], most: int) -> list[set[int]]:
    """sums[i]: every total that exactly i dice showing these values can make."""
    sums = [{0}] + [set() for _ in range(most)]
    for i in range(1, most + 1):
        sums[i] = {s + v for s in sums[i - 1] for v in values}
    return sums


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


def place(rules: Rules, state: TurnState, rolled: tuple[int, ...], keep: tuple[int, ...]
          ) -> tuple[TurnState, int | None]:
    """Play one roll by the rules: set aside, the Doctor's check, then keep `keep` (counts over
    the faces; only Humans and Daleks). Returns the state after keeping and the turn's score if
    the turn is now over (None while the player may stop or roll)."""
    _check_roll(state, rolled)
    single = keeps_for(rules, np.array([rolled], dtype=np.int64), sum(rolled))
    opts = options(rules, np.array([_fields(state)], dtype=np.int64), single)
    if opts.intervenes[0, 0]:
        doctors = state.doctors + 1
        return TurnState(state.to_roll, state.humans, state.daleks, doctors,
                         state.exterminates), 0
    wanted = [keep[f] for f in rules.keepable_faces]
    if any(keep[f] for f in range(len(keep)) if f not in rules.keepable_faces):
        raise InputError("only Human and Dalek dice are kept by choice")
    for k, after in zip(opts.keep.tolist(), opts.after.tolist()):
        if single.vectors[k].tolist() == wanted:
            after_state = TurnState(*after)
            return after_state, rules.scoring(after_state)
    raise InputError(f"keeping {format_faces(rules, keep)} from {format_faces(rules, rolled)} "
                     f"is not allowed (it must be in the roll, and one die must be kept)")
