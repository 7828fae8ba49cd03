"""The `dice-solver dalek` command line: JSON keys and values, determinism (bad input:
test_dalek_bad_input.py).

Determinism runs the real entry point (`python cli.py ...` in a subprocess, from the repository
root); the JSON checks call the click group in process (faster, same code below
`solver.cli.main`).
"""

from __future__ import annotations

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest
from dalek_bruteforce import BruteForce
from helpers import invoke, run_cli


# ---- JSON output --------------------------------------------------------------------------
def test_turn_json_keys() -> None:
    summary = invoke("dalek", "turn", "--dice", "3", "--json")
    assert {"expected_points", "p_zero"} <= summary.keys()
    assert not {"expected_points_exact", "distribution"} & summary.keys()
    assert summary["rules"] == {"game": "dalek", "dice": 3,
                                "faces": ["H4", "H2", "D3", "D2", "DOC", "EXT"],
                                "weights": [1] * 6, "tie_rule": "ge"}
    assert 0 <= summary["p_zero"] <= 1 and summary["expected_points"] > 0


def test_turn_json_exact_and_distribution_match_the_brute_force() -> None:
    """--exact and --distribution: the exact value is the brute force's; the float value, P(0)
    and the distribution agree with it; the distribution sums to 1 with the right mean."""
    faces = "H4:2 H2 D3 D2 DOC EXT"
    summary = invoke("dalek", "turn", "--dice", "3", "--faces", faces, "--tie-rule", "gt",
                     "--exact", "--distribution", "--json")
    assert {"expected_points", "p_zero", "expected_points_exact", "distribution"} <= summary.keys()
    exact = Fraction(summary["expected_points_exact"])
    assert exact == BruteForce(faces, "gt").start(3)
    assert abs(summary["expected_points"] - float(exact)) <= 1e-12 * float(exact)
    distribution = {row["score"]: row["probability"] for row in summary["distribution"]}
    assert abs(sum(distribution.values()) - 1) <= 1e-12
    assert abs(sum(s * p for s, p in distribution.items()) - float(exact)) <= 1e-12 * float(exact)
    assert distribution.get(0, 0.0) == summary["p_zero"]
    exact_rows = [Fraction(row["probability_exact"]) for row in summary["distribution"]]
    assert sum(exact_rows) == 1
    assert sum(row["score"] * p for row, p in zip(summary["distribution"], exact_rows)) == exact


def test_best_move_json_keys() -> None:
    report = invoke("dalek", "best-move", "--dice", "4", "--roll", "H4 H2 D3 DOC", "--json")
    assert {"value", "options"} <= report.keys()
    options = report["options"]
    assert len(options) > 1
    assert all({"keep", "action", "value", "regret"} <= o.keys() for o in options)
    assert {o["action"] for o in options} <= {"end", "stop", "roll"}
    assert report["value"] == options[0]["value"] == max(o["value"] for o in options)
    assert all(o["regret"] == report["value"] - o["value"] >= 0 for o in options)


def test_best_move_json_when_the_doctor_intervenes() -> None:
    report = invoke("dalek", "best-move", "--dice", "4", "--doctors", "2", "--roll", "DOC H4",
                    "--json")
    assert report["doctor_intervenes"] is True
    assert report["options"] == [] and report["value"] == 0.0


def test_best_move_json_exact() -> None:
    """--exact adds value_exact and, per option, value_exact and regret_exact ("p/q")."""
    report = invoke("dalek", "best-move", "--dice", "4", "--roll", "H4 H2 D3 DOC", "--exact",
                    "--json")
    best = Fraction(report["value_exact"])
    assert abs(report["value"] - float(best)) <= 1e-12 * float(best)
    for option in report["options"]:
        assert {"keep", "action", "value", "regret", "value_exact", "regret_exact"} <= \
            option.keys()
        assert Fraction(option["regret_exact"]) == best - Fraction(option["value_exact"]) >= 0


# ---- labels ---------------------------------------------------------------------------------
def test_headers_show_the_die_as_used() -> None:
    """A face named twice is a face of weight 2: the header says so, and the JSON's weights."""
    faces = ["--dice", "2", "--faces", "H4 H4 H2 D3 D2 DOC EXT"]
    text = run_cli("dalek", "turn", *faces)
    assert text.returncode == 0, text.stderr
    assert "(2 dice: H4 H2 D3 D2 DOC EXT, weight 2 on H4 (7 in all); tie rule ge)" in \
        text.stdout.splitlines()[0]
    rules = invoke("dalek", "turn", *faces, "--json")["rules"]
    assert (rules["faces"], rules["weights"]) == (["H4", "H2", "D3", "D2", "DOC", "EXT"],
                                                  [2, 1, 1, 1, 1, 1])


def test_race_values_are_win_shares() -> None:
    """Ties count 1/k: the race's value column is the win share, P(win alone) + P(tie) / 2."""
    text = run_cli("dalek", "game", "--dice", "2", "--target", "6")
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[1].split()[-2:] == ["win", "share"]
    for seat in invoke("dalek", "game", "--dice", "2", "--target", "6", "--json")["seats"]:
        assert abs(seat["value"] - seat["p_win"] - seat["p_tie"] / 2) <= 1e-12


# ---- determinism ------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["dalek", "turn", "--dice", "4", "--exact", "--distribution", "--json"],
    ["dalek", "best-move", "--dice", "5", "--roll", "H4 H2 D3 D2 EXT", "--tie-rule", "gt",
     "--exact"],
], ids=["turn-json", "best-move-text"])
def test_same_command_same_bytes(args: list[str], tmp_path) -> None:
    """Two runs (with different string-hash seeds, each with a cache of its own: one must not
    read what the other has just cached) print byte-identical output, but for the JSON's
    timings."""
    def run(seed: str) -> subprocess.CompletedProcess[str]:
        return run_cli(*args, seed=seed, env={"DICE_SOLVER_CACHE": str(tmp_path / seed)})

    with ThreadPoolExecutor(max_workers=2) as pool:
        first, second = pool.map(run, ["1", "2"])
    assert first.returncode == second.returncode == 0, first.stderr
    assert first.stdout and _timeless(first.stdout) == _timeless(second.stdout)


def _timeless(output: str) -> str:
    """The output, with the seconds of a JSON output's timings left out."""
    return re.sub(r'"total": [0-9.e-]+', '"total": -', output)
