"""Buildings (R31–R36, D4, D5, D9, D13): income, repair and resupply, the Versorger, production and the unit
cap, and capture timing (Jäger two turns, Pioniere at once)."""

from __future__ import annotations

import pytest

from kaltfront.rulesdata import RULES

from helpers import U, assert_illegal, attack, end_phase, kinds, make, move, rng_for

# Two HQs at the ends so that both sides exist; buildings in between for each test.
ENDS = {(0, 0): "nordbund", (9, 0): "liga"}


def owners(**extra):
    d = dict(ENDS)
    d.update(extra)
    return d


def build(g, at, utype):
    return g.apply({"type": "build", "at": list(at), "unit_type": utype})


def next_own_move_phase(g):
    """From nordbund's move phase to its next move phase (the whole liga turn in between)."""
    side = g.side
    end_phase(g)
    events = []
    while not (g.side == side and g.phase == "move"):
        events += end_phase(g)
        if g.outcome is not None:
            break
    return events


# -- R33: income, repair, resupply ---------------------------------------------------------------

def test_r33_income_of_all_own_buildings_when_the_attack_phase_ends():
    """R33: HQ 300 + Stadt 100 + Werk 100 + Depot 50 = 550; neutral and enemy buildings pay nothing."""
    g = make(["HSWDS.S..H"], [U("nordbund", "jaeger", (5, 0)), U("liga", "jaeger", (8, 0))], phase="attack",
             owners={(0, 0): "nordbund", (1, 0): "nordbund", (2, 0): "nordbund", (3, 0): "nordbund",
                     (4, 0): None, (6, 0): "liga", (9, 0): "liga"}, money=(20, 0))
    ev = end_phase(g)
    assert g.money["nordbund"] == 570
    assert {"type": "income", "side": "nordbund", "amount": 550} in ev


@pytest.mark.parametrize("building,utype,hp,want", [
    ("W", "kampfpanzer", 5, 8),      # Werk repairs Kette: +3
    ("W", "kampfpanzer", 9, 10),     # at most 10
    ("H", "jaeger", 2, 5),           # HQ repairs foot units
    ("F", "kampfjet", 6, 9),         # Flugplatz repairs aircraft
    ("S", "jaeger", 4, 4),           # the Stadt only resupplies, never repairs (R33)
    ("W", "jaeger", 4, 4),           # the Werk does not repair foot units (D5 table)
])
def test_r33_d5_repair_plus_three_on_suitable_own_buildings(building, utype, hp, want):
    """R33: at the start of the move phase a unit on a suitable own building gains 3 hp (at most 10)."""
    rows = ["H" + building + "......H"] if building != "H" else ["H.......H"]
    at = (1, 0) if building != "H" else (0, 0)
    g = make(rows, [U("nordbund", utype, at, hp=hp), U("liga", "jaeger", (7, 0))], phase="attack",
             owners={(0, 0): "nordbund", (1, 0): "nordbund", (8, 0): "liga"})
    end_phase(g)
    assert g.units[1].hp == want


def test_r33_r31_stadt_resupplies_ammunition_and_fuel():
    """R31/R33: an own Stadt refills ammunition and fuel (but repairs nothing)."""
    g = make(["HS.....H"], [U("nordbund", "kampfpanzer", (1, 0), hp=4, ammo=1, fuel=3), U("liga", "jaeger", (6, 0))],
             phase="attack", owners={(0, 0): "nordbund", (1, 0): "nordbund", (7, 0): "liga"})
    ev = end_phase(g)
    u = g.units[1]
    assert (u.hp, u.ammo, u.fuel) == (4, 6, 50)
    assert "resupplied" in kinds(ev) and "repaired" not in kinds(ev)


def test_r33_no_service_on_neutral_or_enemy_buildings():
    """R33: only own buildings repair and resupply."""
    g = make(["HWW....H"], [U("nordbund", "kampfpanzer", (1, 0), hp=4, ammo=1), U("nordbund", "kampfpanzer", (2, 0), hp=4, ammo=1),
                            U("liga", "jaeger", (6, 0))],
             phase="attack", owners={(0, 0): "nordbund", (1, 0): None, (2, 0): "liga", (7, 0): "liga"})
    end_phase(g)
    assert [(g.units[i].hp, g.units[i].ammo) for i in (1, 2)] == [(4, 1), (4, 1)]


def test_r33_service_only_at_the_start_of_the_own_move_phase():
    """R33/D4: liga's unit on its own Werk is not repaired when nordbund's move phase starts."""
    g = make(["H.....WH"], [U("nordbund", "jaeger", (1, 0)), U("liga", "kampfpanzer", (6, 0), hp=4)],
             phase="attack", owners={(0, 0): "nordbund", (6, 0): "liga", (7, 0): "liga"})
    end_phase(g)
    assert g.units[2].hp == 4
    end_phase(g)
    end_phase(g)  # liga's move phase starts
    assert g.units[2].hp == 7


def test_r31_d4_versorger_resupplies_adjacent_own_units_at_the_end_of_the_move_phase():
    """R31/D4: a Versorger next to a unit refills its ammunition and fuel when the move phase ends; it
    repairs nothing, and it serves neither enemies nor units two hexes away."""
    g = make(["H.........H", "..........."],
             [U("nordbund", "raketenwerfer", (3, 0), ammo=0, fuel=5, hp=5), U("nordbund", "versorger", (4, 0)),
              U("nordbund", "kampfpanzer", (6, 0), ammo=0), U("liga", "jaeger", (5, 0), ammo=0)],
             owners={(0, 0): "nordbund", (10, 0): "liga"})
    assert g.units[1].ammo == 0  # nothing before the end of the phase
    ev = end_phase(g)
    assert (g.units[1].ammo, g.units[1].fuel, g.units[1].hp) == (3, 40, 5)
    assert g.units[3].ammo == 0 and g.units[4].ammo == 0
    assert [e["unit"] for e in ev if e["type"] == "resupplied"] == [1]


# -- R34: production -------------------------------------------------------------------------------

def test_r34_build_on_own_empty_building_pays_and_cannot_act():
    """R34: in the move phase, on an own empty building producing the class; the cost is paid; the new
    unit has 10 hp and can neither move nor attack this turn."""
    g = make(["HW......H"], [U("liga", "jaeger", (7, 0))], owners={(0, 0): "nordbund", (1, 0): "nordbund",
                                                                   (8, 0): "liga"}, money=(1000, 0))
    ev = build(g, (1, 0), "kampfpanzer")
    assert kinds(ev) == ["built"] and ev[0]["cost"] == 700
    assert g.money["nordbund"] == 300
    u = [u for u in g.units.values() if u.type == "kampfpanzer"][0]
    assert (u.hp, u.ammo, u.fuel, u.moved, u.attacked) == (10, 6, 50, True, True)
    assert g.reachable(u.id) == []
    assert_illegal(g, {"type": "move", "unit": u.id, "to": [2, 0]}, "schon bewegt")
    assert_illegal(g, {"type": "build", "at": [1, 0], "unit_type": "spaehwagen"}, "besetzt")


def test_r34_d5_what_each_building_produces():
    """D5: the HQ builds foot units, the Werk Rad and Kette, the Flugplatz aircraft, the Hafen ships;
    Stadt and Depot build nothing."""
    rows = ["HWFP~", "SD..."]
    g = make(rows, [U("liga", "jaeger", (3, 1))],
             owners={(0, 0): "nordbund", (1, 0): "nordbund", (2, 0): "nordbund", (3, 0): "nordbund",
                     (0, 1): "nordbund", (1, 1): "nordbund"}, money=(5000, 0))
    made = {b: {o["unit_type"] for o in g.build_options([c, r])}
            for b, (c, r) in {"H": (0, 0), "W": (1, 0), "F": (2, 0), "P": (3, 0), "S": (0, 1), "D": (1, 1)}.items()}
    assert made["H"] == {"jaeger", "pionier", "panzerjaeger"}
    assert made["W"] == {"spaehwagen", "raketenwerfer", "transporter", "versorger", "schuetzenpanzer",
                         "kampfpanzer", "panzerhaubitze", "flugabwehr"}
    assert made["F"] == {"kampfhubschrauber", "transporthubschrauber", "kampfjet", "drohne"}
    assert made["P"] == {"fregatte", "patrouillenboot", "landungsboot", "faehre"}
    assert made["S"] == set() and made["D"] == set()
    assert_illegal(g, {"type": "build", "at": [0, 0], "unit_type": "kampfpanzer"}, "baut keine")
    assert_illegal(g, {"type": "build", "at": [0, 1], "unit_type": "jaeger"}, "baut keine")


def test_r34_build_rejections():
    """R34: not in the attack phase, not on a foreign or neutral building, not without the money."""
    base = dict(owners={(0, 0): "nordbund", (1, 0): None, (7, 0): "liga"})
    g = make(["HW.....H"], [U("liga", "jaeger", (6, 0))], money=(99, 0), **base)
    assert_illegal(g, {"type": "build", "at": [0, 0], "unit_type": "jaeger"}, "kostet 100")
    assert [o["affordable"] for o in g.build_options([0, 0])] == [False, False, False]
    g = make(["HW.....H"], [U("liga", "jaeger", (6, 0))], money=(5000, 0), **base)
    assert_illegal(g, {"type": "build", "at": [1, 0], "unit_type": "kampfpanzer"}, "kein eigenes Gebäude")
    assert_illegal(g, {"type": "build", "at": [7, 0], "unit_type": "jaeger"}, "kein eigenes Gebäude")
    assert_illegal(g, {"type": "build", "at": [3, 0], "unit_type": "jaeger"}, "kein eigenes Gebäude")
    g = make(["HW.....H"], [U("liga", "jaeger", (6, 0))], money=(5000, 0), phase="attack", **base)
    assert_illegal(g, {"type": "build", "at": [0, 0], "unit_type": "jaeger"}, "Zugphase")


def test_r34_d9_at_most_sixty_units_cargo_counted():
    """R34/D9: at most 60 units per side, cargo included: 58 on the map plus a Schützenpanzer with a
    Jäger aboard is 60, so the HQ cannot build."""
    rows = ["H" + "." * 11] + ["." * 12] * 4 + ["." * 11 + "H"]
    units = [U("nordbund", "jaeger", (1 + k % 11, 1 + k // 11)) for k in range(44)]
    units += [U("nordbund", "jaeger", (1 + k, 0)) for k in range(10)]
    units += [U("nordbund", "jaeger", (k, 5)) for k in range(4)]
    units += [U("nordbund", "schuetzenpanzer", (5, 5), cargo=[U("nordbund", "jaeger")]), U("liga", "jaeger", (10, 5))]
    g = make(rows, units, owners={(0, 0): "nordbund", (11, 5): "liga"}, money=(1000, 0))
    assert g.unit_count("nordbund") == 60
    assert_illegal(g, {"type": "build", "at": [0, 0], "unit_type": "jaeger"}, "60 Einheiten")
    assert not [a for a in g.legal_actions() if a.to_json()["type"] == "build"]
    assert all(not o["affordable"] for o in g.build_options([0, 0]))
    # One fewer (the cargo gone) and the HQ builds again.
    units[-2] = U("nordbund", "schuetzenpanzer", (5, 5))
    g = make(rows, units, owners={(0, 0): "nordbund", (11, 5): "liga"}, money=(1000, 0))
    build(g, (0, 0), "jaeger")
    assert g.unit_count("nordbund") == 60


# -- R35: capture ----------------------------------------------------------------------------------

def test_r35_jaeger_captures_at_the_start_of_the_next_own_move_phase():
    """R35: the Jäger ends its move phase on a neutral Stadt (progress starts); the enemy plays its whole
    turn; at the start of nordbund's next move phase it still stands there and the Stadt changes hands.
    R11 order: income first (without the new Stadt), then the capture."""
    g = make(["H.S......H"], [U("nordbund", "jaeger", (1, 0)), U("liga", "jaeger", (8, 0))], owners=owners(),
             money=(0, 0))
    move(g, 1, (2, 0))
    ev = end_phase(g)
    assert "capture_started" in kinds(ev)
    b = g.buildings[2]
    assert b.owner is None and b.capture_side == "nordbund" and b.capture_unit == 1
    end_phase(g)
    end_phase(g)
    assert (g.side, g.phase) == ("nordbund", "attack")
    assert g.buildings[2].owner is None  # liga's turn and nordbund's attack phase: not yet
    ev = end_phase(g)
    assert g.buildings[2].owner == "nordbund"
    assert kinds(ev)[:3] == ["phase", "income", "captured"]
    assert ev[1]["amount"] == 300  # only the HQ: the Stadt was not yet ours
    assert g.buildings[2].capture_side is None


def test_r35_jaeger_captures_enemy_buildings_too():
    """R35: a foreign building works like a neutral one."""
    g = make(["H.S......H"], [U("nordbund", "jaeger", (2, 0)), U("liga", "jaeger", (8, 0))],
             owners=owners() | {(2, 0): "liga"})
    end_phase(g)
    next_own = [end_phase(g) for _ in range(3)]
    assert g.buildings[2].owner == "nordbund" and any("captured" in kinds(e) for e in next_own)


def test_r35_leaving_resets_the_progress():
    """R35: a Jäger that leaves the building loses its progress; coming back starts again."""
    g = make(["H.S......H"], [U("nordbund", "jaeger", (2, 0)), U("liga", "jaeger", (8, 0))], owners=owners(),
             captures={(2, 0): ("nordbund", 1)}, phase="move")
    move(g, 1, (3, 0))
    assert g.buildings[2].capture_side is None
    end_phase(g)
    end_phase(g)
    end_phase(g)
    end_phase(g)
    assert g.buildings[2].owner is None


def test_r35_destroyed_jaeger_loses_the_progress():
    """R35: a Jäger destroyed during the enemy's turn does not capture."""
    g = make(["H.S......H"], [U("nordbund", "jaeger", (2, 0), hp=1), U("liga", "kampfpanzer", (3, 0))],
             owners=owners(), money=(100, 0))
    end_phase(g)                         # capture starts
    assert g.buildings[2].capture_unit == 1
    attack(g, 2, (2, 0))                 # liga's attack phase: the Jäger dies
    assert 1 not in g.units and g.buildings[2].capture_side is None
    end_phase(g)
    move(g, 2, (4, 0))
    end_phase(g)
    end_phase(g)
    assert g.buildings[2].owner is None


def test_r35_survivor_of_the_enemy_turn_still_captures():
    """R35: a Jäger that is hit but survives the enemy's turn captures."""
    g = make(["H.S......H"], [U("nordbund", "jaeger", (2, 0)), U("liga", "jaeger", (3, 0))], owners=owners(),
             rng=rng_for(0, 0))
    end_phase(g)
    attack(g, 2, (2, 0))
    assert 1 in g.units and g.units[1].hp < 10
    end_phase(g)
    end_phase(g)
    end_phase(g)
    assert g.buildings[2].owner == "nordbund"


def test_r35_pionier_captures_when_the_move_phase_ends():
    """R35: Pioniere capture at once when the move phase ends."""
    g = make(["H.S......H"], [U("nordbund", "pionier", (1, 0)), U("liga", "jaeger", (8, 0))], owners=owners())
    move(g, 1, (2, 0))
    assert g.buildings[2].owner is None  # not while moving
    ev = end_phase(g)
    assert g.buildings[2].owner == "nordbund"
    cap = [e for e in ev if e["type"] == "captured"][0]
    assert cap["side"] == "nordbund" and cap["previous_owner"] is None and cap["building"] == "stadt"


@pytest.mark.parametrize("utype", ["kampfpanzer", "panzerjaeger", "spaehwagen", "kampfhubschrauber"])
def test_r35_only_jaeger_and_pioniere_capture(utype):
    """R35: no other unit captures."""
    g = make(["H.S......H"], [U("nordbund", utype, (2, 0)), U("liga", "jaeger", (8, 0))], owners=owners())
    for _ in range(4):
        end_phase(g)
    assert g.buildings[2].owner is None and g.buildings[2].capture_side is None


def test_r32_ortschaft_is_terrain_and_cannot_be_captured():
    """R32: towns (Ortschaft) are terrain only."""
    g = make(["H.o......H"], [U("nordbund", "pionier", (2, 0)), U("liga", "jaeger", (8, 0))], owners=owners())
    ev = end_phase(g)
    assert "captured" not in kinds(ev) and 2 not in g.buildings
    assert [b["type"] for b in g.observe("nordbund")["buildings"]] == ["hq", "hq"]


def test_r32_neutral_buildings_belong_to_nobody():
    """R32: neutral buildings have no owner, pay no one and serve no one."""
    g = make(["H.S......H"], [U("nordbund", "jaeger", (5, 0)), U("liga", "jaeger", (8, 0))], owners=owners())
    assert [b["owner"] for b in g.observe("nordbund")["buildings"]] == ["nordbund", None, "liga"]


def test_r35_jaeger_boarding_a_transport_resets_the_progress():
    """R35: boarding a transport is leaving the building."""
    g = make(["H.S=.....H"], [U("nordbund", "jaeger", (2, 0)), U("nordbund", "transporter", (3, 0)),
                              U("liga", "jaeger", (8, 0))], owners=owners(), captures={(2, 0): ("nordbund", 1)})
    g.apply({"type": "load", "unit": 1, "transport": 2})
    assert g.buildings[2].capture_side is None


def test_r31_d13_stadt_rearms_aircraft_but_does_not_refuel_them():
    """R31/D13: "Munition füllst du in eigenen Städten … auf": an own Stadt refills the ammunition of
    every unit on it, aircraft included. Fuel stays as the buildings table has it: the Stadt refuels
    land units only, aircraft refuel on Flugplatz, HQ and Depot (R19)."""
    for utype in ("kampfhubschrauber", "kampfjet", "drohne"):
        g = make(["HS.....H"], [U("nordbund", utype, (1, 0), ammo=1, fuel=9), U("liga", "jaeger", (6, 0))],
                 phase="attack", owners={(0, 0): "nordbund", (1, 0): "nordbund", (7, 0): "liga"})
        ev = end_phase(g)
        assert (g.units[1].ammo, g.units[1].fuel) == (RULES.units[utype].ammo, 9), utype
        assert {"type": "resupplied", "unit": 1, "side": "nordbund", "at": [1, 0]} in ev
    g = make(["HD.....H"], [U("nordbund", "kampfhubschrauber", (1, 0), ammo=1, fuel=9), U("liga", "jaeger", (6, 0))],
             phase="attack", owners={(0, 0): "nordbund", (1, 0): "nordbund", (7, 0): "liga"})
    end_phase(g)
    assert (g.units[1].ammo, g.units[1].fuel) == (4, 30)


def test_r31_d13_only_an_own_stadt_rearms():
    """R31/D13: a neutral or enemy Stadt refills nothing; a full helicopter on an own Stadt gets no
    "resupplied" event."""
    for owner in (None, "liga"):
        g = make(["HS.....H"], [U("nordbund", "kampfhubschrauber", (1, 0), ammo=1, fuel=9),
                                U("liga", "jaeger", (6, 0))],
                 phase="attack", owners={(0, 0): "nordbund", (1, 0): owner, (7, 0): "liga"})
        end_phase(g)
        assert g.units[1].ammo == 1, owner
    g = make(["HS.....H"], [U("nordbund", "kampfhubschrauber", (1, 0)), U("liga", "jaeger", (6, 0))],
             phase="attack", owners={(0, 0): "nordbund", (1, 0): "nordbund", (7, 0): "liga"})
    assert "resupplied" not in kinds(end_phase(g))


def test_d13_rearming_is_data_every_class_at_the_stadt():
    """D13: the buildings table (rules.json) says which classes each building rearms: the Stadt every
    class, every other building exactly the classes it supplies."""
    for bid, b in RULES.buildings.items():
        assert set(b.supplies) <= set(b.rearms), bid
        if bid == "stadt":
            assert set(b.rearms) == {"fuss", "rad", "kette", "luft", "see"}
        else:
            assert set(b.rearms) == set(b.supplies), bid
