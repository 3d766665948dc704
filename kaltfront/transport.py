"""Transport (R39–R46, D6, D9): who may board which transport where, and where cargo may get off.

Five units carry others (slots and classes in rules.json). Loading: the cargo walks to a hex next to the
transport and steps onto it for 1 more point (R40). Landungsboot: only in coastal water or a port (R42).
Fähre: only in a port (R43). Air and land transports: to board, the cargo must be able to enter the
transport's hex itself, so a helicopter loads on land (R40). Unloading: onto a free neighbour the cargo
may enter, also after the transport has moved (R41), so a helicopter may set troops down on the shore
from over the water; the cargo then counts as moved.
"""

from __future__ import annotations

from .movement import Search, terrain_costs
from .rulesdata import RULES
from .state import GameState, Unit

# Ships that load and unload only on certain water (R42, R43, D6).
_SHIP_TERRAIN = {"landungsboot": ("kueste", "hafen"), "faehre": ("hafen",)}


def transfer_allowed_here(state: GameState, transport: Unit, cargo_class: str,
                          unloading: bool = False) -> bool:
    """May cargo of this movement class get on (or, `unloading`, off) `transport` where it stands now?"""
    terrain = state.terrain[transport.at]
    allowed = _SHIP_TERRAIN.get(transport.type)
    if allowed is not None:
        return terrain in allowed
    if transport.utype.movement == "see":
        return terrain == "hafen"
    if unloading:  # R41 asks only that the cargo may enter the hex it is put on
        return True
    return RULES.terrain[terrain].cost[cargo_class] is not None


def can_carry(transport: Unit, cargo: Unit) -> str | None:
    """None if `transport` could take `cargo` (class and a free slot), else the German reason."""
    tt = transport.utype
    if not tt.is_transport:
        return f"{tt.name} ist kein Transporter."
    if cargo.utype.movement not in tt.transport_classes:
        return f"{tt.name} kann {cargo.utype.name} nicht laden."
    if cargo.cargo:
        return "Eine beladene Einheit kann nicht selbst verladen werden."
    if len(transport.cargo) >= tt.transport_slots:
        return f"{tt.name} ist voll ({tt.transport_slots} Plätze)."
    return None


def boarding_path(state: GameState, u: Unit, transport: Unit, found: Search) -> list[int] | None:
    """The path by which `u` boards `transport` (ending on its hex), or None if out of reach (R40):
    the way to a neighbouring hex must be affordable and the transport's hex costs 1 more point and,
    like every hex entered, 1 more fuel (D12)."""
    points = u.utype.move
    fuel_hexes = points if u.fuel is None else u.fuel
    if points < 1 or fuel_hexes < 1:
        return None
    target = transport.at
    best = None
    for n in state.grid.neighbours[target]:
        label = found.cheapest_within(n, fuel_hexes - 1)
        if label is None or label[0] + 1 > points:
            continue
        if n != found.start and terrain_costs(state, u.utype.movement)[n] is None:
            continue
        if best is None or (label, n) < best:
            best = (label, n)
    if best is None:
        return None
    (_, layer), n = best
    return found.path(n, layer) + [target]


def unload_hexes(state: GameState, transport: Unit, cargo: Unit, seen: frozenset[int]) -> list[int]:
    """Free neighbours of the transport that the cargo may enter (R41), as far as the side knows."""
    if not transfer_allowed_here(state, transport, cargo.utype.movement, unloading=True):
        return []
    costs = terrain_costs(state, cargo.utype.movement)
    out = []
    for n in state.grid.neighbours[transport.at]:
        if costs[n] is None:
            continue
        occupant = state.unit_at(n)
        if occupant is None or (occupant.side != cargo.side and n not in seen):
            out.append(n)
    return sorted(out)
