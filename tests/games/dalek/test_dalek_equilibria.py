"""Three or more players (issue 12): the tie-break among a mover's equal options, and the paranoid
bound (each seat against a coalition of all the others).

Expected numbers come from independent computations here: a hand-built turn graph whose tie is
known, an explicit race with the independent turn brute force (dalek_bruteforce.py) for the
paranoid game's Bellman equations, and the zero-sum identity of two players.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from dalek_bruteforce import BruteForce
from dalek_race_bruteforce import FACES, ExplicitRace

from solver.engine import mixed
from solver.engine.levels import TurnPasses
from solver.engine.local import Choices
from solver.engine.turn import TurnGraph
from solver.errors import InputError
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace, RaceValues
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import compile_turn


@cache
def turn(dice: int):
    return compile_turn(parse_rules(dice=dice))


def solved(players: int, target: int, dice: int, exact: bool = False, **options) -> RaceValues:
    race = DalekRace(turn(dice), players, target, **options)
    return solve_race(race, exact=exact, use_cache=False)


# ---- the tie-break ------------------------------------------------------------------------------
def tied_graph() -> tuple[TurnGraph, int]:
    """Results 0, 1, 2; a choice (the root) between a sure result 1 and a coin between results
    0 and 2."""
    graph = TurnGraph(3)
    coin = graph.add_chance(np.array([0, 2]), np.array([0, 2]), [1, 1], [2])
    root = graph.add_choice(np.array([0, 2]), np.array([1, coin[0]]))
    return graph, int(root[0])


@pytest.mark.parametrize("secondary, sure", [(None, True), ([0.0, 1.0, 0.0], True),
                                             ([0.0, 0.0, 1.0], False), ([1.0, 0.0, 1.0], False),
                                             ([0.0, 0.5, 1.0], True)])
def test_ties_go_to_the_secondary_then_to_the_first(secondary, sure: bool) -> None:
    """Utilities 0, 1/2, 1 make both options worth 1/2 exactly: without a secondary utility the
    first (sure) option is played; with one, the option best for it (its expected secondary:
    sure 1 vs coin 1/2 in the second case, 0 vs 1/2, 0 vs 1; equal 1/2 vs 1/2: the first)."""
    graph, root = tied_graph()
    utilities = np.array([[0.0, 0.5, 1.0]])
    second = None if secondary is None else np.array([secondary])
    best, distributions = graph.respond(utilities, root, second)
    assert best[0] == 0.5
    expected = [0.0, 1.0, 0.0] if sure else [0.5, 0.0, 0.5]
    assert distributions()[0].tolist() == expected
    options = Choices([[(1, Fraction(1))], [(0, Fraction(1, 2)), (2, Fraction(1, 2))]], 3)
    response = options.respond(utilities, second)
    assert response.distributions()[0].tolist() == expected


def test_the_secondary_never_overrules_a_better_option() -> None:
    graph, root = tied_graph()
    _, distributions = graph.respond(np.array([[0.0, 0.5, 1.000001]]), root,
                                     np.array([[0.0, 1.0, 0.0]]))
    assert distributions()[0].tolist() == [0.5, 0.0, 0.5]


@pytest.mark.parametrize("rule, scores, mover, seat", [
    ("leader", (3, 7, 7, 1), 0, 1), ("leader", (3, 7, 7, 1), 1, 2), ("leader", (9, 7, 7, 1), 2, 0),
    ("leader", (3, 2, 7, 7), 2, 3), ("next", (0, 0, 0, 0), 3, 0), ("previous", (0, 0, 0, 0), 0, 3),
    ("next", (0, 0, 0, 0), 1, 2), ("previous", (0, 0, 0, 0), 2, 1)])
def test_the_seat_a_tie_helps(rule: str, scores, mover: int, seat: int) -> None:
    """The leader: the highest score among the other seats, the first after the mover in turn
    order on equal scores; next and previous wrap round the table."""
    race = DalekRace(turn(2), 4, 20, tie_break=rule)
    assert race.tie_metric((scores, mover)) == race.metric.value(seat)
    assert DalekRace(turn(2), 4, 20).tie_metric((scores, mover)) is None


# ---- the paranoid bound -------------------------------------------------------------------------
@pytest.mark.parametrize("players, target, dice", [(3, 5, 2), (2, 6, 2), (4, 3, 2)])
def test_paranoid_values_satisfy_the_zero_sum_bellman_equations(players: int, target: int,
                                                                dice: int) -> None:
    """In exact rationals, the seat played against gets the best turn for its share, every other
    mover the worst turn for it (the brute force's turn maximising minus that share), at every
    position the solve holds (its canonical positions; payoffs computed from true scores)."""
    race = ExplicitRace(players, target, dice)
    for seat in range(players):
        values = solved(players, target, dice, exact=True, against=seat)
        for (scores, mover), row in values.index.items():
            exact = values.exact[row]

            def worth(points: int, scores=scores, mover=mover, seat=seat, values=values
                      ) -> Fraction:
                following = race.next(scores, mover, points)
                if not isinstance(following[0], tuple):
                    return race.share(following, seat)
                return values.exact[values.row(values.race.canonical(*following))][seat]

            sign = 1 if mover == seat else -1
            best = BruteForce(FACES, "ge", lambda s, w=worth, k=sign: k * w(s)).start(dice)
            assert sign * best == exact[seat]


@pytest.mark.parametrize("players, target, dice", [(3, 9, 3), (4, 6, 3)])
def test_a_seat_is_sure_of_no_more_than_its_equilibrium_share(players: int, target: int,
                                                              dice: int) -> None:
    """The coalition can only lower a seat's share from what others playing for themselves
    give it: at every position, for every seat."""
    equilibrium = solved(players, target, dice)
    assert equilibrium.residual <= 1e-12
    for seat in range(players):
        paranoid = solved(players, target, dice, against=seat)
        assert paranoid.residual <= 1e-12
        assert paranoid.index == equilibrium.index
        gap = equilibrium.table[:, seat] - paranoid.table[:, seat]
        assert gap.min() >= -1e-12
        assert gap.max() > 1e-3  # the coalition does hurt somewhere


def test_two_players_paranoid_is_the_equilibrium() -> None:
    """Two players with a tie shared 1/2 each: zero-sum, so playing against a seat is what the
    other seat does anyway."""
    equilibrium = solved(2, 14, 4)
    for seat in range(2):
        paranoid = solved(2, 14, 4, against=seat)
        assert np.abs(paranoid.table[:, :2] - equilibrium.table[:, :2]).max() <= 1e-12


# ---- mixed play where pure best responses cycle -------------------------------------------------
class PassingGame:
    """Three seats round a table: the mover stops (payoff row `stop[i]`) or passes, which ends
    the game half the time (payoff row `end[i]`) and else hands the move to the next seat. Each
    option leaves the cycle with positive probability, so a stationary equilibrium exists (a
    stopping game); these payoffs (found by a seeded search) make pure best responses cycle."""

    metrics = 3
    stop = (("7/8", "0", "1"), ("7/8", "0", "3/4"), ("1/2", "5/8", "1/4"))
    end = (("1", "1/2", "1/8"), ("5/8", "3/4", "3/4"), ("1", "0", "1/8"))

    def __init__(self) -> None:
        from solver.engine.cyclic import Terminal

        self.options = Choices([[(0, Fraction(1))], [(1, Fraction(1, 2)), (2, Fraction(1, 2))]],
                               3)
        self.stops = [Terminal(tuple(map(Fraction, row))) for row in self.stop]
        self.ends = [Terminal(tuple(map(Fraction, row))) for row in self.end]

    def start(self) -> int:
        return 0

    def objective(self, seat: int) -> int:
        return seat

    def local(self, seat: int) -> Choices:
        return self.options

    def successors(self, seat: int) -> list:
        return [self.stops[seat], (seat + 1) % 3, self.ends[seat]]

    def progress(self, seat: int) -> int:
        return 0


def passing_values(stops: list[Fraction]) -> list[list[Fraction]]:
    """Every seat's payoff at each seat's turn when seat i stops with probability stops[i],
    in exact rationals: V_i = s_i stop_i + (1 - s_i)/2 (end_i + V_{i+1}), a cycle solved by
    unrolling it once round the table."""
    game = PassingGame
    stop = [[Fraction(x) for x in row] for row in game.stop]
    end = [[Fraction(x) for x in row] for row in game.end]
    values = []
    for first in range(3):
        # V_first = c + k V_first, round the table: c and k accumulated seat by seat
        constant, factor = [Fraction(0)] * 3, Fraction(1)
        for step in range(3):
            i = (first + step) % 3
            s = stops[i]
            constant = [c + factor * (s * stop[i][m] + (1 - s) / 2 * end[i][m])
                        for m, c in enumerate(constant)]
            factor *= (1 - stops[i]) / 2
        values.append([c / (1 - factor) for c in constant])
    return values


def test_where_pure_play_cycles_the_engine_mixes_to_an_exact_equilibrium() -> None:
    """Pure policy iteration cycles in this game; the engine plays a mixed equilibrium with a
    residual within 1e-12. Checked exactly: the weights, read as rationals, make each mixing
    seat exactly indifferent between stopping and passing, and the pure seat's choice is a best
    response (each seat's two options valued from the exact values of the next seat's turn)."""
    from solver.engine.cyclic import solve

    solution = solve(PassingGame())
    assert solution.residual <= 1e-12
    assert len(solution.mixed) == 1
    positions, mix = solution.mixed[0]
    assert positions == [0, 1, 2]
    played = mix.policies[:, 0]  # the chance of result 0: stopping
    stops = [Fraction(float(p)).limit_denominator(1000) for p in played]
    assert max(abs(float(s) - p) for s, p in zip(stops, played)) < 1e-12
    values = passing_values(stops)
    for seat in range(3):
        stop = Fraction(PassingGame.stop[seat][seat])
        passing = (Fraction(PassingGame.end[seat][seat]) + values[(seat + 1) % 3][seat]) / 2
        if 0 < stops[seat] < 1:
            assert stop == passing
        else:
            assert (stop >= passing) if stops[seat] == 1 else (passing >= stop)
        assert values[seat][seat] == max(stop, passing)
    assert sum(0 < s < 1 for s in stops) >= 1
    for seat, row in enumerate(values):
        assert np.abs(solution.values(seat) - np.array(row, dtype=float)).max() <= 1e-12


def golden_mix() -> tuple[mixed.Component, mixed.Mixed | None]:
    """The saved component of the 4-player race to 20 at (11, 0, 7, 2), and its mix."""
    saved = np.load(Path(__file__).parent / "golden" / "mix_4p_to_20_at_11_0_7_2.npz")
    component = mixed.Component(saved["inside"], saved["outside"], saved["objective"])
    turn = compile_turn(parse_rules())
    passes = TurnPasses(turn.graph, turn.root)
    return component, mixed.mix(component, saved["policies"],
                                lambda u: passes.respond(u, True), 1e-12)


def test_a_cycle_of_tiny_gains_is_settled_by_mixing() -> None:
    """The 4-player race to 20 at the scores (11, 0, 7, 2): pure best responses cycle with
    gains of 2e-10 to 5e-10, so the indifference conditions are that small over the whole
    simplex (Newton's Jacobian by steps of 1e-7 was rounding noise: no mix was found, and the
    solve stopped at 3.8e-10). The component (results leaving it valued from the solve's later
    levels) is saved in golden/; the mix must reach a residual within 1e-12 against every turn
    policy, each mixing seat indifferent among its candidates."""
    component, found = golden_mix()
    assert found is not None and found.residual <= 1e-12
    assert sum(len(w) > 1 for w in found.weights) >= 2  # the two seats whose play cycled mix
    for worth, weights in zip(mixed.worths(component, found.candidates, found.weights),
                              found.weights):
        assert np.ptp(worth[weights > 0]) <= 1e-15


MIX_DIGEST = """
import hashlib
from test_dalek_equilibria import golden_mix
found = golden_mix()[1]
print(hashlib.sha256(b"".join(w.tobytes() for w in found.weights)
                     + found.values.tobytes()).hexdigest())
"""


def openblas_core_types() -> list[str]:
    """The OpenBLAS core types this CPU can run ("" for the one OpenBLAS picks itself), or
    none where NumPy's BLAS is not OpenBLAS or the CPU is not an x86 one whose flags Linux
    lists."""
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"]
    except TypeError:  # NumPy before 1.26 only prints its configuration
        return []
    cpuinfo = Path("/proc/cpuinfo")
    if "openblas" not in blas or platform.machine() not in ("x86_64", "AMD64") \
            or not cpuinfo.exists():
        return []
    flags = set(next((line for line in cpuinfo.read_text().splitlines()
                      if line.startswith("flags")), "").split())
    needs = {"Nehalem": {"sse4_2"}, "Sandybridge": {"avx"}, "Haswell": {"avx2", "fma"},
             "SkylakeX": {"avx512f", "avx512bw", "avx512dq", "avx512vl"}}
    return [""] + [core for core, wanted in needs.items() if wanted <= flags]


def test_the_mix_is_the_same_bits_whichever_kernels_openblas_picks() -> None:
    """OpenBLAS picks its kernels by CPU, and theirs sum in different orders: with NumPy's
    solve, lstsq and @ the mix above came out three ways under five runs on an AMD EPYC (its
    own kernels, "SkylakeX"; "Nehalem"; "Sandybridge" and "Haswell"), seat 4's weight 1.8e-8
    apart, and the 3-player race to 60 moved by 2.6e-12. Each core type this CPU can run
    (OPENBLAS_CORETYPE is read when the library loads: a process each) must give the same
    weights and values to the bit."""
    cores = openblas_core_types()
    if len(cores) < 2:
        pytest.skip("needs NumPy 1.26 or later on OpenBLAS, on x86 Linux (OPENBLAS_CORETYPE)")
    # the subprocess imports this module and the package it tests, not another install's
    here = os.pathsep.join([str(Path(__file__).parent), str(Path(mixed.__file__).parents[2])])
    digests = {}
    for core in cores:
        env = {**os.environ, "OPENBLAS_CORETYPE": core, "OPENBLAS_VERBOSE": "2",
               "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
        done = subprocess.run([sys.executable, "-c", MIX_DIGEST], env=env, capture_output=True,
                              text=True, timeout=300, check=True)
        assert f"Core: {core}" in done.stdout + done.stderr or not core  # the kernels asked for
        digests[core or "own"] = done.stdout.splitlines()[-1]
    assert len(set(digests.values())) == 1, digests


def test_a_checkpoint_gives_back_the_mixes_it_was_given(tmp_path) -> None:
    """A level's mixes survive the checkpoint (plain arrays, no pickle): a resumed solve
    reports where play mixes as the uninterrupted one does."""
    from solver.checkpoint import Checkpoint
    from solver.engine.cyclic import solve

    positions, mix = solve(PassingGame()).mixed[0]
    members = np.array([2, 0, 1])  # any order: it is kept
    order = [positions.index(m) for m in members.tolist()]
    found = mixed.Mixed([mix.candidates[k] for k in order], [mix.weights[k] for k in order],
                        mix.values[order], mix.residual, mix.rounds)
    values = np.arange(9.0).reshape(3, 3)
    Checkpoint(tmp_path, {"toy": 1}).save(7, {"values": values,
                                              **mixed.pack([(members, found)])}, {})
    stored = Checkpoint(tmp_path, {"toy": 1}).load(7)
    [(back, again)] = mixed.unpack(stored, values)
    assert back.tolist() == members.tolist()
    assert all(np.array_equal(a, b) for a, b in zip(again.candidates, found.candidates))
    assert all(np.array_equal(a, b) for a, b in zip(again.weights, found.weights))
    assert np.array_equal(again.policies, found.policies)
    assert np.array_equal(again.values, values[:, members].T)
    assert (again.residual, again.rounds) == (found.residual, found.rounds)
    assert mixed.unpack({"values": values}, values) == []


def test_an_exact_solve_where_play_mixes_is_refused_in_one_line() -> None:
    from solver.engine.cyclic import solve

    with pytest.raises(InputError, match=r"pure best responses cycle at 0, where play mixes"):
        solve(PassingGame(), exact=True)
