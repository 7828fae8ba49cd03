"""Dalek Dice race rules (solver/games/dalek/racefamilies.py, `dalek rules --race`, `dalek card
--race`): a threshold that follows the scores, against the perfect player and against a seat
playing to win.

- A rule seat with one model everywhere is the fixed policy's duel.
- A rule picks its threshold by the scores as its formula says, and the final round's.
- The perfect player (the equilibrium's turns, fixed) against itself is `dalek game`.
- The race card's figures (3 dice, to 10) recomputed in exact rationals: the perfect player's
  turns from the exact equilibrium, each position's best turn found exactly; optimal play bounds
  them, and a seat that knows the rule does at least as well as the perfect player.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from helpers import invoke
from intervals import Z

from solver.dice import generator
from solver.engine.local import Choices
from solver.games.dalek import arrays, duels
from solver.games.dalek import policies as dp
from solver.games.dalek import racefamilies as rr
from solver.games.dalek import rulefamilies as rf
from solver.games.dalek.files import parse_rules
from solver.games.dalek.race import DalekRace
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import compile_turn


@cache
def pairs_of(dice: int) -> arrays.Pairs:
    return arrays.Pairs.of(compile_turn(parse_rules(dice=dice)))


def test_a_rule_seat_with_one_model_everywhere_is_the_fixed_duel() -> None:
    pairs = pairs_of(3)
    policy = dp.keep_daleks(pairs, 4)
    fixed = duels.race_local(policy)
    race = rr.RuleRace(pairs.turn, 2, 12, seat_locals={0: fixed},
                       rule_seats={0: lambda position: fixed})
    mine = solve_race(race, use_cache=False).chances(race.start())
    duel = duels.solve_duel(pairs, (policy, dp.WIN), 12).chances()
    assert [s["value"] for s in mine] == pytest.approx([s["value"] for s in duel], abs=1e-12)


def test_race_rules_pick_their_threshold_and_lose_to_optimal_play() -> None:
    pairs = pairs_of(3)
    rules = rr.RaceRules(rf.Rulebook(pairs))
    base = rf.TurnRule(4)
    rule = rr.RaceRule(base, 4, 5)  # T = 4 + (opponent - me) / 2
    choose = rules.chooser(rule, 12)
    assert choose(((3, 7), 0)) is rules.local(base, 6)  # 4 + 4 / 2
    assert choose(((7, 0), 1)) is rules.local(base, 6)  # 4 + floor(3.5) = 7, down to the grid
    assert choose(((0, 9), 1)) is rules.local(base, 0)  # 4 + floor(-4.5) = -1, up to 0
    assert choose(((13, 8), 1)) is rules.local(base, 6)  # final round: pass 13, 6 from 8
    assert choose(((0, 100), 0)) is rules.local(base, rules.most)
    race = DalekRace(pairs.turn, 2, 12)
    best = [s["value"] for s in solve_race(race, use_cache=False).chances(race.start())]
    assert rules.values((rule, None), 12)[0] <= best[0] + 1e-12
    assert rules.values((None, rule), 12)[1] <= best[1] + 1e-12
    assert sum(rules.values((rule, rule), 12)) == pytest.approx(1)


def test_the_perfect_player_against_itself_is_the_game(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path))
    pairs = pairs_of(4)
    perfect = rr.perfect_turns(pairs, 14).__getitem__
    placeholder = duels.race_local(dp.keep_daleks(pairs, 4))
    race = rr.RuleRace(pairs.turn, 2, 14, seat_locals={0: placeholder, 1: placeholder},
                       rule_seats={0: perfect, 1: perfect})
    mine = solve_race(race, use_cache=False).chances(race.start())
    game = DalekRace(pairs.turn, 2, 14)
    theirs = solve_race(game, use_cache=False).chances(game.start())
    assert [s["value"] for s in mine] == pytest.approx([s["value"] for s in theirs], abs=1e-12)


def exact_shares(pairs: arrays.Pairs, rule: rr.RaceRule, target: int) -> dict[str, Fraction]:
    """The rule's shares of the win in exact rationals: against the exact equilibrium's turns
    (each position's exactly best turn, fixed) and against a seat playing to win, each seat."""
    game = DalekRace(pairs.turn, 2, target)
    optimal = solve_race(game, exact=True, use_cache=False)
    turn, n = game.optimal_turn, game.optimal_turn.n_results

    def perfect(position):
        _, distribution = turn.best_exact(optimal.exact_utilities(position))
        return Choices([[(r, p) for r, p in enumerate(distribution) if p]], n)

    rules = rr.RaceRules(rf.Rulebook(pairs))
    shares = {"optimal_first": optimal.exact[optimal.row(game.start())][0]}
    for seat in (0, 1):
        for name, other in (("p", perfect), ("p_beaten", None)):
            seats = {seat: rules.chooser(rule, target)} | (
                {1 - seat: other} if other is not None else {})
            race = rr.RuleRace(pairs.turn, 2, target,
                               seat_locals={s: rules.local(rule.base, 0) for s in seats},
                               rule_seats=seats)
            values = solve_race(race, exact=True, use_cache=False)
            shares[f"{name}_{('first', 'second')[seat]}"] = \
                values.exact[values.row(race.start())][seat]
    return shares


def test_the_race_card_states_its_rules_exact_worth(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "card.png"
    data = invoke("dalek", "card", "--race", "--dice", "3", "--target", "10", "--out", str(out),
                  "--json")
    assert out.read_bytes().startswith(b"\x89PNG")
    numbers = dict(data["numbers"])
    a, b = numbers.pop("a"), numbers.pop("b", 0)
    rule = rr.RaceRule(rf.TurnRule(a, **numbers), a, b)
    exact = exact_shares(pairs_of(3), rule, 10)
    for key in ("p_first", "p_second", "p_beaten_first", "p_beaten_second"):
        assert data[key] == pytest.approx(float(exact[key]), abs=1e-10), key
    assert exact["p_first"] <= exact["optimal_first"]
    assert exact["p_second"] <= 1 - exact["optimal_first"]
    assert exact["p_beaten_first"] <= exact["p_first"]
    assert exact["p_beaten_second"] <= exact["p_second"]
    mean = (exact["p_first"] + exact["p_second"]) / 2
    assert f"{100 * float(mean):.1f} games in 100" in data["cost"]


def test_a_seeded_simulation_of_the_race_card_lands_in_its_interval(tmp_path, monkeypatch
                                                                    ) -> None:
    """Races played die by die (simulator.dalek_games): the card's rule in one seat, following
    docs/rules.md reading 17 as written here (not through racefamilies), against the perfect
    player's turns (simulator.RaceSeat: each position's optimal turn of `dalek game`), in each
    seat; the rule's share of the wins lands within 3.29 standard errors of the card's figure."""
    from solver.games.dalek.simulator import RaceSeat, dalek_games, dalek_turns

    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path / "cache"))
    target, pairs = 10, pairs_of(3)
    data = invoke("dalek", "card", "--race", "--dice", "3", "--target", str(target), "--out",
                  str(tmp_path / "card.png"), "--json")
    numbers = dict(data["numbers"])
    a, b = numbers.pop("a"), numbers.pop("b", 0)
    book, step, most = rf.Rulebook(pairs), 2, 3 * 4  # Humans score 4 or 2; 3 dice
    policies = {}

    def rule_turns(seat: int, rng):
        def play(scores, live):
            me, them = scores[live, seat], scores[live, 1 - seat]
            raw = a + (b * (them - me)) // 10
            stop = np.clip(raw - raw % step, 0, most)
            need = them - me + 1
            stop = np.where(them >= target, np.minimum(need + (-need) % step, most), stop)
            out = np.empty(len(live), dtype=np.int64)
            for t in np.unique(stop).tolist():
                if t not in policies:
                    policies[t] = book.policy(rf.TurnRule(t, **numbers))
                rows = np.flatnonzero(stop == t)
                out[rows] = dalek_turns(policies[t], len(rows), rng)
            return out
        return play

    values = solve_race(DalekRace(pairs.turn, 2, target))
    count = 20_000
    for seat, key in ((0, "p_first"), (1, "p_second")):
        rng = generator(11 + seat)
        seats = [rule_turns(seat, rng), RaceSeat(values, pairs, 1 - seat, rng)]
        if seat == 1:
            seats.reverse()
        _, winner, _ = dalek_games(seats, target, count)
        share = (np.count_nonzero(winner == seat) + np.count_nonzero(winner == -1) / 2) / count
        error = np.sqrt(data[key] * (1 - data[key]) / count)
        assert abs(share - data[key]) < Z * error, (key, share, data[key])
