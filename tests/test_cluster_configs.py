"""docs/cluster: the Ray cluster launcher's config (`ray up`) and the KubeRay RayCluster a user
edits parse, hold the fields docs/method.md tells a user to edit, and submit a command this
CLI accepts."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from solver.cli import cli

yaml = pytest.importorskip("yaml")  # a dependency of ray: with the cluster extra

DOCS = Path(__file__).resolve().parent.parent / "docs"


def load(name: str) -> dict:
    return yaml.safe_load((DOCS / "cluster" / name).read_text())


def submitted(name: str) -> list[str]:
    """The dice-solver command after `ray job submit ... --` in a config's comments."""
    text = (DOCS / "cluster" / name).read_text()
    line = re.search(r"^#\s+ray job submit .*? -- (dice-solver .*?)$\n#\s+(.*)$", text, re.M)
    assert line, f"{name} shows no ray job submit"
    return shlex.split(line.group(1).rstrip("\\") + " " + line.group(2))


def test_the_ray_up_config_is_one_the_cluster_launcher_accepts() -> None:
    """Valid against the launcher's own schema (ray-schema.json, shipped with ray); nodes of
    16 CPUs and 64 GiB as the model's; the cluster and cloud extras installed on every node."""
    ray = pytest.importorskip("ray")
    jsonschema = pytest.importorskip("jsonschema")
    config = load("ray-cluster.yaml")
    schema = json.loads((Path(ray.__file__).parent / "autoscaler" / "ray-schema.json")
                        .read_text())
    jsonschema.validate(config, schema)
    assert config["provider"]["type"] == "aws" and config["provider"]["region"]
    types = config["available_node_types"]
    assert config["head_node_type"] in types
    assert {t["node_config"]["InstanceType"] for t in types.values()} == {"m5.4xlarge"}
    assert config["max_workers"] == types["worker"]["max_workers"]
    assert any("[cluster,cloud]" in command for command in config["setup_commands"])


def test_the_kuberay_cluster_names_its_groups_images_and_resources() -> None:
    cluster = load("kuberay.yaml")
    assert (cluster["apiVersion"], cluster["kind"]) == ("ray.io/v1", "RayCluster")
    spec = cluster["spec"]
    pods = [spec["headGroupSpec"]["template"]] + [g["template"] for g in
                                                   spec["workerGroupSpecs"]]
    for pod in pods:
        (container,) = pod["spec"]["containers"]
        assert container["image"]
        assert container["resources"]["limits"] == {"cpu": "16", "memory": "64Gi"}
    (workers,) = spec["workerGroupSpecs"]
    assert workers["replicas"] == workers["minReplicas"] == workers["maxReplicas"]
    image = f"rayproject/ray:{spec['rayVersion']}-"  # the image the comment builds from
    assert image in (DOCS / "cluster" / "kuberay.yaml").read_text()


@pytest.mark.filterwarnings("ignore:'protected_args' is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", ["ray-cluster.yaml", "kuberay.yaml"])
def test_the_submitted_command_is_one_the_cli_accepts(name: str, tmp_path) -> None:
    """Every option read as the CLI reads it (the job's $RAY_ADDRESS, which the job's shell
    expands, stands in as a host:port; the bucket as a file:// URL: no s3fs here)."""
    pytest.importorskip("ray")
    pytest.importorskip("fsspec")
    words = submitted(name)
    assert words[:3] == ["dice-solver", "dalek", "game"]
    assert "--ray" in words and words[words.index("--ray") + 1] == "$RAY_ADDRESS"
    assert words[words.index("--checkpoint") + 1].startswith("s3://")
    args = [{"$RAY_ADDRESS": "127.0.0.1:6379"}.get(word, word) for word in words[1:]]
    args = [f"file://{tmp_path}/p4t60" if word.startswith("s3://") else word for word in args]
    with cli.make_context("dice-solver", args) as context:
        name_, group, rest = cli.resolve_command(context, context.protected_args + context.args)
        with group.make_context(name_, rest, parent=context) as game_context:
            _, command, options = group.resolve_command(
                game_context, game_context.protected_args + game_context.args)
            with command.make_context("game", options, parent=game_context) as leaf:
                assert leaf.meta["dalek.checkpoint"] == f"file://{tmp_path}/p4t60"
                assert leaf.meta["dalek.ray"] == "127.0.0.1:6379"
                assert {"players": 4, "target": 60, "force": True}.items() <= leaf.params.items()
