"""What the AI reads off a belief position before it decides: objectives, distance fields, the enemy's
fire zones and capture threats.

Everything comes from the observation (and, for Schwer, remembered enemy units); the numbers here are
heuristics that guide where to look. What is legal and how much damage a shot does is always asked of
the engine (`reachable`, `attack_options`, ...).
"""

from __future__ import annotations

from collections import OrderedDict

from ..fog import sight
from .common import (AIR_HOMES, BUILDINGS, CAPTURERS, INF, RULES, TERRAIN, UNITS, Geo, distance_field,
                     other, terrain_ids, worth)

_FIELD_CACHE: dict[tuple, list[int]] = {}
# Terrain-only fields from any set of hexes, kept across decisions: Schwer plans its move phase again
# after every surprise, and its crews and scouts asked the same fields (from picket spots, air homes)
# anew in each plan, a third of a re-plan's time on Deutsche Bucht (issue 16). The map never changes,
# so a field is the same answer every time; the oldest go first (about 9 KB each on the largest map).
_TERRAIN_FIELDS: OrderedDict[tuple, list[int]] = OrderedDict()
TERRAIN_FIELDS_KEPT = 512


class Situation:
    def __init__(self, obs: dict, belief: dict, me: str) -> None:
        self.obs = obs
        self.me, self.en = me, other(me)
        self.geo = geo = Geo(obs["width"], obs["height"])
        self.terrain = terrain_ids(obs)
        self.tkey = (obs["width"], "".join(obs["terrain"]))
        self.blitz = obs["blitz"]
        self.round = obs["round"]
        limit = obs.get("round_limit")
        self.turns_left = INF if limit is None else limit - obs["round"] + 1
        # The last word: this is the game's final turn and no enemy turn follows it (the side that
        # moves second in the last round, R50, R66). Nothing can be retaken or shot back after it.
        self.last_word = self.turns_left == 1 and me != obs["first"]
        self.own: dict[int, dict] = {}
        self.enemies: dict[int, dict] = {}
        self.cargo_of: dict[int, list[dict]] = {}
        for u in belief["units"]:
            u = dict(u)
            u["i"] = geo.idx(u["at"])
            if u["side"] == me:
                self.own[u["id"]] = u
                self.cargo_of[u["id"]] = [dict(c) for c in u.get("cargo", [])]
            else:
                self.enemies[u["id"]] = u
        self.bld: dict[int, dict] = {}
        for b in obs["buildings"]:
            self.bld[geo.idx(b["at"])] = b
        self.own_hq = next((i for i, b in self.bld.items() if b["type"] == "hq" and b["owner"] == me), None)
        self.enemy_hq = next((i for i, b in self.bld.items() if b["type"] == "hq" and b["owner"] == self.en),
                             None)
        self.targets = sorted(i for i, b in self.bld.items() if b["owner"] != me)  # capture objectives
        # Finishing a won game (issue 16): on a map without a round limit, when we are clearly ahead
        # in what we know of both armies (or the game drags on), the army goes for the enemy HQ
        # instead of trading shots forever. Styles with `finisher` act on it (Schwer), those with
        # `presses` only at the unit limit with money to spare (Normal, `pressing` below).
        own_v = sum(UNITS[u["type"]]["cost"] * u["hp"] / 10 for u in self.own.values())
        en_v = sum(UNITS[u["type"]]["cost"] * u["hp"] / 10 for u in self.enemies.values())
        # From round 30 a long game is pushed on as well, but only with at least an even army by what
        # we know under fog (the units seen and remembered) and at least the enemy's income (building
        # owners are public): before, "from round 30 anyway" sent a losing army at the enemy HQ
        # (Deutsche Bucht seed 41000: 34 units and 8 buildings against 60 and 18, lost; issue 16).
        self.finish = (limit is None and self.enemy_hq is not None and obs["round"] >= 10
                       and (own_v >= 1.5 * en_v + 500
                            or (obs["round"] >= 30 and own_v >= en_v and self.income(me) >= self.income(self.en))))
        # Pressure (issue 16): finishing at the unit limit (D9) with the money to rebuild every loss at
        # once, a lost unit costs a production place for a turn, not its price. Weighed at full price,
        # no trade at the Storebælt bridge was ever good enough: on Großer Belt both armies stood at
        # 60 units for forty rounds, $40,000 unspent, and nobody fired. Own losses count half then.
        # Our army stands at the unit limit (D9, cargo counted), within 5 of it.
        self.at_limit = len(self.own) + sum(map(len, self.cargo_of.values())) >= RULES["max_units"] - 5
        rich = obs["money"].get(me, 0) >= 3000 and self.at_limit
        # The same state is when Normal presses on (`Style.presses`, session 46): an army at the unit
        # limit that cannot spend its money has nothing to keep itself for.
        self.pressing = self.finish and rich
        self.loss_weight = 0.5 if self.pressing else 1.0
        self.enemy_hexes = sorted(u["i"] for u in self.enemies.values())
        self._threat: dict[str, list[list[tuple]]] = {}
        self._fields: dict[tuple, list[int]] = {}
        self._opportunity: dict[tuple, float] = {}
        self._memo: dict = {}

    def income(self, side: str) -> int:
        """What `side`'s buildings pay each turn (building owners are public, also under fog)."""
        return sum(BUILDINGS[b["type"]]["income"] for b in self.bld.values() if b["owner"] == side)

    # -- distance fields ----------------------------------------------------------------------------
    def field_from(self, mclass: str, hexes, name: str = "") -> list[int]:
        """Terrain-only cost from the nearest of `hexes` to every hex (no unit in the way)."""
        key = (mclass, tuple(hexes))
        f = self._fields.get(key)
        if f is None:
            shared = (self.tkey,) + key
            f = _TERRAIN_FIELDS.get(shared)
            if f is None:
                f = distance_field(self.geo, self.terrain, mclass, hexes)
                _TERRAIN_FIELDS[shared] = f
                if len(_TERRAIN_FIELDS) > TERRAIN_FIELDS_KEPT:
                    _TERRAIN_FIELDS.popitem(last=False)
            else:
                _TERRAIN_FIELDS.move_to_end(shared)
            self._fields[key] = f
        return f

    def building_field(self, mclass: str, i: int) -> list[int]:
        """Terrain-only distance to one building hex; the map never changes, so this is cached."""
        key = (self.tkey, mclass, i)
        f = _FIELD_CACHE.get(key)
        if f is None:
            if len(_FIELD_CACHE) > 4000:
                _FIELD_CACHE.clear()
            f = distance_field(self.geo, self.terrain, mclass, [i])
            _FIELD_CACHE[key] = f
        return f

    def route_field(self, mclass: str, i: int) -> list[int]:
        """Distance to one building around the enemy units we know of (they cannot be passed,
        R16): a Jäger facing a blocked land bridge looks for another way or another building."""
        key = ("route", mclass, i)
        f = self._fields.get(key)
        if f is None:
            blocked = [h for h in self.enemy_hexes if h != i]
            f = distance_field(self.geo, self.terrain, mclass, [i], blocked) if blocked else \
                self.building_field(mclass, i)
            self._fields[key] = f
        return f

    # The answers below depend only on the observation, and the planner asks them thousands of
    # times per decision: each is computed once (`_memo`).
    def front_field(self, mclass: str) -> list[int]:
        key = ("front", mclass)
        f = self._memo.get(key)
        if f is None:
            # Fighters head for enemy units and the enemy's buildings; neutral buildings are for the
            # capturers (a tank standing on one only keeps the own Jäger off it).
            src = set(self.enemy_hexes) | {i for i in self.targets if self.bld[i]["owner"] == self.en}
            if not src:
                src = set(self.targets)
            f = self._memo[key] = self.field_from(mclass, sorted(src))
        return f

    def building_front_field(self, mclass: str) -> list[int]:
        """Distance to the enemy that matters for the building count (issue 16, Blitz): the enemy's
        buildings, enemy units on a building or next to one not theirs (they hold it or are about to
        take it), and enemy units within three hexes of one of ours (they threaten it). An enemy unit
        out in the open far from every building is no objective of its own; the plain front field
        sent tanks after such units or left them standing two hexes from one (issue 16: idle units)."""
        key = ("bfront", mclass)
        f = self._memo.get(key)
        if f is None:
            src = {i for i in self.targets if self.bld[i]["owner"] == self.en}
            for h in self.enemy_hexes:
                if h in self.bld or any((b := self.bld.get(x)) is not None and b["owner"] != self.en
                                        for x in self.geo.nb[h]):
                    src.add(h)
                elif any(b["owner"] == self.me and self.geo.dist(h, i) <= 3 for i, b in self.bld.items()):
                    src.add(h)
            f = self._memo[key] = self.field_from(mclass, sorted(src)) if src else self.front_field(mclass)
        return f

    def repair_sites(self, mclass: str) -> list[int]:
        key = ("repair", mclass)
        if key not in self._memo:
            self._memo[key] = sorted(i for i, b in self.bld.items()
                                     if b["owner"] == self.me and mclass in BUILDINGS[b["type"]]["repairs"])
        return self._memo[key]

    def supply_sites(self, mclass: str) -> list[int]:
        key = ("supply", mclass)
        if key not in self._memo:
            self._memo[key] = sorted(i for i, b in self.bld.items()
                                     if b["owner"] == self.me and mclass in BUILDINGS[b["type"]]["supplies"])
        return self._memo[key]

    def air_homes(self) -> list[int]:
        if "air" not in self._memo:
            self._memo["air"] = sorted(i for i, b in self.bld.items()
                                       if b["owner"] == self.me and b["type"] in AIR_HOMES)
        return self._memo["air"]

    # -- the enemy's fire next turn --------------------------------------------------------------
    def threat_list(self, armour: str) -> list[list[tuple]]:
        """Per hex: the enemy shots that could land on a unit of this armour class standing there at
        the start of the enemy's next attack phase (the enemy fires before it moves: R8, R9)."""
        t = self._threat.get(armour)
        if t is None:
            t = [[] for _ in range(self.geo.size)]
            for e in sorted(self.enemies.values(), key=lambda x: x["id"]):
                ut = UNITS[e["type"]]
                av = ut["attack"].get(armour)
                if not av or not ut["range"] or (e.get("ammo") is not None and e["ammo"] <= 0):
                    continue
                s = av * e["hp"] / 10 * (1 + 0.1 * e["level"])
                lo, hi = ut["range"]
                for h in self.geo.ring(e["i"], lo, hi):
                    t[h].append((s, e["id"]))
            self._threat[armour] = t
        return t

    def enemy_sight(self) -> frozenset[int]:
        """The hexes the enemy sees, as far as we know (R20): without fog all of them; under fog
        round every enemy unit we see or remember, and within `building_vision` of every enemy
        building (owners are public). An unseen unit cannot be attacked, so a night spent outside
        this is safe from the enemies we know of; the ones we do not know are
        `MovePlanner.hidden_aa_risk`'s part."""
        s = self._memo.get("enemy_sight")
        if s is None and not self.obs["fog"]:
            s = self._memo["enemy_sight"] = frozenset(range(self.geo.size))  # without fog all is seen
        if s is None:
            s = self._memo["enemy_sight"] = sight(
                self.geo.grid, self.terrain, ((e["i"], UNITS[e["type"]]["vision"]) for e in self.enemies.values()),
                (i for i, b in self.bld.items() if b["owner"] == self.en))
        return s

    def defence(self, utype: str, level: int, h: int, side: str) -> float:
        b = self.bld.get(h)
        on_own = b is not None and b["owner"] == side
        return UNITS[utype]["defence"] + TERRAIN[self.terrain[h]]["defence"] + (1 if on_own else 0) + 0.5 * level

    def expected_hit(self, u: dict, h: int) -> float:
        """Heuristic damage a unit standing on h may take in the enemy's next attack phase."""
        shots = self.threat_list(UNITS[u["type"]]["armour"])[h]
        if not shots:
            return 0.0
        d = self.defence(u["type"], u["level"], h, self.me)
        return sum(9 * s / (s + d) for s, _ in shots)

    def opportunity(self, u: dict, h: int) -> float:
        """Heuristic value of the best shot a unit on h would have at enemies where they stand now.
        Memoised per (type, hp, level, has ammo, hex): every planner variant of a decision asks the
        same questions (the same answers, computed once)."""
        key = (u["type"], u["hp"], u["level"], u.get("ammo") is not None and u["ammo"] <= 0, h)
        v = self._opportunity.get(key)
        if v is None:
            v = self._opportunity[key] = self._opportunity_of(u, h)
        return v

    def _opportunity_of(self, u: dict, h: int) -> float:
        ut = UNITS[u["type"]]
        if not ut["range"] or (u.get("ammo") is not None and u["ammo"] <= 0):
            return 0.0
        lo, hi = ut["range"]
        best = 0.0
        s0 = u["hp"] / 10 * (1 + 0.1 * u["level"])
        for e in self.enemies.values():
            dd = self.geo.dist(h, e["i"])
            if dd < lo or dd > hi:
                continue
            av = ut["attack"].get(UNITS[e["type"]]["armour"])
            if not av:
                continue
            s = av * s0
            d = self.defence(e["type"], e["level"], e["i"], self.en)
            dmg = min(e["hp"], 9 * s / (s + d))
            v = dmg / 10 * worth(e["type"], self.blitz)
            if e["i"] in self.bld:
                v *= 2  # it holds or blocks a building: shooting it frees the building
            # A direct-fire unit next to an enemy that can answer pays for it.
            if v > best:
                best = v
        return best

    def carries_pionier(self, uid: int) -> bool:
        """Whether own unit `uid` has a Pionier aboard; on a Transporthubschrauber that is a
        finishing crew (issue 16)."""
        return any(c["type"] == "pionier" for c in self.cargo_of.get(uid, []))

    def strike_ready(self) -> bool:
        """Finishing (issue 16): a Pionier of ours could reach the enemy HQ in the coming move phase,
        on foot or from a transport that gets next to it (a heuristic by terrain distance; the move
        planner asks the engine). Then the unit standing on the HQ is the one to shoot."""
        hq = self.enemy_hq
        if hq is None:
            return False
        for u in self.own.values():
            if u["type"] == "pionier" and self.building_field("fuss", hq)[u["i"]] <= UNITS["pionier"]["move"]:
                return True
            if self.carries_pionier(u["id"]):
                ut = UNITS[u["type"]]
                f = self.field_from(ut["movement"], sorted(self.geo.nb[hq]))
                if f[u["i"]] <= ut["move"]:
                    return True
        return False

    # -- capture threats -------------------------------------------------------------------------
    def capture_threats(self, include_neutral: bool = False) -> dict[int, float]:
        """Own (and neutral) buildings an enemy Jäger or Pionier could stand on after its next move:
        hex -> urgency (1 = next turn, 0.4 = within two turns). A loaded enemy transport counts
        as a capturer with the transport's reach plus one hex for unloading."""
        out: dict[int, float] = {}
        own_b = [i for i, b in self.bld.items()
                 if b["owner"] == self.me or (include_neutral and b["owner"] is None)]
        for e in self.enemies.values():
            if e["type"] in CAPTURERS:
                mv, mc = UNITS[e["type"]]["move"], "fuss"
            elif e.get("loaded") and UNITS[e["type"]]["movement"] in ("rad", "kette", "fuss"):
                mv, mc = UNITS[e["type"]]["move"] + 1, UNITS[e["type"]]["movement"]
            else:
                continue
            for i in own_b:
                f = self.building_field(mc, i)
                d = f[e["i"]]
                if d <= mv or self.geo.dist(i, e["i"]) <= 1:
                    out[i] = max(out.get(i, 0), 1.0)
                elif d <= 2 * mv:
                    out[i] = max(out.get(i, 0), 0.4)
        return out
