"""Hand-written positions for tests and perft, as save dicts (format: docs/save-format.md).

`position(...)` fills in everything a test does not care about, so each test states only what matters.
"""

from __future__ import annotations

import kaltfront


def unit(uid: int, utype: str, side: str, at: list[int] | None, **extra) -> dict:
    ut = kaltfront.RULES.units[utype]
    d = {"id": uid, "type": utype, "side": side, "hp": 10, "level": 0, "ammo": ut.ammo,
         "fuel": ut.fuel, "moved": False, "attacked": False}
    if at is not None:
        d["at"] = at
    d.update(extra)
    return d


def position(terrain: list[str], units: list[dict], *, buildings: dict | None = None,
             side: str = "nordbund", phase: str = "move", fog: bool = False, blitz: bool = False,
             money: tuple[int, int] = (0, 0), round_: int = 2, round_limit: int | None = None,
             rng: int = 12345) -> dict:
    """A save dict. `buildings` maps (col, row) -> owner (or (owner, capture_dict)); unlisted building
    hexes are neutral."""
    buildings = buildings or {}
    blist = []
    for r, row in enumerate(terrain):
        for c, ch in enumerate(row):
            t = kaltfront.RULES.terrain_by_char[ch]
            if t.id in kaltfront.RULES.buildings:
                owner = buildings.get((c, r))
                capture = None
                if isinstance(owner, tuple):
                    owner, capture = owner
                blist.append({"at": [c, r], "type": t.id, "owner": owner, "name": "", "capture": capture})
    if blitz:
        for u in units:
            u["ammo"] = u["fuel"] = None
            for c in u.get("cargo", []):
                c["ammo"] = c["fuel"] = None
    ids = [u["id"] for u in units] + [c["id"] for u in units for c in u.get("cargo", [])]
    return {"format": "kaltfront-save", "version": 1, "scenario": "test", "name": "Test",
            "briefing": "", "objectives": {}, "region": "",
            "map": {"width": len(terrain[0]), "height": len(terrain), "terrain": terrain},
            "blitz": blitz, "fog": fog, "round_limit": round_limit, "first": "nordbund",
            "round": round_, "side": side, "phase": phase,
            "money": {"nordbund": money[0], "liga": money[1]}, "buildings": blist, "units": units,
            "next_id": max(ids, default=0) + 1, "rng": rng, "outcome": None}


def game(*args, **kwargs) -> kaltfront.Game:
    return kaltfront.Game.from_json(position(*args, **kwargs))
