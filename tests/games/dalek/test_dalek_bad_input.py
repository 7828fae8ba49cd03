"""Bad input to the Dalek Dice commands, through the real entry point (`python cli.py ...` in a
subprocess): every class of mistake is refused before any work with exit status 2 and one line,
`dice-solver: error: ...`, that says what is wrong.

The runs share an empty disk cache (so every solve is costed) and a time budget of half a second
(so a solve of any size is over it without --force): requests refused for their cost are refused
for the estimate, never after trying.
"""

from __future__ import annotations

import gzip
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import run_cli

TURN = ["dalek", "turn", "--dice", "2"]
TINY_RACE = ["dalek", "game", "--dice", "2", "--target", "10"]
OVER_BUDGET = ["dalek", "game", "--dice", "2", "--target", "30"]  # estimated at 3 s (budget 0.5)
ROLL = ["dalek", "best-move", "--dice", "1", "--roll", "H4"]
RUN = ["simulate", "dalek", "--dice", "2", "--n", "10", "--seed", "1"]
BAD_INPUT = {  # name: (arguments, a fragment the one error line must contain)
    # the die
    "unknown face on the die": ([*TURN, "--faces", "H4 H2 D3 D2 DOC XYZ"], "XYZ"),
    "face value past 99": ([*TURN, "--faces", "H99999999999999999999 D3 DOC EXT"],
                           "worth 1 to 99"),
    "face weight past 1000": ([*TURN, "--faces", "H4:99999999999999999999 D3 DOC EXT"],
                              "at most 1000"),
    "face weight of 5000 digits": ([*TURN, "--faces", f"H4:{'9' * 5000} D3"], "cannot read"),
    "face weight in other digits": ([*TURN, "--faces", "H4:\u00b2 D3"], "cannot read"),
    "face value of 5000 digits": ([*TURN, "--faces", f"H{'9' * 5000} D3"], "worth 1 to 99"),
    "no Human or Dalek face": ([*TURN, "--faces", "DOC EXT"], "a Human (H<n>) or a Dalek"),
    "13 different faces": ([*TURN, "--faces", "H1 H2 H3 H4 H5 H6 H7 D1 D2 D3 D4 D5 D6"],
                           "at most 12"),
    "no face at all": ([*TURN, "--faces", " "], "no faces"),
    "unknown tie rule": ([*TURN, "--tie-rule", "xx"], "xx"),
    "negative number of dice": (["dalek", "turn", "--dice", "-1"], "-1"),
    "31 dice": (["dalek", "turn", "--dice", "31"], "1<=x<=30"),
    # die files
    "die file with a JSON syntax error": ([*TURN, "--die-file", "{bad_json}"], "malformed"),
    "die file nested too deep": ([*TURN, "--die-file", "{deep}"], "nested too deep"),
    "die file without faces": ([*TURN, "--die-file", "{no_faces}"], "faces"),
    "die file of random bytes": ([*TURN, "--die-file", "{random}"], "not UTF-8"),
    "die file of damaged gzip": ([*TURN, "--die-file", "{damaged_gzip}"], "gzip"),
    "die file missing": ([*TURN, "--die-file", "{missing}"], "No such file"),
    "die file is a folder": ([*TURN, "--die-file", "{folder}"], "is a folder"),
    # the race
    "target past 1000": (["dalek", "game", "--target", "100000"], "1<=x<=1000"),
    "101 players": (["dalek", "game", "--players", "101"], "2<=x<=100"),
    # 7 players are a game (rule 10: 2 or more); to 60, far too large a one (docs/rules.md)
    "7 players to 60": (["dalek", "game", "--dice", "2", "--players", "7"],
                        "the 7-player race to 60 would need about"),
    "tie value above 1": ([*TINY_RACE, "--tie-value", "2"], "between 0 and 1"),
    "a race no turn scores in": (["dalek", "game", "--faces", "H4", "--dice", "2"],
                                 "never end"),
    # positions
    "more dice rolled than the game has": (["dalek", "best-move", "--dice", "3", "--roll",
                                            "H4 H4 H4 H4"], "4 dice"),
    "three kept Doctors": (["dalek", "best-move", "--dice", "4", "--doctors", "3", "--roll",
                            "H4"], "Doctor"),
    "odd Human sum": (["dalek", "best-move", "--dice", "4", "--humans", "3", "--roll", "H4 D3"],
                      "3 Humans"),
    "negative Humans": ([*ROLL, "--humans", "-2"], "negative"),
    "scores for 2 players, --players 3": ([*ROLL, "--scores", "30,42", "--players", "3"],
                                          "2 scores but --players is 3"),
    "scores that are not numbers": ([*ROLL, "--scores", "30,x"], "whole numbers"),
    "a score in other digits": ([*ROLL, "--scores", "30,\u00b2"], "whole numbers"),
    "a score of 5000 digits": ([*ROLL, "--scores", f"1,{'9' * 5000}"], "at most"),
    "one score": ([*ROLL, "--scores", "30"], "2 to 100 scores"),
    "a score no game reaches": ([*ROLL, "--scores", "1,1", "--target", "12"], "no game"),
    "a seat past the players": ([*ROLL, "--scores", "5,5", "--seat", "3", "--target", "12"],
                                "seat must be between 1 and 2"),
    "race options without --scores": ([*ROLL, "--seat", "2"], "give --scores"),
    # files written
    "plot to an empty path": (["dalek", "plot", "--out", ""], "empty path"),
    "plot that is not a PNG": (["dalek", "plot", "--out", "{tmp}/plot.txt"], ".png"),
    "plot into a missing folder": (["dalek", "plot", "--out", "{missing}/plot.png"],
                                   "does not exist"),
    "plot for 3 players": (["dalek", "plot", "--players", "3", "--out", "{tmp}/plot.png"],
                           "two players"),
    "table to an empty path": (["dalek", "table", "--out", ""], "empty path"),
    "table into a missing folder": (["dalek", "table", "--out", "{missing}/deeper"],
                                    "does not exist"),
    "table onto a file": (["dalek", "table", "--out", "{random}"], "is a file"),
    "decision log to an empty path": ([*RUN, "--decisions", ""], "empty path"),
    "decision log onto the samples": ([*RUN, "--out", "{tmp}/s.csv", "--decisions",
                                       "{tmp}/s.csv"], "same file"),
    "decision log of a duel": ([*RUN, "--duel", "points", "--decisions", "{tmp}/d.csv"],
                               "single turns"),
    # policies
    "unknown policy": (["dalek", "duel", "--a", "nope"], "unknown Dalek Dice policy"),
    "keep-daleks past the most Humans": (["dalek", "duel", "--a", "keep-daleks 99999"],
                                         "from 0 to 2970"),
    "keep-daleks in other digits": (["dalek", "duel", "--a", "keep-daleks \u00b2"],
                                    "unknown Dalek Dice policy"),
    "policy table with a number past int64": (["dalek", "duel", "--dice", "1", "--a",
                                               "table:{huge_number}"], "whole numbers"),
    "policy table missing": (["dalek", "duel", "--a", "table:{missing}"], "No such file"),
    "policy table of random bytes": ([*RUN, "--policy", "table:{random}"], "not UTF-8"),
    "policy table without a name": (["dalek", "duel", "--a", "table:"], "file name"),
    "win policy outside a duel": ([*RUN, "--policy", "win"], "duel"),
    "a duel no seat scores in": ([*RUN, "--faces", "H4", "--duel", "points"], "never end"),
    "policy for a decision log": (["verify", "dalek", "--decisions", "{random}", "--policy",
                                   "keep-daleks 3"], "no part"),
    # costs
    "a solve over the time budget": (OVER_BUDGET, "add --force"),
    "a turn over the memory limit, even forced": (["dalek", "turn", "--dice", "30", "--force"],
                                                  "memory"),
    "a decision log over the memory limit": ([*RUN, "--n", "10000000", "--out", "{tmp}/s.csv",
                                              "--decisions", "{tmp}/d.csv"], "memory"),
}
FILES = {  # the files the bad inputs name, by their placeholder
    "bad_json": b'{"faces": ["H4", "H2",\n',
    "no_faces": b'{"face": ["H4", "H2", "D3", "D2", "DOC", "EXT"]}',
    "deep": b'{"faces": ' + b"[\n" * 100_000 + b"]\n" * 100_000 + b"}",
    "random": bytes(range(256)) * 8,
    "huge_number": b"to_roll,humans,daleks,doctors,exterminates,roll,keep,then\n"
                   b"99999999999999999999,0,0,0,0,H4,H4,end\n",
    "damaged_gzip": gzip.compress(b'{"faces": ["H4", "D3"]}')[:-6] + b"xxxxxx",
}


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`run_cli` with these environment variables set (in the child only: the runs go two at
    a time, and setting them here would leak between threads and into later tests)."""
    return run_cli(*args, env=env)


@pytest.fixture(scope="module")
def setting(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], dict[str, str]]:
    """(placeholders -> paths, environment): the files, an empty cache and a small budget."""
    folder = tmp_path_factory.mktemp("bad")
    paths = {"tmp": str(folder), "missing": str(folder / "missing"),
             "folder": str(folder)}
    for name, data in FILES.items():
        (folder / name).write_bytes(data)
        paths[name] = str(folder / name)
    cache = folder / "cache"
    cache.mkdir()
    return paths, {"DICE_SOLVER_CACHE": str(cache), "DICE_SOLVER_BUDGET": "0.5"}


@pytest.fixture(scope="module")
def bad_runs(setting) -> dict[str, subprocess.CompletedProcess]:
    """Every bad-input command, run through the real entry point (two at a time)."""
    paths, env = setting
    commands = {name: [a.format(**paths) for a in args] for name, (args, _) in BAD_INPUT.items()}
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {name: pool.submit(run, args, env) for name, args in commands.items()}
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
    assert BAD_INPUT[name][1] in lines[0], lines[0]
    assert run.stdout == ""


def test_force_runs_a_request_over_the_time_budget(setting) -> None:
    """The same request as "a solve over the time budget", with --force: solved."""
    _, env = setting
    run_ = run([*OVER_BUDGET, "--force", "--json"], env)
    assert run_.returncode == 0, run_.stderr
    assert '"seats"' in run_.stdout


def test_nothing_is_written_where_a_refused_command_points(setting, bad_runs) -> None:
    """A refused plot, table or run leaves no file behind (it was refused before any work)."""
    paths, _ = setting
    assert bad_runs
    for name in ("plot.txt", "plot.png", "s.csv", "d.csv", "missing"):
        assert not Path(paths["tmp"], name).exists()
