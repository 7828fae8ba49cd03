"""The level-by-level engine on toy games it defines here: its turn passes against the turn
graph's own, its values against the cyclic engine and closed forms, its checkpoints and its
progress lines."""

from __future__ import annotations

import io
import json
import sys
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from engine_graphs import layered_graph
from helpers import every_value

from solver.checkpoint import Checkpoint, compare, differences, location
from solver.engine import levels
from solver.engine.cyclic import Terminal, solve
from solver.engine.levels import driver
from solver.engine.local import TurnLocal
from solver.engine.turn import TurnGraph
from solver.errors import InputError
from solver.progress import Progress


# ---- the turn passes --------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rows", [1, 5, 16, 37])
def test_turn_passes_equal_the_turn_graph(seed: int, rows: int) -> None:
    """The same values to the bit and the same play, on one thread or two: the result
    distributions agree to 1e-14 (duplicate nodes merged, their sums run in another order)."""
    graph = layered_graph(results=12, layers=9, width=40, seed=seed)
    root = graph.size - 1
    rng = np.random.default_rng(seed)
    utilities = rng.integers(0, 4, size=(rows, graph.n_results)) / 3  # many exact ties
    best, lazy = graph.respond(utilities, root)
    passes = levels.TurnPasses(graph, root)
    for threads in (1, 2):
        passes.threads = threads
        values, dist = passes.respond(utilities, True)
        assert np.array_equal(values, best)
        assert np.abs(dist - lazy()).max() < 1e-14
        assert np.array_equal(passes.respond(utilities, False)[0], best)


def test_duplicate_nodes_are_merged() -> None:
    """A graph with two copies of each of its nodes under the root is passed as one: half the
    nodes, the same values, distributions equal to 1e-15."""
    graph = TurnGraph(4)
    coins = graph.add_chance([0, 2, 4, 6, 8], [0, 1, 0, 1, 2, 3, 2, 3], [1, 2] * 4, [3] * 4)
    choices = graph.add_choice([0, 2, 4], [coins[0], coins[2], coins[1], coins[3]])
    root = int(graph.add_chance([0, 2], choices, [1, 1], [2])[0])
    passes = levels.TurnPasses(graph, root)
    assert passes.root + 1 == 4 + 2 + 1 + 1  # results, two coins, one choice, the root
    utilities = np.array([[0.0, 1.0, 2.0, 3.0], [3.0, 2.0, 1.0, 0.0]])
    best, lazy = graph.respond(utilities, root)
    values, dist = passes.respond(utilities, True)
    assert np.array_equal(values, best)
    assert np.abs(dist - lazy()).max() < 1e-15


# ---- a toy race ---------------------------------------------------------------------------------
def turn_graph(risky: bool) -> tuple[TurnGraph, int]:
    """A turn whose result is the points scored, 0..3. Without `risky`: a fair coin, 0 or 1
    point. With it, the mover chooses between that coin and a gamble (3 points with
    probability 1/3, else 0)."""
    graph = TurnGraph(4)
    coin = int(graph.add_chance([0, 2], [0, 1], [1, 1], [2])[0])
    if not risky:
        return graph, coin
    gamble = int(graph.add_chance([0, 2], [0, 3], [2, 1], [3])[0])
    return graph, int(graph.add_choice([0, 2], [coin, gamble])[0])


class ToyRace:
    """Players take turns adding the turn's points to their score; the first to reach the
    target wins at once. A turn of 0 points passes the move, so the seats' positions with equal
    scores form a cycle. This is the game as the cyclic engine sees it (positions are tuples);
    `ToyLevels` numbers the same positions for the level engine."""

    def __init__(self, players: int, target: int, risky: bool = True) -> None:
        self.players, self.target = players, target
        self.metrics = players
        self.graph, self.root = turn_graph(risky)
        self.model = TurnLocal(self.graph, self.root)
        self.wins = [Terminal(tuple(Fraction(int(s == w)) for s in range(players)))
                     for w in range(players)]

    def start(self):
        return (0,) * self.players, 0

    def objective(self, position) -> int:
        return position[1]

    def progress(self, position) -> int:
        return sum(position[0])

    def local(self, position) -> TurnLocal:
        return self.model

    def successors(self, position) -> list:
        scores, mover = position
        result = []
        for points in range(self.graph.n_results):
            after = list(scores)
            after[mover] += points
            result.append(self.wins[mover] if after[mover] >= self.target else
                          (tuple(after), (mover + 1) % self.players))
        return result


class ToyLevels:
    """The toy race for the level engine: number = radix(scores) * players + mover, levels the
    score sums, successors read off the cyclic version one position at a time."""

    def __init__(self, race: ToyRace) -> None:
        self.race = race
        self.metrics = race.metrics
        self.turn = levels.TurnPasses(race.graph, race.root)
        self.size = race.players * race.target**race.players
        self.levels = race.players * (race.target - 1) + 1

    def number(self, position) -> int:
        scores, mover = position
        value = 0
        for score in scores:
            value = value * self.race.target + score
        return value * self.race.players + mover

    def position(self, number: int):
        mover, rest = number % self.race.players, number // self.race.players
        scores = []
        for _ in range(self.race.players):
            rest, score = divmod(rest, self.race.target)
            scores.insert(0, score)
        return tuple(scores), mover

    def start(self) -> int:
        return self.number(self.race.start())

    def positions(self, level: int) -> np.ndarray:
        return np.array(sorted(self.number((scores, mover)) for scores in product(
            range(self.race.target), repeat=self.race.players) if sum(scores) == level
            for mover in range(self.race.players)), dtype=np.int64)

    def level_of(self, positions: np.ndarray) -> np.ndarray:
        return np.array([sum(self.position(n)[0]) for n in positions.tolist()], dtype=np.int64)

    def objective(self, positions: np.ndarray) -> np.ndarray:
        return positions % self.race.players

    def successors(self, positions: np.ndarray) -> np.ndarray:
        rows = [[-1 - s.values.index(1) if isinstance(s, Terminal) else self.number(s)
                 for s in self.race.successors(self.position(n))] for n in positions.tolist()]
        return np.array(rows, dtype=np.int64).reshape(len(positions), self.turn.n_results)

    def terminals(self) -> np.ndarray:
        return np.eye(self.race.players)

    def similar(self, positions: np.ndarray) -> np.ndarray:
        return np.full((len(positions), 1), -1, dtype=np.int64)


@pytest.mark.parametrize("players, target", [(2, 6), (3, 4), (4, 3)])
def test_levels_agree_with_the_cyclic_engine(players: int, target: int) -> None:
    race = ToyRace(players, target)
    game = ToyLevels(race)
    cyclic = solve(race)
    solution = levels.solve(game)
    for position, row in zip(cyclic.graph.positions, cyclic.table):
        assert solution.reachable[game.number(position)]
        assert solution.values[:, game.number(position)] == pytest.approx(row, abs=1e-12)
    assert solution.reachable.sum() == cyclic.graph.size
    assert np.isnan(solution.values[:, ~solution.reachable]).all()
    total = solution.total
    assert total.residual <= 1e-12
    assert total.components == cyclic.components
    assert np.allclose(solution.values[:, solution.reachable].sum(axis=0), 1, atol=1e-12)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_coin_race_closed_form(players: int) -> None:
    """Target 1 without the gamble: the seats flip a fair coin in turn until one shows 1.
    Seat k (0-based) wins 2^(n-1-k) / (2^n - 1): a geometric series."""
    solution = levels.solve(ToyLevels(ToyRace(players, 1, risky=False)))
    for seat in range(players):
        assert solution.values[seat, 0] == pytest.approx(2 ** (players - 1 - seat) /
                                                         (2**players - 1), abs=1e-15)


def test_levels_out_of_order_are_refused() -> None:
    class Backwards(ToyLevels):
        def positions(self, level: int) -> np.ndarray:
            return super().positions(self.levels - 1 - level)

    with pytest.raises(ValueError, match="out of order"):
        levels.solve(Backwards(ToyRace(2, 3)))


# ---- checkpoints ---------------------------------------------------------------------------------
class Crash(Exception):
    pass


class Dying(Checkpoint):
    """A checkpoint whose process dies after saving some levels."""

    def __init__(self, folder, parameters, lives: int) -> None:
        super().__init__(folder, parameters)
        self.lives = lives

    def save(self, level, values, stats) -> None:
        if self.lives == 0:
            raise Crash
        self.lives -= 1
        super().save(level, values, stats)


def test_a_resumed_solve_gives_the_same_bits(tmp_path) -> None:
    game = ToyLevels(ToyRace(3, 4))
    whole = levels.solve(game)
    with pytest.raises(Crash):
        levels.solve(game, store=Dying(tmp_path, {"toy": 1}, lives=4))
    lines = io.StringIO()
    resumed = levels.solve(game, store=Checkpoint(tmp_path, {"toy": 1}),
                           progress=Progress("toy", quiet=True, stream=lines))
    assert resumed.resumed == 4
    assert "resuming after 4 of 10 levels" in lines.getvalue()
    assert np.array_equal(whole.values, every_value(resumed.values), equal_nan=True)
    assert resumed.total.components == whole.total.components
    again = levels.solve(game, store=Checkpoint(tmp_path, {"toy": 1}))  # all read back
    assert again.resumed == game.levels
    assert np.array_equal(whole.values, every_value(again.values), equal_nan=True)


def test_a_finished_checkpoint_is_read_back_without_a_sweep(tmp_path, monkeypatch) -> None:
    """The checkpoint keeps which positions are reachable: a solve read back from it sweeps
    nothing; flags damaged are swept again (and kept again), to the same answer."""
    game = ToyLevels(ToyRace(3, 4))
    whole = levels.solve(game, store=Checkpoint(tmp_path, {"toy": 1}))
    expected = every_value(whole.values)

    def no_sweep(game):
        raise AssertionError("swept again")

    with monkeypatch.context() as patch:
        patch.setattr(driver, "reachable", no_sweep)
        again = levels.solve(game, store=Checkpoint(tmp_path, {"toy": 1}))
    assert again.resumed == game.levels
    assert np.array_equal(again.reachable, whole.reachable)
    assert np.array_equal(every_value(again.values), expected, equal_nan=True)
    (tmp_path / "reachable.npz").write_bytes(b"damaged")
    assert Checkpoint(tmp_path, {"toy": 1}).reachable() is None
    swept = levels.solve(game, store=Checkpoint(tmp_path, {"toy": 1}))
    assert np.array_equal(swept.reachable, whole.reachable)
    assert np.array_equal(Checkpoint(tmp_path, {"toy": 1}).reachable(), whole.reachable)


def test_a_damaged_level_is_solved_again(tmp_path) -> None:
    game = ToyLevels(ToyRace(2, 4))
    whole = every_value(levels.solve(game, store=Checkpoint(tmp_path, {"toy": 2})).values)
    (tmp_path / f"level_{game.levels - 3}.npz").write_bytes(b"not a level")
    resumed = levels.solve(game, store=Checkpoint(tmp_path, {"toy": 2}))
    assert resumed.resumed == 2
    assert np.array_equal(whole, every_value(resumed.values), equal_nan=True)


def storage(tmp_path, scheme: str) -> str:
    """A checkpoint's URL on shared storage: fsspec's memory:// stands for an object store (one
    put per file), file:// for a folder every node mounts."""
    pytest.importorskip("fsspec")
    return f"memory://{tmp_path.name}/run" if scheme == "memory" else f"file://{tmp_path}/run"


@pytest.mark.parametrize("scheme", ["memory", "file"])
def test_a_solve_resumed_through_a_url_gives_the_same_bits(tmp_path, scheme) -> None:
    """Interrupted part-way, resumed through the URL: the bits of an uninterrupted solve, and
    level for level the arrays a local folder holds."""
    url, local = storage(tmp_path, scheme), tmp_path / "local"
    game = ToyLevels(ToyRace(3, 4))
    whole = every_value(levels.solve(game, store=Checkpoint(local, {"toy": 1})).values)
    with pytest.raises(Crash):
        levels.solve(game, store=Dying(url, {"toy": 1}, lives=4))
    resumed = levels.solve(game, store=Checkpoint(url, {"toy": 1}))
    assert resumed.resumed == 4
    assert np.array_equal(whole, every_value(resumed.values), equal_nan=True)
    assert compare(local, url) == (list(range(game.levels)), [])
    with pytest.raises(InputError, match=r"other parameters \(toy 1 there, 2 here\)"):
        Checkpoint(url, {"toy": 2})


def test_on_an_object_store_only_levels_with_statistics_and_intact_arrays_are_read(
        tmp_path) -> None:
    """A level's file is put before the manifest that holds its statistics: a file the
    manifest does not list (the driver died between the two puts) or whose bytes are not the
    ones it lists is solved again, to the same bits."""
    import fsspec

    url = storage(tmp_path, "memory")
    game = ToyLevels(ToyRace(2, 4))
    whole = every_value(levels.solve(game, store=Checkpoint(url, {"toy": 2})).values)
    store = fsspec.filesystem("memory")
    root = url.removeprefix("memory://")
    manifest = json.loads(store.cat_file(f"{root}/manifest.json"))
    del manifest["levels"][str(game.levels - 2)]  # put, its statistics not yet
    store.pipe_file(f"{root}/manifest.json", json.dumps(manifest).encode())
    store.pipe_file(f"{root}/level_{game.levels - 3}.npz", b"not a level")
    resumed = levels.solve(game, store=Checkpoint(url, {"toy": 2}))
    assert resumed.resumed == 1
    assert np.array_equal(whole, every_value(resumed.values), equal_nan=True)


def test_storage_that_fails_is_refused_in_one_line(tmp_path, monkeypatch) -> None:
    """A backend's own error (not an OSError: missing credentials, say) names itself."""
    import fsspec

    class NoCredentials(Exception):
        pass

    def refuse(*args, **options):
        raise NoCredentials("Unable to locate credentials")

    monkeypatch.setattr(fsspec.filesystem("memory"), "cat_file", refuse)
    with pytest.raises(InputError, match=r"cannot use checkpoint memory://.*: NoCredentials: "
                                         r"Unable to locate credentials$"):
        Checkpoint(storage(tmp_path, "memory"), {})


def test_a_url_fsspec_cannot_open_is_refused_in_one_line(monkeypatch) -> None:
    pytest.importorskip("fsspec")
    with pytest.raises(InputError, match=r"cannot use checkpoint nosuch://x/run: .*nosuch"):
        location("nosuch://x/run")
    monkeypatch.setitem(sys.modules, "fsspec.core", None)  # the cloud extra not installed
    with pytest.raises(InputError, match=r"s3://b/run needs pip install 'dice-solver\[cloud\]'"):
        Checkpoint("s3://b/run", {})


def test_two_checkpoints_of_one_solve_are_compared_level_by_level(tmp_path) -> None:
    """`compare` (benchmarks/same_bits.py) finds the levels both hold, and a level changed in
    its last bit; checkpoints of other solves, or none, are refused in one line."""
    game = ToyLevels(ToyRace(3, 4))
    whole, part = tmp_path / "whole", tmp_path / "part"
    levels.solve(game, store=Checkpoint(whole, {"toy": 1}))
    with pytest.raises(Crash):
        levels.solve(game, store=Dying(part, {"toy": 1}, lives=4))
    last = game.levels - 1
    assert compare(whole, part) == (list(range(last - 3, last + 1)), [])
    store = Checkpoint(part, {"toy": 1})
    arrays = store.load(last - 1)
    arrays["values"][0, 0] = np.nextafter(arrays["values"][0, 0], 2.0)
    store.save(last - 1, arrays, store.finished()[last - 1])
    assert compare(part, whole) == (list(range(last - 3, last + 1)), [last - 1])
    Checkpoint(tmp_path / "other", {"toy": 2}).save(0, {"values": np.zeros((1, 1))}, {})
    with pytest.raises(InputError, match=r"other parameters \(toy 2 there, 1 here\)"):
        compare(whole, tmp_path / "other")
    with pytest.raises(InputError, match="holds no checkpoint"):
        compare(whole, tmp_path / "nothing")


def test_two_solves_by_other_code_are_compared_by_their_values(tmp_path) -> None:
    """`differences` (benchmarks/same_bits.py --values): two checkpoints whose code differs are
    compared value by value, the largest difference per level (a NaN against a number is
    infinite); `compare` refuses them, and a difference in anything but the code is refused."""
    game = ToyLevels(ToyRace(3, 4))
    before, after = tmp_path / "before", tmp_path / "after"
    levels.solve(game, store=Checkpoint(before, {"toy": 1, "code": "a"}))
    levels.solve(game, store=Checkpoint(after, {"toy": 1, "code": "b"}))
    assert differences(before, after) == {level: 0.0 for level in range(game.levels)}
    store = Checkpoint(after, {"toy": 1, "code": "b"})
    last = game.levels - 1
    arrays = store.load(last)
    solved = np.flatnonzero(~np.isnan(arrays["values"][0]))
    arrays["values"][0, solved[0]] += 2e-9
    arrays["values"][1, solved[-1]] = np.nan
    store.save(last, arrays, store.finished()[last])
    arrays = store.load(last - 1)
    arrays["values"][0, np.flatnonzero(~np.isnan(arrays["values"][0]))[0]] -= 3e-13
    store.save(last - 1, arrays, store.finished()[last - 1])
    found = differences(before, after)
    assert found[last] == float("inf") and found[last - 1] == pytest.approx(3e-13, rel=1e-3)
    assert all(found[level] == 0.0 for level in range(last - 1))
    with pytest.raises(InputError, match="the solver's code has changed since"):
        compare(before, after)
    Checkpoint(tmp_path / "other", {"toy": 2, "code": "c"}).save(0, {"values": np.zeros((1, 1))},
                                                                {})
    with pytest.raises(InputError, match=r"other parameters \(toy 2 there, 1 here\)"):
        differences(before, tmp_path / "other")


def test_a_checkpoint_of_other_parameters_is_refused(tmp_path) -> None:
    Checkpoint(tmp_path, {"players": 3, "code": "a"}).save(0, {"values": np.zeros((1, 1))}, {})
    with pytest.raises(InputError, match=r"other parameters \(players 3 there, 2 here\)"):
        Checkpoint(tmp_path, {"players": 2, "code": "a"})
    with pytest.raises(InputError, match="code has changed"):
        Checkpoint(tmp_path, {"players": 3, "code": "b"})
    (tmp_path / "manifest.json").write_text('{"format": 1, "parameters": {}, "levels": {}}')
    with pytest.raises(InputError, match="written by another version of dice-solver"):
        Checkpoint(tmp_path, {"players": 3, "code": "a"})
    (tmp_path / "manifest.json").write_text("{")
    with pytest.raises(InputError, match="not a checkpoint manifest"):
        Checkpoint(tmp_path, {"players": 3, "code": "a"})


@pytest.mark.parametrize("where, reason", [("file", "is a file, not a folder"),
                                           ("missing/deeper", "does not exist")])
def test_a_checkpoint_folder_that_cannot_be_used_is_refused(tmp_path, where, reason) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(InputError, match=f"cannot use checkpoint folder .*{reason}"):
        Checkpoint(tmp_path / where, {})


def test_a_manifest_that_is_not_one_is_refused(tmp_path) -> None:
    for text in (b"\xff\xfe", b"[]", b'{"format": 1, "parameters": {}, "levels": []}'):
        (tmp_path / "manifest.json").write_bytes(text)
        with pytest.raises(InputError, match="is not a checkpoint manifest"):
            Checkpoint(tmp_path, {})


def test_the_manifest_lists_each_level_with_its_hash(tmp_path) -> None:
    game = ToyLevels(ToyRace(2, 3))
    levels.solve(game, store=Checkpoint(tmp_path, {"toy": 3}))
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["parameters"] == {"toy": 3}
    assert sorted(map(int, manifest["levels"])) == list(range(game.levels))
    assert all(entry["stats"]["residual"] <= 1e-12 for entry in manifest["levels"].values())


def test_a_level_left_out_of_reads_fails_naming_it() -> None:
    """A game whose `reads` leaves out a level its turns reach stops with the level named,
    never reading NaN in its place."""
    class Blind(ToyLevels):
        def reads(self, level: int) -> list[int]:
            return [level]

    with pytest.raises(ValueError, match=r"reads position \d+ of level \d+, which the game's "
                                         r"reads\(\d+\) leaves out"):
        levels.solve(Blind(ToyRace(2, 4)))
