"""The game data: units, terrain and buildings, loaded once from `data/rules.json`.

Every number the rules use comes from that one JSON file (the help page renders the same file), so a
balance change is a data change. This module only turns the JSON into small read-only records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

SIDES = ("nordbund", "liga")
SIDE_NAMES = {"nordbund": "Nordbund", "liga": "Baltische Liga"}
MOVEMENT_CLASSES = ("fuss", "rad", "kette", "luft", "see")
ARMOUR_CLASSES = ("weich", "hart", "luft", "see")


def other_side(side: str) -> str:
    return "liga" if side == "nordbund" else "nordbund"


@dataclass(frozen=True)
class UnitType:
    id: str
    name: str
    cost: int
    move: int
    vision: int
    range: tuple[int, int] | None  # None: unarmed
    attack: dict[str, int | None]
    defence: int
    ammo: int | None  # None: unarmed (R31)
    fuel: int | None  # None: needs no fuel (foot units, R17)
    movement: str
    armour: str
    transport_slots: int
    transport_classes: tuple[str, ...]

    @property
    def armed(self) -> bool:
        return self.ammo is not None

    @property
    def is_transport(self) -> bool:
        return self.transport_slots > 0


@dataclass(frozen=True)
class Terrain:
    id: str
    name: str
    char: str
    defence: int
    water: bool
    cost: dict[str, int | None]  # movement class -> cost, None = impassable


@dataclass(frozen=True)
class BuildingType:
    id: str
    name: str
    income: int
    produces: tuple[str, ...]
    repairs: tuple[str, ...]
    supplies: tuple[str, ...]  # classes it refills ammunition and fuel for (R33)
    rearms: tuple[str, ...]    # classes it refills ammunition for; the Stadt: every class (D13)


@dataclass(frozen=True)
class Rules:
    raw: dict[str, Any]
    units: dict[str, UnitType]
    terrain: dict[str, Terrain]
    terrain_by_char: dict[str, Terrain]
    buildings: dict[str, BuildingType]
    max_units: int
    max_level: int
    start_hp: int
    repair_hp: int
    building_vision: int
    own_building_defence: int
    blitz_rounds: int
    blitz_money: int
    blitz_buildable: tuple[str, ...]
    blitz_start_army: tuple[str, ...]

    @property
    def cheapest_cost(self) -> int:
        return min(u.cost for u in self.units.values())


def _load() -> Rules:
    text = resources.files("kaltfront").joinpath("data/rules.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    units = {}
    for uid, u in raw["units"].items():
        t = u["transport"] or {"slots": 0, "classes": []}
        units[uid] = UnitType(
            id=uid, name=u["name"], cost=u["cost"], move=u["move"], vision=u["vision"],
            range=tuple(u["range"]) if u["range"] else None, attack=dict(u["attack"]),
            defence=u["defence"], ammo=u["ammo"], fuel=u["fuel"], movement=u["movement"],
            armour=u["armour"], transport_slots=t["slots"], transport_classes=tuple(t["classes"]),
        )
    terrain = {
        tid: Terrain(id=tid, name=t["name"], char=t["char"], defence=t["defence"], water=t["water"],
                     cost=dict(t["cost"]))
        for tid, t in raw["terrain"].items()
    }
    buildings = {
        bid: BuildingType(id=bid, name=b["name"], income=b["income"], produces=tuple(b["produces"]),
                          repairs=tuple(b["repairs"]), supplies=tuple(b["supplies"]),
                          rearms=tuple(b["rearms"]))
        for bid, b in raw["buildings"].items()
    }
    blitz = raw["blitz"]
    return Rules(
        raw=raw, units=units, terrain=terrain,
        terrain_by_char={t.char: t for t in terrain.values()}, buildings=buildings,
        max_units=raw["max_units"], max_level=raw["max_level"], start_hp=raw["start_hp"],
        repair_hp=raw["repair_hp"], building_vision=raw["building_vision"],
        own_building_defence=raw["own_building_defence"], blitz_rounds=blitz["rounds"],
        blitz_money=blitz["start_money"], blitz_buildable=tuple(blitz["buildable"]),
        blitz_start_army=tuple(blitz["start_army"]),
    )


RULES = _load()
