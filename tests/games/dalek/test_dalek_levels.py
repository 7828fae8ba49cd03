"""The Dalek Dice race on the level engine against race.py and the cyclic engine: the numbering
gives race.py's positions, successors, payoffs and similar positions; both engines give the same
values to 1e-12 at 2, 3 and 4 players; a solve killed part-way resumes to the same bits."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from helpers import every_value, kill_part_way, run_cli

from solver.checkpoint import Checkpoint
from solver.engine import levels
from solver.engine.cyclic import Terminal, explore
from solver.engine.levels import driver
from solver.errors import InputError
from solver.games.dalek.files import parse_rules
from solver.games.dalek.levels import LevelRace, check, estimate, level_sizes, solve_levels
from solver.games.dalek.race import DalekRace
from solver.games.dalek.racesolve import solve_race
from solver.games.dalek.turn import compile_turn
from solver.progress import Progress

CASES = [(2, 12, 4), (3, 8, 4), (4, 6, 3), (2, 9, 10)]


def race_of(players: int, target: int, dice: int, tie_value: Fraction | None = None
            ) -> DalekRace:
    return DalekRace(compile_turn(parse_rules(dice=dice)), players, target, tie_value)


@pytest.mark.parametrize("players, target, dice", CASES)
def test_numbering_plays_race_py(players: int, target: int, dice: int) -> None:
    """Every position the cyclic engine explores has a number in its level that reads back to
    it, and the numbers' successors, payoffs, movers and similar positions are race.py's."""
    race = race_of(players, target, dice)
    game = LevelRace(race)
    graph = explore(race, race.start())
    numbers = np.array([game.encode(np.array([s]), np.array([m]))[0]
                        for s, m in graph.positions])
    assert (numbers >= 0).all() and len(set(numbers.tolist())) == graph.size
    scores, movers = game.decode(numbers)
    assert [(tuple(s), m) for s, m in zip(scores.tolist(), movers.tolist())] == graph.positions
    in_levels = np.concatenate([game.positions(level) for level in range(game.levels)])
    assert np.isin(numbers, in_levels).all() and len(np.unique(in_levels)) == len(in_levels)
    assert numbers[0] == game.start()
    assert (game.objective(numbers) == graph.objective).all()
    successors, terminals = game.successors(numbers), game.terminals()
    for k, position in enumerate(graph.positions):
        for r, following in enumerate(race.successors(position)):
            if isinstance(following, Terminal):
                assert successors[k, r] < 0
                row = terminals[-1 - successors[k, r]]
                assert row.tolist() == [float(v) for v in following.values]
            else:
                assert successors[k, r] == numbers[graph.index[following]]
    similar = game.similar(numbers)
    for k, position in enumerate(graph.positions):
        expected = [numbers[graph.index[p]] if p in graph.index else None
                    for p in race.similar(position)]
        for got, want in zip(similar[k].tolist(), expected):
            assert got == want or (want is None and (got < 0 or got not in numbers))


@pytest.mark.parametrize("players, target, dice", CASES)
def test_levels_agree_with_the_cyclic_engine(players: int, target: int, dice: int) -> None:
    race = race_of(players, target, dice)
    cyclic = solve_race(race, use_cache=False)
    dense = solve_levels(race)
    assert len(dense.index) == len(cyclic.index)
    for position in cyclic.index:
        assert dense.values(position) == pytest.approx(cyclic.values(position), abs=1e-12)
    assert dense.residual <= 1e-12 and cyclic.residual <= 1e-12
    assert dense.components == cyclic.components
    # the objective is a share of the win: the seats' shares add up to 1 everywhere
    shares = dense.table[:, :players][np.flatnonzero(dense.index.reachable)]
    assert np.allclose(shares.sum(axis=1), 1, atol=1e-12)


def test_a_level_split_for_many_workers_has_the_same_bits(monkeypatch) -> None:
    """A runner of many CPUs gets each level in more, smaller chunks: no value moves."""
    game = LevelRace(race_of(3, 10, 4))
    sizes: list[int] = []

    class Wide:
        cpus = 8

        def __call__(self, game, level, shards, tasks, eager, tolerance):
            tasks = list(tasks)
            sizes.extend(len(task.positions) for task in tasks)
            return levels.in_process(game, level, shards, tasks, eager, tolerance)

    monkeypatch.setattr(driver, "SMALLEST", 4)  # where chunk_size reads it
    split = levels.solve(game, runner=Wide())
    whole = levels.solve(game)
    assert sum(sizes) == whole.total.positions
    assert len(sizes) > 2 * len(whole.levels)  # levels did split
    assert split.values.tobytes() == whole.values.tobytes()


def test_a_tie_value_is_played_the_same_way() -> None:
    race = race_of(3, 7, 4, Fraction(1, 2))
    cyclic, dense = solve_race(race, use_cache=False), solve_levels(race)
    for position in cyclic.index:
        assert dense.values(position) == pytest.approx(cyclic.values(position), abs=1e-12)


def test_values_answer_as_the_cyclic_values_do() -> None:
    race = race_of(3, 8, 4)
    cyclic, dense = solve_race(race, use_cache=False), solve_levels(race)
    start = race.start()
    for got, want in zip(dense.chances(start), cyclic.chances(start)):
        assert got == pytest.approx(want, abs=1e-12)
    position = ((2, 0, 4), 1)
    assert dense.utilities(position) == pytest.approx(cyclic.utilities(position), abs=1e-12)
    assert ((1, 0, 0), 0) not in dense.index  # no turn scores 1
    assert ((9, 3, 0), 2) not in dense.index  # not canonical: seat 2 trails seat 1
    with pytest.raises(InputError, match="no game reaches"):
        dense.row(((9, 3, 0), 2))


# ---- checkpoints --------------------------------------------------------------------------------
SLOW_SOLVE = """
import sys, time
from solver.games.dalek.levels import solve_levels
from solver.games.dalek.race import DalekRace
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import compile_turn
from solver.progress import Progress
lines = Progress("race", quiet=True)
def slowly(status):
    lines(status)
    time.sleep(0.05)
race = DalekRace(compile_turn(parse_rules(dice=4)), 3, 10)
solve_levels(race, sys.argv[1], progress=slowly)
"""


def test_a_killed_solve_resumes_to_the_same_bits(tmp_path, monkeypatch) -> None:
    """A solve killed part-way resumes to the same bits, and is estimated on the levels it has
    left: a budget that refuses the whole race lets its rest run; a refusal says how many
    levels are left."""
    folder = tmp_path / "checkpoint"
    race = race_of(3, 10, 4)
    game = LevelRace(race)
    done = kill_part_way(SLOW_SOLVE, folder, 8)
    assert 8 <= done < game.levels  # killed part-way
    finished = Checkpoint(folder, game.parameters()).finished()
    left, all_levels = estimate(game, finished)[0], estimate(game)[0]
    assert 0 < left < all_levels
    monkeypatch.setenv("DICE_SOLVER_BUDGET", str((left + all_levels) / 2))
    with pytest.raises(InputError, match=r"3-player race to 10 would take about"):
        check(game)
    monkeypatch.setenv("DICE_SOLVER_BUDGET", str(left / 2))
    with pytest.raises(InputError, match=rf"\({game.levels - len(finished)} of its "
                                         rf"{game.levels} levels left\) would take about"):
        check(game, finished=finished)
    monkeypatch.setenv("DICE_SOLVER_BUDGET", str((left + all_levels) / 2))
    said = []
    resumed = solve_levels(race, folder, progress=lambda status: said.append(status))
    assert said[0].resumed_levels >= done and said[-1].levels_done == game.levels
    whole = solve_levels(race, force=True)  # the whole race is over the budget
    assert np.array_equal(every_value(resumed.table).T, whole.table, equal_nan=True)
    assert (resumed.residual, resumed.components) == (whole.residual, whole.components)


def test_a_checkpointed_solve_reads_its_values_level_by_level(tmp_path) -> None:
    """With a checkpoint the answer holds no (metrics x size) array: its values are the
    checkpoint's levels, read when asked for (one position: one level read), and every
    position's bits are those of a solve in memory."""
    race = race_of(3, 12, 6)
    game = LevelRace(race)
    memory = solve_levels(race)
    stored = solve_levels(race, tmp_path)
    assert isinstance(memory.table, np.ndarray) and not isinstance(stored.table, np.ndarray)
    assert stored.table.loads == 0
    assert stored.values(race.start()).tobytes() == memory.values(race.start()).tobytes()
    assert stored.table.loads == 1
    position = sorted(memory.index)[len(memory.index) // 2]  # mid-game
    assert stored.utilities(position).tobytes() == memory.utilities(position).tobytes()
    numbers = np.arange(game.size)
    assert stored.rows(numbers).tobytes() == memory.rows(numbers).tobytes()
    assert stored.table.loads < 3 * game.levels  # levels read, a few kept at a time
    assert (stored.residual, stored.components) == (memory.residual, memory.components)


def test_the_checkpoint_is_the_stored_solve(tmp_path, monkeypatch) -> None:
    """A solve with a checkpoint puts nothing in the disk cache (no copy of its values): the
    same request with the same checkpoint reads every level back, solving none."""
    from solver import cache
    from solver.engine.solving import Solving
    from solver.games.dalek.racesolve import cache_key

    monkeypatch.setenv("DICE_SOLVER_CACHE", str(tmp_path / "cache"))
    race = race_of(3, 8, 4)
    how = Solving("levels", tmp_path / "run")
    first = solve_race(race, solving=how)
    assert cache.load(cache_key(race, "levels")) is None
    said = []
    second = solve_race(race_of(3, 8, 4), solving=how, progress=said.append)
    levels_in_all = LevelRace(race).levels
    assert said[0].resumed_levels == levels_in_all == said[-1].levels_done
    assert second.values(race.start()).tobytes() == first.values(race.start()).tobytes()
    monkeypatch.setenv("DICE_SOLVER_BUDGET", "1e-9")  # reading it back is no solve to refuse
    with pytest.raises(InputError, match="--force"):
        solve_race(race_of(3, 8, 4), solving=Solving("levels", tmp_path / "other"))
    assert not (tmp_path / "other").exists()  # a refused solve leaves no checkpoint behind
    third = solve_race(race_of(3, 8, 4), solving=how)
    assert third.values(race.start()).tobytes() == first.values(race.start()).tobytes()


@pytest.mark.parametrize("players, target, dice", [(3, 8, 4), (4, 6, 3)])
def test_the_level_index_gives_the_tables_order(players, target, dice) -> None:
    """Score sum by score sum, the final round's positions merged in, the level engine's
    index lists the positions as the tables sort them (score sum, scores, mover)."""
    race = race_of(players, target, dice)
    values = solve_levels(race)
    listed = [position for scores, movers, _ in values.in_table_order()
              for position in zip(map(tuple, scores.tolist()), movers.tolist())]
    assert listed == sorted(values.index, key=lambda p: (sum(p[0]), p[0], p[1]))


def test_a_checkpoint_of_another_race_is_refused(tmp_path) -> None:
    solve_levels(race_of(2, 5, 3), tmp_path)
    with pytest.raises(InputError, match=r"other parameters \(players 2 there, 3 here\)"):
        solve_levels(race_of(3, 5, 3), tmp_path)


def test_resuming_is_said_even_when_quiet(tmp_path, capsys) -> None:
    race = race_of(2, 5, 3)
    solve_levels(race, tmp_path)
    solve_levels(race, tmp_path, progress=Progress("race", quiet=True))
    assert capsys.readouterr().err == (f"race: resuming after {LevelRace(race).levels} of "
                                       f"{LevelRace(race).levels} levels read from the "
                                       f"checkpoint\n")


@pytest.mark.parametrize("players, target, dice", [(3, 8, 4), (4, 6, 3)])
def test_the_estimate_counts_each_levels_numbers(players, target, dice) -> None:
    """level_sizes, counted by convolution, are the numbers each level lists, and the estimate
    of a solve with every level finished is nothing."""
    race = race_of(players, target, dice)
    game = LevelRace(race)
    sizes = [len(game.positions(level)) for level in range(game.levels)]
    assert level_sizes(players, target, game.results).tolist() == sizes
    assert sum(sizes) == game.size
    assert estimate(game, range(game.levels))[0] == 0.0 < estimate(game)[0]


def test_limits_refuse_what_the_budget_does_not_cover(monkeypatch) -> None:
    monkeypatch.setenv("DICE_SOLVER_BUDGET", "10")
    with pytest.raises(InputError, match=r"3-player race to 60 would take about .*--force"):
        check(LevelRace(race_of(3, 60, 10)))
    check(LevelRace(race_of(3, 60, 10)), force=True)
    check(LevelRace(race_of(2, 20, 10)))


# parts of a race: positions before the final round (every mover's part is the same), one a
# seat's score no game gives one point above (11: 12 is held, 13 is not, with 4 dice), and one
# in the final round (seat 1 has reached the target)
PARTS = [((3, 14, 4), [((2, 5, 4), 1), ((9, 4, 11), 0), ((13, 13, 13), 1), ((16, 8, 10), 1)]),
         ((4, 10, 3), [((2, 4, 0, 5), 3), ((6, 5, 7, 2), 1), ((9, 9, 9, 9), 2),
                       ((12, 2, 4, 0), 1)])]


@pytest.mark.parametrize("rules, positions", PARTS)
def test_a_part_of_the_race_has_the_whole_solves_values(rules, positions) -> None:
    """The part of the race from a position, solved alone: every position it holds is one of
    the whole race's, it holds the position and every position a turn leads to from it, it is
    smaller than the whole race, and its values are the whole solve's to the bit (the part
    holds the positions the whole solve takes its first guesses from, so policy iteration
    takes the same path: where a 3-player race has several equilibria another path can end
    in another one)."""
    race = race_of(*rules)
    whole = levels.solve(LevelRace(race))
    for scores, seat in positions:
        position = race.check_position(scores, seat)
        game = LevelRace(race, position)
        part = levels.solve(game)
        inside = part.reachable
        assert not (inside & ~whole.reachable).any()
        assert inside[game.encode(np.array([position[0]]), np.array([position[1]]))[0]]
        successors = game.successors(np.flatnonzero(inside))[:, game.turn.possible]
        assert inside[successors[successors >= 0]].all()
        assert 0 < inside.sum() < whole.reachable.sum()
        assert np.array_equal(part.values[:, inside], whole.values[:, inside])


def test_a_position_is_answered_from_its_part_where_the_race_is_over_the_budget(tmp_path
                                                                               ) -> None:
    """`dalek game --scores` where the whole race is estimated past the time budget (about 20 s
    against 5): only the part from the position is solved (about 1 s), and the words say so;
    its answer is the whole solve's to the bit (the whole race solved with the budget
    lifted), and read back from the cache under the part's own key."""
    ask = ("dalek", "game", "--players", "3", "--target", "14", "--dice", "4", "--scores",
           "9,4,11", "--seat", "1", "--quiet")
    small = {"DICE_SOLVER_CACHE": str(tmp_path), "DICE_SOLVER_BUDGET": "5"}
    first = run_cli(*ask, "--json", env=small)
    assert first.returncode == 0, first.stderr
    part = json.loads(first.stdout)
    assert part["part"] == [9, 4, 11] and not part["timings"]["cached"]
    text = run_cli(*ask, env=small)
    assert text.returncode == 0, text.stderr
    assert (f"{part['positions']} positions (only the part of the race from scores 9,4,11: "
            "the whole race is over the time budget)") in text.stdout
    assert "read from the cache" in text.stdout
    lifted = run_cli(*ask, "--json", env={**small, "DICE_SOLVER_BUDGET": "1000"})
    assert lifted.returncode == 0, lifted.stderr
    whole = json.loads(lifted.stdout)
    assert "part" not in whole and whole["positions"] > part["positions"]
    assert whole["seats"] == part["seats"]


# ---- the command line: --engine and --checkpoint --------------------------------------------
RACE3 = ("dalek", "game", "--players", "3", "--target", "8", "--dice", "4", "--quiet", "--json")


def _game(*args: str, cache: str) -> tuple[dict, str]:
    result = run_cli(*args, env={"DICE_SOLVER_CACHE": cache})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


def test_three_players_solve_on_the_level_engine_as_on_the_cyclic_one(tmp_path) -> None:
    auto, _ = _game(*RACE3, cache=str(tmp_path))
    cyclic, _ = _game(*RACE3, "--engine", "cyclic", cache=str(tmp_path))
    assert (auto["engine"], cyclic["engine"]) == ("levels", "cyclic")
    assert auto["positions"] == cyclic["positions"]
    for a, c in zip(auto["seats"], cyclic["seats"]):
        assert abs(a["value"] - c["value"]) < 1e-12 and abs(a["p_win"] - c["p_win"]) < 1e-12
    again, _ = _game(*RACE3, cache=str(tmp_path))  # read back from the cache, same bits
    assert again["timings"]["cached"] and again["seats"] == auto["seats"]


def test_a_level_solve_answers_best_move_as_the_cyclic_one(tmp_path) -> None:
    ask = ("dalek", "best-move", "--roll", "H4 D3 EXT DOC", "--scores", "4,5,2", "--seat", "2",
           "--target", "8", "--dice", "4", "--quiet", "--json")
    levels_move, _ = _game(*ask, cache=str(tmp_path))
    cyclic_move, _ = _game(*ask, "--engine", "cyclic", cache=str(tmp_path))
    assert [o["keep"] for o in levels_move["options"]] == \
        [o["keep"] for o in cyclic_move["options"]]
    for a, c in zip(levels_move["options"], cyclic_move["options"]):
        assert abs(a["value"] - c["value"]) < 1e-12


@pytest.mark.parametrize("args, words", [
    (("--engine", "levels", "--exact"), "float64 only"),
    (("--engine", "cyclic", "--checkpoint", "{tmp}/c"), "--engine levels"),
    (("--engine", "levels", "--checkpoint", "nosuch://bucket/c"), "checkpoint nosuch://bucket/c"),
])
def test_what_an_engine_cannot_do_is_refused_in_one_line(tmp_path, args, words) -> None:
    args = tuple(a.replace("{tmp}", str(tmp_path)) for a in args)
    result = run_cli("dalek", "game", "--target", "6", "--dice", "3", "--players", "3", *args)
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_command_resumes_from_its_checkpoint(tmp_path) -> None:
    folder = tmp_path / "levels"
    args = (*RACE3, "--no-cache", "--checkpoint", str(folder))
    first, _ = _game(*args, cache=str(tmp_path))
    assert (folder / "manifest.json").is_file()
    second, stderr = _game(*args, cache=str(tmp_path))
    assert "resuming after 24 of 24 levels" in stderr
    assert second["seats"] == first["seats"]


def test_the_commands_answer_from_a_checkpoint_as_without(tmp_path) -> None:
    """`dalek game` and `dalek table` with --checkpoint give the numbers and the table bytes
    they give without (the table written a score sum at a time from the checkpoint)."""
    folder = str(tmp_path / "levels")
    plain, _ = _game(*RACE3, cache=str(tmp_path / "a"))
    stored, _ = _game(*RACE3, "--checkpoint", folder, cache=str(tmp_path / "b"))
    assert stored["seats"] == plain["seats"] and stored["positions"] == plain["positions"]
    table = ("dalek", "table", "--players", "3", "--target", "8", "--dice", "4", "--contrast",
             "--quiet", "--json")
    for name, extra in (("plain", ()), ("stored", ("--checkpoint", folder))):
        _game(*table, "--out", str(tmp_path / name), *extra, cache=str(tmp_path / name[0]))
    for file in ("race_positions.csv", "race_positions.json"):
        assert (tmp_path / "stored" / file).read_bytes() == \
            (tmp_path / "plain" / file).read_bytes()


def test_the_command_resumes_from_a_checkpoint_url(tmp_path) -> None:
    """--checkpoint takes a URL on shared storage (fsspec): file:// writes the folder's files."""
    pytest.importorskip("fsspec")
    folder = tmp_path / "levels"
    args = (*RACE3, "--no-cache", "--checkpoint", f"file://{folder}")
    first, _ = _game(*args, cache=str(tmp_path))
    assert (folder / "manifest.json").is_file()
    second, stderr = _game(*args, cache=str(tmp_path))
    assert "resuming after 24 of 24 levels" in stderr
    assert second["seats"] == first["seats"]


def test_each_level_reads_every_level_its_turns_and_guesses_reach() -> None:
    """The race's `reads` covers, level by level, the levels of every successor and similar
    guess of every position (found by the numbering, not by `reads`), and leaves some out."""
    game = LevelRace(race_of(3, 8, 4))
    level_of = np.full(game.size, -1)
    for level in range(game.levels):
        level_of[game.positions(level)] = level
    for level in range(game.levels):
        positions = game.positions(level)
        reached = np.concatenate([game.successors(positions).ravel(),
                                  game.similar(positions).ravel()])
        assert set(level_of[reached[reached >= 0]].tolist()) <= set(game.reads(level))
    assert len(game.reads(0)) < game.levels


def test_a_solve_with_a_store_holds_only_the_levels_still_read(tmp_path) -> None:
    """With a checkpoint, a finished level is let go once no level still to solve reads it
    (the runner sees which are alive); the answer, assembled from the checkpoint at the end,
    has the bits of a solve that kept every level."""
    import weakref

    from solver.checkpoint import Checkpoint

    game = LevelRace(race_of(3, 8, 4))
    seen: list[weakref.ref] = []
    alive: list[int] = []

    def runner(game, level, shards, tasks, eager, tolerance):
        held = {ref().level for ref in seen if ref() is not None}
        assert held <= {k for lower in range(level + 1) for k in game.reads(lower)}
        alive.append(len(held))
        seen.extend(weakref.ref(shard) for shard in shards)
        return levels.in_process(game, level, shards, tasks, eager, tolerance)

    stored = levels.solve(game, store=Checkpoint(tmp_path, {"race": 1}), runner=runner)
    whole = levels.solve(LevelRace(race_of(3, 8, 4)))
    assert every_value(stored.values).tobytes() == whole.values.tobytes()
    assert max(alive) < game.levels - 1  # some levels were let go
