"""A solve nobody asked for is not started: with no budget set, one estimated over a minute is
asked about on a terminal, and needs --force (or a budget that allows it) from a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time

from helpers import ROOT

# a race no file ships solved (the 3-player race to 60 does): from an empty cache, about 24 min
LONG = ("dalek", "game", "--players", "3", "--target", "59")


def environment(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DICE_SOLVER_BUDGET"}
    return {**env, "DICE_SOLVER_CACHE": str(tmp_path)}


def test_piped_a_long_solve_needs_force(tmp_path) -> None:
    run = subprocess.run([sys.executable, "cli.py", *LONG], cwd=ROOT, env=environment(tmp_path),
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.startswith("dice-solver: error: the 3-player race to 59 would take about ")
    assert run.stderr.endswith(", more than a minute: add --force to start it, or allow it with "
                               "$DICE_SOLVER_BUDGET (seconds)\n")
    assert "\n" not in run.stderr.rstrip("\n")


def test_on_a_terminal_a_long_solve_is_asked_about(tmp_path) -> None:
    leader, follower = pty.openpty()
    child = subprocess.Popen([sys.executable, "cli.py", *LONG], cwd=ROOT,
                             env=environment(tmp_path), stdin=follower, stdout=follower,
                             stderr=follower)
    os.close(follower)
    said, deadline = b"", time.monotonic() + 120
    while b"Start it?" not in said and time.monotonic() < deadline:
        said += os.read(leader, 1024)
    os.write(leader, b"n\n")
    assert child.wait(timeout=60) == 2
    try:
        while chunk := os.read(leader, 1024):
            said += chunk
    except OSError:  # the terminal closed with the child
        pass
    os.close(leader)
    text = said.decode()
    assert "the 3-player race to 59 would take about " in text and "Start it? [y/N]" in text
    assert "dice-solver: error: the 3-player race to 59: not started" in text
    assert not list(tmp_path.glob("dalek_race*"))  # nothing was solved


def test_a_long_solve_says_so_before_it_starts(capsys) -> None:
    """A solve (or a rules search) estimated over a minute says so up front, when it starts;
    a short one says nothing."""
    from solver.limits import held_to, refuse

    with held_to(3600):
        refuse("the search for some rules", 150, 0)
        refuse("a quick solve", 5, 0)
    assert capsys.readouterr().err == "the search for some rules: estimated 2 min, starting now\n"
