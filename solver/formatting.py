"""Numbers and tables written for people: exact fractions as "p/q", plain text tables."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def exact_text(value: Fraction) -> str:
    """A fraction as "p/q" (or "p" when whole), the form exact output uses."""
    return str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"


def percent(p: float) -> str:
    """A probability as a percentage with the fewest decimals that keep it off 0% and 100%
    unless it is exactly that."""
    if p in (0, 1):
        return f"{p:.0%}"
    for digits in range(1, 10):
        text = f"{p:.{digits}%}"
        if text not in (f"{0:.{digits}%}", f"{1:.{digits}%}"):
            return text
    return f"{p:.9%}"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain text table: numeric columns right-aligned, text left-aligned."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = [bool(cells) and all(_is_number(r[i]) for r in cells) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if n else v.ljust(w)
                         for v, w, n in zip(values, widths, numeric)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])


def _is_number(text: str) -> bool:
    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        try:
            float(text)
        except ValueError:
            return False
    return True


def seats_text(title: str, names: list[str], seats: list[dict], points: list[str]) -> str:
    """Each seat's policy and chances, as a table."""
    rows = [(s["seat"], name, point, f"{s['p_win']:.10f}", f"{s['p_tie']:.10f}",
             f"{s['value']:.10f}") for s, name, point in zip(seats, names, points)]
    lines = [title, table(["seat", "policy", "turn points", "P(win alone)", "P(tie)", "value"],
                          rows)]
    lines += [f"seat {s['seat']} wins alone with probability exactly {s['p_win_exact']}"
              for s in seats if "p_win_exact" in s]
    return "\n".join(lines)


def exact_texts(seats: list[dict]) -> list[dict]:
    """Each seat's exact values (Fractions) written as "p/q", for output."""
    return [{k: exact_text(v) if isinstance(v, Fraction) else v for k, v in s.items()}
            for s in seats]
