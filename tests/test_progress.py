"""The one progress display (solver/progress.py): a line every 30 s without a terminal and none
for a shorter solve, a bar redrawn in place on a terminal, nothing with --quiet but a resume.
Time comes from an injected clock: no test sleeps."""

from __future__ import annotations

import io

from helpers import run_cli

from solver.engine.levels import Status
from solver.progress import Progress


class Clock:
    """Seconds set by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def status(done: int, levels_done: int | None = None, resumed: int = 0) -> Status:
    """10 levels of 10 positions each, `done` positions solved."""
    return Status(10, done // 10 if levels_done is None else levels_done, 100, done, resumed,
                  10 * resumed, 0.0)


def test_without_a_terminal_a_line_every_30_seconds() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = Progress("race", stream=stream, clock=clock)
    for seconds, done in ((1, 10), (20, 40), (31, 50), (45, 60), (62, 72), (70, 100)):
        clock.now = seconds
        progress(status(done))
    printed = stream.getvalue().splitlines()
    assert len(printed) == 3  # at 31 s, at 62 s (31 s after), and the end
    # 31 s: 40 positions since the first report at 1 s, 1.33 a second: 37.5 s for the 50 left
    assert printed[0] == "race: levels 5/10, positions 50/100, 1 positions/s, 38 s left"
    # 62 s: 62 positions in 61 s, 28 left: 27.5 s
    assert printed[1] == "race: levels 7/10, positions 72/100, 1 positions/s, 28 s left"
    assert printed[2] == "race: levels 10/10, positions 100/100, 1 positions/s, done in 70 s"


def test_a_solve_within_30_seconds_prints_nothing_without_a_terminal() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = Progress("race", stream=stream, clock=clock)
    for seconds, done in ((0, 0), (10, 50), (29.9, 100)):
        clock.now = seconds
        progress(status(done))
    clock.now = 0.0
    groups = Progress("pig", stream=stream, clock=clock)
    for done in range(1, 101):
        clock.now += 0.29
        groups.steps(done, 100)
    assert stream.getvalue() == ""


def test_the_rate_is_that_of_the_last_five_minutes() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = Progress("strike", stream=stream, clock=clock)
    for seconds, done in ((0, 0), (100, 100), (400, 1000)):
        clock.now = seconds
        progress.steps(done, 2000)
    # 900 groups in the 300 s since 100 s (not 1000 in 400 s): 3 a second, 1000 left: 333 s
    assert stream.getvalue().splitlines()[-1] == \
        "strike: component groups 1,000/2,000, 3.0 groups/s, 6 min left"


def test_quiet_says_only_that_a_solve_resumed() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = Progress("race", quiet=True, stream=stream, clock=clock)
    for seconds, done in ((0, 40), (100, 70), (200, 100)):
        clock.now = seconds
        progress(status(done, resumed=4))
    assert stream.getvalue() == "race: resuming after 4 of 10 levels read from the checkpoint\n"


def test_on_a_terminal_one_bar_redrawn_in_place(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    stream, clock = Terminal(), Clock()
    with Progress("race", stream=stream, clock=clock) as progress:
        for seconds, done in ((0.0, 0), (0.6, 25), (0.8, 30), (1.2, 50)):
            clock.now = seconds
            progress.steps(done, 100)
    text = stream.getvalue()
    draws = text.split("\r\033[K")[1:]
    assert len(draws) == 2  # at 0.6 s and 1.2 s: not at 0.8 s, too soon after the last
    assert draws[0].startswith("race: [#####---------------]  25% component groups 25/100")
    assert draws[1].startswith("race: [##########----------]  50% component groups 50/100")
    assert text.count("\n") == 1 and text.endswith("\n")  # closed: the line ends once


def test_on_a_terminal_the_bar_ends_its_line_when_done(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    stream, clock = Terminal(), Clock()
    progress = Progress("race", stream=stream, clock=clock)
    for seconds, done in ((0.0, 0), (1.0, 50), (2.0, 100)):
        clock.now = seconds
        progress(status(done))
    progress.close()  # nothing left open: no second newline
    text = stream.getvalue()
    assert text.endswith("positions/s, done in 2 s\n") and text.count("\n") == 1


def test_on_a_terminal_the_line_fits_the_width(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # a line that wraps could not be redrawn in place
    stream, clock = Terminal(), Clock()
    progress = Progress("race", stream=stream, clock=clock)
    clock.now = 1.0
    progress(status(50))
    assert stream.getvalue() == "\r\033[Krace: [##########----------]  50% level"  # 39


def test_the_level_engine_feeds_the_display() -> None:
    """A real level solve with a clock 40 s a report: a line each time, the last one done."""
    from solver.games.dalek.files import parse_rules
    from solver.games.dalek.levels import LevelRace, solve_levels
    from solver.games.dalek.race import DalekRace
    from solver.games.dalek.turn import compile_turn

    class Slow(Clock):
        def __call__(self) -> float:
            self.now += 40.0
            return self.now

    race = DalekRace(compile_turn(parse_rules(dice=3)), 2, 6)
    stream = io.StringIO()
    solve_levels(race, progress=Progress("race", stream=stream, clock=Slow()))
    printed = stream.getvalue().splitlines()
    levels = LevelRace(race).levels
    assert printed[-1].startswith(f"race: levels {levels}/{levels}, positions ")
    assert "done in" in printed[-1] and len(printed) > 2
    assert all(line.startswith("race: levels ") for line in printed)


def test_a_short_piped_solve_prints_nothing_on_stderr() -> None:
    result = run_cli("pig", "game", "--target", "10")  # well under a second of solving
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_a_long_solves_rate_is_that_of_the_last_half_of_its_time() -> None:
    """After 10 minutes the window is half the time since the start: an hour-long solve's time
    left does not swing with each slow chunk."""
    stream, clock = io.StringIO(), Clock()
    progress = Progress("strike", stream=stream, clock=clock)
    done = 0
    for seconds in range(0, 4001, 100):  # 3 groups a second, 1 in the last 300 s
        clock.now = seconds
        progress.steps(done, 100_000)
        done += 100 if seconds >= 3700 else 300
    # at 4,000 s the window is 2,000 s: 11,400 - 6,000 groups since 2,000 s, 2.7 a second
    # (the last 300 s alone: 1 a second), 88,600 left: 32,815 s
    assert stream.getvalue().splitlines()[-1] == \
        "strike: component groups 11,400/100,000, 2.7 groups/s, 9.1 h left"
