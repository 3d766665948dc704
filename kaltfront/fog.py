"""Fog of war (R20, R46): what a side can see, and `observe`, the only view the UI and the AI get.

A side sees every hex within the vision of its units on the map (+1 on hills, +2 in mountains) and
within 2 of each own building. Without fog it sees everything. `observe` is the one boundary through
which state leaves the engine for a player: no hidden enemy, no enemy cargo, no RNG state.
"""

from __future__ import annotations

from .hexgrid import Hex
from .rulesdata import RULES, SIDES
from .state import GameState, Unit

_VISION_BONUS = {"huegel": 1, "gebirge": 2}


def sight(grid, terrain: list[str], viewers, buildings) -> frozenset[int]:
    """The hexes seen under fog (R20) from `viewers`, (hex, vision) pairs -- +1 on hills, +2 in
    mountains -- and within `building_vision` of the `buildings` (hexes). The engine asks it for a
    side's own units and buildings (`visible`); the AI for the enemy's it knows of
    (`Situation.enemy_sight`)."""
    hexes: set[int] = set()
    for at, vision in viewers:
        hexes.update(grid.within(at, vision + _VISION_BONUS.get(terrain[at], 0)))
    for at in buildings:
        hexes.update(grid.within(at, RULES.building_vision))
    return frozenset(hexes)


def visible(state: GameState, side: str) -> frozenset[int]:
    cached = state._visible_cache.get(side)
    if cached is not None:
        return cached
    if not state.fog:
        seen = frozenset(range(state.grid.size))
    else:
        seen = sight(state.grid, state.terrain, ((u.at, u.utype.vision) for u in state.units_of(side)),
                     (b.at for b in state.buildings.values() if b.owner == side))
    state._visible_cache[side] = seen
    return seen


def unit_view(state: GameState, u: Unit, own: bool) -> dict:
    view = {
        "id": u.id, "type": u.type, "side": u.side,
        "at": state.hex(u.at).to_json() if u.at is not None else None,
        "hp": u.hp, "level": u.level, "ammo": u.ammo, "fuel": u.fuel,
        "moved": u.moved, "attacked": u.attacked, "loaded": len(u.cargo),
    }
    if own:
        view["cargo"] = [unit_view(state, state.units[c], True) for c in u.cargo]
    return view


def observe(state: GameState, side: str) -> dict:
    """The JSON-ready view of the game for `side` (docs/api.md)."""
    seen = visible(state, side)
    width = state.width
    units = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.at is None:
            continue
        if u.side == side:
            units.append(unit_view(state, u, True))
        elif u.at in seen:
            units.append(unit_view(state, u, False))
    buildings = []
    for b in sorted(state.buildings.values(), key=lambda x: x.at):
        capture = None
        if b.capture_side is not None and (b.capture_side == side or b.at in seen):
            capture = {"side": b.capture_side, "unit": b.capture_unit}
        buildings.append({"at": state.hex(b.at).to_json(), "type": b.type, "owner": b.owner,
                          "name": b.name, "capture": capture})
    chars = [RULES.terrain[t].char for t in state.terrain]
    return {
        "viewer": side, "scenario": state.scenario_id, "name": state.name,
        "briefing": state.briefing, "objective": state.objectives.get(side, ""),
        "width": width, "height": state.height,
        "terrain": ["".join(chars[r * width:(r + 1) * width]) for r in range(state.height)],
        "visible": ["".join("1" if r * width + c in seen else "0" for c in range(width))
                    for r in range(state.height)],
        "round": state.round, "round_limit": state.round_limit, "first": state.first, "side": state.side,
        "phase": state.phase, "fog": state.fog, "blitz": state.blitz,
        "money": {s: state.money[s] for s in SIDES if s == side or not state.fog},
        "buildings": buildings, "units": units,
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def observe_events(state: GameState, events: list[dict], side: str) -> list[dict]:
    """The events `side` may see: its own side's, public ones, and enemy ones on hexes it sees (D15).

    Judged after the action. An enemy's `moved` event keeps only the visible part of its path, and
    its hidden ends are blanked, so nothing reveals where an unseen unit came from or went."""
    if not state.fog:
        return list(events)
    seen = visible(state, side)

    def on_seen(h: list[int] | None) -> bool:
        if h is None:
            return False
        i = state.index(Hex(h[0], h[1]))
        return i is not None and i in seen

    out = []
    for e in events:
        kind = e["type"]
        if kind in ("phase", "game_over", "surrendered"):
            out.append(e)
        elif kind == "captured":
            # D15: a side learns of a capture it made, of a building it lost, or one it sees.
            if e["side"] == side or e.get("previous_owner") == side or on_seen(e["at"]):
                out.append(e)
        elif kind == "income":
            if e["side"] == side:
                out.append(e)
        elif e.get("side") == side:
            out.append(e)
        elif kind == "moved":
            path = [h for h in e["path"] if on_seen(h)]
            if path:
                out.append({**e, "path": path,
                            "from": e["from"] if on_seen(e["from"]) else None,
                            "to": e["to"] if on_seen(e["to"]) else None})
        elif kind in ("loaded", "unloaded", "built", "destroyed", "crashed", "attacked",
                      "capture_started", "repaired", "resupplied", "level_up", "ambushed"):
            if any(on_seen(e.get(k)) for k in ("at", "from", "to")):
                out.append(e)
    return out
