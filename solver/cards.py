"""Strategy cards: one printed page a player keeps at the table. A card is a rule a person can
remember (a few lines, maybe a small table) and its price against perfect play in words; a
game's `card` command fills it from an exact evaluation, and this module only lays it out.

The page is A6 portrait (105 x 148 mm: a postcard), large type, black on white.
PDF and PNG come from the same drawing (matplotlib, the `plot` extra); the bytes do not depend on
the day they were made (no creation date in the PDF)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from solver.errors import InputError

SIZE = (105 / 25.4, 148 / 25.4)  # inches: A6 portrait
WIDTH = 34  # characters of a rule line at the rule's type size
FOOTER_TOP = 0.065  # the text above the footer ends here (a fraction of the page's height)
SHRINK, SMALLEST = 0.92, 0.5  # a card too long for the page is drawn smaller, step by step


@dataclass(frozen=True)
class Card:
    title: str  # the game and the situation ("Dalek Dice: one turn")
    rule: tuple[str, ...]  # the rule, one instruction a line
    cost: str  # its price in words ("loses 0.21 points a turn against perfect play ...")
    table: tuple[tuple[str, ...], ...] = ()  # a small table: a header row, then rows
    footer: str = ""  # how it was made: the rules variant, the command
    notes: tuple[str, ...] = field(default=())  # a line or two of small print


def writable(path: Path) -> Path:
    """A card's file: .pdf or .png (else one clear error)."""
    if path.suffix.lower() not in (".pdf", ".png"):
        raise InputError(f"a card is written as .pdf or .png, not {path.name!r}")
    return path


def render(card: Card, path: Path) -> Path:
    """Draw the card into `path` (.pdf or .png, by its suffix)."""
    writable(path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("cards need matplotlib: pip install 'dice-solver[plot]'") from None
    figure = plt.figure(figsize=SIZE)
    fit(figure, card)
    if card.footer:
        _text(figure, 0.04, card.footer, size=6, width=90, color="#444444")
    metadata = {"CreationDate": None} if path.suffix.lower() == ".pdf" else {"Software": None}
    figure.savefig(path, dpi=200, metadata=metadata)
    plt.close(figure)
    return path


def fit(figure, card: Card) -> tuple[float, float]:
    """Draw the card above its footer at the largest type that fits the page (a step smaller
    each try, down to SMALLEST); returns the scale and where the text ends."""
    scale = 1.0
    while (end := _draw(figure, card, scale)) < FOOTER_TOP and scale > SMALLEST:
        figure.clear()  # too long for the page: every size down a step, lines wider to match
        scale *= SHRINK
    return scale, end


def _draw(figure, card: Card, scale: float) -> float:
    """The card above its footer, type sizes times `scale`; returns where the text ends."""
    y = _text(figure, 0.94, card.title, size=15 * scale, width=round(40 / scale), weight="bold")
    y -= 0.02
    for line in card.rule:
        y = _text(figure, y, line, size=13 * scale, width=round(WIDTH / scale), bullet=True)
    if card.table:
        y = _table(figure, y - 0.02, card.table, 11 * scale)
    y = _text(figure, y - 0.03, card.cost, size=11 * scale, width=round(44 / scale),
              style="italic")
    for note in card.notes:
        y = _text(figure, y - 0.01, note, size=8 * scale, width=round(60 / scale))
    return y


def _text(figure, y: float, text: str, size: float, width: int = 40, bullet: bool = False,
          **style) -> float:
    """Wrapped lines from the top down; returns where the next line starts."""
    lines = textwrap.wrap(text, width) or [""]
    step = size / 72 * 1.35 / SIZE[1]
    for k, line in enumerate(lines):
        prefix = ("\u2022 " if k == 0 else "   ") if bullet else ""
        figure.text(0.07, y, prefix + line, fontsize=size, va="top", **style)
        y -= step
    return y


def _table(figure, y: float, rows: tuple[tuple[str, ...], ...], size: float) -> float:
    """A plain table: the header bold, columns left-aligned at even spacing."""
    columns = max(len(row) for row in rows)
    step = size / 72 * 1.4 / SIZE[1]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            figure.text(0.07 + 0.86 * c / columns, y, cell, fontsize=size, va="top",
                        weight="bold" if r == 0 else "normal")
        y -= step
    return y
