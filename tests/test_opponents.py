""""Against a perfect opponent" means one thing (issue 24, item 5): the docs define the two
opponents with solver.opponents' sentences, and the docs, the cards' words and the reports'
words name an opponent with those phrases only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.opponents import KNOWING, KNOWING_MEANS, PERFECT, PERFECT_MEANS

ROOT = Path(__file__).resolve().parents[1]
# every page a reader meets, and the modules that word cards and reports
TEXTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
                *(ROOT / "solver" / "games").glob("*/rulecard.py"),
                *(ROOT / "solver" / "games").glob("*/commands.py"),
                *(ROOT / "solver" / "games").glob("*/schemas/*.json")])
# the ways an opponent was named before the two phrases were fixed
OTHER_NAMES = re.compile(r"perfect (player|opponent|seat)s?|optimal (player|opponent)s?"
                         r"|knows? (the|your|a) rule|knows it\b|know (the|your) rule"
                         r"|seat playing to win against", re.IGNORECASE)


def flat(text: str) -> str:
    """Words joined across line breaks and a Markdown list's indent."""
    return " ".join(text.split())


def test_the_rules_page_defines_both_opponents_in_their_words() -> None:
    rules = flat((ROOT / "docs" / "rules.md").read_text())
    assert PERFECT_MEANS in rules and KNOWING_MEANS in rules
    assert PERFECT_MEANS.lower().startswith(PERFECT) and KNOWING_MEANS.lower().startswith(KNOWING)


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_an_opponent_is_named_only_by_its_defined_phrase(path: Path) -> None:
    text = flat(path.read_text())
    for sentence in (PERFECT_MEANS, KNOWING_MEANS):
        text = text.replace(sentence, "")
    for phrase in (PERFECT, KNOWING):
        text = re.sub(re.escape(phrase), "", text, flags=re.IGNORECASE)
    assert [m.group(0) for m in OTHER_NAMES.finditer(text)] == []
