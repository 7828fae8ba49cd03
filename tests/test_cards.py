"""Strategy cards are laid out on one page, as PDF or PNG, with the same bytes every time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.cards import FOOTER_TOP, SIZE, Card, fit, render
from solver.errors import InputError

pytest.importorskip("matplotlib", reason="cards need the plot extra (pip install '.[plot]')")

CARD = Card("Pig: one turn", ("Roll until the turn total reaches 20, then hold.",),
            "Wins 49.3% against perfect play (a fair game would be 50%).",
            table=(("score", "hold at"), ("0-70", "20"), ("71+", "the goal")),
            footer="dice-solver pig card (a test card)")


@pytest.mark.parametrize("suffix", [".pdf", ".png"])
def test_a_card_is_one_page_with_the_same_bytes_every_time(tmp_path: Path, suffix: str) -> None:
    first = render(CARD, tmp_path / f"a{suffix}").read_bytes()
    second = render(CARD, tmp_path / f"b{suffix}").read_bytes()
    assert first == second
    if suffix == ".pdf":
        assert first.startswith(b"%PDF")
        assert len(re.findall(rb"/Type\s*/Page(?![a-z])", first)) == 1
    else:
        assert first.startswith(b"\x89PNG")


def test_another_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"pdf or \.png"):
        render(CARD, tmp_path / "card.svg")


def test_a_long_card_is_drawn_smaller_to_stay_above_its_footer() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    long = Card(CARD.title, CARD.rule * 4, CARD.cost, CARD.table, CARD.footer,
                ("A note of small print that runs over several lines of the card. " * 4,) * 2)
    for card, smaller in ((CARD, False), (long, True)):
        figure = plt.figure(figsize=SIZE)
        scale, end = fit(figure, card)
        plt.close(figure)
        assert end >= FOOTER_TOP and (scale < 1) == smaller
