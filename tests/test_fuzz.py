"""Fuzzing every command of the registry, as a careless user or a script would call it.

Each example is a real process (`python cli.py ...`) with generated options: values near the
game's own examples and defaults, out of range, huge, empty, malformed, and generated files
(valid samples, near-valid, garbage, binary, empty, huge lines, a byte order mark, CRLF, gzip or
not). Whatever the input: the exit status is 0, 1 (a verdict that rejects) or 2; a 2 comes with
exactly one line on stderr, `dice-solver: error: ...`; never a traceback; never past the time and
memory limits. Hypothesis is derandomised and its example budget fixed, so CI runs the same
examples every time; DICE_SOLVER_FUZZ=long runs many more locally.
"""

from __future__ import annotations

import gzip
import os
import resource
import subprocess
import sys
from pathlib import Path

import click
import pytest
from helpers import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cli import cli
from solver.cli.jsonref import leaves
from solver.games import registry

LONG = os.environ.get("DICE_SOLVER_FUZZ") == "long"
EXAMPLES = 40 if LONG else 4  # per command
BUDGET = 10  # seconds a solve may be estimated to take before it is refused (exit 2)
SECONDS = 60  # one run's limit: well above the budget, so a run past it is an estimate gone wrong
MEMORY = 4 << 30  # address space of one run (numba's compiler reserves a good part of it)
GARBAGE = ["", " ", "x", "-1", "0", "1", "2", "3", "1.5", "1/3", "-1/2", "1/0", "nan", "inf",
           "1e309", "99999999999999999999", "2x", "x2", ",", ",,", "1,2", "a=b", ";", "é",
           "\x7f", "🎲", "--json", "H4 H4 H4 H4 H4 H4 H4 H4 H4 H4 H4 H4", "DOC EXT"]


def known_values(option: click.Option) -> list[str]:
    """Values the games' own examples give an option (so generated requests are often
    near-valid, not only garbage)."""
    values = []
    for game in registry().values():
        for args in vars(game.examples).values():
            values += [args[i + 1] for i in range(len(args) - 1) if args[i] in option.opts]
    return values


def files(directory: Path) -> list[str]:
    """Input files of every kind a command may be handed."""
    made = {
        "empty.csv": b"",
        "header.csv": b"score\n",
        "scores.csv": b"# a comment\nscore\n0\n2\n5\n",
        "crlf.csv": b"score\r\n0\r\n2\r\n",
        "bom.csv": b"\xef\xbb\xbfscore\n0\n",
        "winners.csv": b"winner,score_1,score_2\n1,60,3\n2,12,61\ntie,60,60\n",
        "garbage.csv": bytes(range(256)) * 8,
        "long.csv": b"score\n" + b"7" * 200_000 + b"\n",
        "quoted.csv": b'score,"x\n0,"unterminated\n',
        "scores.csv.gz": gzip.compress(b"score\n0\n2\n", mtime=0),
        "fake.gz": b"score\n0\n",
        "json.json": b'{"dice": {"black": {"faces": {"Running": 7}}}}',
    }
    for name, data in made.items():
        (directory / name).write_bytes(data)
    (directory / "folder").mkdir(exist_ok=True)
    return [str(directory / name) for name in made] + [
        str(directory / "folder"), str(directory / "missing.csv"), "-", "/proc/self/mem"]


def option_values(option: click.Option, inputs: list[str], outputs: list[str]
                  ) -> st.SearchStrategy[str]:
    if isinstance(option.type, click.Choice):
        return st.sampled_from([*option.type.choices, "nope", ""])
    name = type(option.type).__name__
    if name == "InputPath" or option.name in ("die_file", "dice_file"):
        return st.sampled_from(inputs)
    if name == "OutputPath" or isinstance(option.type, click.Path):
        return st.sampled_from(outputs)
    return st.sampled_from(known_values(option) + GARBAGE)


def arguments(command: click.Command, inputs: list[str], outputs: list[str]
              ) -> st.SearchStrategy[list[str]]:
    """Some of the command's options (required ones usually present), each with a value."""
    parts = []
    for option in command.params:
        if not isinstance(option, click.Option) or option.name == "help":
            continue
        flag = option.opts[0]
        if option.is_flag:
            value = st.sampled_from([[], [flag]])
        else:
            value = option_values(option, inputs, outputs).map(lambda v, f=flag: [f, v])
        odds = 0.9 if option.required else 0.35
        parts.append(st.tuples(st.floats(0, 1), value).map(
            lambda pair, o=odds: pair[1] if pair[0] < o else []))
    return st.tuples(*parts).map(lambda chosen: [word for part in chosen for word in part])


def run(args: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    """The command in a subprocess working in `folder`, so that default output paths land in
    a scratch folder, never in the repository."""
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=folder,
                          input="score\n0\n",
                          capture_output=True, text=True, timeout=SECONDS, preexec_fn=limits,
                          env={**os.environ, "DICE_SOLVER_BUDGET": str(BUDGET)})


@pytest.mark.parametrize("path", leaves(), ids=" ".join)
def test_no_input_crashes_a_command(path: tuple[str, ...], tmp_path_factory) -> None:
    directory = tmp_path_factory.mktemp("fuzz")
    inputs = files(directory)
    outputs = [str(directory / "out.csv"), str(directory / "out" / "deeper.csv"), "",
               str(directory / "folder"), "/proc/out.csv", str(directory / "empty.csv" / "x")]
    command = cli
    context = click.Context(cli)
    for name in path:
        command = command.get_command(context, name)
        context = click.Context(command, parent=context)

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(arguments(command, inputs, outputs))
    def check(args: list[str]) -> None:
        try:
            result = run([*path, *args], directory)
        except subprocess.TimeoutExpired:
            pytest.fail(f"took over {SECONDS} s: {' '.join(path)} {args}")
        said = f"{' '.join(path)} {args}: exit {result.returncode}\n{result.stderr[-2000:]}"
        assert result.returncode in (0, 1, 2), said
        assert "Traceback" not in result.stderr, said
        if result.returncode == 2:
            lines = result.stderr.splitlines()
            errors = [line for line in lines if not line.startswith("dice-solver: warning:")]
            assert len(errors) == 1 and errors[0].startswith("dice-solver: error: "), said

    check()
