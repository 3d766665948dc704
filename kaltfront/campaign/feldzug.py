"""The campaign "Feldzug" (FELDZUG.md C1–C12): state, the strategic step, battles, evaluation, end, fog.

A `Campaign` runs in rounds of three steps (C4–C6): both sides hand in a secret plan (`plan` orders);
when both are in, the plans are revealed and carried out together; every declared attack becomes one
battle (two attacks between the same two regions are one), fought one after the other as real
kaltfront `Game`s. Before each battle both sides spend their Taktikpunkte (`options` orders, C7, C8);
the battle is played on `campaign.battle_game` through the battle engine's own API, or auto-resolved
(C10); `evaluate` then applies C6. A beaten defender may have to choose where its KP retreat
(`retreat` order). Orders are dicts (docs/campaign.md); an illegal one raises `IllegalOrder` with a
German message and changes nothing, like the battle engine's `IllegalAction`.

Choices this module makes where C1–C12 leave room (all on the help page too):
- every owned region other than a base keeps at least 1 KP; a region brought to 0 KP becomes free,
  a base stays its side's even at 0 KP;
- the KP of the occupation count towards the 10 KP a side may move (C4);
- an attack names how many KP follow into the region if it is won (`follow`, at least 1, at most all
  but one of the attacking region's KP at the time);
- the KP a beaten defender loses (C6 "loser loses 1 KP") is the one struck when it leaves the region;
  a lost base defence costs 3 KP in all instead;
- in a battle of two attacks on each other, the winner counts as the attacker who won;
- the round's battles are fought in turn: in odd rounds the Nordbund's attack first, in even rounds the
  Liga's; an attack whose region was lost or emptied before its turn lapses;
- Reserven cannot be bought by a side that already has 30 KP (C3).
"""

from __future__ import annotations

import math
import random

from ..actions import IllegalAction
from ..game import Game, new_game
from ..limits import show
from ..mapfile import load_scenario
from ..rulesdata import RULES, SIDE_NAMES, SIDES, other_side
from .mapdata import CampaignMap, load_campaign_map

STRENGTHS = ("leicht", "normal", "schwer")
PHASES = ("plan", "options", "battle", "retreat", "over")
MAX_MOVE_KP = 10            # C4
KP_CAP = 30                 # C3
RESERVEN_TP = 65            # C8
KRIEGSKASSE_PER_TP = 5      # C8
NEGATIVE_TP_GUTHABEN = 5    # C8
TP_RESULT = {"won": 30, "lost": -30, "draw": -10, None: 0}   # C7
TP_PER_KP = 5               # C7
BASE_LOSS_KP = 3            # C6
CAMPAIGN_ROUND_LIMIT = 20   # C6: a battle on a map without a round limit gets one
ONLY_BASE_KP = 5            # C9
AUTO_MAX_ACTIONS = 20_000   # an auto-resolved battle that needs more has stalled: a draw


class IllegalOrder(IllegalAction):
    """An order the campaign rules do not allow; str(e) is German. The campaign is unchanged."""


def start_money(map_id: str, side: str) -> int:
    return load_scenario(map_id).money[side]


def base_tp(money: int) -> int:
    """C7: 10 TP per started 100 of starting money (600 → 60, 750 → 80)."""
    return 10 * math.ceil(money / 100)


def taktikpunkte(money: int, last_result: str | None, own_kp: int, enemy_kp: int) -> int:
    """C7: TP of one side for one battle."""
    return base_tp(money) + TP_RESULT[last_result] + TP_PER_KP * max(0, own_kp - enemy_kp)


def verstaerkung_tp(unit_type: str) -> int:
    """C8: an extra unit costs its price / 5 in TP (prices are multiples of 50)."""
    return math.ceil(RULES.units[unit_type].cost / KRIEGSKASSE_PER_TP)


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Campaign:
    """One Feldzug. Create with `new_campaign`; see the module docstring and docs/campaign.md."""

    def __init__(self, cmap: CampaignMap, *, seed: int = 0, fog: bool = True,
                 strength: str = "normal") -> None:
        self.map = cmap
        self.seed, self.fog, self.strength = seed, fog, strength
        self.round = 1
        self.phase = "plan"
        self.owner: dict[str, str | None] = {r: None for r in cmap.regions}
        self.kp: dict[str, int] = {r: 0 for r in cmap.regions}
        for side, base in cmap.bases.items():  # C2: every KP on the base at the start
            self.owner[base], self.kp[base] = side, cmap.start_kp
        self.plans: dict[str, dict | None] = {s: None for s in SIDES}
        self.revealed: dict[str, dict] | None = None
        self.last_result: dict[str, str | None] = {s: None for s in SIDES}
        self.queue: list[dict] = []
        self.battle: dict | None = None
        self.battle_game: Game | None = None
        self.retreat: dict | None = None
        self.battle_no = 0
        self.log: list[dict] = []
        self.outcome: dict | None = None

    # -- look-ups ----------------------------------------------------------------------------------
    def regions_of(self, side: str) -> list[str]:
        return [r for r in self.map.regions if self.owner[r] == side]

    def total_kp(self, side: str) -> int:
        """KP on the side's regions (a retreat being chosen holds some off the map: see account)."""
        return sum(self.kp[r] for r in self.regions_of(side))

    def account(self, side: str) -> int:
        """The side's KP account (C3): on its regions plus those of a retreat still to be placed."""
        pending = self.retreat["kp"] if self.retreat is not None and self.retreat["side"] == side else 0
        return self.total_kp(side) + pending

    def name(self, region: str) -> str:
        return self.map.regions[region].name

    def neighbours(self, region: str) -> tuple[str, ...]:
        return self.map.regions[region].neighbours

    def is_base(self, region: str) -> bool:
        return self.map.base_of(region) is not None

    def movable(self, region: str) -> int:
        """KP a region may give away this step: all but the one that holds it (module docstring)."""
        return max(0, self.kp[region] - 1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Campaign):
            return NotImplemented
        from .save import campaign_to_dict
        return campaign_to_dict(self) == campaign_to_dict(other)

    __hash__ = None  # type: ignore[assignment]

    def clone(self) -> Campaign:
        from .save import campaign_from_dict, campaign_to_dict
        return campaign_from_dict(campaign_to_dict(self))

    def to_json(self) -> str:
        from .save import dumps
        return dumps(self)

    @classmethod
    def from_json(cls, text: str | bytes | dict) -> Campaign:
        from .save import loads
        return loads(text)

    # -- events and log ----------------------------------------------------------------------------
    def _event(self, events: list[dict], etype: str, text: str, only: str | None = None, **data) -> None:
        ev = {"type": etype, "round": self.round, "text": text, **data}
        if only is not None:
            ev["only"] = only
        events.append(ev)
        self.log.append(ev)

    def events_for(self, events: list[dict], side: str) -> list[dict]:
        """The events a side may see (C11): private ones (`only`) only for their side under fog."""
        return [e for e in events if not self.fog or e.get("only") in (None, side)]

    # -- what a side may order -------------------------------------------------------------------------
    def legal_orders(self, side: str) -> dict:
        """The shape of every legal order of `side` now (docs/campaign.md); plans are combinations,
        so they are described by their parts rather than listed one by one."""
        if side not in SIDES:
            raise IllegalOrder(f"Unbekannte Seite: {show(side)}.")
        out: dict = {"phase": self.phase, "side": side, "orders": []}
        if self.phase == "plan" and self.plans[side] is None:
            own = self.regions_of(side)
            occupy = []
            for r in self.map.regions:
                if self.owner[r] is None:
                    src = [o for o in self.neighbours(r) if self.owner[o] == side and self.movable(o) > 0]
                    if src:
                        occupy.append({"region": r, "from": src})
            moves = [{"from": r, "max": self.movable(r),
                      "to": [n for n in self.neighbours(r) if self.owner[n] == side]}
                     for r in own if self.movable(r) > 0]
            attacks = [{"from": r, "to": n, "max_follow": self.movable(r)}
                       for r in own if self.kp[r] >= 1
                       for n in self.neighbours(r) if self.owner[n] == other_side(side)]
            out.update({"orders": ["plan"], "occupy": occupy, "moves": moves, "attack": attacks,
                        "max_move_kp": MAX_MOVE_KP})
        elif self.phase == "options" and self.battle["options"][side] is None:
            tp = self.battle["tp"][side]
            out.update({"orders": ["options"], "tp": tp, "kriegskasse_per_tp": KRIEGSKASSE_PER_TP,
                        "verstaerkung": self.reinforcement_choices(side) if tp > 0 else [],
                        "reserven": tp >= RESERVEN_TP and self.total_kp(side) < KP_CAP,
                        "reserven_tp": RESERVEN_TP})
        elif self.phase == "battle":
            g = self.battle_game
            out["orders"] = ["evaluate"] if g is not None and g.outcome is not None else ["auto_resolve"]
        elif self.phase == "retreat" and self.retreat["side"] == side:
            out.update({"orders": ["retreat"], "from": self.retreat["from"], "kp": self.retreat["kp"],
                        "to": list(self.retreat["to"])})
        return out

    def reinforcement_choices(self, side: str) -> list[dict]:
        """C8 Verstärkung: unit types the battle map allows with a free place for them."""
        g = new_game(self.battle["map"], seed=0, fog=False)
        types = RULES.blitz_buildable if g.blitz else tuple(RULES.units)
        return [{"unit_type": t, "name": RULES.units[t].name, "tp": verstaerkung_tp(t),
                 "places": len(g.reinforcement_sites(side, t))}
                for t in types if g.reinforcement_sites(side, t)]

    # -- applying orders ---------------------------------------------------------------------------------
    def apply(self, order: dict) -> list[dict]:
        """Carry out one order; returns the events (each with a German `text`). Illegal: raises
        IllegalOrder and leaves the campaign exactly as it was."""
        if not isinstance(order, dict) or not isinstance(order.get("type"), str):
            raise IllegalOrder("Ein Befehl braucht einen Typ ('type').")
        if self.outcome is not None:
            raise IllegalOrder("Der Feldzug ist beendet.")
        handler = {"plan": self._plan, "options": self._options, "evaluate": self._evaluate,
                   "auto_resolve": self._auto_resolve, "retreat": self._retreat}.get(order["type"])
        if handler is None:
            raise IllegalOrder(f"Unbekannter Befehl: {show(order['type'])}.")
        events: list[dict] = []
        handler(order, events)
        return events

    def _side(self, order: dict) -> str:
        side = order.get("side")
        if side not in SIDES:
            raise IllegalOrder("Der Befehl braucht eine Seite: nordbund oder liga.")
        return side

    def _region(self, v: object, what: str) -> str:
        if not isinstance(v, str) or v not in self.map.regions:
            raise IllegalOrder(f"{what}: unbekannte Region {show(v)}.")
        return v

    def _kp_count(self, v: object, what: str) -> int:
        if not _int(v) or v < 1 or v > KP_CAP:
            raise IllegalOrder(f"{what}: die KP-Zahl muss eine ganze Zahl von 1 bis {KP_CAP} sein.")
        return v

    # C4 --------------------------------------------------------------------------------------------------
    def check_plan(self, side: str, order: dict) -> dict:
        """Validate a plan of `side`; returns it normalised. Raises IllegalOrder (German)."""
        enemy = other_side(side)
        known = {"type", "side", "occupy", "moves", "attack"}
        if set(order) - known:
            raise IllegalOrder(f"Unbekannte Angaben im Plan: {', '.join(sorted(set(order) - known))}.")
        out_of: dict[str, int] = {}
        occupy = order.get("occupy")
        norm: dict = {"occupy": None, "moves": [], "attack": None}
        if occupy is not None:
            if not isinstance(occupy, dict):
                raise IllegalOrder("Besetzen: Angabe muss region, from und kp haben.")
            r = self._region(occupy.get("region"), "Besetzen")
            src = self._region(occupy.get("from"), "Besetzen")
            n = self._kp_count(occupy.get("kp"), "Besetzen")
            if self.owner[r] is not None:
                raise IllegalOrder(f"{self.name(r)} ist nicht frei.")
            if self.owner[src] != side:
                raise IllegalOrder(f"{self.name(src)} gehört dir nicht.")
            if not self.map.adjacent(src, r):
                raise IllegalOrder(f"{self.name(r)} grenzt nicht an {self.name(src)}.")
            out_of[src] = out_of.get(src, 0) + n
            norm["occupy"] = {"region": r, "from": src, "kp": n}
        moves = order.get("moves") or []
        if not isinstance(moves, list) or len(moves) > 60:
            raise IllegalOrder("Verlegen: 'moves' muss eine Liste sein.")
        for m in moves:
            if not isinstance(m, dict):
                raise IllegalOrder("Verlegen: jede Verlegung braucht from, to und kp.")
            a = self._region(m.get("from"), "Verlegen")
            b = self._region(m.get("to"), "Verlegen")
            n = self._kp_count(m.get("kp"), "Verlegen")
            if self.owner[a] != side:
                raise IllegalOrder(f"{self.name(a)} gehört dir nicht.")
            target_ok = self.owner[b] == side or (norm["occupy"] is not None and norm["occupy"]["region"] == b)
            if not target_ok:
                raise IllegalOrder(f"KP gehen nur in eigene oder eben besetzte Regionen, nicht nach {self.name(b)}.")
            if a == b or not self.map.adjacent(a, b):
                raise IllegalOrder(f"{self.name(b)} grenzt nicht an {self.name(a)}: jeder KP geht nur einen Schritt.")
            out_of[a] = out_of.get(a, 0) + n
            norm["moves"].append({"from": a, "to": b, "kp": n})
        total = sum(out_of.values())
        if total > MAX_MOVE_KP:
            raise IllegalOrder(f"Höchstens {MAX_MOVE_KP} KP dürfen in einem Zug verlegt werden (Besetzen "
                               f"zählt mit), geplant sind {total}.")
        for r, n in out_of.items():
            if n > self.movable(r):
                raise IllegalOrder(f"{self.name(r)} hat {self.kp[r]} KP; mindestens 1 KP bleibt dort, "
                                   f"also gehen höchstens {self.movable(r)}.")
        attack = order.get("attack")
        if attack is not None:
            if not isinstance(attack, dict):
                raise IllegalOrder("Angriff: Angabe muss from und to haben.")
            a = self._region(attack.get("from"), "Angriff")
            d = self._region(attack.get("to"), "Angriff")
            follow = attack.get("follow", 1)
            self._kp_count(follow, "Angriff (nachrückende KP)")
            if self.owner[a] != side or self.kp[a] < 1:
                raise IllegalOrder(f"Angreifen geht nur aus einer eigenen Region mit KP, nicht aus {self.name(a)}.")
            if self.owner[d] != enemy:
                raise IllegalOrder(f"{self.name(d)} ist keine gegnerische Region.")
            if not self.map.adjacent(a, d):
                raise IllegalOrder(f"{self.name(d)} grenzt nicht an {self.name(a)}.")
            norm["attack"] = {"from": a, "to": d, "follow": follow}
        return norm

    def _plan(self, order: dict, events: list[dict]) -> None:
        side = self._side(order)
        if self.phase != "plan":
            raise IllegalOrder("Pläne werden nur im strategischen Schritt gemacht.")
        if self.plans[side] is not None:
            raise IllegalOrder(f"{SIDE_NAMES[side]} hat den Plan für diese Runde schon abgegeben.")
        plan = self.check_plan(side, order)
        self.plans[side] = plan
        self._event(events, "planned", f"{SIDE_NAMES[side]} hat den Plan abgegeben.", side=side)
        if all(self.plans[s] is not None for s in SIDES):
            self._carry_out_plans(events)

    def _carry_out_plans(self, events: list[dict]) -> None:
        """C4: both plans revealed and carried out together; then the battles (C5)."""
        plans = {s: self.plans[s] for s in SIDES}
        self.revealed = plans
        self.plans = {s: None for s in SIDES}
        self._event(events, "revealed", "Beide Pläne werden aufgedeckt.", plans=plans)
        occ = {s: plans[s]["occupy"] for s in SIDES}
        clash = (occ["nordbund"] is not None and occ["liga"] is not None
                 and occ["nordbund"]["region"] == occ["liga"]["region"])
        occupied: dict[str, str] = {}
        if clash:
            r = occ["nordbund"]["region"]
            self._event(events, "occupy_failed", f"Beide Seiten wollten {self.name(r)} besetzen: keine bekommt "
                        f"die Region, die KP bleiben, wo sie waren.", region=r)
        # Take every KP out first, so each moves exactly one step (C4), then put them down.
        arriving: list[tuple[str, str, int]] = []
        for s in SIDES:
            o = occ[s]
            if o is not None and not clash:
                self.kp[o["from"]] -= o["kp"]
                occupied[s] = o["region"]
                arriving.append((s, o["region"], o["kp"]))
                self._event(events, "occupied", f"{SIDE_NAMES[s]} besetzt {self.name(o['region'])} mit "
                            f"{o['kp']} KP aus {self.name(o['from'])}.", side=s, region=o["region"],
                            source=o["from"], kp=o["kp"])
            for m in plans[s]["moves"]:
                if self.owner[m["to"]] != s and occupied.get(s) != m["to"]:
                    continue  # into a region whose occupation failed: the KP stay (C4)
                self.kp[m["from"]] -= m["kp"]
                arriving.append((s, m["to"], m["kp"]))
                self._event(events, "moved", f"{SIDE_NAMES[s]} verlegt {m['kp']} KP von {self.name(m['from'])} "
                            f"nach {self.name(m['to'])}.", side=s, source=m["from"], region=m["to"], kp=m["kp"])
        for s, r, n in arriving:
            self.owner[r] = s
            self.kp[r] += n
        # C5: every attack is a battle; two attacks between the same two regions are one.
        first = "nordbund" if self.round % 2 == 1 else "liga"
        battles: list[dict] = []
        for s in (first, other_side(first)):
            a = plans[s]["attack"]
            if a is None:
                continue
            mutual = next((b for b in battles if b["from"] == a["to"] and b["to"] == a["from"]), None)
            if mutual is not None:
                mutual["mutual"] = True
                mutual["follow"][s] = a["follow"]
                continue
            battles.append({"attacker": s, "defender": other_side(s), "from": a["from"], "to": a["to"],
                            "mutual": False, "follow": {s: a["follow"]}})
        self.queue = battles
        self._next_battle(events)

    # C5, C7 ------------------------------------------------------------------------------------------
    def _next_battle(self, events: list[dict]) -> None:
        """Start the next valid battle of the round, or end the round."""
        while self.queue:
            b = self.queue.pop(0)
            att, dfd = b["attacker"], b["defender"]
            if not (self.owner[b["from"]] == att and self.kp[b["from"]] >= 1 and self.owner[b["to"]] == dfd):
                self._event(events, "attack_lapsed", f"Der Angriff von {self.name(b['from'])} auf "
                            f"{self.name(b['to'])} entfällt: die Lage hat sich geändert.")
                continue
            if b["mutual"] and self.kp[b["to"]] < 1:
                b["mutual"] = False
            self.battle_no += 1
            region = b["to"]
            b["no"] = self.battle_no
            b["region"] = region
            b["map"] = self.map.regions[region].map
            kp_on = {att: self.kp[b["from"]], dfd: self.kp[b["to"]]}
            b["kp"] = kp_on
            b["tp"] = {s: taktikpunkte(start_money(b["map"], s), self.last_result[s], kp_on[s],
                                       kp_on[other_side(s)]) for s in SIDES}
            b["options"] = {s: None for s in SIDES}
            b["seed"] = (self.seed * 1_000_003 + self.battle_no * 7919) % (1 << 31)
            self.battle = b
            self.battle_game = None
            self.phase = "options"
            # Two attacks on each other (C5) have two subjects: "Nordbund und Baltische Liga greifen …".
            who = (f"{SIDE_NAMES[att]} und {SIDE_NAMES[dfd]} greifen sich gegenseitig an" if b["mutual"]
                   else f"{SIDE_NAMES[att]} greift an")
            self._event(events, "battle", f"Schlacht um {self.name(region)}: {who} "
                        f"({self.name(b['from'])} gegen {self.name(b['to'])}). Taktikpunkte: Nordbund "
                        f"{b['tp']['nordbund']}, Baltische Liga {b['tp']['liga']}.", region=region,
                        attacker=att, tp=dict(b["tp"]))
            return
        self.battle = None
        self.battle_game = None
        self._end_of_round(events)

    # C8 ----------------------------------------------------------------------------------------------
    def check_options(self, side: str, order: dict) -> dict:
        tp = self.battle["tp"][side]
        known = {"type", "side", "kriegskasse", "verstaerkung", "reserven"}
        if set(order) - known:
            raise IllegalOrder(f"Unbekannte Angaben: {', '.join(sorted(set(order) - known))}.")
        kk = order.get("kriegskasse", 0)
        units = order.get("verstaerkung") or []
        reserven = order.get("reserven", False)
        if not _int(kk) or kk < 0:
            raise IllegalOrder("Kriegskasse: die TP-Zahl muss eine ganze Zahl ab 0 sein.")
        if not isinstance(units, list) or not all(isinstance(u, str) for u in units) or len(units) > 20:
            raise IllegalOrder("Verstärkung: eine Liste von Einheitentypen.")
        if not isinstance(reserven, bool):
            raise IllegalOrder("Reserven: true oder false.")
        for u in units:
            if u not in RULES.units:
                raise IllegalOrder(f"Unbekannter Einheitentyp: {show(u)}.")
        cost = kk + sum(verstaerkung_tp(u) for u in units) + (RESERVEN_TP if reserven else 0)
        if cost > max(0, tp):
            raise IllegalOrder(f"Das kostet {cost} TP, {SIDE_NAMES[side]} hat nur {max(0, tp)}.")
        if reserven and self.total_kp(side) >= KP_CAP:
            raise IllegalOrder(f"Reserven: {SIDE_NAMES[side]} hat schon {KP_CAP} KP, mehr sind nicht erlaubt (C3).")
        if units:  # a dry run on a fresh copy of the battle map says whether every unit finds a place
            g = new_game(self.battle["map"], seed=0, fog=False)
            try:
                g.campaign_setup(side, units=units)
            except IllegalAction as e:
                raise IllegalOrder(f"Verstärkung: {e}") from None
        return {"kriegskasse": kk, "verstaerkung": list(units), "reserven": reserven}

    def _options(self, order: dict, events: list[dict]) -> None:
        side = self._side(order)
        if self.phase != "options":
            raise IllegalOrder("Taktische Optionen werden nur vor einer Schlacht gewählt.")
        if self.battle["options"][side] is not None:
            raise IllegalOrder(f"{SIDE_NAMES[side]} hat die Optionen schon gewählt.")
        self.battle["options"][side] = self.check_options(side, order)
        self._event(events, "options_chosen", f"{SIDE_NAMES[side]} hat die taktischen Optionen gewählt.", side=side)
        if all(self.battle["options"][s] is not None for s in SIDES):
            self._start_battle(events)

    def _start_battle(self, events: list[dict]) -> None:
        b = self.battle
        g = new_game(b["map"], seed=b["seed"], fog=self.fog)
        for s in SIDES:
            o, tp = b["options"][s], b["tp"][s]
            money = KRIEGSKASSE_PER_TP * o["kriegskasse"] if tp > 0 else NEGATIVE_TP_GUTHABEN * tp
            g.campaign_setup(s, money_delta=money, units=o["verstaerkung"], round_limit=CAMPAIGN_ROUND_LIMIT)
            bought = []
            if o["kriegskasse"]:
                bought.append(f"Kriegskasse {o['kriegskasse']} TP (+{money} Guthaben)")
            if tp < 0:
                bought.append(f"{-tp} TP fehlen: {money} Guthaben")
            if o["verstaerkung"]:
                bought.append("Verstärkung: " + ", ".join(RULES.units[u].name for u in o["verstaerkung"]))
            if o["reserven"]:
                base = self.map.bases[s]
                self.kp[base] += 1  # check_options made sure the account stays within 30 (C3)
                bought.append(f"Reserven (+1 KP in {self.name(base)})")
            self._event(events, "options", f"{SIDE_NAMES[s]}: " + ("; ".join(bought) or "keine Optionen") + ".",
                        side=s, options=dict(o))
        self.battle_game = g
        self.phase = "battle"

    # C10 ----------------------------------------------------------------------------------------------
    def _auto_resolve(self, order: dict, events: list[dict]) -> None:
        if self.phase != "battle":
            raise IllegalOrder("Automatisch austragen geht nur, wenn eine Schlacht läuft.")
        mode = order.get("mode", "ai")
        if mode not in ("ai", "quick"):
            raise IllegalOrder("mode muss ai oder quick sein.")
        steps = order.get("steps")
        if steps is not None and (mode != "ai" or not _int(steps) or not 1 <= steps <= AUTO_MAX_ACTIONS):
            raise IllegalOrder(f"steps: eine ganze Zahl von 1 bis {AUTO_MAX_ACTIONS}, nur mit mode ai.")
        g = self.battle_game
        if g.outcome is None:
            from .auto import end_stalled, play_out, quick_result
            if mode == "quick":
                winner = quick_result(g, random.Random(f"{self.seed}:{self.battle['no']}"))
                self.battle["quick"] = {"winner": winner}
            elif steps is None:
                play_out(g, self.strength, self.battle["seed"])
            else:
                # In short calls (the page stays responsive and shows progress); the count of
                # actions so far is kept with the battle, so a stalled battle still ends as a draw.
                done = self.battle.get("auto_actions", 0)
                n = play_out(g, self.strength, self.battle["seed"] + done,
                             max_actions=min(steps, AUTO_MAX_ACTIONS - done))
                self.battle["auto_actions"] = done + n
                if g.outcome is None and done + n >= AUTO_MAX_ACTIONS:
                    end_stalled(g)
                if g.outcome is None:
                    events.append({"type": "auto_progress", "round": self.round, "battle_round": g.round,
                                   "text": f"Die Schlacht um {self.name(self.battle['region'])} wird automatisch "
                                           f"ausgetragen: Runde {g.round}."})
                    return
        self._evaluate({"type": "evaluate"}, events, auto=True)

    # C6 ------------------------------------------------------------------------------------------------
    def battle_winner(self) -> tuple[bool, str | None]:
        """(decided, winner) of the running battle."""
        b, g = self.battle, self.battle_game
        if b is not None and "quick" in b:
            return True, b["quick"]["winner"]
        if g is not None and g.outcome is not None:
            return True, g.outcome.winner
        return False, None

    def _evaluate(self, order: dict, events: list[dict], auto: bool = False) -> None:
        if self.phase != "battle":
            raise IllegalOrder("Es läuft keine Schlacht.")
        decided, winner = self.battle_winner()
        if not decided:
            raise IllegalOrder("Die Schlacht ist noch nicht entschieden.")
        b = self.battle
        how = " (automatisch ausgetragen)" if auto else ""
        if winner is None:
            self._event(events, "result", f"Die Schlacht um {self.name(b['region'])} endet unentschieden{how}: "
                        f"beide Seiten verlieren 1 KP.", winner=None, region=b["region"])
            for s in SIDES:
                self.last_result[s] = "draw"
            self._lose(b["attacker"], b["from"], 1, events)
            self._lose(b["defender"], b["to"], 1, events)
            self._after_battle(events)
            return
        loser = other_side(winner)
        for s in SIDES:
            self.last_result[s] = "won" if s == winner else "lost"
        region_of = {b["attacker"]: b["from"], b["defender"]: b["to"]}
        a_region, d_region = region_of[winner], region_of[loser]
        self._event(events, "result", f"{SIDE_NAMES[winner]} gewinnt die Schlacht um {self.name(b['region'])}{how}.",
                    winner=winner, region=b["region"])
        if winner == b["defender"] and not b["mutual"]:
            self._lose(loser, d_region, 1, events)  # the beaten attacker keeps its region
            self._after_battle(events)
            return
        # The attacker won (C6).
        if self.map.base_of(d_region) == loser:
            self._lose_base(loser, d_region, events)
            self._after_battle(events)
            return
        left = self.kp[d_region] - 1
        self._event(events, "kp_lost", f"{SIDE_NAMES[loser]} verliert 1 KP und räumt {self.name(d_region)}.",
                    side=loser, region=d_region, kp=1)
        self.kp[d_region], self.owner[d_region] = 0, None
        follow = min(b["follow"].get(winner, 1), self.kp[a_region] - 1)
        if follow >= 1:
            self.kp[a_region] -= follow
            self.kp[d_region], self.owner[d_region] = follow, winner
            self._event(events, "occupied", f"{SIDE_NAMES[winner]} rückt mit {follow} KP in "
                        f"{self.name(d_region)} ein.", side=winner, region=d_region, kp=follow)
        else:
            self._event(events, "free", f"{self.name(d_region)} bleibt frei: in {self.name(a_region)} steht nur "
                        f"1 KP.", region=d_region)
        targets = [n for n in self.neighbours(d_region) if self.owner[n] == loser]
        if left > 0 and not targets:
            self._event(events, "kp_lost", f"{SIDE_NAMES[loser]} hat keine Nachbarregion: {left} KP gehen verloren.",
                        side=loser, region=d_region, kp=left)
        elif left > 0 and len(targets) == 1:
            self._put_retreat(loser, d_region, {targets[0]: left}, events)
        elif left > 0:
            self.retreat = {"side": loser, "from": d_region, "kp": left, "to": targets}
            self.phase = "retreat"
            self.battle = self.battle_game = None
            self._event(events, "retreat_pending", f"{SIDE_NAMES[loser]} muss {left} KP aus "
                        f"{self.name(d_region)} auf die Nachbarregionen verteilen.", side=loser, kp=left)
            return
        self._after_battle(events)

    def _put_retreat(self, side: str, source: str, split: dict[str, int], events: list[dict]) -> None:
        for r, n in split.items():
            if n > 0:
                self.kp[r] += n
        where = ", ".join(f"{n} nach {self.name(r)}" for r, n in split.items() if n > 0)
        self._event(events, "retreated", f"{SIDE_NAMES[side]} zieht KP aus {self.name(source)} ab: {where}.",
                    only=side, side=side, region=source, split=dict(split))
        if self.fog:
            self._event(events, "retreated", f"{SIDE_NAMES[side]} zieht sich aus {self.name(source)} zurück.",
                        only=other_side(side), side=side, region=source)

    def even_retreat(self) -> dict[str, int]:
        """C6: the computer and auto-resolve spread the retreating KP evenly (first regions first)."""
        r = self.retreat
        n, k = r["kp"], len(r["to"])
        return {t: n // k + (1 if i < n % k else 0) for i, t in enumerate(r["to"])}

    def _retreat(self, order: dict, events: list[dict]) -> None:
        side = self._side(order)
        if self.phase != "retreat" or self.retreat["side"] != side:
            raise IllegalOrder("Es ist kein Rückzug zu verteilen.")
        split = order.get("to")
        r = self.retreat
        if not isinstance(split, dict) or not all(k in r["to"] and _int(v) and v >= 0 for k, v in split.items()):
            raise IllegalOrder("Rückzug: 'to' ordnet Nachbarregionen KP zu (ganze Zahlen ab 0).")
        if sum(split.values()) != r["kp"]:
            raise IllegalOrder(f"Rückzug: genau {r['kp']} KP sind zu verteilen, nicht {sum(split.values())}.")
        self._put_retreat(side, r["from"], {k: split[k] for k in r["to"] if k in split}, events)
        self.retreat = None
        self._after_battle(events)

    def _lose(self, side: str, region: str, n: int, events: list[dict]) -> None:
        """Take n KP of `side` from `region`; an emptied region other than a base becomes free."""
        n = min(n, self.kp[region])
        if n <= 0:
            return
        self.kp[region] -= n
        self._event(events, "kp_lost", f"{SIDE_NAMES[side]} verliert {n} KP in {self.name(region)}.",
                    side=side, region=region, kp=n)
        if self.kp[region] == 0 and not self.is_base(region):
            self.owner[region] = None
            self._event(events, "free", f"{self.name(region)} ist jetzt frei.", region=region)

    def _lose_base(self, side: str, base: str, events: list[dict]) -> None:
        """C6: a lost base defence costs 3 KP, from the base first, then from adjacent regions."""
        self._event(events, "base_defence_lost", f"{SIDE_NAMES[side]} verliert die Verteidigung der Basis "
                    f"{self.name(base)}: {BASE_LOSS_KP} KP gehen verloren.", side=side, region=base)
        owed = BASE_LOSS_KP
        take = min(owed, self.kp[base])
        if take:
            self._lose(side, base, take, events)
            owed -= take
        while owed > 0:
            nbs = [n for n in self.neighbours(base) if self.owner[n] == side and self.kp[n] > 0]
            if not nbs:
                break
            best = max(nbs, key=lambda n: (self.kp[n], -list(self.map.regions).index(n)))
            self._lose(side, best, 1, events)
            owed -= 1

    def _after_battle(self, events: list[dict]) -> None:
        self.battle = None
        self.battle_game = None
        self.phase = "battle"  # transient: _next_battle sets the real next phase
        totals = {s: self.total_kp(s) for s in SIDES}
        out = [s for s in SIDES if totals[s] == 0]
        if out:  # C9: a side with no KP left has lost at once
            winner = None if len(out) == 2 else other_side(out[0])
            self._finish(winner, "no_kp", events)
            return
        self._next_battle(events)

    # C9 ------------------------------------------------------------------------------------------------
    def _end_of_round(self, events: list[dict]) -> None:
        weak = [s for s in SIDES if self.regions_of(s) == [self.map.bases[s]] and self.total_kp(s) < ONLY_BASE_KP]
        if weak:
            self._finish(None if len(weak) == 2 else other_side(weak[0]), "only_base", events)
            return
        if self.round >= self.map.rounds:
            regions = {s: len(self.regions_of(s)) for s in SIDES}
            kps = {s: self.total_kp(s) for s in SIDES}
            if regions["nordbund"] != regions["liga"]:
                self._finish(max(SIDES, key=regions.get), "regions", events)
            elif kps["nordbund"] != kps["liga"]:
                self._finish(max(SIDES, key=kps.get), "kp", events)
            else:
                self._finish(None, "draw", events)
            return
        self.round += 1
        self.phase = "plan"
        self._event(events, "round", f"Runde {self.round} beginnt.")

    def _finish(self, winner: str | None, reason: str, events: list[dict]) -> None:
        self.outcome = {"winner": winner, "reason": reason}
        self.phase = "over"
        self.battle = self.battle_game = self.retreat = None
        self.queue = []
        self._event(events, "campaign_over", self.describe_outcome(), winner=winner, reason=reason)

    def describe_outcome(self) -> str:
        if self.outcome is None:
            return ""
        reasons = {"no_kp": "keine KP mehr", "only_base": "nur noch die Basis mit weniger als 5 KP",
                   "regions": "mehr Regionen nach 12 Runden", "kp": "mehr KP nach 12 Runden",
                   "draw": "gleich viele Regionen und KP nach 12 Runden"}
        w = self.outcome["winner"]
        why = reasons[self.outcome["reason"]]
        return f"Der Feldzug endet unentschieden ({why})." if w is None else \
            f"{SIDE_NAMES[w]} gewinnt den Feldzug ({why})."

    # C11 -----------------------------------------------------------------------------------------------
    def kp_visible(self, side: str, region: str) -> bool:
        """C11: own and free regions always; an enemy region only where it borders an own region."""
        if not self.fog or self.owner[region] != other_side(side):
            return True
        return any(self.owner[n] == side for n in self.neighbours(region))

    def observe(self, side: str) -> dict:
        """What `side` may see, JSON-ready (C11): no hidden KP, no secret plan or options of the
        other side before they are revealed."""
        if side not in SIDES:
            raise IllegalOrder(f"Unbekannte Seite: {show(side)}.")
        enemy = other_side(side)
        regions = []
        for rid, r in self.map.regions.items():
            regions.append({**r.to_json(), "owner": self.owner[rid], "base": self.map.base_of(rid),
                            "kp": self.kp[rid] if self.kp_visible(side, rid) else None})
        battle = None
        if self.battle is not None:
            b = self.battle
            opts = b["options"]
            both = all(opts[s] is not None for s in SIDES)
            battle = {"no": b["no"], "region": b["region"], "map": b["map"], "attacker": b["attacker"],
                      "defender": b["defender"], "from": b["from"], "to": b["to"], "mutual": b["mutual"],
                      "tp": dict(b["tp"]), "kp": dict(b["kp"]), "follow": b["follow"].get(side),
                      "options": {side: opts[side], enemy: opts[enemy] if both or not self.fog else None},
                      "chosen": {s: opts[s] is not None for s in SIDES},
                      "started": self.battle_game is not None,
                      "decided": self.battle_winner()[0]}
        retreat = None
        if self.retreat is not None:
            retreat = dict(self.retreat) if self.retreat["side"] == side or not self.fog else \
                {"side": self.retreat["side"], "from": self.retreat["from"]}
        return {
            "viewer": side, "map": self.map.id, "name": self.map.name, "width": self.map.width,
            "height": self.map.height, "coast": [{"name": c["name"], "points": [list(p) for p in c["points"]]} for c in self.map.coast],
            "round": self.round, "rounds": self.map.rounds, "phase": self.phase,
            "fog": self.fog, "strength": self.strength, "regions": regions,
            "kp_total": {side: self.account(side), enemy: None if self.fog else self.account(enemy)},
            "region_count": {s: len(self.regions_of(s)) for s in SIDES},
            "plan": self.plans[side], "planned": {s: self.plans[s] is not None for s in SIDES},
            "revealed": self.revealed, "last_result": dict(self.last_result),
            "battle": battle, "retreat": retreat,
            "log": self.events_for(self.log, side)[-200:],
            "outcome": dict(self.outcome) if self.outcome else None,
            "outcome_text": self.describe_outcome(),
        }


def new_campaign(*, seed: int = 0, fog: bool = True, strength: str = "normal",
                 map_id: str = "westliche-ostsee") -> Campaign:
    """A new Feldzug (C2). `strength` is what auto-resolved battles are played at (C10)."""
    if strength not in STRENGTHS:
        raise IllegalOrder(f"Unbekannte Stärke: {show(strength)} (leicht, normal oder schwer).")
    if not _int(seed):
        raise IllegalOrder("seed muss eine ganze Zahl sein.")
    try:
        cmap = load_campaign_map(map_id)
    except KeyError:
        raise IllegalOrder(f"Unbekannte Feldzugkarte: {show(map_id)}.") from None
    return Campaign(cmap, seed=seed, fog=bool(fog), strength=strength)
