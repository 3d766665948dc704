"""Victory and defeat (R48–R51, D8): no army, round limit with its tie-breaks, surrender.

The HQ capture (R48) is decided where captures happen (buildings.py); this module holds the rest.
"""

from __future__ import annotations

from .buildings import can_build_any
from .rulesdata import RULES, SIDES, other_side
from .state import GameState, Outcome


def unit_value(state: GameState, side: str) -> float:
    """The tie-break value of a side's units: the sum of cost x hp / 10, cargo included (D8)."""
    return sum(RULES.units[u.type].cost * u.hp / 10 for u in state.units.values() if u.side == side)


def buildings_held(state: GameState, side: str) -> int:
    return sum(1 for b in state.buildings.values() if b.owner == side)


def check_no_army(state: GameState) -> Outcome | None:
    """A side without units that cannot build loses (R49); both at once is a draw."""
    beaten = [s for s in SIDES if state.unit_count(s) == 0 and not can_build_any(state, s)]
    if len(beaten) == 1:
        return Outcome(other_side(beaten[0]), "no_army")
    if len(beaten) == 2:
        return Outcome(None, "no_army")
    return None


def round_limit_outcome(state: GameState) -> Outcome:
    """At the round limit: more buildings wins, then unit value, else a draw (R50, R66, D8)."""
    held = {s: buildings_held(state, s) for s in SIDES}
    if held["nordbund"] != held["liga"]:
        return Outcome(max(SIDES, key=lambda s: held[s]), "round_limit")
    value = {s: unit_value(state, s) for s in SIDES}
    if value["nordbund"] != value["liga"]:
        return Outcome(max(SIDES, key=lambda s: value[s]), "round_limit")
    return Outcome(None, "round_limit")


def end_summary(state: GameState) -> dict:
    """What the end screen explains (issue 11.11): why the game ended, and per side the buildings held
    and the unit value (the round-limit tie-breaks of R50/D8, computed here by the same functions that
    decided it), units on the map, built, lost and destroyed, and the rounds played."""
    o = state.outcome
    sides = {}
    for s in SIDES:
        stats = state.stats[s]
        sides[s] = {"buildings": buildings_held(state, s), "unit_value": round(unit_value(state, s), 1),
                    "units": state.unit_count(s), "built": stats["built"], "lost": stats["lost"],
                    "destroyed": stats["destroyed"]}
    held = {s: sides[s]["buildings"] for s in SIDES}
    # Which tie-break decided a round-limit game: "buildings", "unit_value", or None for a draw.
    decided_by = None
    if o is not None and o.reason == "round_limit":
        if held["nordbund"] != held["liga"]:
            decided_by = "buildings"
        elif o.winner is not None:
            decided_by = "unit_value"
    return {"winner": o.winner if o else None, "reason": o.reason if o else None, "decided_by": decided_by,
            "round": state.round, "round_limit": state.round_limit, "sides": sides}
