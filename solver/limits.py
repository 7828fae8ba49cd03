"""What a request may cost, estimated before any work starts, and refused past the limits.

A game estimates a solve's time and memory from its size (positions, turn graph) with figures
measured on the reference machine (docs/results.md), and calls `refuse` first. Time is a soft
limit: the budget ($DICE_SOLVER_BUDGET seconds, default two hours), which `--force` overrides;
and with no budget set, a solve estimated over a minute is not started unasked: on a terminal
the user is asked, elsewhere (a pipe, a script) it needs --force or a budget that allows it.
Memory is a hard limit (MEMORY_LIMIT bytes, default three quarters of this machine's memory):
past it the machine would swap or the process die, so nothing overrides it.
"""

from __future__ import annotations

import os
import resource
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from solver.errors import InputError

DEFAULT_BUDGET = 2 * 3600.0
ASK_OVER = 60.0  # seconds: with no budget set, a longer solve is not started unasked
_held: ContextVar[float | None] = ContextVar("budget", default=None)  # set by `held_to`


class OverBudget(InputError):
    """A solve estimated past the time budget: the command line offers --force, the page (which
    has no such thing) says the server's limit instead."""

    def __init__(self, what: str, seconds: float, limit: float) -> None:
        super().__init__(f"{what} would take about {duration(seconds)} (budget "
                         f"{duration(limit)}): add --force to run it anyway")
        self.what, self.seconds, self.limit = what, seconds, limit


@contextmanager
def held_to(seconds: float) -> Iterator[None]:
    """Within the block, the budget is `seconds` (the page's server holds each request to its
    own budget this way: nothing leaks into the process's environment or the next request)."""
    token = _held.set(seconds)
    try:
        yield
    finally:
        _held.reset(token)


def budget() -> float:
    """Seconds a request may be estimated to take without --force."""
    if (held := _held.get()) is not None:
        return held
    text = os.environ.get("DICE_SOLVER_BUDGET", "")
    try:
        value = float(text) if text else DEFAULT_BUDGET
    except ValueError:
        raise InputError(f"DICE_SOLVER_BUDGET must be a number of seconds, not {text!r}") \
            from None
    return value if value > 0 else DEFAULT_BUDGET


def memory_limit() -> float:
    """Bytes a request may be estimated to hold at once: three quarters of the machine's
    memory, or of the process's address-space limit where one is set (ulimit -v)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = 8 << 30
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        total = min(total, soft)
    return 0.75 * total


def refuse(what: str, seconds: float, memory: float, force: bool = False,
           can_force: bool = True) -> None:
    """Refuse `what` (one clear line, with the estimate) if it would take more memory than the
    machine has, or more time than the budget unless forced; with no budget set, ask before a
    solve estimated over a minute (`can_force`: the command has --force to say yes with)."""
    if memory > memory_limit():
        raise InputError(f"{what} would need about {_bytes(memory)} of memory, more than this "
                         f"machine can give ({_bytes(memory_limit())})")
    if not force and seconds > budget():
        raise OverBudget(what, seconds, budget())
    if not force and seconds > ASK_OVER and can_force and _held.get() is None and \
            not os.environ.get("DICE_SOLVER_BUDGET"):
        _ask(what, seconds)
    if seconds > ASK_OVER:  # said up front: minutes of silence look like a hang
        print(f"{what}: estimated {duration(seconds)}, starting now", file=sys.stderr)


def _ask(what: str, seconds: float) -> None:
    """A long solve nobody asked for: on a terminal, ask; elsewhere, refuse with the way on."""
    question = f"{what} would take about {duration(seconds)}"
    if sys.stdin.isatty() and sys.stderr.isatty():
        import click

        if click.confirm(f"{question}. Start it?", default=False, err=True):
            return
        raise InputError(f"{what}: not started")
    raise InputError(f"{question}, more than a minute: add --force to start it, or allow it "
                     f"with $DICE_SOLVER_BUDGET (seconds)")


def _bytes(count: float) -> str:
    units = ("bytes", "KiB", "MiB", "GiB", "TiB")
    power = 0
    while count >= 1024 and power < len(units) - 1:
        count /= 1024
        power += 1
    return f"{count:.0f} bytes" if power == 0 else f"{count:.1f} {units[power]}"


def duration(seconds: float) -> str:
    """Seconds in the unit a reader takes in at once (s, min, h, days): estimates and ETAs."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.0f} days"
