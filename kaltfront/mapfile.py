"""Reading scenario files (`maps/*.map`, format in docs/map-format.md) into `Scenario` records.

The loader checks everything a map author can get wrong and names the file and line in its German
message (`MapError`), so a broken map never reaches a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources

from .hexgrid import Hex
from .limits import MAX_BRIEFING, MAX_BUILDING_NAME, MAX_NAME, MAX_OBJECTIVE, MAX_SCENARIO_ID, show
from .rulesdata import RULES, SIDES

BUILDING_IDS = tuple(RULES.buildings)


class MapError(ValueError):
    """A map file is malformed; the message names the file and line."""


@dataclass(frozen=True)
class StartUnit:
    side: str
    type: str
    at: Hex
    hp: int = 10
    level: int = 0
    ammo: int | None = None  # None: full
    fuel: int | None = None  # None: full
    cargo: tuple[str, ...] = ()


@dataclass(frozen=True)
class StartBuilding:
    at: Hex
    type: str
    owner: str | None
    name: str = ""


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    width: int
    height: int
    terrain: tuple[str, ...]  # terrain id per hex index (row * width + col)
    buildings: tuple[StartBuilding, ...]
    units: tuple[StartUnit, ...]
    blitz: bool = False
    round_limit: int | None = None
    money: dict[str, int] = field(default_factory=lambda: {"nordbund": 0, "liga": 0})
    first: str = "nordbund"
    briefing: str = ""
    objectives: dict[str, str] = field(default_factory=dict)
    region: str = ""

    def summary(self) -> dict:
        return {"id": self.id, "name": self.name, "blitz": self.blitz, "width": self.width,
                "height": self.height, "round_limit": self.round_limit, "briefing": self.briefing,
                "objectives": dict(self.objectives), "region": self.region,
                "hq": {b.owner: {"at": b.at.to_json(), "name": b.name}
                       for b in self.buildings if b.type == "hq"}}


def _int(text: str, what: str, where: str, lo: int | None = None, hi: int | None = None) -> int:
    try:
        v = int(text)
    except ValueError:
        raise MapError(f"{where}: {what} muss eine ganze Zahl sein, nicht {show(text)}") from None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise MapError(f"{where}: {what} {v} liegt nicht zwischen {lo} und {hi}")
    return v


def parse_map(text: str, scenario_id: str, filename: str = "") -> Scenario:
    """Parse and validate a map file's text. Raises MapError naming the line."""
    fname = filename or f"{scenario_id}.map"
    section = None
    meta: dict[str, tuple[str, int]] = {}
    terrain_rows: list[tuple[list[str], int]] = []
    building_lines: list[tuple[list[str], int]] = []
    unit_lines: list[tuple[list[str], int]] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        where = f"{fname}, Zeile {lineno}"
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
            if section not in ("map", "terrain", "buildings", "units"):
                raise MapError(f"{where}: unbekannter Abschnitt [{section}]")
            continue
        if section is None:
            raise MapError(f"{where}: Text vor dem ersten Abschnitt ([map])")
        if " #" in line:
            line = line[:line.index(" #")].rstrip()
            stripped = line.strip()
        if section == "map":
            if "=" not in line:
                raise MapError(f"{where}: erwartet 'schlüssel = wert'")
            key, value = (s.strip() for s in line.split("=", 1))
            if key in meta:
                raise MapError(f"{where}: '{key}' steht doppelt")
            meta[key] = (value, lineno)
        elif section == "terrain":
            terrain_rows.append((stripped.split(), lineno))
        elif section == "buildings":
            building_lines.append((stripped.split(None, 3), lineno))
        else:
            unit_lines.append((stripped.split(), lineno))

    def m(key: str, default: str | None = None) -> tuple[str | None, str]:
        if key in meta:
            v, ln = meta[key]
            return v, f"{fname}, Zeile {ln}"
        return default, fname

    known = {"name", "blitz", "round_limit", "money", "first", "briefing", "region",
             "objective.nordbund", "objective.liga"}
    for key, (_, ln) in meta.items():
        if key not in known:
            raise MapError(f"{fname}, Zeile {ln}: unbekannter Schlüssel '{key}'")
    name, where = m("name")
    if not name:
        raise MapError(f"{fname}: [map] braucht 'name = …'")
    # Texts are capped (issue 10): every save, observation and bridge reply carries them.
    for key, limit in (("name", MAX_NAME), ("region", MAX_NAME), ("briefing", MAX_BRIEFING),
                       ("objective.nordbund", MAX_OBJECTIVE), ("objective.liga", MAX_OBJECTIVE)):
        text, at = m(key, "")
        if len(text) > limit:
            raise MapError(f"{at}: {key} ist zu lang ({len(text)} Zeichen, höchstens {limit})")
    if len(scenario_id) > MAX_SCENARIO_ID:
        raise MapError(f"{fname}: der Kartenname ist zu lang (höchstens {MAX_SCENARIO_ID} Zeichen)")
    blitz_text, where = m("blitz", "false")
    if blitz_text not in ("true", "false"):
        raise MapError(f"{where}: blitz muss true oder false sein")
    blitz = blitz_text == "true"
    rl_text, where = m("round_limit", "none")
    round_limit = None if rl_text == "none" else _int(rl_text, "round_limit", where, 1, 999)
    if blitz and round_limit != RULES.blitz_rounds:
        raise MapError(f"{where}: Blitz-Karten haben round_limit = {RULES.blitz_rounds} (R66)")
    money_text, where = m("money", f"{RULES.blitz_money} {RULES.blitz_money}" if blitz else "0 0")
    parts = money_text.split()
    if len(parts) != 2:
        raise MapError(f"{where}: money braucht zwei Zahlen (Nordbund Liga)")
    money = {s: _int(p, "money", where, 0, 10**7) for s, p in zip(SIDES, parts)}
    if blitz and set(money.values()) != {RULES.blitz_money}:
        raise MapError(f"{where}: Blitz-Karten starten mit money = {RULES.blitz_money} {RULES.blitz_money} (R71)")
    first, where = m("first", "nordbund")
    if first not in SIDES:
        raise MapError(f"{where}: first muss nordbund oder liga sein")

    if not terrain_rows:
        raise MapError(f"{fname}: Abschnitt [terrain] fehlt oder ist leer")
    width = len(terrain_rows[0][0])
    terrain: list[str] = []
    for tokens, ln in terrain_rows:
        where = f"{fname}, Zeile {ln}"
        if len(tokens) != width:
            raise MapError(f"{where}: {len(tokens)} Felder in der Zeile, die erste Zeile hat {width}")
        for tok in tokens:
            t = RULES.terrain_by_char.get(tok)
            if t is None or len(tok) != 1:
                raise MapError(f"{where}: unbekanntes Geländezeichen {show(tok)}")
            terrain.append(t.id)
    height = len(terrain_rows)

    def hex_at(col_t: str, row_t: str, where: str) -> Hex:
        col = _int(col_t, "Spalte", where, 0, width - 1)
        row = _int(row_t, "Zeile", where, 0, height - 1)
        return Hex(col, row)

    owners: dict[Hex, tuple[str | None, str]] = {}
    for tokens, ln in building_lines:
        where = f"{fname}, Zeile {ln}"
        if len(tokens) < 3:
            raise MapError(f"{where}: erwartet 'spalte zeile besitzer [name]'")
        h = hex_at(tokens[0], tokens[1], where)
        if terrain[h.row * width + h.col] not in BUILDING_IDS:
            raise MapError(f"{where}: auf Feld {h.col} {h.row} steht kein Gebäude")
        if h in owners:
            raise MapError(f"{where}: Gebäude {h.col} {h.row} steht doppelt")
        owner = tokens[2]
        if owner not in SIDES + ("neutral",):
            raise MapError(f"{where}: Besitzer muss nordbund, liga oder neutral sein, nicht {show(owner)}")
        bname = tokens[3] if len(tokens) > 3 else ""
        if len(bname) > MAX_BUILDING_NAME:
            raise MapError(f"{where}: der Name des Gebäudes ist zu lang ({len(bname)} Zeichen, "
                           f"höchstens {MAX_BUILDING_NAME})")
        owners[h] = (None if owner == "neutral" else owner, bname)
    buildings = []
    hqs: dict[str, list[Hex]] = {s: [] for s in SIDES}
    for i, tid in enumerate(terrain):
        if tid in BUILDING_IDS:
            h = Hex(i % width, i // width)
            row_where = f"{fname}, Zeile {terrain_rows[h.row][1]}"  # the terrain row holding the hex
            owner, bname = owners.get(h, (None, ""))
            if tid == "hq":
                if owner is None:
                    raise MapError(f"{row_where}: das HQ auf Feld {h.col} {h.row} braucht einen Besitzer "
                                   f"(unter [buildings])")
                hqs[owner].append(h)
                if len(hqs[owner]) > 1:
                    raise MapError(f"{row_where}: {owner} hat schon ein HQ, Feld {h.col} {h.row} wäre das "
                                   f"zweite (R36)")
            if blitz and tid in ("hafen", "flugplatz"):
                raise MapError(f"{row_where}: Blitz-Karten haben keine Häfen und Flugplätze (R69), "
                               f"Feld {h.col} {h.row}")
            buildings.append(StartBuilding(h, tid, owner, bname))
    for side in SIDES:
        if len(hqs[side]) != 1:
            raise MapError(f"{fname}: {side} braucht genau ein HQ, die Karte hat {len(hqs[side])} (R36)")

    units: list[StartUnit] = []
    occupied: set[Hex] = set()
    for tokens, ln in unit_lines:
        where = f"{fname}, Zeile {ln}"
        if len(tokens) < 4:
            raise MapError(f"{where}: erwartet 'seite typ spalte zeile [hp=…] …'")
        side, utype = tokens[0], tokens[1]
        if side not in SIDES:
            raise MapError(f"{where}: Seite muss nordbund oder liga sein, nicht {show(side)}")
        if utype not in RULES.units:
            raise MapError(f"{where}: unbekannter Einheitentyp {show(utype)}")
        ut = RULES.units[utype]
        h = hex_at(tokens[2], tokens[3], where)
        if h in occupied:
            raise MapError(f"{where}: auf Feld {h.col} {h.row} steht schon eine Einheit")
        tid = terrain[h.row * width + h.col]
        if RULES.terrain[tid].cost[ut.movement] is None:
            raise MapError(f"{where}: {ut.name} kann {RULES.terrain[tid].name} nicht betreten")
        if blitz and utype not in RULES.blitz_buildable:
            raise MapError(f"{where}: im Blitz-Modus gibt es nur Bodeneinheiten (R69), nicht {ut.name}")
        opts: dict[str, object] = {}
        for opt in tokens[4:]:
            if "=" not in opt:
                raise MapError(f"{where}: unverständliche Angabe {show(opt)}")
            k, v = opt.split("=", 1)
            if k == "hp":
                opts["hp"] = _int(v, "hp", where, 1, RULES.start_hp)
            elif k == "level":
                opts["level"] = _int(v, "level", where, 0, RULES.max_level)
            elif k == "ammo":
                opts["ammo"] = _int(v, "ammo", where, 0, ut.ammo or 0)
            elif k == "fuel":
                opts["fuel"] = _int(v, "fuel", where, 0, ut.fuel or 0)
            elif k == "cargo":
                cargo = tuple(c for c in v.split(",") if c)
                for c in cargo:
                    if c not in RULES.units:
                        raise MapError(f"{where}: unbekannter Einheitentyp {show(c)} in cargo")
                    if RULES.units[c].movement not in ut.transport_classes:
                        raise MapError(f"{where}: {ut.name} kann {RULES.units[c].name} nicht laden")
                if len(cargo) > ut.transport_slots:
                    raise MapError(f"{where}: {ut.name} hat nur {ut.transport_slots} Plätze")
                opts["cargo"] = cargo
            else:
                raise MapError(f"{where}: unbekannte Angabe {show(k)}")
        occupied.add(h)
        units.append(StartUnit(side=side, type=utype, at=h, **opts))  # type: ignore[arg-type]
    for side in SIDES:
        count = sum(1 + len(u.cargo) for u in units if u.side == side)
        if count > RULES.max_units:
            raise MapError(f"{fname}: {side} hat {count} Einheiten, höchstens {RULES.max_units} (D9)")

    if blitz:  # R71: every Blitz side starts with the same army (cargo counted)
        want = sorted(RULES.blitz_start_army)
        for side in SIDES:
            army = sorted([u.type for u in units if u.side == side]
                          + [c for u in units if u.side == side for c in u.cargo])
            if army != want:
                names = ", ".join(RULES.units[t].name for t in want)
                raise MapError(f"{fname}: im Blitz-Modus startet {side} mit genau diesen Einheiten (R71): "
                               f"{names}; die Karte hat {', '.join(RULES.units[t].name for t in army) or 'keine'}")
    objectives = {}
    for side in SIDES:
        obj, _ = m(f"objective.{side}", "")
        objectives[side] = obj or ""
    briefing, _ = m("briefing", "")
    region, _ = m("region", "")
    return Scenario(
        id=scenario_id, name=name, width=width, height=height, terrain=tuple(terrain),
        buildings=tuple(buildings), units=tuple(units), blitz=blitz, round_limit=round_limit,
        money=money, first=first, briefing=briefing or "", objectives=objectives, region=region or "",
    )


_cache: dict[str, Scenario] = {}


def scenario_ids() -> list[str]:
    folder = resources.files("kaltfront").joinpath("maps")
    return sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".map"))


def load_scenario(scenario_id: str) -> Scenario:
    """The shipped scenario with this id; raises KeyError for an unknown id (or one that is no text)."""
    if not isinstance(scenario_id, str):
        raise KeyError(scenario_id)
    if scenario_id not in _cache:
        if scenario_id not in scenario_ids():
            raise KeyError(scenario_id)
        path = resources.files("kaltfront").joinpath(f"maps/{scenario_id}.map")
        _cache[scenario_id] = parse_map(path.read_text(encoding="utf-8"), scenario_id)
    return _cache[scenario_id]
