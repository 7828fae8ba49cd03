"""Is the Challenge met when the player stops, using the face changes still in hand?

The question is a flow (reading 5): each die fills at most one Challenge slot, either with the
symbol it shows or through one change (a face-change icon: one die of its colour to its symbol; a
Doctor's 3 Sonic tokens: one of that Doctor's dice to any needed symbol). The network is
source -> dice (grouped by Doctor, colour and reduced face) -> [change node] -> symbol slot -> sink,
and the Challenge is met when the maximum flow fills every slot.

The solver asks this for thousands of states at once, so it uses the min-cut side: every cut is a
choice of slots cut at the sink (Z) and of change nodes cut, and costs a constant plus the number
of dice in the groups it must cut. So "max flow = slots" is a short list of linear inequalities
"these groups hold at least r dice", checked for all states with one matrix product. networkx's
max-flow on the same network gives the changes to make in one position (and checks the cuts).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

from solver.games.totd.keeps import BLANK, Group
from solver.games.totd.rules import SONIC_CHANGE, Adventure, may_spend_sonic, may_use

Face = tuple[int, int, int | None]  # (group, reduced face, its symbol): one bit of a cut


@dataclass(frozen=True)
class ChangeNode:
    """A way to rewrite dice when stopping: which groups' dice, to which needed symbols, how
    many dice at most."""

    label: str
    groups: frozenset[int]
    targets: frozenset[int]
    capacity: int


def change_networks(adventure: Adventure, groups: Sequence[Group],
                    sonic_changes: Sequence[int]) -> list[tuple[ChangeNode, ...]]:
    """The change nodes in hand, as alternatives: one network, or (with printed faces only) one
    per choice of colour for each Doctor's 3-token change. `sonic_changes[d]` is how many
    3-token changes Doctor d can still pay for."""
    needed = frozenset(s for s, n in enumerate(adventure.need) if n)
    icons = _icon_nodes(adventure, groups, needed)
    per_doctor = [_sonic_nodes(adventure, groups, needed, doctor, count, len(sonic_changes))
                  for doctor, count in enumerate(sonic_changes)]
    return [icons + tuple(n for n in choice if n)
            for choice in product(*(nodes for nodes in per_doctor if nodes))]


def _icon_nodes(adventure: Adventure, groups: Sequence[Group],
                needed: frozenset[int]) -> tuple[ChangeNode, ...]:
    """The face-change icons that can fill a slot (reading 4.4): each turns one die of its
    colour, of a Doctor who may use it, to its symbol."""
    icons = []
    for holder, tools in adventure.toolkits():
        for change in tools.changes:
            eligible = frozenset(g for g, group in enumerate(groups) if group.colour ==
                                 change.colour and may_use(holder, group.doctor))
            if eligible and change.symbol in needed:
                icons.append(ChangeNode(f"face change {change.text(adventure.game)}", eligible,
                                        frozenset({change.symbol}), 1))
    return tuple(icons)


def _sonic_nodes(adventure: Adventure, groups: Sequence[Group], needed: frozenset[int],
                 doctor: int, count: int, doctors: int) -> list[ChangeNode | None]:
    """Doctor `doctor`'s `count` 3-token changes (reading 4.2) as alternatives (empty: none in
    hand). Any symbol: one node over all the dice the tokens act on (the Doctor's own, or with
    --sonic-on either both pools: rules.may_spend_sonic). Printed faces only: a node per
    group whose die prints a needed symbol, or [None] when none does."""
    own = [g for g, group in enumerate(groups)
           if may_spend_sonic(doctor, group.doctor, adventure.sonic_on)]
    if not count or not own:
        return []
    label = f"{SONIC_CHANGE} Sonic tokens" + (f" (Doctor {doctor + 1})" if doctors > 1 else "")
    if not adventure.printed_faces:
        return [ChangeNode(label, frozenset(own), needed, count)]
    options = []
    for g in own:
        targets = adventure.change_symbols(groups[g].colour) & needed
        if targets:
            options.append(ChangeNode(label, frozenset({g}), targets, count))
    return options or [None]


def cut_constraints(groups: Sequence[Group], need: Sequence[int],
                    nodes: Sequence[ChangeNode]) -> list[tuple[tuple[np.ndarray, ...], int]]:
    """The cuts that could fall short of the Challenge: (per group, a 0/1 mask over its reduced
    faces; r) meaning "the masked dice number at least r". Dominated ones are dropped."""
    faces = [(g, f, s) for g, group in enumerate(groups) for f, s in enumerate(group.die.symbols)]
    kept = _undominated(_short_cuts(faces, need, nodes))
    masks = np.array([[b >> i & 1 for i in range(len(faces))] for b, _ in kept], dtype=np.int64)
    return [(tuple(row[[i for i, face in enumerate(faces) if face[0] == g]]
                   for g in range(len(groups))), r) for row, (_, r) in zip(masks, kept)]


def _short_cuts(faces: Sequence[Face], need: Sequence[int],
                nodes: Sequence[ChangeNode]) -> dict[int, int]:
    """Every cut that could fall short. A cut takes the slots Z at the sink, some change nodes
    and the dice it must then cut (`_blocked`); every slot is filled only if its cost is at
    least the slots, that is if the blocked dice number at least r = (slots outside Z) -
    (capacity of the nodes cut). Returned as blocked dice (a bit per group face) -> the
    largest such r, for r > 0 (the others always hold)."""
    needed = [s for s, n in enumerate(need) if n]
    found: dict[int, int] = {}
    for z_bits in range(1 << len(needed)):
        z = {s for i, s in enumerate(needed) if z_bits >> i & 1}
        base = sum(need) - sum(need[s] for s in z)
        live = [node for node in nodes if not node.targets <= z]  # nodes Z does not cut off
        for cut, kept in _two_ways(live):
            r = base - sum(n.capacity for n in cut)
            if r > 0:
                blocked = _blocked(faces, z, kept)
                found[blocked] = max(found.get(blocked, 0), r)
    return found


def _two_ways(nodes: Sequence[ChangeNode]
              ) -> Iterator[tuple[list[ChangeNode], list[ChangeNode]]]:
    """Every split of the nodes into (cut, kept)."""
    for bits in range(1 << len(nodes)):
        yield ([n for i, n in enumerate(nodes) if bits >> i & 1],
               [n for i, n in enumerate(nodes) if not bits >> i & 1])


def _blocked(faces: Sequence[Face], z: set[int], kept: Sequence[ChangeNode]) -> int:
    """The dice the cut must cut, as bits over `faces`: those a kept change node reads, and
    those showing a needed symbol whose slots are not cut at the sink."""
    open_groups = set().union(*(n.groups for n in kept))
    return sum(1 << i for i, (g, _, s) in enumerate(faces)
               if g in open_groups or (s is not BLANK and s not in z))


def _undominated(found: dict[int, int]) -> list[tuple[int, int]]:
    """The cuts no other implies: a cut with fewer blocked dice and no smaller r implies it."""
    kept: list[tuple[int, int]] = []
    for blocked, r in sorted(found.items(), key=lambda item: (item[0].bit_count(), item)):
        if not any(b & ~blocked == 0 and r2 >= r for b, r2 in kept):
            kept.append((blocked, r))
    return kept


def success_grid(counts: Sequence[np.ndarray], groups: Sequence[Group], need: Sequence[int],
                 networks: Sequence[tuple[ChangeNode, ...]]) -> np.ndarray:
    """For every combination of group states (counts[g]: states x reduced faces), whether the
    Challenge can be met by stopping there: a boolean array with one axis per group."""
    shape = tuple(len(c) for c in counts)
    met = np.zeros(shape, dtype=bool)
    dice = sum(int(c.sum(axis=1).max(initial=0)) for c in counts)
    for nodes in networks:
        cuts = cut_constraints(groups, need, nodes)
        held_by_group = []  # per group, (states x cuts) dice held, shaped to broadcast
        for g, c in enumerate(counts):
            masks = np.array([masks[g] for masks, _ in cuts], dtype=np.int16).reshape(-1, len(c[0]))
            view = [1] * len(shape) + [len(cuts)]
            view[g] = shape[g]
            held_by_group.append((c.astype(np.int16) @ masks.T).reshape(view))
        ok = np.ones(shape, dtype=bool)
        for j, (_, r) in enumerate(cuts):
            if r > dice:  # more than every die: never held
                ok[...] = False
                break
            held = sum(h[..., j] for h in held_by_group)
            ok &= held >= r
        met |= ok
    return met


@dataclass(frozen=True)
class Rewrite:
    """One change made on stopping: a die of `group` showing reduced face `face` becomes
    `symbol`, paid for by `label`."""

    group: int
    face: int
    symbol: int
    label: str


def witness(counts: Sequence[tuple[int, ...]], groups: Sequence[Group], need: Sequence[int],
            networks: Sequence[tuple[ChangeNode, ...]]) -> list[Rewrite] | None:
    """The changes that meet the Challenge from one position (counts[g] over group g's reduced
    faces), found by max-flow; None when it cannot be met."""
    import networkx as nx  # here, not at the top: only best-move needs it (0.3 s to import)

    for nodes in networks:
        graph = flow_network(counts, groups, need, nodes)
        value, flow = nx.maximum_flow(graph, "source", "sink")
        if value < sum(need):
            continue
        rewrites = []
        for j, node in enumerate(nodes):
            sources = [u for u in graph.predecessors(("in", j)) for _ in range(flow[u][("in", j)])]
            targets = [v for v in graph.successors(("out", j)) for _ in range(flow[("out", j)][v])]
            rewrites += [Rewrite(u[1], u[2], v[1], node.label) for u, v in zip(sources, targets)]
        return rewrites
    return None


def flow_network(counts: Sequence[tuple[int, ...]], groups: Sequence[Group], need: Sequence[int],
                 nodes: Sequence[ChangeNode]):
    """The network of the module docstring for one position, as a networkx DiGraph (edges
    without capacity are unbounded)."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_node("sink")
    for g, group in enumerate(groups):
        for f, symbol in enumerate(group.die.symbols):
            if not counts[g][f]:
                continue
            die = ("die", g, f)
            graph.add_edge("source", die, capacity=counts[g][f])
            if symbol is not BLANK:
                graph.add_edge(die, ("slot", symbol))
            for j, node in enumerate(nodes):
                if g in node.groups:
                    graph.add_edge(die, ("in", j))
    for j, node in enumerate(nodes):
        graph.add_edge(("in", j), ("out", j), capacity=node.capacity)
        for symbol in sorted(node.targets):
            graph.add_edge(("out", j), ("slot", symbol))
    for symbol, n in enumerate(need):
        if n:
            graph.add_edge(("slot", symbol), "sink", capacity=n)
    return graph
