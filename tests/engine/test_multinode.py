"""The level engine on a real multi-node Ray cluster on this machine (`ray.cluster_utils.Cluster`:
a head and 2 worker nodes, each its own raylet and object store, 1 CPU each, on loopback): the
bits of one process (Dalek Dice, 3 players to 16 and 4 to 8: 6 dice in CI, 10 marked slow);
each node's object store taking in each level at most once, measured from Ray; a worker node
removed in the middle of a level; a driver SIGKILLed part-way and resumed on the cluster; and a
command's --json answer intact on standard output while a worker node dies. The expected bits
are those of the single-process solve, computed here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from helpers import ROOT, every_value, kill_part_way
from test_cluster import DRIVER, race, same_bits

from solver.checkpoint import Checkpoint
from solver.engine import levels
from solver.engine.levels import cluster as runners
from solver.engine.levels import driver

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'dice-solver[cluster]'")

WORKERS = 2  # worker nodes beside the head
STORE = 80 * 2**20  # bytes of each node's object store: small, as a node's share of the machine
ON_LOOPBACK = ("from ray._private import services\n"  # a child joins by loopback too
               f"services.node_ip_address_from_perspective = lambda *a: {runners.LOOPBACK!r}\n")


@pytest.fixture(scope="module")
def nodes():
    """A head and WORKERS worker nodes, each its own raylet and object store, every address on
    loopback; the driver (this process) joined to it."""
    try:
        with runners.nodes_here(WORKERS, STORE) as cluster:
            yield cluster
    except Exception as error:  # what kept Ray from starting: the reason to skip, said once
        pytest.skip(f"Ray cannot start several nodes here: {runners._first_line(error)}")


def workers(cluster) -> list:
    """The nodes but the driver's (where what it puts lies): those a test may kill."""
    here = ray.get_runtime_context().get_node_id()
    return [node for node in cluster.list_all_nodes() if node.node_id != here]


class Here:
    """One process, levels cut into chunks as for a runner of `cpus` CPUs (`driver.chunk_size`):
    the chunks the cluster solves, so that the per-level statistics (passes counted per chunk)
    compare too."""

    def __init__(self, cpus: int) -> None:
        self.cpus = cpus

    def __call__(self, *args):
        return levels.in_process(*args)


def same_answer(a: levels.LevelSolution, b: levels.LevelSolution) -> None:
    """Values, reachable positions and mixes alike, bit for bit (a solve whose CPUs changed
    part-way cut its levels otherwise, which moves the passes counted, not a value)."""
    assert every_value(a.values).tobytes() == every_value(b.values).tobytes()
    assert np.array_equal(a.reachable, b.reachable)
    assert [(p.tolist(), m.policies.tobytes()) for p, m in a.mixed] == \
        [(p.tolist(), m.policies.tobytes()) for p, m in b.mixed]


SLOW = pytest.mark.slow


@pytest.mark.parametrize("players, target, dice", [
    (3, 16, 6), (4, 8, 6), pytest.param(3, 16, 10, marks=SLOW), pytest.param(4, 8, 10, marks=SLOW)])
def test_a_multinode_cluster_gives_the_bits_of_one_process(nodes, players, target, dice) -> None:
    runner = runners.RayRunner()
    there = levels.solve(race(players, target, dice), runner=runner)
    same_bits(levels.solve(race(players, target, dice), runner=Here(WORKERS + 1)), there)
    assert len({len(entry["stores"]) for entry in runner.log}) == 1  # every node, every level
    assert len(runner.log[0]["stores"]) == WORKERS + 1


def test_each_node_takes_in_each_level_at_most_once(nodes) -> None:
    """Ray's own count of the bytes created in each worker node's object store, over the solve:
    at most every level put once, the game, the results its tasks stored there (those over
    Ray's inline limit; all results bound them) and Ray's few hundred bytes of metadata an
    object, where the whole-array design pulled every position's values at every level."""
    pytest.importorskip("grpc", reason="grpcio (the cluster extra) reads the nodes' stores")
    game = race(3, 16, 6)
    runner = runners.RayRunner()
    levels.solve(game, runner=runner)
    put = sum(entry["put"] for entry in runner.log)
    returned = sum(entry["returned"] for entry in runner.log)
    objects = game.levels + 1
    game_bytes = len(ray.cloudpickle.dumps(game))
    whole = game.size * (8 * game.metrics + 1)  # values and states: what every level put before
    stores = {node: sum(entry["stores"].get(node, 0) for entry in runner.log)
              for node in runner.log[-1]["stores"]}
    head = ray.get_runtime_context().get_node_id()  # the driver's node
    pulled = [total for node, total in stores.items() if node != head]
    assert len(pulled) == WORKERS and max(pulled) > 0  # the workers did pull levels
    assert max(pulled) <= put + game_bytes + returned + 1024 * objects
    assert stores[head] >= put  # what the driver put lies in the head's store
    assert max(pulled) < whole * game.levels / 10


def test_a_worker_node_removed_during_a_level_changes_no_bit(nodes) -> None:
    """The node is SIGKILLed (its raylet and workers) once half the positions are solved; its
    tasks run again on the nodes left, from the levels the driver's node holds."""
    game = race(4, 8, 6)
    victim = workers(nodes)[0]
    removed = []

    def remove(status: levels.Status) -> None:
        if not removed and status.positions_done >= status.positions // 2:
            nodes.remove_node(victim, allow_graceful=False)
            removed.append(status.levels_done)

    try:
        there = levels.solve(game, runner=runners.RayRunner(), progress=remove)
    finally:
        if victim not in workers(nodes):
            nodes.add_node(**runners.node_args(STORE))
            nodes.wait_for_nodes()
    assert removed and 0 < removed[0] < game.levels  # it died part-way
    same_answer(levels.solve(race(4, 8, 6)), there)


def test_a_driver_killed_resumes_on_the_cluster_to_the_same_bits(nodes, tmp_path,
                                                                 monkeypatch) -> None:
    """A driver (a child joined to the cluster) is SIGKILLed once 4 levels are checkpointed;
    a new driver resumes from its checkpoint on the same cluster."""
    chunk = 48
    monkeypatch.setattr(driver, "CHUNK", chunk)
    parameters = {"race": "3p8-4"}
    done = kill_part_way(ON_LOOPBACK + DRIVER.format(chunk=chunk, address=nodes.address,
                                                     parameters=parameters), tmp_path, 4)
    assert 4 <= done < race(3, 8, 4).levels
    resumed = levels.solve(race(3, 8, 4), store=Checkpoint(tmp_path, parameters),
                           runner=runners.RayRunner())
    assert resumed.resumed == done
    same_bits(resumed, levels.solve(race(3, 8, 4)))  # levels of at most CHUNK: cut alike


@pytest.mark.parametrize("dice", [6, pytest.param(10, marks=pytest.mark.slow)])
def test_a_node_dying_under_a_command_leaves_its_json_intact(nodes, dice) -> None:
    """`dalek game --json --ray ADDRESS` while a worker node is SIGKILLed: standard output is
    the answer alone (Ray's own lines about the dead raylet go to standard error), and it is
    the answer of one process."""
    args = ["dalek", "game", "--players", "3", "--target", "16", "--dice", str(dice), "--json",
            "--no-cache"]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    command = ON_LOOPBACK + "from solver.cli import main\nmain()\n"  # cli.py, on loopback
    child = subprocess.Popen([sys.executable, "-c", command, *args, "--ray", nodes.address],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    victim = workers(nodes)[-1]
    taken = runners.store_bytes().get(victim.node_id, 0)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and \
                runners.store_bytes().get(victim.node_id, 0) == taken:
            time.sleep(0.1)  # until the command's first task there has fetched the game
        assert child.poll() is None  # still solving
        nodes.remove_node(victim, allow_graceful=False)
        out, err = child.communicate(timeout=300)
    finally:
        if child.poll() is None:
            child.kill()
        nodes.add_node(**runners.node_args(STORE))
        nodes.wait_for_nodes()
    assert child.returncode == 0, err
    here = subprocess.run([sys.executable, "cli.py", *args, "--engine", "levels"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert json.loads(out)["seats"] == json.loads(here.stdout)["seats"]
