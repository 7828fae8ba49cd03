"""The game-agnostic halves of `simulate` and `verify`: the options every game takes, writing a
run's samples and its summary, and the verdict on a sample file or a decision log. A game's own
`verification` module builds its commands from these (formats and thresholds: docs/verify.md)."""

from __future__ import annotations

import functools
import shlex
import time
from fractions import Fraction

import click
import numpy as np

from solver.commands import InputPath, OutputPath, emit, table
from solver.errors import InputError
from solver.formatting import exact_text
from solver.stats import ALPHA, TESTS

REJECTED = 1  # exit status of a rejected simulator (bad input is 2), for scripts and CI
TEST_NAMES = {"pearson": "Pearson chi-square", "g": "G-test"}


MAX_SAMPLES = 10_000_000  # one run's units: its file and its arrays stay within memory


def run_options(command):
    """How many, which seed, where to: shared by every game. `--json` needs `--out` (the JSON
    describes the file written), which is checked before anything is played."""
    @functools.wraps(command)
    def checked(*args, **kwargs):
        if kwargs.get("as_json") and kwargs.get("out") is None:
            raise InputError("--json describes a run written with --out")
        return command(*args, **kwargs)

    for option in reversed([
        click.option("--n", "count", type=click.IntRange(1, MAX_SAMPLES), required=True,
                     help=f"How many turns (or games, with --duel) to play (at most "
                          f"{MAX_SAMPLES:,})."),
        click.option("--seed", type=click.IntRange(0, 2**63 - 1), required=True,
                     help="Seed of the PCG64 generator: the same seed gives the same file."),
        click.option("--out", type=OutputPath(), default=None,
                     help="CSV file to write (default: standard output)."),
    ]):
        checked = option(checked)
    return checked


def check_options(command):
    """What to check and how strictly: shared by every game."""
    for option in reversed([
        click.option("--samples", type=InputPath(), default=None,
                     help="A simulator's sample file (CSV, gzip or not; - for standard input; "
                          "docs/verify.md). Without --samples and --decisions: print the exact "
                          "distribution a simulator must match."),
        click.option("--decisions", type=InputPath(), default=None,
                     help="A decision log (CSV of positions and moves): each move's regret "
                          "against optimal play."),
        click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
                     default=ALPHA, show_default=True, callback=_a_number,
                     help="Significance level of the verdict (the false-alarm rate)."),
        click.option("--test", type=click.Choice(sorted(TESTS)), default="pearson",
                     show_default=True, help="Pearson's chi-square or the G-test."),
        click.option("--top", type=click.IntRange(0), default=5, show_default=True,
                     help="How many of the most deviating outcomes (or worst moves) to list."),
    ]):
        command = option(command)
    return command


def _a_number(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if value != value:  # NaN passes every range check
        raise click.BadParameter("nan is not a number", ctx, param)
    return value


def timed(simulator, *args, **options):
    """A simulator's result and the seconds it took (playing only: no solve, no writing)."""
    clock = time.perf_counter()
    result = simulator(*args, **options)
    return result, time.perf_counter() - clock


def finish_run(out: str | None, comment: str, header: list[str], columns: list, summary: dict,
            as_json: bool) -> None:
    """Write the samples (to the file, or to standard output), then the run's summary."""
    from solver.samples import sample_text, write_samples

    text = sample_text(comment, header, zip(*columns))
    if out is None:
        click.echo(text, nl=False)
        return
    write_samples(out, text)
    summary["out"] = out
    summary["timings"] = {"total": summary.pop("seconds"), "cached": False}
    text = (f"wrote {summary['samples']} {summary['unit']}s to {out} (seed {summary['seed']}, "
            f"played in {summary['timings']['total']:.1f} s)")
    if "mean" in summary:
        name = "success rate" if summary["unit"] == "adventure" else "mean score"
        text += f"; {name} {summary['mean']:.6f}"
    if "wins" in summary:
        text += "; " + ", ".join(f"seat {s + 1} won {w}" for s, w in enumerate(summary["wins"]))
        text += f", ties {summary['ties']}" if "ties" in summary else ""
    if "decisions" in summary:
        text += f"; {summary['decisions']} moves logged"
    emit(summary, text, as_json)


def run_command(game: str, **options) -> str:
    """The command that makes the file again, for its first line."""
    words = []
    for name, value in options.items():
        flag = f"--{name.replace('_', '-')}"
        if value is True:
            words.append(flag)
        elif isinstance(value, tuple):  # a repeatable option
            words += [f"{flag} {shlex.quote(v)}" for v in value]
        elif value is not None:
            words.append(f"{flag} {shlex.quote(str(value))}")
    return f"dice-solver simulate {game} " + " ".join(words)


def no_samples(samples: str | None) -> None:
    if samples is not None:
        raise InputError("give --samples or --decisions, not both")


def score_verdict(title: str, exact: list[Fraction], scores: list[int], samples: str | None,
                  alpha: float, test: str, top: int, as_json: bool) -> None:
    """Turn scores: `scores` are what the game can produce at all, `exact[s]` the policy's
    probability of score s (the list stops at its highest possible score)."""
    padded = exact + [Fraction(0)] * (max(scores) + 1 - len(exact))
    outcome_verdict(title, "score", [str(s) for s in scores], [padded[s] for s in scores], scores,
                    samples, alpha, test, top, as_json)


def winner_verdict(title: str, seats: list[dict], samples: str | None, alpha: float, test: str,
                   top: int, as_json: bool) -> None:
    """Winners of two-seat games: seat 1, seat 2, or a tie for first (a category with
    probability 0, as in Pig, is simply never expected). The chances are exact where the seats
    carry `p_win_exact`, else float64."""
    exact = [Fraction(seats[0].get("p_win_exact", seats[0]["p_win"])),
             Fraction(seats[1].get("p_win_exact", seats[1]["p_win"])),
             Fraction(seats[0].get("p_tie_exact", seats[0]["p_tie"]))]
    outcome_verdict(title, "winner", ["1", "2", "tie"], exact, None, samples, alpha, test, top,
                    as_json, exact_known="p_win_exact" in seats[0])


def outcome_verdict(title: str, column: str, labels: list[str], exact: list[Fraction],
                    values: list[int] | None, samples: str | None, alpha: float, test: str,
                    top: int, as_json: bool, read=None, exact_known: bool = True) -> None:
    """The verdict on a sample file, or without one the distribution it must follow.
    `read(path)` gives the samples' outcomes as indices into `labels` (by default the one
    column named `column`). `exact_known`: the probabilities are exact (shown as p/q);
    otherwise they are float64 values held as fractions, and no exact form is shown."""
    from solver.samples import read_outcomes
    from solver.stats import goodness_of_fit

    if samples is None:
        shown = [(label, p) for label, p in zip(labels, exact) if p]
        data = {"title": title, "outcome": column,
                "distribution": {label: float(p) for label, p in shown}}
        headers = [column, "probability"] + (["exact"] if exact_known else [])
        rows = [(label, f"{float(p):.12f}", *([exact_text(p)] if exact_known else []))
                for label, p in shown]
        if exact_known:
            data["distribution_exact"] = {label: exact_text(p) for label, p in shown}
        kind = "exact" if exact_known else "float64"
        lines = [f"{title}: the {kind} distribution a simulator must match", "",
                 table(headers, rows)]
        if values is not None:
            mean = sum((v * p for v, p in zip(values, exact)), Fraction(0))
            data["mean"] = float(mean)
            if exact_known:
                data["mean_exact"] = exact_text(mean)
            lines.insert(1, f"mean {float(mean):.12f}" +
                         (f" = {exact_text(mean)}" if exact_known else ""))
        emit(data, "\n".join(lines), as_json)
        return
    index = read_outcomes(samples, column, labels) if read is None else read(samples)
    counts = np.bincount(index, minlength=len(labels))
    report = goodness_of_fit(labels, exact, counts, alpha, test, top, values)
    report.update(title=title, samples_file=samples, outcome=column)
    emit(_jsonable(report), _verdict_text(title, samples, column, report), as_json)
    if report["verdict"] == "rejected":
        click.get_current_context().exit(REJECTED)


def _verdict_text(title: str, samples: str, column: str, report: dict) -> str:
    lines = [f"{title}: {report['samples']} samples from {samples}"]
    level = f"alpha {report['alpha']:g}"
    if report.get("never"):
        shown = ", ".join(f"{column} {o['outcome']} ({o['observed']} times)"
                          for o in report["never"])
        lines.append(f"verdict: REJECTED: this play never produces {shown}")
    else:
        word = "REJECTED" if report["verdict"] == "rejected" else "consistent with the exact " \
                                                                   "distribution"
        lines.append(f"verdict: {word} ({TEST_NAMES[report['test']]} {report['statistic']:.2f} "
                     f"on {report['dof']} degrees of freedom, p = {report['p_value']:.3g}, "
                     f"{level})")
        pooled = ", ".join(report["pooled"]) or "none"
        lines.append(f"{report['bins']} bins; outcomes expected fewer than "
                     f"{report['min_expected']:g} times pooled into one: {pooled}")
    mean = report.get("mean")
    if mean is not None:
        where = "inside" if mean["inside"] else "OUTSIDE"
        lines.append(f"mean: exact {mean['expected']:.6f}, sample {mean['sample']:.6f}, "
                     f"{100 * mean['confidence']:g}% interval [{mean['low']:.6f}, "
                     f"{mean['high']:.6f}]: exact mean {where} (z = {mean['z']:.2f})")
    if report["deviations"]:
        rows = [(d["outcome"], d["observed"], f"{d['expected']:.1f}", f"{d['z']:.2f}")
                for d in report["deviations"]]
        lines += ["", "most deviating outcomes:",
                  table([column, "observed", "expected", "z"], rows)]
    return "\n".join(lines)


def regret_report(title: str, unit: str, regrets: np.ndarray, turns: list[str] | None,
                   describe, top: int, as_json: bool) -> None:
    """Totals of a decision log's regrets and its worst moves."""
    from solver.stats import regret_summary

    data = {"title": title, "unit": unit, **regret_summary(regrets, turns, describe, top)}
    lines = [title,
             f"{data['moves']} moves, {data['optimal_moves']} optimal; total regret "
             f"{data['total_regret']:.6f} ({unit}), {data['mean_regret_per_move']:.6f} per move"]
    if "turns" in data:
        lines.append(f"{data['turns']} turns: {data['mean_regret_per_turn']:.6f} per turn")
    if data["worst"]:
        keys = [k for k in data["worst"][0] if k != "regret"]
        rows = [[w[k] for k in keys] + [f"{w['regret']:.6f}"] for w in data["worst"]]
        lines += ["", "worst moves:", table([*keys, "regret"], rows)]
    emit(data, "\n".join(lines), as_json)


def _jsonable(value):
    """Infinite numbers (a statistic when the play never produces an outcome seen) as null,
    which JSON has instead."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return None if isinstance(value, float) and np.isinf(value) else value
