"""Shared pieces of the computer opponent: map geometry, game data, the belief game and budgets.

Fairness (R4) by construction: everything here is built from the observation dict that
`Game.observe(side)` returns (plus the AI's own memory of earlier observations). The belief game is an
ordinary engine `Game` loaded from a save dict holding the map, the buildings and the units the AI
knows about; every rule question (reachable hexes, attack previews, loading, building) is then asked
of the engine itself on that belief game.
"""

from __future__ import annotations

import heapq
import json
import sys
import time

import kaltfront
from kaltfront.save import game_copy
from kaltfront.state import grid_for

RULES = kaltfront.rules()
UNITS = RULES["units"]
TERRAIN = RULES["terrain"]
BUILDINGS = RULES["buildings"]
CHAR_TERRAIN = {t["char"]: tid for tid, t in TERRAIN.items()}
INF = 1 << 20
CAPTURERS = ("jaeger", "pionier")
BLITZ_UNITS = tuple(RULES["blitz"]["buildable"])
AIR_HOMES = ("flugplatz", "hq", "depot")  # where aircraft refuel and never crash (R19)


def other(side: str) -> str:
    return "liga" if side == "nordbund" else "nordbund"


def worth(utype: str, blitz: bool) -> float:
    """What losing a unit of this type costs us: its price, and in Blitz a Jäger counts triple --
    only Jäger change the building count that decides the game (R66, R68), and only the HQ
    builds them, one a turn."""
    c = UNITS[utype]["cost"]
    return c * 3 if blitz and utype in CAPTURERS else c


def value(u: dict) -> float:
    """What a unit is worth: cost x hp / 10 (the D8 tie-break measure)."""
    return UNITS[u["type"]]["cost"] * u["hp"] / 10


# -- geometry (odd-r offset hexes, docs/api.md) --------------------------------------------------

_EVEN = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
_ODD = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))


class Geo:
    """Hex indices (row * width + col), neighbours and distances of one map."""

    _cache: dict[tuple[int, int], "Geo"] = {}

    def __new__(cls, width: int, height: int):
        key = (width, height)
        g = cls._cache.get(key)
        if g is None:
            g = super().__new__(cls)
            g._init(width, height)
            cls._cache[key] = g
        return g

    def _init(self, width: int, height: int) -> None:
        self.w, self.h, self.size = width, height, width * height
        self.grid = grid_for(width, height)  # the engine's grid, for its discs (`ring`)
        self.cube = []
        self.nb: list[tuple[int, ...]] = []
        for i in range(self.size):
            c, r = i % width, i // width
            q = c - (r - (r & 1)) // 2
            self.cube.append((q, r, -q - r))
            deltas = _ODD if r & 1 else _EVEN
            self.nb.append(tuple((r + dr) * width + c + dc for dc, dr in deltas
                                 if 0 <= c + dc < width and 0 <= r + dr < height))

    def idx(self, h) -> int:
        return h[1] * self.w + h[0]

    def hex(self, i: int) -> list[int]:
        return [i % self.w, i // self.w]

    def dist(self, a: int, b: int) -> int:
        aq, ar, as_ = self.cube[a]
        bq, br, bs = self.cube[b]
        return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))

    def ring(self, centre: int, lo: int, hi: int) -> list[int]:
        """Hexes at distance lo..hi from centre, in index order: the engine's disc of radius hi
        (`Grid.within`, row by row) less the disc of radius lo - 1."""
        disc = self.grid.within(centre, hi)
        if lo <= 0:
            return disc
        inner = set(self.grid.within(centre, lo - 1))
        return [i for i in disc if i not in inner]


def terrain_ids(obs: dict) -> list[str]:
    return [CHAR_TERRAIN[ch] for row in obs["terrain"] for ch in row]


def distance_field(geo: Geo, terrain: list[str], mclass: str, sources, blocked=()) -> list[int]:
    """Cheapest terrain cost from any source hex to every hex for one movement class (a heuristic
    guide for heading somewhere; the engine's `reachable` decides what a unit may actually do)."""
    cost = [TERRAIN[t]["cost"][mclass] for t in terrain]
    dist = [INF] * geo.size
    heap = []
    for s in sources:
        if dist[s] > 0:
            dist[s] = 0
            heap.append((0, s))
    heapq.heapify(heap)
    blocked = set(blocked)
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist[i]:
            continue
        for n in geo.nb[i]:
            c = cost[n]
            if c is None or n in blocked:
                continue
            # Cost is paid to enter; the field is symmetric enough for a heading heuristic.
            nd = d + (c if cost[i] is not None else c)
            if nd < dist[n]:
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return dist


# -- budgets --------------------------------------------------------------------------------------

IN_BROWSER = sys.platform == "emscripten"


class Budget:
    """A deterministic work budget (search nodes), plus an optional wall-clock safety cap.

    Decisions depend only on the node count, so a seeded game replays action for action. The wall
    cap is used only where time really matters (the browser worker, `sys.platform == "emscripten"`,
    or an explicit `time_limit`); it only ever cuts a search short, never changes its order."""

    def __init__(self, nodes: int, wall: float | None = None) -> None:
        self.left = nodes
        self.deadline = None if wall is None else time.perf_counter() + wall

    def spend(self, n: int = 1) -> None:
        self.left -= n

    @property
    def nodes_spent(self) -> bool:
        """The node budget alone: a plan already begun goes on to its end, whatever the clock says."""
        return self.left <= 0

    @property
    def done(self) -> bool:
        if self.left <= 0:
            return True
        return self.deadline is not None and time.perf_counter() > self.deadline


# -- the belief game -------------------------------------------------------------------------------

def _unit_dict(u: dict, blitz: bool, on_map: bool) -> dict:
    ut = UNITS[u["type"]]
    d = {"id": u["id"], "type": u["type"], "side": u["side"]}
    if on_map:
        d["at"] = list(u["at"])
    ammo, fuel = u.get("ammo"), u.get("fuel")
    if blitz or ut["ammo"] is None:
        ammo = None
    elif ammo is None:
        ammo = ut["ammo"]
    if blitz or ut["fuel"] is None:
        fuel = None
    elif fuel is None:
        fuel = ut["fuel"]
    d.update({"hp": u["hp"], "level": u["level"], "ammo": ammo, "fuel": fuel,
              "moved": bool(u.get("moved")), "attacked": bool(u.get("attacked"))})
    cargo = u.get("cargo") or []
    if cargo:
        d["cargo"] = [_unit_dict(c, blitz, False) for c in cargo]
    return d


def belief_dict(obs: dict, me: str, remembered: list[dict] = ()) -> dict:
    """A save dict (kaltfront/save.py format) from what `me` observes plus remembered enemy units.

    The RNG state is an arbitrary fixed number (the AI plans with expected damage); the enemy's
    balance is unknown under fog and set to 0."""
    blitz = obs["blitz"]
    units = []
    ids = set()
    taken = set()
    for u in obs["units"]:
        units.append(_unit_dict(u, blitz, True))
        ids.add(u["id"])
        taken.add(tuple(u["at"]))
        for c in u.get("cargo") or []:
            ids.add(c["id"])
    for u in remembered:
        if u["id"] in ids or tuple(u["at"]) in taken:
            continue
        d = _unit_dict(u, blitz, True)
        d["moved"] = d["attacked"] = False
        d.pop("cargo", None)
        units.append(d)
        ids.add(u["id"])
        taken.add(tuple(u["at"]))
    units.sort(key=lambda d: d["id"])
    money = {s: obs["money"].get(s, 0) for s in ("nordbund", "liga")}
    buildings = []
    for b in obs["buildings"]:
        cap = b.get("capture")
        if cap is not None and cap.get("unit") not in ids:
            cap = None
        buildings.append({"at": list(b["at"]), "type": b["type"], "owner": b["owner"],
                          "name": b.get("name", ""), "capture": cap})
    return {
        "format": "kaltfront-save", "version": 1, "scenario": obs["scenario"], "name": obs.get("name", ""),
        "briefing": "", "objectives": {}, "region": "",
        "map": {"width": obs["width"], "height": obs["height"], "terrain": list(obs["terrain"])},
        "blitz": blitz, "fog": obs["fog"], "round_limit": obs["round_limit"], "first": obs["first"],
        "round": obs["round"], "side": obs["side"], "phase": obs["phase"], "money": money,
        "buildings": buildings, "units": units,
        "next_id": max(ids, default=0) + 1000, "rng": 0x5EED, "outcome": None,
    }


def load(d: dict):
    """A what-if game from a belief dict: checked like any save, and without an undo history."""
    g = kaltfront.Game.from_json(d)
    g.keep_undo = False
    return g


def what_if(game):
    """A what-if copy of `game`, the same as `load` of its save dict without the undo history and
    the replay record (they belong to the real game, D16), but without the JSON round trip."""
    g = game_copy(game)
    g.keep_undo = False
    return g


def reframe(game, side: str, phase: str, fog: bool | None = None):
    """The same position with `side` to act in `phase` (fresh unit flags): for asking the engine
    what the opponent could do next."""
    g = what_if(game)
    g.side, g.phase = side, phase
    if fog is not None:
        g.fog = fog
    for u in g.units.values():  # cargo included
        if u.side == side:
            u.moved = u.attacked = False
    g.invalidate()
    return g


def action_key(a: dict) -> str:
    return json.dumps(a, sort_keys=True)
