"""`verify` (solver/stats.py, solver/samples.py, solver/verification.py): the statistics against
hand computations, the pooling rule, verdicts and exit status through the command line, and bad
sample files (one line on stderr naming the file line, exit status 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from solver.cli import cli, main
from solver.errors import InputError
from solver.samples import read_outcomes
from solver.stats import goodness_of_fit

ROOT = Path(__file__).resolve().parents[1]
EXACT = [Fraction(1, 2), Fraction(3, 10), Fraction(19, 100), Fraction(6, 1000),
         Fraction(4, 1000)]
LABELS = ["0", "1", "2", "3", "4"]


def test_pooling_and_pearson_statistic_by_hand() -> None:
    """Expected counts 500, 300, 190, 6, 4 for n = 1000: 4 is below 5 and alone still below 5,
    so it joins the smallest large bin (6): four bins, three degrees of freedom."""
    from scipy.stats import chi2

    counts = np.array([520, 290, 160, 25, 5])
    report = goodness_of_fit(LABELS, EXACT, counts)
    assert report["pooled"] == ["3", "4"] and report["bins"] == 4 and report["dof"] == 3
    observed, expected = [520, 290, 160, 30], [500, 300, 190, 10]
    pearson = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    assert report["statistic"] == pytest.approx(pearson, rel=1e-12)
    g = goodness_of_fit(LABELS, EXACT, counts, test="g")["statistic"]
    assert g == pytest.approx(2 * sum(o * np.log(o / e) for o, e in zip(observed, expected)),
                              rel=1e-12)
    assert report["p_value"] == pytest.approx(chi2.sf(pearson, 3), rel=1e-9)
    assert report["verdict"] == ("rejected" if chi2.sf(pearson, 3) < 0.001 else "consistent")
    top = report["deviations"][0]
    assert top["outcome"] == "3" and top["z"] == pytest.approx(
        (25 - 6) / np.sqrt(1000 * 0.006 * 0.994), rel=1e-12)


def test_exact_counts_are_consistent_and_the_mean_is_exact() -> None:
    counts = np.array([500, 300, 190, 6, 4])
    report = goodness_of_fit(LABELS, EXACT, counts, values=[0, 1, 2, 3, 4])
    assert report["statistic"] == pytest.approx(0.0, abs=1e-12)
    assert report["verdict"] == "consistent"
    mean = report["mean"]
    by_hand = sum(v * p for v, p in enumerate(EXACT))  # 0.3 + 0.38 + 0.018 + 0.016
    assert mean["expected_exact"] == f"{by_hand.numerator}/{by_hand.denominator}"
    assert mean["inside"] and mean["z"] == pytest.approx(0)


def test_an_outcome_the_play_never_produces_rejects() -> None:
    exact = [Fraction(1, 2), Fraction(0), Fraction(1, 2)]
    report = goodness_of_fit(["a", "b", "c"], exact, np.array([50, 1, 49]))
    assert report["verdict"] == "rejected" and report["never"] == [{"outcome": "b",
                                                                    "observed": 1}]
    assert report["deviations"][0]["z"] == np.inf


def test_too_few_samples_for_a_test() -> None:
    with pytest.raises(InputError, match="too few"):
        goodness_of_fit(LABELS, EXACT, np.array([3, 2, 1, 0, 0]))


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout


def simulate(tmp_path: Path, name: str, *args: str) -> str:
    path = tmp_path / name
    code, output = invoke("simulate", "dalek", *args, "--out", str(path))
    assert code == 0, output
    return str(path)


def test_cli_accepts_the_right_simulator_and_rejects_a_loaded_die(tmp_path: Path) -> None:
    right = simulate(tmp_path, "right.csv", "--n", "5000", "--seed", "1")
    code, output = invoke("verify", "dalek", "--samples", right, "--json")
    report = json.loads(output)
    assert code == 0 and report["verdict"] == "consistent" and report["samples"] == 5000
    # the same simulator, its Doctor face twice as likely (the first bug of the corpus)
    loaded = simulate(tmp_path, "loaded.csv", "--n", "5000", "--seed", "1", "--faces",
                      "H4 H2 D3 D2 DOC:2 EXT")
    code, output = invoke("verify", "dalek", "--samples", loaded)
    assert code == 1 and "verdict: REJECTED" in output


def test_cli_without_samples_prints_the_exact_distribution() -> None:
    code, output = invoke("verify", "dalek", "--json")
    data = json.loads(output)
    code_turn, turn = invoke("dalek", "turn", "--exact", "--json")
    assert code == code_turn == 0
    assert data["mean_exact"] == json.loads(turn)["expected_points_exact"]
    code, output = invoke("verify", "pig", "--policy", "hold 2", "--target", "10", "--json")
    assert json.loads(output)["distribution_exact"] == {"0": "1/6", "2": "1/6", "3": "1/6",
                                                        "4": "1/6", "5": "1/6", "6": "1/6"}


def test_cli_game_samples(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    code, output = invoke("simulate", "pig", "--policy", "optimal", "--duel", "hold 10",
                          "--target", "20", "--n", "4000", "--seed", "3", "--out", str(path))
    assert code == 0, output
    code, output = invoke("verify", "pig", "--policy", "optimal", "--duel", "hold 10",
                          "--target", "20", "--samples", str(path), "--exact", "--json")
    report = json.loads(output)
    assert code == 0 and report["statistics"][0]["bins"] == 2  # seat 1, seat 2 (no ties)
    code, _ = invoke("verify", "pig", "--policy", "hold 10", "--duel", "optimal",
                     "--target", "20", "--samples", str(path))
    assert code == 1  # the seats swapped: seat 1 now plays worse


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    """`solver.cli.main` in process (the entry point that turns errors into one line): its
    exit status, stdout and stderr."""
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    captured = capsys.readouterr()
    return exit_.value.code, captured.out, captured.err


@pytest.mark.parametrize(("text", "message"), [
    ("# made by hand\nscore\n12\n\n17\nseventeen\n", "line 6: score 'seventeen' cannot happen"),
    ("score\n12\n3\n", "line 3: score '3' cannot happen"),  # no turn scores 3 with these dice
    ("score\n12\n-1\n", "line 3: score '-1' cannot happen"),
    ("score,rolls\n12,3\n17\n", "line 3: 1 fields where the header has 2"),
    ("points\n12\n", "line 1: the header lacks the column(s) score"),
    ("# nothing\n", "is empty"),
    ("score\n", "has a header but no samples"),
])
def test_malformed_samples_are_one_line_naming_it(tmp_path: Path, capsys, text: str,
                                                  message: str) -> None:
    path = tmp_path / "samples.csv"
    path.write_text(text)
    code, out, err = run(capsys, "verify", "dalek", "--samples", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
    assert err.startswith(f"dice-solver: error: samples file {path}")


@pytest.mark.parametrize("args", [
    ["verify", "dalek", "--policy", "sometimes"],
    ["verify", "backgammon"],
    ["verify", "dalek", "--samples", "a.csv", "--decisions", "b.csv"],
    ["verify", "dalek", "--samples", "/nonexistent/a.csv"],
    ["verify", "pig", "--policy", "optimal"],
])
def test_bad_requests_are_one_line(capsys, args: list[str]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and err.startswith("dice-solver: error:")


def test_the_real_entry_point(tmp_path: Path) -> None:
    """`python cli.py verify ...` as a user runs it: a bad file is one line and exit 2."""
    path = tmp_path / "samples.csv"
    path.write_text("score\n12\nx\n")
    result = subprocess.run([sys.executable, "cli.py", "verify", "dalek", "--samples",
                             str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"dice-solver: error: samples file {path} line 3: score "
                                    f"'x' cannot happen in this game (possible: 0, 2, 4, ")
    assert result.stderr.count("\n") == 1


def test_extra_columns_and_spaces_are_read(tmp_path: Path) -> None:
    path = tmp_path / "samples.csv"
    path.write_text("turn, score\n1, 12\n2,17 \n")
    assert read_outcomes(str(path), "score", ["0", "12", "17"]).tolist() == [1, 2]
    path.write_text('turn,score\n1,"12"\n')  # quoted: the careful reader
    assert read_outcomes(str(path), "score", ["0", "12", "17"]).tolist() == [1]


# ---- sequential, --run, --plan, --report (issue 26) -----------------------------------------
PIG = ["verify", "pig", "--policy", "hold 20", "--target", "30"]
SIMULATE = f"{sys.executable} {ROOT / 'cli.py'} simulate pig --policy 'hold 20' --target 30"


def test_sequential_reads_standard_input_and_reports_the_samples_used() -> None:
    made = CliRunner().invoke(cli, ["simulate", "pig", "--policy", "hold 20", "--target", "30",
                                    "--n", "2000", "--seed", "8"])
    result = CliRunner().invoke(cli, [*PIG, "--sequential", "--samples", "-", "--json"],
                                input=made.stdout)
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["samples"] == 2000
    assert report["stopped"] == "end of samples" and report["e_value"] < 1000


def test_sequential_stops_a_wrong_simulator_early(tmp_path: Path) -> None:
    path = tmp_path / "bug.csv"
    CliRunner().invoke(cli, ["simulate", "pig", "--policy", "hold 20", "--target", "30",
                             "--n", "5000", "--seed", "8", "--bug", "five-sided-die", "--out",
                             str(path)])
    result = CliRunner().invoke(cli, [*PIG, "--sequential", "--samples", str(path), "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["stopped"] == "rejected"
    assert report["samples"] < 5000 and report["e_value"] >= 1000
    assert report["diagnosis"]["ranked"][0]["alternative"] == "the bug five-sided-die"


def test_run_drives_a_simulator_in_batches_with_fresh_seeds() -> None:
    result = CliRunner().invoke(cli, [*PIG, "--run", SIMULATE + " --n {n} --seed {seed}",
                                      "--batch", "300", "--most", "900", "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["samples"] == 900
    assert report["stopped"] == "maximum reached" and "3 batches" in report["samples_from"]


@pytest.mark.parametrize(("command", "message"), [
    ("sh -c 'echo oops >&2; exit 3' {n} {seed}", "batch 1 (--seed 5, 100 samples): the command "
                                                 "exited with status 3: oops"),
    ("sleep 10 {n} {seed}", "batch 1 (--seed 5, 100 samples): the command did not finish "
                            "within 0.5 s"),
    ("printf 'score\\n12\\nx\\n' {n} {seed}", "the output of batch 1 (--seed 5, 100 samples) "
                                              "line 3: score 'x' is not"),
    ("printf 'points\\n12\\n' {n} {seed}", "line 1: the header lacks the column(s) score"),
    ("no-such-simulator {n} {seed}", "cannot run 'no-such-simulator'"),
    ("echo {n}", "--run needs a command with {n}"),
])
def test_a_failing_simulator_is_one_line_naming_the_batch(capsys, command: str,
                                                          message: str) -> None:
    code, out, err = run(capsys, *PIG, "--run", command, "--batch", "100", "--seed", "5",
                         "--timeout", "0.5")
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_plan_gives_games_per_statistic_and_for_the_verdict() -> None:
    code, out = invoke("verify", "pig", "--duel", "hold 20", "--target", "40", "--plan",
                       "--against", "hold 25", "--json")
    plan = json.loads(out)
    assert code == 0 and plan["against"] == "both seats playing hold 25"
    keys = [s["key"] for s in plan["statistics"]]
    assert keys == ["winner", "loser_score", "margin", "turns", "winner_loser"]
    assert plan["combined"] >= min(s["samples"] for s in plan["statistics"] if s["samples"])


def test_report_is_one_self_contained_page(tmp_path: Path) -> None:
    samples, page = tmp_path / "games.csv", tmp_path / "report.html"
    CliRunner().invoke(cli, ["simulate", "pig", "--policy", "hold 25", "--duel", "hold 25",
                             "--target", "40", "--n", "500", "--seed", "2", "--out",
                             str(samples)])
    code, _ = invoke("verify", "pig", "--duel", "hold 20", "--target", "40", "--samples",
                     str(samples), "--report", str(page))
    text = page.read_text()
    assert code == 1 and text.startswith("<!DOCTYPE html>")
    assert "REJECTED" in text and "Diagnosis:" in text and text.count("<svg") == 5
    assert "src=" not in text and "href=" not in text and "<script" not in text


@pytest.mark.parametrize("args", [
    [*PIG, "--plan"],
    [*PIG, "--against", "hold 25"],
    [*PIG, "--follow", "2", "--samples", "x.csv"],
    [*PIG, "--run", "x {n} {seed}", "--samples", "x.csv"],
])
def test_options_that_do_not_go_together_are_one_line(capsys, args: list[str]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and err.startswith("dice-solver: error:")


def test_sequential_follows_a_growing_file(tmp_path: Path) -> None:
    """--follow: lines appended while verify waits are read too."""
    import threading
    import time

    made = CliRunner().invoke(cli, ["simulate", "pig", "--policy", "hold 20", "--target", "30",
                                    "--n", "500", "--seed", "9"])
    lines = made.stdout.splitlines(keepends=True)
    path = tmp_path / "growing.csv"
    path.write_text("".join(lines[:102]))  # the comment, the header and 100 samples

    def grow() -> None:
        time.sleep(0.5)
        with path.open("a") as handle:
            handle.write("".join(lines[102:]))

    writer = threading.Thread(target=grow)
    writer.start()
    result = CliRunner().invoke(cli, [*PIG, "--sequential", "--samples", str(path), "--follow",
                                      "3", "--json"])
    writer.join()
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["samples"] == 500
