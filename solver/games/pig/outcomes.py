"""How Pig games end under two fixed ways of playing: the exact distribution of the final
scores and the turns taken (solver/finals.py's forward pass), from each seat's turn at every pair
of scores. A seat holding at N banks the same totals whatever the opponent has; an optimal seat
follows the solved game's hold table. `PigPlay` gives the rules (or a deliberately wrong
simulator's: bugs.py), so the exact outcomes of a wrong simulator come from the same pass."""

from __future__ import annotations

import numpy as np

from solver.engine.cyclic import Solution
from solver.finals import race_finals
from solver.games.pig import policies as pp
from solver.games.pig.rules import may_hold
from solver.games.pig.simulator import Hold, PigPlay
from solver.outcomes import SCORE_RACE, TIE, Outcomes


def hold_rules(duel: pp.PigDuel, solution: Solution | None) -> list[Hold]:
    """Each seat's decision as the simulator asks it: "hold N" holds once the turn total
    reaches N; an optimal seat looks up the solved hold table (a total past the goal holds; an
    opponent's score past the goal, which only a wrong play reaches, reads as one short of
    it)."""
    target = duel.target

    def rule(seat: int) -> Hold:
        hold = duel.policies[seat].hold
        if hold is not None:
            return lambda mine, theirs, total: total >= hold
        table = pp.hold_table(duel, solution, seat)
        return lambda mine, theirs, total: table[mine, np.minimum(theirs, target - 1),
                                                 np.minimum(total, target)]

    return [rule(0), rule(1)]


def turn_table(play: PigPlay, hold: Hold, target: int, width: int, theirs: int
               ) -> np.ndarray:
    """turns[mine, theirs, r]: P(the mover banks r) with banked scores mine (0 .. target - 1)
    and theirs (0 .. `theirs` - 1), holding where `hold` says or the rules force it. Totals
    only grow within a turn, so one sweep over them settles each."""
    mine, other = np.meshgrid(np.arange(target), np.arange(theirs), indexing="ij")
    rolling = np.zeros((target, theirs, width))
    banked = np.zeros((target, theirs, width))
    rolling[:, :, 0] = 1.0
    share = 1.0 / len(play.faces)
    for total in range(width):
        if may_hold(total):
            held = hold(mine, other, np.full(mine.shape, total)) | play.must_hold(mine, total,
                                                                                 target)
            banked[:, :, total] += np.where(held, rolling[:, :, total], 0.0)
            rolling[:, :, total] = np.where(held, 0.0, rolling[:, :, total])
        going = rolling[:, :, total]
        if not going.any():
            continue
        for face in play.faces:
            after = int(play.roll(total, face))
            if after >= width:
                raise ValueError("a turn total past the table's width")
            into = banked if play.ends_turn(face) else rolling
            into[:, :, after] += going * share
    return banked


def pig_outcomes(duel: pp.PigDuel, solution: Solution | None, title: str,
                 play: PigPlay | None = None) -> Outcomes:
    """Every way a game of `duel` ends (final scores, turns) under `play`'s rules, seat 1
    moving first."""
    play = PigPlay() if play is None else play
    target = duel.target
    holds = [p.hold or 0 for p in duel.policies]
    width = max(target, *holds) + max(play.faces) + 1
    size = target + width
    tables = [turn_table(play, rule, target, width, 1 if p.hold is not None else size)
              for rule, p in zip(hold_rules(duel, solution), duel.policies)]

    def turns(seat: int, s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
        mine, theirs = (s1, s2) if seat == 0 else (s2, s1)
        table = tables[seat]
        return table[mine, np.minimum(theirs, table.shape[1] - 1)]

    finals = race_finals(turns, width, lambda s1, s2, seat: play.game_over(s1, s2, seat,
                                                                            target), size)
    winner = np.where(finals.score_1 > finals.score_2, 1,
                      np.where(finals.score_2 > finals.score_1, 2, TIE))
    return Outcomes(title, "game", {"winner": winner, "score_1": finals.score_1,
                                    "score_2": finals.score_2, "turns": finals.turns},
                    finals.probability, SCORE_RACE, finals.residual)
