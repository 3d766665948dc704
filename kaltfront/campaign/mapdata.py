"""The campaign map (FELDZUG C1, C2): regions of the western Baltic as large hexes, read from the data
file `westliche-ostsee.json` beside this module and checked on load.

Each region has an id, its German name, its hex `at` [col, row] (odd-r offset, like the battle maps, so
the UI can draw it as a large hex), the battle map its battles are fought on and its neighbours. The
neighbours are data, not derived, so a strait can be cut; but each must be a hex neighbour, so what the
UI draws and what the rules use agree. The optional `coast` is a coarse outline of the land the map screen
draws behind the hexes (no rule reads it): polygons of [u, v] points in the grid's units, where a region
at [col, row] has its centre at u = col + 0.5 × (row odd), v = row.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..hexgrid import Hex, neighbours
from ..mapfile import scenario_ids
from ..rulesdata import SIDES

MAP_FORMAT = "kaltfront-feldzug-karte"
DEFAULT_MAP = "westliche-ostsee"


class CampaignMapError(ValueError):
    """The campaign map file is broken; str(e) says where, in German."""


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    at: tuple[int, int]
    map: str
    neighbours: tuple[str, ...]

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "at": list(self.at), "map": self.map,
                "neighbours": list(self.neighbours)}


@dataclass(frozen=True)
class CampaignMap:
    id: str
    name: str
    width: int
    height: int
    regions: dict[str, Region]      # in file order
    bases: dict[str, str]           # side -> base region id (C2)
    start_kp: int                   # each side's KP at the start, all on the base (C2, C3)
    rounds: int                     # the round limit (C9)
    coast: tuple = ()               # ({"name", "points": [[u, v], …]}, …): drawn only, see the docstring

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.regions[a].neighbours

    def base_of(self, region: str) -> str | None:
        for side, r in self.bases.items():
            if r == region:
                return side
        return None


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise CampaignMapError(f"Feldzugkarte: {message}")


def parse_map(data: dict) -> CampaignMap:
    _need(isinstance(data, dict) and data.get("format") == MAP_FORMAT, "falsches Format.")
    _need(data.get("version") == 1, "unbekannte Version.")
    w, h = data.get("width"), data.get("height")
    _need(isinstance(w, int) and isinstance(h, int) and 1 <= w <= 30 and 1 <= h <= 30, "Größe fehlt.")
    known_maps = set(scenario_ids())
    regions: dict[str, Region] = {}
    at_taken: dict[tuple[int, int], str] = {}
    for k, r in enumerate(data.get("regions") or []):
        where = f"Region {k + 1}"
        _need(isinstance(r, dict), f"{where} ist kein Objekt.")
        rid, name, at, battle = r.get("id"), r.get("name"), r.get("at"), r.get("map")
        _need(isinstance(rid, str) and rid and rid not in regions, f"{where}: id fehlt oder doppelt.")
        _need(isinstance(name, str) and name, f"{where}: Name fehlt.")
        _need(isinstance(at, list) and len(at) == 2 and all(isinstance(x, int) for x in at)
              and 0 <= at[0] < w and 0 <= at[1] < h, f"{rid}: 'at' liegt nicht auf der Karte.")
        _need(tuple(at) not in at_taken, f"{rid}: Feld {at} ist schon {at_taken.get(tuple(at))}.")
        _need(battle in known_maps, f"{rid}: unbekannte Schlachtkarte {battle!r}.")
        nb = r.get("neighbours")
        _need(isinstance(nb, list) and all(isinstance(x, str) for x in nb), f"{rid}: 'neighbours' fehlt.")
        at_taken[tuple(at)] = rid
        regions[rid] = Region(rid, name, (at[0], at[1]), battle, tuple(nb))
    _need(20 <= len(regions) <= 30, f"{len(regions)} Regionen, erlaubt sind 20 bis 30 (C1).")
    for r in regions.values():
        hex_nbs = {(n.col, n.row) for n in neighbours(Hex(*r.at))}
        for n in r.neighbours:
            _need(n in regions, f"{r.id}: unbekannter Nachbar {n!r}.")
            _need(regions[n].at in hex_nbs, f"{r.id} und {n} liegen nicht nebeneinander.")
            _need(r.id in regions[n].neighbours, f"{r.id} → {n} fehlt in der Gegenrichtung.")
    bases = data.get("bases")
    _need(isinstance(bases, dict) and set(bases) == set(SIDES)
          and all(b in regions for b in bases.values()) and len(set(bases.values())) == 2,
          "'bases' braucht je eine Basisregion für nordbund und liga (C2).")
    # Connected, so every region can be reached (C4 occupies only next to own regions).
    seen, todo = {bases["nordbund"]}, [bases["nordbund"]]
    while todo:
        for n in regions[todo.pop()].neighbours:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    _need(len(seen) == len(regions), "nicht alle Regionen sind verbunden.")
    start_kp, rounds = data.get("start_kp"), data.get("rounds")
    _need(start_kp == 30, "start_kp muss 30 sein (C2).")
    _need(rounds == 12, "rounds muss 12 sein (C9).")
    return CampaignMap(data.get("id") or DEFAULT_MAP, data.get("name") or "", w, h, regions,
                       dict(bases), start_kp, rounds, _parse_coast(data.get("coast"), w, h))


def _parse_coast(coast: object, w: int, h: int) -> tuple:
    """The land outline: polygons of at least 3 [u, v] points, at most 10 hexes beyond the map (the
    land runs on past the regions so a wide screen shows no edge)."""
    if coast is None:
        return ()
    _need(isinstance(coast, dict) and isinstance(coast.get("land"), list), "'coast' braucht eine Liste 'land'.")
    out = []
    for k, poly in enumerate(coast["land"]):
        pts = poly.get("points") if isinstance(poly, dict) else None
        _need(isinstance(pts, list) and len(pts) >= 3 and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                        for x in p) for p in pts),
              f"Küstenlinie {k + 1}: mindestens 3 Punkte [u, v].")
        _need(all(-10 <= p[0] <= w + 10 and -10 <= p[1] <= h + 10 for p in pts),
              f"Küstenlinie {k + 1} liegt mehr als 10 Felder neben der Karte.")
        out.append({"name": str(poly.get("name") or ""), "points": [[float(p[0]), float(p[1])] for p in pts]})
    return tuple(out)


@lru_cache(maxsize=None)
def load_campaign_map(map_id: str = DEFAULT_MAP) -> CampaignMap:
    """The shipped campaign map `map_id`; raises KeyError for an unknown one."""
    if map_id != DEFAULT_MAP:
        raise KeyError(map_id)
    path = Path(__file__).with_name(f"{map_id}.json")
    return parse_map(json.loads(path.read_text(encoding="utf-8")))
