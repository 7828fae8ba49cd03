"""The dense level-by-level engine: optimal play for games too large for the cyclic engine.

A level game numbers its positions 0..size-1 by arithmetic (no position objects, no graph) and
groups them into levels: every successor of a position lies in its own level or a later one, so
levels are solved from the last back to the first, each a unit of work that reads only later
levels, those the game's `reads` names (by default all). Values are dense float64 arrays with a
row per metric, one per finished level (`LevelShard`), kept while a level still to solve reads
them. Without a store all are kept and joined into one array for the answer at the end; with
one, the answer reads the store's levels on demand (`StoredValues`), never one array.
Successors are computed per batch from the numbers, never stored. One sweep from the start
first marks the reachable positions: only those are solved (the others keep NaN).

Within a level, positions that lead to each other (a turn that scores nothing passes the move)
form small components, solved by policy iteration exactly as the cyclic engine does it
(`solver.engine.cyclic`): a best response to the current values, the linear system of that policy
for all metrics (here batched dense solves, components being small), a check of the Bellman
residual against 1e-12, repeat. Positions are warm-started from a similar solved position (the
game says which), so the first response is usually final: two backward passes and one forward
pass per position in a cycle, one of each elsewhere. Rows of utilities that repeat within a
level (common near the end of a game) are passed once.

The turn passes are compiled kernels over the turn graph with its duplicate nodes merged
(`TurnPasses`: the ten-dice turn has fewer than half as many), in tiles of a few columns with
workspaces allocated once per thread: the backward pass records each choice in a byte, and the
forward pass that gives the result distribution reuses them at once, skipping nodes the policy
never reaches.

Games whose movers choose among a few explicit options (stop or throw again, where to place:
Strike) give each position's options as edges instead of a turn graph (`OptionGame`, `Edges`).
Their levels are nearly one component each (dice move between stocks and the arena without
leaving the level), too large for dense solves: systems of up to `DIRECT` members are solved
sparse and direct, larger ones by Gauss-Seidel sweeps. The policy iteration around them is the
same loop (`solver.engine.iteration`).

A `Store` (solver/checkpoint.py) keeps finished levels on disk: a solve resumes after the last
level it holds.

A chunk is a pure function of its inputs (`solve_chunk`: the game, a `view.Window` over the
finished levels its level reads, its positions, the level's eager flag): a `Runner` solves a
level's chunks here (`in_process`) or on a cluster (`cluster.RayRunner`, which puts each finished
level once), and the results are written in the chunks' order, so both give the same bits.

The package along its layers: `passes` (the turn passes), `records` (what the parts hand each
other), `protocols` (what the engine asks of a game, a store, a runner), `reach` (reachability,
components, chunks of whole components), `view` and `chunks` (a chunk solved), `driver` (the
solve), `stored` (a solve's values read back from its store), `cluster` (the Ray runner).
"""

from solver.engine.levels.chunks import solve_chunk
from solver.engine.levels.driver import SMALLEST, SPREAD, chunk_size, in_process, solve
from solver.engine.levels.passes import TILE, TurnPasses
from solver.engine.levels.protocols import LevelGame, OptionGame, Runner, Store
from solver.engine.levels.reach import CHUNK
from solver.engine.levels.records import (
    ChunkResult,
    ChunkTask,
    Edges,
    LevelShard,
    LevelSolution,
    LevelStats,
    Status,
)
from solver.engine.levels.stored import StoredValues

__all__ = ["CHUNK", "SMALLEST", "SPREAD", "TILE", "ChunkResult", "ChunkTask", "Edges",
           "LevelGame", "LevelShard", "LevelSolution", "LevelStats", "OptionGame", "Runner",
           "Status", "Store", "StoredValues", "TurnPasses", "chunk_size", "in_process", "solve",
           "solve_chunk"]
