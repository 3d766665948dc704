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


# Events told in one fixed sentence. The words in braces come from `_Words`: {unit} the event's unit,
# {lost} a unit that is gone (named by the type and side the event carries), {side} the event's side,
# {phase} the phase's name, {at} where it happened, {place} the building there by name; any other word
# is the event's own field ({level}, {amount}, {hp}, {round}).
_SENTENCES = {
    "destroyed": "{lost} {at} vernichtet.",
    "crashed": "{lost} ist {at} abgestürzt.",
    "level_up": "{unit} steigt auf Stufe {level}.",
    "capture_started": "{unit} beginnt die Eroberung von {place}.",
    "captured": "{side} erobert {place}.",
    "income": "Einnahmen {side}: +{amount}.",
    "repaired": "{unit} wird {at} repariert ({hp} hp).",
    "phase": "{side}: {phase}, Runde {round}.",
    "surrendered": "{side} gibt auf.",
}


class _Words(dict):
    """One event's words for a `_SENTENCES` line, each worked out only when the sentence asks for it."""

    def __init__(self, state: GameState, e: dict, places: _Places) -> None:
        super().__init__()
        self.state, self.e, self.places = state, e, places

    def __missing__(self, word: str):
        e = self.e
        if word == "unit":
            return _unit(self.state, e["unit"], None, e.get("side"))
        if word == "lost":
            return _unit(self.state, None, e.get("unit_type"), e.get("side"))
        if word == "side":
            return SIDE_NAMES[e["side"]]
        if word == "phase":
            return PHASE_NAMES[e["phase"]]
        if word == "at":
            return self.places.at(e.get("at"))
        if word == "place":
            return self.places.name(e["at"])
        return e[word]


def _line(state: GameState, e: dict, side: str, places: _Places, seen: frozenset[int]) -> str | None:
    kind = e["type"]
    sentence = _SENTENCES.get(kind)
    if sentence is not None:
        return sentence.format_map(_Words(state, e, places))
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
    if kind == "built":
        return f"{_type_name(e.get('unit_type'))} ({SIDE_NAMES[e['side']]}) gebaut {places.at(e['at'])} ({e['cost']})."
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
