"""Samples judged as they arrive: a growing file, standard input, or a simulator run in batches
with fresh seeds, watched by the anytime-valid test of solver/sequential.py after every sample
and stopped as soon as it rejects. Knows no game."""

from __future__ import annotations

import codecs
import csv
import math
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from solver.errors import InputError
from solver.outcomes import Outcomes
from solver.sequential import MixtureTest, combined, first_crossing, group
from solver.verdicts import usable

POLL = 0.2  # seconds between looks at a file that has not grown
READ = 1 << 16  # bytes read at a time


@dataclass
class Monitor:
    """The e-processes of every statistic the samples' columns show (known from the first
    samples fed), and their mean."""

    outcomes: Outcomes
    alpha: float
    read: dict[str, list[np.ndarray]] = field(default_factory=dict)
    samples: int = 0
    stopped_at: int | None = None
    tests: list = field(default_factory=list)
    log_e: float = 0.0
    paths: list[float] = field(default_factory=list)

    def _start(self, columns: set[str]) -> None:
        for t in usable(self.outcomes, columns):
            bins = group(t.p)
            grouped = np.append(np.bincount(bins, t.p), 0.0)  # the last: never produced
            self.tests.append((t, bins, MixtureTest(grouped / grouped.sum())))
        self.paths = [0.0] * len(self.tests)

    @property
    def rejected(self) -> bool:
        return self.stopped_at is not None

    def feed(self, sample: dict[str, np.ndarray]) -> bool:
        """Take the next samples in order; True once the combined e-process reaches 1/alpha
        (samples after that one are not taken)."""
        n = len(next(iter(sample.values())))
        if self.rejected or not n:
            return self.rejected
        if not self.tests:
            self._start(set(sample))
        paths = []
        for t, bins, test in self.tests:
            values = t.statistic.value(sample)
            at = np.minimum(np.searchsorted(t.codes, values), len(t.codes) - 1)
            outcome = np.where(t.codes[at] == values, bins[at], len(test.p) - 1)
            paths.append(test.steps(outcome))
        path = combined(paths)
        crossing = first_crossing(path, self.alpha)
        taken = n if crossing is None else crossing
        for name, column in sample.items():
            self.read.setdefault(name, []).append(column[:taken])
        self.samples += taken
        self.log_e = float(path[taken - 1])
        self.paths = [float(p[taken - 1]) for p in paths]
        if crossing is not None:
            self.stopped_at = self.samples
        return self.rejected

    def sample(self) -> dict[str, np.ndarray]:
        """Every sample taken so far, by column."""
        return {name: np.concatenate(parts) for name, parts in self.read.items()}

    def report(self, stopped: str) -> dict:
        threshold = 1 / self.alpha
        return {"method": "sequential", "verdict": "rejected" if self.rejected else
                "consistent", "samples": self.samples, "alpha": self.alpha,
                "e_value": _exp(self.log_e), "log_e": self.log_e, "threshold": threshold,
                "stopped": stopped,
                "statistics": [{"key": t.statistic.key, "name": t.statistic.name,
                                "bins": len(test.p), "e_value": _exp(value), "log_e": value}
                               for (t, _, test), value in zip(self.tests, self.paths)]}


def _exp(value: float) -> float | None:
    """e^value, or None where it is too large for a float (JSON has no infinity)."""
    return None if value > 700 else math.exp(value)


class Rows:
    """A sample file's rows as they arrive: the header, then whole lines (a line still being
    written waits for its end). Columns are found by name; values as in samples.read_columns."""

    def __init__(self, what: str, needed: list[str], optional: list[str],
                 labels: dict[str, dict[str, int]]) -> None:
        self.what, self.needed, self.optional, self.labels = what, needed, optional, labels
        self.header: list[str] | None = None
        self.line = 0
        self.rest = ""

    def take(self, text: str, final: bool = False) -> dict[str, np.ndarray] | None:
        """The complete rows in `text` (after what came before), by column; None before the
        header is complete."""
        from solver.samples import parsed_column

        text = self.rest + text
        lines = text.split("\n")
        self.rest = "" if final else lines.pop()
        rows, numbers = [], []
        for raw in lines:
            self.line += 1
            if not raw.strip() or raw.startswith("#"):
                continue
            fields = next(csv.reader([raw])) if '"' in raw else raw.split(",")
            if self.header is None:
                self._set_header([f.strip().lstrip("\ufeff") for f in fields])
                continue
            if len(fields) != len(self.header):
                raise InputError(f"{self.what} line {self.line}: {len(fields)} fields where the "
                                 f"header has {len(self.header)}")
            rows.append(fields)
            numbers.append(self.line)
        if self.header is None:
            return None
        lines_at = np.array(numbers, dtype=np.int64)
        return {c: parsed_column(rows, lines_at, self.header.index(c), c, self.labels.get(c, {}),
                           self.what) if rows else np.empty(0, dtype=np.int64)
                for c in self.columns}

    def _set_header(self, header: list[str]) -> None:
        missing = [c for c in self.needed if c not in header]
        if missing:
            raise InputError(f"{self.what} line {self.line}: the header lacks the column(s) "
                             f"{', '.join(missing)} (it has {', '.join(header)})")
        self.header = header
        self.columns = [*self.needed, *(c for c in self.optional if c in header)]


def arriving(path: str, follow: float) -> Iterator[tuple[str, bool]]:
    """The text of a file (- for standard input) as it arrives, with True on the last piece:
    at the end of a file, wait up to `follow` seconds for it to grow."""
    try:
        handle = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as error:
        raise InputError(f"cannot read samples file {path}: {error.strerror}") from None
    decoder = codecs.getincrementaldecoder("utf-8")()
    idle = 0.0
    try:
        while True:
            raw = handle.read1(READ)
            if raw:
                idle = 0.0
                yield decoder.decode(raw), False
                continue
            if path == "-" or idle >= follow:
                yield decoder.decode(b"", final=True), True
                return
            time.sleep(POLL)
            idle += POLL
    except UnicodeDecodeError:
        raise InputError(f"samples file {path} is not UTF-8 text") from None
    finally:
        if path != "-":
            handle.close()


def watch_file(monitor: Monitor, rows: Rows, path: str, follow: float) -> str:
    """Feed a file's samples to the monitor as they arrive: why it stopped."""
    for text, last in arriving(path, follow):
        sample = rows.take(text, final=last)
        if sample is not None and monitor.feed(sample):
            return "rejected"
    if rows.header is None:
        raise InputError(f"samples file {path} is empty: it needs a header line and rows")
    if not monitor.samples:
        raise InputError(f"samples file {path} has a header but no samples")
    return "end of samples"


def run_batches(monitor: Monitor, template: str, rows_for, batch: int, most: int, seed: int,
                timeout: float) -> tuple[str, int]:
    """Run the author's simulator (`template` with {n} and {seed}) batch after batch with
    seeds seed, seed + 1, ..., feeding each batch's CSV (standard output) to the monitor,
    until it rejects or `most` samples are taken. Returns why it stopped and the batches run.
    A command that cannot start, fails, hangs past `timeout` seconds or writes what is not a
    sample file is bad input naming the batch."""
    words = shlex.split(template)
    if not any("{n}" in w for w in words) or not any("{seed}" in w for w in words):
        raise InputError("--run needs a command with {n} (samples per batch) and {seed} in it")
    runs = 0
    while monitor.samples < most:
        n = min(batch, most - monitor.samples)
        this = seed + runs
        runs += 1
        where = f"batch {runs} (--seed {this}, {n} samples)"
        args = [w.replace("{n}", str(n)).replace("{seed}", str(this)) for w in words]
        output = _run(args, timeout, where)
        sample = rows_for(f"the output of {where}").take(output, final=True)
        if sample is None or not len(next(iter(sample.values()))):
            raise InputError(f"{where}: the command wrote no samples")
        if monitor.feed(sample):
            return "rejected", runs
    return "maximum reached", runs


def _run(args: list[str], timeout: float, where: str) -> str:
    try:
        done = subprocess.run(args, capture_output=True, timeout=timeout, check=False)
    except FileNotFoundError:
        raise InputError(f"{where}: cannot run {args[0]!r}: no such program") from None
    except PermissionError:
        raise InputError(f"{where}: cannot run {args[0]!r}: permission denied") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"{where}: the command did not finish within {timeout:g} s") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        said = f": {lines[-1][:200]}" if lines else ""
        raise InputError(f"{where}: the command exited with status {done.returncode}{said}")
    try:
        return done.stdout.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{where}: the command's output is not UTF-8 text") from None
