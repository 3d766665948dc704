"""Buildings (R32–R36, R19, R31, R68, R70, D4, D5, D13): income, capture, repair and resupply, production.

Which building does what is data (rules.json "buildings"). This module applies it at the moments the
rulebook names: income, Jäger captures, repair and resupply at the start of the move phase; Pionier
captures (every Jäger's in Blitz) and the Versorger at its end.
"""

from __future__ import annotations

from .rulesdata import RULES
from .state import Building, GameState, Outcome, Unit


def income(state: GameState, side: str) -> int:
    return sum(RULES.buildings[b.type].income for b in state.buildings.values() if b.owner == side)


def capture(state: GameState, b: Building, side: str, events: list[dict]) -> None:
    """The building changes hands (R35); an HQ taken ends the game (R36, R48)."""
    previous = b.owner
    b.owner = side
    b.capture_side = b.capture_unit = None
    events.append({"type": "captured", "at": state.hex(b.at).to_json(), "side": side,
                   "previous_owner": previous, "building": b.type, "name": b.name})
    if b.type == "hq" and previous is not None and previous != side and state.outcome is None:
        state.outcome = Outcome(side, "hq")
        events.append({"type": "game_over", "winner": side, "reason": "hq"})


def can_capture(u: Unit) -> bool:
    return u.type in ("jaeger", "pionier")


def start_of_move_phase(state: GameState, side: str, events: list[dict]) -> None:
    """Income, Jäger captures, repair and resupply (R11, R33, R35, R19, D4)."""
    amount = income(state, side)
    state.money[side] += amount
    events.append({"type": "income", "side": side, "amount": amount})
    # A Jäger's capture counts if it still stands there now, a whole enemy turn later (R35).
    for b in sorted(state.buildings.values(), key=lambda x: x.at):
        if b.capture_side == side:
            uid = state.board.get(b.at)
            if uid == b.capture_unit and b.owner != side:
                capture(state, b, side, events)
                if state.outcome is not None:
                    return
            else:
                b.capture_side = b.capture_unit = None
    for u in state.units_of(side):
        b = state.buildings.get(u.at)
        if b is None or b.owner != side:
            continue
        bt = RULES.buildings[b.type]
        cls = u.utype.movement
        if cls in bt.repairs and u.hp < RULES.start_hp:
            u.hp = min(RULES.start_hp, u.hp + RULES.repair_hp)
            events.append({"type": "repaired", "unit": u.id, "side": side,
                           "at": state.hex(u.at).to_json(), "hp": u.hp})
        # Ammunition and fuel where the building supplies the class; only ammunition where it just
        # rearms it (the Stadt rearms every unit on it, aircraft included: R31, D13).
        if cls in bt.supplies:
            changed = resupply(u)
        else:
            changed = cls in bt.rearms and resupply(u, fuel=False)
        if changed:
            events.append({"type": "resupplied", "unit": u.id, "side": side,
                           "at": state.hex(u.at).to_json()})


def resupply(u: Unit, fuel: bool = True) -> bool:
    """Fill ammunition and (unless `fuel` is False) fuel (R31, R18, R19). Returns whether anything
    changed."""
    ut = u.utype
    changed = False
    if u.ammo is not None and ut.ammo is not None and u.ammo < ut.ammo:
        u.ammo = ut.ammo
        changed = True
    if fuel and u.fuel is not None and ut.fuel is not None and u.fuel < ut.fuel:
        u.fuel = ut.fuel
        changed = True
    return changed


def end_of_move_phase_captures(state: GameState, side: str, events: list[dict]) -> None:
    """Pioniere capture at once (R35), every Jäger too in Blitz (R68); other Jäger start (R35)."""
    for u in state.units_of(side):
        if not can_capture(u):
            continue
        b = state.buildings.get(u.at)
        if b is None or b.owner == side:
            continue
        if u.type == "pionier" or state.blitz:
            capture(state, b, side, events)
            if state.outcome is not None:
                return
        elif b.capture_unit != u.id:
            b.capture_side, b.capture_unit = side, u.id
            events.append({"type": "capture_started", "at": state.hex(b.at).to_json(),
                           "unit": u.id, "side": side})


def versorger_resupply(state: GameState, side: str, events: list[dict]) -> None:
    """A Versorger refills ammunition and fuel of adjacent own units at the end of the move phase (R31)."""
    for v in state.units_of(side):
        if v.type != "versorger":
            continue
        for n in state.grid.neighbours[v.at]:
            u = state.unit_at(n)
            if u is not None and u.side == side and resupply(u):
                events.append({"type": "resupplied", "unit": u.id, "side": side,
                               "at": state.hex(n).to_json(), "by": v.id})


def buildable_types(state: GameState, b: Building) -> list[str]:
    """Unit types this building produces (D5), limited to the Blitz units in Blitz (R69)."""
    classes = RULES.buildings[b.type].produces
    allowed = RULES.blitz_buildable if state.blitz else tuple(RULES.units)
    return [t for t in allowed if RULES.units[t].movement in classes]


def can_build_any(state: GameState, side: str) -> bool:
    """Can the side still build (R49): a balance of at least the cheapest unit and a production site."""
    if state.money[side] < RULES.cheapest_cost:
        return False
    return any(b.owner == side and RULES.buildings[b.type].produces for b in state.buildings.values())
