"""What a Dalek Dice request will cost, estimated from its size before the work starts, so that
`solver.limits.refuse` can refuse it (time: unless --force; memory: always) with the estimate.

Sizes are counted exactly, not guessed: the turn graph's (state, roll) pairs from the reachable
states (the sums kept dice can make) and the rolls of each number of dice; the race's positions
from the scores a seat can hold below the target and the final scores above it (both counts
match the solver's: 2 to 6 players, 1 to 10 dice, several dice; 7 players to 5 with 1 die). The
figures per unit were measured on the reference machine by `python benchmarks/bench_race.py
--cost` (and `bench_race` for the large races), which print each measured run beside its
estimate. Most ran at load
average 5-9 on its 2 cores (other jobs: 1.5 to 7 times slower than idle); the figures are
rounded up so that an estimate stays above a loaded run (a race or simulated races cost at
least STARTUP besides: the compiled passes loaded):
- Building the turn graph: 6 us and 300 bytes per (state, roll) pair (10 dice, 277,590 pairs:
  0.27 s idle, 0.81 s loaded, estimate 1.67 s; 12 dice, 959,768 pairs: 2.76 s against 5.76 s;
  13 dice: 406 MB). The graph has about 6 nodes and edges per pair.
- An exact pass over the turn (rationals): 1 us per node and edge, times 1 + bits / 200 for the
  size of its common denominator (10 dice: 0.21 s idle, 0.88 s loaded, estimate 2.74 s;
  12 dice: 2.98 s against 11.2 s).
- A turn policy played exactly (Pairs, the policy, its exact distribution): 4 us per pair
  (10 dice: 1.50 s against 1.11 s, of which about 1 s loads the compiled passes, as 6 dice's
  1.06 s shows; 12 dice: 2.87 s against 3.84 s).
- The race in float64: 0.2 ms per position, plus per node and edge of the turn graph 16 ns for
  a position before the final round and 0.8 ns for one in it (their turns mostly repeat, and
  repeated responses are shared). 2 players to 60 (10,266 positions): estimate 179 s, measured
  107-127 s idle and 220 s at load 7; to 20: 19.3 s against 19.4 s at load 8; 3 players to 12:
  90 s against 52 s idle, 84 s loaded; 3 to 24: 873 s against 570 s; 4 to 10: 491 s against
  314 s; 2 dice to 300 (167,904 positions): 35 s against 13 s idle, 21 s loaded. Memory: 250 MB,
  100 bytes per node and edge, and per position 1.5 kB plus 300 bytes per turn score (2 players
  to 60: 616 MB against 456 MB; 3 to 12: 629 against 567; 4 to 6: 593 against 460; 2 dice to
  300: 905 against 428).
- The race in rationals: 50 ms per position plus 5 us per position and node or edge (10 dice,
  2 players to 4: 933 s against 392 s loaded; 6 dice to 8: 84 s against 38-95 s; 4 dice to 12:
  26 s against 9-19 s; 3 dice to 20: 46 s against 8-15 s), and 200 bytes per position and
  metric besides the float solve's memory.
- Simulated races (`simulate dalek --duel`): 3 us per turn played and 1 ms per batch of turns
  (one per seat and round; 100,000 races to 60, points against keep-daleks 10: 1.96 s of play);
  a "win" seat derives the optimal turn of each position it meets, 0.2 us per (state, roll)
  pair (2,000 races to 20: 74 positions in 1.9 s), and holds it (1 byte per pair and keepable
  face, and one more).
- A decision log: 15 us and 1 kB per move held until the file is written (100,000 turns,
  305,673 moves: about 3.5 s and 260 MB beyond the run itself).
"""

from __future__ import annotations

from math import comb

from solver.games.dalek.rules import DOCTOR, EXTERMINATE, THIRD, Rules
from solver.limits import refuse

BUILD_SECONDS_PER_PAIR = 6e-6
BUILD_BYTES_PER_PAIR = 300
EXACT_SECONDS_PER_ELEMENT = 1e-6
EXACT_BITS = 200  # an exact pass slows by 1 + bits / EXACT_BITS of its common denominator
EXACT_BYTES_PER_ELEMENT = 100
POLICY_SECONDS_PER_PAIR = 4e-6
POLICY_BYTES_PER_PAIR = 200
STARTUP = 1.0  # seconds: the compiled passes loaded, the engine imported
PROCESS_BYTES = 150e6  # the interpreter and the libraries loaded
RACE_SECONDS_PER_POSITION = 2e-4
RACE_SECONDS_PER_ELEMENT = {False: 16e-9, True: 0.8e-9}  # by final round or not
RACE_BYTES = 250e6
RACE_BYTES_PER_ELEMENT = 100
RACE_BYTES_PER_POSITION = 1500
RACE_BYTES_PER_RESULT = 300
EXACT_RACE_SECONDS_PER_POSITION = 0.05
EXACT_RACE_SECONDS_PER_ELEMENT = 5e-6
EXACT_RACE_BYTES_PER_VALUE = 200
SIMULATED_TURN_SECONDS = 3e-6
SIMULATED_CALL_SECONDS = 1e-3
SIMULATED_GAME_BYTES = 200
WIN_SEAT_SECONDS_PER_PAIR = 2e-7
MOVES_PER_TURN = 4
DECISION_SECONDS = 15e-6
DECISION_BYTES = 1000
MOST_SUMS = 2_000_000  # set operations in an exact state count; past it, an upper bound


def turn_pairs(rules: Rules) -> int:
    """The (state before a roll, roll) pairs of the turn graph: for each number of dice to roll,
    the reachable states (kept Doctors and Exterminates below three, and the sums of Human and
    Dalek values the other kept dice can make) times the rolls of that many dice."""
    faces = len(rules.die.faces)
    valued = [_pairs_of_sums(rules, v) for v in range(rules.dice)]
    doctors = THIRD if DOCTOR in rules.die.faces else 1
    exterminates = THIRD if EXTERMINATE in rules.die.faces else 1
    pairs = 0
    for n in range(1, rules.dice + 1):
        kept = rules.dice - n
        states = sum(valued[kept - d - e] for d in range(doctors) for e in range(exterminates)
                     if d + e <= kept)
        pairs += states * comb(n + faces - 1, faces - 1)
    return pairs


def _pairs_of_sums(rules: Rules, valued: int) -> int:
    """How many (Humans, Daleks) totals `valued` kept Human and Dalek dice can show: exact, or
    an upper bound when counting them exactly would itself take long (huge face values)."""
    humans = rules.kept_sums(rules.human_faces, valued)
    daleks = rules.kept_sums(rules.dalek_faces, valued)
    splits = [(humans[i], daleks[valued - i]) for i in range(valued + 1)]
    bound = sum(len(h) * len(d) for h, d in splits)
    if bound > MOST_SUMS:
        return bound
    return len({(h, d) for hs, ds in splits for h in hs for d in ds})


def check_build(rules: Rules, force: bool) -> None:
    """Refuse to build a turn graph that would take too long or too much memory."""
    pairs = turn_pairs(rules)
    refuse(f"building the turn of {rules.dice} dice ({pairs:,} (state, roll) pairs)",
           pairs * BUILD_SECONDS_PER_PAIR, PROCESS_BYTES + pairs * BUILD_BYTES_PER_PAIR, force)


def check_turn(turn, force: bool, exact: int = 0, policies: int = 0) -> None:
    """Refuse `exact` exact passes over a compiled turn and `policies` turn policies played
    exactly, if they would take too long or too much memory (the graph is built already)."""
    elements = turn.graph.size + turn.graph.edges
    bits = _denominator_bits(turn.rules)
    pairs = sum(len(layer.keys) * len(turn.rolls[n]) for n, layer in turn.layers.items())
    seconds = (exact * elements * EXACT_SECONDS_PER_ELEMENT * (1 + bits / EXACT_BITS)
               + policies * pairs * POLICY_SECONDS_PER_PAIR)
    memory = PROCESS_BYTES + max(bool(exact) * elements * EXACT_BYTES_PER_ELEMENT,
                                 bool(policies) * pairs * POLICY_BYTES_PER_PAIR)
    refuse(f"the exact values of the turn of {turn.rules.dice} dice ({elements:,} nodes and "
           f"edges)", seconds, memory, force)


def _denominator_bits(rules: Rules) -> int:
    """Bits of the common denominator of a turn's exact values: each roll of n dice divides by
    the die's total weight to the n."""
    return (rules.die.total ** (rules.dice * (rules.dice + 1) // 2)).bit_length()


def race_positions(race) -> tuple[int, int]:
    """The race's positions before the final round and in it, as the solver keys them (upper
    bounds when a seat plays a fixed policy, which may score less often). Before it, every
    seat's score is one a seat can hold below the target; in it, the seats before the mover
    that reached the target are at their best score (one of the final scores a turn can make)
    and the others at 0 (`DalekRace.canonical`)."""
    players, target = race.players, race.target
    below, above = int(race.held[:target].sum()), int(race.held[target:].sum())
    before = players * below ** players
    final = sum((2 ** m - 1) * above * below ** (players - m) for m in range(1, players))
    return before, final


def race_cost(race, exact: bool) -> tuple[float, float]:
    """(seconds, bytes) one solve of the race is estimated to take."""
    before, final = race_positions(race)
    positions = before + final
    graph = race.turn.graph
    elements = graph.size + graph.edges
    seconds = STARTUP + positions * RACE_SECONDS_PER_POSITION + elements * (
        before * RACE_SECONDS_PER_ELEMENT[False] + final * RACE_SECONDS_PER_ELEMENT[True])
    memory = (RACE_BYTES + elements * RACE_BYTES_PER_ELEMENT
              + positions * (RACE_BYTES_PER_POSITION + graph.n_results * RACE_BYTES_PER_RESULT))
    if exact:
        seconds += positions * (EXACT_RACE_SECONDS_PER_POSITION
                                + elements * EXACT_RACE_SECONDS_PER_ELEMENT)
        memory += positions * race.metrics * EXACT_RACE_BYTES_PER_VALUE
    return seconds, memory


def check_race(race, exact: bool, force: bool) -> None:
    """Refuse to solve a race that would take too long or too much memory."""
    before, final = race_positions(race)
    seconds, memory = race_cost(race, exact)
    refuse(f"the {race.players}-player race to {race.target} ({before + final:,} positions"
           f"{', exactly' if exact else ''})", seconds, memory, force)


def contrast_seconds(race, positions: int) -> float:
    """What comparing, at `positions` positions of a solved race, the win-optimal turn with
    the points-optimal one takes: three batched passes over the turn each, as a position before
    the final round costs in the solve."""
    graph = race.turn.graph
    return positions * (graph.size + graph.edges) * RACE_SECONDS_PER_ELEMENT[False]


def check_contrast(race, positions: int, force: bool) -> None:
    """Refuse that comparison (`contrast_seconds`) if it would take too long."""
    graph = race.turn.graph
    refuse(f"comparing the turns of {positions:,} positions", contrast_seconds(race, positions),
           RACE_BYTES + (graph.size + graph.edges) * RACE_BYTES_PER_ELEMENT, force)


def check_decisions(turns: int, force: bool) -> None:
    """Refuse a decision log of `turns` turns that would take too long or too much memory
    (each move becomes a line of text, held until the file is written)."""
    moves = turns * MOVES_PER_TURN
    refuse(f"a decision log of {turns:,} turns", moves * DECISION_SECONDS,
           moves * DECISION_BYTES, force)
