"""Solved races shipped inside the package (the folder shipped/ beside this module), so that a
fresh install answers the 2- and 3-player races to 60 at once instead of solving for seconds or
half an hour.

A shipped file is keyed by the race (`race.race_key`: rules, die, dice, players, target, tie
rule and value, the turn graph's fingerprint, the engine) WITHOUT the hash of the code: it is
read only where that key equals the asked race's exactly, and what it answers says which solve
made it (engine, residual, date, commit). tests/games/dalek/test_dalek_shipped.py keeps the files
honest: their keys are today's and (slow) their values a fresh solve's to 1e-12.

The format, deterministic bytes (the same values give the same file): a first line naming it, a
line of JSON (the key, the solve, the streams' lengths), then zlib streams: every position's
number (`numbers`: the scores read in base `base`, then the mover), sorted, as differences; the
mixes (RaceValues.mixed); then the metrics in blocks of BLOCK positions, each block's float64s'
eight bytes split into eight planes, a stream each (the high bytes of nearby values repeat, and
zlib finds that once they sit together). Positions are stored in that order, so a look-up is a
bisection and no dictionary is built; a block is unpacked when a row of it is first read
(`ShippedTable`), so a query unpacks the few blocks its position and its turn reach, not the
whole table.
`python -m solver.games.dalek.shipping [PLAYERS ...]` remakes the files (docs/developing.md).

A race file (`dice-solver dalek race-file --out FILE`, read back by `--race-file FILE`) is the
same format outside the package: a race too long to ship or to solve again (4 players to 60:
hours of both cores) answered from the file a solve wrote, whatever the code that reads it,
for exactly the race its key names (`load` refuses any other in one line).
"""

from __future__ import annotations

import json
import mmap
import shutil
import tempfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np

from solver.errors import InputError
from solver.games.dalek.race import (
    DalekRace,
    Position,
    RaceValues,
    race_key,
    radix_digits,
    radix_number,
)

FOLDER = Path(__file__).parent / "shipped"
MAGIC = b"dice-solver shipped race values 2\n"
SHIPPED = ((2, 60), (3, 60))  # (players, target) of the races shipped, default rules
LEVEL = 9  # zlib's: the smallest of the containers measured that loads in well under a second
BLOCK = 16_384  # positions per block of values: unpacking one takes a few milliseconds


def path(players: int, target: int) -> Path:
    """Where the shipped values of the race of so many players to this target are (if any)."""
    return FOLDER / f"race_{players}p_{target}.bin"


def numbers(scores: np.ndarray, mover: np.ndarray, base: int) -> np.ndarray:
    """Each position's number: its scores (rows, seat 1 first) as digits in `base`, then the
    mover: increasing with seat 1's score, so a sorted table keeps nearby positions together."""
    return radix_number(scores, base) * scores.shape[1] + mover


class ShippedIndex(Mapping):
    """Positions -> rows of a shipped table (RaceValues reads it as a dict): rows are in order
    of the positions' numbers, so the row of a position is where bisection finds its number."""

    def __init__(self, sorted_numbers: np.ndarray, players: int, base: int) -> None:
        self.numbers, self.players, self.base = sorted_numbers, players, base

    def __getitem__(self, position: Position) -> int:
        scores, mover = position
        if len(scores) != self.players or not 0 <= mover < self.players or not all(
                0 <= s < self.base for s in scores):
            raise KeyError(position)
        number = 0  # `numbers` of one position, in Python: a table looks up every position
        for score in scores:
            number = number * self.base + score
        number = number * self.players + mover
        row = int(np.searchsorted(self.numbers, number))
        if row == len(self.numbers) or self.numbers[row] != number:
            raise KeyError(position)
        return row

    def __iter__(self) -> Iterator[Position]:
        seats, movers = self._decoded(self.numbers)
        yield from ((tuple(s), m) for s, m in zip(seats.tolist(), movers.tolist()))

    def _decoded(self, numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(scores by seat, movers) of these numbers (`numbers` undone)."""
        rest, movers = np.divmod(numbers, self.players)
        return radix_digits(rest, self.base, self.players), movers

    def in_table_order(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """(rows, scores by seat, movers) of every position in the race tables' order (score
        sum, then the scores seat by seat, then the mover), a score sum at a time, as the level
        engine's index gives them (RaceValues.in_table_order): the rows are in order of number,
        which is that of the scores and then the mover, so a stable sort by score sum is the
        tables' order. A race of tens of millions of positions never becomes Python tuples."""
        step = 1 << 20  # positions decoded at a time (tens of MB)
        sums = np.concatenate([np.empty(0, dtype=np.int64), *(
            self._decoded(self.numbers[start:start + step])[0].sum(axis=1)
            for start in range(0, len(self.numbers), step))])
        order = np.argsort(sums, kind="stable")
        bounds = np.searchsorted(sums[order], np.arange(int(sums.max(initial=0)) + 2))
        for start, end in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            if end > start:
                rows = order[start:end]
                yield (rows, *self._decoded(self.numbers[rows]))

    def __len__(self) -> int:
        return len(self.numbers)

    def values(self) -> Iterator[int]:  # type: ignore[override]
        """The rows, in the order of the positions `iter` gives."""
        return iter(range(len(self.numbers)))


def write(values: RaceValues, file: Path, made: dict) -> int:
    """Write the solved race's values (every metric at every position, and the mixes) as a
    shipped file; `made` says which solve made them (date, commit). Returns the file's bytes."""
    from solver.tables import atomic_file

    race = values.race
    mixed = np.ascontiguousarray(values.mixed, dtype="<f8")
    # The head gives every stream's length, so the streams go to a body file as they are made
    # and are copied behind the head: never all of them in memory (4 players to 60: 3.8 GB).
    with tempfile.TemporaryFile(dir=file.parent) as body:
        lengths = [body.write(data) for data in _streams(values, len(race.held), mixed)]
        about = {"key": race_key(race, values.engine), "base": len(race.held),
                 "metrics": race.metrics, "mixed": list(mixed.shape), "block": BLOCK,
                 "solve": {"engine": values.engine, "residual": values.residual,
                           "iterations": values.iterations, "components": values.components,
                           **made},
                 "streams": lengths}
        head = MAGIC + json.dumps(about, sort_keys=True).encode() + b"\n"
        body.seek(0)
        with atomic_file(file) as handle:
            handle.write(head)
            shutil.copyfileobj(body, handle, 1 << 24)
    return len(head) + sum(lengths)


def _streams(values: RaceValues, base: int, mixed: np.ndarray) -> Iterator[bytes]:
    """The file's zlib streams, one at a time: the positions' numbers, the mixes, the blocks'
    planes. The values sit whole in memory only here (4 players to 60: 5.5 GB)."""
    keys, rows = _sorted_rows(values, base)
    table = values.rows(rows).T  # (metrics, positions): each level of a checkpoint read once
    yield zlib.compress(np.diff(keys, prepend=0).astype("<i8").tobytes(), LEVEL)
    del keys, rows
    yield zlib.compress(mixed.tobytes(), LEVEL)
    for start in range(0, table.shape[1], BLOCK):
        for plane in _planes(table[:, start:start + BLOCK]):
            yield zlib.compress(plane.tobytes(), LEVEL)


def _sorted_rows(values: RaceValues, base: int) -> tuple[np.ndarray, np.ndarray]:
    """(numbers, rows of the table) of every position, by increasing number. The level
    engine's index (levels.PositionIndex) gives its positions as arrays, a chunk at a time: a
    race of tens of millions of positions never becomes a list of Python tuples."""
    from solver.engine.levels import CHUNK
    from solver.games.dalek.levels import PositionIndex

    if isinstance(values.index, PositionIndex):
        rows = np.flatnonzero(values.index.reachable)
        keys = np.empty(len(rows), dtype=np.int64)
        for start in range(0, len(rows), CHUNK):
            scores, movers = values.index.game.decode(rows[start:start + CHUNK])
            keys[start:start + len(movers)] = numbers(scores, movers, base)
    else:
        positions, rows = values.stored()
        keys = numbers(positions[:, :-1], positions[:, -1], base)
    order = np.argsort(keys, kind="stable")
    return keys[order], rows[order]


def _planes(block: np.ndarray) -> np.ndarray:
    """The eight byte planes of a block of float64 metrics (metrics, rows), metric by metric:
    plane b holds byte b of every value."""
    return np.ascontiguousarray(block, dtype="<f8").view(np.uint8).reshape(-1, 8).T


class ShippedTable:
    """The values of a shipped file (a column per position, in `ShippedIndex` order), read as
    RaceValues reads a table it does not hold whole (`take`, as levels.StoredValues): each block
    unpacked from the file the first time one of its positions is read, and kept."""

    def __init__(self, body: memoryview, streams: list[tuple[int, int]], positions: int,
                 metrics: int, block: int) -> None:
        self.body, self.streams, self.block = body, streams, block
        self.positions, self.metrics = positions, metrics
        self.blocks: dict[int, np.ndarray] = {}  # unpacked: block number -> (metrics, rows)

    def _unpacked(self, number: int) -> np.ndarray:
        if number not in self.blocks:
            rows = min(self.block, self.positions - number * self.block)
            planes = np.empty((self.metrics * rows, 8), dtype=np.uint8)
            for byte, (start, end) in enumerate(self.streams[8 * number:8 * number + 8]):
                planes[:, byte] = np.frombuffer(zlib.decompress(self.body[start:end]), np.uint8)
            self.blocks[number] = planes.view("<f8").reshape(self.metrics, rows).astype(
                np.float64)
        return self.blocks[number]

    def take(self, rows: np.ndarray) -> np.ndarray:
        """(metrics, rows): the values of these positions (rows of the index), each block they
        reach unpacked once."""
        rows = np.asarray(rows, dtype=np.int64)
        found = np.empty((self.metrics, len(rows)))
        order = np.argsort(rows // self.block, kind="stable")  # the rows block by block
        blocks, starts = np.unique(rows[order] // self.block, return_index=True)
        for number, chosen in zip(blocks.tolist(), np.split(order, starts[1:])):
            found[:, chosen] = self._unpacked(number)[:, rows[chosen] - number * self.block]
        return found


def read(race: DalekRace, engine: str) -> RaceValues | None:
    """The shipped values of exactly this race on this engine, or None (none shipped, or its
    key differs in anything: rules, tie rule, turn graph, engine). The file is mapped, not
    read: only the blocks of values a query reads are unpacked."""
    try:
        with path(race.players, race.target).open("rb") as handle:
            about = _shipped_about(handle, race, engine)
            return None if about is None else _values(handle, about, race)
    except OSError:
        return None


def load(file: Path, race: DalekRace, engine: str) -> RaceValues:
    """The values of a race file (`write` outside the package) for exactly this race on this
    engine; anything else is refused in one line (InputError) that says what differs."""
    try:
        with file.open("rb") as handle:
            about = _about(handle.readline(), handle.readline(2**20))
            if about is None:
                raise InputError(f"{file} is not a race file of dice-solver (dice-solver dalek "
                                 "race-file writes them)")
            wanted = race_key(race, engine)
            if about["key"] != wanted:
                raise InputError(f"{file} holds the values of another race "
                                 f"({_difference(about['key'], wanted)})")
            values = _checked_values(handle, about, race, file)
    except OSError as error:
        raise InputError(f"cannot read race file {file}: {error.strerror or error}") from None
    assert values.shipped is not None  # `_values` says which solve made them
    values.shipped["file"] = str(file)
    return values


def _checked_values(handle, about: dict, race: DalekRace, file: Path) -> RaceValues:
    """`_values` of a file that is whole (its streams fill it to its last byte), or refused."""
    try:
        if handle.tell() + sum(about["streams"]) != file.stat().st_size:
            raise ValueError("cut short or added to")
        return _values(handle, about, race)
    except (ValueError, KeyError, TypeError, zlib.error) as error:
        raise InputError(f"race file {file} is damaged ({error}): write it again") from None


def _difference(stored: dict, wanted: dict) -> str:
    """The first field of a race's key that differs, as a person reads it."""
    for name in sorted(set(stored) | set(wanted)):
        if stored.get(name) != wanted.get(name):
            return f"{name} {_shown(name, stored.get(name))}, not " \
                   f"{_shown(name, wanted.get(name))}"
    return "the same key"  # not reached: the keys differ


def _shown(name: str, value: object) -> str:
    """A key's field as a person reads it: the cyclic engine's key names no engine."""
    text = ("cyclic" if name == "engine" else "none") if value is None else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _values(handle, about: dict, race: DalekRace) -> RaceValues:
    """The RaceValues of an open file whose header `about` was read: mapped, its keys and
    mixes unpacked, its blocks of values unpacked when first read."""
    body = memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))
    first = handle.tell()
    ends = (first + np.cumsum(about["streams"])).tolist()
    streams = [(end - length, end) for length, end in zip(about["streams"], ends)]
    unpack = [zlib.decompress(body[start:end]) for start, end in streams[:2]]
    keys = np.cumsum(np.frombuffer(unpack[0], dtype="<i8"))
    mixed = np.frombuffer(unpack[1], dtype="<f8").reshape(about["mixed"])
    solve = about["solve"]
    table = ShippedTable(body, streams[2:], len(keys), about["metrics"], about["block"])
    return RaceValues(race, ShippedIndex(keys, race.players, about["base"]), table,
                      residual=solve["residual"], iterations=solve["iterations"],
                      components=solve["components"], cached=True, engine=solve["engine"],
                      mixed=mixed.astype(np.float64), shipped={k: solve[k] for k in ("date",
                                                                                     "commit")})


def has(race: DalekRace, engine: str) -> bool:
    """A shipped file answers exactly this race (its header read, not its values)."""
    try:
        with path(race.players, race.target).open("rb") as handle:
            return _shipped_about(handle, race, engine) is not None
    except OSError:
        return False


def _shipped_about(handle, race: DalekRace, engine: str) -> dict | None:
    """The header of an open shipped file where it answers exactly this race, else None."""
    about = _about(handle.readline(), handle.readline())
    return about if about is not None and about["key"] == race_key(race, engine) else None


def _about(magic: bytes, line: bytes) -> dict | None:
    """A values file's header (its first two lines), or None if it is not one."""
    if magic != MAGIC:
        return None
    try:
        about = json.loads(line)
    except ValueError:
        return None
    return about if isinstance(about, dict) and isinstance(about.get("key"), dict) else None
