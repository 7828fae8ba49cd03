"""What the `totd` commands report, as plain data (the CLI formats it for people)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from solver.commands import exact_text
from solver.formatting import percent
from solver.games.totd.changes import witness
from solver.games.totd.cost import refuse_solves
from solver.games.totd.keeps import Group
from solver.games.totd.model import DISCARD, SONIC, Option, Solver
from solver.games.totd.pools import builds, own_pools, splits
from solver.games.totd.rules import (
    ANY_ADVENTURE,
    OWN,
    POOL_LIMIT,
    SONIC_REROLL,
    Adventure,
    Call,
    Doctor,
    Focuses,
    Game,
    Pool,
    Tools,
    help_pools,
    pay_call,
    validate_supply,
)
from solver.games.totd.typed import need_data, need_text, parse_challenge, pool_data, pool_text
from solver.tables import write_manifest, write_table


def describe(adventure: Adventure) -> dict:
    """The Challenge, the Doctors' pools and tools, as the reports show them."""
    game = adventure.game
    return {"need": need_data(game, adventure.need),
            "doctors": [{"pool": pool_data(game, d.pool), "tools": d.tools.data(game)}
                        for d in adventure.doctors],
            "any_adventure_tools": adventure.shared.data(game)}


def probabilities(adventure: Adventure, exact: bool) -> dict:
    """P(Challenge met) with optimal play and P(the first roll meets it, with the face changes
    in hand but no re-roll), float and exact."""
    solver = Solver(adventure)
    exact_solver = Solver(adventure, exact=True) if exact else None
    result = {}
    for key, answer in (("p_success", Solver.p_success), ("p_first_roll", Solver.p_first_roll)):
        result[key] = answer(solver)
        if exact_solver is not None:
            result[key + "_exact"] = exact_text(answer(exact_solver))
    return result | {"positions": solver.states()}


def chance(adventure: Adventure, exact: bool, force: bool) -> dict:
    refuse_solves("this solve", [adventure], [adventure] if exact else [], force)
    return describe(adventure) | probabilities(adventure, exact)


# ---- best move ------------------------------------------------------------------------------
@dataclass
class Table:
    """The dice on the table by group, so that a reduced face (a needed symbol, or blank) can be
    named as the real face of a real die."""

    game: Game
    groups: tuple[Group, ...]
    showing: tuple[tuple[tuple[int, ...], ...], ...]  # [doctor][colour] counts over die faces

    def faces(self, g: int) -> list[str]:
        """The faces group g's dice show, in the die's face order."""
        group = self.groups[g]
        return [f for f, n in zip(self.game.dice[group.colour].faces,
                                  self.showing[group.doctor][group.colour]) for _ in range(n)]

    def unneeded(self, g: int) -> list[str]:
        """The faces of group g's dice that the Challenge does not need."""
        return [f for f in self.faces(g) if self.game.symbol(f) not in self.groups[g].die.symbols]

    def dice(self, g: int) -> list[list[str]]:
        """Group g's dice by reduced face: needed symbols up to the Challenge's count, then the
        blank dice (faces not needed first, then surplus)."""
        die = self.groups[g].die
        buckets: list[list[str]] = [[] for _ in die.symbols]
        surplus = []
        for face in self.faces(g):
            symbol = self.game.symbol(face)
            if symbol in die.symbols:
                f = die.symbols.index(symbol)
                (buckets[f] if len(buckets[f]) < die.caps[f] else surplus).append(face)
        buckets[-1] = self.unneeded(g) + surplus
        return buckets

    def name_rerolled(self, g: int, counts: tuple[int, ...]) -> list[str]:
        """Real dice of group g, as "colour:Face", for counts over its reduced faces where a
        needed symbol means any die showing it and blank a die showing an unneeded face."""
        group = self.groups[g]
        names = [self.game.symbols[s] for s, n in zip(group.die.symbols[:-1], counts)
                 for _ in range(n)]
        return [f"{self.game.colours[group.colour]}:{face}"
                for face in names + self.unneeded(g)[:counts[-1]]]


def best_move(adventure: Adventure, showing: tuple[tuple[tuple[int, ...], ...], ...],
              exact: bool, force: bool = False) -> dict:
    """Every option from a position with its probability and regret, best first (ties keep the
    order stop, re-roll icons, Sonic re-rolls, Black discard)."""
    refuse_solves("this solve", [adventure], [adventure] if exact else [], force)
    solvers = [Solver(adventure)] + ([Solver(adventure, exact=True)] if exact else [])
    solver = solvers[0]
    state = solver.position(showing)
    table = Table(adventure.game, solver.groups, showing)
    changes = stop_changes(solver, table, state)
    options = [s.options(showing) for s in solvers]
    rows = []
    for index, option in enumerate(options[0]):
        row = {"action": _action(option), "tool": _tool(adventure.game, option),
               "dice": [] if option.action is None else _rerolled(solver, table, option),
               "changes": (changes or []) if option.action is None else [],
               "p_success": option.value}
        if exact:
            row["p_success_exact"] = options[1][index].value
        rows.append(row)
    rank = "p_success_exact" if exact else "p_success"
    rows.sort(key=lambda r: -r[rank])
    best = rows[0][rank]
    for row in rows:
        row["regret"] = float(best - row[rank]) if exact else best - row[rank]
        if exact:
            row["regret_exact"] = exact_text(best - row[rank])
            row[rank] = exact_text(row[rank])
    return describe(adventure) | {
        "verdict": verdict(rows[0], changes is not None),
        "showing": [f"{colour}:{face}" for counts in showing for colour, die, n in
                    zip(adventure.game.colours, adventure.game.dice, counts)
                    for face, k in zip(die.faces, n) for _ in range(k)],
        "met_on_stopping": changes is not None,
        "p_success": rows[0]["p_success"],
    } | ({"p_success_exact": rows[0]["p_success_exact"]} if exact else {}) | {
        "best": rows[0], "options": rows}


def verdict(best: dict, met: bool) -> str:
    """The best option as one sentence a player can act on: what to do, and the chance."""
    chance = f"{percent(best['p_success'])} to meet the Challenge"
    dice = dice_words(best["dice"])
    if best["action"] == "stop" and met:
        changes = best["changes"]
        return "Stop: the Challenge is met" + (f" once you change {', '.join(changes)}"
                                               if changes else "") + "."
    if best["action"] == "stop":
        return "Stop: nothing left can meet the Challenge (0%)."
    if best["action"] == "discard a Black die":
        return f"Discard a Black die and roll the other {len(best['dice'])} dice: {chance}."
    if best["action"] == "Sonic re-roll":
        return f"Spend {best['tool']} to re-roll {dice}: {chance}."
    return f"Re-roll {dice} with the re-roll icon \"{best['tool']}\": {chance}."


def dice_words(dice: list[str]) -> str:
    """Dice as players say them: "2x black:Running blue:Cunning" (first-seen order)."""
    counts: dict[str, int] = {}
    for die in dice:
        counts[die] = counts.get(die, 0) + 1
    return " ".join(die if n == 1 else f"{n}x {die}" for die, n in counts.items())


def stop_changes(solver: Solver, table: Table, state: tuple[int, ...]) -> list[str] | None:
    """The changes that meet the Challenge on stopping here ([] if none are needed), or None."""
    adventure = solver.adventure
    counts = [solver.keeps(solver.start, g).vectors[s] for g, s in enumerate(state)]
    rewrites = witness(counts, solver.groups, adventure.need, solver.networks(solver.start))
    if rewrites is None:
        return None
    buckets = {g: table.dice(g) for g in range(len(solver.groups))}
    changes = []
    for r in rewrites:
        colour = adventure.game.colours[solver.groups[r.group].colour]
        face = buckets[r.group][r.face].pop(0)
        changes.append(f"{colour}:{face}->{adventure.game.symbols[r.symbol]} ({r.label})")
    return changes


def _action(option: Option) -> str:
    if option.action is None:
        return "stop"
    return {DISCARD: "discard a Black die", SONIC: "Sonic re-roll"}.get(option.action.kind,
                                                                        "re-roll icon")


def _tool(game: Game, option: Option) -> str:
    action = option.action
    if action is None:
        return "changes in hand"
    if action.kind == DISCARD:
        return "a Black die"
    if action.kind == SONIC:
        return f"{SONIC_REROLL} Sonic tokens"
    holder = " (either Doctor)" if action.icon[0] == ANY_ADVENTURE else ""
    return action.icon[1].text(game) + holder


def _rerolled(solver: Solver, table: Table, option: Option) -> list[str]:
    """The dice a re-roll option throws again, as "colour:Face". A Black-die discard throws all
    the Doctor's other dice: the discarded one is a Black die showing a face the Challenge
    does not need if there is one (which Black die goes makes no difference)."""
    action = option.action
    if action.kind != DISCARD:
        return table.name_rerolled(action.group, option.rerolled)
    dice = []
    for g, group in enumerate(solver.groups):
        if group.doctor != action.doctor:
            continue
        faces = table.faces(g)
        if group.colour == solver.adventure.game.black:
            unneeded = table.unneeded(g)
            faces.remove(unneeded[0] if unneeded else faces[-1])
        colour = solver.adventure.game.colours[group.colour]
        dice += [f"{colour}:{face}" for face in faces]
    return dice


# ---- choosing among pools --------------------------------------------------------------------
NEAR = 1e-9  # floats closer than this may be in the wrong order: exact values decide


def rank(candidates: list[Adventure], exact: bool, top: int) -> list[tuple[int, float, object]]:
    """The `top` best candidates as (index, P float, P exact or None), best first. Floats rank
    them all; with `exact`, every candidate within NEAR of the best float is solved exactly too,
    so the first is the exact best."""
    floats = [Solver(c).p_success() for c in candidates]
    order = sorted(range(len(candidates)), key=lambda i: -floats[i])
    if not exact:
        return [(i, floats[i], None) for i in order[:top]]
    chosen = [i for i in order if floats[i] >= floats[order[0]] - NEAR]
    chosen += [i for i in order[:top] if i not in chosen]
    exacts = {i: Solver(candidates[i], exact=True).p_success() for i in chosen}
    chosen.sort(key=lambda i: -exacts[i])
    return [(i, floats[i], exacts[i]) for i in chosen[:top]]


def _with_exact(row: dict, value) -> dict:
    return row | ({"p_success_exact": exact_text(value)} if value is not None else {})


def build(game: Game, need: tuple[int, ...], added: Pool, focuses: Focuses, daleks: int,
          tools: Tools, printed: bool, exact: bool, top: int, force: bool = False,
          limit: int = POOL_LIMIT) -> dict:
    """Every pool the Focus icons and discards (down to `limit`) allow, ranked by
    P(Challenge met)."""
    found = builds(game, added, focuses, daleks, limit)
    candidates = [Adventure(game, need, (Doctor(b.pool, tools),), printed_faces=printed)
                  for b in found]
    refuse_solves(f"comparing {len(found):,} pools", candidates,
                  _costliest(candidates, top) if exact else [], force)
    rows = [_with_exact({"pool": pool_data(game, found[i].pool),
                         "swaps": [f"black->{game.colours[c]}" for c in found[i].swaps],
                         "discard": pool_data(game, found[i].discarded), "p_success": p}, e)
            for i, p, e in rank(candidates, exact, top)]
    return {"need": need_data(game, need), "added": pool_data(game, added),
            "focus": ["/".join(game.colours[c] for c in f) for f in focuses], "daleks": daleks,
            "tools": tools.data(game), "pools_compared": len(found), "best": rows[0],
            "options": rows}


def _costliest(candidates: list[Adventure], count: int) -> list[Adventure]:
    """The `count` candidates with the most positions: those an exact ranking may solve."""
    return sorted(candidates, key=lambda a: -Solver(a).size().positions)[:count]


# ---- calling for help -------------------------------------------------------------------------
def help_cases(adventure: Adventure, call: Call) -> list[tuple[str, int, int, list]]:
    """Per case (alone, help from afar, help at the location): its name, the two pool limits
    and every (helped Doctor's dice, helper's dice) the rules allow (reading 6)."""
    me = adventure.doctors[0]
    cases = []
    for name, helped_limit, helper_limit in help_pools(call.time_breach, call.breach_alone):
        if call.helper_dice == OWN:
            ways = own_pools(adventure.game, me.pool, call.helper.pool, call.focuses,
                             helped_limit, helper_limit, call.daleks)
        else:
            ways = splits(me.pool, helped_limit, helper_limit, call.daleks)
        cases.append((name, helped_limit, helper_limit, ways))
    return cases


def call_for_help(adventure: Adventure, call: Call, exact: bool, force: bool = False) -> dict:
    """P(Challenge met) alone, with help from afar and with help at the location, each with the
    best pools to roll (reading 6) and optimal play by both Doctors."""
    me, game = adventure.doctors[0], adventure.game
    cases = help_cases(adventure, call)
    candidates = []
    for _, _, helper_limit, ways in cases:
        tools = pay_call(me.tools) if helper_limit and call.call_with_sonic else me.tools
        candidates.append([adventure.with_doctors((Doctor(helped, tools),) + (
            (Doctor(helps, call.helper.tools),) if helper_limit else ()))
            for helped, helps in ways])
    every = [c for case in candidates for c in case]
    refuse_solves(f"comparing {len(every):,} pools to roll", every,
                  [_costliest(case, 1)[0] for case in candidates] if exact else [], force)
    results = []
    for (name, helped_limit, helper_limit, ways), case in zip(cases, candidates):
        [(best, p, e)] = rank(case, exact, 1)
        helped, helps = ways[best]
        results.append(_with_exact({
            "scenario": name, "helped_limit": helped_limit, "helper_limit": helper_limit,
            "helped_pool": pool_data(game, helped), "helper_pool": pool_data(game, helps),
            "p_success": p, "pools_compared": len(ways)}, e))
    key = "p_success_exact" if exact else "p_success"
    return describe(adventure) | {
        "helper": {"pool": pool_data(game, call.helper.pool),
                   "focus": ["/".join(game.colours[c] for c in f) for f in call.focuses],
                   "tools": call.helper.tools.data(game)},
        "daleks": call.daleks, "scenarios": results,
        "best": max(results, key=lambda r: Fraction(r[key]))}


# ---- the table --------------------------------------------------------------------------------
TABLE_CHALLENGES = (
    "Science, Cunning, Tactics",
    "Running, Diplomacy, Strength",
    "Science x2, Cunning, Tactics",
    "Running, Diplomacy, Tactics, Strength",
    "Science x2, Cunning, Tactics, Diplomacy",
    "Running x2, Diplomacy, Tactics, Strength",
    "Running, Diplomacy, Science, Cunning, Tactics, Strength",
    "Science x2, Cunning x2, Tactics, Diplomacy",
)
TABLE_SIZES = range(4, 9)
TABLE_SONIC = range(0, 6)


def table_pools(game: Game) -> list[tuple[str, Pool]]:
    """Black-only pools and mixed pools (one die of each colour, the rest Black) of 4 to 8 (a
    dice file with more colours than a size holds has no mixed pool of that size)."""
    pools = []
    for size in TABLE_SIZES:
        black = tuple(size if c == game.black else 0 for c in range(len(game.colours)))
        mixed = tuple(size - len(game.colours) + 1 if c == game.black else 1
                      for c in range(len(game.colours)))
        pools += [("black", black)] + ([("mixed", mixed)] if min(mixed) >= 0 else [])
    return pools


def write_tables(game: Game, out: Path, command: str) -> tuple[Path, dict]:
    """P(Challenge met) with optimal play (float and exact) and P(first roll) for the grid."""
    header = ["challenge", "symbols", "pool_kind", "pool", "dice", "sonic", "p_success",
              "p_success_exact", "p_first_roll"]
    needs = [parse_challenge(game, text) for text in TABLE_CHALLENGES]  # a dice file may lack
    for _, pool in table_pools(game):  # a symbol or dice: refused before any solve
        validate_supply(game, pool)
    rows = []
    for need in needs:
        for kind, pool in table_pools(game):
            for sonic in TABLE_SONIC:
                adventure = Adventure(game, need, (Doctor(pool, Tools(sonic)),))
                solver = Solver(adventure)
                exact = Solver(adventure, exact=True).p_success()
                rows.append([need_text(game, need), sum(need), kind, pool_text(game, pool),
                             sum(pool), sonic, solver.p_success(), exact_text(exact),
                             solver.p_first_roll()])
    files = write_table(out, "p_success", header, rows)
    summary = {"rows": len(rows), "challenges": len(TABLE_CHALLENGES),
               "pools": len(table_pools(game))}
    parameters = {"challenges": list(TABLE_CHALLENGES),
                  "pools": [pool_text(game, p) for _, p in table_pools(game)],
                  "sonic": list(TABLE_SONIC), "re-roll icons": [], "face changes": [],
                  "dice_source": game.source}
    return write_manifest(out, files, command, parameters, summary), summary
