"""Transport (R39–R46, D6, D9): loading within reach, unloading onto free neighbours, the Landungsboot's
coastal water, the Fähre's ports, the helicopter over water, the Schützenpanzer that fights, cargo that
cannot be attacked and dies with its transport."""

from __future__ import annotations

from helpers import U, assert_illegal, attack, end_phase, hexes, kinds, make, move, unit_at


def load(g, uid, tid):
    return g.apply({"type": "load", "unit": uid, "transport": tid})


def unload(g, tid, uid, to):
    return g.apply({"type": "unload", "transport": tid, "unit": uid, "to": list(to)})


# -- R40: loading --------------------------------------------------------------------------------

def test_r40_load_within_reach_the_transport_hex_costs_one():
    """R40: the way to a hex next to the transport must be affordable, and the transport's hex costs
    1 more: a Jäger (3 points) boards a LKW 3 hexes away (2 + 1) but not one 4 hexes away (3 + 1)."""
    g = make(["=" * 8], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "transporter", (3, 0))])
    assert [o["transport"] for o in g.load_options(1)] == [2]
    ev = load(g, 1, 2)
    assert kinds(ev) == ["loaded"]
    assert g.units[1].at is None and g.units[2].cargo == [1] and unit_at(g, 0, 0) is None
    g = make(["=" * 8], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "transporter", (4, 0))])
    assert g.load_options(1) == []
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "nicht erreichbar")


def test_r40_transport_hex_costs_one_whatever_its_terrain():
    """R40: a Panzerjäger (2 points) boards a Schützenpanzer standing in a moor 2 hexes away:
    1 (plain) + 1 (the transport's hex, although the moor would cost 2)."""
    g = make([".m......"], [U("nordbund", "panzerjaeger", (0, 0)), U("nordbund", "schuetzenpanzer", (1, 0))])
    load(g, 1, 2)
    g = make(["..m....."], [U("nordbund", "panzerjaeger", (0, 0)), U("nordbund", "schuetzenpanzer", (2, 0))])
    load(g, 1, 2)
    assert g.units[2].cargo == [1]


def test_r40_cargo_counts_as_moved_and_transport_can_still_move():
    """R40: after boarding the cargo counts as moved (it cannot get off again this turn); the transport
    moves on its own account."""
    g = make(["=" * 10], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "transporter", (1, 0))])
    load(g, 1, 2)
    assert g.units[1].moved and not g.units[2].moved
    assert g.unload_options(2) == []
    assert_illegal(g, {"type": "unload", "transport": 2, "unit": 1, "to": [2, 0]}, "schon bewegt")
    move(g, 2, (6, 0))
    assert g.units[2].cargo == [1]


def test_r40_r10_loading_only_in_the_move_phase_and_only_unmoved_units():
    """R10/R40: loading happens in the move phase; a unit that already moved cannot board."""
    g = make(["=" * 8], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "transporter", (1, 0))], phase="attack")
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "Zugphase")
    g = make(["=" * 8], [U("nordbund", "jaeger", (0, 0), moved=True), U("nordbund", "transporter", (1, 0))])
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "schon bewegt")


def test_r39_classes_and_slots():
    """R39: each transport has fixed slots and classes: no tank on a LKW, no second unit in a
    Schützenpanzer, nothing into a non-transport, no enemy transport."""
    g = make(["=" * 8], [U("nordbund", "kampfpanzer", (0, 0)), U("nordbund", "transporter", (1, 0))])
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "nicht laden")
    g = make(["=" * 8], [U("nordbund", "jaeger", (0, 0)),
                         U("nordbund", "schuetzenpanzer", (1, 0), cargo=[U("nordbund", "pionier")])])
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "voll")
    g = make(["=" * 8], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "kampfpanzer", (1, 0))])
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "kein Transporter")
    g = make(["=" * 8], [U("nordbund", "jaeger", (0, 0)), U("liga", "transporter", (1, 0))])
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2})


def test_r40_r44_helicopter_loads_only_on_land():
    """R40: foot units board only on hexes they may enter, so a Transporthubschrauber must stand on land."""
    g = make([".~......"], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "transporthubschrauber", (1, 0))])
    assert g.load_options(1) == []
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "nur auf Feldern")
    g = make(["..~~~..."], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "transporthubschrauber", (1, 0))])
    load(g, 1, 2)


def test_r44_helicopter_carries_two_foot_units_across_water():
    """R44: the Transporthubschrauber carries two foot units over water that would stop them."""
    g = make(["..~~~~..", "..~~~~..", "........"],
             [U("nordbund", "jaeger", (0, 0)), U("nordbund", "pionier", (0, 1)),
              U("nordbund", "transporthubschrauber", (1, 0)), U("nordbund", "panzerjaeger", (1, 1)),
              U("liga", "jaeger", (0, 2))])
    load(g, 1, 3)
    load(g, 2, 3)
    assert_illegal(g, {"type": "load", "unit": 4, "transport": 3}, "voll")
    move(g, 3, (6, 0))
    end_phase(g)
    # Next own move phase: unload on the far shore.
    for _ in range(3):
        end_phase(g)
    assert g.side == "nordbund" and g.phase == "move"
    assert hexes(g.unload_options(3)[0]["to"]) == {(7, 0), (6, 1)}
    unload(g, 3, 1, (7, 0))
    unload(g, 3, 2, (6, 1))
    assert unit_at(g, 7, 0).id == 1 and unit_at(g, 6, 1).id == 2 and g.units[3].cargo == []


def test_r44_transporter_lkw_carries_two_foot_units():
    """R44: the Transporter (LKW) carries two foot units; a third does not fit."""
    g = make(["=" * 8, "=" * 8], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "jaeger", (0, 1)),
                                  U("nordbund", "transporter", (1, 0)), U("nordbund", "jaeger", (2, 0))])
    load(g, 1, 3)
    load(g, 2, 3)
    assert_illegal(g, {"type": "load", "unit": 4, "transport": 3}, "voll")


# -- R41: unloading ------------------------------------------------------------------------------

def test_r41_unload_onto_a_free_neighbour_after_the_transport_moved():
    """R41: unloading in the move phase, also after the transport has moved, onto a free neighbouring
    hex the cargo may enter; the cargo counts as moved and goes no further."""
    g = make(["=" * 10], [U("nordbund", "transporter", (0, 0), cargo=[U("nordbund", "jaeger")])])
    move(g, 1, (5, 0))
    assert hexes(g.unload_options(1)[0]["to"]) == {(4, 0), (6, 0)}
    ev = unload(g, 1, 2, (6, 0))
    assert kinds(ev) == ["unloaded"]
    assert unit_at(g, 6, 0).id == 2 and g.units[2].moved and g.reachable(2) == []
    assert_illegal(g, {"type": "move", "unit": 2, "to": [7, 0]}, "schon bewegt")


def test_r41_unload_rejections():
    """R41: not onto an occupied hex, not onto a hex two away, not onto terrain the cargo cannot enter,
    not in the attack phase."""
    units = [U("nordbund", "transporter", (1, 0), cargo=[U("nordbund", "jaeger")]), U("nordbund", "jaeger", (2, 0))]
    g = make(["k=====", "======"], units)
    assert_illegal(g, {"type": "unload", "transport": 1, "unit": 2, "to": [2, 0]}, "nicht auf das Feld")
    assert_illegal(g, {"type": "unload", "transport": 1, "unit": 2, "to": [3, 0]}, "nicht auf das Feld")
    assert_illegal(g, {"type": "unload", "transport": 1, "unit": 2, "to": [0, 0]}, "nicht auf das Feld")
    assert_illegal(g, {"type": "unload", "transport": 1, "unit": 3, "to": [1, 1]}, "nicht geladen")
    unload(g, 1, 2, (1, 1))
    g = make(["k=====", "======"], units, phase="attack")
    assert_illegal(g, {"type": "unload", "transport": 1, "unit": 2, "to": [1, 1]}, "Zugphase")


def test_r41_r44_helicopter_unloads_onto_land_from_over_water():
    """R41/R44 (rulebook over engine): the only condition for unloading is a free neighbouring hex the
    cargo may enter. The "must stand on land" example belongs to boarding (Einladen) only, so a
    Transporthubschrauber hovering over the water next to the shore can set its Jäger down on land."""
    g = make(["~~~k..", "~~~k.."], [U("nordbund", "transporthubschrauber", (3, 0), cargo=[U("nordbund", "jaeger")])])
    assert hexes(g.unload_options(1)[0]["to"]) == {(4, 0)}
    unload(g, 1, 2, (4, 0))
    assert unit_at(g, 4, 0).id == 2


# -- R42, R43, D6: ships ------------------------------------------------------------------------

def test_r42_d6_landungsboot_loads_and_unloads_in_coastal_water():
    """R42/D6: a Kampfpanzer boards a Landungsboot lying in coastal water (a hex it could not enter
    itself) and gets off again onto a coast."""
    g = make(["..k~~k..", "..k~~k.."], [U("nordbund", "kampfpanzer", (1, 0)), U("nordbund", "landungsboot", (2, 0)),
                                        U("liga", "jaeger", (7, 1))])
    load(g, 1, 2)
    assert g.units[1].fuel == 50 - 1  # the boat's hex costs fuel like any hex entered (R18)
    move(g, 2, (5, 0))
    assert g.unload_options(2) == []  # the Kampfpanzer already moved this turn
    for _ in range(4):
        end_phase(g)
    assert hexes(g.unload_options(2)[0]["to"]) == {(6, 0)}
    unload(g, 2, 1, (6, 0))
    assert unit_at(g, 6, 0).type == "kampfpanzer"


def test_r42_landungsboot_not_on_open_sea():
    """R42: on open sea the Landungsboot neither loads nor unloads, even next to land."""
    g = make([".~~~....", "~~~~~~~~"], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "landungsboot", (1, 0))])
    assert g.load_options(1) == []
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "Küstengewässern")
    g = make([".~~~....", "~~~~~~~~"], [U("nordbund", "landungsboot", (1, 0), cargo=[U("nordbund", "jaeger")])])
    assert g.unload_options(1) == []
    assert_illegal(g, {"type": "unload", "transport": 1, "unit": 2, "to": [0, 0]}, "nicht ausladen")


def test_r42_landungsboot_in_a_port():
    """R42: the Landungsboot also loads in a port."""
    g = make([".P~~~~~~"], [U("nordbund", "jaeger", (0, 0)), U("nordbund", "landungsboot", (1, 0))],
             owners={(1, 0): "nordbund"})
    load(g, 1, 2)


def test_r43_d6_faehre_only_in_a_port_four_units_tanks_included():
    """R43/D6: the Fähre loads only in a port and takes four units, tanks included."""
    cargo = [U("nordbund", "kampfpanzer"), U("nordbund", "spaehwagen"), U("nordbund", "jaeger")]
    g = make(["..P~~~~k", "........"], [U("nordbund", "kampfpanzer", (1, 0)), U("nordbund", "faehre", (2, 0), cargo=cargo),
                                        U("nordbund", "jaeger", (1, 1))], owners={(2, 0): "nordbund"})
    load(g, 1, 2)
    assert len(g.units[2].cargo) == 4
    assert_illegal(g, {"type": "load", "unit": 6, "transport": 2}, "voll")
    g = make(["..k~~~~k"], [U("nordbund", "kampfpanzer", (1, 0)), U("nordbund", "faehre", (2, 0))])
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 2}, "nur im Hafen")
    # Unloading too happens only in a port ("pendelt zwischen zwei Häfen"; where there is no port the
    # Landungsboot helps, rulebook tip 5).
    g = make(["..k~~~~k"], [U("nordbund", "faehre", (2, 0), cargo=[U("nordbund", "jaeger")])])
    assert g.unload_options(1) == []
    assert_illegal(g, {"type": "unload", "transport": 1, "unit": 2, "to": [1, 0]}, "nicht ausladen")


def test_r43_faehre_shuttles_between_two_ports():
    """R43: load in one port, sail to another, unload there."""
    g = make([".P~~~P.."], [U("nordbund", "kampfpanzer", (0, 0)), U("nordbund", "faehre", (1, 0)),
                            U("liga", "jaeger", (7, 0))],
             owners={(1, 0): "nordbund"})
    load(g, 1, 2)
    move(g, 2, (5, 0))
    for _ in range(4):
        end_phase(g)
    unload(g, 2, 1, (6, 0))
    assert unit_at(g, 6, 0).id == 1


# -- R45, R46 ------------------------------------------------------------------------------------

def test_r45_schuetzenpanzer_fights_with_cargo_aboard():
    """R45: the Schützenpanzer carries one foot unit and fights itself."""
    g = make(["........"], [U("nordbund", "schuetzenpanzer", (0, 0), cargo=[U("nordbund", "jaeger")]),
                            U("liga", "jaeger", (1, 0))], phase="attack")
    ev = attack(g, 1, (1, 0))
    assert ev[0]["unit"] == 1 and g.units[1].cargo == [2]


def test_r46_cargo_cannot_attack_or_move_or_be_attacked():
    """R46: cargo is off the map: it cannot be targeted, and it neither attacks nor moves on its own."""
    g = make(["........"], [U("nordbund", "kampfpanzer", (0, 0)),
                            U("liga", "schuetzenpanzer", (1, 0), cargo=[U("liga", "jaeger")])], phase="attack")
    assert [o["target_id"] for o in g.attack_options(1)] == [2]
    g = make(["........"], [U("nordbund", "schuetzenpanzer", (0, 0), cargo=[U("nordbund", "jaeger")]),
                            U("liga", "jaeger", (1, 0))], phase="attack")
    assert_illegal(g, {"type": "attack", "unit": 2, "target": [1, 0]}, "verladen")
    g = make(["........"], [U("nordbund", "schuetzenpanzer", (0, 0), cargo=[U("nordbund", "jaeger")])])
    assert_illegal(g, {"type": "move", "unit": 2, "to": [1, 0]}, "verladen")


def test_r46_loaded_transport_is_marked():
    """R46: a loaded transport carries a marker: observe gives its load."""
    g = make(["........"], [U("nordbund", "transporter", (0, 0), cargo=[U("nordbund", "jaeger")])])
    assert g.observe("nordbund")["units"][0]["loaded"] == 1


def test_r40_loaded_unit_cannot_itself_board():
    """R39/R40 (engine decision, the rulebook is silent): a transport with cargo cannot board another
    transport, e.g. a loaded Schützenpanzer onto a Fähre; cargo is never nested."""
    g = make([".P~~~~~~"], [U("nordbund", "schuetzenpanzer", (0, 0), cargo=[U("nordbund", "jaeger")]),
                            U("nordbund", "faehre", (1, 0))], owners={(1, 0): "nordbund"})
    assert_illegal(g, {"type": "load", "unit": 1, "transport": 3}, "beladene Einheit")


def test_r21_r40_ambush_while_boarding():
    """R21/R40: a hidden enemy on the way to the transport stops the boarding unit on the hex before it;
    it does not board, and its move is spent. Spähwagen (vision 4) at (2, 1) sees up to (6, 1); the Fähre
    and its own port see (8, 1) onwards; the liga Jäger on (7, 1) is hidden."""
    rows = ["gggggggggggg", "==========P~", "gggggggggggg"]
    g = make(rows, [U("nordbund", "spaehwagen", (2, 1)), U("liga", "jaeger", (7, 1)),
                    U("nordbund", "faehre", (10, 1))], fog=True, owners={(10, 1): "nordbund"})
    assert [o["transport"] for o in g.load_options(1)] == [3]
    ev = load(g, 1, 3)
    assert kinds(ev) == ["moved", "ambushed"]
    assert unit_at(g, 6, 1).id == 1 and g.units[3].cargo == [] and g.units[1].moved
    assert g.units[1].fuel == 60 - 4
