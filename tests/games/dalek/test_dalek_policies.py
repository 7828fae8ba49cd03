"""Dalek Dice policies as values and their exact worth (solver/games/dalek/policies.py), policy
tables (files.py) and duels (duels.py).

- The points policy, followed by the forward pass in integers, gives exactly the solver's
  distribution of the optimal turn (the pass shares no code with the optimisation).
- "keep-daleks K" evaluated exactly agrees with an independent brute force over ordered rolls
  (dalek_bruteforce.py's rules) that applies the rule as docs/verify.md words it.
- A table written by `dalek table` reads back as the points policy; a faulty one names its line.
- A duel of fixed turns matches the rounds' recursion; playing to win beats any fixed turn.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from dalek_bruteforce import BruteForce

from solver.errors import InputError
from solver.games.dalek import arrays, duels
from solver.games.dalek import policies as dp
from solver.games.dalek import report as dalek_report

SMALL = [("H4 H2 D3 D2 DOC EXT", 3, "ge"), ("H3 H1 D4 D1 DOC:2 EXT", 3, "gt"),
         ("H4:2 H2 D3 D2 DOC EXT", 4, "ge")]



@pytest.mark.parametrize("game", [("H4 H2 D3 D2 DOC EXT", 10, "ge"),
                                  ("H4 H2 D3 D2 DOC EXT", 10, "gt"), *SMALL])
def test_points_policy_distribution_is_the_solvers(game, solve_game: Callable) -> None:
    turn, solution = solve_game(*game)
    pairs = arrays.Pairs.of(turn)
    exact = dp.distribution(dp.points_policy(pairs))
    solver = solution.exact.distribution
    assert exact == solver[:len(exact)] and not any(solver[len(exact):])


def brute_keep_daleks(faces: str, tie_rule: str, k: int) -> Callable[[int], dict[int, Fraction]]:
    """The exact score distribution of "keep-daleks K" by brute force over ordered rolls: keep
    every Dalek; take Humans one die at a time from the highest value down, each only if the
    Daleks still hold; keep one lowest Human if nothing else is kept; stop once the Humans
    reach K and the Daleks hold."""
    bf = BruteForce(faces, tie_rule)

    def choose(state, outcome):
        subsets = bf.keeps(state, outcome)
        if subsets is None:  # the third Doctor
            return None
        subsets = list(subsets)
        kinds = [bf.kind(f) for f in outcome]
        daleks = state[2] + sum(int(f[1:]) for f, c in zip(outcome, kinds) if c == "dalek")
        humans = state[1]
        wanted = [f for f, c in zip(outcome, kinds) if c == "dalek"]
        for face in sorted((f for f, c in zip(outcome, kinds) if c == "human"),
                           key=lambda f: -int(f[1:])):
            if bf.daleks_hold(humans + int(face[1:]), daleks):
                wanted.append(face)
                humans += int(face[1:])
        if not wanted and not {"doctor", "exterminate"} & set(kinds):
            wanted = [min((f for f in outcome), key=lambda f: int(f[1:]))]
        return next(after for chosen, after in subsets
                    if sorted(outcome[i] for i in chosen) == sorted(wanted))

    return lambda dice: bf.rule_distribution(choose, lambda after: after[1] >= k, dice)


@pytest.mark.parametrize("game", SMALL)
@pytest.mark.parametrize("k", [0, 4, 9])
def test_keep_daleks_matches_brute_force(game, k: int, pairs_of) -> None:
    faces, dice, tie_rule = game
    exact = dp.distribution(dp.keep_daleks(pairs_of(*game), k))
    brute = brute_keep_daleks(faces, tie_rule, k)(dice)
    assert {s: p for s, p in enumerate(exact) if p} == brute


def test_keep_daleks_moves_are_legal(pairs_of) -> None:
    """Every move the rule gives is legal, and 'then' says end exactly when the turn ends."""
    pairs = pairs_of("H4 H2 D3 D2 DOC EXT", 10, "ge")
    policy = dp.keep_daleks(pairs, 8)
    moved = pairs.choice[0] >= 0
    assert np.all(pairs.rules.may_keep(pairs.rolled[moved], policy.keep[moved].astype(np.int64)))
    fields = pairs.fields[pairs.state_of]
    _, score = arrays.Play(pairs.rules).roll(fields[moved], pairs.rolled[moved], policy.keep[moved],
                                         np.full(int(moved.sum()), arrays.ROLL_CODE))
    assert np.array_equal(score >= 0, policy.then[moved] == arrays.END_CODE)
    assert np.all(policy.then[~moved] == arrays.NONE)


def test_exported_table_reads_back_as_the_points_policy(tmp_path: Path, pairs_of) -> None:
    pairs = pairs_of("H4 H2 D3 D2 DOC EXT", 4, "ge")
    dalek_report.write_turn_tables(pairs.turn, tmp_path, "test")
    table = dp.read_table(pairs, str(tmp_path / "turn_keeps.csv.gz"))
    points = dp.points_policy(pairs)
    assert np.array_equal(table.keep, points.keep) and np.array_equal(table.then, points.then)
    assert dp.distribution(table) == dp.distribution(points)


TABLE_HEADER = "to_roll,humans,daleks,doctors,exterminates,roll,keep,then,value\n"


@pytest.mark.parametrize(("row", "message"), [
    ("3,0,0,0,0,H4 D3 X,D3,roll,0", "line 3: unknown face 'X'"),
    ("3,0,0,0,0,H4 D3 D2,D3 D3,roll,0", "line 3: this keep is not allowed"),
    ("3,0,0,0,0,H4 D3,D3,roll,0", "line 3: the roll shows 2 dice but 3 were to roll"),
    ("2,7,0,0,0,H4 D3,D3,roll,0", "line 3: no turn reaches this position"),
    ("2,-1,0,0,0,H4 D3,D3,roll,0", "line 3: no turn reaches this position"),
    ("3,0,0,0,0,H4 D3 D2,H4 D3 D2,roll,0", "line 3: 'then' must be 'end'"),
    ("3,0,0,0,0,H4 D3 D2,D3,end,0", "line 3: 'then' must be 'end'"),
    ("3,0,0,0,0,H4 D3 D2,D3,jump,0", "line 3: expected whole numbers"),
    ("3,0,0,0,0,H4 D3 DOC,DOC,roll,0", "line 3: only Human and Dalek dice"),
    ("3,0,0,0,0,H4 D3 D2,D3,roll", "line 3: 8 fields where the header has 9"),
    ("1,0,0,2,0,DOC,-,end,0", "line 3: the third Doctor ends the turn"),
    ("3,0,0,0,0,H4 D3 D2,D3,roll,0", "line 4: a second row for the same state and roll"),
])
def test_malformed_tables_name_the_line(tmp_path: Path, row: str, message: str, pairs_of) -> None:
    path = tmp_path / "policy.csv"
    path.write_text("# a comment\n" + TABLE_HEADER + row + "\n" +
                    "3,0,0,0,0,H4 D3 D2,D3,roll,0\n")
    with pytest.raises(InputError, match=message):
        dp.read_table(pairs_of("H4 H2 D3 D2 DOC EXT", 3, "ge"), str(path))


def test_a_silent_table_fails_where_play_reaches_it(tmp_path: Path, pairs_of) -> None:
    path = tmp_path / "policy.csv"
    path.write_text(TABLE_HEADER + "3,0,0,0,0,H4 D3 D2,D3,roll,0\n")
    policy = dp.read_table(pairs_of("H4 H2 D3 D2 DOC EXT", 3, "ge"), str(path))
    with pytest.raises(InputError, match="has no move for the roll"):
        dp.distribution(policy)


def test_policy_names(tmp_path: Path, pairs_of) -> None:
    """Every policy's name is its canonical spelling: parse_policy reads it back as an equal
    policy. Aliases name the same policy; unknown text is refused."""
    pairs = pairs_of("H4 H2 D3 D2 DOC EXT", 3, "ge")
    dalek_report.write_turn_tables(pairs.turn, tmp_path, "test")
    table = str(tmp_path / "turn_keeps.csv.gz")
    assert dp.parse_policy("hold 5", pairs).name == "keep-daleks 5"
    assert dp.parse_policy("optimal", pairs).name == "points"
    assert dp.parse_policy("optimal", pairs, duel=True) == dp.WIN
    assert dp.parse_policy(table, pairs).name == f"table:{table}"
    for text in ("points", "Keep-Daleks  7", "win", f"table:{table}"):
        policy = dp.parse_policy(text, pairs, duel=True)
        assert dp.parse_policy(policy.name, pairs, duel=True) == policy
    assert dp.keep_daleks(pairs, 7) != dp.keep_daleks(pairs, 8) != dp.WIN
    for bad in ("win", "keep-daleks", "sometimes"):
        with pytest.raises(InputError):
            dp.parse_policy(bad, pairs)


# ---- duels --------------------------------------------------------------------------------
def fixed_race(first: list[Fraction], second: list[Fraction], target: int
               ) -> tuple[Fraction, Fraction]:
    """P(seat 1 wins alone), P(tie) when two fixed turn distributions race to `target` (rules
    10-11), by rounds: V(a, b) sums over both seats' scores; a round where both score 0 comes
    back to (a, b), so V = (rest) / (1 - P(0) P(0)). Exact, by decreasing score sum."""
    win: dict[tuple[int, int], tuple[Fraction, Fraction]] = {}
    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(total, target - 1) + 1):
            b = total - a
            rest = [Fraction(0), Fraction(0)]
            for (x, p), (y, q) in product(enumerate(first), enumerate(second)):
                if not p * q or x == y == 0:
                    continue
                end = max(a + x, b + y) >= target
                outcome = ((a + x > b + y, a + x == b + y) if end else win[(a + x, b + y)])
                rest = [r + p * q * o for r, o in zip(rest, outcome)]
            stay = 1 - first[0] * second[0]
            win[(a, b)] = (rest[0] / stay, rest[1] / stay)
    return win[(0, 0)]


def test_fixed_duel_matches_rounds_recursion(pairs_of) -> None:
    pairs = pairs_of("H4 H2 D3 D2 DOC EXT", 3, "ge")
    policies = (dp.keep_daleks(pairs, 4), dp.points_policy(pairs))
    seats = duels.solve_duel(pairs, policies, 12, exact=True, use_cache=False).chances()
    p_win, p_tie = fixed_race(dp.distribution(policies[0]), dp.distribution(policies[1]), 12)
    assert seats[0]["p_win_exact"] == p_win and seats[0]["p_tie_exact"] == p_tie


def test_playing_to_win_beats_any_fixed_turn(pairs_of) -> None:
    """Against a fixed opponent, the win seat's value is at least that of any fixed policy in
    its place, and with both seats playing to win the duel is the plain race."""
    from solver.games.dalek.race import DalekRace
    from solver.games.dalek.racesolve import solve_race

    pairs = pairs_of("H4 H2 D3 D2 DOC EXT", 4, "ge")
    opponent = dp.keep_daleks(pairs, 6)
    best = duels.solve_duel(pairs, (dp.WIN, opponent), 20).chances()[0]["value"]
    for mine in (dp.points_policy(pairs), dp.keep_daleks(pairs, 4), dp.keep_daleks(pairs, 8)):
        assert duels.solve_duel(pairs, (mine, opponent), 20).chances()[0]["value"] <= best + 1e-12
    both = duels.solve_duel(pairs, (dp.WIN, dp.WIN), 20, use_cache=False)
    race = DalekRace(pairs.turn, 2, 20)
    plain = solve_race(race, use_cache=False)
    assert np.allclose(both.values.values(race.start()), plain.values(race.start()), atol=1e-12)
