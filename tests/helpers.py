"""Hand-built positions for the rule tests (tests/test_rules_*.py).

`make(rows, units, ...)` writes a save dict (the shape of `kaltfront.save.game_to_dict`) and loads it
with `Game.from_json`, so a test states exactly the position it needs and nothing happens on loading
(no income, no repair: those belong to the move phase's start, D4). Terrain rows are strings of the
terrain characters of docs/map-format.md without spaces; row 1, 3, … are shifted half a hex right
(odd-r), so along one row the distance between (a, r) and (b, r) is |a - b|.
"""

from __future__ import annotations

import json
import re

import pytest

import kaltfront
from kaltfront.rng import damage_roll
from kaltfront.rulesdata import RULES


def U(side: str, utype: str, at=None, **extra) -> dict:
    """One unit as a save dict; full ammunition and fuel unless given. `cargo` is a list of U()."""
    ut = RULES.units[utype]
    d = {"type": utype, "side": side, "hp": 10, "level": 0, "ammo": ut.ammo, "fuel": ut.fuel,
         "moved": False, "attacked": False}
    if at is not None:
        d["at"] = list(at)
    d.update(extra)
    return d


def make_dict(rows: list[str], units: list[dict] = (), *, owners: dict | None = None,
              side: str = "nordbund", phase: str = "move", fog: bool = False, blitz: bool = False,
              money=(0, 0), round_: int = 2, round_limit: int | None = None, rng: int = 0,
              first: str = "nordbund", captures: dict | None = None) -> dict:
    """A save dict. `owners` maps (col, row) -> "nordbund" | "liga" | None (unlisted: neutral);
    `captures` maps (col, row) -> (side, unit id) for a Jäger's capture in progress.
    Units get ids 1, 2, … in list order (cargo right after its transport) unless they carry one."""
    owners = owners or {}
    captures = captures or {}
    buildings = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            t = RULES.terrain_by_char[ch]
            if t.id in RULES.buildings:
                cap = captures.get((c, r))
                buildings.append({"at": [c, r], "type": t.id, "owner": owners.get((c, r)), "name": "",
                                  "capture": {"side": cap[0], "unit": cap[1]} if cap else None})
    units = json.loads(json.dumps(list(units)))  # callers may reuse their dicts
    next_id = 1

    def number(u: dict) -> None:
        nonlocal next_id
        if "id" not in u:
            u["id"] = next_id
        next_id = max(next_id, u["id"]) + 1
        if blitz:
            u["ammo"] = u["fuel"] = None
        for c in u.get("cargo", []):
            number(c)

    for u in units:
        number(u)
    return {"format": "kaltfront-save", "version": 1, "scenario": "test", "name": "Test",
            "briefing": "", "objectives": {}, "region": "",
            "map": {"width": len(rows[0]), "height": len(rows), "terrain": list(rows)},
            "blitz": blitz, "fog": fog, "round_limit": round_limit, "first": first,
            "round": round_, "side": side, "phase": phase,
            "money": {"nordbund": money[0], "liga": money[1]}, "buildings": buildings,
            "units": units, "next_id": next_id, "rng": rng, "outcome": None}


def make(rows: list[str], units: list[dict] = (), **kw) -> kaltfront.Game:
    return kaltfront.Game.from_json(make_dict(rows, units, **kw))


def rng_for(*rolls: int) -> int:
    """An RNG state whose next damage rolls (−1, 0, +1) are exactly `rolls` (D2)."""
    for seed in range(100000):
        state, ok = seed, True
        for want in rolls:
            state, got = damage_roll(state)
            if got != want:
                ok = False
                break
        if ok:
            return seed
    raise AssertionError(f"no seed for {rolls}")


def unit_at(g: kaltfront.Game, col: int, row: int):
    i = g.index(kaltfront.Hex(col, row))
    return g.unit_at(i)


def hexes(items) -> set[tuple[int, int]]:
    return {tuple(h) for h in items}


def reach(g: kaltfront.Game, uid: int) -> set[tuple[int, int]]:
    return {tuple(r["to"]) for r in g.reachable(uid)}


_GERMAN = re.compile(r"\b(der|die|das|den|dem|des|nicht|kein|keine|keinen|nur|ist|hat|kann|geht|"
                     r"Feld|Einheit|schon|mehr|muss|für|auf|im|in|zu|Aktion|Unbekannte|Ungültige)\b|[äöüßÄÖÜ]")


def assert_german(message: str) -> None:
    assert message and _GERMAN.search(message), f"not a German message: {message!r}"


def assert_illegal(g: kaltfront.Game, action, match: str | None = None) -> str:
    """The action raises IllegalAction with a German message and leaves the game exactly unchanged."""
    before = g.to_json()
    with pytest.raises(kaltfront.IllegalAction) as exc:
        g.apply(action)
    assert g.to_json() == before
    msg = str(exc.value)
    assert_german(msg)
    if match is not None:
        assert re.search(match, msg), msg
    return msg


def end_phase(g: kaltfront.Game) -> list[dict]:
    return g.apply({"type": "end_phase"})


def move(g, uid, to):
    return g.apply({"type": "move", "unit": uid, "to": list(to)})


def attack(g, uid, target):
    return g.apply({"type": "attack", "unit": uid, "target": list(target)})


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
