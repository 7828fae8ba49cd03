"""A fresh turn's answers kept on disk: what `dalek turn` reports and the points values `dalek
best-move` reads. Read back, they spare a query the turn graph (17 MB for 10 dice) and numba's
kernels (a second or more of loading in a fresh process): a cached answer takes a few reads.

Each entry is keyed by the turn graph's key (the rules and the code that builds the graph) and a
hash of the code that computes the answer from the graph, so it never outlives a change to either.
"""

from __future__ import annotations

from solver import cache
from solver.games.dalek.rules import Rules
from solver.games.dalek.turn import CompiledTurn, PointsValues, compile_turn, turn_key


def _key(rules: Rules, answer: str, **options: bool) -> dict:
    return {**turn_key(rules), "game": "dalek_answer", "answer": answer, **options,
            "answer_code": cache.code_hash(__name__)}


def _turn(rules: Rules, force: bool, exact: bool) -> CompiledTurn:
    """The compiled turn, refused first when an exact pass is asked for past the budget."""
    from solver.games.dalek.cost import check_turn

    turn = compile_turn(rules, force=force)
    if exact:
        check_turn(turn, force, exact=1)
    return turn


def turn_summary(rules: Rules, exact: bool, distribution: bool, force: bool
                 ) -> tuple[dict, bool]:
    """`report.turn_summary` of these rules, and whether it was read from the cache."""
    from solver.games.dalek import report

    key = _key(rules, "turn_summary", exact=exact, distribution=distribution)
    stored = cache.load_json(key)
    if stored is not None:
        return stored, True
    summary = report.turn_summary(_turn(rules, force, exact), exact, distribution)
    cache.store_json(key, summary)
    return summary, False


def points_values(rules: Rules, exact: bool, force: bool) -> tuple[PointsValues, bool]:
    """The points values a best move reads (exact ones too with `exact`), and whether they were
    read from the cache."""
    key = _key(rules, "points_values", exact=exact)
    stored = cache.load_json(key)
    if stored is not None:
        return PointsValues.from_json(rules, stored), True
    values = PointsValues.of(_turn(rules, force, exact), exact)
    cache.store_json(key, values.to_json())
    return values, False
