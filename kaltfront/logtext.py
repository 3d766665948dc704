"""The Protokoll: German log lines for one side, built only from what that side saw (D15, issue 11.2/11.8).

`log_lines(state, events, side)` first filters the events with `fog.observe_events` (the one rule of
what a side may see) and only then writes text, so a line can never mention a hidden enemy's move,
build, capture or income. Places are named the way the map names them: by the building on the hex
("erobert Allinge") or by the nearest named building ("bei Aakirkeby", "nördlich von Nexø"), never by
coordinates. Call it after the action was applied (the fog is judged after the action, like
`observe_events`).
"""

from __future__ import annotations

import math

from .fog import observe_events, visible
from .hexgrid import Hex
from .rulesdata import RULES, SIDE_NAMES
from .state import GameState

PHASE_NAMES = {"attack": "Angriffsphase", "move": "Zugphase"}
# Compass words for the direction from the nearest building to a hex, starting east, counter-clockwise
# (screen y grows downwards, so "north" is negative y).
_COMPASS = ("östlich", "nordöstlich", "nördlich", "nordwestlich", "westlich", "südwestlich", "südlich",
            "südöstlich")
_REASONS = {"hq": "Hauptquartier erobert", "no_army": "keine Armee mehr",
            "round_limit": "Rundenlimit erreicht", "surrender": "Aufgabe"}


def _centre(h: Hex) -> tuple[float, float]:
    """Hex centre in units of hex width (odd-r: odd rows half a hex to the right)."""
    return h.col + 0.5 * (h.row & 1), h.row * math.sqrt(3) / 2


class _Places:
    """Names hexes for the log by the map's buildings (their names, else their type's name)."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def building_name(self, i: int) -> str:
        b = self.state.buildings[i]
        return b.name or RULES.buildings[b.type].name

    def nearest(self, i: int) -> tuple[int | None, int]:
        best, best_d = None, 0
        for bi in sorted(self.state.buildings):
            d = self.state.grid.dist(i, bi)
            if best is None or d < best_d:
                best, best_d = bi, d
        return best, best_d

    def index(self, h: list[int] | None) -> int | None:
        if h is None:
            return None
        return self.state.index(Hex(h[0], h[1]))

    def _around(self, i: int) -> tuple[str, str]:
        """(phrase for being there, phrase for going there) for a hex with no building on it."""
        b, d = self.nearest(i)
        if b is None:
            name = RULES.terrain[self.state.terrain[i]].name
            return f"im Gelände ({name})", f"ins Gelände ({name})"
        name = self.building_name(b)
        if d <= 2:
            return f"bei {name}", f"in die Nähe von {name}"
        (bx, by), (x, y) = _centre(self.state.hex(b)), _centre(self.state.hex(i))
        angle = math.degrees(math.atan2(by - y, x - bx)) % 360
        word = _COMPASS[int((angle + 22.5) // 45) % 8]
        return f"{word} von {name}", f"in das Gebiet {word} von {name}"

    def at(self, h: list[int] | None) -> str:
        """'in Allinge', 'bei Aakirkeby', 'nördlich von Nexø'."""
        i = self.index(h)
        if i is None:
            return "im Nebel"
        if i in self.state.buildings:
            return f"in {self.building_name(i)}"
        return self._around(i)[0]

    def name(self, h: list[int] | None) -> str:
        """The building's own name ('Allinge'); a hex without one is named by where it lies."""
        i = self.index(h)
        if i is not None and i in self.state.buildings:
            return self.building_name(i)
        return f"ein Feld {self.at(h)}"

    def to(self, h: list[int] | None) -> str:
        """'nach Allinge', 'in die Nähe von Aakirkeby', 'in das Gebiet nördlich von Nexø'."""
        i = self.index(h)
        if i is None:
            return "in den Nebel"
        if i in self.state.buildings:
            return f"nach {self.building_name(i)}"
        return self._around(i)[1]


def _type_name(t: str | None) -> str:
    return RULES.units[t].name if t in RULES.units else "Einheit"


def _unit(state: GameState, uid: int | None, utype: str | None = None, side: str | None = None) -> str:
    """'Kampfpanzer (Nordbund)'; the type and side come from the event, else from the unit."""
    u = state.units.get(uid) if uid is not None else None
    utype = utype or (u.type if u else None)
    side = side or (u.side if u else None)
    name = _type_name(utype)
    return f"{name} ({SIDE_NAMES[side]})" if side in SIDE_NAMES else name


def _line(state: GameState, e: dict, side: str, places: _Places, seen: frozenset[int]) -> str | None:
    kind = e["type"]
    if kind == "moved":
        who = _unit(state, e["unit"], e.get("unit_type"), e.get("side"))
        if e.get("to") is not None and e.get("from") is not None:
            return f"{who} zieht {places.to(e['to'])}."
        if e.get("to") is not None:  # came out of the fog
            return f"{who} taucht {places.at(e['to'])} auf."
        if e.get("from") is not None:  # went into the fog
            return f"{who} verschwindet {places.at(e['from'])} im Nebel."
        return f"{who} zieht {places.at(e['path'][0])} durch."
    if kind == "ambushed":
        who = _unit(state, e["unit"], None, e.get("side"))
        by = f" ({_type_name(e['by_type'])})" if e.get("by_type") else ""
        return f"Hinterhalt{by}! {who} hält {places.at(e['at'])} an."
    if kind == "loaded":
        return f"{_unit(state, e['unit'], e.get('unit_type'), e.get('side'))} steigt in {_unit(state, e['transport'])} ein."
    if kind == "unloaded":
        return f"{_unit(state, e['unit'], e.get('unit_type'), e.get('side'))} wird {places.at(e['to'])} ausgeladen."
    if kind == "attacked":
        target = _unit(state, e["target"], e.get("target_type"), e.get("target_side"))
        fi = places.index(e.get("from"))
        # The target's side knows it was hit, but not by whom when the shooter stands in the fog.
        if e.get("side") != side and (fi is None or fi not in seen):
            s = f"Ein Gegner aus dem Nebel greift {target} {places.at(e['at'])} an: {e['damage']} Schaden"
        else:
            shooter = _unit(state, e["unit"], e.get("unit_type"), e.get("side"))
            s = f"{shooter} greift {target} {places.at(e['at'])} an: {e['damage']} Schaden"
        if e.get("counter_damage"):
            s += f", Erwiderung {e['counter_damage']}"
        return s + "."
    if kind == "destroyed":
        return f"{_unit(state, None, e.get('unit_type'), e.get('side'))} {places.at(e.get('at'))} vernichtet."
    if kind == "crashed":
        return f"{_unit(state, None, e.get('unit_type'), e.get('side'))} ist {places.at(e.get('at'))} abgestürzt."
    if kind == "level_up":
        return f"{_unit(state, e['unit'], None, e.get('side'))} steigt auf Stufe {e['level']}."
    if kind == "capture_started":
        return f"{_unit(state, e['unit'], None, e.get('side'))} beginnt die Eroberung von {places.name(e['at'])}."
    if kind == "captured":
        return f"{SIDE_NAMES[e['side']]} erobert {places.name(e['at'])}."
    if kind == "income":
        return f"Einnahmen {SIDE_NAMES[e['side']]}: +{e['amount']}."
    if kind == "repaired":
        return f"{_unit(state, e['unit'], None, e.get('side'))} wird {places.at(e.get('at'))} repariert ({e['hp']} hp)."
    if kind == "built":
        return f"{_type_name(e.get('unit_type'))} ({SIDE_NAMES[e['side']]}) gebaut {places.at(e['at'])} ({e['cost']})."
    if kind == "phase":
        return f"{SIDE_NAMES[e['side']]}: {PHASE_NAMES[e['phase']]}, Runde {e['round']}."
    if kind == "surrendered":
        return f"{SIDE_NAMES[e['side']]} gibt auf."
    if kind == "undone":  # D16: only the side that took it back sees this event
        what = {"move": "Bewegung", "load": "Einladen", "unload": "Ausladen", "build": "Produktion"}
        return f"{what.get(e['action'].get('type'), 'Aktion')} zurückgenommen."
    if kind == "game_over":
        why = _REASONS.get(e.get("reason"), "")
        who = f"{SIDE_NAMES[e['winner']]} gewinnt" if e.get("winner") else "Unentschieden"
        return f"Spielende: {who}" + (f" ({why})." if why else ".")
    return None  # "resupplied" and anything new: every turn for every unit, noise in the log


def log_lines(state: GameState, events: list[dict], side: str) -> list[str]:
    """The Protokoll lines `side` gets for `events` (D15): only what that side saw, named by places."""
    seen = visible(state, side)
    places = _Places(state)
    out = []
    for e in observe_events(state, events, side):
        line = _line(state, e, side, places, seen)
        if line:
            out.append(line)
    return out
