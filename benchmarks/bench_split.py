"""What cutting levels for two workers costs, and what two processes side by side cost:
`python benchmarks/bench_split.py whole|split TARGET` prints the CPU seconds of the 3-player
race to TARGET on one thread in one process, its levels whole (chunks of 16,384) or cut as for
a runner of 2 CPUs (`levels.chunk_size`), the chunks run one after the other. Run `whole` twice
at once to see what sharing the machine costs each (docs/results.md, "On a cluster")."""
import sys
import time

from solver.engine import levels
from solver.games.dalek.files import parse_rules
from solver.games.dalek.levels import LevelRace
from solver.games.dalek.race import DalekRace
from solver.games.dalek.turn import compile_turn

mode, target = sys.argv[1], int(sys.argv[2])
turn = compile_turn(parse_rules())


class Wide:
    cpus = 2

    def __call__(self, *args):
        return levels.in_process(*args)


game = LevelRace(DalekRace(turn, 3, target))
game.turn.threads = 1
levels.solve(LevelRace(DalekRace(turn, 3, 4)))  # kernels loaded
start = time.process_time()
levels.solve(game, runner=Wide() if mode == "split" else None)
print(mode, target, f"{time.process_time() - start:.1f} CPU s", flush=True)
