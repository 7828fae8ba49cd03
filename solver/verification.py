"""The game-agnostic halves of `simulate` and `verify`: the options every game takes, writing a
run's samples and its summary, and the verdict on a sample file or a decision log. A game's own
`verification` module builds its commands from these (formats and thresholds: docs/verify.md)."""

from __future__ import annotations

import functools
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction

import click
import numpy as np

from solver.commands import InputPath, OutputPath, emit, table
from solver.errors import InputError
from solver.formatting import exact_text
from solver.outcomes import Outcomes
from solver.stats import ALPHA, TESTS
from solver.verdicts import usable

REJECTED = 1  # exit status of a rejected simulator (bad input is 2), for scripts and CI
TEST_NAMES = {"pearson": "Pearson chi-square", "g": "G-test"}


MAX_SAMPLES = 10_000_000  # one run's units: its file and its arrays stay within memory


def run_options(command):
    """How many, which seed, where to: shared by every game. `--json` needs `--out` (the JSON
    describes the file written), which is validated before anything is played."""
    @functools.wraps(command)
    def validated(*args, **kwargs):
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
        validated = option(validated)
    return validated


def verify_options(command):
    """What to verify and how strictly: shared by every game."""
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
        *watch_options(),
    ]):
        command = option(command)
    return _bundled(command)


def watch_options() -> list:
    """Judging samples as they come, running a simulator, planning, diagnosing, reporting."""
    return [
        click.option("--sequential", is_flag=True,
                     help="Read the samples as they arrive and stop as soon as the anytime-valid "
                          "test rejects (false alarms at most alpha however often it looks)."),
        click.option("--follow", type=click.FloatRange(0), default=0.0, show_default=True,
                     help="With --sequential: at the end of the file, wait this many seconds "
                          "for it to grow before stopping."),
        click.option("--run", "command", default=None, metavar="CMD",
                     help="Run this simulator in batches ('CMD ... {n} {seed}': {n} samples "
                          "per batch, a fresh {seed} each), reading its CSV on standard output; "
                          "stop when the sequential test rejects or --most is reached."),
        click.option("--batch", type=click.IntRange(1, MAX_SAMPLES), default=1000,
                     show_default=True, help="With --run: samples per batch."),
        click.option("--most", type=click.IntRange(1, MAX_SAMPLES), default=100_000,
                     show_default=True, help="With --run: stop after this many samples."),
        click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True,
                     help="With --run: the first batch's seed (then +1 per batch)."),
        click.option("--timeout", type=click.FloatRange(0, min_open=True), default=600.0,
                     show_default=True, help="With --run: seconds a batch may take."),
        click.option("--plan", is_flag=True,
                     help="How many samples give power 0.99 at alpha against --against, per "
                          "statistic and for the verdict."),
        click.option("--against", default=None, metavar="ALTERNATIVE",
                     help="With --plan: a bug of the game's corpus, a policy (every seat), or a "
                          "rules flag such as '--tie-rule gt'."),
        click.option("--suspect", "suspects", multiple=True, metavar="POLICY",
                     help="A policy to try in the diagnosis of a rejected simulator "
                          "(repeatable)."),
        click.option("--report", type=OutputPath(), default=None, metavar="FILE.html",
                     help="Also write the verdict as one self-contained HTML page: each "
                          "statistic, observed against expected counts plotted, the diagnosis."),
    ]


@dataclass(frozen=True)
class Watch:
    """The options of `watch_options`, as one value a game's verify passes on."""

    sequential: bool = False
    follow: float = 0.0
    command: str | None = None
    batch: int = 1000
    most: int = 100_000
    seed: int = 1
    timeout: float = 600.0
    plan: bool = False
    against: str | None = None
    suspects: tuple[str, ...] = ()
    report: str | None = None


def _bundled(command):
    """The command called with the watch options gathered into `watch` (a `Watch`)."""
    names = [f.name for f in fields(Watch)]

    @functools.wraps(command)
    def bundled(*args, **kwargs):
        return command(*args, watch=Watch(**{n: kwargs.pop(n) for n in names}), **kwargs)

    return bundled


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


def no_samples(samples: str | None, watch: Watch | None = None) -> None:
    """A decision log is read alone: no samples, and none of the options that judge them."""
    if samples is not None:
        raise InputError("give --samples or --decisions, not both")
    if watch is not None and watch != Watch():
        raise InputError("--sequential, --run, --plan, --suspect and --report judge samples, "
                         "not a decision log")


def score_verdict(title: str, exact: list[Fraction], scores: list[int], samples: str | None,
                  alpha: float, test: str, top: int, as_json: bool,
                  judging: Judging | None = None) -> None:
    """Turn scores: `scores` are what the game can produce at all, `exact[s]` the policy's
    probability of score s (the list stops at its highest possible score)."""
    padded = exact + [Fraction(0)] * (max(scores) + 1 - len(exact))
    outcome_verdict(title, "score", [str(s) for s in scores], [padded[s] for s in scores], scores,
                    samples, alpha, test, top, as_json, judging=judging)


def winner_verdict(title: str, seats: list[dict], samples: str | None, alpha: float, test: str,
                   top: int, as_json: bool, judging: Judging | None = None) -> None:
    """Winners of two-seat games: seat 1, seat 2, or a tie for first (a category with
    probability 0, as in Pig, is simply never expected). The chances are exact where the seats
    carry `p_win_exact`, else float64."""
    exact = [Fraction(seats[0].get("p_win_exact", seats[0]["p_win"])),
             Fraction(seats[1].get("p_win_exact", seats[1]["p_win"])),
             Fraction(seats[0].get("p_tie_exact", seats[0]["p_tie"]))]
    outcome_verdict(title, "winner", ["1", "2", "tie"], exact, None, samples, alpha, test, top,
                    as_json, exact_known="p_win_exact" in seats[0], judging=judging)


def outcome_verdict(title: str, column: str, labels: list[str], exact: list[Fraction],
                    values: list[int] | None, samples: str | None, alpha: float, test: str,
                    top: int, as_json: bool, read=None, exact_known: bool = True,
                    judging: Judging | None = None) -> None:
    """The verdict on a sample file, or without one the distribution it must follow.
    `read(path)` gives the samples' outcomes as indices into `labels` (by default the one
    column named `column`). `exact_known`: the probabilities are exact (shown as p/q);
    otherwise they are float64 values held as fractions, and no exact form is shown."""
    from solver.samples import read_outcomes
    from solver.stats import goodness_of_fit

    if judging is not None and judging.takes_over(samples):
        judging.settle(samples, alpha, test, top, as_json)
        return
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
    text = _verdict_text(title, samples, column, report)
    if judging is not None:
        judging.finish_single(report, text, samples, as_json)
        return
    emit(_jsonable(report), text, as_json)
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


# ---- judging a play's outcomes: several statistics, sequential, planned, diagnosed ---------
WINNER_WORDS = {"winner": {"tie": 0, **{str(s): s for s in range(1, 10)}}}


@dataclass
class Alternatives:
    """What a rejected simulator may be doing instead: `known()` every alternative the
    diagnosis ranks (the game's bug corpus, `--suspect` policies, rule variants that exist as
    flags), by name; `named(text)` one alternative a user names with --against."""

    known: Callable[[], dict[str, Outcomes]]
    named: Callable[[str], tuple[str, Outcomes]]


@dataclass
class Judging:
    """A play's exact outcomes (`solver.outcomes.Outcomes`), the watch options and the
    alternatives: what `outcome_verdict` needs beyond the one-statistic verdict."""

    outcomes: Outcomes
    watch: Watch = Watch()
    alternatives: Alternatives | None = None

    def takes_over(self, samples: str | None) -> bool:
        """Plans, sequential tests, runs, and samples that show several statistics go here;
        one statistic of a fixed sample keeps the plain verdict."""
        watch = self.watch
        _refuse_mixed(watch, samples)
        if watch.plan or watch.sequential or watch.command:
            return True
        if samples is None or len(self.outcomes.statistics) < 2:
            return False
        from solver.samples import header_of, read_text

        header = set(header_of(read_text(samples, f"samples file {samples}")))
        return len(usable(self.outcomes, header)) > 1

    def settle(self, samples: str | None, alpha: float, test: str, top: int,
               as_json: bool) -> None:
        if self.watch.plan:
            self._plan(alpha, as_json)
        elif self.watch.sequential or self.watch.command:
            self._sequential(samples, alpha, as_json)
        else:
            self._several(samples, alpha, test, top, as_json)

    def _plan(self, alpha: float, as_json: bool) -> None:
        from solver.verdicts import plan

        if self.alternatives is None:
            raise InputError("this game has no alternatives to plan against")
        name, wrong = self.alternatives.named(self.watch.against)
        data = {"title": self.outcomes.title, "against": name,
                **plan(self.outcomes, wrong, alpha)}
        unit = data["unit"]
        rows = [(s["name"], _size(s["samples"])) for s in data["statistics"]]
        rows.append(("the verdict (Holm, all of them)", _size(data["combined"])))
        text = "\n".join([f"{self.outcomes.title}",
                          f"against {name}: {unit}s for power {data['goal']:g} at alpha "
                          f"{alpha:g}", "", table(["statistic", f"{unit}s"], rows)])
        emit(data, text, as_json)

    def _sequential(self, samples: str | None, alpha: float, as_json: bool) -> None:
        from solver.watch import Monitor, Rows, run_batches, watch_file

        outcomes, watch = self.outcomes, self.watch
        needed = list(outcomes.statistics[0].columns)
        optional = sorted({c for s in outcomes.statistics for c in s.columns} - set(needed))

        def rows(what: str) -> Rows:
            return Rows(what, needed, optional, WINNER_WORDS)

        monitor = Monitor(outcomes, alpha)
        if watch.command is not None:
            stopped, batches = run_batches(monitor, watch.command, rows, watch.batch,
                                           watch.most, watch.seed, watch.timeout)
            source = f"{batches} batches of {watch.command!r}"
        else:
            if samples is None:
                raise InputError("--sequential reads --samples (a file, or - for standard "
                                 "input)")
            stopped = watch_file(monitor, rows(f"samples file {samples}"), samples,
                                 watch.follow)
            source = samples
        report = {"title": outcomes.title, "samples_from": source, **monitor.report(stopped)}
        lines = [f"{outcomes.title}: {report['samples']} {outcomes.unit}s from {source}",
                 _sequential_line(report)]
        rows_ = [(s["name"], s["bins"], _evalue(s["e_value"])) for s in report["statistics"]]
        lines += ["", table(["statistic", "bins", "e-value"], rows_)]
        self._finish(report, lines, monitor.sample() if monitor.samples else None, as_json)

    def _several(self, samples: str, alpha: float, test: str, top: int, as_json: bool) -> None:
        from solver.samples import read_columns
        from solver.verdicts import judge

        outcomes = self.outcomes
        needed = list(outcomes.statistics[0].columns)
        optional = sorted({c for s in outcomes.statistics for c in s.columns} - set(needed))
        sample = read_columns(samples, needed, optional, WINNER_WORDS)
        report = {"title": outcomes.title, "samples_file": samples,
                  **judge(outcomes, sample, alpha, test, top)}
        lines = [f"{outcomes.title}: {report['samples']} samples from {samples}",
                 _holm_line(report), ""]
        rows = [(s["name"], s.get("bins", "-"), _statistic(s), s["dof"] or "-",
                 f"{s['p_value']:.3g}", f"{s['p_holm']:.3g}", s["verdict"])
                for s in report["statistics"]]
        lines.append(table(["statistic", "bins", TEST_NAMES[test], "dof", "p", "Holm p",
                            "verdict"], rows))
        if report["left_out"]:
            lines.append(f"too thin at {report['samples']} samples (not tested): "
                         f"{', '.join(report['left_out'])}")
        for s in report["statistics"]:
            if s["verdict"] == "rejected" and s["deviations"]:
                devs = [(d["outcome"], d["observed"], f"{d['expected']:.1f}", f"{d['z']:.2f}")
                        for d in s["deviations"]]
                lines += ["", f"most deviating ({s['name']}):",
                          table([s["column"], "observed", "expected", "z"], devs)]
        self._finish(report, lines, sample, as_json)

    def finish_single(self, report: dict, text: str, samples: str, as_json: bool) -> None:
        """The one-statistic verdict's ending: its diagnosis and report page too."""
        from solver.samples import read_columns

        sample = None
        if report["verdict"] == "rejected" or self.watch.report is not None:
            needed = list(self.outcomes.statistics[0].columns)
            optional = sorted(set(self.outcomes.columns) - set(needed))
            sample = read_columns(samples, needed, optional, WINNER_WORDS)
        self._finish(report, text.split("\n"), sample, as_json)

    def diagnose(self, sample: dict[str, np.ndarray]) -> dict | None:
        """The alternatives ranked by log likelihood ratio (None without any)."""
        from solver.diagnosis import rank, sentence

        if self.alternatives is None:
            return None
        known = self.alternatives.known()
        if not known:
            return None
        ranked = rank(self.outcomes, known, sample)
        return {"best": sentence(ranked), "ranked": ranked}

    def _finish(self, report: dict, lines: list[str], sample: dict | None, as_json: bool
                ) -> None:
        """The diagnosis of a rejection, the report page, the output and the exit status."""
        if report["verdict"] == "rejected" and sample is not None:
            diagnosis = self.diagnose(sample)
            if diagnosis is not None:
                report["diagnosis"] = diagnosis
                lines.insert(2, f"diagnosis: {diagnosis['best']}")
        if self.watch.report is not None:
            from solver.reportpage import write_page

            write_page(self.watch.report, self.outcomes, report, sample)
        emit(_jsonable(report), "\n".join(lines), as_json)
        if report["verdict"] == "rejected":
            click.get_current_context().exit(REJECTED)


def _refuse_mixed(watch: Watch, samples: str | None) -> None:
    """Options that make no sense together: one clear line, before anything runs."""
    if watch.plan and watch.against is None:
        raise InputError("--plan needs --against (a bug, a policy or a rules flag)")
    if watch.against is not None and not watch.plan:
        raise InputError("--against is for --plan (the diagnosis of a rejection tries every "
                         "known alternative; add policies with --suspect)")
    if watch.plan and (samples is not None or watch.command or watch.sequential):
        raise InputError("--plan reads no samples: it computes how many are needed")
    if watch.command is not None and samples is not None:
        raise InputError("give --run or --samples, not both")
    if watch.follow and not watch.sequential:
        raise InputError("--follow is for --sequential")


def _size(n: int | None) -> str:
    return "more than 1e9" if n is None else f"{n:,}"


def _evalue(value: float | None) -> str:
    return "> 1e304" if value is None else f"{value:.4g}"


def _statistic(report: dict) -> str:
    return "inf" if report["statistic"] == float("inf") else f"{report['statistic']:.2f}"


def _holm_line(report: dict) -> str:
    k = len(report["statistics"])
    best = min(report["statistics"], key=lambda s: s["p_holm"])
    word = "REJECTED" if report["verdict"] == "rejected" else "consistent with the exact " \
                                                               "distribution"
    return (f"verdict: {word} (Holm over {k} statistics at alpha {report['alpha']:g}; smallest "
            f"adjusted p: {best['name']}, {best['p_holm']:.3g})")


def _sequential_line(report: dict) -> str:
    threshold = f"1/alpha = {report['threshold']:g}"
    if report["verdict"] == "rejected":
        return (f"verdict: REJECTED after {report['samples']} samples (e-value "
                f"{_evalue(report['e_value'])} >= {threshold}; anytime-valid, alpha "
                f"{report['alpha']:g})")
    return (f"verdict: not rejected after {report['samples']} samples ({report['stopped']}; "
            f"e-value {_evalue(report['e_value'])}, it rejects at {threshold})")
