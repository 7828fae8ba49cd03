"""Dalek Dice: a remembered turn rule whose stopping threshold follows the scores, in the
two-player race (solver/games/dalek/racerules.py, issue 15). Searches (a, b) at a small target
against an optimal opponent, then values the rule found, and the fixed threshold it starts from,
at the full target: against an optimal opponent (mean of the two seats) and against itself.
Prints each figure with the seconds it took.

Run: python benchmarks/bench_dalek_race_rules.py [SEARCH_TARGET [TARGET [STOP]]]
     (defaults 20, 60 and 12: "keep the Daleks, stop at 12", the best fixed threshold's
     neighbourhood for one turn)
"""

from __future__ import annotations

import sys
import time

from solver.games.dalek import racerules as rr
from solver.games.dalek import rulefamilies as rf
from solver.games.dalek.policies import Pairs
from solver.games.dalek.rules import parse_rules
from solver.games.dalek.turn import compile_turn


def main(search_target: int, target: int, stop: int) -> None:
    rules = rr.RaceRules(rf.Rulebook(Pairs.of(compile_turn(parse_rules()))), rf.TurnRule(stop))
    clock = time.perf_counter()
    found = rr.search_rule(rules, search_target)
    print(f"search at {search_target}: a={found.numbers[0]} b={found.numbers[1]}/10, "
          f"{found.value:.6f} against an optimal seat, {found.evaluated} rules, "
          f"{time.perf_counter() - clock:.0f} s", flush=True)
    for name, rule in (("fixed", rr.RaceRule(rules.base, stop, 0)),
                       ("found", rr.RaceRule(rules.base, *found.numbers))):
        clock = time.perf_counter()
        optimal = rules.against_optimal(rule, target)
        itself = rules.values((rule, rule), target)
        print(f"{name} a={rule.a} b={rule.b}/10 at {target}: {optimal:.6f} against an optimal "
              f"seat (mean of both seats); against itself seat 1 {itself[0]:.6f}, seat 2 "
              f"{itself[1]:.6f}; {time.perf_counter() - clock:.0f} s", flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]), *(20, 60, 12)[len(sys.argv[1:4]):])
