"""What the Dalek Dice turn commands report, as plain data (the CLI formats it)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from solver.faces import dice_words
from solver.formatting import exact_text, exact_texts
from solver.games.dalek.rules import DOCTOR, EXTERMINATE, FIELDS, Rules, TurnState, exterminate
from solver.games.dalek.turn import (
    END,
    ROLL,
    STOP,
    CompiledTurn,
    PointsValues,
    StateNodes,
    position_options,
    solve_points,
)
from solver.games.dalek.typed import format_faces
from solver.tables import write_blocks, write_manifest, write_table

if TYPE_CHECKING:  # the race (and its engine) is imported where a race is answered
    from solver.games.dalek.race import DalekRace, Position, RaceValues


def rules_data(rules: Rules) -> dict:
    """The rules a turn's answer is for: the dice (faces and their weights), the tie rule."""
    return {"game": "dalek", "dice": rules.dice, "faces": list(rules.die.faces),
            "weights": list(rules.die.weights), "tie_rule": rules.tie_rule}


def race_data(race: DalekRace) -> dict:
    """The rules a race's answer is for: the turn's, the players, the target and what a tie
    for first is worth to each tied seat (null: 1/k among k tied seats)."""
    tie = race.tie_value
    return {**rules_data(race.turn.rules), "players": race.players, "target": race.target,
            "tie_value": None if tie is None else float(tie),
            "tie_value_exact": None if tie is None else exact_text(tie)}


def turn_summary(turn: CompiledTurn, exact: bool, distribution: bool) -> dict:
    """Expected points of a fresh turn, P(0), and optionally every score's probability."""
    solution = solve_points(turn, exact)
    floats = solution.distribution()
    summary: dict = {"rules": rules_data(turn.rules), "expected_points": solution.value(turn.root),
                     "p_zero": floats[0]}
    if exact:
        exact_dist = solution.exact.distribution
        summary["expected_points_exact"] = exact_text(solution.exact_value(turn.root))
        summary["p_zero_exact"] = exact_text(exact_dist[0])
    if distribution:
        rows = [{"score": s, "probability": p} for s, p in enumerate(floats) if p > 0]
        if exact:
            for row in rows:
                row["probability_exact"] = exact_text(exact_dist[row["score"]])
        summary["distribution"] = rows
    return summary


def best_move(turn: CompiledTurn | PointsValues, state: TurnState, rolled: tuple[int, ...],
              exact: bool) -> dict:
    """The options for a roll valued by expected points, read from the points values (cached
    ones, or read off a compiled turn)."""
    values = turn if isinstance(turn, PointsValues) else PointsValues.of(turn, exact)
    report = options_report(values, state, rolled, values.value,
                            values.exact_value if exact else None)
    return {"verdict": verdict(values.rules, state, report, race=False),
            "rules": rules_data(values.rules), "objective": "expected points", **report}


def verdict(rules: Rules, state: TurnState, report: dict, race: bool) -> str:
    """The best option as one line a player acts on: what to keep, then roll, stop or the
    turn's end, with its value (expected points, or in a race the win chance: the mover's
    win share) and the value of the other choice (stopping now, or rolling on)."""
    def value(number: float, action: str = "", bare: bool = False) -> str:
        if race:
            return f"{number:.1%}" if bare else f"win chance {number:.1%}"
        return f"{number:.2f}" + ("" if bare else " expected points" if action == "roll"
                                  else " points")

    if report["doctor_intervenes"]:
        chance = f" ({value(report['value'])})" if race else ""
        return f"The Doctor intervenes: the turn is over with 0 points{chance}."
    best = report["best"]
    aside = " and ".join({DOCTOR: "Doctor", EXTERMINATE: "Exterminate"}[f]
                         for f in report["set_aside"])
    counts = "count" if report["set_aside"][1:] else "counts"
    if best["keep"]:
        keep = f"Keep {dice_words(best['keep'])}"
    elif any(report["roll"].count(rules.die.faces[f]) for f in rules.keepable_faces):
        keep = f"Keep no Human or Dalek (the set-aside {aside} {counts})"
    else:
        keep = f"Nothing may be kept (the set-aside {aside} {counts})"
    said = value(best["value"], best["action"])
    if best["action"] == "end":
        third = exterminate(state.exterminates + report["set_aside"].count(EXTERMINATE))
        why = "the third Exterminate ends the turn" if third else "no dice left, the turn ends"
        return f"{keep}: {why} ({said})."
    other = STOP if best["action"] == ROLL else ROLL
    then = value(max(o["value"] for o in report["options"] if o["action"] == other),
                 bare=True)
    if best["action"] == ROLL:
        return f"{keep}, then roll ({said}; stopping now: {then})."
    return f"{keep} and stop ({said}; rolling on: {then})."


def best_move_for(turn: CompiledTurn, state: TurnState, rolled: tuple[int, ...],
                  utility: Sequence[float], exact_utility: Sequence[Fraction] | None = None
                  ) -> dict:
    """`options_report` under a utility of the final turn score (the win probability each
    score leads to, say), valued over the whole turn graph."""
    floats = turn.graph.values(np.asarray(utility, dtype=np.float64))
    exact = None if exact_utility is None else turn.graph.solve_exact(exact_utility)
    return options_report(turn, state, rolled, lambda node: float(floats[node]),
                          None if exact is None else exact.value)


def options_report(turn: StateNodes, state: TurnState, rolled: tuple[int, ...],
                   value: Callable[[int], float],
                   exact_value: Callable[[int], Fraction] | None = None) -> dict:
    """Every option for a roll with its value (`value` of the graph node that values it:
    expected points, or the win probability) and its regret, best first; ties keep the
    solver's canonical order. With `exact_value`, exact values decide the order."""
    rules = turn.rules
    opts = position_options(turn, state, rolled)
    doctor, exterminate = rules.set_aside_dice(rolled)
    rows = []
    for index, option in enumerate(opts):
        row = {"keep": face_list(rules, option.keep), "action": option.action,
               "value": value(option.node)}
        order = exact_value(option.node) if exact_value else row["value"]
        rows.append((-order, index, row, order))
    rows.sort(key=lambda r: r[:2])
    report: dict = {"position": {**dict(zip(FIELDS, state.fields)), "scores": None,
                                 "seat": None},
                    "roll": face_list(rules, rolled),
                    "set_aside": [DOCTOR] * int(doctor) + [EXTERMINATE] * int(exterminate),
                    "doctor_intervenes": not opts, "best": None,
                    "options": [r[2] for r in rows]}
    if not rows:  # the third Doctor: the turn scores 0 (result 0 is node 0)
        report["value"] = value(0)
        if exact_value:
            report["value_exact"] = exact_text(exact_value(0))
        return report
    report["value"] = rows[0][2]["value"]
    for _, _, row, order in rows:
        row["regret"] = report["value"] - row["value"]
        if exact_value:
            row["value_exact"] = exact_text(order)
            row["regret_exact"] = exact_text(rows[0][3] - order)
    if exact_value:
        report["value_exact"] = exact_text(rows[0][3])
    report["best"] = rows[0][2]
    return report


def face_list(rules: Rules, counts: Sequence[int]) -> list[str]:
    """Dice as a list of faces, each as often as it shows (["H4", "H4", "D3"]; [] for none)."""
    return [f for f, c in zip(rules.die.faces, counts) for _ in range(c)]


def write_turn_tables(turn: CompiledTurn, out: Path, command: str, form: str = "csv"
                      ) -> tuple[Path, dict]:
    """turn_states: value and stop-or-roll of every reachable state; turn_keeps: the best keep
    for every (state, roll). The policy is the exact one (ties go to the first option in the
    solver's canonical order); values are float64 with exact ones for the states."""
    rules, graph = turn.rules, turn.graph
    solution = solve_points(turn, exact=True)
    exact = solution.exact
    decision = {node: (STOP, ROLL)[exact.choice(graph, node)] for node in turn.decide.values()}
    columns = list(FIELDS)
    state_rows = []
    for key, node in sorted(turn.chance.items()):
        s = turn.codec.decode(key)
        decide = turn.decide.get(key)
        value = exact.value(node if decide is None else decide)
        state_rows.append((*s.fields, repr(float(value)), exact_text(value),
                           "" if decide is None else rules.stop_score(s.humans, s.daleks),
                           "roll" if decide is None else decision[decide]))
    keep_rows = []
    for n in sorted(turn.layers):
        layer, outcomes = turn.layers[n], turn.rolls[n]
        states, rolls = np.nonzero(layer.choice >= 0)
        fields = turn.codec.decode_all(layer.keys[states])
        for row, o, node, code in zip(fields.tolist(), rolls.tolist(),
                                      layer.choice[states, rolls].tolist(),
                                      layer.code[states, rolls].tolist()):
            keep, after = turn.best_keep(node, code, lambda nd: exact.choice(graph, nd))
            then = END if after < graph.n_results else decision[after]
            keep_rows.append((*row, format_faces(rules, tuple(outcomes[o])),
                              format_faces(rules, keep), then, repr(solution.value(node))))
    files = write_table(out, "turn_states",
                        [*columns, "value", "value_exact", "stop_points", "best"], state_rows,
                        form=form)
    files += write_table(out, "turn_keeps", [*columns, "roll", "keep", "then", "value"],
                         keep_rows, compress=True, form=form)
    summary = {"states": len(state_rows), "rolls": len(keep_rows),
               "expected_points": exact_text(exact.value(turn.root)),
               "expected_points_float": float(exact.value(turn.root)),
               "p_zero": exact_text(exact.distribution[0])}
    parameters = {"game": "dalek_dice", "objective": "expected points", "dice": rules.dice,
                  "faces": dict(zip(rules.die.faces, rules.die.weights)),
                  "tie_rule": rules.tie_rule}
    return write_manifest(out, files, command, parameters, summary), summary


def game_summary(values: RaceValues, position: Position | None = None) -> dict:
    """Each seat's chances under optimal play from a position (the start by default)."""
    race = values.race
    position = race.start() if position is None else position
    where = {"scores": list(position[0]), "seat": position[1] + 1,
             "start": position == race.start()}
    summary = {"rules": race_data(race), "position": where,
               "seats": exact_texts(values.chances(position)),
               "engine": values.engine, "residual": values.residual,
               "positions": len(values.index),
               "components": values.components, "iterations": values.iterations}
    if race.players >= 3:  # where pure best responses cycled and play mixes (issue 12)
        summary["mixed"] = values.mixes()
    if values.shipped is not None:
        summary["shipped"] = values.shipped
    if values.part is not None:  # the solve covered only what follows these scores
        summary["part"] = list(values.part[0])
    return summary


def paranoid(against: list[RaceValues], position: Position) -> list[dict]:
    """Each seat's paranoid value at the position: its win share when every other seat plays
    to minimise it (`against[k]` solved DalekRace(against=k)), float and exact if solved so."""
    rows = []
    for seat, values in enumerate(against):
        metric = values.race.metric.value(seat)
        entry: dict = {"seat": seat + 1, "value": float(values.values(position)[metric])}
        if values.exact is not None:
            entry["value_exact"] = values.exact[values.row(position)][metric]
        rows.append(entry)
    return exact_texts(rows)


HEAD_START_ROWS = 12  # head starts listed, the fairest first


def head_starts(values: RaceValues, listed: int = HEAD_START_ROWS) -> dict:
    """The points each seat but the last starts with (the last starts with none) that make the
    race fairest: the seats' win shares closest to equal, that is the smallest largest
    deviation of a seat's share from the seats' mean (1/N when ties are shared); then the
    smallest total head start. Every seat's head start ranges over the scores a seat can hold
    below the target (`race.held`: every score a game can give), so each start is a position
    of the solved race (scores and mover are the whole state, docs/rules.md reading 13) and is
    valued from it: no solve beyond the race's own. The `listed` fairest are returned."""
    race = values.race
    seats = range(race.players)
    scores = np.flatnonzero(race.held[:race.target]).tolist()
    found = []
    for starts in itertools.product(scores, repeat=race.players - 1):
        number = values.index.get(((*starts, 0), 0))  # one look-up: the level engine's
        if number is not None:  # index computes it; no game gives some scores to seat 1
            found.append((starts, number))
    table = values.rows(np.array([number for _, number in found], dtype=np.int64))
    rows = []
    for (starts, _), row in zip(found, table):
        shares = [float(row[race.metric.value(seat)]) for seat in seats]
        mean = sum(shares) / len(shares)
        rows.append({"head_starts": [*starts, 0], "values": shares,
                     "largest_deviation": max(abs(share - mean) for share in shares)})
    rows.sort(key=lambda r: (r["largest_deviation"], sum(r["head_starts"]), r["head_starts"]))
    return {"criterion": "the smallest largest deviation of a seat's win share from the "
                         "seats' mean, then the smallest total head start",
            "candidates": len(rows), "fairest": rows[0], "rows": rows[:listed]}


def race_best_move(values: RaceValues, position, state: TurnState, rolled: tuple[int, ...],
                   exact: bool) -> dict:
    """The options for a roll in a game position, valued by the mover's share of the win."""
    race = values.race
    report = best_move_for(race.turn, state, rolled, values.utilities(position),
                           values.exact_utilities(position) if exact else None)
    report["position"].update(scores=list(position[0]), seat=position[1] + 1)
    said = verdict(race.turn.rules, state, report, race=True)
    mix = next((m for m in values.mixes() if (tuple(m["scores"]), m["seat"] - 1) == position),
               None)
    if mix is not None:  # pure best responses cycle here: the equilibrium mixes (issue 12)
        report["mixed"] = mix["policies"]
        said += (" Optimal play here mixes turn policies (no pure one is stable): " + "; ".join(
            f"with probability {p['probability']:.6f} one that scores 0 with probability "
            f"{p['p_score_0']:.6f} ({p['expected_points']:.4f} points expected)"
            for p in mix["policies"]) + ". The options they differ on are worth the same "
            "to you here.")
    return {"verdict": said, "rules": race_data(race), "objective": "win share", **report}


def contrast(values: RaceValues, positions: list) -> np.ndarray:
    """Per position (rows): the mover's optimal value, its value if this one turn is played for
    expected points instead (then optimally again), and the optimal turn's expected points and
    P(score 0). Columns in that order."""
    turn = values.race.turn
    graph = turn.graph
    points_policy = graph.solve(np.arange(graph.n_results, dtype=np.float64),
                                policy=True).chosen[:, 0]
    scores = np.arange(graph.n_results, dtype=np.float64)
    result = np.empty((len(positions), 4))
    step = max(1, (1 << 22) // graph.size)
    for lo in range(0, len(positions), step):
        utilities = np.stack([values.utilities(p) for p in positions[lo:lo + step]])
        optimal = graph.solve(utilities, policy=True)
        dist = graph.distribution(optimal, turn.root)
        block = result[lo:lo + len(utilities)]
        block[:, 0] = optimal.values[turn.root]
        block[:, 1] = graph.evaluate(utilities, points_policy)[turn.root]
        block[:, 2] = (dist * scores).sum(axis=1)  # no BLAS: the same bits on every machine
        block[:, 3] = dist[:, 0]
    return result


def turn_table_data(turn: CompiledTurn, summary: dict) -> dict:
    """What `dalek table` wrote for the turn, as JSON output (the manifest's summary)."""
    return {"table": "turn", "rules": rules_data(turn.rules), "states": summary["states"],
            "rolls": summary["rolls"], "expected_points": summary["expected_points_float"],
            "expected_points_exact": summary["expected_points"],
            "p_zero": float(Fraction(summary["p_zero"])), "p_zero_exact": summary["p_zero"]}


def race_table_data(race: DalekRace, summary: dict) -> dict:
    """What `dalek table` wrote for a race, as JSON output (the manifest's summary)."""
    return {"table": "race", "rules": race_data(race), **summary}


def write_race_tables(values: RaceValues, out: Path, command: str, with_contrast: bool = True,
                      form: str = "csv", left_out: str | None = None) -> tuple[Path, dict]:
    """race_positions (CSV and JSON, or Parquet: `form`): for every position at the start of a
    turn, every seat's value (win share) and P(win alone) under optimal play, the mover's again
    as `value` and `p_win`, and (`with_contrast`) what playing this one turn for expected points
    instead (then optimally again) would cost: the policy difference in win probability;
    without it, `left_out` (why, and how to get it) goes in the summary as `contrast`."""
    race = values.race
    metric = race.metric
    seats = range(race.players)
    regrets: list[np.ndarray] = []  # per block, with the contrast

    def blocks():  # columns a block at a time, as the files take them: the positions of a
        # score sum (level engine, race files) or all (others); no whole table in memory
        for scores, movers, table in values.in_table_order():
            each = np.arange(len(movers))
            columns = [*scores.T, movers + 1, race.final_round(scores, movers).astype(np.int64),
                       table[each, metric.value(movers)], table[each, metric.win(movers)],
                       *(table[:, metric.value(s)] for s in seats),
                       *(table[:, metric.win(s)] for s in seats)]
            if with_contrast:
                positions = list(zip(map(tuple, scores.tolist()), movers.tolist()))
                best, points_play, expected, p_zero = contrast(values, positions).T
                regrets.append(best - points_play)
                columns += [points_play, best - points_play, expected, p_zero]
            yield columns

    header = [f"score_{s + 1}" for s in seats] + ["mover", "final_round", "value", "p_win"] + [
        f"value_{s + 1}" for s in seats] + [f"p_win_{s + 1}" for s in seats]
    if with_contrast:
        header += ["value_points_turn", "regret", "expected_points", "p_zero"]
    files = write_blocks(out, "race_positions", header, blocks(), form=form)
    summary = {"positions": len(values.index), "residual": values.residual,
               "value_first_seat": float(values.values(race.start())[metric.value(0)])}
    if left_out is not None:
        summary["contrast"] = left_out
    if with_contrast:
        regret = np.concatenate(regrets) if regrets else np.empty(0)
        summary.update(positions_where_points_play_loses=int(np.sum(regret > 1e-9)),
                       largest_regret=float(regret.max()) if len(regret) else 0.0,
                       mean_regret=float(regret.mean()) if len(regret) else 0.0)
    from solver.games.dalek.racesolve import cache_key

    parameters = {"game": "dalek_race", **{k: v for k, v in cache_key(race, values.engine)
                                          .items() if k != "game"}}
    return write_manifest(out, files, command, parameters, summary), summary
