"""Dalek Dice turn solver versus an independent brute force, exactly, on games of 1 to 4 dice.

The brute force (`BruteForce`, in dalek_bruteforce.py) is written from the rules as the
project reads them (rules 1-9 of issue 2, from the rulebook) and shares no code with the solver:
ordered rolls, keeps as subsets of dice positions, Fractions memoised on its own state tuple. The
solver side only lends `parse_rules` to build the Rules object it is handed, and is asked for its
values.

Compared: the expected points of a fresh turn, the set of reachable states, the value of every
state before a roll (and of stop-or-roll after keeping), the value of every (state, roll), the
full table of options (keep, then, exact value) of every (state, roll), and `best_move` reports.
Two solver bugs this comparison found are pinned by regression tests at the end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from dalek_bruteforce import BruteForce, State

from solver.games.dalek import report as dalek_report
from solver.games.dalek.files import parse_rules
from solver.games.dalek.rules import Rules, TurnState
from solver.games.dalek.turn import (
    CompiledTurn,
    PointsSolution,
    compile_turn,
    place,
    position_options,
    solve_points,
)
from solver.games.dalek.typed import format_faces, parse_roll


# ---- the comparisons --------------------------------------------------------------------------
def state_tuple(state: TurnState) -> State:
    return (state.to_roll, state.humans, state.daleks, state.doctors, state.exterminates)


def counts_of(rules: Rules, outcome: tuple[str, ...]) -> tuple[int, ...]:
    """An ordered roll as the solver's counts over its die's faces."""
    return tuple(outcome.count(face) for face in rules.die.faces)


DEFAULT = "H4 H2 D3 D2 DOC EXT"
DIES = {
    "default": DEFAULT,
    "heavy-human": "H4:2 H2 D3 D2 DOC EXT",  # weights: H4 twice as likely
    "odd-faces": "H3 H1 D4 D1 DOC:2 EXT",  # odd sums, a second Doctor side
    "no-doctor": "H5 H2 D3 D2 EXT:2",  # no Doctor face at all; heavy Exterminate
    "no-exterminate": "H2 D2 D1 DOC",  # no Exterminate face
}
Config = tuple[str, int, str]  # die name, dice, tie rule
CONFIGS: list[Config] = [(die, dice, tie) for die in DIES for tie in ("ge", "gt")
                         for dice in (1, 2, 3, 4) if die == "default" or dice in (1, 3, 4)]


@cache
def solved(die: str, dice: int, tie: str) -> tuple[Rules, CompiledTurn, PointsSolution, BruteForce]:
    """The solver's exact solution and a fresh brute force of one game (computed once)."""
    rules = parse_rules(DIES[die], dice=dice, tie_rule=tie)
    turn = compile_turn(rules)
    brute = BruteForce(DIES[die], tie)
    brute.start(dice)
    return rules, turn, solve_points(turn, exact=True), brute


def config_id(config: Config) -> str:
    return "{}-{}dice-{}".format(*config)


def _positions(brute: BruteForce, turn: CompiledTurn
               ) -> Iterator[tuple[TurnState, tuple[str, ...]]]:
    """Every (reachable state, multiset roll) of the game, the roll as an ordered tuple."""
    for state in turn.states:
        for outcome in brute.rolls(state.to_roll):
            yield state, outcome


def _sample(brute: BruteForce, turn: CompiledTurn, config: Config
            ) -> list[tuple[TurnState, tuple[str, ...]]]:
    """A deterministic sample of 60 positions (or all of them)."""
    positions = list(_positions(brute, turn))
    return random.Random(f"best-move {config}").sample(positions, min(60, len(positions)))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_fresh_turn_value(config: Config) -> None:
    """Expected points of a fresh turn: solver (exact) == brute force, as Fractions."""
    _, turn, solution, brute = solved(*config)
    assert solution.exact_value(turn.root) == brute.start(config[1])


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_reachable_states_and_their_values(config: Config) -> None:
    """The solver reaches exactly the states the brute force visits; every state's value before
    its roll, and its stop-or-roll value after keeping, agree exactly."""
    rules, turn, solution, brute = solved(*config)
    assert {state_tuple(s) for s in turn.states} == set(brute.values)
    start = rules.start()
    disagreements = []
    for state in turn.states:
        key = state_tuple(state)
        if solution.exact_value(turn.chance_node(state)) != brute.values[key]:
            disagreements.append((state, "before the roll"))
        if state != start and \
                solution.exact_value(turn.node_after(state)) != brute.after_value(key):
            disagreements.append((state, "stop or roll"))
    assert not disagreements, disagreements[:5]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_position_value(config: Config) -> None:
    """Every (state, roll): the solver's compiled keep decision == the brute force's best keep."""
    rules, turn, solution, brute = solved(*config)
    checked, disagreements = 0, []
    for state, outcome in _positions(brute, turn):
        layer = turn.layers[state.to_roll]
        row = int(np.searchsorted(layer.keys, turn.key(state)))
        assert layer.keys[row] == turn.key(state)
        outcomes = turn.rolls[state.to_roll]
        col = int(np.flatnonzero((outcomes == counts_of(rules, outcome)).all(axis=1))[0])
        node = int(layer.choice[row, col])
        expected = brute.position_value(state_tuple(state), outcome)
        actual = Fraction(0) if node < 0 else solution.exact_value(node)  # -1: the Doctor ended it
        if actual != expected:
            disagreements.append((state, outcome, actual, expected))
        checked += 1
    assert checked == sum(len(turn.rolls[s.to_roll]) for s in turn.states)
    assert not disagreements, disagreements[:5]


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[1] <= 3 or c[0] == "default"],
                         ids=config_id)
def test_every_option_table(config: Config) -> None:
    """Every (state, roll): the solver's legal options (keep, then) are exactly the brute
    force's, each with the same exact value."""
    rules, turn, solution, brute = solved(*config)
    disagreements = []
    for state, outcome in _positions(brute, turn):
        options = position_options(turn, state, counts_of(rules, outcome))
        table = {(format_faces(rules, o.keep), o.action): solution.exact_value(o.node)
                 for o in options}
        assert len(table) == len(options), "an option is listed twice"
        if table != brute.options(state_tuple(state), outcome):
            disagreements.append((state, outcome))
    assert not disagreements, disagreements[:5]


BEST_MOVE_CONFIGS = [c for c in CONFIGS if c[1] >= 3]


def keep_text(option: dict) -> str:
    """An option's keep (a list of faces in the JSON) as the brute force writes it."""
    return " ".join(option["keep"]) or "-"


@pytest.mark.parametrize("config", BEST_MOVE_CONFIGS, ids=config_id)
def test_best_move_exact_reports(config: Config) -> None:
    """`best_move(exact=True)` on sampled positions: its value is the brute force's, its options
    (keep, then, exact value, exact regret) are the brute force's, best first."""
    rules, turn, _, brute = solved(*config)
    for state, outcome in _sample(brute, turn, config):
        report = dalek_report.best_move(turn, state, counts_of(rules, outcome), exact=True)
        expected = brute.options(state_tuple(state), outcome)
        value = brute.position_value(state_tuple(state), outcome)
        assert report["doctor_intervenes"] == (not expected)
        got = {(keep_text(r), r["action"]): Fraction(r["value_exact"]) for r in report["options"]}
        assert got == expected, (state, outcome)
        assert Fraction(report["value_exact"]) == value
        if not expected:
            assert report["value"] == 0.0 and value == 0
            continue
        assert value == max(expected.values())
        assert [Fraction(r["value_exact"]) for r in report["options"]] == \
            sorted(expected.values(), reverse=True)
        for r in report["options"]:
            assert Fraction(r["regret_exact"]) == value - Fraction(r["value_exact"]) >= 0


@pytest.mark.parametrize("config", BEST_MOVE_CONFIGS, ids=config_id)
def test_best_move_float_reports(config: Config) -> None:
    """`best_move(exact=False)` on sampled positions: the same options as the brute force, float
    values within 1e-12 of the exact ones, an exactly optimal option first, regrets >= 0."""
    rules, turn, _, brute = solved(*config)
    for state, outcome in _sample(brute, turn, config):
        report = dalek_report.best_move(turn, state, counts_of(rules, outcome), exact=False)
        expected = brute.options(state_tuple(state), outcome)
        got = {(keep_text(r), r["action"]): r["value"] for r in report["options"]}
        assert got.keys() == expected.keys(), (state, outcome)
        for option, value in expected.items():
            assert abs(got[option] - float(value)) <= 1e-12 * max(1.0, float(value))
        if expected:
            best = report["options"][0]
            top = max(expected.values())
            assert expected[keep_text(best), best["action"]] == top
            assert abs(report["value"] - float(top)) <= 1e-12 * max(1.0, float(top))
            assert all(r["regret"] >= 0 for r in report["options"])


# ---- regression tests for the two solver bugs this comparison found ------------------------
def test_doctor_and_exterminate_in_one_roll_set_aside_two_dice() -> None:
    """Rule 3: one Doctor and one Exterminate are both set aside, so 2 dice showing DOC EXT leave
    no die: by rule 8 (0 Humans, 0 Daleks, no die left) the turn scores 5. (Found here: NumPy
    booleans added as OR set aside one die; fixed in c9a49cd.)"""
    rules = parse_rules(dice=2)
    after, score = place(rules, rules.start(), parse_roll(rules, "DOC EXT"), (0,) * 6)
    assert (after.to_roll, after.doctors, after.exterminates, score) == (0, 1, 1, 5)
    turn = compile_turn(rules)
    expected = BruteForce(DEFAULT, "ge").start(2)
    assert solve_points(turn, exact=True).exact_value(turn.root) == expected


def test_best_move_exact_with_several_options() -> None:
    """2 dice rolled D3 D2 (keep both and end, or keep one and stop or roll): exact best_move
    reports every option. (Found here: a TypeError, str - Fraction, in the regret loop.)"""
    rules = parse_rules(dice=2)
    turn = compile_turn(rules)
    report = dalek_report.best_move(turn, TurnState(2), parse_roll(rules, "D3 D2"), exact=True)
    expected = BruteForce(DEFAULT, "ge").options((2, 0, 0, 0, 0), ("D3", "D2"))
    assert len(expected) > 1
    assert {(keep_text(r), r["action"]): Fraction(r["value_exact"])
            for r in report["options"]} == expected
