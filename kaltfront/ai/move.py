"""The move phase: where each unit goes, loading and unloading, and what to build.

One greedy planner serves all three strengths; a `Style` sets what it pays attention to. Each unit
in turn picks the best of the hexes the engine says it can reach (or staying), and the move is applied
to the belief game at once, so later units see where earlier ones went. Schwer runs the planner with
several styles and unit orders and keeps the variant that fares best against the opponent's likely
reply (search.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kaltfront import IllegalAction
from kaltfront.movement import search as engine_search

from .common import BLITZ_UNITS, BUILDINGS, CAPTURERS, INF, RULES, TERRAIN, UNITS, distance_field, worth


@dataclass(frozen=True)
class Style:
    name: str
    w_prog: float = 1.0      # progress toward the unit's objective, per turn of distance
    w_cap: float = 6.0       # standing on a building to capture
    w_danger: float = 0.0    # expected loss from the enemy's next attack phase (per 100 of value)
    w_opp: float = 0.0       # shots the unit would have next turn (per 100 of value)
    w_group: float = 0.0     # staying with the group instead of running ahead
    w_guard: float = 0.0     # occupying the own HQ and threatened buildings
    w_terrain: float = 0.0   # defence bonus of the hex when under threat
    repair_hp: int = 0       # units with hp at or below this go to a repairing building
    stay_prob: float = 0.0   # chance that a unit simply stays put (Leicht)
    order: str = "front"     # which units move first
    buy: str = "simple"      # "simple" | "situation" | "seen"
    taxi: bool = False       # a Schützenpanzer carries a Jäger to a building it could not reach
    endgame: bool = False    # plays the game's last move for the most buildings (Schwer)
    artillery: int = 0       # buys indirect-fire units while it has fewer than this many
    sturdy_guard: bool = False  # a threatened HQ under fire gets a guard that survives (issue 16)
    finisher: bool = False   # goes for the enemy HQ when clearly ahead on maps without a round limit
    last_stand: bool = False  # Blitz, our last turn with the enemy's still to come: guard what it can take
    blockers: bool = False   # Blitz: fighters head for enemy units that hold, take or threaten buildings
    presses: bool = False    # finishing without crews, only at the unit limit with money to rebuild (Normal)


LEICHT = Style("leicht", stay_prob=0.2)
NORMAL = Style("normal", w_danger=1.0, w_opp=0.4, w_group=0.5, w_guard=0.5, w_terrain=0.15, repair_hp=4,
               buy="situation", artillery=2, presses=True)
SCHWER = Style("schwer", w_danger=0.9, w_opp=0.4, w_group=0.5, w_guard=2.0, w_terrain=0.2, repair_hp=4,
               buy="seen", taxi=True, endgame=True, artillery=3, sturdy_guard=True,
               finisher=True, last_stand=True, blockers=True)

# Units Leicht buys (R5): cheap, single-purpose, nothing that needs care.
SIMPLE_UNITS = ("jaeger", "spaehwagen", "schuetzenpanzer", "transporter", "landungsboot")


def schwer_variants() -> list[Style]:
    """The move-phase variants Schwer tries, most promising first (the anytime search stops early
    when its budget runs out)."""
    s = SCHWER
    return [s,
            replace(s, name="schwer-careful", w_danger=2.0, w_opp=0.4, w_group=0.8),
            replace(s, name="schwer-bold", w_danger=0.6, w_opp=1.0, w_prog=1.3),
            replace(s, name="schwer-back", order="back"),
            replace(s, name="schwer-hold", w_danger=3.0, w_prog=0.6, w_terrain=0.5),
            replace(s, name="schwer-rush", w_danger=0.3, w_prog=1.6, w_cap=9.0),
            replace(s, name="schwer-careful-back", w_danger=2.0, w_group=0.8, order="back"),
            replace(s, name="schwer-bold-back", w_danger=0.6, w_opp=1.0, order="back")]


ESCORT = 2  # hexes from a crew's stop where its scout spends the night before a strike (`escort`)
CREWS = 3  # finishing crews (Pionier in a Transporthubschrauber) Schwer keeps on maps without a round limit
# Chance that unseen anti-aircraft fire reaches a stop, by the distance d to the nearest known enemy
# that fires on aircraft: min(top, far + step * (7 - d)) (`hidden_aa_risk`, measured in session 14).
HIDDEN_AA = (0.08, 0.115, 0.65)
TRIP_RISK = 0.5  # a crew on the way in goes home rather than on into this much of a sure loss (`stage`)
SALVO_RISK = 0.8  # ... unless all CREWS go in together (`airlift`): then only from this much on
# A night or a stop the enemy sees, as far as we know (`Situation.enemy_sight`, R20), counts as this
# much more risk when a crew chooses among the safe ones (not against the TRIP_RISK bar): seen, a
# crew draws the enemy, which by morning walls it in or closes the way. On Großer Belt a crew seen at
# its stop never found the way open next morning (0 of 12 nights, seeds 92005 and 95006), while of the
# stops the enemy did not see, 65-83 % were still open (`bench/crew_probe.py`, session 28).
SEEN_COST = 0.15
TRIP_NIGHTS = 4  # a crew plans a trip of at most this many nights (`trip`; 30 fuel is four moves and a bit)


def _no_ground(terrain_id: str) -> bool:
    """No ground unit can stand on this terrain (open sea, coastal waters, R17): only ships and
    aircraft. Not the terrain's `water` flag, which also marks rivers and ferry lines."""
    cost = TERRAIN[terrain_id]["cost"]
    return all(cost[m] is None for m in ("fuss", "rad", "kette"))


# The farthest any ground unit fires at aircraft (Flugabwehr, range 2, R23/R25): a hex with no land
# within this distance is out of reach of every ground unit, seen or hidden.
GROUND_AA_REACH = max(UT["range"][1] for UT in UNITS.values()
                      if UT["movement"] in ("fuss", "rad", "kette") and UT["range"] and UT["attack"].get("luft"))
# The farthest any unit fires at aircraft (a Fregatte, range 3).
AA_REACH = max(UT["range"][1] for UT in UNITS.values() if UT["range"] and UT["attack"].get("luft"))
PICKET_MIN = 6  # a picket spot must see at least this many hexes of the crews' stops (`pickets`)
_SHELTERED: dict = {}  # map terrain -> hexes no ground unit's anti-aircraft fire can reach (`pickets`)


def _hex(geo, i):
    return geo.hex(i)


class MovePlanner:
    """Plans one move phase on a belief game (side to act = me, phase = move)."""

    def __init__(self, game, sit, style: Style, rng, budget, seen_types=None, careful=()) -> None:
        self.g, self.sit, self.st, self.rng, self.budget = game, sit, style, rng, budget
        self.careful = set(careful)  # units the reply check saw die: keep them out of fire
        self.geo = sit.geo
        self.actions: list[dict] = []
        self.score = 0.0
        self.pos = {uid: u["i"] for uid, u in sit.own.items()}
        self.moved = {uid for uid, u in sit.own.items() if u.get("moved")}
        self.occupied = set(self.pos.values()) | set(sit.enemy_hexes)
        self.claimed: set[int] = set()
        self.seen_types = seen_types or {}
        self.threats = sit.capture_threats() if style.w_guard else {}
        self.money = sit.obs["money"].get(sit.me, 0)
        self.built: list[str] = []  # unit types built this phase: `sit` does not know them yet
        # Issue 16: an HQ an enemy capturer can reach, under so much fire that a Jäger built there
        # would be shot off before the enemy moves (R8), needs a guard that survives instead.
        # Normal presses on too (R6: it advances as a group), but only at the unit limit with the money
        # to rebuild (`Situation.pressing`), and without Schwer's crews: before, its army stood round
        # its own HQ at 60 units with $35,000 it could not spend, and on Großer Belt a third of
        # Schwer's games ran to the 60-round cap with nothing dying (session 46, docs/ai.md).
        self.finishing = (style.finisher and sit.finish) or (style.presses and sit.pressing)
        # The finishing crews (issue 16): on a map without a round limit, from the first round, the
        # Pioniere and the transport helicopters work as the HQ strike whatever the finishing test
        # says. That test reads the known armies and flickers under fog; while it was off the
        # helicopters were moved as fighters, flew about on the front field and burnt their fuel,
        # and the Pioniere waited unfetched (Großer Belt seed 46000: 15 rounds, none picked up).
        # Sessions 8-21 started them in round 10, when the enemy's whole army already walls the way
        # to its HQ (R19). Session 22: Deutsche Bucht 74500..09 and 74600..09 ended 20 of 20 in 10.4
        # rounds on average (from round 10: 19 of 20 in 22.5); Großer Belt 12 of 52 either way.
        self.crews = style.finisher and sit.turns_left >= INF and sit.enemy_hq is not None
        self.hot_hq = None
        self.scouted: set[int] = set()  # hexes the scout Drohne revealed this phase (`scout`)
        self._approach = None  # memo of `approach_field`
        self._aa_at = None  # where the known enemies with anti-aircraft fire stand (`hidden_aa_risk`)
        # Issue 16, R66/R68: our last turn in Blitz while the enemy still has its last one (we open
        # the final round): a threatened building nobody stands on is lost for good (`final_guards`).
        self.last_stand = style.last_stand and sit.blitz and sit.turns_left <= 1 and not sit.last_word
        if style.sturdy_guard and sit.own_hq is not None and self.threats.get(sit.own_hq, 0) >= 1.0:
            fresh = {"id": -1, "type": "jaeger", "hp": 10, "level": 0}
            if sit.expected_hit(fresh, sit.own_hq) >= 8:
                self.hot_hq = sit.own_hq

    # -- helpers ---------------------------------------------------------------------------------
    def apply(self, action: dict) -> list[dict]:
        try:
            events = self.g.apply(action)
        except IllegalAction:
            return []  # never plan what the engine refuses
        self.budget.spend(1)
        self.actions.append(action)
        for e in events:
            t = e["type"]
            if e.get("side") != self.sit.me:
                continue
            if t == "moved":
                uid = e["unit"]
                if uid in self.pos:
                    self.occupied.discard(self.pos[uid])
                    self.pos[uid] = self.geo.idx(e["to"])
                    self.occupied.add(self.pos[uid])
                self.moved.add(uid)
            elif t == "loaded":
                uid = e["unit"]
                if uid in self.pos:
                    self.occupied.discard(self.pos.pop(uid))
                self.moved.add(uid)
            elif t == "unloaded":
                uid = e["unit"]
                self.pos[uid] = self.geo.idx(e["to"])
                self.occupied.add(self.pos[uid])
                self.moved.add(uid)
            elif t == "ambushed":
                self.moved.add(e["unit"])
            elif t == "built":
                self.money -= e["cost"]
                self.built.append(e["unit_type"])
                self.occupied.add(self.geo.idx(e["at"]))
        return events

    def unit(self, uid: int) -> dict:
        u = self.sit.own.get(uid)
        if u is None:
            for cs in self.sit.cargo_of.values():
                for c in cs:
                    if c["id"] == uid:
                        return c
        return u

    def needs_repair(self, u: dict) -> bool:
        st = self.st
        if not st.repair_hp or u["hp"] > st.repair_hp:
            return False
        mc = UNITS[u["type"]]["movement"]
        sites = self.sit.repair_sites(mc)
        if not sites:
            return False
        here = self.pos.get(u["id"], u["i"])
        best = min(self.sit.building_field(mc, s)[here] for s in sites)
        return best <= 3 * max(1, UNITS[u["type"]]["move"]) and self.sit.turns_left > 2

    def needs_supply(self, u: dict) -> bool:
        ut = UNITS[u["type"]]
        if self.sit.blitz:
            return False
        if ut["ammo"] is not None and u.get("ammo") is not None and u["ammo"] <= 0:
            return True
        if ut["fuel"] is not None and ut["movement"] != "luft" and u.get("fuel") is not None:
            return u["fuel"] < ut["move"]
        return False

    # -- objectives ------------------------------------------------------------------------------
    def capture_target(self, u: dict, here: int) -> list[int] | None:
        """The building a capturer heads for (nearest unclaimed, the enemy HQ preferred; in the last
        rounds only buildings it can still reach, R66)."""
        sit = self.sit
        mc = UNITS[u["type"]]["movement"]
        mv = max(1, UNITS[u["type"]]["move"])
        best = None
        for i in sit.targets:
            f = sit.route_field(mc, i)
            d = f[here]
            if d >= INF:
                continue
            turns = -(-d // mv)
            if turns > sit.turns_left:
                continue
            bonus = (8.0 if self.finishing else 2.0) if i == sit.enemy_hq else 0.0
            if i in self.claimed:
                bonus -= 3.0
            key = (turns - bonus, d, i)
            if best is None or key < best[0]:
                best = (key, i, f)
        if best is None:
            return None
        self.claimed.add(best[1])
        return best[2]

    def field_for(self, u: dict, here: int):
        """(role, distance field) for a unit."""
        sit = self.sit
        ut = UNITS[u["type"]]
        mc = ut["movement"]
        if self.needs_repair(u):
            return "repair", sit.field_from(mc, sit.repair_sites(mc))
        if self.needs_supply(u):
            sites = sit.supply_sites(mc)
            if sites:
                return "supply", sit.field_from(mc, sites)
        if u["type"] in CAPTURERS:
            f = self.capture_target(u, here)
            if f is not None:
                return "capture", f
        if u["type"] == "versorger" and not sit.blitz:
            needy = sorted(self.pos[x] for x, o in sit.own.items()
                           if x in self.pos and o is not u and self.needs_supply_any(o))
            if needy:
                return "versorger", sit.field_from(mc, needy)
        if self.finishing and u["type"] not in CAPTURERS:
            f = sit.field_from(mc, [sit.enemy_hq])
            if f[here] < INF:
                return "front", f  # the push on the enemy HQ: clear its guards, cover our capturers
        if self.st.blockers and sit.blitz:
            return "front", sit.building_front_field(mc)  # issue 16: what stands between us and buildings
        return "front", sit.front_field(mc)

    def needs_supply_any(self, u: dict) -> bool:
        ut = UNITS[u["type"]]
        if ut["ammo"] is not None and u.get("ammo") is not None and u["ammo"] <= ut["ammo"] // 2:
            return True
        return ut["fuel"] is not None and u.get("fuel") is not None and u["fuel"] <= ut["fuel"] // 2

    # -- scoring ----------------------------------------------------------------------------------
    def score_hex(self, u: dict, h: int, role: str, field, group_front: float | None) -> float:
        st, sit = self.st, self.sit
        ut = UNITS[u["type"]]
        mv = max(1, ut["move"])
        d = field[h]
        s = -st.w_prog * (min(d, 40 * mv) / mv)
        b = sit.bld.get(h)
        if b is not None:
            if u["type"] in CAPTURERS and b["owner"] != sit.me and role in ("capture", "front"):
                s += st.w_cap * (3.0 if b["type"] == "hq" else 1.0)
                if sit.blitz and sit.turns_left <= 2:
                    s += st.w_cap
            elif b["owner"] != sit.me and u["type"] not in CAPTURERS:
                # Keeps the own Jäger off it; on an enemy factory at least it blocks production.
                s -= 0.0 if BUILDINGS[b["type"]]["produces"] and b["owner"] == sit.en else 1.0
            if b["owner"] == sit.me:
                producer = bool(BUILDINGS[b["type"]]["produces"])
                blocks = self.blocking_cost(h) if producer else 0.0
                if blocks and h == self.hot_hq and sit.expected_hit(u, h) < 0.8 * u["hp"]:
                    blocks = 0.0  # holding beats building a unit that would die there
                if role == "repair" and ut["movement"] in BUILDINGS[b["type"]]["repairs"]:
                    s += 3.0
                elif role == "supply" and ut["movement"] in BUILDINGS[b["type"]]["supplies"]:
                    s += 3.0
                # A unit on a production site stops the build there this turn: one unit fewer for
                # the rest of the game when the money is there (repairing pays only when it is not).
                s -= blocks if blocks else (0.3 if producer and h not in self.threats else 0.0)
                urg = self.threats.get(h)
                if urg and (urg >= 1.0 or b["type"] == "hq") and not blocks:
                    late = 3.0 if (sit.blitz and sit.turns_left <= 2) else 1.0
                    bonus = st.w_guard * urg * (6.0 if b["type"] == "hq" else 1.5 * late)
                    if st.sturdy_guard and sit.expected_hit(u, h) >= u["hp"]:
                        # Issue 16, R8: the enemy fires before it moves, so a guard it can shoot
                        # off holds nothing (a 3-hp Jäger on a Stadt, the Kampfpanzer next to it).
                        bonus *= 0.2
                    s += bonus
                # (A site that can build is guarded by the unit built there at the end of the phase.)
        if st.w_danger:
            hit = sit.expected_hit(u, h)
            if hit > 0:
                hp = u["hp"]
                w = worth(u["type"], sit.blitz) * sit.loss_weight
                loss = min(hit, hp) / 10 * w
                if hit >= hp:
                    loss += 0.3 * w
                mult = 1.5 if (ut["range"] and ut["range"][0] > 1) else 1.0
                if self.finishing:
                    mult *= 0.5
                if u["id"] in self.careful:
                    mult *= 4.0
                s -= st.w_danger * mult * loss / 100
                s += st.w_terrain * TERRAIN[sit.terrain[h]]["defence"]
        if st.w_opp and role == "front":
            mult = 2.0 if (ut["range"] and ut["range"][0] > 1) else 1.0
            s += st.w_opp * mult * sit.opportunity(u, h) / 100
        if st.w_group and group_front is not None and role == "front":
            ahead = group_front - d / mv
            if ahead > 1.0:
                s -= st.w_group * (ahead - 1.0)
        if ut["movement"] == "luft" and ut["fuel"] is not None and not sit.blitz:
            if h in set(sit.air_homes()):
                s += 0.5
        return s

    def blocking_cost(self, h: int) -> float:
        """What standing on own production site h costs in score points: the worth of the best unit
        the money could build there this turn (0 when it can build nothing). Leicht ignores it."""
        if not self.st.w_guard:
            return 0.0
        b = self.sit.bld[h]
        worths = [worth(t, self.sit.blitz) for t in UNITS
                  if UNITS[t]["movement"] in BUILDINGS[b["type"]]["produces"]
                  and (not self.sit.blitz or t in BLITZ_UNITS) and UNITS[t]["cost"] <= self.money]
        return 0.8 * max(worths) / 100 if worths else 0.0

    def best_hex(self, uid: int, score, floor: float | None, may_end=None, margin: float = 0.0) -> list | None:
        """The reachable hex (as [col, row]) whose `score(h)` beats `floor` by more than `margin`, the
        first of equals; None when none does (with `floor` None: the best of all, None only when the
        unit may end nowhere). Only hexes where the unit may end count: `may_end(o, h)`, by default
        `air_ok` (an aircraft must not crash or strand, R19). Spends one planning node."""
        u = self.sit.own[uid]
        best_s, best = floor, None
        for o in self.g.reachable(uid):
            h = self.geo.idx(o["to"])
            if not (may_end(o, h) if may_end else self.air_ok(u, h, o["hexes"])):
                continue
            s = score(h)
            if best_s is None or s > best_s + margin:
                best_s, best = s, o["to"]
        self.budget.spend(1)
        return best

    def air_ok(self, u: dict, h: int, hexes: int) -> bool:
        """An aircraft may end only where it cannot crash and can still get home (R19); getting to h
        burns one fuel per hex entered (`hexes`, D12)."""
        ut = UNITS[u["type"]]
        if ut["movement"] != "luft" or ut["fuel"] is None or u.get("fuel") is None:
            return True
        homes = self.sit.air_homes()
        if self.st.finisher and self.sit.turns_left >= INF:
            # One aircraft fits on a home (R19): on Großer Belt (issue 16) eight Kampfjets and both
            # crew helicopters hung round the one Depot on Sprogø with 1-3 fuel, each "within reach
            # of home" while another stood on it -- stranded for good, and on the one hex the tanks
            # needed to cross the bridge. Count only the homes no other unit of ours stands on.
            mine = self.pos.get(u["id"])
            homes = [x for x in homes if x == mine or x not in self.occupied] + self.refuel_points(mine)
        if h in homes:
            return True
        left = u["fuel"] - hexes
        if left < 1:
            return False
        if not homes:
            return left >= 1
        f = self.sit.field_from("luft", homes)
        return f[h] <= left

    # -- the plan ----------------------------------------------------------------------------------
    def order_units(self) -> list[int]:
        sit = self.sit
        keys = []
        for uid in sorted(self.pos):
            if uid in self.moved:
                continue
            u = sit.own[uid]
            here = self.pos[uid]
            ut = UNITS[u["type"]]
            front = sit.front_field(ut["movement"])[here] / max(1, ut["move"])
            artillery = bool(ut["range"] and ut["range"][0] > 1)
            first = 0 if u["type"] in CAPTURERS else 1
            if self.st.order == "back":
                keys.append(((first, artillery, -front, uid), uid))
            else:
                keys.append(((first, artillery, front, uid), uid))
        keys.sort()
        return [uid for _, uid in keys]

    def group_front(self) -> float | None:
        vals = []
        for uid, i in self.pos.items():
            u = self.sit.own.get(uid)
            if u is None or u["type"] in CAPTURERS:
                continue
            ut = UNITS[u["type"]]
            vals.append(self.sit.front_field(ut["movement"])[i] / max(1, ut["move"]))
        if len(vals) < 2:
            return None
        vals.sort()
        return vals[len(vals) // 2]

    def plan(self) -> list[dict]:
        if self.st.endgame and self.sit.last_word:
            self.final_captures()
        if self.last_stand:
            self.final_guards()
        # A Pionier that can take the free enemy HQ this phase wins at once (R35, R48): always take it
        # on a map without a round limit, finishing or not (issue 16).
        no_limit = self.st.finisher and self.sit.turns_left >= INF
        # Crews already in the air go on even when the finishing test flickers off under fog (the known
        # army changes from turn to turn): stranded helicopters were shot down or ran dry.
        aloft = no_limit and any(
            self.sit.own[t]["type"] == "transporthubschrauber" and self.sit.carries_pionier(t)
            for t in self.sit.cargo_of)
        crews = no_limit and (self.crews or aloft) and self.sit.enemy_hq is not None
        # Where pickets keep watch, the scout looks round the HQ before a crew strikes: what it
        # reveals there (a unit on the HQ, one on the way in, R21) makes the AI plan again, and the
        # crew stays out of a trap instead of flying in blind.
        # So does a crew that can strike this phase: it goes in on what the scout has just seen,
        # not blind (session 24: both open mornings in six capped Großer Belt games were lost to an
        # ambush on the way in, R21).
        scouted_first = crews and (bool(self.pickets()) or self.crew_ready())
        if scouted_first:
            self.scout()
        struck = no_limit and self.strike()
        if crews and not struck:
            self.crew_base()
            if not scouted_first:
                self.scout()
            self.airlift()
        self.load_stranded()
        self.move_transports()
        if self.st.taxi:
            self.taxi()
        gf = self.group_front() if self.st.w_group else None
        for uid in self.order_units():
            # Out of nodes, Schwer's variant ends here (a deterministic cut, the same in every run).
            # The browser's clock never cuts a plan in the middle: the units left would stand idle
            # for the turn; it only stops the search from trying further variants (search.py).
            if self.budget.nodes_spent and self.st.name.startswith("schwer"):
                break
            if uid in self.moved or uid not in self.pos:
                continue
            self.move_unit(self.sit.own[uid], gf)
        self.build()
        self.actions.append({"type": "end_phase"})
        return self.actions

    def move_unit(self, u: dict, gf) -> None:
        uid = u["id"]
        here = self.pos[uid]
        role, field = self.field_for(u, here)
        opts = self.g.reachable(uid)
        self.budget.spend(1)
        if self.st.stay_prob and self.rng.random() < self.st.stay_prob:
            # Leicht: about one unit in five stays put (R5) -- but a Jäger never lets a building
            # it can take this very turn slip (so the Blitz end-game is played, R66).
            if not (u["type"] in CAPTURERS and any(
                    (b := self.sit.bld.get(self.geo.idx(o["to"]))) is not None and b["owner"] != self.sit.me
                    for o in opts)):
                return
        best_s = self.score_hex(u, here, role, field, gf) if self.air_ok(u, here, 0) else -1e9
        best = None
        for o in opts:
            h = self.geo.idx(o["to"])
            if not self.air_ok(u, h, o["hexes"]):
                continue
            s = self.score_hex(u, h, role, field, gf)
            if s > best_s + 1e-9:
                best_s, best = s, o["to"]
        self.score += best_s
        if best is not None:
            self.apply({"type": "move", "unit": uid, "to": best})

    def final_captures(self) -> None:
        """The game's last move, with no enemy turn after it (R50, R66): every capturer takes a
        different building it can reach, as many as possible; guarding and danger no longer count.
        A maximum matching over the engine's `reachable` hexes, enemy-held buildings first (each
        counts twice: one more for us, one fewer for them), then neutral ones."""
        sit, geo = self.sit, self.geo
        options: dict[int, list[int]] = {}
        for uid in sorted(self.pos):
            if uid in self.moved or sit.own[uid]["type"] not in CAPTURERS:
                continue
            here = self.pos[uid]
            hexes = {geo.idx(o["to"]) for o in self.g.reachable(uid)} | {here}
            self.budget.spend(1)
            options[uid] = sorted(h for h in hexes if (b := sit.bld.get(h)) is not None and b["owner"] != sit.me)
        match: dict[int, int] = {}  # building hex -> capturer

        def augment(uid: int, allowed, seen: set[int]) -> bool:
            for h in options[uid]:
                if not allowed(h) or h in seen:
                    continue
                seen.add(h)
                if h not in match or augment(match[h], allowed, seen):
                    match[h] = uid
                    return True
            return False

        enemy_held = lambda h: sit.bld[h]["owner"] == sit.en  # noqa: E731
        for allowed in (enemy_held, lambda h: True):
            for uid in sorted(options):
                if uid not in match.values():
                    augment(uid, allowed, set())
        for h, uid in sorted(match.items(), key=lambda x: x[1]):
            if h != self.pos[uid]:  # one standing on its building already captures where it is
                self.apply({"type": "move", "unit": uid, "to": geo.hex(h)})
            self.moved.add(uid)

    def final_guards(self) -> None:
        """Our last turn in Blitz with the enemy's final one still to come (R50, R66, R68): a building
        an enemy capturer can reach next turn and nobody stands on is lost for good. Before anything
        else, each such building (not a production site: the unit built there guards it) gets the unit
        that can reach it with the most hp to spare after the enemy's expected fire (R8: it fires
        first); one standing there already stays if it is that unit, else it makes way. A unit the
        fire would destroy twice over is not sent. Without this Schwer left a Stadt under fire empty
        rather than risk a tank there (Flensburger Förde seed 140: 8 - 6 up before the enemy's last
        turn, 7 - 7 after it, lost on unit value)."""
        sit, geo = self.sit, self.geo
        on = {h: uid for uid, h in self.pos.items()}
        posts = sorted(i for i, urg in self.threats.items()
                       if urg >= 1.0 and sit.bld[i]["owner"] == sit.me
                       and not BUILDINGS[sit.bld[i]["type"]]["produces"]
                       and (i not in self.occupied or (i in on and on[i] not in self.moved)))
        gf = self.group_front() if self.st.w_group else None
        for i in posts:
            occupant = on.get(i)
            # Who could get there if the one standing on it made way (asked of a copy).
            trial, away = self.g, None
            if occupant is not None:
                away = self.way_out(sit.own[occupant], gf)
                if away is not None:
                    trial = self.g.clone()
                    trial.apply({"type": "move", "unit": occupant, "to": away})
                    self.budget.spend(1)
            best = None
            for uid in sorted(self.pos):
                if uid in self.moved:
                    continue
                u = sit.own[uid]
                here = self.pos[uid]
                if uid != occupant and (b := sit.bld.get(here)) is not None and b["owner"] == sit.me \
                        and self.threats.get(here, 0) >= 1.0:
                    continue  # already on another threatened building
                hit = sit.expected_hit(u, i)
                if hit >= 2 * u["hp"] or geo.dist(here, i) > UNITS[u["type"]]["move"]:
                    continue
                if uid != occupant:
                    self.budget.spend(1)
                    if not any(geo.idx(o["to"]) == i for o in trial.reachable(uid)):
                        continue
                key = (u["hp"] - hit, -worth(u["type"], sit.blitz), uid == occupant, -uid)
                if best is None or key > best[0]:
                    best = (key, uid)
            if best is None:
                continue
            if occupant is not None and best[1] != occupant:
                self.apply({"type": "move", "unit": occupant, "to": away})
            if self.pos[best[1]] != i:
                self.apply({"type": "move", "unit": best[1], "to": geo.hex(i)})
            self.moved.add(best[1])

    def way_out(self, u: dict, gf) -> list | None:
        """The best hex `u` can reach other than where it stands (None if there is none)."""
        here = self.pos[u["id"]]
        role, field = self.field_for(u, here)
        return self.best_hex(u["id"], lambda h: self.score_hex(u, h, role, field, gf), None,
                             may_end=lambda o, h: h != here and self.air_ok(u, h, o["hexes"]))

    # -- finishing a won game (issue 16: maps without a round limit) ----------------------------------
    def strike(self) -> bool:
        """The winning move: a Pionier takes the free enemy HQ this very phase (R35: at once; R48) --
        on foot, or put down on it from a transport that moves next to it first (R41). Without
        this, games on the big maps ran to the 60-round cap beside an empty enemy HQ."""
        sit, geo = self.sit, self.geo
        hq = sit.enemy_hq
        if hq is None or hq in self.occupied:
            return False
        for uid in sorted(self.pos):
            if uid in self.moved or sit.own[uid]["type"] != "pionier":
                continue
            self.budget.spend(1)
            if any(geo.idx(o["to"]) == hq for o in self.g.reachable(uid)):
                self.apply({"type": "move", "unit": uid, "to": geo.hex(hq)})
                self.moved.add(uid)
                return True
        ways = []  # (helicopter, hex beside the HQ or None, Pionier)
        for tid in sorted(self.pos):
            pioneers = [c["id"] for c in sit.cargo_of.get(tid, []) if c["type"] == "pionier" and not c.get("moved")]
            if not pioneers:
                continue
            # One that moved already this phase (a replan after a surprise) can still put down (R41).
            spots = [None] + ([] if tid in self.moved else [o["to"] for o in self.g.reachable(tid)])
            for to in spots:
                if geo.dist(geo.idx(to) if to else self.pos[tid], hq) != 1:
                    continue
                trial = self.g.clone()
                if to is not None:
                    trial.apply({"type": "move", "unit": tid, "to": to})
                self.budget.spend(2)
                for opt in trial.unload_options(tid):
                    if opt["unit"] in pioneers and geo.hex(hq) in [list(x) for x in opt["to"]]:
                        ways.append((tid, to, opt["unit"]))
                        break
        if not ways:
            return False
        # The way in the engine will fly with the fewest hexes we cannot see: a hidden enemy on it
        # stops the crew short (R21). On Großer Belt both mornings a crew found its way open in six
        # capped games, it flew blind to the first hex beside the HQ it listed and was ambushed
        # (seeds 76002 round 38, 76017 round 13, session 24) while another way in was clear. So
        # first any aircraft free to move looks at the hidden hexes on the ways in (a strike wins
        # the game: a one-way flight is worth it); what it reveals makes the AI plan again.
        blind = [self.blind_hexes(t, to) for t, to, _ in ways]
        for uid in self.lookers():
            if not all(blind):
                break
            if self.look(uid, {i: 1.0 for hexes in blind for i in hexes}, True):
                blind = [self.blind_hexes(t, to) for t, to, _ in ways]
        # Least blind first: remembered enemies on the way (R7: they may still be there), then hexes
        # out of sight; the first of equals.
        k = min(range(len(ways)), key=lambda k: (sum(1 for i in blind[k] if i in sit.enemy_hexes), len(blind[k])))
        tid, to, pid = ways[k]
        if to is not None:
            self.apply({"type": "move", "unit": tid, "to": to})
        self.apply({"type": "unload", "transport": tid, "unit": pid, "to": geo.hex(hq)})
        return True

    def blind_hexes(self, tid: int, to: list[int] | None) -> list[int]:
        """The hexes we cannot see now on the way of `tid` to `to` (None: no move) and on the enemy
        HQ, where the Pionier steps. The way is the one the engine walks, found as the engine finds
        it: blocked only by enemies in sight (R16, R19)."""
        sit, geo = self.sit, self.geo
        if sit._memo.get("sight") is None:
            vis = sit.obs["visible"]
            sit._memo["sight"] = frozenset(i for i in range(geo.w * geo.h) if vis[i // geo.w][i % geo.w] == "1")
        seen = sit._memo["sight"] | self.scouted
        way = [sit.enemy_hq]
        if to is not None:
            way = engine_search(self.g, self.g.units[tid], seen).path(geo.idx(to))[1:] + way
        return [i for i in way if i not in seen]

    def lookers(self) -> list[int]:
        """Own aircraft free to move that carry nothing, Drohnen (vision 5) first: they can fly over
        anything to look (R17, R20)."""
        sit = self.sit
        air = [uid for uid in sorted(self.pos) if uid not in self.moved and not sit.cargo_of.get(uid)
               and UNITS[sit.own[uid]["type"]]["movement"] == "luft"]
        return sorted(air, key=lambda uid: (-UNITS[sit.own[uid]["type"]]["vision"], uid))

    def crew_ready(self) -> bool:
        """A loaded crew helicopter stands within one move of a free hex beside the enemy HQ (as far as
        we know): it can strike this phase."""
        mv = UNITS["transporthubschrauber"]["move"]
        approach = self.approach_field()
        return any(self.sit.own[t]["type"] == "transporthubschrauber" and approach[self.pos[t]] <= mv
                   and self.sit.carries_pionier(t) for t in self.pos if t in self.sit.own)

    def scout(self) -> None:
        """Finishing under fog (issue 16): before the crews commit, a Drohne flies to where it sees most
        of the hidden hexes round the enemy HQ (vision 5, R20) and round the next stops of the loaded
        crew helicopters. Its move reveals what stands there, the AI plans the rest of the phase again
        on a surprise, and the helicopters stage and strike knowing the ground. On Großer Belt the
        crews flew blind into Flugabwehr and were shot down or stopped by an ambush (R21) in the
        middle of the Liga's position; and with the scout looking only round the HQ, a crew 20 hexes
        out crept 3-4 hexes a turn through unseen ground (seed 53001, session 10)."""
        sit, geo = self.sit, self.geo
        hq = sit.enemy_hq
        if not sit.obs.get("fog") or hq is None:
            return
        vis = sit.obs["visible"]

        def hidden(i: int) -> bool:
            return vis[i // geo.w][i % geo.w] != "1"
        # What to look at, with weights: the enemy HQ's surroundings, and the ground within two hexes
        # (Flugabwehr range, R23) of the stops that bring each loaded crew nearest the HQ this turn --
        # the enemy fires before it moves (R8), so a stop seen clear of its fire is a safe stop.
        approach = self.approach_field()
        # Round the HQ only when a crew could strike next (it stands within a move of the HQ):
        # before, the scouts flew one way to Slagelse every third turn while the crews waited in
        # the south, and were lost there (seed 53002, session 11).
        ready = self.crew_ready()
        targets = {i: 1.0 for i in geo.ring(hq, 0, 4) if hidden(i)} if ready else {}
        drones = [uid for uid in sorted(self.pos) if uid not in self.moved and sit.own[uid]["type"] == "drohne"]
        spots = self.pickets()
        watch: list[int] = []
        if spots and drones and not (ready and len(drones) == 1):
            # One Drohne keeps watch from a picket spot (the one on a spot, else the nearest to one);
            # the others look where the crews go next. A lone one looks round the HQ for a crew
            # that can strike this turn.
            on = [d for d in drones if self.pos[d] in spots]
            keeper = on[0] if on else min(drones, key=lambda d: (min(geo.dist(self.pos[d], i) for i in spots), d))
            watch.append(keeper)
            drones.remove(keeper)
        mv = UNITS["transporthubschrauber"]["move"]
        escort_at = None  # the stop of a crew that will stand one move from the HQ tonight
        for tid in sorted(self.pos):
            # Moved first: a unit put down earlier in this phase (R41) stands in `pos` but is no
            # unit of the observation's `own` (it was cargo); read first, it raised a KeyError.
            if tid in self.moved or tid not in sit.own:
                continue
            t = sit.own[tid]
            if t["type"] != "transporthubschrauber" or not sit.carries_pionier(tid):
                continue
            stops = [geo.idx(o["to"]) for o in self.g.reachable(tid)
                     if t.get("fuel") is None or t["fuel"] - o["hexes"] >= 1]
            if not stops:
                continue
            near = min(approach[h] for h in stops)
            if near <= mv and escort_at is None:
                escort_at = min(stops, key=lambda h: (approach[h], h))
            for h in stops:
                if approach[h] <= near + 1 and approach[h] < approach[self.pos[tid]]:
                    for n in geo.ring(h, 0, 2):
                        if hidden(n):
                            targets[n] = max(targets.get(n, 0.0), 1.0)
        if not ready and escort_at is not None and drones:
            uid = min(drones, key=lambda d: (geo.dist(self.pos[d], escort_at), d))
            self.escort(uid, escort_at)
            drones.remove(uid)
        if spots:
            for uid in drones if targets else []:
                if self.look(uid, targets, ready):
                    drones.remove(uid)
                    break
            self.hold_pickets(watch + drones)  # the rest keep watch too, each on a spot of its own
            return
        if not targets:
            for uid in drones:
                self.rest(uid)
            return
        for uid in drones:
            if self.look(uid, targets, ready):
                return

    def loss_share(self, u: dict, h: int) -> float:
        """The share of aircraft `u`'s hit points the known enemies are expected to take at `h`, at
        most 1: what a scout's look, escort or picket weighs against where it ends (R8, R25)."""
        return min(1.0, self.sit.expected_hit(u, h) / max(1, u["hp"]))

    def escort(self, uid: int, at: int) -> None:
        """The scout spends the night ESCORT hexes from the stop `at` of a crew that strikes next
        morning, out of known fire and out of the enemy's sight if it can, so that it can look at the
        ways in before the strike (`strike`, `lookers`): a scout resting at a far base or on a picket
        could not reach them (Großer Belt seeds 99000 and 102006, session 29: four open mornings, each
        crew stopped on the way in by a unit hidden beside the HQ (R21) while another way was free).
        A one-way flight, as for a look before a strike (R19: it must only not crash)."""
        sit, geo = self.sit, self.geo
        u = sit.own[uid]
        sight = sit.enemy_sight()
        # A hex off by one from ESCORT costs 1, certain loss 3 (as in `look`), one the enemy sees 0.5:
        # a scout seen there draws the enemy to the crew's stop.
        best = self.best_hex(uid, lambda h: -abs(geo.dist(h, at) - ESCORT)
                             - 3.0 * self.loss_share(u, h) - (0.5 if h in sight else 0.0),
                             None, may_end=lambda o, h: geo.dist(h, sit.enemy_hq) > 1 and (
                                 u["fuel"] is None or u["fuel"] - o["hexes"] >= 1))
        if best is not None:
            self.apply({"type": "move", "unit": uid, "to": best})
        self.moved.add(uid)

    def rest(self, uid: int) -> None:
        """An idle scout waits refuelled at the crews' base (R18, R31), if there is one."""
        base = self.refuel_points()  # after each move: a scout that landed takes its hex
        if base:
            self.fly_to(uid, base)

    def look(self, uid: int, targets: dict[int, float], ready: bool) -> bool:
        """Aircraft `uid` (a Drohne, or any other before a strike) flies to where it sees most of
        `targets` (hex -> weight); False if no hex beats staying."""
        sit, geo = self.sit, self.geo
        hq = sit.enemy_hq
        u = sit.own[uid]
        vision = UNITS[u["type"]]["vision"]
        # A one-way sortie is fine (it must only not crash this phase, R19): the Drohne is cheap
        # and is built again, while a scout kept within reach of home never saw round the HQ.
        # Out of known fire if it can: a Drohne shot down sees nothing next turn. Never on the HQ or
        # next to it, where it would take the hex the crew puts its Pionier down from (R41).
        best = self.best_hex(uid, lambda h: sum(w for i, w in targets.items() if geo.dist(h, i) <= vision)
                             - 0.01 * geo.dist(h, hq) - 3.0 * self.loss_share(u, h),
                             0.0,
                             may_end=lambda o, h: geo.dist(h, hq) > 1 and (
                                 h in sit.air_homes() or u["fuel"] is None
                                 or (u["fuel"] - o["hexes"] >= 1 and (ready or self.air_ok(u, h, o["hexes"])))))
        if best is not None:
            self.apply({"type": "move", "unit": uid, "to": best})
            self.moved.add(uid)
            # Seen from now on (R20; base vision, no hill bonus: never more than it sees). An enemy
            # revealed there makes the AI plan again anyway; this tells the crews the rest is clear.
            self.scouted.update(geo.ring(geo.idx(best), 0, vision))
            return True
        return False

    def pickets(self) -> list[int]:
        """Where a scout Drohne can hover for good and watch the crews' way in (issue 16): a hex of
        sea with no land within any ground unit's anti-aircraft reach (R23, R25), so nothing hidden
        on land can fire on it, from which the Drohne (vision 5, R20) sees at least PICKET_MIN of the
        hexes from which a crew strikes in one move. Hovering costs no fuel (D12), so it stays. Best
        first; empty where the enemy HQ has no such sea near it. On Großer Belt the scouts flew one
        way from Odense-Beldringe, 25 hexes, arrived with 1-3 fuel and were lost every third turn;
        Schwer never once saw round Slagelse (seeds 60000, 60002, session 12)."""
        spots = self.sit._memo.get("pickets")  # the same for every variant of this decision
        if spots is None:
            sit, geo = self.sit, self.geo
            shel = _SHELTERED.get(sit.tkey)
            if shel is None:
                shel = _SHELTERED[sit.tkey] = [i for i in range(geo.size) if all(
                    _no_ground(sit.terrain[n]) for n in geo.ring(i, 0, GROUND_AA_REACH))]
            ap = self.approach_field()
            mv = UNITS["transporthubschrauber"]["move"]
            vision = UNITS["drohne"]["vision"]
            scored = []
            for i in shel:
                if geo.dist(i, sit.enemy_hq) > mv + vision:
                    continue
                n = sum(1 for x in geo.ring(i, 0, vision) if ap[x] <= mv)
                if n >= PICKET_MIN:
                    scored.append((-n, i))
            spots = sit._memo["pickets"] = [i for _, i in sorted(scored)]
        return spots

    def hold_pickets(self, drones: list[int]) -> None:
        """Each scout Drohne not needed for a look goes to a picket spot of its own (`pickets`) and
        hovers there; one that cannot get there with a fuel to spare waits at the base (R19)."""
        sit = self.sit
        spots = list(self.pickets())
        for uid in drones:
            u = sit.own[uid]
            here = self.pos[uid]
            free = [i for i in spots if i == here or i not in self.occupied]
            if here in free and sit.expected_hit(u, here) == 0:
                self.moved.add(uid)  # on watch: stays (no fuel spent hovering, D12)
                spots.remove(here)
                continue
            fuel = INF if u.get("fuel") is None else u["fuel"]
            target = None
            for i in free:
                if sit.expected_hit(u, i) == 0 and sit.field_from("luft", [i])[here] <= fuel - 1:
                    target = i
                    break
            if target is None:
                self.rest(uid)
                continue
            spots.remove(target)
            f = sit.field_from("luft", [target])
            best = self.best_hex(uid, lambda h: -f[h] - 3.0 * self.loss_share(u, h),
                                 -f[here], may_end=lambda o, h: fuel - o["hexes"] >= 1 + f[h])
            if best is not None:
                self.apply({"type": "move", "unit": uid, "to": best})
            self.moved.add(uid)

    def hidden_aa_risk(self, h: int) -> float:
        """The chance that an enemy with anti-aircraft fire Schwer has not seen can fire on h in its
        next attack phase (fog, R20, R25), 0 when every hex within that fire's reach of h is in sight
        (the known ones are counted by `expected_hit`). Hidden Flugabwehr stand where the seen ones
        stand: the enemy keeps them together round what it guards. So the chance falls with the
        distance from h to the nearest known enemy that fires on aircraft (`HIDDEN_AA`).

        Measured on Großer Belt (seeds 60000, 60001, 60003, 60004; Schwer's crews' stops every third
        round from 12, 5458 stops not in known fire, truth read from the game; session 14): with the
        nearest known one 2, 3, 4, 5, 6, 7+ hexes off, a stop had anti-aircraft fire on it in 64, 53,
        37, 21, 13 and 8-11 % of cases. The estimate before (`hidden_fire`: the unseen share of the
        enemy spread evenly over all unseen hexes) told these apart hardly at all (20-27 % for an
        estimate from 0.2 to 0.8 of a sure loss) and kept the crews out of every stop."""
        sit, geo = self.sit, self.geo
        vis = sit.obs["visible"]
        # Within reach of h: any hex within the ground units' anti-aircraft reach, and the water one
        # further out, where a Fregatte (range 3) may lie.
        if all(vis[n // geo.w][n % geo.w] == "1" or n in self.scouted for n in geo.ring(h, 0, AA_REACH)
               if geo.dist(h, n) <= GROUND_AA_REACH or _no_ground(sit.terrain[n])):
            return 0.0
        if self._aa_at is None:
            self._aa_at = [e["i"] for e in sit.enemies.values()
                           if UNITS[e["type"]]["range"] and UNITS[e["type"]]["attack"].get("luft")]
        if not self._aa_at:
            return 0.0  # none seen: the hidden ones are taken to look like the known ones (R4)
        near = min(geo.dist(h, i) for i in self._aa_at)
        far, step, top = HIDDEN_AA
        return min(top, far + step * max(0, 7 - near))

    def refuel_points(self, mine: int | None = None) -> list[int]:
        """Hexes next to an own Versorger, where an aircraft that ends its move is refuelled (R18, R31:
        at the end of the move phase, before the crash check of R19): the crews' forward base on a map
        without a round limit (issue 16). `mine`: the hex of the aircraft asking, free to it."""
        if not (self.st.finisher and self.sit.turns_left >= INF):
            return []
        vs = self.sit._memo.get("versorger")
        if vs is None:  # asked for every hex an aircraft might end on: find the Versorger once
            vs = self.sit._memo["versorger"] = [uid for uid in sorted(self.sit.own)
                                            if self.sit.own[uid]["type"] == "versorger"]
        out = []
        for uid in vs:
            i = self.pos.get(uid)
            if i is not None:
                out.extend(n for n in self.geo.nb[i] if n == mine or n not in self.occupied)
        return sorted(set(out))

    def crew_base(self) -> None:
        """The crews' forward base (issue 16): a Versorger drives to where a helicopter refuelled next
        to it reaches, in one move, a spot from which the strike is one more move (two helicopter
        moves from a free hex by the enemy HQ), out of the enemy's known fire. From Odense-Beldringe
        the way to Slagelse is 25 hexes of a Transporthubschrauber's 30 fuel: crews crept in, ran
        low, waited beside an empty HQ with too little fuel to strike or get home (seed 53002)."""
        sit, geo = self.sit, self.geo
        vs = [uid for uid in sorted(self.pos) if uid not in self.moved and sit.own[uid]["type"] == "versorger"]
        if not vs or sit.enemy_hq is None:
            return
        uid = vs[0]
        u = sit.own[uid]
        ap = self.approach_field()
        reach = 2 * UNITS["transporthubschrauber"]["move"]

        def score(h: int) -> float:
            if ap[h] >= INF:
                return -1e6
            room = sum(1 for n in geo.nb[h] if n not in self.occupied)
            return (-max(0, ap[h] - reach) - (5.0 if ap[h] < reach - 4 else 0.0) - (3.0 if room < 2 else 0.0)
                    - 20.0 * min(1.0, 3 * sit.expected_hit(u, h) / max(1, u["hp"])) - 0.01 * ap[h])
        here = self.pos[uid]
        best = self.best_hex(uid, score, score(here), may_end=lambda o, h: True)
        if best is not None:
            self.apply({"type": "move", "unit": uid, "to": best})
        self.moved.add(uid)

    def approach_field(self) -> list[int]:
        """Flying distance to a free hex next to the enemy HQ, around the enemy units (R19: aircraft
        cannot fly through them): on Großer Belt the way in is round the back, not over the front."""
        if self._approach is None:
            sit, geo = self.sit, self.geo
            hq = sit.enemy_hq
            # Only the enemies in sight block the way: the remembered ones (R7) stand where they were
            # seen up to two turns ago. Counted as a wall, twenty of them closed every way to a free
            # Slagelse, and the crew beside it turned home (Großer Belt seed 53002, round 21).
            seen = {geo.idx(e["at"]) for e in sit.obs["units"] if e["side"] != sit.me}
            free = sorted(n for n in geo.nb[hq] if n not in self.occupied) or sorted(geo.nb[hq])
            self._approach = distance_field(geo, sit.terrain, "luft", free,
                                            [h for h in sit.enemy_hexes if h != hq and h in seen])
        return self._approach

    def airlift(self) -> None:
        """Pioniere fly to the enemy HQ in Transporthubschrauber (R44; they cross water and the front):
        a Pionier boards an empty one, a loaded one waits out of the enemy's fire at most one move
        from the HQ until the HQ is free (`strike`), empty ones fetch the Pioniere. At most CREWS
        helicopters in this role, not counting, at the unit limit, crews that can no longer get home
        (`committed`); one that cannot even reach the enemy HQ flies out its fuel (`fly_out`). The
        rest of the army plans as before.

        A salvo (issue 16, R46): once all CREWS loaded crews are within two moves of the strike,
        they go in together, each to its least dangerous stop, accepting up to SALVO_RISK of a sure
        loss instead of TRIP_RISK. One crew at a time waited for a stop the enemy's Flugabwehr ring
        round Slagelse never left (Großer Belt: 13-18 of them from round 30, every stop 3-4 hexes
        from one, 43-55 % of such stops under hidden fire); three at once leave one at a stop more
        often than not, and a crew costs 650 while Schwer banks $20,000-30,000 at the unit limit."""
        sit, geo = self.sit, self.geo
        helis = [uid for uid in sorted(self.pos)
                 if uid not in self.moved and sit.own[uid]["type"] == "transporthubschrauber"]
        if not helis or sit.enemy_hq is None:
            return
        approach = self.approach_field()
        loaded = [t for t in helis if sit.carries_pionier(t)]
        homes = self.crew_homes()
        mv = UNITS["transporthubschrauber"]["move"]
        ready = [t for t in loaded if approach[self.pos[t]] <= 2 * mv]
        salvo = len(ready) >= CREWS
        for tid in loaded:
            u = sit.own[tid]
            if self.spent(tid):
                self.fly_out(tid)
                continue
            # Not enough fuel for the strike even if the way round the enemy opened (R19): refuel
            # first. A crew that would have the fuel on a clear way waits where it is safe instead:
            # turned home whenever the Liga's units closed the way for a turn, crews flew to and fro
            # between Odense-Beldringe and the Belt for twenty rounds (Großer Belt seed 60000).
            clear = sit.field_from("luft", sorted(geo.nb[sit.enemy_hq]))[self.pos[tid]]
            if u.get("fuel") is not None and u["fuel"] <= clear + 1 and (homes or sit.own_hq is not None):
                self.fly_to(tid, homes)
            else:
                self.stage(tid, approach, salvo=salvo and tid in ready)
        empty = [t for t in helis if t not in loaded and not sit.cargo_of.get(t)]
        crews = [uid for uid in sorted(self.pos) if uid not in self.moved and sit.own[uid]["type"] == "pionier"]
        # A crew that can no longer get home (`committed`) strikes from where it is or not at all; it
        # does not hold one of the CREWS places, so a spare helicopter fetches a Pionier meanwhile.
        wanted = max(0, CREWS - sum(1 for t in loaded if not self.committed(t)))
        for pid in crews:
            if not wanted:
                break
            cid = self.board_nearest(pid, empty)
            if cid is None:
                continue
            empty.remove(cid)
            wanted -= 1
            self.stage(cid, approach)
        # Empty ones fly to the Pioniere still on foot (or to the own HQ, which builds them).
        def landing(hexes):  # a Pionier boards only where it can stand (R40)
            return sorted({n for n in hexes if TERRAIN[sit.terrain[n]]["cost"]["fuss"] is not None})
        pick = landing(n for p in crews if p in self.pos and p not in self.moved for n in geo.nb[self.pos[p]])
        if not pick and sit.own_hq is not None:
            pick = landing(geo.nb[sit.own_hq])
        f = sit.field_from("luft", pick) if pick else None
        trip = min(approach[p] for p in pick) if pick else 0  # from the pick-up to the enemy HQ
        # The HQ builds a Pionier at the end of this phase (`build`): a helicopter that reaches no
        # Pionier on foot this phase waits beside the HQ instead, if that is nearer, and takes the new
        # one aboard next phase (R40). Sent after a Pionier on foot far off, the first helicopter flew
        # to it, found it gone to take a town, and came back a round and 12 fuel later (Großer Belt
        # seed 161000, rounds 1-2). Never onto a site that builds (it would block it). With this, 79 of
        # 120 fresh Großer Belt games ended against 69 (as Nordbund 35 against 25; docs/ai.md, session 42).
        hq_pick = []
        if (f is not None and sit.own_hq is not None and sit.own_hq not in self.occupied and self.wants_pioneers()
                and any(o["unit_type"] == "pionier" and o["affordable"]  # money and the unit limit (D9)
                        for o in self.g.build_options(geo.hex(sit.own_hq)))):
            sites = {i for i, b in sit.bld.items() if b["owner"] == sit.me and BUILDINGS[b["type"]]["produces"]}
            hq_pick = [n for n in landing(geo.nb[sit.own_hq]) if n not in sites]
        fh = sit.field_from("luft", hq_pick) if hq_pick else None
        for k, tid in enumerate(sorted(empty, key=lambda t: (f[self.pos[t]] if f else 0, t))):
            u = sit.own[tid]
            if k < wanted and f is not None:
                to, fd, tr = pick, f, trip
                if fh is not None and f[self.pos[tid]] > mv and fh[self.pos[tid]] < f[self.pos[tid]]:
                    to, fd, tr = hq_pick, fh, min(approach[p] for p in hq_pick)
                # A crew needs a helicopter that can fly the whole way: one low on fuel refuels first.
                low = u.get("fuel") is not None and u["fuel"] - fd[self.pos[tid]] <= tr and homes
                self.fly_to(tid, homes if low and self.pos[tid] not in homes else to)
            elif homes and self.pos[tid] not in homes:
                self.fly_to(tid, homes)  # a spare waits refuelled where it cannot crash (R19)
        # Every crew helicopter is planned here: moved as a fighter it flew about on the front field
        # and burnt its fuel (issue 16). One this left alone hovers where it is (no fuel spent, D12).
        self.moved.update(helis)

    def fly_to(self, tid: int, hexes: list[int]) -> None:
        """A helicopter flies toward the nearest of `hexes` (never onto the own HQ, which builds the
        crews), out of the enemy's fire as far as it can, able to get home (R19)."""
        sit = self.sit
        u = sit.own[tid]
        f = sit.field_from("luft", hexes)
        here = self.pos[tid]
        hq = kept_off = sit.own_hq
        # Out of reach of every other home, it may land on the own HQ, which refuels it too (R19):
        # kept off it, a crew hovered beside Odense with 1 fuel for twelve rounds, still counted
        # as a crew, so none was built again (Großer Belt seed 60000).
        if (hq is not None and hq not in self.occupied and u.get("fuel") is not None
                and f[here] > u["fuel"] and self.geo.dist(here, hq) <= u["fuel"]):
            f = sit.field_from("luft", sorted(set(hexes) | {hq}))
            kept_off = None
        best = self.best_hex(tid, lambda h: -f[h] - sit.expected_hit(u, h), -f[here] - sit.expected_hit(u, here),
                             may_end=lambda o, h: h != kept_off and self.air_ok(u, h, o["hexes"]))
        if best is not None:
            self.apply({"type": "move", "unit": tid, "to": best})
        self.moved.add(tid)

    def stage(self, tid: int, approach, salvo: bool = False) -> None:
        """A helicopter with a Pionier aboard moves to where it can reach a hex next to the enemy HQ
        next turn, keeping out of the enemy's fire (the cargo dies with it, R46) and able to get home
        (R19).

        A trip, not a creep (issue 16): where an air home or a Versorger (R19, R31) lies within two
        helicopter moves of the strike, the crew ends its move only at a *stop* (one move from the
        strike, with the fuel for it) or at that forward home, refuelled, never in between. Out of
        every safe stop it goes back there instead of hovering on the way: on Großer Belt crews
        waited fourteen rounds in the Agersø sound, eight hexes out, with 11 and 16 fuel, then flew
        on and were stranded with 4 (seed 60000, session 14). With no home that near, it hops in
        from the rear as before, always able to get home.

        In a `salvo` (see `airlift`) a crew not yet at a stop flies to the least dangerous one,
        unless even that one carries SALVO_RISK of a sure loss."""
        sit, geo = self.sit, self.geo
        u = sit.own[tid]
        mv = UNITS[u["type"]]["move"]
        here = self.pos[tid]
        # With a home within two moves of the strike, the crew waits there refuelled and flies out
        # only to a stop; without one (the whole way from the rear) it hops in, as before.
        homes = self.crew_homes(tid)
        base = self.forward_home(u, homes, approach) if homes and u.get("fuel") is not None else []
        if base and approach[base[0]] > 2 * mv:
            base = []
        waits = approach[here] <= mv or (not salvo and (here in base or not base))

        fuel_at: dict[int, float] = {self.pos[tid]: INF if u.get("fuel") is None else u["fuel"]}
        sight = sit.enemy_sight()
        under_fire = sit.expected_hit(u, self.pos[tid]) > 0

        def score(h: int) -> float:
            # Out of fire first: a crew shot down is lost with its helicopter (R46), so being one
            # hex nearer never pays for a good chance of that (weighed 6 before: 7 hexes nearer
            # "paid" for a certain loss). A spot it can still fly home from beats one it cannot.
            home = 0.5 if self.air_ok(u, h, (u.get("fuel") or 0) - fuel_at.get(h, 0)) else 0.0
            # Waiting within a move of the HQ, a crew over water cannot be walled in: over land the
            # Liga's tanks drove round one and it could fly nowhere for 28 rounds, beside the HQ
            # left free (R19: aircraft cannot fly through enemy units; seed 53000, session 11).
            if approach[h] <= mv and _no_ground(sit.terrain[h]):
                home += 3.0
            if salvo:  # every hex it may end on is a stop: the safest one
                return -20.0 * self.crew_risk(u, h) - 0.05 * approach[h] + home
            # A stop lets the strike go next turn, a hex further out does not: a stop under
            # TRIP_RISK (the bar every night of a trip clears) beats waiting out of fire short of
            # it. Scored by the hexes still to fly alone, a crew stranded 8-10 hexes out with too
            # little fuel to get home hovered there rather than take a stop at 0.2 (Großer Belt
            # seed 92005, session 28).
            risk = self.crew_risk(u, h)
            # Once the armies stand, a stop the enemy sees is no stop (`watched`).
            stop = 20.0 * TRIP_RISK if approach[h] <= mv and risk < TRIP_RISK and not self.watched(h) else 0.0
            seen = 20.0 * SEEN_COST if h in sight else 0.0  # out of the enemy's sight first
            return -max(0, approach[h] - mv) - 20.0 * risk - 0.05 * approach[h] + home + stop - seen

        def may_end(o: dict, h: int) -> bool:
            # A one-way trip only to where the strike itself is one move away with the fuel left
            # (R18, R19). Before, crews went one way to spots from which they could neither strike
            # nor get home, and hovered there with 2-5 fuel for the rest of the game (seed 46000).
            left = INF if u.get("fuel") is None else u["fuel"] - o["hexes"]
            fuel_at[h] = left
            if approach[h] <= mv and left >= approach[h] + 1:
                return True  # a stop
            if under_fire and left >= 1:
                return True  # out of fire at any price but a crash
            if salvo:
                return False
            if base:
                return h in base  # with a forward home: a stop or that home, nothing between
            return self.air_ok(u, h, o["hexes"])
        if not base and not salvo and approach[here] > mv:
            first = self.trip(tid, approach)
            if first is not None:
                self.apply({"type": "move", "unit": tid, "to": geo.hex(first)})
                self.moved.add(tid)
                return
        best = self.best_hex(tid, score, score(here) if waits else None, may_end=may_end, margin=1e-9)
        if (best is not None and not waits
                and self.crew_risk(u, geo.idx(best)) >= (SALVO_RISK if salvo else TRIP_RISK)):
            best = None  # no stop but one with a good chance of loss: home instead
        if best is None and not waits:
            if base:
                self.fly_to(tid, base)
            else:
                self.moved.add(tid)  # a salvo without a forward home: it waits where it is
            return
        if best is not None:
            self.apply({"type": "move", "unit": tid, "to": best})
        self.moved.add(tid)

    def trip(self, tid: int, approach) -> int | None:
        """A crew with no safe stop in reach tonight and no forward home near the strike plans the whole
        trip (issue 16, R18-R20): the fewest nights out, each on a hex where no enemy we know can
        both see and fire on it (`night_risk` under TRIP_RISK, as `stage` takes a stop), the last one
        at a stop (the strike one move on, with the fuel for it). Returns the hex of the first
        night; None when there is no such trip within TRIP_NIGHTS, or when a stop under TRIP_RISK
        is in reach tonight (`stage` chooses it). Stops in reach tonight that are in the enemy's
        fire do not end the planning: before, they did, and a crew that could not get home
        hovered short of them (session 28).

        Without it a crew could end its move only where it could still fly home (R19): from
        Slagelse, Odense is 23 hexes of a Transporthubschrauber's 30 fuel, so the crews flew to and
        fro 9-22 hexes out while Odense and all six hexes round it stood free for twelve rounds
        (Großer Belt seed 85001, session 26). A trip is one way: it keeps the fuel for the strike,
        not for the way back.

        Nights after the first are judged by where the enemies stand now; the plan is made anew
        every turn, so what moves in the meantime is taken into account then. The flying distance
        between the nights is the hex distance (an aircraft crosses any terrain, R17); only the
        first night is asked of the engine (`reachable`)."""
        sit, geo = self.sit, self.geo
        u = sit.own[tid]
        fuel = u.get("fuel")
        here = self.pos[tid]
        if fuel is None or approach[here] >= INF or approach[here] + 1 > fuel:
            return None
        # Every planner variant of a decision asks the same (R7: several move variants): once.
        key = ("trip", tid, here, fuel, tuple(n for n in geo.nb[sit.enemy_hq] if approach[n] == 0))
        if key in sit._memo:
            self.budget.spend(1)
            first = sit._memo[key]
            if first is None or first not in self.occupied:
                return first
        first = sit._memo[key] = self._trip(u, here, fuel, approach)
        return first

    def _trip(self, u: dict, here: int, fuel: int, approach) -> int | None:
        """The search behind `trip`, one layer a night: the hexes the crew may spend that night on,
        each with the best way there (fewest hexes flown, then least `cost`) and that way's first night."""
        sit, geo = self.sit, self.geo
        tid = u["id"]
        mv = UNITS[u["type"]]["move"]

        def fits(h: int, used: int) -> bool:  # the strike can still follow from h with the fuel left
            return used + approach[h] + 1 <= fuel

        risk: dict[int, float] = {}
        sight = sit.enemy_sight()

        def night(h: int) -> float:
            r = risk.get(h)
            if r is None:
                r = risk[h] = self.night_risk(u, h)
            return r

        def cost(h: int) -> float:  # what orders the safe nights: out of the enemy's sight first
            return night(h) + (SEEN_COST if h in sight else 0.0)
        # layer: hex -> (cost so far, hexes flown, first night's hex); one entry per hex, fewest
        # hexes flown first (more fuel left goes further), then the least cost (`cost`).
        layer: dict[int, tuple[float, int, int]] = {}
        for o in self.g.reachable(tid):
            h = geo.idx(o["to"])
            if h == here or not fits(h, o["hexes"]):
                continue
            if approach[h] <= mv and not self.watched(h):
                if night(h) < TRIP_RISK:
                    return None  # a safe stop tonight: `stage` weighs it
                continue  # a stop in the enemy's fire is no night of the trip either
            r = night(h)
            c = cost(h)
            if r < TRIP_RISK and (h not in layer or (o["hexes"], c) < (layer[h][1], layer[h][0])):
                layer[h] = (c, o["hexes"], h)
        self.budget.spend(1)
        best_used = {h: v[1] for h, v in layer.items()}
        enemy = set(sit.enemy_hexes)
        for _ in range(TRIP_NIGHTS - 1):
            nxt: dict[int, tuple[float, int, int]] = {}
            goals = []
            for s_ in sorted(layer):
                r0, used0, first = layer[s_]
                for h in geo.ring(s_, 1, mv):
                    if h in enemy:
                        continue
                    used = used0 + geo.dist(s_, h)
                    if not fits(h, used) or best_used.get(h, INF) <= used:
                        continue
                    r = night(h)
                    if r >= TRIP_RISK:
                        continue
                    cand = (r0 + cost(h), used, first)
                    if approach[h] <= mv and not self.watched(h):
                        goals.append(cand)  # a stop `watched` is a night on the way, not the last
                    old = nxt.get(h)
                    if old is None or (used, cand[0]) < (old[1], old[0]):
                        nxt[h] = cand
            if goals:
                # The least cost, then the fewest hexes flown, then the nearest first night: the
                # further on tonight, the more ways are left tomorrow.
                return min(goals, key=lambda c: (c[0], c[1], approach[c[2]], c[2]))[2]
            if not nxt:
                return None
            for h, v in nxt.items():
                best_used[h] = min(best_used.get(h, INF), v[1])
            layer = nxt
        return None

    def watched(self, h: int) -> bool:
        """Once the armies stand at the unit limit (D9; `Situation.at_limit`), a crew
        at h tonight would be seen by the enemy as far as we know (R20). Such a stop is no stop:
        `stage` and `trip` wait out of sight instead and go on to one the enemy does not see.

        At the unit limit Normal's units close in on a helicopter they see. On Großer Belt the way
        in was open on 1 of 41 mornings after a crew was seen at its stop (sessions 24-25; the one
        crew not seen found it open); 15 of 16 crew nights at a stop were seen, 13 of them by an
        enemy Schwer knew (session 30). Early on, with the armies still on the move, seen stops are
        kept: the Liga's crews took Odense in rounds 5-6 from such stops while Normal's army
        marched out, and with the rule from round 1 they lost those games."""
        return self.sit.at_limit and h in self.sit.enemy_sight()

    def crew_risk(self, u: dict, h: int) -> float:
        """The chance-like weight of losing crew helicopter `u` at h in the enemy's next attack phase
        (0..1): the fire of the enemies it knows of, and the chance of one it has not seen
        (`hidden_aa_risk`; the scout looks first). A third of its hp expected lost counts as a
        sure loss: waiting beside a Pionier (luft 1, 3 hp a shot on a helicopter) for the HQ to
        clear, crews were shot down turn after turn."""
        return min(1.0, 3 * self.sit.expected_hit(u, h) / max(1, u["hp"]) + self.hidden_aa_risk(h))

    def night_risk(self, u: dict, h: int) -> float:
        """`crew_risk` for a night on a trip (`trip`): the known enemies can fire on the crew only
        where they see it (R20), so out of their sight only the hidden ones count."""
        if h in self.sit.enemy_sight():
            return self.crew_risk(u, h)
        return min(1.0, self.hidden_aa_risk(h))

    def crew_homes(self, tid: int | None = None) -> list[int]:
        """Where a crew helicopter is refuelled (R19, R31): own Flugplatz, Depot (not the HQ, which
        builds the crews) and the hexes beside an own Versorger, none taken by another unit (except
        by helicopter `tid` itself)."""
        sit = self.sit
        mine = self.pos.get(tid) if tid is not None else None
        return sorted({h for h in sit.air_homes() if h != sit.own_hq and (h == mine or h not in self.occupied)}
                      | set(self.refuel_points(mine)))

    def forward_home(self, u: dict, homes: list[int], approach) -> list[int]:
        """Of `homes`, the ones nearest the strike (flying distance to a free hex by the enemy HQ) that
        helicopter `u` reaches with its fuel: where a crew waits refuelled, one move from its stops
        when there is a home that close. All of `homes` when it reaches none (`fly_to` then finds
        the way, R19)."""
        here = self.pos[u["id"]]
        fuel = INF if u.get("fuel") is None else u["fuel"]
        near = [h for h in homes if self.sit.field_from("luft", [h])[here] <= fuel]
        if not near:
            return homes
        best = min(approach[h] for h in near)
        return [h for h in near if approach[h] <= best]

    # -- transport --------------------------------------------------------------------------------
    def taxi(self) -> None:
        """Schwer: a Schützenpanzer carries a Jäger to a far building (R40, R41, R45). Cargo that
        boarded this turn counts as moved (R40), so it is two turns: board and drive, then drive on
        and put the Jäger down on the building (in Blitz it captures at once, R68)."""
        sit, geo = self.sit, self.geo
        free = {i for i in sit.targets if i not in self.occupied}
        if not free:
            return
        spz = [uid for uid in sorted(self.pos) if uid not in self.moved
               and UNITS[sit.own[uid]["type"]]["transport"] and UNITS[sit.own[uid]["type"]]["range"]]
        if sit.turns_left >= INF:
            # Issue 16 (Großer Belt, Schwer as Liga: sixteen Schützenpanzer with a Pionier aboard stood
            # on Stigsnæs for thirty rounds, all bound for Agersø, a harbour on an island no vehicle
            # reaches): only buildings a Schützenpanzer can drive to count, and a crew bound for none
            # gets out and goes on foot (R41).
            free = {i for i in free if any(sit.building_field("kette", i)[self.pos[c]] < INF for c in spz)}
            for cid in spz:
                if any(sit.building_field("kette", i)[self.pos[cid]] < INF for i in free):
                    continue
                self.dismount(cid)
            if not free:
                return
        # 1. Loaded ones: drive next to a free building and unload onto it, else drive toward one.
        for cid in spz:
            cargo = [c for c in sit.cargo_of.get(cid, []) if c["type"] in CAPTURERS and not c.get("moved")]
            if not cargo or not free:
                continue
            j = cargo[0]
            best = None
            for o in self.g.reachable(cid):
                h = geo.idx(o["to"])
                near = [n for n in geo.nb[h] if n in free]
                if not near:
                    continue
                t2 = self.g.clone()
                t2.apply({"type": "move", "unit": cid, "to": o["to"]})
                self.budget.spend(2)
                drop = {geo.idx(x) for opt in t2.unload_options(cid) if opt["unit"] == j["id"] for x in opt["to"]}
                for n in near:
                    if n in drop:
                        b = sit.bld[n]
                        key = (0 if b["type"] == "hq" else 1, sit.expected_hit(sit.own[cid], h), n, h)
                        if best is None or key < best[0]:
                            best = (key, o["to"], n)
                if self.budget.done:
                    break
            if best is not None:
                _, to, n = best
                self.apply({"type": "move", "unit": cid, "to": to})
                self.apply({"type": "unload", "transport": cid, "unit": j["id"], "to": geo.hex(n)})
                free.discard(n)
                self.claimed.add(n)
            else:
                self.drive_toward(cid, free)
        # 2. A Jäger two or more turns from any building boards an empty one, which sets off.
        for jid in sorted(self.pos):
            if self.budget.done or not free:
                return
            if jid in self.moved or jid not in sit.own or sit.own[jid]["type"] not in CAPTURERS:
                continue
            j = sit.own[jid]
            here = self.pos[jid]
            if min(sit.building_field("fuss", i)[here] for i in free) <= UNITS[j["type"]]["move"] + 1:
                continue
            empty = {uid for uid in spz if uid not in self.moved and not sit.cargo_of.get(uid)}
            cid = self.board_nearest(jid, empty)
            if cid is None:
                continue
            self.drive_toward(cid, free)

    def dismount(self, cid: int) -> None:
        """Put the capturers aboard transport `cid` down where they stand nearest a building to take."""
        sit, geo = self.sit, self.geo
        f = sit.field_from("fuss", sit.targets)
        for c in sit.cargo_of.get(cid, []):
            if c["type"] not in CAPTURERS or c.get("moved"):
                continue
            opts = [o for o in self.g.unload_options(cid) if o["unit"] == c["id"]]
            self.budget.spend(1)
            hexes = sorted((tuple(x) for o in opts for x in o["to"]), key=lambda x: (f[geo.idx(list(x))], x))
            if hexes:
                self.apply({"type": "unload", "transport": cid, "unit": c["id"], "to": list(hexes[0])})

    def board_nearest(self, uid: int, transports) -> int | None:
        """Load `uid` into the nearest of `transports` it can board this phase (one engine question,
        ties by id); the transport's id, or None when it can board none of them."""
        opts = [o for o in self.g.load_options(uid) if o["transport"] in transports]
        self.budget.spend(1)
        if not opts:
            return None
        cid = min(opts, key=lambda o: (len(o["path"]), o["transport"]))["transport"]
        self.apply({"type": "load", "unit": uid, "transport": cid})
        return cid

    def drive_toward(self, cid: int, free: set[int]) -> None:
        sit, geo = self.sit, self.geo
        u = sit.own[cid]
        mc = UNITS[u["type"]]["movement"]
        f = sit.field_from(mc, sorted({n for i in free for n in geo.nb[i]}))
        here = self.pos[cid]
        best_s, best = -f[here] - sit.expected_hit(u, here) * 0.5, None
        for o in self.g.reachable(cid):
            h = geo.idx(o["to"])
            s = -f[h] - sit.expected_hit(u, h) * 0.5
            if s > best_s:
                best_s, best = s, o["to"]
        self.budget.spend(1)
        if best is not None:
            self.apply({"type": "move", "unit": cid, "to": best})
        else:
            self.moved.add(cid)

    def stranded(self, u: dict) -> bool:
        """A land unit whose objectives cannot be reached over land needs a transport."""
        ut = UNITS[u["type"]]
        if ut["movement"] in ("luft", "see") or not self.sit.targets:
            return False
        here = self.pos.get(u["id"])
        if here is None:
            return False
        f = self.sit.front_field(ut["movement"])
        return f[here] >= INF

    def load_stranded(self) -> None:
        for uid in sorted(self.pos):
            if uid in self.moved:
                continue
            u = self.sit.own[uid]
            if not self.stranded(u):
                continue
            opts = self.g.load_options(uid)
            self.budget.spend(1)
            if opts:
                o = min(opts, key=lambda o: (len(o["path"]), o["transport"]))
                self.apply({"type": "load", "unit": uid, "transport": o["transport"]})

    def move_transports(self) -> None:
        sit = self.sit
        for tid in sorted(self.pos):
            t = sit.own.get(tid)
            if t is None or tid in self.moved:
                continue
            ut = UNITS[t["type"]]
            if not ut["transport"] or ut["range"]:
                continue  # fighting transports (Schützenpanzer) move as fighters
            cargo = self.cargo_now(tid)
            if cargo:
                self.carry(t, cargo)
            else:
                self.fetch(t)

    def cargo_now(self, tid: int) -> list[dict]:
        out = [dict(c) for c in self.sit.cargo_of.get(tid, [])]
        for a in self.actions:
            if a["type"] == "load" and a["transport"] == tid:
                out.append(dict(self.sit.own[a["unit"]]))
        return out

    def drop_field(self, t: dict, cargo: list[dict]):
        """Distance for the transport to hexes where its cargo could get off toward an objective."""
        sit = self.sit
        ut = UNITS[t["type"]]
        cmc = UNITS[cargo[0]["type"]]["movement"]
        cf = sit.front_field(cmc)
        spots = []
        for h in range(sit.geo.size):
            ter = sit.terrain[h]
            if TERRAIN[ter]["cost"][ut["movement"]] is None:
                continue
            if t["type"] == "landungsboot" and ter not in ("kueste", "hafen"):
                continue
            if t["type"] == "faehre" and ter != "hafen":
                continue
            if ut["movement"] != "see" and TERRAIN[ter]["cost"][cmc] is None:
                continue
            if any(cf[n] < INF and TERRAIN[sit.terrain[n]]["cost"][cmc] is not None for n in sit.geo.nb[h]):
                spots.append(h)
        return sit.field_from(ut["movement"], spots), cf

    def carry(self, t: dict, cargo: list[dict]) -> None:
        tid = t["id"]
        field, cf = self.drop_field(t, cargo)
        here = self.pos[tid]
        best = self.best_hex(tid, lambda h: -field[h] - 0.01 * min(cf[n] for n in self.geo.nb[h]), -field[here],
                             may_end=lambda o, h: self.air_ok(t, h, o["hexes"]))
        if best is not None:
            self.apply({"type": "move", "unit": tid, "to": best})
        done: set[int] = set()
        while True:  # one at a time: each unloaded unit takes a hex the next one cannot have
            opts = [o for o in self.g.unload_options(tid) if o["unit"] not in done]
            if not opts:
                break
            opt = opts[0]
            done.add(opt["unit"])
            hexes = sorted(opt["to"], key=lambda x: (cf[self.geo.idx(x)], x))
            if hexes and cf[self.geo.idx(hexes[0])] < INF:
                self.apply({"type": "unload", "transport": tid, "unit": opt["unit"], "to": hexes[0]})

    def fetch(self, t: dict) -> None:
        sit = self.sit
        stranded = sorted(self.pos[x] for x, o in sit.own.items()
                          if x in self.pos and x not in self.moved and x != t["id"] and self.stranded(o)
                          and o["type"] in CAPTURERS + ("panzerjaeger", "spaehwagen", "kampfpanzer"))
        if not stranded:
            return
        ut = UNITS[t["type"]]
        f = sit.field_from(ut["movement"], sorted({n for s in stranded for n in self.geo.nb[s]}))
        here = self.pos[t["id"]]
        best_s, best = -f[here], None
        for o in self.g.reachable(t["id"]):
            h = self.geo.idx(o["to"])
            if not self.air_ok(t, h, o["hexes"]):
                continue
            if t["type"] == "landungsboot" and sit.terrain[h] not in ("kueste", "hafen"):
                s = -f[h] - 0.5
            else:
                s = -f[h]
            if s > best_s:
                best_s, best = s, o["to"]
        self.budget.spend(1)
        if best is not None:
            self.apply({"type": "move", "unit": t["id"], "to": best})

    # -- production -------------------------------------------------------------------------------
    def pioneers(self) -> int:
        """Own Pioniere on the map and aboard helicopters (the finishing crews; one riding in a
        Schützenpanzer is on a ground errand, `taxi`)."""
        return sum(1 for u in self.sit.own.values() if u["type"] == "pionier") + sum(
            1 for t, cs in self.sit.cargo_of.items() for c in cs
            if c["type"] == "pionier" and self.sit.own[t]["type"] == "transporthubschrauber"
            and self.holds_crew_place(t))

    def wants_pioneers(self) -> bool:
        """The finishing crews lack Pioniere (fewer than CREWS): the HQ builds them first (`build`,
        `choose_build`), and empty crew helicopters wait beside it for them (`airlift`)."""
        return self.crews and self.pioneers() < CREWS

    def committed(self, uid: int) -> bool:
        """At the unit limit (D9), a loaded crew helicopter that can no longer reach an air home with
        its fuel (R19): it strikes from where it is, or not at all. It no longer holds one of the
        CREWS places (`airlift`, `pioneers`, `serviceable`). On Großer Belt (session 35, seeds 120000,
        120004, 120010 and 120018, Schwer as Nordbund, all capped) crews hovered at sea or off
        Zealand's south coast with 1-13 fuel for 12-51 rounds; counted as the three crews, they kept
        the spare helicopters shuttling between homes and the Pioniere on foot unfetched, while
        $40,000-60,000 lay unspent. With this rule 114 of 160 fresh games ended, against 100
        (docs/ai.md, session 35)."""
        u = self.sit.own[uid]
        return (self.sit.at_limit and u.get("fuel") is not None
                and not self.air_ok(u, self.pos.get(uid, u["i"]), 0))

    def spent(self, uid: int) -> bool:
        """A `committed` crew that cannot even reach the enemy HQ with its fuel: it can never act
        again, and it holds two of the sixty places (D9; its Pionier is cargo) for good."""
        u = self.sit.own[uid]
        return self.sit.at_limit and self.out_of_reach(u, self.pos.get(uid, u["i"]))

    def holds_crew_place(self, uid: int) -> bool:
        """A loaded crew helicopter that still counts as one of the CREWS when Pioniere and
        helicopters are built (`pioneers`, `serviceable`): neither `stuck_crew` nor `committed`."""
        return not self.stuck_crew(uid) and not self.committed(uid)

    def out_of_reach(self, u: dict, at: int) -> bool:
        """Aircraft `u` at hex `at` reaches neither an air home (or a Versorger's hex) nor the enemy
        HQ with its fuel (R19): `stuck_crew`, `spent`."""
        hq = self.sit.enemy_hq
        return (hq is not None and u.get("fuel") is not None and not self.air_ok(u, at, 0)
                and self.geo.dist(at, hq) > u["fuel"])

    def fly_out(self, tid: int) -> None:
        """A `spent` crew flies its last fuel toward the enemy HQ, one way (R19): what it meets on the
        way is seen (R20, R21) and is there for the other crews to plan on; and once it comes down
        (or is shot down) its two places go to a fresh crew, which the HQ and the Flugplatz build
        with the money that piles up at the unit limit."""
        f = self.sit.field_from("luft", sorted(self.geo.nb[self.sit.enemy_hq]))
        # Out by the nearest way even if no hex is nearer: in a first try that kept it waiting for a
        # nearer hex, a crew with 1 fuel over its own lines, every hex toward the HQ taken by its own
        # units, hovered there for thirty rounds (seed 120018).
        best = self.best_hex(tid, lambda h: -f[h], None, may_end=lambda o, h: True)
        if best is not None:
            self.apply({"type": "move", "unit": tid, "to": best})
        self.moved.add(tid)

    def stuck_crew(self, uid: int) -> bool:
        """A loaded helicopter that can neither reach an air home nor the enemy HQ with its fuel
        (R19): it hovers where it is for good. So is one walled in by enemy units, which it cannot
        fly through (R19): on Großer Belt the Liga's tanks drove round a crew waiting over land, and
        it counted as a crew for 28 rounds while it could move nowhere (seed 53000, session 11)."""
        u, sit = self.sit.own[uid], self.sit
        if sit.enemy_hq is not None and self.st.finisher and sit.turns_left >= INF \
                and self.approach_field()[self.pos.get(uid, u["i"])] >= INF:
            return True
        return self.out_of_reach(u, u["i"])

    def serviceable(self, utype: str) -> int:
        """Own aircraft of this type that can still do their finishing job: loaded, or with the fuel to
        reach an air home (R19). One stranded over the sea with 3 fuel only hovers there (Großer Belt
        seed 46000: two Transporthubschrauber and the scout Drohne so stranded took the crews' and
        the scout's places for thirty rounds, and no new one was built)."""
        return sum(1 for uid, u in self.sit.own.items()
                   if u["type"] == utype and ((self.sit.cargo_of.get(uid) and self.holds_crew_place(uid))
                                              or self.air_ok(u, u["i"], 0)))

    def scouts(self) -> int:
        """Scout Drohnen at work: able to get home (R19), or on watch at a picket spot (`pickets`),
        where one hovers for good without fuel to spare. With pickets there are two: one keeps
        watch while the other flies one way to look round the HQ."""
        spots = set(self.pickets()) if self.crews else set()
        return sum(1 for uid, u in self.sit.own.items()
                   if u["type"] == "drohne" and (self.pos.get(uid, u["i"]) in spots or self.air_ok(u, u["i"], 0)))

    def build(self) -> None:
        sit = self.sit
        # Finishing (issue 16): the HQ builds the Pioniere first, before the other sites use up the
        # money or the last places under the unit limit (D9); on Großer Belt the Flugplatz bought
        # helicopter after helicopter while no Pionier was ever built.
        want_pioneers = self.wants_pioneers()
        sites = sorted((i for i, b in sit.bld.items() if b["owner"] == sit.me
                        and BUILDINGS[b["type"]]["produces"] and i not in self.occupied),
                       key=lambda i: (0 if i == sit.own_hq and (self.threats.get(i) or want_pioneers) else 1,
                                      0 if sit.bld[i]["type"] != "hq" else 1, i))
        for i in sites:
            opts = [o for o in self.g.build_options(sit.geo.hex(i)) if o["affordable"]]
            if not opts:
                continue
            choice = choose_build(self, i, opts)
            if choice is not None:
                self.apply({"type": "build", "at": sit.geo.hex(i), "unit_type": choice})


def _island_map(sit) -> bool:
    if sit.own_hq is None or not sit.targets:
        return False
    f = sit.building_field("fuss", sit.own_hq)
    return any(f[i] >= INF for i in sit.targets)


def choose_build(p: MovePlanner, at: int, opts: list[dict]) -> str | None:
    sit, st = p.sit, p.st
    types = [o["unit_type"] for o in opts]
    own_types = [u["type"] for u in sit.own.values()]
    # Maps without a round limit are decided at the unit limit (D9): Schwer rations places there (below).
    rationed = st.buy == "seen" and sit.turns_left >= INF
    if rationed:
        # Cargo counts too (D9; issue 16: Pioniere riding in Schützenpanzer were not counted, so the HQ
        # built one after another, sixteen in all, on Großer Belt).
        own_types += [c["type"] for cs in sit.cargo_of.values() for c in cs]
    if st.buy == "simple":
        pick = [t for t in types if t in SIMPLE_UNITS]
        if not pick:
            return None
        return p.rng.choice(sorted(pick))
    # Normal: what the enemy fields now; Schwer: every enemy unit it has seen recently.
    seen = p.seen_types if st.buy == "seen" and p.seen_types else {
        str(e["id"]): e["type"] for e in sit.enemies.values()}
    enemy = list(seen.values())
    capturers = sum(1 for t in own_types if t in CAPTURERS)
    artillery = sum(1 for t in own_types if UNITS[t]["range"] and UNITS[t]["range"][0] > 1)
    hq_threat = p.threats.get(at) if at == sit.own_hq else None
    island = _island_map(sit)
    money = p.money
    # Finishing (issue 16): the HQ builds the Pioniere that take the enemy HQ at once (R35).
    if at == sit.own_hq and "pionier" in types and p.wants_pioneers():
        return "pionier"
    # A map without a round limit is decided at the unit limit (60, D9): a place taken by a unit nothing
    # calls for is lost for good (Großer Belt seed 9100, round 30: 37 of Schwer's 57 units were
    # aircraft, ships and Flugabwehr, ships stranded without fuel, while no place was left for guns or
    # Pioniere). Schwer rations there (issue 16): two transport helicopters for the finishing crews.
    if rationed and p.crews:
        if "transporthubschrauber" in types and p.serviceable("transporthubschrauber") < CREWS:
            return "transporthubschrauber"
        if "drohne" in types and sit.obs.get("fog") and p.scouts() < (2 if p.pickets() else 1):
            return "drohne"  # the scout that looks round the enemy HQ before the crews go in
    if st.buy == "seen" and sit.turns_left <= 1:
        # Issue 16, D8: our last turn. A unit built now never fights a whole turn, but at the round
        # limit a tie in buildings goes to the higher unit value (cost x hp / 10): money left over
        # counts for nothing, so buy the dearest unit (Schwer lost 7-7 games on unit value).
        return max(types, key=lambda t: (UNITS[t]["cost"], t))
    # Schwer (issue 16): ships and aircraft only as many as the enemy seen calls for -- on Kieler
    # Bucht the harbours once filled the army with Patrouillenboote while the land fight was lost.
    if st.buy == "seen":
        def fleet(ts, mclass):
            return sum(1 for t in ts if UNITS[t]["movement"] == mclass and not UNITS[t]["transport"])
        caps = {"see": fleet(enemy, "see") + 1, "luft": fleet(enemy, "luft") + 2}
        have = {m: fleet(own_types, m) for m in caps}
        if rationed:
            # No air race without a round limit: every Kampfjet we field made Normal buy Flugabwehr
            # (23 round the Liga HQ on Großer Belt), which then shot the finishing helicopters down.
            caps["luft"] = min(caps["luft"], max(2, fleet(enemy, "luft") // 2))
    income = sit.income(sit.me)
    # The crews' places under the unit limit (D9): the rest of the army may not take them. Once the army
    # filled all sixty, a lost crew was never built again (Großer Belt seed 99000: from round 30 on, 60
    # units, one empty helicopter, $55,000 unspent; the game ran to the cap).
    army_full = False
    if rationed and p.crews:
        scouts = 2 if p.pickets() else 1
        crew_pioneers = p.pioneers() + p.built.count("pionier")
        crew_units = (min(CREWS, p.serviceable("transporthubschrauber") + p.built.count("transporthubschrauber"))
                      + min(CREWS, crew_pioneers)
                      + min(scouts, p.scouts() + p.built.count("drohne")))
        army = len(own_types) + len(p.built) - crew_units
        army_full = army >= RULES["max_units"] - (2 * CREWS + scouts)
    best = None
    for t in types:
        ut = UNITS[t]
        cost = ut["cost"]
        if st.buy == "situation" and cost > money:
            continue
        if st.buy == "seen" and not ut["transport"] and ut["movement"] in caps \
                and have[ut["movement"]] >= caps[ut["movement"]]:
            continue
        if army_full and not (t == "pionier" and crew_pioneers < CREWS):
            continue  # the places left are the crews'
        if rationed and t == "flugabwehr" and own_types.count(t) > fleet(enemy, "luft") // 3:
            continue  # one Flugabwehr for every three enemy aircraft seen, no more
        score = 0.0
        # How well it hits what the enemy has, and how badly the enemy hits it.
        for et in enemy:
            eu = UNITS[et]
            a = ut["attack"].get(eu["armour"]) or 0
            b = eu["attack"].get(ut["armour"]) or 0
            score += (a * eu["cost"] / 700) - 0.6 * b * cost / 700
        if not enemy:
            score += sum(v or 0 for v in ut["attack"].values()) / 4
        score = score / max(1, len(enemy)) * 3 + ut["defence"] * 0.3
        if ut["range"] and ut["range"][0] > 1:
            score += 1.0
            # Without a round limit (issue 16) twice the core: the guns break a held bridgehead.
            if artillery < st.artillery * (2 if rationed else 1):
                # A core of indirect fire (Normal two units, Schwer three; the R71 army brings one):
                # it shoots from two hexes or more, so no answer comes back (R23, R29), and under
                # fog the enemy rarely sees it to shoot first. Self-play: three took Schwer from
                # about 55 % to about 90 % against a Normal without a core (docs/ai.md).
                score += 4.0
        if t in CAPTURERS:
            want = min(5, 2 + len(sit.targets) // 2)
            score += 4.0 if capturers < want else -1.0
            if t == "pionier" and p.wants_pioneers():
                score += 6.0  # a Pionier takes the HQ at once; a Jäger needs a turn on it
            if hq_threat:
                score += 10.0
        if ut["movement"] == "luft" and ut["fuel"] is not None:
            score -= 1.0  # aircraft need care: only when nothing else fits
        if ut["transport"] and not ut["range"]:
            has = sum(1 for x in own_types if UNITS[x]["transport"] and not UNITS[x]["range"])
            score += 4.0 if (island and has == 0) else -4.0
        if t in ("versorger",):
            score += 1.0 if (not sit.blitz and len(own_types) >= 8 and "versorger" not in own_types) else -5.0
        if ut["movement"] == "see" and not ut["transport"]:
            score -= 2.0
        # Value for money, and keep enough for a capturer when income is low.
        score = score * (cost ** 0.5) / 20
        if money - cost < 100 and income < 300 and capturers < 2 and t not in CAPTURERS:
            score -= 2.0
        key = (score, -cost, t)
        if best is None or key > best[0]:
            best = (key, t)
    if best is None:
        return None
    if rationed and best[0][0] < 0:
        return None  # nothing here is worth a place under the unit limit: keep the money and the place
    return best[1]
