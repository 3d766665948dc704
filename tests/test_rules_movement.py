"""Movement (R13–R19, D7): points and terrain costs, the full-points step, passing own units, movement
classes, fuel, aircraft that run dry. Ambushes are in test_rules_fog.py."""

from __future__ import annotations

import pytest

from helpers import U, assert_illegal, end_phase, kinds, make, move, reach, unit_at

# A corridor: mountains above and below a road, so wheeled and tracked units can only go along row 1.
CORRIDOR = ["gggggggggg", "==========", "gggggggggg"]


def test_r14_path_cost_within_points_foot_on_plain():
    """R14: a Jäger (3 points) reaches every plain hex at distance ≤ 3, none at 4."""
    g = make(["." * 9] * 9, [U("nordbund", "jaeger", (4, 4))])
    got = reach(g, 1)
    assert len(got) == 36  # 6 + 12 + 18 hexes at distance 1, 2, 3
    assert all(g.grid.dist(4 * 9 + 4, r * 9 + c) <= 3 for c, r in got)
    costs = {tuple(r["to"]): r["cost"] for r in g.reachable(1)}
    assert costs[(7, 4)] == 3 and (8, 4) not in costs


def test_r14_r17_wheels_pay_two_on_plain_one_on_road():
    """R14/R17: Rad pays 2 per plain hex: a Spähwagen (8) gets 4 plain hexes but 8 road hexes."""
    g = make(["." * 12], [U("nordbund", "spaehwagen", (0, 0))])
    assert max(c for c, _ in reach(g, 1)) == 4
    g = make(["=" * 12], [U("nordbund", "spaehwagen", (0, 0))])
    assert max(c for c, _ in reach(g, 1)) == 8


def test_r13_one_move_per_phase_spends_all_movement():
    """R13: a unit moves once per move phase; there is no second step ("Nachziehen gibt es nicht")."""
    g = make(["........"], [U("nordbund", "jaeger", (0, 0))])
    move(g, 1, (1, 0))
    assert g.units[1].moved and g.reachable(1) == []
    assert_illegal(g, {"type": "move", "unit": 1, "to": [2, 0]}, "schon bewegt")


def test_r9_no_movement_in_the_attack_phase():
    """R9: moving is impossible in the attack phase."""
    g = make(["........"], [U("nordbund", "jaeger", (0, 0))], phase="attack")
    assert g.reachable(1) == []
    assert_illegal(g, {"type": "move", "unit": 1, "to": [1, 0]}, "Zugphase")


def test_r15_full_points_step_panzerjaeger_over_river_and_into_mountains():
    """R15: a Panzerjäger (2 points) may step into a river or the mountains (3 points) next to it,
    but not further; on plain it gets its 2 hexes."""
    for row in (".rr.....", ".gg....."):
        g = make([row], [U("nordbund", "panzerjaeger", (0, 0))])
        assert reach(g, 1) == {(1, 0)}, row
        move(g, 1, (1, 0))
        assert unit_at(g, 1, 0).id == 1
    g = make(["........"], [U("nordbund", "panzerjaeger", (0, 0))])
    assert reach(g, 1) == {(1, 0), (2, 0)}
    # Plain first, then river: the river hex would cost 1 + 3 = 4 > 2, and the exception is only for
    # the first step from the start hex.
    g2 = make(["..r....."], [U("nordbund", "panzerjaeger", (0, 0))])
    assert reach(g2, 1) == {(1, 0)}


def test_r15_the_step_is_only_onto_passable_terrain():
    """R15: the exception is about expensive hexes, not impassable ones: a Spähwagen never enters a river,
    and a Kampfpanzer never the mountains."""
    g = make(["=r......"], [U("nordbund", "spaehwagen", (0, 0))])
    assert reach(g, 1) == set()
    g = make([".g......"], [U("nordbund", "kampfpanzer", (0, 0))])
    assert reach(g, 1) == set()


def test_r15_r18_step_with_one_fuel_left():
    """R15/R18 (decision): fuel counts hexes, not points ("1 je betretenem Feld, unabhängig vom
    Gelände"), so a Spähwagen with 1 fuel still makes its one step onto plain (2 points), and with 0
    fuel it cannot move at all."""
    g = make(["........"], [U("nordbund", "spaehwagen", (0, 0), fuel=1)])
    assert reach(g, 1) == {(1, 0)}
    move(g, 1, (1, 0))
    assert g.units[1].fuel == 0
    g = make(["........"], [U("nordbund", "spaehwagen", (0, 0), fuel=0)])
    assert reach(g, 1) == set()
    assert_illegal(g, {"type": "move", "unit": 1, "to": [1, 0]}, "nicht erreichen")


def test_r16_through_own_units_never_onto_them():
    """R16: own units can be passed; the destination must be free."""
    g = make(CORRIDOR, [U("nordbund", "spaehwagen", (0, 1)), U("nordbund", "jaeger", (2, 1))])
    got = reach(g, 1)
    assert (2, 1) not in got and (3, 1) in got and (8, 1) in got
    assert_illegal(g, {"type": "move", "unit": 1, "to": [2, 1]}, "nicht erreichen")
    move(g, 1, (5, 1))
    assert unit_at(g, 5, 1).id == 1


def test_r16_never_through_enemy_units():
    """R16: a (visible) enemy blocks the way; the unit cannot pass it nor end on it."""
    g = make(CORRIDOR, [U("nordbund", "spaehwagen", (0, 1)), U("liga", "jaeger", (3, 1))])
    assert reach(g, 1) == {(1, 1), (2, 1)}
    assert_illegal(g, {"type": "move", "unit": 1, "to": [5, 1]})


def test_r19_aircraft_cannot_fly_through_enemy_units():
    """R19: aircraft are blocked by enemy units too (one-row map: no way round)."""
    g = make(["~~~~~~~~~~"], [U("nordbund", "kampfhubschrauber", (0, 0)), U("liga", "patrouillenboot", (2, 0))])
    assert reach(g, 1) == {(1, 0)}


@pytest.mark.parametrize("utype,row,passable", [
    ("jaeger", ".r", {1}), ("jaeger", ".g", {1}), ("jaeger", ".m", {1}), ("jaeger", ".w", {1}),
    ("jaeger", ".h", {1}), ("jaeger", ".b", {1}), ("jaeger", ".o", {1}),
    ("spaehwagen", "=m", set()), ("spaehwagen", "=r", set()), ("spaehwagen", "=g", set()),
    ("spaehwagen", "=w", {1}), ("spaehwagen", "=h", {1}),
    ("kampfpanzer", "=w", {1}), ("kampfpanzer", "=h", {1}), ("kampfpanzer", "=m", {1}),
    ("kampfpanzer", "=r", set()), ("kampfpanzer", "=g", set()),
    ("jaeger", ".~", set()), ("jaeger", ".k", set()),
    ("kampfhubschrauber", ".~", {1}), ("kampfhubschrauber", ".g", {1}), ("kampfhubschrauber", ".r", {1}),
    ("fregatte", "~k", {1}), ("fregatte", "~P", {1}), ("fregatte", "~b", {1}), ("fregatte", "~.", set()),
    ("fregatte", "~S", set()), ("patrouillenboot", "kr", set()),
])
def test_r17_movement_classes(utype, row, passable):
    """R17: Rad not through river, moor, mountains; Kette through forest, hills, moor but not river or
    mountains; Luft over everything; See on open sea, coastal water, ports and under bridges."""
    g = make([row], [U("nordbund", utype, (0, 0))])
    got = {c for c, _ in reach(g, 1)}
    if passable:
        assert passable <= got, (utype, row)
    else:
        assert 1 not in got, (utype, row)


def test_r17_aircraft_pay_one_everywhere():
    """R17: every hex costs an aircraft 1: a Kampfhubschrauber (6) flies 6 hexes over sea and mountains."""
    g = make(["~gggrrww~~~"], [U("nordbund", "kampfhubschrauber", (0, 0))])
    costs = {tuple(r["to"]): r["cost"] for r in g.reachable(1)}
    assert costs[(6, 0)] == 6 and (7, 0) not in costs


def test_r18_one_fuel_per_hex_whatever_the_terrain():
    """R18: 1 fuel per hex entered, independent of the terrain's point cost: 2 plain hexes cost a
    Spähwagen 4 points but 2 fuel."""
    g = make(["........"], [U("nordbund", "spaehwagen", (0, 0))])
    move(g, 1, (2, 0))
    assert g.units[1].fuel == 60 - 2


def test_r18_reach_is_the_smaller_of_points_and_fuel():
    """R18: a Spähwagen (8 points) with 3 fuel left gets 3 road hexes."""
    g = make(["=" * 12], [U("nordbund", "spaehwagen", (0, 0), fuel=3)])
    assert max(c for c, _ in reach(g, 1)) == 3


# The tests below tell D12 apart from the old single budget min(points, fuel): on terrain that costs
# more than 1 point the two readings give different answers (on roads they agree).

def test_d12_r18_scout_with_three_fuel_crosses_three_plain_hexes():
    """D12/R18: a Spähwagen (8 points) with 3 fuel crosses three plain hexes (6 points, 3 fuel), not
    one (min(8, 3) = 3 points would buy a single plain hex at 2 points)."""
    g = make(["." * 12], [U("nordbund", "spaehwagen", (0, 0), fuel=3)])
    got = {tuple(r["to"]): r for r in g.reachable(1)}
    assert max(c for c, _ in got) == 3
    assert (got[(3, 0)]["cost"], got[(3, 0)]["hexes"]) == (6, 3)
    move(g, 1, (3, 0))
    assert g.units[1].fuel == 0


def test_d12_r18_tank_with_three_fuel_gets_two_forest_hexes():
    """D12/R18: a Kampfpanzer (5 points, forest 2) with 3 fuel gets two forest hexes (4 points,
    2 fuel), not one (min(5, 3) = 3 points would buy only one)."""
    g = make(["w" * 10], [U("nordbund", "kampfpanzer", (0, 0), fuel=3)])
    assert reach(g, 1) == {(1, 0), (2, 0)}
    move(g, 1, (2, 0))
    assert g.units[1].fuel == 1


def test_d12_r18_points_still_pay_the_terrain():
    """D12/R14: plenty of fuel does not buy more than the points: a Kampfpanzer with a full tank still
    gets only two forest hexes (2 + 2 = 4 of 5 points; a third would cost 6)."""
    g = make(["w" * 10], [U("nordbund", "kampfpanzer", (0, 0))])
    assert reach(g, 1) == {(1, 0), (2, 0)}


def test_d12_r18_fuel_caps_the_hexes_on_cheap_terrain():
    """D12/R18: fuel counts hexes: a Kampfpanzer with 2 fuel goes 2 road hexes although 5 points would
    carry it 5."""
    g = make(["=" * 10], [U("nordbund", "kampfpanzer", (0, 0), fuel=2)])
    assert reach(g, 1) == {(1, 0), (2, 0)}


def test_d12_r18_a_path_must_fit_both_budgets():
    """D12: with 2 fuel a Kampfpanzer reaches (2, 0) straight through the forest (2 hexes, 4 points),
    but not (3, 0): every way there enters at least 3 hexes, although the road (4 points) would fit
    its 5 points."""
    g = make(["=ww.", "===="], [U("nordbund", "kampfpanzer", (0, 0), fuel=2)])
    got = {tuple(r["to"]): r for r in g.reachable(1)}
    assert (got[(2, 0)]["hexes"], got[(2, 0)]["cost"]) == (2, 4)
    assert (3, 0) not in got
    g = make(["=ww.", "===="], [U("nordbund", "kampfpanzer", (0, 0), fuel=4)])
    assert (3, 0) in reach(g, 1)


def test_d12_fuel_unit_takes_the_path_that_burns_least_fuel():
    """D12 with R13: points are spent whatever the path, fuel is not, so a vehicle takes the path with
    the fewest hexes (then the fewest points): to (3, 0) straight through two forest hexes (3 hexes,
    5 points) rather than along the road below (4 hexes, 4 points)."""
    g = make([".ww.", "===="], [U("nordbund", "kampfpanzer", (0, 0))])
    r = {tuple(x["to"]): x for x in g.reachable(1)}[(3, 0)]
    assert (r["hexes"], r["cost"]) == (3, 5)
    assert r["path"] == [[0, 0], [1, 0], [2, 0], [3, 0]]
    move(g, 1, (3, 0))
    assert g.units[1].fuel == 50 - 3


def test_d12_r15_the_one_step_needs_one_fuel():
    """D12/R15: every hex entered needs 1 fuel, the first one too: a Kampfpanzer with 1 fuel gets
    exactly one forest hex, with 0 fuel none."""
    g = make(["wwww"], [U("nordbund", "kampfpanzer", (0, 0), fuel=1)])
    assert reach(g, 1) == {(1, 0)}
    move(g, 1, (1, 0))
    assert g.units[1].fuel == 0
    g = make(["wwww"], [U("nordbund", "kampfpanzer", (0, 0), fuel=0)])
    assert reach(g, 1) == set()


def test_d12_r15_exception_and_fuel_for_a_slow_unit():
    """D12/R15: a Panzerhaubitze (4 points) on hills (Kette 2) with 1 fuel: one hill hex; with 3 fuel:
    two (4 points), never three."""
    g = make(["hhhhh"], [U("nordbund", "panzerhaubitze", (0, 0), fuel=1)])
    assert reach(g, 1) == {(1, 0)}
    g = make(["hhhhh"], [U("nordbund", "panzerhaubitze", (0, 0), fuel=3)])
    assert reach(g, 1) == {(1, 0), (2, 0)}


def test_d12_r40_boarding_needs_fuel_for_the_transport_hex():
    """D12/R40: boarding enters the transport's hex, which costs 1 point and 1 fuel: a Kampfpanzer
    with 2 fuel boards a Fähre in the port two hexes away (1 hex to its neighbour + 1), with 1 fuel
    it does not."""
    rows = ["==P~~"]
    for fuel, ok in ((2, True), (1, False)):
        g = make(rows, [U("nordbund", "kampfpanzer", (0, 0), fuel=fuel), U("nordbund", "faehre", (2, 0))],
                 owners={(2, 0): "nordbund"})
        opts = g.load_options(1)
        assert bool(opts) is ok, fuel
        if ok:
            assert opts[0]["path"] == [[0, 0], [1, 0], [2, 0]]
            g.apply({"type": "load", "unit": 1, "transport": 2})
            assert g.units[1].fuel == 0
        else:
            assert_illegal(g, {"type": "load", "unit": 1, "transport": 2})


def test_r17_r18_foot_units_use_no_fuel():
    """R17/R18: foot units need no fuel."""
    g = make(["........"], [U("nordbund", "jaeger", (0, 0))])
    move(g, 1, (3, 0))
    assert g.units[1].fuel is None


def test_d7_ferry_line_carries_ground_units_like_a_road():
    """D7: the ferry line over water is crossed by ground units like a road (Rad pays 1 per hex)."""
    g = make(["~~~~~~~~", "=ffff=..", "~~~~~~~~"], [U("nordbund", "spaehwagen", (0, 1))])
    costs = {tuple(r["to"]): r["cost"] for r in g.reachable(1)}
    assert costs[(5, 1)] == 5
    move(g, 1, (5, 1))
    g = make(["~~~~~~~~", "=ffff=..", "~~~~~~~~"], [U("nordbund", "kampfpanzer", (0, 1))])
    assert (5, 1) in reach(g, 1)


# -- R19: aircraft running dry --------------------------------------------------------------------

def _dry(rows, owners=None, **extra):
    return make(rows, [U("nordbund", "kampfjet", (0, 0), fuel=0, moved=True, **extra),
                       U("liga", "jaeger", (7, 0))], owners=owners or {})


def test_r19_aircraft_with_no_fuel_crash_at_the_end_of_the_move_phase():
    """R19: fuel 0 at the end of the owner's move phase, not on an own airfield, HQ or depot → lost."""
    g = _dry(["........"])
    ev = end_phase(g)
    assert 1 not in g.units
    crashed = [e for e in ev if e["type"] == "crashed"]
    assert crashed and crashed[0]["unit"] == 1 and crashed[0]["at"] == [0, 0]


@pytest.mark.parametrize("building", ["F", "H", "D"])
def test_r19_own_airfield_hq_or_depot_saves_and_refuels(building):
    """R19: on an own Flugplatz, HQ or Depot the aircraft does not crash, and it is refuelled
    completely at the start of its owner's next move phase."""
    rows = [building + "......H" if building != "H" else "H......H"]
    g = make(rows, [U("nordbund", "kampfjet", (0, 0), fuel=0, moved=True), U("liga", "jaeger", (5, 0))],
             owners={(0, 0): "nordbund", (7, 0): "liga"})
    end_phase(g)                       # nordbund's move phase ends: no crash
    assert g.units[1].fuel == 0
    end_phase(g)                       # liga attack → liga move
    end_phase(g)                       # liga move ends
    end_phase(g)                       # nordbund attack → nordbund move: refuel
    assert g.units[1].fuel == 20


@pytest.mark.parametrize("owner", [None, "liga"])
def test_r19_foreign_or_neutral_airfield_does_not_save(owner):
    """R19: only an *own* airfield counts."""
    g = make(["F......"], [U("nordbund", "kampfjet", (0, 0), fuel=0, moved=True), U("liga", "jaeger", (5, 0))],
             owners={(0, 0): owner})
    end_phase(g)
    assert 1 not in g.units


def test_r19_stadt_or_werk_does_not_save():
    """R19: only Flugplatz, HQ and Depot save an aircraft; an own Stadt does not."""
    g = make(["S......"], [U("nordbund", "kampfjet", (0, 0), fuel=0, moved=True), U("liga", "jaeger", (5, 0))],
             owners={(0, 0): "nordbund"})
    end_phase(g)
    assert 1 not in g.units


def test_r19_crash_only_at_the_end_of_the_owners_move_phase():
    """R19: the check belongs to the owner's move phase: liga's dry helicopter survives nordbund's."""
    g = make(["........"], [U("nordbund", "jaeger", (0, 0)), U("liga", "kampfhubschrauber", (5, 0), fuel=0)])
    end_phase(g)
    assert 2 in g.units
    end_phase(g)  # liga attack → move
    assert 2 in g.units
    end_phase(g)  # liga move ends
    assert 2 not in g.units


def test_r19_d4_versorger_refuels_before_the_crash_check():
    """R19/R31/D4: end-of-move-phase effects run in order: the Versorger resupplies, then aircraft that
    are still dry crash. A helicopter next to a Versorger survives with a full tank."""
    g = make(["........"], [U("nordbund", "kampfhubschrauber", (0, 0), fuel=0), U("nordbund", "versorger", (1, 0)),
                            U("liga", "jaeger", (6, 0))])
    ev = end_phase(g)
    assert 1 in g.units and g.units[1].fuel == 30
    assert "crashed" not in kinds(ev)


def test_r19_flying_until_dry_then_crash():
    """R19/R18: a Kampfjet with 2 fuel flies 2 hexes over plain, ends on 0 and crashes."""
    g = make(["........"], [U("nordbund", "kampfjet", (0, 0), fuel=2), U("liga", "jaeger", (7, 0))])
    assert max(c for c, _ in reach(g, 1)) == 2
    move(g, 1, (2, 0))
    ev = end_phase(g)
    assert "crashed" in kinds(ev) and 1 not in g.units
