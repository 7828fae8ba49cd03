"""`dice-solver play strike`: a whole 2-player game (3 dice each) typed line by line gets, at
every step, the verdict `strike best-move --json` gives for the position, which this test tracks
by hand from the rulebook (stocks, arena, whose turn); the win chances after each turn are
best-move's too. Then undo, score, help, typos, and a save file that resumes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from solver.cli import cli
from solver.formatting import percent

START = ("play", "strike", "--dice", "3")
# (line typed, best-move's options for the position after it). Seat 1 places a 2, seat 2 a 4:
# stocks 2, 2, the arena 2 4, seat 1 throws first.
GAME = [
    (None, ("--setup",)),  # before anything: seat 1 places
    ("2", ("--setup", "--arena", "2")),
    ("4", ("--setup", "--arena", "2,4")),  # every seat placed: seat 1's first throw
    # the 2 stays, the 4 is struck to a 5, the thrown die shows 1: no match, seat 1 holds 1
    ("2 5 1", ("--arena", "1,2,5", "--stocks", "1,2", "--mid-turn")),
    # seat 1 ends the turn; seat 2 must throw
    ("pass", ("--arena", "1,2,5", "--stocks", "1,2", "--mover", "2")),
    # the 2 struck to a 3, the thrown die shows X (out of the game): seat 2 holds 1
    ("1 3 5 X", ("--arena", "1,3,5", "--stocks", "1,1", "--mover", "2", "--mid-turn")),
    # the 5 struck to a 1, the thrown die a 3: two pairs, 4 dice back to seat 2 (1 - 1 + 4),
    # the arena is empty: seat 1's big hit with its 1 die
    ("1 1 3 3", ("--stocks", "1,4")),
]
# seat 1 throws its last die, a 2, no match: seat 1 is out (reading 7)
LAST = "2"
TURNS = {4, 6}  # after these lines (1-based) the turn passed: each seat's chance is said


def best_move(options: tuple[str, ...]) -> dict:
    result = CliRunner().invoke(cli, ["strike", "best-move", *options, "--dice", "3", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def play(*lines: str, options: tuple[str, ...] = ()) -> list[str]:
    result = CliRunner().invoke(cli, [*START, *options], input="".join(f"{x}\n" for x in lines))
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def verdicts(out: list[str]) -> list[str]:
    """The line above each question the companion asks."""
    return [out[k - 1] for k, line in enumerate(out)
            if line.startswith("Seat ") and line.endswith(("which number?", "now?",
                                                           "now? (or stop)"))]


def test_a_whole_game_gets_best_moves_verdict_at_every_step() -> None:
    reports = [best_move(options) for _, options in GAME]
    out = play(*(line for line, _ in GAME[1:]), LAST)
    assert verdicts(out) == [r["verdict"] for r in reports]
    assert reports[-1]["verdict"].startswith("Throw your one die, the big hit")
    chances = [line for line in out if line.startswith("Win chances: ")]
    after_turns = [reports[k] for k in sorted(TURNS)]
    setup_done = reports[2]
    assert chances == [f"Win chances: seat 1 {percent(r['seats'][0]['p_win'])}, seat 2 "
                       f"{percent(r['seats'][1]['p_win'])}." for r in
                       (setup_done, *after_turns)]
    assert "Seat 2 takes 4 dice back; arena empty; stock 4. The arena is empty: the big hit " \
           "is next. Turn over." in out
    assert out[-3:] == ["No match; arena 2; stock 0. Seat 1 is out.",
                        "Seat 2 wins: the last player with dice.", "Game over."]


def test_score_undo_help_and_typos() -> None:
    out = play("2", "4", "scor", "score", "2 5", "2x5 1", "2 5 7", "pass", "undo", "undo",
               "undo", "undo", "help", "quit", "2")
    assert "? did you mean score? (help lists the commands)" in out
    # 2 + 2 in the stocks, 2 in the arena, 0 out: the test's own count
    assert "Stocks: seat 1 2, seat 2 2; arena: 2 4; out of the game: 0; seat 1 to throw." in out
    assert any(x.startswith("? that is 2 dice, but 3 are in play (the 2 in the arena and the "
                            "1 thrown)") for x in out)
    assert any(x.startswith("? '2x5' could be a count") for x in out)
    assert any(x.startswith("? a die shows 1 to 5 or X, not 7") for x in out)
    assert any(x.startswith("? a turn ends by choice only after a throw") for x in out)
    # "pass" was refused: the first undo takes back nothing, then two lines, then nothing
    undone = [x for x in out if x.startswith(("Undone.", "Nothing"))]
    assert undone == ["Nothing undone: your last line ('pass') was not taken. Type undo again "
                      "to take back the line before it.",
                      "Undone. " + best_move(("--setup", "--arena", "2"))["verdict"],
                      "Undone. " + best_move(("--setup",))["verdict"], "Nothing to undo."]
    assert "  stop     the thrower ends the turn (allowed after a throw that left every number" \
        in out
    assert "  quit, q  leave (with --save, the game is kept: run the same command to resume)" \
        in out
    assert out[-1] == "Left the game."  # quit leaves: the line after it is not read


def test_a_saved_game_resumes_where_it_stopped(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    options = ("--save", str(saved))
    play("2", "4", "2 5 1", "oops", "quit", options=options)
    assert json.loads(saved.read_text())["lines"] == ["2", "4", "2 5 1"]
    out = play("stop", "q", options=options)
    assert out[1] == best_move(GAME[3][1])["verdict"]  # where it stopped, then on from there
    assert verdicts(out)[-1] == best_move(GAME[4][1])["verdict"]
    other = CliRunner().invoke(cli, [*START[:2], "--dice", "4", *options], input="quit\n")
    assert other.exit_code != 0 and "holds another Strike game" in str(other.exception)
    saved.write_text("[1, 2")
    broken = CliRunner().invoke(cli, [*START, *options], input="quit\n")
    assert "is not a saved Strike game" in str(broken.exception)


# 3 players, 8 dice each (the 31-dice edition): about 60,000 positions, so `strike game` takes
# the level engine. (line typed, the position after it as `strike game` takes it) where the
# turn passed and the companion says each seat's chance. Seats 1-3 place 2, 4, 5: stocks 7
# each, seat 1 throws first.
GAME_3 = [
    ("2", None), ("4", None), ("5", ("--arena", "2,4,5", "--stocks", "7,7,7")),
    ("1 2 4 5", None),  # seat 1's die shows 1, no match: stock 6, mid-turn
    ("pass", ("--arena", "1,2,4,5", "--stocks", "6,7,7", "--mover", "2")),
    ("1 2 3 4 5", None),  # seat 2's die shows 3, no match: stock 6
    ("stop", ("--arena", "1,2,3,4,5", "--stocks", "6,6,7", "--mover", "3")),
    # seat 3's die shows 5: the pair of 5s goes back to seat 3 (7 - 1 + 2), the turn ends
    ("1 2 3 4 5 5", ("--arena", "1,2,3,4", "--stocks", "6,6,8")),
]


def engines_used(monkeypatch) -> list[str]:
    """The engines the commands solve on from now, in order (the level solve or its cache,
    and the cyclic engine)."""
    from solver.games.strike import commands, levels

    used: list[str] = []
    level_solve, cyclic_solve = levels.solved, commands.solve
    monkeypatch.setattr(levels, "solved",
                        lambda *a, **k: used.append("levels") or level_solve(*a, **k))
    monkeypatch.setattr(commands, "solve",
                        lambda *a, **k: used.append("cyclic") or cyclic_solve(*a, **k))
    return used


def test_a_three_player_game_shows_strike_games_chances_from_its_level_solve(monkeypatch
                                                                              ) -> None:
    used = engines_used(monkeypatch)
    out = play(*(line for line, _ in GAME_3), options=("--players", "3", "--dice", "8"))
    assert used == ["levels"]  # one solve (the cache), no cyclic one
    chances = [line for line in out if line.startswith("Win chances: ")]
    expected = []
    for _, position in GAME_3:
        if position is None:
            continue
        result = CliRunner().invoke(cli, ["strike", "game", *position, "--json"])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout)
        assert summary["engine"] == "levels"
        expected.append("Win chances: " + ", ".join(f"seat {s['seat']} {percent(s['p_win'])}"
                                                    for s in summary["seats"]) + ".")
    assert chances == expected


def test_two_players_stay_on_the_cyclic_engine(monkeypatch) -> None:
    used = engines_used(monkeypatch)
    assert play("2", "quit")[-1] == "Left the game."
    assert used == ["cyclic"]
