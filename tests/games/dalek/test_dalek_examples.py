"""The rulebook's worked example (Jenna and Peter), replayed die by die through the rules engine.

Sources: the English rulebook (shared/seeds/000_e119654d687e95b7.txt, "Example of Play") and its
French translation (shared/seeds/004_ad305d7c863243db.txt, "Exemple d'une partie"). Both state the
published results used below: "Jenna has scored 17 points and Peter has scored 15 points", with
Jenna at 12 Humans vs 9 Daleks after her first roll and 12 vs 14 at the end, and Peter at 6 vs 6
after his first roll and 10 vs 11 at the end. Peter's second roll is the French copy's
("Humains: 4, 4 / Daleks: 3, 2 / 1 Docteur"); the English copy dropped its Dalek 3.
"""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from helpers import ROOT

from solver.errors import InputError
from solver.games.dalek.files import parse_rules
from solver.games.dalek.rules import Rules, TurnState
from solver.games.dalek.turn import place
from solver.games.dalek.typed import parse_roll


@pytest.fixture(scope="module")
def rules() -> Rules:
    """The game of the example: ten default dice, ties go to the Daleks."""
    return parse_rules()


def nothing(rules: Rules) -> tuple[int, ...]:
    """A keep of no Human or Dalek die (parse_roll refuses an empty roll)."""
    return (0,) * len(rules.die.faces)


def play(rules: Rules, state: TurnState, rolled: str, kept: str
         ) -> tuple[TurnState, int | None]:
    """One roll of the example: the dice shown and the Human/Dalek dice the player keeps."""
    keep = parse_roll(rules, kept) if kept else nothing(rules)
    return place(rules, state, parse_roll(rules, rolled), keep)


def test_jenna_scores_17(rules: Rules) -> None:
    """Jenna keeps three Human 4s and the three Dalek 3s, then all of D3 D2 EXT: no die left."""
    state, score = play(rules, rules.start(), "H4 H4 H4 H2 H2 D3 D3 D3 D2 DOC",
                        "H4 H4 H4 D3 D3 D3")
    assert (state.humans, state.daleks) == (12, 9)  # "a total of 12 ... than Daleks (9)"
    assert (state.to_roll, state.doctors, score) == (3, 1, None)  # "rolls the remaining three"
    state, score = play(rules, state, "D3 D2 EXT", "D3 D2")
    assert (state.humans, state.daleks) == (12, 14)  # "12 Humans vs. 14 Daleks"
    assert (state.to_roll, state.exterminates) == (0, 1)
    assert score == 17  # published: "12 points, plus the 5-point bonus"


def test_peter_scores_15(rules: Rules) -> None:
    """Peter: 6 vs 6 after roll one (a surplus Doctor goes back), two Doctors after roll two,
    keeps a Dalek 2 on roll three and rolls his last die: a first Exterminate, no die left."""
    state, score = play(rules, rules.start(), "H4 H2 H2 D3 D3 D3 D3 D2 DOC DOC", "H4 H2 D3 D3")
    assert (state.humans, state.daleks) == (6, 6)  # "6 Humans vs. 6 Daleks"
    assert (state.to_roll, state.doctors, score) == (5, 1, None)  # "the remaining five dice"
    state, score = play(rules, state, "H4 H4 D3 D2 DOC", "H4 D3")  # the French copy's roll
    assert (state.humans, state.daleks) == (10, 9)
    assert (state.to_roll, state.doctors, score) == (2, 2, None)  # "the two remaining dice"
    state, score = play(rules, state, "H4 D2", "D2")
    assert (state.humans, state.daleks) == (10, 11)
    assert (state.to_roll, score) == (1, None)  # "He may then stop or roll the remaining die"
    state, score = play(rules, state, "EXT", "")
    assert (state.humans, state.daleks) == (10, 11)  # "10 Humans vs. 11 Daleks"
    assert (state.to_roll, state.exterminates) == (0, 1)  # the first Exterminate, not the third
    assert score == 15  # published: "10 points, plus the 5-point bonus"


def test_peter_stopping_before_his_last_roll_scores_10(rules: Rules) -> None:
    """Rule 8: had Peter stopped at 10 vs 11 with a die left, he would score his Humans only."""
    state = TurnState(1, 10, 11, 2, 0)
    assert rules.stop_score(state.humans, state.daleks) == 10 == state.humans
    assert rules.scoring(state) is None


def test_english_second_roll_of_peter_cannot_be_replayed(rules: Rules) -> None:
    """The English copy's second roll (Humans 4, 4; Daleks 2; 1 Doctor) shows four dice though
    Peter rolls five (and lacks the Dalek 3 Peter keeps): the engine refuses the roll."""
    state, _ = play(rules, rules.start(), "H4 H2 H2 D3 D3 D3 D3 D2 DOC DOC", "H4 H2 D3 D3")
    english = parse_roll(rules, "H4 H4 D2 DOC")
    assert sum(english) == 4 != state.to_roll == 5
    with pytest.raises(InputError, match="shows 4 dice but 5 were rolled"):
        place(rules, state, english, parse_roll(rules, "H4 D3"))


def test_rules_doc_names_where_each_reading_lives() -> None:
    """docs/rules.md ends each Dalek Dice reading with its place in code (`rules.NAME`, ...):
    every name it gives exists."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("## Dalek Dice: one turn"):text.index("## Doctor Who")]
    names = set(re.findall(r"`((?:rules|race|policies|simulator)\.[A-Za-z_.]+)`", section))
    names -= {"rules.NAME", "simulator.py"}  # how the section introduces them, a file
    assert len(names) >= 30
    for name in names:
        module, *path = name.split(".")
        found = import_module(f"solver.games.dalek.{module}")
        for attribute in path:
            found = getattr(found, attribute)
