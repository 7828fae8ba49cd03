"""What the Dalek Dice turn commands report, as plain data (the CLI formats it)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solver.cli.common import exact_text
from solver.games.dalek_dice import TurnState, format_faces
from solver.games.dalek_turn import (
    END,
    ROLL,
    STOP,
    CompiledTurn,
    position_options,
    solve_points,
)
from solver.tables import write_manifest, write_table


def turn_summary(turn: CompiledTurn, exact: bool, distribution: bool) -> dict:
    """Expected points of a fresh turn, P(0), and optionally every score's probability."""
    solution = solve_points(turn, exact)
    floats = solution.distribution()
    summary: dict = {
        "dice": turn.rules.dice,
        "faces": list(turn.rules.die.faces),
        "weights": list(turn.rules.die.weights),
        "tie_rule": turn.rules.tie_rule,
        "expected_points": solution.value(turn.root),
        "p_zero": floats[0],
    }
    if exact:
        exact_dist = solution.exact.distribution
        summary["expected_points_exact"] = exact_text(solution.exact_value(turn.root))
        summary["p_zero_exact"] = exact_text(exact_dist[0])
    if distribution:
        summary["distribution"] = {s: p for s, p in enumerate(floats) if p > 0}
        if exact:
            summary["distribution_exact"] = {s: exact_text(p) for s, p in enumerate(exact_dist)
                                             if p > 0}
    return summary


def best_move(turn: CompiledTurn, state: TurnState, rolled: tuple[int, ...], exact: bool) -> dict:
    """Every option for a roll with its expected points and regret, best first (ties keep the
    solver's canonical order)."""
    rules = turn.rules
    solution = solve_points(turn, exact)
    opts = position_options(turn, state, rolled)
    doc, ext = rules.count(rolled, "DOC"), rules.count(rolled, "EXT")
    aside = " ".join(["DOC"] * (doc > 0) + ["EXT"] * (ext > 0)) or "nothing"
    rows = []
    for index, option in enumerate(opts):
        row = {"keep": format_faces(rules, option.keep), "action": option.action,
               "value": solution.value(option.node)}
        if exact:
            row["value_exact"] = solution.exact_value(option.node)
        rows.append((index, row))
    key = (lambda r: (-r[1]["value_exact"], r[0])) if exact else (lambda r: (-r[1]["value"], r[0]))
    rows = [r for _, r in sorted(rows, key=key)]
    report: dict = {"roll": format_faces(rules, rolled), "set_aside": aside,
                    "doctor_intervenes": not opts, "options": rows}
    if rows:
        best = rows[0]
        report["value"] = best["value"]
        for row in rows:
            row["regret"] = best["value"] - row["value"]
            if exact:
                row["regret_exact"] = exact_text(best["value_exact"] - row["value_exact"])
                row["value_exact"] = exact_text(row["value_exact"])
        if exact:
            report["value_exact"] = rows[0]["value_exact"]
    else:
        report["value"] = 0.0
    return report


def write_turn_tables(turn: CompiledTurn, out: Path, command: str) -> tuple[Path, dict]:
    """turn_states: value and stop-or-roll of every reachable state; turn_keeps: the best keep
    for every (state, roll). The policy is the exact one (ties go to the first option in the
    solver's canonical order); values are float64 with exact ones for the states."""
    rules, graph = turn.rules, turn.graph
    solution = solve_points(turn, exact=True)
    exact = solution.exact
    decision = {node: (STOP, ROLL)[exact.choice(graph, node)] for node in turn.decide.values()}
    columns = ["to_roll", "humans", "daleks", "doctors", "exterminates"]
    state_rows = []
    for key, node in sorted(turn.chance.items()):
        s = turn.codec.decode(key)
        decide = turn.decide.get(key)
        value = exact.value(node if decide is None else decide)
        state_rows.append((s.to_roll, s.humans, s.daleks, s.doctors, s.exterminates,
                           repr(float(value)), exact_text(value),
                           "" if decide is None else rules.stop_score(s),
                           "roll" if decide is None else decision[decide]))
    keep_rows = []
    for n in sorted(turn.layers):
        layer, outcomes = turn.layers[n], turn.keeps[n].outcomes
        states, rolls = np.nonzero(layer.choice >= 0)
        fields = turn.codec.decode_all(layer.keys[states])
        for row, o, node in zip(fields.tolist(), rolls.tolist(),
                                layer.choice[states, rolls].tolist()):
            keep, after = turn.best_keep(node, lambda nd: exact.choice(graph, nd))
            then = END if after < graph.n_results else decision[after]
            keep_rows.append((*row, format_faces(rules, tuple(outcomes[o])),
                              format_faces(rules, keep), then, repr(solution.value(node))))
    files = write_table(out, "turn_states",
                        [*columns, "value", "value_exact", "stop_points", "best"], state_rows)
    files += write_table(out, "turn_keeps", [*columns, "roll", "keep", "then", "value"],
                         keep_rows, compress=True)
    summary = {"states": len(state_rows), "rolls": len(keep_rows),
               "expected_points": exact_text(exact.value(turn.root)),
               "expected_points_float": float(exact.value(turn.root)),
               "p_zero": exact_text(exact.distribution[0])}
    parameters = {"game": "dalek_dice", "objective": "expected points", "dice": rules.dice,
                  "faces": dict(zip(rules.die.faces, rules.die.weights)),
                  "tie_rule": rules.tie_rule}
    return write_manifest(out, files, command, parameters, summary), summary
