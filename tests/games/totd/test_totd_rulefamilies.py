"""Which tool next (issue 15): the plans of a ToolRule against closed forms, optimal play
bounding every rule, the card's stated value recomputed by the exact evaluator, a seeded
simulation of the card's rule inside its interval, and the rules/card commands.

Threshold for the simulation: |z| < 3.29 (two-sided 99.9%) on a fixed seed, as in
test_totd_simulate.py."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from intervals import binomial_z
from totd_adventures import adventure

from solver.cli import cli
from solver.dice import generator
from solver.games.totd import rulecard, rulefamilies
from solver.games.totd.model import Solver
from solver.games.totd.policies import Plan, ToolRule
from solver.games.totd.simulator import totd_adventures


@pytest.fixture(scope="module")
def frontier() -> list[rulefamilies.Learned]:
    return rulefamilies.learned()[0]


def test_discarding_a_black_die_closed_form() -> None:
    # one Science from 2 Black dice: 11/36; else discard one, roll the other: 1/6; then 1 die
    # for 1 slot, no die to spare: stop
    plan = Plan(adventure("Science", "black=2"), ToolRule(discard_at=1))
    assert plan.success() == Fraction(11, 36) + Fraction(25, 36) * Fraction(1, 6)
    assert Plan(adventure("Science", "black=2")).success() == Fraction(11, 36)


def test_aimed_sonic_closed_form() -> None:
    # a Black and a Blue die (Science on 3 of the Blue's 6 sides): neither shows Science with
    # 5/6 * 1/2; Sonic then re-rolls the Blue die (aim: 1/2) or the first, Black (1/6)
    first = 1 - Fraction(5, 6) * Fraction(1, 2)
    aimed = Plan(adventure("Science", "black=1 blue=1", sonic=2), ToolRule(aim=True))
    plain = Plan(adventure("Science", "black=1 blue=1", sonic=2))
    assert aimed.success() == first + (1 - first) * Fraction(1, 2)
    assert plain.success() == first + (1 - first) * Fraction(1, 6)


RULES = [ToolRule(), ToolRule(sonic_first=True), ToolRule(keep=True), ToolRule(aim=True),
         ToolRule(discard_at=1), ToolRule(True, True, 3, True)]


@pytest.mark.parametrize("scenario", rulefamilies.SCENARIOS[:6], ids=lambda s: f"{s[0]}|{s[1]}")
def test_optimal_play_bounds_every_rule(scenario) -> None:
    a = rulefamilies.adventures()[rulefamilies.SCENARIOS.index(scenario)]
    best = Solver(a, exact=True).p_success()
    for rule in RULES:
        exact = Plan(a, rule).success()
        assert exact <= best
        assert Plan(a, rule).success(exact=False) == pytest.approx(float(exact), abs=1e-12)


def test_the_frontier_improves_and_optimal_bounds_it(frontier) -> None:
    assert frontier[0].rule == ToolRule() and frontier[0].size == 0
    values = [row.value for row in frontier]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert all(0 < row.loss == rulefamilies.optimal() - row.value for row in frontier)


def test_the_cards_value_recomputed_exactly(frontier) -> None:
    card = rulecard.card(frontier)
    best = frontier[-1]
    plans = [Plan(a, best.rule).success() for a in rulefamilies.adventures()]
    optimal = [Solver(a, exact=True).p_success() for a in rulefamilies.adventures()]
    mean, perfect = sum(plans) / len(plans), sum(optimal) / len(optimal)
    assert best.value == mean and best.loss == perfect - mean
    assert f"Loses {100 * float(perfect - mean):.1f} points" in card.cost
    assert f"{100 * float(mean):.1f}% vs {100 * float(perfect):.1f}%" in card.cost
    assert tuple(rulecard.rule_lines(best.rule)) == card.rule


def test_a_seeded_simulation_of_the_cards_rule_lands_in_its_interval(frontier) -> None:
    rule, n = frontier[-1].rule, 4000
    met = sum(int(totd_adventures(Plan(a, rule), n, generator(15 + k)).sum())
              for k, a in enumerate(rulefamilies.adventures()))
    # equal runs per Adventure: the binomial variance of the mean bounds the real one
    assert abs(binomial_z(met, n * len(rulefamilies.SCENARIOS), float(frontier[-1].value))) < 3.29


def test_rules_and_card_commands(tmp_path, frontier) -> None:
    runner = CliRunner()
    rules = runner.invoke(cli, ["totd", "rules", "--json"])
    assert rules.exit_code == 0, rules.output
    report = json.loads(rules.stdout)
    assert [Fraction(r["p_success_exact"]) for r in report["frontier"]] == \
        [r.value for r in frontier]
    assert report["timings"]["cached"] is True  # the fixture searched already
    card = runner.invoke(cli, ["totd", "card", "--out", str(tmp_path / "card.png"), "--json"])
    assert card.exit_code == 0, card.output
    assert (tmp_path / "card.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = runner.invoke(cli, ["totd", "card", "--out", str(tmp_path / "card.svg")])
    assert bad.exit_code != 0 and not (tmp_path / "card.svg").exists()
