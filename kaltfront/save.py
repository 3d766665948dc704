"""The save format: versioned JSON that holds a whole game (docs/save-format.md).

A save carries its own map, so it loads even if the shipped map changes, and a person can write any
position by hand. Loading checks everything; a corrupt, truncated, foreign or newer save raises
`SaveError` with a German reason and never yields a half-loaded game.
"""

from __future__ import annotations

import json

from .hexgrid import Hex
from .limits import (parse_json, MAX_BRIEFING, MAX_BUILDING_NAME, MAX_COORD, MAX_ID, MAX_MONEY, MAX_NAME,
                     MAX_OBJECTIVE, MAX_ROUND, MAX_SCENARIO_ID, is_id, is_int, show)
from .rulesdata import RULES, SIDES
from .state import Building, Outcome, Unit, grid_for

FORMAT = "kaltfront-save"
VERSION = 1


# The keys each part of a save may have; anything else is refused with its name, so a typo in a
# hand-written save does not pass silently. A new save field must be added here (and to
# docs/save-format.md).
SAVE_KEYS = {"format", "version", "scenario", "name", "briefing", "objectives", "region", "map", "blitz",
             "fog", "round_limit", "first", "round", "side", "phase", "money", "buildings", "units",
             "next_id", "rng", "outcome", "stats", "undo", "record"}  # stats: issue 11.11, optional
UNDO_KEYS = {"block", "base", "actions"}  # issue 13 (D16)
UNDO_BASE_KEYS = {"units", "buildings", "money", "next_id", "stats", "block"}
RECORD_KEYS = {"seed", "actions", "setup"}
RECORD_SETUP_KEYS = {"side", "money_delta", "units", "round_limit"}
MAP_KEYS = {"width", "height", "terrain"}
BUILDING_KEYS = {"at", "type", "owner", "name", "capture"}
CAPTURE_KEYS = {"side", "unit"}
UNIT_KEYS = {"id", "type", "side", "at", "hp", "level", "ammo", "fuel", "moved", "attacked", "cargo"}
OUTCOME_KEYS = {"winner", "reason"}
# A save's text is at most this long: the largest map (200 x 200) with 120 units is about 60 000
# characters; this bounds the work a hostile file can cause before the checks below reject it.
MAX_SAVE_CHARS = 2_000_000


class SaveError(ValueError):
    """A save cannot be loaded; str(e) says why, in German."""


def _unit_to_dict(g, u: Unit) -> dict:
    d = {"id": u.id, "type": u.type, "side": u.side}
    if u.at is not None:
        d["at"] = g.hex(u.at).to_json()
    d.update({"hp": u.hp, "level": u.level, "ammo": u.ammo, "fuel": u.fuel, "moved": u.moved,
              "attacked": u.attacked})
    if u.cargo:
        d["cargo"] = [_unit_to_dict(g, g.units[c]) for c in u.cargo]
    return d


def units_to_list(g) -> list[dict]:
    return [_unit_to_dict(g, u) for u in sorted(g.units.values(), key=lambda x: x.id) if u.at is not None]


def buildings_to_list(g) -> list[dict]:
    return [{"at": g.hex(b.at).to_json(), "type": b.type, "owner": b.owner, "name": b.name,
             "capture": ({"side": b.capture_side, "unit": b.capture_unit}
                         if b.capture_side is not None else None)}
            for b in sorted(g.buildings.values(), key=lambda x: x.at)]


def game_to_dict(g, history: bool = True) -> dict:
    """The save dict; `history=False` leaves out the undo history and the replay record."""
    chars = [RULES.terrain[t].char for t in g.terrain]
    w = g.width
    d = {
        "format": FORMAT, "version": VERSION,
        "scenario": g.scenario_id, "name": g.name, "briefing": g.briefing,
        "objectives": dict(g.objectives), "region": g.region,
        "map": {"width": g.width, "height": g.height,
                "terrain": ["".join(chars[r * w:(r + 1) * w]) for r in range(g.height)]},
        "blitz": g.blitz, "fog": g.fog, "round_limit": g.round_limit, "first": g.first,
        "round": g.round, "side": g.side, "phase": g.phase, "money": dict(g.money),
        "buildings": buildings_to_list(g),
        "units": units_to_list(g),
        "next_id": g.next_id, "rng": g.rng,
        "outcome": g.outcome.to_json() if g.outcome else None,
        "stats": {s: dict(g.stats[s]) for s in SIDES},
    }
    if history:
        d["undo"] = {"block": g.undo_block, "base": g.undo_base,
                     "actions": [a.to_json() for a in g.undo_actions]}
        d["record"] = (None if g.record_actions is None else
                       {"seed": g.record_seed, "actions": [a.to_json() for a in g.record_actions]})
        if g.record_actions is not None and g.record_setup:
            d["record"]["setup"] = [dict(s) for s in g.record_setup]
    return d


def dumps(g) -> str:
    return json.dumps(game_to_dict(g), ensure_ascii=False, separators=(",", ":"))


def loads(text: str | bytes | dict):
    """A game from a save's text (or its parsed JSON); raises SaveError, and only SaveError, with a
    German reason for anything else."""
    if not isinstance(text, (str, bytes, bytearray)):
        data = text  # already parsed JSON; game_from_dict says what is wrong with it
    else:
        if len(text) > MAX_SAVE_CHARS:
            raise SaveError(f"Der Spielstand ist zu groß (mehr als {MAX_SAVE_CHARS // 1_000_000} Millionen "
                            f"Zeichen); so große Spielstände gibt es nicht.")
        data = parse_json(text, SaveError, "Der Spielstand")
    return game_from_dict(data)


# -- checking ------------------------------------------------------------------------------------

def _need(cond: bool, message: str) -> None:
    if not cond:
        raise SaveError(f"Der Spielstand ist ungültig: {message}")


_is_int = is_int


def _keys(d: dict, allowed: set[str], where: str) -> None:
    for key in d:
        if key not in allowed:  # the message is built only when needed: loads are hot in the AI
            _need(False, f"{where}: unbekanntes Feld {show(key)}.")


def _text(v: object, what: str, limit: int) -> str:
    _need(isinstance(v, str), f"{what} muss Text sein.")
    _need(len(v) <= limit, f"{what} ist zu lang ({len(v)} Zeichen, höchstens {limit}).")
    return v


def _int(d: dict, key: str, lo: int, hi: int, where: str) -> int:
    v = d.get(key)
    if not (_is_int(v) and lo <= v <= hi):
        _need(False, f"{where}: '{key}' muss eine Zahl von {lo} bis {hi} sein.")
    return v


def _hex(v: object, g, where: str) -> int:
    _need(isinstance(v, list) and len(v) == 2 and all(_is_int(x) and abs(x) <= MAX_COORD for x in v),
          f"{where}: Feld muss [Spalte, Zeile] sein.")
    h = Hex(v[0], v[1])
    if not g.grid.contains(h):
        _need(False, f"{where}: Feld {v} liegt nicht auf der Karte.")
    return g.grid.index(h)


def migrate(data: dict) -> dict:
    """Bring an older save up to VERSION. Version 1 is the first; older ones never existed."""
    version = data.get("version")
    _need(_is_int(version), "die Versionsnummer fehlt.")
    if version > VERSION:
        raise SaveError(f"Dieser Spielstand stammt aus einer neueren Version von Kaltfront "
                        f"(Format {show(version)}, dieses Spiel kennt bis {VERSION}). Bitte aktualisiere das Spiel.")
    if version < 1:
        raise SaveError(f"Spielstand-Format {show(version)} wird nicht unterstützt.")
    return data


def game_copy(g):
    """The same game as `game_from_dict(game_to_dict(g, history=False))`, without the round trip.

    The AI asks the engine about hundreds of what-if positions per turn, and the JSON round trip with
    its checks was a sixth of its think time on a big map (issue 16). The copy is built in the order
    a load gives: buildings by hex, units by id with each carrier's cargo right after it, so anything
    that walks the units or the board answers exactly as it would on the loaded game. No undo
    history and no replay record, as with `history=False`."""
    from .game import Game

    n = Game()
    n.scenario_id, n.name, n.briefing, n.region = g.scenario_id, g.name, g.briefing, g.region
    n.objectives = dict(g.objectives)
    n.width, n.height, n.grid, n.terrain = g.width, g.height, g.grid, list(g.terrain)
    n.blitz, n.fog, n.round_limit = g.blitz, g.fog, g.round_limit
    n.first, n.side, n.phase, n.round = g.first, g.side, g.phase, g.round
    n.money, n.rng, n.next_id = dict(g.money), g.rng, g.next_id
    n.outcome = Outcome(g.outcome.winner, g.outcome.reason) if g.outcome else None
    n.stats = {s: dict(g.stats[s]) for s in SIDES}
    for i in sorted(g.buildings):
        b = g.buildings[i]
        n.buildings[i] = Building(at=i, type=b.type, owner=b.owner, name=b.name,
                                  capture_side=b.capture_side,
                                  capture_unit=b.capture_unit if b.capture_side is not None else None)
    units, board = n.units, n.board

    def put(u: Unit, carrier: int | None) -> None:
        units[u.id] = Unit(id=u.id, type=u.type, side=u.side, at=u.at, hp=u.hp, level=u.level,
                           ammo=u.ammo, fuel=u.fuel, moved=u.moved, attacked=u.attacked,
                           cargo=list(u.cargo), carried_by=carrier)
        if u.at is not None:
            board[u.at] = u.id
        for c in u.cargo:
            put(g.units[c], u.id)

    for u in sorted(g.units.values(), key=lambda x: x.id):
        if u.at is not None:
            put(u, None)
    n._cost_cache = dict(g._cost_cache)  # costs per hex depend on the terrain alone
    return n


def game_from_dict(data: object):
    from .game import Game

    _need(isinstance(data, dict), "erwartet ein JSON-Objekt.")
    if data.get("format") != FORMAT:
        raise SaveError("Das ist kein Kaltfront-Spielstand.")
    data = migrate(data)
    _keys(data, SAVE_KEYS, "Spiel")
    g = Game()
    _need(isinstance(data.get("scenario"), str), "'scenario' fehlt.")
    g.scenario_id = _text(data["scenario"], "'scenario'", MAX_SCENARIO_ID)
    g.name = _text(data.get("name", ""), "'name'", MAX_NAME)
    g.briefing = _text(data.get("briefing", ""), "'briefing'", MAX_BRIEFING)
    g.region = _text(data.get("region", ""), "'region'", MAX_NAME)
    obj = data.get("objectives", {})
    _need(isinstance(obj, dict) and all(k in SIDES and isinstance(v, str) for k, v in obj.items()),
          "'objectives' muss Texte je Seite (nordbund, liga) enthalten.")
    for k, v in obj.items():
        _text(v, f"objectives.{k}", MAX_OBJECTIVE)
    g.objectives = dict(obj)
    m = data.get("map")
    _need(isinstance(m, dict), "die Karte ('map') fehlt.")
    _keys(m, MAP_KEYS, "map")
    w = _int(m, "width", 1, 200, "map")
    h = _int(m, "height", 1, 200, "map")
    rows = m.get("terrain")
    _need(isinstance(rows, list) and len(rows) == h and all(isinstance(r, str) and len(r) == w for r in rows),
          f"map.terrain muss {h} Zeilen zu je {w} Zeichen haben.")
    terrain = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            t = RULES.terrain_by_char.get(ch)
            if t is None:
                _need(False, f"unbekanntes Geländezeichen {show(ch)} auf Feld [{c}, {r}].")
            terrain.append(t.id)
    g.width, g.height, g.grid, g.terrain = w, h, grid_for(w, h), terrain
    for key in ("blitz", "fog"):
        _need(isinstance(data.get(key), bool), f"'{key}' muss true oder false sein.")
    g.blitz, g.fog = data["blitz"], data["fog"]
    rl = data.get("round_limit")
    # Bounded like every number a save holds: an integer of thousands of digits loaded, then made
    # saving fail (Python will not write it as text), found by the issue-10 fuzz test.
    _need(rl is None or (_is_int(rl) and 1 <= rl <= MAX_ROUND),
          f"'round_limit' muss null oder eine Zahl von 1 bis {MAX_ROUND} sein.")
    g.round_limit = rl
    _need(data.get("first") in SIDES and data.get("side") in SIDES, "'first'/'side' muss nordbund oder liga sein.")
    g.first, g.side = data["first"], data["side"]
    _need(data.get("phase") in ("attack", "move"), "'phase' muss attack oder move sein.")
    g.phase = data["phase"]
    g.round = _int(data, "round", 1, MAX_ROUND, "Spiel")
    money = data.get("money")
    _need(isinstance(money, dict) and set(money) == set(SIDES)
          and all(_is_int(v) and 0 <= v <= MAX_MONEY for v in money.values()),
          f"'money' braucht nordbund und liga von 0 bis {MAX_MONEY}.")
    g.money = dict(money)
    g.rng = _int(data, "rng", 0, (1 << 64) - 1, "Spiel")

    blist = data.get("buildings")
    _need(isinstance(blist, list), "'buildings' fehlt.")
    for k, bd in enumerate(blist):
        where = f"Gebäude {k + 1}"
        _need(isinstance(bd, dict), f"{where} ist kein Objekt.")
        _keys(bd, BUILDING_KEYS, where)
        i = _hex(bd.get("at"), g, where)
        if bd.get("type") != terrain[i]:
            _need(False, f"{where}: Typ {show(bd.get('type'))} passt nicht zum Gelände '{terrain[i]}'.")
        _need(i not in g.buildings, f"{where} steht doppelt.")
        _need(bd.get("owner") in SIDES + (None,), f"{where}: Besitzer muss nordbund, liga oder null sein.")
        _text(bd.get("name", ""), f"{where}: Name", MAX_BUILDING_NAME)
        b = Building(at=i, type=terrain[i], owner=bd.get("owner"), name=bd.get("name", ""))
        cap = bd.get("capture")
        if cap is not None:
            _need(isinstance(cap, dict) and cap.get("side") in SIDES and is_id(cap.get("unit")),
                  f"{where}: 'capture' braucht side und unit.")
            _keys(cap, CAPTURE_KEYS, f"{where}, capture")
            b.capture_side, b.capture_unit = cap["side"], cap["unit"]
        g.buildings[i] = b
    for i, t in enumerate(terrain):
        if t in RULES.buildings and i not in g.buildings:
            _need(False, f"das Gebäude auf Feld {g.hex(i).to_json()} fehlt in 'buildings'.")

    ulist = data.get("units")
    _need(isinstance(ulist, list), "'units' fehlt.")

    def read_unit(ud: object, where: str, carrier: Unit | None) -> Unit:
        _need(isinstance(ud, dict), f"{where} ist kein Objekt.")
        _keys(ud, UNIT_KEYS, where)
        uid = _int(ud, "id", 1, MAX_ID, where)
        _need(uid not in g.units, f"{where}: Nummer {uid} kommt doppelt vor.")
        utype = ud.get("type")
        if not (isinstance(utype, str) and utype in RULES.units):
            _need(False, f"{where}: unbekannter Typ {show(utype)}.")
        ut = RULES.units[utype]
        _need(ud.get("side") in SIDES, f"{where}: Seite muss nordbund oder liga sein.")
        if carrier is None:
            at = _hex(ud.get("at"), g, where)
            if at in g.board:
                _need(False, f"{where}: auf Feld {ud.get('at')} steht schon eine Einheit.")
            if RULES.terrain[terrain[at]].cost[ut.movement] is None:
                _need(False, f"{where}: {ut.name} kann {RULES.terrain[terrain[at]].name} nicht betreten.")
        else:
            _need("at" not in ud, f"{where}: Fracht hat kein eigenes Feld.")
            _need(ud["side"] == carrier.side, f"{where}: Fracht gehört zur Seite des Transporters.")
            _need(ut.movement in carrier.utype.transport_classes,
                  f"{where}: {carrier.utype.name} kann {ut.name} nicht laden.")
            at = None
        hp = _int(ud, "hp", 1, RULES.start_hp, where)
        level = _int(ud, "level", 0, RULES.max_level, where)
        if g.blitz or ut.ammo is None:
            _need(ud.get("ammo") is None, f"{where}: 'ammo' muss null sein.")
            ammo = None
        else:
            ammo = _int(ud, "ammo", 0, ut.ammo, where)
        if g.blitz or ut.fuel is None:
            _need(ud.get("fuel") is None, f"{where}: 'fuel' muss null sein.")
            fuel = None
        else:
            fuel = _int(ud, "fuel", 0, ut.fuel, where)
        for key in ("moved", "attacked"):
            _need(isinstance(ud.get(key), bool), f"{where}: '{key}' muss true oder false sein.")
        u = Unit(id=uid, type=utype, side=ud["side"], at=at, hp=hp, level=level, ammo=ammo,
                 fuel=fuel, moved=ud["moved"], attacked=ud["attacked"],
                 carried_by=carrier.id if carrier else None)
        g.units[uid] = u
        if at is not None:
            g.board[at] = uid
        cargo = ud.get("cargo", [])
        _need(isinstance(cargo, list), f"{where}: 'cargo' muss eine Liste sein.")
        _need(len(cargo) <= ut.transport_slots, f"{where}: {ut.name} hat nur {ut.transport_slots} Plätze.")
        for k, cd in enumerate(cargo):
            c = read_unit(cd, f"{where}, Fracht {k + 1}", u)
            _need(not c.cargo, f"{where}: Fracht kann nicht selbst beladen sein.")
            u.cargo.append(c.id)
        return u

    for k, ud in enumerate(ulist):
        read_unit(ud, f"Einheit {k + 1}", None)
    for side in SIDES:
        _need(g.unit_count(side) <= RULES.max_units, f"{side} hat mehr als {RULES.max_units} Einheiten.")
    g.next_id = _int(data, "next_id", 1, MAX_ID + 1, "Spiel")
    _need(all(uid < g.next_id for uid in g.units), "'next_id' muss größer als jede Einheitennummer sein.")
    for b in g.buildings.values():
        if b.capture_unit is not None:
            _need(b.capture_unit in g.units, f"Eroberung auf {g.hex(b.at).to_json()}: Einheit fehlt.")
    out = data.get("outcome")
    if out is not None:
        _need(isinstance(out, dict) and "winner" in out and out["winner"] in SIDES + (None,)
              and out.get("reason") in ("hq", "no_army", "round_limit", "surrender"),
              "'outcome' braucht winner und reason.")
        _keys(out, OUTCOME_KEYS, "outcome")
        g.outcome = Outcome(out["winner"], out["reason"])
    stats = data.get("stats")  # optional: saves from before issue 11.11 have none (counts start at 0)
    if stats is not None:
        _need(isinstance(stats, dict) and set(stats) == set(SIDES), "'stats' braucht nordbund und liga.")
        for side in SIDES:
            _need(isinstance(stats[side], dict) and set(stats[side]) == {"built", "lost", "destroyed"},
                  f"'stats' von {side} braucht built, lost und destroyed.")
            g.stats[side] = {k: _int(stats[side], k, 0, 10**9, f"stats {side}") for k in ("built", "lost", "destroyed")}
    g.invalidate()
    _read_record(data, g)
    _read_undo(data, g)
    return g


# Generous caps: a phase has at most a few hundred undoable actions (60 units, their cargo, builds);
# a long game a few thousand actions in all. 30 000 recorded actions (about 1.3 million characters)
# keep a save under MAX_SAVE_CHARS; a game that goes beyond drops its record (Game._record).
MAX_UNDO_ACTIONS = 1000
MAX_RECORD_ACTIONS = 30_000


def _actions(v: object, cap: int, where: str) -> list:
    from .actions import IllegalAction, action_from_json
    _need(isinstance(v, list) and len(v) <= cap, f"'{where}' muss eine Liste mit höchstens {cap} Aktionen sein.")
    out = []
    for k, a in enumerate(v):
        try:
            out.append(action_from_json(a))
        except IllegalAction as e:
            raise SaveError(f"Der Spielstand ist ungültig: {where}, Aktion {k + 1}: {e}") from None
    return out


def _read_record(data: dict, g) -> None:
    """The replay record (issue 13): the seed the game started from and every action since."""
    rec = data.get("record")
    if rec is None:
        return
    _need(isinstance(rec, dict), "'record' muss null oder ein Objekt sein.")
    _keys(rec, RECORD_KEYS, "record")
    seed = rec.get("seed")
    _need(_is_int(seed) and 0 <= seed < (1 << 64), "record.seed muss eine Zahl von 0 bis 2^64-1 sein.")
    g.record_seed, g.record_actions = seed, _actions(rec.get("actions"), MAX_RECORD_ACTIONS, "record.actions")
    setup = rec.get("setup", [])
    _need(isinstance(setup, list) and len(setup) <= 4, "record.setup muss eine Liste mit höchstens 4 Einträgen sein.")
    for k, s in enumerate(setup):
        where = f"record.setup, Eintrag {k + 1}"
        _need(isinstance(s, dict) and set(s) == RECORD_SETUP_KEYS
              and s["side"] in SIDES and _is_int(s["money_delta"]) and abs(s["money_delta"]) <= 10**6
              and isinstance(s["units"], list) and len(s["units"]) <= RULES.max_units
              and all(isinstance(t, str) and t in RULES.units for t in s["units"])
              and (s["round_limit"] is None or (_is_int(s["round_limit"]) and 1 <= s["round_limit"] <= MAX_ROUND)),
              f"{where} braucht side, money_delta, units und round_limit.")
    g.record_setup = [dict(s) for s in setup]


def _read_undo(data: dict, g) -> None:
    """The undo history (D16), checked by replaying it: it must lead exactly to the saved state."""
    from .actions import IllegalAction
    from .undo import REASONS, UNDOABLE
    u = data.get("undo")
    if u is None:  # saves written before undo existed
        return
    _need(isinstance(u, dict), "'undo' muss ein Objekt sein.")
    _keys(u, UNDO_KEYS, "undo")
    block = u.get("block", "phase")
    # A list or object is no reason either (found by the issue-10 fuzz test: TypeError, not SaveError).
    _need(isinstance(block, str) and block in REASONS, f"undo.block: unbekannter Grund {show(block)}.")
    g.undo_block = block
    actions = _actions(u.get("actions", []), MAX_UNDO_ACTIONS, "undo.actions")
    base = u.get("base")
    if not actions:
        _need(base is None, "undo.base muss null sein, wenn es nichts zurückzunehmen gibt.")
        return
    _need(g.outcome is None, "eine beendete Partie hat nichts zurückzunehmen.")
    _need(isinstance(base, dict) and set(base) == UNDO_BASE_KEYS
          and isinstance(base["block"], str) and base["block"] in REASONS,
          "undo.base braucht units, buildings, money, next_id, stats und block.")
    d = {k: v for k, v in data.items() if k not in ("undo", "record")}
    # A save without "stats" (before issue 11.11, or with them deleted by hand) counts from zero:
    # then the counts are left out of the check, as they are out of the save.
    with_stats = "stats" in data
    d.update({k: base[k] for k in ("units", "buildings", "money", "next_id") + (("stats",) if with_stats else ())})
    try:
        start = game_from_dict(d)
    except SaveError as e:
        raise SaveError(f"{e} (im Rückgängig-Verlauf)") from None
    start.undo_block = base["block"]
    for k, a in enumerate(actions):
        where = f"undo.actions, Aktion {k + 1}"
        _need(isinstance(a, UNDOABLE), f"{where} lässt sich nicht zurücknehmen.")
        try:
            start.apply(a)
        except IllegalAction as e:
            raise SaveError(f"Der Spielstand ist ungültig: {where}: {e}") from None
        _need(len(start.undo_actions) == k + 1, f"{where} lässt sich nicht zurücknehmen.")
    mine, theirs = game_to_dict(start, history=False), game_to_dict(g, history=False)
    if not with_stats:
        mine.pop("stats", None), theirs.pop("stats", None)
    _need(mine == theirs, "der Rückgängig-Verlauf führt nicht zum gespeicherten Stand.")
    g.undo_base, g.undo_actions = start.undo_base, start.undo_actions
