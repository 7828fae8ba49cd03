"""The `dice-solver dalek` command line: JSON keys and values, bad input, determinism.

Bad input and determinism run the real entry point (`python cli.py ...` in a subprocess, from the
repository root); the JSON checks call the click group in process (faster, same code below
`solver.cli.main`).
"""

from __future__ import annotations

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
    assert summary["dice"] == 3 and summary["tie_rule"] == "ge"
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
    distribution = {int(score): p for score, p in summary["distribution"].items()}
    assert abs(sum(distribution.values()) - 1) <= 1e-12
    assert abs(sum(s * p for s, p in distribution.items()) - float(exact)) <= 1e-12 * float(exact)
    assert distribution.get(0, 0.0) == summary["p_zero"]


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


# ---- bad input ------------------------------------------------------------------------------
BAD_JSON = '{"faces": ["H4", "H2",\n'
NO_FACES = '{"face": ["H4", "H2", "D3", "D2", "DOC", "EXT"]}'
BAD_INPUT = {  # name: (arguments, a fragment the one error line must contain)
    "unknown face on the die": (["dalek", "turn", "--dice", "2", "--faces",
                                 "H4 H2 D3 D2 DOC XYZ"], "XYZ"),
    "more dice than the game": (["dalek", "best-move", "--dice", "3", "--roll",
                                 "H4 H4 H4 H4"], "4 dice"),
    "three kept Doctors": (["dalek", "best-move", "--dice", "4", "--doctors", "3", "--roll",
                            "H4"], "Doctor"),
    "odd Human sum": (["dalek", "best-move", "--dice", "4", "--humans", "3", "--roll",
                       "H4 D3"], "3 Humans"),
    "negative Humans": (["dalek", "best-move", "--dice", "3", "--humans", "-2", "--roll",
                         "H4"], "negative"),
    "negative number of dice": (["dalek", "turn", "--dice", "-1"], "-1"),
    "die file with a JSON syntax error": (["dalek", "turn", "--dice", "2", "--die-file",
                                           "{bad_json}"], "malformed"),
    "die file without faces": (["dalek", "turn", "--dice", "2", "--die-file", "{no_faces}"],
                               "faces"),
    "unknown tie rule": (["dalek", "turn", "--dice", "2", "--tie-rule", "xx"], "xx"),
}


@pytest.fixture(scope="module")
def bad_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess]:
    """Every bad-input command, run through the real entry point (two at a time)."""
    folder = tmp_path_factory.mktemp("dies")
    files = {"bad_json": folder / "bad.json", "no_faces": folder / "no_faces.json"}
    files["bad_json"].write_text(BAD_JSON, encoding="utf-8")
    files["no_faces"].write_text(NO_FACES, encoding="utf-8")
    commands = {name: [a.format(**{k: str(v) for k, v in files.items()}) for a in args]
                for name, (args, _) in BAD_INPUT.items()}
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {name: pool.submit(run_cli, *args) for name, args in commands.items()}
        return {name: run.result() for name, run in runs.items()}


@pytest.mark.parametrize("name", sorted(BAD_INPUT))
def test_bad_input_is_one_line_and_exit_2(name: str,
                                          bad_runs: dict[str, subprocess.CompletedProcess]
                                          ) -> None:
    run = bad_runs[name]
    assert "Traceback" not in run.stderr + run.stdout
    assert run.returncode == 2, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("dice-solver: error:")
    assert BAD_INPUT[name][1] in lines[0]
    assert run.stdout == ""


# ---- determinism ------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["dalek", "turn", "--dice", "4", "--exact", "--distribution", "--json"],
    ["dalek", "best-move", "--dice", "5", "--roll", "H4 H2 D3 D2 EXT", "--tie-rule", "gt",
     "--exact"],
], ids=["turn-json", "best-move-text"])
def test_same_command_same_bytes(args: list[str]) -> None:
    """Two runs (with different string-hash seeds) print byte-identical output."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        first, second = pool.map(lambda seed: run_cli(*args, seed=seed), ["1", "2"])
    assert first.returncode == second.returncode == 0, first.stderr
    assert first.stdout and first.stdout == second.stdout
