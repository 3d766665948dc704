"""The game data (data/rules.json) against the rulebook: the 19 units and their classes (D1), every
fixed value REQUIREMENTS.md lists under "Fixed values", the terrain table (R47), the armour classes
(R24, R25), the transports (R39, R43–R45) and the building roles (D5)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

import kaltfront
from kaltfront.rulesdata import ARMOUR_CLASSES, MOVEMENT_CLASSES, RULES

RAW = json.loads(resources.files("kaltfront").joinpath("data/rules.json").read_text(encoding="utf-8"))
UNITS = RAW["units"]
TERRAIN = RAW["terrain"]
BUILDINGS = RAW["buildings"]

D1_CLASSES = {
    "fuss": ["jaeger", "pionier", "panzerjaeger"],
    "rad": ["spaehwagen", "raketenwerfer", "transporter", "versorger"],
    "kette": ["schuetzenpanzer", "kampfpanzer", "panzerhaubitze", "flugabwehr"],
    "luft": ["kampfhubschrauber", "transporthubschrauber", "kampfjet", "drohne"],
    "see": ["fregatte", "patrouillenboot", "landungsboot", "faehre"],
}
D1_NAMES = {
    "jaeger": "Jäger", "pionier": "Pioniere", "panzerjaeger": "Panzerjäger", "spaehwagen": "Spähwagen",
    "raketenwerfer": "Raketenwerfer", "transporter": "Transporter (LKW)", "versorger": "Versorger",
    "schuetzenpanzer": "Schützenpanzer", "kampfpanzer": "Kampfpanzer", "panzerhaubitze": "Panzerhaubitze",
    "flugabwehr": "Flugabwehr", "kampfhubschrauber": "Kampfhubschrauber",
    "transporthubschrauber": "Transporthubschrauber", "kampfjet": "Kampfjet", "drohne": "Drohne",
    "fregatte": "Fregatte", "patrouillenboot": "Patrouillenboot", "landungsboot": "Landungsboot",
    "faehre": "Fähre",
}


def test_d1_r38_nineteen_units_with_their_movement_classes():
    """D1/R38: exactly the 19 unit ids, each in its movement class, with its German name."""
    assert len(UNITS) == 19
    assert set(UNITS) == {u for ids in D1_CLASSES.values() for u in ids}
    for cls, ids in D1_CLASSES.items():
        for uid in ids:
            assert UNITS[uid]["movement"] == cls, uid
    for uid, name in D1_NAMES.items():
        assert UNITS[uid]["name"] == name
    # The API lists the same ids in the same order (docs/api.md).
    assert list(UNITS) == [u for ids in D1_CLASSES.values() for u in ids]
    assert kaltfront.rules()["units"].keys() == UNITS.keys()


def test_r38_every_unit_has_every_stat():
    """R38: cost, movement, vision, range, four attack values, defence, ammunition, fuel, movement class,
    armour class, transport slots."""
    for uid, u in UNITS.items():
        for key in ("cost", "move", "vision", "range", "attack", "defence", "ammo", "fuel", "movement",
                    "armour", "transport", "rationale"):
            assert key in u, (uid, key)
        assert set(u["attack"]) == set(ARMOUR_CLASSES), uid
        assert u["movement"] in MOVEMENT_CLASSES and u["armour"] in ARMOUR_CLASSES
        assert u["cost"] > 0 and u["move"] > 0 and u["vision"] > 0 and u["defence"] >= 0


def test_r24_armour_classes():
    """R24: weich = Jäger, Pioniere, Panzerjäger, Transporter, Versorger; hart = Spähwagen, every
    Kette unit, Raketenwerfer; aircraft Luft; ships See."""
    weich = {"jaeger", "pionier", "panzerjaeger", "transporter", "versorger"}
    hart = {"spaehwagen", "raketenwerfer"} | set(D1_CLASSES["kette"])
    for uid, u in UNITS.items():
        want = ("weich" if uid in weich else "hart" if uid in hart
                else "luft" if u["movement"] == "luft" else "see")
        assert u["armour"] == want, uid


def test_r25_r31_armed_units_and_unarmed_units_are_consistent():
    """R25/R31: a unit with an ammunition value has a range and at least one attack value; a unit
    without one (Transporter, Versorger, Transporthubschrauber, Landungsboot, Fähre) has no attack at
    all. "–" is null."""
    unarmed = {uid for uid, u in UNITS.items() if u["ammo"] is None}
    assert unarmed == {"transporter", "versorger", "transporthubschrauber", "landungsboot", "faehre"}
    for uid, u in UNITS.items():
        if u["ammo"] is None:
            assert u["range"] is None and all(v is None for v in u["attack"].values()), uid
            assert not RULES.units[uid].armed
        else:
            lo, hi = u["range"]
            assert 1 <= lo <= hi and u["ammo"] > 0
            assert any(v is not None for v in u["attack"].values()), uid


def test_r17_r18_foot_units_need_no_fuel_all_others_do():
    """R17/R18: Fuß units need no fuel; every other unit has a tank."""
    for uid, u in UNITS.items():
        if u["movement"] == "fuss":
            assert u["fuel"] is None, uid
        else:
            assert isinstance(u["fuel"], int) and u["fuel"] > 0, uid


# -- "Fixed values" of REQUIREMENTS.md, one by one ------------------------------------------------

def test_fixed_kampfpanzer():
    """Fixed: Kampfpanzer 8 vs hart, – vs Luft, range 1."""
    u = UNITS["kampfpanzer"]
    assert u["attack"]["hart"] == 8 and u["attack"]["luft"] is None and u["range"] == [1, 1]


def test_fixed_flugabwehr():
    """Fixed: Flugabwehr 9 vs Luft, 1 vs hart, range 1–2."""
    u = UNITS["flugabwehr"]
    assert u["attack"]["luft"] == 9 and u["attack"]["hart"] == 1 and u["range"] == [1, 2]


def test_fixed_kampfhubschrauber():
    """Fixed: Kampfhubschrauber 7 vs weich, 6 vs hart, ammunition 4."""
    u = UNITS["kampfhubschrauber"]
    assert u["attack"]["weich"] == 7 and u["attack"]["hart"] == 6 and u["ammo"] == 4


def test_fixed_kampfjet():
    """Fixed: Kampfjet fuel 20, ammunition 3."""
    assert UNITS["kampfjet"]["fuel"] == 20 and UNITS["kampfjet"]["ammo"] == 3


def test_fixed_raketenwerfer_and_r23_ranges():
    """Fixed/R23: Raketenwerfer 3–6 with 3 shots, Panzerhaubitze 2–4, Fregatte 1–3."""
    assert UNITS["raketenwerfer"]["range"] == [3, 6] and UNITS["raketenwerfer"]["ammo"] == 3
    assert UNITS["panzerhaubitze"]["range"] == [2, 4]
    assert UNITS["fregatte"]["range"] == [1, 3]


def test_fixed_small_values():
    """Fixed: Panzerjäger movement 2, Pioniere cost 200, Spähwagen vision 4, Drohne vision 5,
    Transporter no ammunition (unarmed)."""
    assert UNITS["panzerjaeger"]["move"] == 2
    assert UNITS["pionier"]["cost"] == 200
    assert UNITS["spaehwagen"]["vision"] == 4
    assert UNITS["drohne"]["vision"] == 5
    assert UNITS["transporter"]["ammo"] is None and not RULES.units["transporter"].armed


def test_fixed_cheapest_unit_costs_100():
    """Fixed/R49: the cheapest unit costs 100, so a balance under 100 cannot build."""
    assert min(u["cost"] for u in UNITS.values()) == 100
    assert RULES.cheapest_cost == 100
    # The cheapest unit can actually be built (by an HQ, foot production, D5), also in Blitz (R69).
    assert UNITS["jaeger"]["cost"] == 100 and "jaeger" in RAW["blitz"]["buildable"]


def test_fixed_terrain_costs_r17():
    """Fixed/R15/R17: foot units pay 3 for river and mountains; Rad pays 2 on plain; Rad is barred from
    river, moor and mountains; Kette enters forest, hills and moor but not river or mountains; Luft pays
    1 everywhere; See moves on open sea, coastal water, ports and under bridges."""
    cost = {tid: t["cost"] for tid, t in TERRAIN.items()}
    assert cost["fluss"]["fuss"] == 3 and cost["gebirge"]["fuss"] == 3
    assert cost["ebene"]["rad"] == 2
    assert cost["strasse"]["rad"] < cost["ebene"]["rad"]  # "auf Straßen gut voran"
    for t in ("fluss", "moor", "gebirge"):
        assert cost[t]["rad"] is None, t
    for t in ("wald", "huegel", "moor"):
        assert cost[t]["kette"] is not None, t
    for t in ("fluss", "gebirge"):
        assert cost[t]["kette"] is None, t
    for tid in TERRAIN:
        assert cost[tid]["luft"] == 1, tid
    for t in ("see", "kueste", "hafen", "bruecke"):
        assert cost[t]["see"] is not None, t
    for t in ("ebene", "strasse", "wald", "huegel", "gebirge", "moor", "fluss", "ortschaft", "hq", "stadt",
              "werk", "flugplatz", "depot"):
        assert cost[t]["see"] is None, t
    # Land units cannot enter open sea or coastal water.
    for t in ("see", "kueste"):
        for cls in ("fuss", "rad", "kette"):
            assert cost[t][cls] is None


def test_fixed_terrain_defence_r28_r36():
    """Fixed/R28/R36: forest +2, Ortschaft +2, Gebirge +3, water +0, HQ +3."""
    d = {tid: t["defence"] for tid, t in TERRAIN.items()}
    assert d["wald"] == 2 and d["ortschaft"] == 2 and d["gebirge"] == 3 and d["hq"] == 3
    for tid, t in TERRAIN.items():
        if t["water"]:
            assert t["defence"] == 0, tid
    assert TERRAIN["see"]["water"] and TERRAIN["kueste"]["water"] and TERRAIN["fluss"]["water"]


def test_r47_terrain_table_complete():
    """R47: every terrain has a cost per movement class ("–" = null, impassable) and a defence bonus;
    the terrain ids and characters are those of docs/map-format.md."""
    chars = {"ebene": ".", "strasse": "=", "wald": "w", "huegel": "h", "gebirge": "g", "moor": "m",
             "fluss": "r", "bruecke": "b", "ortschaft": "o", "see": "~", "kueste": "k", "faehrlinie": "f",
             "hq": "H", "stadt": "S", "werk": "W", "flugplatz": "F", "hafen": "P", "depot": "D"}
    assert {tid: t["char"] for tid, t in TERRAIN.items()} == chars
    for tid, t in TERRAIN.items():
        assert set(t["cost"]) == set(MOVEMENT_CLASSES), tid
        assert all(c is None or (isinstance(c, int) and c >= 1) for c in t["cost"].values()), tid
        assert isinstance(t["defence"], int) and t["defence"] >= 0


def test_d7_ferry_line_is_a_road_over_water():
    """D7: the Blitz ferry line is crossed by ground units like a road."""
    f = TERRAIN["faehrlinie"]
    for cls in ("fuss", "rad", "kette"):
        assert f["cost"][cls] == TERRAIN["strasse"]["cost"][cls]


def test_r39_r43_r44_r45_transports():
    """R39: five transports with fixed slots and classes. R43: Fähre 4, tanks included. R44:
    Transporthubschrauber and LKW two foot units. R45: Schützenpanzer one foot unit and armed."""
    transports = {uid: u["transport"] for uid, u in UNITS.items() if u["transport"]}
    assert set(transports) == {"transporter", "schuetzenpanzer", "transporthubschrauber", "landungsboot",
                               "faehre"}
    assert transports["faehre"]["slots"] == 4 and "kette" in transports["faehre"]["classes"]
    assert transports["transporthubschrauber"] == {"slots": 2, "classes": ["fuss"]}
    assert transports["transporter"] == {"slots": 2, "classes": ["fuss"]}
    assert transports["schuetzenpanzer"] == {"slots": 1, "classes": ["fuss"]}
    assert UNITS["schuetzenpanzer"]["ammo"] is not None  # "kämpft selbst mit"
    # The Landungsboot sets down troops and vehicles (R42).
    assert {"fuss", "rad", "kette"} <= set(transports["landungsboot"]["classes"])


def test_d5_r32_r33_r36_r19_buildings():
    """D5: HQ produces foot units, Stadt income and resupply only, Werk produces Rad and Kette,
    Flugplatz aircraft, Hafen ships (ships and land units may enter it), Depot supply.
    R33: a Stadt does not repair. R36: the HQ has the highest income. R19: Flugplatz, HQ and Depot
    refuel aircraft. R32: the Ortschaft is terrain, not a building."""
    assert set(BUILDINGS) == {"hq", "stadt", "werk", "flugplatz", "hafen", "depot"}
    assert BUILDINGS["hq"]["produces"] == ["fuss"]
    assert BUILDINGS["stadt"]["produces"] == [] and BUILDINGS["stadt"]["repairs"] == []
    assert BUILDINGS["stadt"]["supplies"]
    assert sorted(BUILDINGS["werk"]["produces"]) == ["kette", "rad"]
    assert BUILDINGS["flugplatz"]["produces"] == ["luft"]
    assert BUILDINGS["hafen"]["produces"] == ["see"]
    assert BUILDINGS["depot"]["produces"] == [] and BUILDINGS["depot"]["supplies"]
    hafen = TERRAIN["hafen"]["cost"]
    assert all(hafen[c] is not None for c in MOVEMENT_CLASSES)
    assert all(BUILDINGS["hq"]["income"] > b["income"] for k, b in BUILDINGS.items() if k != "hq")
    for b in ("flugplatz", "hq", "depot"):
        assert "luft" in BUILDINGS[b]["supplies"], b
    assert "ortschaft" not in BUILDINGS
    # Every unit class can be produced somewhere.
    produced = {c for b in BUILDINGS.values() for c in b["produces"]}
    assert produced == set(MOVEMENT_CLASSES)


def test_fixed_game_constants():
    """R27: 10 hp at the start. R30: at most level 5. R33: repair 3 hp. R34: at most 60 units.
    R20: a building shows everything within 2. R26: +1 on an own building."""
    assert RAW["start_hp"] == 10 and RAW["max_level"] == 5 and RAW["repair_hp"] == 3
    assert RAW["max_units"] == 60 and RAW["building_vision"] == 2 and RAW["own_building_defence"] == 1


def test_r66_r67_r69_r71_blitz_data():
    """R66: 10 rounds. R69: only Jäger, Spähwagen, Schützenpanzer, Kampfpanzer, Panzerhaubitze are built.
    R71: two Jäger, a Spähwagen, a Schützenpanzer, a Kampfpanzer, a Panzerhaubitze and 600 money."""
    b = RAW["blitz"]
    assert b["rounds"] == 10 and b["start_money"] == 600
    assert sorted(b["buildable"]) == sorted(["jaeger", "spaehwagen", "schuetzenpanzer", "kampfpanzer",
                                             "panzerhaubitze"])
    assert sorted(b["start_army"]) == sorted(["jaeger", "jaeger", "spaehwagen", "schuetzenpanzer",
                                              "kampfpanzer", "panzerhaubitze"])
    for uid in b["buildable"]:
        assert UNITS[uid]["movement"] in ("fuss", "rad", "kette")


@pytest.mark.parametrize("tip,check", [
    ("Tipp 2: Kampfhubschrauber 7 weich, 6 hart; Flugabwehr 9 Luft, Reichweite 1–2",
     lambda: UNITS["kampfhubschrauber"]["attack"]["weich"] == 7 and UNITS["flugabwehr"]["range"] == [1, 2]),
    ("Tipp 9: Raketenwerfer 3 Schuss, Kampfhubschrauber 4",
     lambda: UNITS["raketenwerfer"]["ammo"] == 3 and UNITS["kampfhubschrauber"]["ammo"] == 4),
    ("Tipp 3: Pioniere kosten 200", lambda: UNITS["pionier"]["cost"] == 200),
    ("Abschnitt 4: Kampfpanzer 8 gegen hart, kein Angriff gegen Luft",
     lambda: UNITS["kampfpanzer"]["attack"]["hart"] == 8 and UNITS["kampfpanzer"]["attack"]["luft"] is None),
])
def test_rulebook_numbers_in_prose(tip, check):
    """Numbers the rulebook's prose repeats (sections 4 and 11) agree with the data (R38)."""
    assert check(), tip
