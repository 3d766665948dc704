"""The `Game`: turn flow (R8–R12), applying actions, and the questions the UI and the AI ask.

Every action is checked completely before anything changes, so an illegal one raises `IllegalAction`
and leaves the game exactly as it was. Answers to questions use only what the side to act can see.
"""

from __future__ import annotations

from . import undo
from .actions import (Action, Attack, Build, EndPhase, IllegalAction, Load, Move, Surrender, Unload,
                      action_from_json)
from .buildings import (buildable_types, end_of_move_phase_captures, start_of_move_phase,
                        versorger_resupply)
from .combat import attack_value, base_damage, clamp_damage, defence_twice, in_range
from .fog import observe, observe_events, visible
from .hexgrid import Hex, parse_hex
from .limits import is_id, show
from .mapfile import Scenario, load_scenario
from .movement import search, walk
from .rng import damage_roll, seed_state
from .rulesdata import RULES, SIDE_NAMES, other_side
from .state import Building, GameState, Outcome, Unit, grid_for
from .transport import boarding_path, can_carry, transfer_allowed_here, unload_hexes
from .victory import check_no_army, round_limit_outcome

# Buildings where aircraft refuel and so do not crash (R19).
AIRCRAFT_HOMES = ("flugplatz", "hq", "depot")


def _fmt(h: Hex) -> str:
    return f"({h.col}, {h.row})"


class Game(GameState):
    """A running game. Create one with `kaltfront.new_game` or `Game.from_json`."""

    # -- creation ---------------------------------------------------------------------------
    @classmethod
    def from_scenario(cls, sc: Scenario, *, seed: int, fog: bool) -> Game:
        g = cls()
        g.scenario_id, g.name, g.briefing = sc.id, sc.name, sc.briefing
        g.objectives, g.region = dict(sc.objectives), sc.region
        g.width, g.height = sc.width, sc.height
        g.grid = grid_for(sc.width, sc.height)
        g.terrain = list(sc.terrain)
        g.blitz, g.fog, g.round_limit = sc.blitz, bool(fog), sc.round_limit
        g.first = g.side = sc.first
        g.round, g.phase = 1, "move"  # the very first turn has no attack phase (R12)
        g.money = dict(sc.money)
        g.rng = seed_state(seed)
        for b in sc.buildings:
            i = g.grid.index(b.at)
            g.buildings[i] = Building(at=i, type=b.type, owner=b.owner, name=b.name)
        for su in sc.units:
            u = g.new_unit(su.side, su.type, g.grid.index(su.at), hp=su.hp, level=su.level)
            if su.ammo is not None and u.ammo is not None:
                u.ammo = su.ammo
            if su.fuel is not None and u.fuel is not None:
                u.fuel = su.fuel
            for ctype in su.cargo:
                c = g.new_unit(su.side, ctype, None, carried_by=u.id)
                u.cargo.append(c.id)
        # Start-of-move-phase effects apply to the first turn too (D4).
        start_of_move_phase(g, g.side, [])
        g.record_seed, g.record_actions = seed_state(seed), []
        g.invalidate()
        return g

    def clone(self) -> Game:
        from .save import game_copy
        # The histories are copied, not re-checked by replaying them: they are known to be right.
        g = game_copy(self)
        g.undo_base, g.undo_actions, g.undo_block = self.undo_base, list(self.undo_actions), self.undo_block
        g.keep_undo = self.keep_undo
        g.record_seed = self.record_seed
        g.record_actions = None if self.record_actions is None else list(self.record_actions)
        g.record_setup = [dict(s) for s in self.record_setup]
        return g

    # -- serialisation ----------------------------------------------------------------------
    def to_json(self) -> str:
        from .save import dumps
        return dumps(self)

    @classmethod
    def from_json(cls, text: str | bytes | dict) -> Game:
        from .save import loads
        return loads(text)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        from .save import game_to_dict
        return game_to_dict(self) == game_to_dict(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<Game {self.scenario_id} round {self.round} {self.side} {self.phase}"
                f"{' ' + repr(self.outcome) if self.outcome else ''}>")

    # -- views ------------------------------------------------------------------------------
    def visible(self, side: str) -> frozenset[int]:
        return visible(self, side)

    def observe(self, side: str) -> dict:
        return observe(self, side)

    def observe_events(self, events: list[dict], side: str) -> list[dict]:
        return observe_events(self, events, side)

    # -- checks shared by actions and questions -----------------------------------------------
    def _running(self) -> None:
        if self.outcome is not None:
            raise IllegalAction("Die Partie ist beendet.")

    def _own_unit(self, uid: int, *, on_map: bool = True) -> Unit:
        if not is_id(uid):  # a list, a bool (True == 1), a float, a huge number: refused, never looked up
            raise IllegalAction("Ungültige Einheitennummer: erwartet eine ganze Zahl ab 1.")
        u = self.units.get(uid)
        if u is None or u.side != self.side:
            raise IllegalAction(f"Du hast keine Einheit mit der Nummer {uid}.")
        if on_map and u.at is None:
            raise IllegalAction(f"{u.utype.name} ist verladen und muss erst ausgeladen werden.")
        return u

    def _hex_index(self, h: Hex) -> int:
        i = self.index(h)
        if i is None:
            raise IllegalAction(f"Das Feld {_fmt(h)} liegt nicht auf der Karte.")
        return i

    def _phase(self, phase: str) -> None:
        if self.phase != phase:
            if phase == "move":
                raise IllegalAction("Das geht nur in der Zugphase.")
            raise IllegalAction("Angreifen geht nur in der Angriffsphase.")

    # -- questions (docs/api.md) --------------------------------------------------------------
    def _can_move(self, u: Unit) -> bool:
        return self.phase == "move" and not u.moved and u.at is not None and u.side == self.side

    def reachable(self, unit_id: int) -> list[dict]:
        """Hexes the unit can move to now, each with its path, its points and the hexes it enters
        (= fuel it burns, D12) (R14–R16, R18, R53)."""
        u = self._own_unit(unit_id)
        if not self._can_move(u):
            return []
        found = search(self, u, self.visible(u.side))
        # Each path is its predecessor's path plus one hex: every prefix is built once.
        paths = {(found.start, 0): [self.hex(found.start).to_json()]}
        return [{"to": self.hex(i).to_json(), "path": self._path_to(i, found.hexes(i), found, paths),
                 "cost": found.cost[i], "hexes": found.hexes(i)} for i in found.destinations]

    def _path_to(self, i: int, k: int, found, paths: dict) -> list[list[int]]:
        """The JSON path to hex `i` entering `k` hexes, reusing (and filling) the memo `paths` of
        shorter ones, keyed by (hex, hexes entered)."""
        chain = []
        while (i, k) not in paths:
            chain.append((i, k))
            i = found.layers[k][i][1]
            k -= 1
        path = paths[(i, k)]
        for j, kj in reversed(chain):
            path = path + [[j % self.width, j // self.width]]
            paths[(j, kj)] = path
        return path

    def _boardings(self, u: Unit, found) -> list[tuple[Unit, list[int]]]:
        """Own transports `u` can board now, each with the boarding path (R40, R42, R43)."""
        out = []
        for t in self.units_of(u.side):
            if (t.id != u.id and t.utype.is_transport and can_carry(t, u) is None
                    and transfer_allowed_here(self, t, u.utype.movement)):
                path = boarding_path(self, u, t, found)
                if path is not None:
                    out.append((t, path))
        return out

    def load_options(self, unit_id: int) -> list[dict]:
        """Own transports the unit can board now, with the path (R40)."""
        u = self._own_unit(unit_id)
        if not self._can_move(u):
            return []
        found = search(self, u, self.visible(u.side))
        return [{"transport": t.id, "at": self.hex(t.at).to_json(),
                 "path": [self.hex(p).to_json() for p in path]} for t, path in self._boardings(u, found)]

    def unload_options(self, transport_id: int) -> list[dict]:
        """For each cargo unit that may still get off: the hexes it may be put on (R41–R43)."""
        t = self._own_unit(transport_id)
        if self.phase != "move" or self.outcome is not None:
            return []
        seen = self.visible(t.side)
        out = []
        for cid in t.cargo:
            c = self.units[cid]
            if c.moved:
                continue
            hexes = unload_hexes(self, t, c, seen)
            if hexes:
                out.append({"unit": cid, "unit_type": c.type,
                            "to": [self.hex(i).to_json() for i in hexes]})
        return out

    def attack_range(self, unit_id: int) -> dict:
        u = self._own_unit(unit_id)
        if u.utype.range is None:
            return {"min": 0, "max": 0, "hexes": []}
        lo, hi = u.utype.range
        hexes = [i for i in self.grid.within(u.at, hi) if self.grid.dist(u.at, i) >= lo]
        return {"min": lo, "max": hi, "hexes": [self.hex(i).to_json() for i in sorted(hexes)]}

    def _targets(self, u: Unit) -> list[Unit]:
        if (self.phase != "attack" or u.attacked or u.at is None or not self.has_ammo(u)
                or self.outcome is not None):
            return []
        seen = self.visible(u.side)
        lo, hi = u.utype.range
        out = []
        for i in self.grid.within(u.at, hi):
            t = self.unit_at(i)
            if (t is None or t.side == u.side or i not in seen or self.grid.dist(u.at, i) < lo
                    or attack_value(u.utype, t.utype) is None):
                continue
            out.append(t)
        return out

    def _expected(self, att: Unit, att_hp: int, tgt: Unit, tgt_hp: int) -> int:
        return clamp_damage(base_damage(attack_value(att.utype, tgt.utype), att_hp, att.level,
                                        self._defence2(tgt)), tgt_hp)

    def _defence2(self, t: Unit) -> int:
        b = self.buildings.get(t.at)
        return defence_twice(t.utype, t.level, self.terrain_at(t.at).defence,
                             b is not None and b.owner == t.side)

    def _counter_possible(self, tgt: Unit, att: Unit) -> bool:
        """R29: the target answers only with a value against the attacker's class, ammunition left
        and the attacker within its range."""
        return (attack_value(tgt.utype, att.utype) is not None and self.has_ammo(tgt)
                and in_range(tgt.utype, self.grid.dist(tgt.at, att.at)))

    def attack_preview(self, att: Unit, tgt: Unit) -> dict:
        """Expected damage without the random part and its possible range (R22, D2), and the
        expected counter-fire at the target's hp after the expected hit (R29)."""
        av = attack_value(att.utype, tgt.utype)
        base = base_damage(av, att.hp, att.level, self._defence2(tgt))
        dmg = clamp_damage(base, tgt.hp)
        lo, hi = clamp_damage(base - 1, tgt.hp), clamp_damage(base + 1, tgt.hp)
        counter = counter_range = None
        if tgt.hp - dmg > 0 and self._counter_possible(tgt, att):
            left = tgt.hp - dmg
            cbase = base_damage(attack_value(tgt.utype, att.utype), left, tgt.level, self._defence2(att))
            counter = clamp_damage(cbase, att.hp)
            counter_range = [clamp_damage(cbase - 1, att.hp), clamp_damage(cbase + 1, att.hp)]
        return {"target": self.hex(tgt.at).to_json(), "target_id": tgt.id, "target_type": tgt.type,
                "damage": dmg, "damage_range": [lo, hi], "destroys": dmg >= tgt.hp,
                "counter": counter, "counter_range": counter_range}

    def attack_options(self, unit_id: int) -> list[dict]:
        """Visible targets in range with expected damage and counter-fire (R22, R54)."""
        u = self._own_unit(unit_id)
        return [self.attack_preview(u, t) for t in self._targets(u)]

    def build_options(self, at: Hex | list[int]) -> list[dict]:
        """What the building on `at` can produce now, with cost and whether it is affordable (R62)."""
        try:
            h = at if isinstance(at, Hex) else parse_hex(at)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        i = self.index(h)
        b = self.buildings.get(i) if i is not None else None
        if (b is None or b.owner != self.side or self.phase != "move" or i in self.board
                or self.outcome is not None):
            return []
        room = self.unit_count(self.side) < RULES.max_units
        return [{"unit_type": t, "name": RULES.units[t].name, "cost": RULES.units[t].cost,
                 "affordable": room and RULES.units[t].cost <= self.money[self.side]}
                for t in buildable_types(self, b)]

    def fire_zones(self, side: str, target: int | str | None = None, enemy: int | None = None) -> dict:
        """Where the enemies `side` can see can fire next turn, and after moving (issue 13.2,
        kaltfront/threat.py); only visible enemies count."""
        from .threat import fire_zones
        return fire_zones(self, side, target, enemy)

    def units_that_can_act(self) -> dict:
        """Units that can still fire, move or unload (R55), for the rings and the counter."""
        out: dict[str, list[int]] = {"attack": [], "move": [], "unload": []}
        if self.outcome is not None:
            return out
        for u in self.units_of(self.side):
            if self.phase == "attack":
                if self._targets(u):
                    out["attack"].append(u.id)
                continue
            if not u.moved:
                found = search(self, u, self.visible(u.side))
                if found.destinations or self._boardings(u, found):
                    out["move"].append(u.id)
            if u.cargo and self.unload_options(u.id):
                out["unload"].append(u.id)
        return out

    # -- legal actions --------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the side to act except Surrender, which is always legal (R51)."""
        if self.outcome is not None:
            return []
        acts: list[Action] = []
        side = self.side
        if self.phase == "attack":
            for u in self.units_of(side):
                for t in self._targets(u):
                    acts.append(Attack(u.id, self.hex(t.at)))
        else:
            seen = self.visible(side)
            for u in self.units_of(side):
                if u.moved:
                    continue
                found = search(self, u, seen)
                acts.extend(Move(u.id, self.hex(i)) for i in found.destinations)
                acts.extend(Load(u.id, t.id) for t, _ in self._boardings(u, found))
            for t in self.units_of(side):
                for cid in t.cargo:
                    c = self.units[cid]
                    if not c.moved:
                        acts.extend(Unload(t.id, cid, self.hex(i)) for i in unload_hexes(self, t, c, seen))
            if self.unit_count(side) < RULES.max_units:
                for b in sorted(self.buildings.values(), key=lambda x: x.at):
                    if b.owner == side and b.at not in self.board:
                        for ut in buildable_types(self, b):
                            if RULES.units[ut].cost <= self.money[side]:
                                acts.append(Build(self.hex(b.at), ut))
        acts.append(EndPhase())
        return acts

    def is_legal(self, action: Action | dict) -> bool:
        """Whether `action` is one of `legal_actions()` (Surrender aside, as there), asking only about
        the unit, transport or site it names: the same answer for one movement search instead of one
        per unit (the computer checks every action it sends; tests/test_rules_api.py compares both)."""
        if not isinstance(action, (Move, Load, Unload, Attack, Build, EndPhase, Surrender)):
            try:
                action = action_from_json(action)
            except IllegalAction:
                return False
        if self.outcome is not None or isinstance(action, Surrender):
            return False
        if isinstance(action, EndPhase):
            return True
        side = self.side
        if self.phase == "attack":
            u = self.units.get(action.unit) if isinstance(action, Attack) else None
            if u is None or u.side != side or u.at is None:
                return False
            return any(self.hex(t.at) == action.target for t in self._targets(u))
        seen = self.visible(side)
        if isinstance(action, (Move, Load)):
            u = self.units.get(action.unit)
            if u is None or u.side != side or u.at is None or u.moved:
                return False
            found = search(self, u, seen)
            if isinstance(action, Move):
                return any(self.hex(i) == action.to for i in found.destinations)
            return any(t.id == action.transport for t, _ in self._boardings(u, found))
        if isinstance(action, Unload):
            t = self.units.get(action.transport)
            if t is None or t.side != side or t.at is None or action.unit not in t.cargo:
                return False
            c = self.units[action.unit]
            return not c.moved and any(self.hex(i) == action.to for i in unload_hexes(self, t, c, seen))
        if isinstance(action, Build):
            i = self.index(action.at)
            b = self.buildings.get(i) if i is not None else None
            if (self.unit_count(side) >= RULES.max_units or b is None or b.owner != side
                    or b.at in self.board):
                return False
            return (action.unit_type in buildable_types(self, b)
                    and RULES.units[action.unit_type].cost <= self.money[side])
        return False

    # -- applying actions ---------------------------------------------------------------------
    def apply(self, action: Action | dict) -> list[dict]:
        """Carry out one action; returns the events. Illegal: raises IllegalAction, no change."""
        if not isinstance(action, (Move, Load, Unload, Attack, Build, EndPhase, Surrender)):
            action = action_from_json(action)  # any other value: IllegalAction with a German reason
        if isinstance(action, Surrender):
            events = self._surrender(action)
            undo.clear(self, "phase")  # the game is over: nothing is taken back any more
            self._record(action)
            return events
        self._running()
        handler = {Move: self._move, Load: self._load, Unload: self._unload, Attack: self._attack,
                   Build: self._build, EndPhase: self._end_phase}.get(type(action))
        if handler is None:
            raise IllegalAction(f"Unbekannte Aktion: {show(action)}")
        events: list[dict] = []
        before = undo.before_action(self, action) if self.keep_undo else None
        handler(action, events)
        self.invalidate()
        if self.keep_undo:
            undo.after_action(self, action, events, before)
        self._record(action)
        return events

    def _record(self, action: Action) -> None:
        from .save import MAX_RECORD_ACTIONS
        if self.record_actions is not None:
            if len(self.record_actions) >= MAX_RECORD_ACTIONS:
                # Beyond any real game: keep the save loadable and small, give up the replay.
                self.record_actions, self.record_setup = None, []
                return
            self.record_actions.append(action)

    def can_undo(self) -> dict:
        """Whether the last action of this phase can be taken back (D16): {"ok", "reason", "code",
        "steps"}; `reason` is the German text the button shows when it cannot."""
        return undo.can_undo(self)

    def undo(self) -> list[dict]:
        """Restore the exact state before the last action of this phase (D16); raises IllegalAction
        with the German reason when that is not allowed. Returns [{"type": "undone", ...}]."""
        events = undo.undo(self)
        self.invalidate()
        return events

    def _move(self, a: Move, events: list[dict]) -> None:
        self._phase("move")
        u = self._own_unit(a.unit)
        if u.moved:
            raise IllegalAction(f"{u.utype.name} hat sich in diesem Zug schon bewegt.")
        dest = self._hex_index(a.to)
        found = search(self, u, self.visible(u.side))
        if dest not in found.destinations:
            raise IllegalAction(f"{u.utype.name} kann das Feld {_fmt(a.to)} nicht erreichen.")
        # -- no check after this line may fail: the state changes --
        self._walk(u, found.path(dest), events)

    def _walk(self, u: Unit, path: list[int], events: list[dict], boarding: Unit | None = None) -> bool:
        """Move `u` along `path` (R13, R18, R21); returns True if it arrived."""
        stop, ambusher = walk(self, u, path)
        arrived = ambusher is None
        walked = path[:stop + 1]
        if u.fuel is not None:  # 1 per hex entered; a boarding path already ends on the transport's hex
            u.fuel -= len(walked) - 1
        u.moved = True
        start = path[0]
        if arrived and boarding is not None:
            self.clear_capture_of(u)
            del self.board[u.at]
            u.at, u.carried_by = None, boarding.id
            boarding.cargo.append(u.id)
            events.append({"type": "loaded", "unit": u.id, "unit_type": u.type, "side": u.side,
                           "transport": boarding.id, "from": self.hex(start).to_json(),
                           "at": self.hex(path[-1]).to_json(),
                           "path": [self.hex(p).to_json() for p in path]})
            return True
        if walked[-1] != start:
            self.place(u, walked[-1])
        events.append({"type": "moved", "unit": u.id, "unit_type": u.type, "side": u.side,
                       "from": self.hex(start).to_json(), "to": self.hex(walked[-1]).to_json(),
                       "path": [self.hex(p).to_json() for p in walked]})
        if ambusher is not None:
            enemy = self.unit_at(ambusher)
            events.append({"type": "ambushed", "unit": u.id, "side": u.side,
                           "at": self.hex(walked[-1]).to_json(), "by": self.hex(ambusher).to_json(),
                           "by_type": enemy.type if enemy else None})
        return arrived

    def _load(self, a: Load, events: list[dict]) -> None:
        self._phase("move")
        u = self._own_unit(a.unit)
        t = self._own_unit(a.transport)
        if u.moved:
            raise IllegalAction(f"{u.utype.name} hat sich in diesem Zug schon bewegt.")
        if t.id == u.id:
            raise IllegalAction("Eine Einheit kann sich nicht selbst laden.")
        reason = can_carry(t, u)
        if reason:
            raise IllegalAction(reason)
        if not transfer_allowed_here(self, t, u.utype.movement):
            where = {"landungsboot": "nur in Küstengewässern oder im Hafen",
                     "faehre": "nur im Hafen"}.get(t.type, "nur auf Feldern, die die Fracht betreten darf")
            raise IllegalAction(f"{t.utype.name} lädt {where}.")
        path = boarding_path(self, u, t, search(self, u, self.visible(u.side)))
        if path is None:
            raise IllegalAction(f"{t.utype.name} ist für {u.utype.name} nicht erreichbar.")
        self._walk(u, path, events, boarding=t)

    def _unload(self, a: Unload, events: list[dict]) -> None:
        self._phase("move")
        t = self._own_unit(a.transport)
        if a.unit not in t.cargo:
            raise IllegalAction(f"{t.utype.name} hat diese Einheit nicht geladen.")
        c = self.units[a.unit]
        if c.moved:
            raise IllegalAction(f"{c.utype.name} wurde in diesem Zug schon bewegt und bleibt an Bord.")
        to = self._hex_index(a.to)
        if to not in unload_hexes(self, t, c, self.visible(t.side)):
            if not transfer_allowed_here(self, t, c.utype.movement, unloading=True):
                raise IllegalAction(f"{t.utype.name} kann hier nicht ausladen.")
            raise IllegalAction(f"{c.utype.name} kann nicht auf das Feld {_fmt(a.to)} ausgeladen werden.")
        c.moved = True
        enemy = self.unit_at(to)
        if enemy is not None:  # a hidden enemy holds the hex: the cargo stays aboard (R21)
            events.append({"type": "ambushed", "unit": c.id, "side": c.side,
                           "at": self.hex(t.at).to_json(), "by": self.hex(to).to_json(),
                           "by_type": enemy.type})
            return
        t.cargo.remove(c.id)
        c.carried_by = None
        self.place(c, to)
        events.append({"type": "unloaded", "unit": c.id, "unit_type": c.type, "side": c.side,
                       "transport": t.id, "at": self.hex(t.at).to_json(), "to": self.hex(to).to_json()})

    def _attack(self, a: Attack, events: list[dict]) -> None:
        self._phase("attack")
        u = self._own_unit(a.unit)
        name = u.utype.name
        if u.attacked:
            raise IllegalAction(f"{name} hat in diesem Zug schon angegriffen.")
        if not u.utype.armed:
            raise IllegalAction(f"{name} ist unbewaffnet.")
        if not self.has_ammo(u):
            raise IllegalAction(f"{name} hat keine Munition mehr.")
        i = self._hex_index(a.target)
        t = self.unit_at(i)
        if t is None or t.side == u.side or i not in self.visible(u.side):
            raise IllegalAction(f"Auf dem Feld {_fmt(a.target)} ist kein sichtbares Ziel.")
        if attack_value(u.utype, t.utype) is None:
            raise IllegalAction(f"{name} kann {t.utype.name} nicht angreifen.")
        if not in_range(u.utype, self.grid.dist(u.at, i)):
            lo, hi = u.utype.range
            span = f"{lo}" if lo == hi else f"{lo}–{hi}"
            raise IllegalAction(f"{t.utype.name} ist außer Reichweite ({span} Felder).")
        self._fight(u, t, events)

    def _hit(self, att: Unit, tgt: Unit, hp: int) -> int:
        """One shot with the random part (R26, D2); costs a shot (R31, D3)."""
        base = base_damage(attack_value(att.utype, tgt.utype), hp, att.level, self._defence2(tgt))
        self.rng, roll = damage_roll(self.rng)
        if att.ammo is not None:
            att.ammo -= 1
        return clamp_damage(base + roll, tgt.hp)

    def _fight(self, u: Unit, t: Unit, events: list[dict]) -> None:
        u.attacked = True
        dmg = self._hit(u, t, u.hp)
        t.hp -= dmg
        ev = {"type": "attacked", "unit": u.id, "unit_type": u.type, "side": u.side,
              "target": t.id, "target_type": t.type, "target_side": t.side,
              "from": self.hex(u.at).to_json(), "at": self.hex(t.at).to_json(),
              "damage": dmg, "counter_damage": None}
        events.append(ev)
        if t.hp <= 0:
            self._destroy(t, events)
            self._level_up(u, events)
            return
        if self._counter_possible(t, u):  # R29: once, with the hp left after the hit
            counter = self._hit(t, u, t.hp)
            u.hp -= counter
            ev["counter_damage"] = counter
            if u.hp <= 0:
                self._destroy(u, events)
                self._level_up(t, events)

    def _destroy(self, u: Unit, events: list[dict], kind: str = "destroyed") -> None:
        at = self.hex(u.at).to_json()
        lost = self.remove_unit(u)
        # End-screen counts (issue 11.11): cargo dies with its transport (R46); a crash is nobody's kill.
        self.stats[u.side]["lost"] += 1 + len(lost)
        if kind == "destroyed":
            self.stats[other_side(u.side)]["destroyed"] += 1 + len(lost)
        events.append({"type": kind, "unit": u.id, "unit_type": u.type, "side": u.side, "at": at,
                       "cargo": lost})

    def _level_up(self, u: Unit, events: list[dict]) -> None:
        """Each kill gives one level, at most 5 (R30)."""
        if u.level < RULES.max_level:
            u.level += 1
            events.append({"type": "level_up", "unit": u.id, "side": u.side,
                           "at": self.hex(u.at).to_json(), "level": u.level})

    def _build(self, a: Build, events: list[dict]) -> None:
        self._phase("move")
        i = self._hex_index(a.at)
        b = self.buildings.get(i)
        if b is None or b.owner != self.side:
            raise IllegalAction(f"Auf dem Feld {_fmt(a.at)} steht kein eigenes Gebäude.")
        ut = RULES.units[a.unit_type]
        if a.unit_type not in buildable_types(self, b):
            if self.blitz and a.unit_type not in RULES.blitz_buildable:
                raise IllegalAction(f"Im Blitz-Modus gibt es nur Bodeneinheiten, keine {ut.name}.")
            raise IllegalAction(f"{RULES.buildings[b.type].name} baut keine {ut.name}.")
        if i in self.board:
            raise IllegalAction("Das Gebäude ist besetzt; gebaut wird nur auf einem leeren Gebäude.")
        if self.money[self.side] < ut.cost:
            raise IllegalAction(f"{ut.name} kostet {ut.cost}, du hast nur {self.money[self.side]}.")
        if self.unit_count(self.side) >= RULES.max_units:
            raise IllegalAction(f"Du hast schon {RULES.max_units} Einheiten, mehr sind nicht erlaubt.")
        self.money[self.side] -= ut.cost
        # A new unit can neither move nor attack this turn (R34).
        u = self.new_unit(self.side, a.unit_type, i, moved=True, attacked=True)
        self.stats[self.side]["built"] += 1
        events.append({"type": "built", "unit": u.id, "unit_type": u.type, "side": u.side,
                       "at": self.hex(i).to_json(), "cost": ut.cost})

    def _surrender(self, a: Surrender) -> list[dict]:
        self._running()
        winner = other_side(a.side)
        self.outcome = Outcome(winner, "surrender")
        self.invalidate()
        return [{"type": "surrendered", "side": a.side},
                {"type": "game_over", "winner": winner, "reason": "surrender"}]

    def _end_phase(self, a: EndPhase, events: list[dict]) -> None:
        side = self.side
        if self.phase == "attack":
            self.phase = "move"
            events.append({"type": "phase", "side": side, "phase": "move", "round": self.round})
            start_of_move_phase(self, side, events)
            return
        # End of the move phase (D4): captures, Versorger, crashes, victory.
        end_of_move_phase_captures(self, side, events)
        if self.outcome is None:
            versorger_resupply(self, side, events)
            self._crash_check(side, events)
            self._set_outcome(check_no_army(self), events)
        if self.outcome is not None:
            return
        if side != self.first:  # both sides have had their turn: the round is over (R8)
            if self.round_limit is not None and self.round >= self.round_limit:
                self._set_outcome(round_limit_outcome(self), events)
                return
            self.round += 1
        self.side = other_side(side)
        self.phase = "attack"
        for u in self.units.values():
            if u.side == self.side:
                u.moved = u.attacked = False
        events.append({"type": "phase", "side": self.side, "phase": "attack", "round": self.round})

    def _set_outcome(self, outcome: Outcome | None, events: list[dict]) -> None:
        if outcome is not None and self.outcome is None:
            self.outcome = outcome
            events.append({"type": "game_over", "winner": outcome.winner, "reason": outcome.reason})

    def _crash_check(self, side: str, events: list[dict]) -> None:
        """Aircraft with no fuel left off an own airfield, HQ or depot crash (R19)."""
        for u in self.units_of(side):
            if u.utype.movement != "luft" or u.fuel is None or u.fuel > 0:
                continue
            b = self.buildings.get(u.at)
            if b is not None and b.owner == side and b.type in AIRCRAFT_HOMES:
                continue
            self._destroy(u, events, kind="crashed")

    # -- campaign start (FELDZUG C6, C8) ---------------------------------------------------------
    def reinforcement_sites(self, side: str, unit_type: str) -> list[int]:
        """Where an extra start unit of `unit_type` may stand (C8): the side's HQ first, then its
        free production buildings that produce that unit's movement class, in hex order."""
        if self.blitz and unit_type not in RULES.blitz_buildable:
            return []
        klass = RULES.units[unit_type].movement
        own = sorted((b for b in self.buildings.values() if b.owner == side and b.at not in self.board
                      and klass in RULES.buildings[b.type].produces),
                     key=lambda b: (b.type != "hq", b.at))
        return [b.at for b in own]

    def campaign_setup(self, side: str, *, money_delta: int = 0, units: list[str] | tuple = (),
                       round_limit: int | None = None) -> list[dict]:
        """The one hook for campaign battles (docs/campaign.md): before the first action, change a
        side's start money by `money_delta` (never below 0), place extra `units` (C8 Verstärkung) on
        its HQ or free own production buildings, and give a map without a round limit one (C6).
        Checks everything first: raises IllegalAction (German) and changes nothing."""
        if self.round != 1 or self.outcome is not None or self.side != self.first:
            raise IllegalAction("Verstärkungen gibt es nur vor dem ersten Zug einer Schlacht.")
        if side not in SIDE_NAMES:
            raise IllegalAction(f"Unbekannte Seite: {show(side)}.")
        taken: set[int] = set()
        places = []
        for ut in units:
            if ut not in RULES.units:
                raise IllegalAction(f"Unbekannter Einheitentyp: {show(ut)}.")
            free = [i for i in self.reinforcement_sites(side, ut) if i not in taken]
            if not free:
                raise IllegalAction(f"Für {RULES.units[ut].name} ist kein freies eigenes Gebäude da.")
            taken.add(free[0])
            places.append((ut, free[0]))
        if self.unit_count(side) + len(places) > RULES.max_units:
            raise IllegalAction(f"Mehr als {RULES.max_units} Einheiten sind nicht erlaubt.")
        self.money[side] = max(0, self.money[side] + money_delta)
        events = []
        for ut, at in places:
            u = self.new_unit(side, ut, at)
            events.append({"type": "built", "unit": u.id, "unit_type": ut, "side": side,
                           "at": self.hex(at).to_json(), "cost": 0})
        if round_limit is not None and self.round_limit is None:
            self.round_limit = round_limit
        if self.record_actions is not None:  # a replay starts from the scenario plus this (issue 13)
            self.record_setup.append({"side": side, "money_delta": money_delta, "units": list(units),
                                      "round_limit": round_limit})
        self.invalidate()
        return events

    # -- convenience ----------------------------------------------------------------------------
    def describe_outcome(self) -> str:
        """The end screen's sentence, in German."""
        o = self.outcome
        if o is None:
            return ""
        reasons = {"hq": "Hauptquartier erobert", "no_army": "keine Armee mehr",
                   "round_limit": "Rundenlimit erreicht", "surrender": "Aufgabe"}
        if o.winner is None:
            return f"Unentschieden ({reasons[o.reason]})."
        return f"{SIDE_NAMES[o.winner]} gewinnt ({reasons[o.reason]})."


def new_game(scenario_id: str, *, seed: int = 0, fog: bool = True) -> Game:
    """A new game on a shipped scenario. Raises KeyError for an unknown scenario id."""
    return Game.from_scenario(load_scenario(scenario_id), seed=seed, fog=fog)
