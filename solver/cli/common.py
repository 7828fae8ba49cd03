"""Shared pieces of the command line: output for people and for machines, parameter types."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from fractions import Fraction

import click


def emit(data: dict, text: str, as_json: bool) -> None:
    """Print JSON (machines) or the readable text (people)."""
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(text.rstrip("\n"))


def exact_text(value: Fraction) -> str:
    """A fraction as "p/q" (or "p" when whole), the form `--exact` output uses."""
    return str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain text table: numbers right-aligned, text left-aligned."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = [all(_is_number(r[i]) for r in cells) and bool(cells) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if n else v.ljust(w)
                         for v, w, n in zip(values, widths, numeric)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])


def _is_number(text: str) -> bool:
    try:
        float(text.replace("/", "e0+0*") if "/" in text else text)
    except ValueError:
        return False
    return True


class FractionType(click.ParamType):
    """A probability written exactly ("1/3") or as a decimal ("0.5"), kept as a Fraction."""

    name = "fraction"

    def convert(self, value, param, ctx):
        if isinstance(value, Fraction):
            return value
        try:
            result = Fraction(str(value).strip())
        except (ValueError, ZeroDivisionError):
            self.fail(f"{value!r} is not a number such as 1/3 or 0.5", param, ctx)
        if not 0 <= result <= 1:
            self.fail(f"{value} is not a probability between 0 and 1", param, ctx)
        return result


def fail(message: str) -> None:
    """The one line a user sees for bad input, then exit status 2."""
    click.echo(f"dice-solver: error: {message}", err=True)
    sys.exit(2)
