"""Player actions as small immutable values, and their JSON form (docs/api.md).

`legal_actions()` returns these, `apply()` takes them, the browser and saves speak their JSON.
`IllegalAction` is the one exception an illegal action raises; its message is German, for the player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .hexgrid import Hex, parse_hex
from .limits import is_id, show
from .rulesdata import RULES, SIDES


class IllegalAction(ValueError):
    """The action is not allowed now; the game is unchanged. str(e) is a German message."""


@dataclass(frozen=True)
class Move:
    unit: int
    to: Hex

    def to_json(self) -> dict:
        return {"type": "move", "unit": self.unit, "to": self.to.to_json()}


@dataclass(frozen=True)
class Load:
    unit: int
    transport: int

    def to_json(self) -> dict:
        return {"type": "load", "unit": self.unit, "transport": self.transport}


@dataclass(frozen=True)
class Unload:
    transport: int
    unit: int
    to: Hex

    def to_json(self) -> dict:
        return {"type": "unload", "transport": self.transport, "unit": self.unit,
                "to": self.to.to_json()}


@dataclass(frozen=True)
class Attack:
    unit: int
    target: Hex

    def to_json(self) -> dict:
        return {"type": "attack", "unit": self.unit, "target": self.target.to_json()}


@dataclass(frozen=True)
class Build:
    at: Hex
    unit_type: str

    def to_json(self) -> dict:
        return {"type": "build", "at": self.at.to_json(), "unit_type": self.unit_type}


@dataclass(frozen=True)
class EndPhase:
    def to_json(self) -> dict:
        return {"type": "end_phase"}


@dataclass(frozen=True)
class Surrender:
    side: str

    def to_json(self) -> dict:
        return {"type": "surrender", "side": self.side}


Action = Union[Move, Load, Unload, Attack, Build, EndPhase, Surrender]


# The keys each action type has; anything else is refused (a typo must not pass silently).
ACTION_KEYS = {
    "move": {"type", "unit", "to"},
    "load": {"type", "unit", "transport"},
    "unload": {"type", "transport", "unit", "to"},
    "attack": {"type", "unit", "target"},
    "build": {"type", "at", "unit_type"},
    "end_phase": {"type"},
    "surrender": {"type", "side"},
}


def _int_field(d: dict, key: str) -> int:
    v = d.get(key)
    if not is_id(v):
        raise IllegalAction(f"Ungültige Aktion: '{key}' muss eine Einheitennummer sein.")
    return v


def _hex_field(d: dict, key: str) -> Hex:
    try:
        return parse_hex(d.get(key))
    except ValueError:
        raise IllegalAction(f"Ungültige Aktion: '{key}' muss ein Feld [Spalte, Zeile] sein.") from None


def action_from_json(d: object) -> Action:
    """Parse an action's JSON form; raises IllegalAction with a German reason (never anything else,
    whatever JSON value it gets)."""
    if not isinstance(d, dict) or not isinstance(d.get("type"), str):
        raise IllegalAction("Ungültige Aktion: erwartet ein Objekt mit 'type'.")
    kind = d["type"]
    keys = ACTION_KEYS.get(kind)
    if keys is None:
        raise IllegalAction(f"Ungültige Aktion: unbekannter Typ {show(kind)}.")
    for key in d:
        if key not in keys:
            raise IllegalAction(f"Ungültige Aktion: unbekannte Angabe {show(key)} bei '{kind}'.")
    if kind == "move":
        return Move(_int_field(d, "unit"), _hex_field(d, "to"))
    if kind == "load":
        return Load(_int_field(d, "unit"), _int_field(d, "transport"))
    if kind == "unload":
        return Unload(_int_field(d, "transport"), _int_field(d, "unit"), _hex_field(d, "to"))
    if kind == "attack":
        return Attack(_int_field(d, "unit"), _hex_field(d, "target"))
    if kind == "build":
        ut = d.get("unit_type")
        if not isinstance(ut, str) or ut not in RULES.units:
            raise IllegalAction(f"Ungültige Aktion: unbekannter Einheitentyp {show(ut)}.")
        return Build(_hex_field(d, "at"), ut)
    if kind == "end_phase":
        return EndPhase()
    if d.get("side") not in SIDES:
        raise IllegalAction("Ungültige Aktion: 'side' muss nordbund oder liga sein.")
    return Surrender(d["side"])
