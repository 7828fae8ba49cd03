"""A verdict as one self-contained HTML page a reviewer reads: the verdict, each statistic's
test, observed against expected counts drawn as inline SVG (no script, no outside asset), and the
diagnosis. Knows no game."""

from __future__ import annotations

import html
import math

import numpy as np

from solver.outcomes import Outcomes, counts_of
from solver.verdicts import usable

WIDTH, HEIGHT, MOST_BARS = 720, 180, 120  # a plot's size; values beyond MOST_BARS are merged


def write_page(path: str, outcomes: Outcomes, report: dict, sample: dict | None) -> None:
    """Write the page for `report` (a fixed-sample or sequential verdict) to `path`."""
    from solver.samples import write_samples

    write_samples(path, page(outcomes, report, sample))


def page(outcomes: Outcomes, report: dict, sample: dict | None) -> str:
    word = "REJECTED" if report["verdict"] == "rejected" else "not rejected"
    parts = [f"<h1>{_e(outcomes.title)}</h1>",
             f"<p class='verdict {report['verdict']}'>Verdict: <b>{word}</b> at alpha "
             f"{report['alpha']:g}, {report['samples']} samples ({_method(report)}).</p>"]
    if "diagnosis" in report:
        parts.append(f"<p class='diagnosis'>Diagnosis: {_e(report['diagnosis']['best'])}</p>")
        rows = "".join(f"<tr><td>{_e(r['alternative'])}</td><td>{_number(r['log_lr'])}</td></tr>"
                       for r in report["diagnosis"]["ranked"])
        parts.append(f"<table><tr><th>alternative</th><th>log LR</th></tr>{rows}</table>")
    parts.append(_statistics_table(report))
    if sample is not None:
        for t in usable(outcomes, set(sample)):
            codes, counts = counts_of(t.codes, t.statistic.value(sample))
            expected = np.concatenate([t.p, np.zeros(len(codes) - len(t.codes))])
            expected *= int(counts.sum())
            labels = [t.statistic.label(int(c)) for c in codes]
            parts.append(f"<h2>{_e(t.statistic.name)}</h2>" + svg(labels, counts, expected))
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{_e(outcomes.title)}</title><style>{STYLE}</style></head><body>"
            + "\n".join(parts) + "</body></html>\n")


STYLE = ("body{font-family:sans-serif;max-width:760px;margin:2em auto;color:#222}"
         "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 8px;"
         "text-align:right}.rejected b{color:#b00}.consistent b{color:#070}"
         "svg{background:#fafafa}.legend{font-size:80%}")


def _method(report: dict) -> str:
    if report.get("method") == "sequential":
        return (f"anytime-valid sequential test, e-value {_number(report['log_e'], log=True)}"
                f" against 1/alpha = {report['threshold']:g}")
    if report.get("method") == "holm":
        return "each statistic's chi-square test, Holm's method over all of them"
    return "chi-square goodness of fit"


def _statistics_table(report: dict) -> str:
    if report.get("method") == "sequential":
        rows = "".join(f"<tr><td>{_e(s['name'])}</td><td>{s['bins']}</td>"
                       f"<td>{_number(s['log_e'], log=True)}</td></tr>"
                       for s in report["statistics"])
        return f"<table><tr><th>statistic</th><th>bins</th><th>e-value</th></tr>{rows}</table>"
    statistics = report["statistics"] if "statistics" in report else [
        {**report, "name": report["outcome"], "p_holm": report["p_value"]}]
    rows = "".join(f"<tr><td>{_e(s['name'])}</td><td>{_number(s['statistic'])}</td>"
                   f"<td>{s['dof'] if s['dof'] is not None else '-'}</td>"
                   f"<td>{s['p_value']:.3g}</td><td>{s['p_holm']:.3g}</td>"
                   f"<td>{s['verdict']}</td></tr>" for s in statistics)
    return ("<table><tr><th>statistic</th><th>chi-square</th><th>dof</th><th>p</th>"
            f"<th>adjusted p</th><th>verdict</th></tr>{rows}</table>")


def svg(labels: list[str], observed: np.ndarray, expected: np.ndarray) -> str:
    """Bars of observed counts (filled) and expected counts (outlined), one per value."""
    if len(labels) > MOST_BARS:  # merge neighbours so every bar stays visible
        size = math.ceil(len(labels) / MOST_BARS)
        labels = [f"{labels[i]}.." for i in range(0, len(labels), size)]
        observed = np.add.reduceat(observed, np.arange(0, len(observed), size))
        expected = np.add.reduceat(expected, np.arange(0, len(expected), size))
    top = max(float(np.max(observed, initial=0)), float(np.max(expected, initial=0)), 1.0)
    step = WIDTH / max(len(labels), 1)
    bars = []
    for i, (label, o, e) in enumerate(zip(labels, observed.tolist(), expected.tolist())):
        x = i * step
        h_o, h_e = HEIGHT * o / top, HEIGHT * e / top
        bars.append(f"<rect x='{x + step * 0.15:.1f}' y='{HEIGHT - h_o:.1f}' "
                    f"width='{step * 0.7:.1f}' height='{h_o:.1f}' fill='#6a9fd4'>"
                    f"<title>{_e(label)}: observed {o}, expected {e:.1f}</title></rect>")
        bars.append(f"<rect x='{x + step * 0.05:.1f}' y='{HEIGHT - h_e:.1f}' "
                    f"width='{step * 0.9:.1f}' height='{h_e:.1f}' fill='none' "
                    f"stroke='#d2691e'/>")
    ticks = "".join(f"<text x='{i * step + step / 2:.1f}' y='{HEIGHT + 14}' font-size='10' "
                    f"text-anchor='middle'>{_e(label)}</text>"
                    for i, label in enumerate(labels) if i % max(1, len(labels) // 12) == 0)
    return (f"<svg width='{WIDTH}' height='{HEIGHT + 20}' xmlns='http://www.w3.org/2000/svg'>"
            + "".join(bars) + ticks + "</svg><p class='legend'>filled: observed counts; "
            "outlined: expected counts under the declared rules</p>")


def _number(value: float | None, log: bool = False) -> str:
    if value is None or (isinstance(value, float) and math.isinf(value)):
        return "inf" if value is None or value > 0 else "-inf"
    if log:
        return f"e^{value:.1f}" if value > 30 else f"{math.exp(value):.4g}"
    return f"{value:.2f}"


def _e(text: str) -> str:
    return html.escape(str(text))
