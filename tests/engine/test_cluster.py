"""The level engine on Ray (solver/engine/levels/cluster.py) gives the bits of one process:
Dalek Dice with 2 and 3 players and Strike with 3, on a local 2-worker Ray instance started once
for the module; a driver checkpointing through Ray and SIGKILLed part-way resumes (on Ray or
here) to the same bits; a worker SIGKILLed during a level costs its task a retry, not the solve;
a command's --ray reaches no later solve. The expected bits are those of the single-process
solve, computed in the test."""

from __future__ import annotations

import io
import os
import shutil
import signal
import sys
import threading
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
from helpers import every_value, invoke, kill_part_way, run_cli

from solver.checkpoint import Checkpoint
from solver.cli import main
from solver.engine import levels
from solver.engine.levels import cluster, driver
from solver.errors import InputError
from solver.games.dalek.files import parse_rules
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.turn import compile_turn
from solver.games.strike.levels import LevelStrike
from solver.games.strike.model import Strike

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'dice-solver[cluster]'")

CHUNK = 48  # positions per chunk at most: levels split into several tasks


@pytest.fixture(scope="module")
def address() -> str:
    """A local Ray instance of 2 worker CPUs for the module; its address."""
    context = ray.init(address="local", num_cpus=2, include_dashboard=False,
                       log_to_driver=False, logging_level="ERROR")
    yield context.address_info["gcs_address"]
    ray.shutdown()


@pytest.fixture
def small_chunks(monkeypatch) -> None:
    monkeypatch.setattr(driver, "CHUNK", CHUNK)  # where a level is cut into chunks


def race(players: int, target: int, dice: int) -> LevelRace:
    return LevelRace(DalekRace(compile_turn(parse_rules(dice=dice)), players, target))


def same_bits(a: levels.LevelSolution, b: levels.LevelSolution) -> None:
    """Values, reachable positions, mixes and per-level statistics (but time) alike, bit for
    bit."""
    assert every_value(a.values).tobytes() == every_value(b.values).tobytes()
    assert np.array_equal(a.reachable, b.reachable)
    assert len(a.mixed) == len(b.mixed)
    for (pa, ma), (pb, mb) in zip(a.mixed, b.mixed):
        assert np.array_equal(pa, pb) and ma.policies.tobytes() == mb.policies.tobytes()
    untimed = [[{**asdict(s), "seconds": 0} for s in x.levels] for x in (a, b)]
    assert untimed[0] == untimed[1]


@pytest.mark.parametrize("players, target, dice", [(2, 12, 4), (3, 8, 4)])
def test_dalek_race_on_ray_has_the_bits_of_one_process(address, small_chunks, players, target,
                                                        dice) -> None:
    here = levels.solve(race(players, target, dice))
    runner = cluster.RayRunner()
    there = levels.solve(race(players, target, dice), runner=runner)
    same_bits(here, there)
    assert max(entry["tasks"] for entry in runner.log) > 1  # levels were split
    assert sum(entry["positions"] for entry in runner.log) == int(here.reachable.sum())


def test_strike_on_ray_has_the_bits_of_one_process(address) -> None:
    game = Strike(3, 4)
    same_bits(levels.solve(LevelStrike(game)),
              levels.solve(LevelStrike(game), runner=cluster.RayRunner()))


DRIVER = """
import logging, sys, time
from pathlib import Path
import ray
from solver.checkpoint import Checkpoint
from solver.engine import levels
from solver.engine.levels import cluster, driver
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.files import parse_rules
from solver.games.dalek.turn import compile_turn
driver.CHUNK = {chunk}
ray.init(address="{address}", logging_level=logging.ERROR, log_to_driver=False)
game = LevelRace(DalekRace(compile_turn(parse_rules(dice=4)), 3, 8))
levels.solve(game, store=Checkpoint(Path(sys.argv[1]), {parameters}), runner=cluster.RayRunner(),
             progress=lambda status: time.sleep(0.05))
"""


def test_a_driver_killed_on_ray_resumes_to_the_same_bits(address, small_chunks,
                                                         tmp_path) -> None:
    """The driver (a child joined to the module's instance) is SIGKILLed once 4 levels are
    stored; its checkpoint resumes on Ray and in one process."""
    parameters = {"race": "3p8-4"}
    folder = tmp_path / "ray"
    done = kill_part_way(DRIVER.format(chunk=CHUNK, address=address, parameters=parameters),
                         folder, 4)
    assert 4 <= done < race(3, 8, 4).levels  # killed part-way
    shutil.copytree(folder, tmp_path / "here")
    whole = levels.solve(race(3, 8, 4))
    for name, runner in (("ray", cluster.RayRunner()), ("here", None)):
        resumed = levels.solve(race(3, 8, 4), store=Checkpoint(tmp_path / name, parameters),
                               runner=runner)
        assert resumed.resumed == done
        same_bits(resumed, whole)


def dying(game: LevelRace, marker: Path | None):
    """The game, but a worker that reads successors SIGKILLs itself: only the first (which
    leaves `marker`), or every one without a marker."""
    driver = os.getpid()

    class Dying:
        def __init__(self, game) -> None:
            self.game = game

        def __getattr__(self, name: str):
            if name == "game":
                raise AttributeError(name)
            return getattr(self.game, name)

        def successors(self, positions):
            if os.getpid() != driver and not (marker and marker.exists()):
                if marker:
                    marker.touch()
                os.kill(os.getpid(), signal.SIGKILL)
            return self.game.successors(positions)

    return Dying(game)


def test_a_worker_killed_during_a_level_costs_a_retry_not_the_solve(address, small_chunks,
                                                                    tmp_path) -> None:
    marker = tmp_path / "killed"
    there = levels.solve(dying(race(3, 8, 4), marker), runner=cluster.RayRunner())
    assert marker.exists()  # a worker did die
    assert there.values.tobytes() == levels.solve(race(3, 8, 4)).values.tobytes()


def test_a_chunk_whose_workers_always_die_stops_the_solve_in_one_line(address) -> None:
    with pytest.raises(InputError, match=f"after {cluster.RETRIES} retries.*run again") as error:
        levels.solve(dying(race(2, 5, 3), None), runner=cluster.RayRunner())
    assert len(str(error.value).splitlines()) == 1


@pytest.mark.parametrize("where, words", [("127.0.0.1:1", "no Ray head answers there"),
                                          ("nowhere", "give auto, or the host:port")])
def test_an_address_without_a_ray_head_is_refused_at_once(where, words) -> None:
    done = run_cli("dalek", "game", "--players", "3", "--target", "5", "--dice", "3",
                   "--no-cache", "--ray", where)  # a child: this process has joined Ray
    assert done.returncode == 2 and words in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_command_line_joins_a_cluster_with_the_same_answer(address, monkeypatch) -> None:
    """--ray runs the command's solve on Ray and no later one: the same command without it, in
    the same process, solves here."""
    args = ["dalek", "game", "--players", "3", "--target", "8", "--dice", "4", "--json",
            "--quiet", "--no-cache"]
    here, solve_here = [], driver.in_process
    monkeypatch.setattr(driver, "in_process", lambda *a: here.append(a) or solve_here(*a))
    there = invoke(*args, "--ray", address)
    assert not here  # every level went to Ray
    assert invoke(*args, "--engine", "levels")["seats"] == there["seats"]
    assert here  # the runner --ray chose did not outlive its command


@pytest.mark.parametrize("args, words", [
    (["--ray", "auto", "--engine", "cyclic"], "drop --engine cyclic"),
    (["--ray", "auto", "--exact"], "drop --exact"),
    (["--workers", "2"], "add --ray auto"),
    (["--ray", "127.0.0.1:1", "--workers", "2"], "ray start --num-cpus"),
])
def test_what_ray_cannot_do_is_refused_in_one_line(args, words, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["dalek", "game", "--players", "3", "--target", "5", "--dice", "3", *args])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_without_ray_the_option_says_how_to_install_it(monkeypatch, capsys) -> None:
    real = cluster.importlib.util.find_spec
    monkeypatch.setattr(cluster.importlib.util, "find_spec",
                        lambda name, *rest: None if name == "ray" else real(name, *rest))
    with pytest.raises(SystemExit) as stop:
        main(["strike", "game", "--players", "3", "--ray", "auto"])
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and err.endswith("pip install 'dice-solver[cluster]'")
    assert len(err.splitlines()) == 1



def test_what_other_threads_print_goes_to_standard_error(monkeypatch) -> None:
    """Ray's driver prints the cluster's messages from its own threads, a raylet's death to
    standard output, and again from the main thread at exit: once a runner has started, those
    lines go to standard error and the answer alone to standard output."""
    answer, errors = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", errors)
    out = cluster.AnswerOnly(answer)
    noise = threading.Thread(target=print, args=("(raylet) Raylet is terminated.",),
                             kwargs={"file": out})
    noise.start()
    noise.join()
    print('{"seats": []}', file=out)
    out.close_answer()  # at exit, before Ray's shutdown prints the news again
    print("(raylet) Raylet is terminated.", file=out)
    assert answer.getvalue() == '{"seats": []}\n'
    assert errors.getvalue() == "(raylet) Raylet is terminated.\n" * 2


def test_ray_auto_joins_the_cluster_of_a_ray_job(monkeypatch) -> None:
    """Inside `ray job submit` Ray sets RAY_ADDRESS: --ray auto joins that cluster (ray.init's
    "auto") instead of starting an instance of its own; elsewhere it starts one here, of
    --workers CPUs, which a joined cluster refuses (its nodes say how many they give)."""
    class Asked(Exception):
        pass

    asked = []

    def init(address, **options):
        asked.append((address, options.get("num_cpus")))
        raise Asked

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with pytest.raises(Asked):
        cluster.RayRunner("auto", workers=2).start()
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.5:6379")
    with pytest.raises(Asked):
        cluster.RayRunner("auto").start()
    assert asked == [("local", 2), ("auto", None)]
    with pytest.raises(InputError, match="RAY_ADDRESS names the cluster"):
        cluster.RayRunner("auto", workers=2)
