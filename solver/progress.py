"""The progress display of every long solve, on stderr, for both engines.

On a terminal: one line redrawn in place (a bar, then what is done, the rate and the time left).
Without one (piped, logged): a line every 30 s, so a long solve never looks hung, and nothing
for a solve that ends within the first 30 s (the output of short commands stays clean).
`--quiet` shows nothing, except that a solve resumed from a checkpoint says so (it changes
what the run costs). Kept free of the engines' imports: cached answers load no numba."""

from __future__ import annotations

import shutil
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from solver.limits import duration

if TYPE_CHECKING:
    from solver.engine.levels import Status

EVERY = 30.0  # seconds between lines without a terminal, and before the first
REDRAW = 0.5  # seconds between redraws on a terminal
WINDOW = 300.0  # seconds of history behind the rate at least: positions of the final round
# cost less than the others, so the rate since the start would promise too much
SHARE = 0.5  # and at least this share of the time since the start: a solve of hours moves in
# levels and chunks of minutes whose rates differ by 3 times. Replayed on 2.4-2.6 h of the
# 4-player race to 60's logged progress (docs/results.md), the time left after the first quarter
# ranged 11.7-52.6 h with 5 minutes, 11.9-41.3 h with a quarter, 13.4-23.6 h with a half
BAR = 20  # characters of the bar


class Progress:
    """Called by a solve as it goes: with a levels.Status by the level engine (`__call__`),
    with (done, total) groups of components by the cyclic engine (`steps`). `clock` is
    injectable so that tests need not sleep. Use as a context manager, or call `close`, to
    end a bar left open on a terminal."""

    def __init__(self, label: str, quiet: bool = False, *, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, every: float = EVERY) -> None:
        self.label, self.quiet, self.clock, self.every = label, quiet, clock, every
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.started = self.last = clock()
        self.open = False  # a bar drawn on the terminal, its line not ended yet
        self.said_resume = False
        self.history: deque[tuple[float, int]] = deque()  # (clock, units done)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exception) -> None:
        self.close()

    def __call__(self, status: Status) -> None:
        """The level engine's report: levels and positions done."""
        if status.resumed_levels and not self.said_resume:
            self.said_resume = True
            print(f"{self.label}: resuming after {status.resumed_levels} of {status.levels} "
                  f"levels read from the checkpoint", file=self.stream, flush=True)
        self._show(status.positions_done, status.positions, status.levels_done == status.levels,
                   lambda rate: f"levels {status.levels_done}/{status.levels}, positions "
                                f"{status.positions_done:,}/{status.positions:,}, "
                                f"{rate:,.0f} positions/s")

    def steps(self, done: int, total: int) -> None:
        """The cyclic engine's report: groups of components solved (a group is one progress
        level's components that depend on nothing unsolved), of all."""
        self._show(done, total, done >= total,
                   lambda rate: f"component groups {done:,}/{total:,}, {rate:,.1f} groups/s")

    def close(self) -> None:
        """End the bar's line (a solve that stopped early leaves it open)."""
        if self.open:
            print(file=self.stream, flush=True)
            self.open = False

    def _show(self, done: int, total: int, finished: bool, words: Callable[[float], str]
              ) -> None:
        if self.quiet:
            return
        now = self.clock()
        self.history.append((now, done))
        window = max(WINDOW, SHARE * (now - self.started))
        while len(self.history) > 1 and self.history[1][0] <= now - window:
            self.history.popleft()  # keeps the newest point at least WINDOW old
        interval = REDRAW if self.terminal else self.every
        if now - (self.started if finished else self.last) < interval:
            return  # too soon; and a solve done within the first interval shows nothing
        self.last = now
        since, then = self.history[0]
        rate = (done - then) / (now - since) if now > since else 0.0
        if finished:
            left = f"done in {duration(now - self.started)}"
        else:
            left = f"{duration((total - done) / rate)} left" if rate > 0 else \
                "time left unknown"
        text = f"{words(rate)}, {left}"
        if not self.terminal:
            print(f"{self.label}: {text}", file=self.stream, flush=True)
            return
        filled = BAR * done // total if total else BAR
        share = 100 * done / total if total else 100.0
        line = f"{self.label}: [{'#' * filled}{'-' * (BAR - filled)}] {share:3.0f}% {text}"
        width = shutil.get_terminal_size().columns - 1  # a line that wraps is not redrawn
        print(f"\r\033[K{line[:width]}", end="\n" if finished else "", file=self.stream,
              flush=True)
        self.open = not finished
