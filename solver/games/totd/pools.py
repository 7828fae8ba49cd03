"""Which dice to roll: the pools a player can build (reading 3) and the pools two Doctors roll
when one helps the other (reading 6): split from the helped Doctor's pool, or each from their own.

Only counts per colour matter. A die more never lowers the probability (it can be left
unused; docs/rules.md, TotD reading 9), so only pools as large as the rules allow are listed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from solver.errors import InputError
from solver.games.totd.rules import (
    POOL_LIMIT,
    Focuses,
    Game,
    Pool,
    dice_to_roll,
    focus,
    validate_daleks,
    validate_supply,
)


def sub_pools(pool: Pool, size: int) -> Iterator[Pool]:
    """Every way to keep `size` of a pool's dice, most Black dice (the first colour) first."""
    for kept in product(*(range(n, -1, -1) for n in pool)):
        if sum(kept) == size:
            yield kept


def minus(pool: Pool, other: Pool) -> Pool:
    return tuple(a - b for a, b in zip(pool, other))


@dataclass(frozen=True)
class Built:
    """A pool to roll and how to get it: the Focus swaps made and the dice discarded."""

    pool: Pool
    swaps: tuple[int, ...]  # the colour swapped in for a Black die, per swap made
    discarded: Pool


def builds(game: Game, added: Pool, focuses: Focuses, daleks: int, limit: int = POOL_LIMIT
           ) -> list[Built]:
    """Every distinct pool to roll (reading 3): each Focus icon used or not (a split icon for
    either colour), then discards down to `limit` (eight, or a lone Doctor's limit under
    Time-Breach, `rules.alone_limit`) and one more per Dalek. Each pool comes with the first
    way found to build it (fewest swaps first)."""
    validate_supply(game, added)
    validate_daleks(daleks)
    if not any(added):
        raise InputError("--add gives no dice")
    seen: dict[Pool, Built] = {}
    for pool, swaps in focus_choices(game, added, focuses):
        for kept in sub_pools(pool, dice_to_roll(sum(pool), limit, daleks)):
            if kept not in seen:
                seen[kept] = Built(kept, swaps, minus(pool, kept))
    return sorted(seen.values(), key=lambda b: (len(b.swaps), b.swaps, [-n for n in b.pool]))


def focus_choices(game: Game, added: Pool, focuses: Focuses, taken: Pool | None = None
                  ) -> Iterator[tuple[Pool, tuple[int, ...]]]:
    """Every pool the Focus icons can make of the dice added (each icon used or not, a split
    icon for either colour; `taken`: dice the other Doctor holds, reading 6), with the swaps
    made, fewest swaps first."""
    choices = sorted(product(*((None, *colours) for colours in focuses)),
                     key=lambda picks: sum(c is not None for c in picks))
    for picks in choices:
        focused = _focused(game, added, picks, taken)
        if focused is not None:
            yield focused


def _focused(game: Game, added: Pool, picks: tuple[int | None, ...], taken: Pool | None
             ) -> tuple[Pool, tuple[int, ...]] | None:
    """The pool after the Focus swaps picked (None: an icon not used) and the swaps made, or
    None when a swap cannot be made."""
    pool, swaps = added, ()
    for colour in picks:
        if colour is None:
            continue
        pool = focus(game, pool, colour, taken)
        if pool is None:
            return None
        swaps += (colour,)
    return pool, swaps


def splits(pool: Pool, helped_limit: int, helper_limit: int,
           daleks: int) -> list[tuple[Pool, Pool]]:
    """Every (helped Doctor's dice, helper's dice) from one pool (reading 6): at most the two
    limits, the Daleks' dice removed, as many dice as possible kept."""
    validate_daleks(daleks)
    total = dice_to_roll(sum(pool), helped_limit + helper_limit, daleks)
    found = []
    for helper_size in range(min(helper_limit, total) + 1):
        if total - helper_size > helped_limit:
            continue
        for helper in sub_pools(pool, helper_size):
            for helped in sub_pools(minus(pool, helper), total - helper_size):
                found.append((helped, helper))
    return found


def own_pools(game: Game, helped: Pool, helper: Pool, focuses: Focuses, helped_limit: int,
              helper_limit: int, daleks: int) -> list[tuple[Pool, Pool]]:
    """Every (helped Doctor's dice, helper's dice) when each gathers their own (reading 6,
    --helper-dice own): the helper's Focus icons used or not, then each Doctor keeping up to
    their own limit and the two no more of a colour than the supply has, discarding only what
    the limits and the supply force; then one die per Dalek from either pool (the helped Doctor
    chooses)."""
    validate_daleks(daleks)
    validate_supply(game, helper, "the helper gathers ")
    found: dict[tuple[Pool, Pool], None] = {}
    for gathered in dict.fromkeys(pool for pool, _ in focus_choices(game, helper, focuses,
                                                                    taken=helped)):
        for kept in _kept_pairs(game, (helped, gathered), (helped_limit, helper_limit)):
            for pair in _exterminated(kept, daleks):
                found[pair] = None
    return list(found)


def _kept_pairs(game: Game, gathered: tuple[Pool, Pool], limits: tuple[int, int]
                ) -> Iterator[tuple[Pool, Pool]]:
    """Every pair of kept dice within the two limits and the supply from which no discarded
    die could be kept."""
    options = [[p for p in product(*(range(n, -1, -1) for n in pool)) if sum(p) <= limit]
               for pool, limit in zip(gathered, limits)]
    for pair in product(*options):
        both = tuple(a + b for a, b in zip(*pair))
        if any(n > supply for n, supply in zip(both, game.supply)):
            continue
        if not any(sum(kept) < limit and kept[c] < pool[c] and both[c] < game.supply[c]
                   for kept, pool, limit in zip(pair, gathered, limits)
                   for c in range(len(pool))):
            yield pair


def _exterminated(pair: tuple[Pool, Pool], daleks: int) -> Iterator[tuple[Pool, Pool]]:
    """The pools once the Daleks have taken one die each from either (all, if too few)."""
    mine, theirs = pair
    total = dice_to_roll(sum(mine) + sum(theirs), sum(mine) + sum(theirs), daleks)
    for size in range(max(0, total - sum(theirs)), min(sum(mine), total) + 1):
        for kept in sub_pools(mine, size):
            for helps in sub_pools(theirs, total - size):
                yield kept, helps
