"""Blitz mode (R66–R71): 10 rounds, no fuel and no ammunition, every Jäger captures at once, ground
units only, repair stays, the fixed start army and 600 money — and the differences to a normal game."""

from __future__ import annotations

import pytest

from helpers import U, assert_illegal, attack, end_phase, kinds, make, move
from kaltfront import Game, MapError
from kaltfront.mapfile import parse_map

HQS = {(0, 0): "nordbund", (9, 0): "liga"}

ARMY = ["jaeger", "jaeger", "spaehwagen", "schuetzenpanzer", "kampfpanzer", "panzerhaubitze"]


def blitz_map(*, money="600 600", round_limit="10", army_n=ARMY, army_l=ARMY, extra_terrain="",
              cargo="") -> str:
    """A small Blitz map: row 0 has both HQs and a Werk each, rows 1–2 hold the armies."""
    units = "\n".join(f"nordbund {t} {k} 1" for k, t in enumerate(army_n))
    units += "\n" + "\n".join(f"liga {t} {k} 2" for k, t in enumerate(army_l))
    return f"""[map]
name = Blitztest
blitz = true
round_limit = {round_limit}
money = {money}

[terrain]
H W . . . . {extra_terrain or "."} . W H
 . . . . . . . . . .
. . . . . . . . . .

[buildings]
0 0 nordbund Nord-HQ
1 0 nordbund
8 0 liga
9 0 liga Liga-HQ

[units]
{units}
{cargo}
"""


def test_r71_r66_blitz_map_loads_with_start_army_money_and_ten_rounds():
    """R71/R66: a Blitz scenario starts with two Jäger, a Spähwagen, a Schützenpanzer, a Kampfpanzer and
    a Panzerhaubitze per side, 600 money and a limit of 10 rounds."""
    sc = parse_map(blitz_map(), "blitztest")
    assert sc.blitz and sc.round_limit == 10 and sc.money == {"nordbund": 600, "liga": 600}
    g = Game.from_scenario(sc, seed=3, fog=True)
    for side in ("nordbund", "liga"):
        assert sorted(u.type for u in g.units.values() if u.side == side) == sorted(ARMY)
    # D4: the first side's first move phase already brought its income (HQ 300 + Werk 100).
    assert g.money == {"nordbund": 1000, "liga": 600}
    assert g.observe("nordbund")["round_limit"] == 10


def test_r66_blitz_maps_must_have_ten_rounds():
    """R66: the loader rejects a Blitz map with another round limit, naming the line."""
    with pytest.raises(MapError, match=r"Zeile 4.*10"):
        parse_map(blitz_map(round_limit="12"), "blitztest")


def test_r71_blitz_default_money_is_600():
    """R71: without a money line a Blitz map starts with 600 each."""
    text = blitz_map().replace("money = 600 600\n", "")
    assert parse_map(text, "blitztest").money == {"nordbund": 600, "liga": 600}


def test_r71_blitz_map_with_other_money_is_rejected():
    """R71: 600 money per side; the loader names the money line."""
    with pytest.raises(MapError, match=r"Zeile 5.*600"):
        parse_map(blitz_map(money="600 900"), "blitztest")


def test_r71_blitz_map_with_another_start_army_is_rejected():
    """R71: each side starts with exactly the Blitz army."""
    with pytest.raises(MapError, match="R71"):
        parse_map(blitz_map(army_l=ARMY[:-1]), "blitztest")
    with pytest.raises(MapError, match="R71"):
        parse_map(blitz_map(army_n=ARMY + ["jaeger"]), "blitztest")


def test_r69_blitz_maps_have_no_ports_or_airfields_and_no_other_units():
    """R69: no Hafen and no Flugplatz on a Blitz map, and only the Blitz units."""
    with pytest.raises(MapError, match="R69"):
        parse_map(blitz_map(extra_terrain="F"), "blitztest")
    with pytest.raises(MapError, match="R69"):
        parse_map(blitz_map(extra_terrain="P"), "blitztest")
    with pytest.raises(MapError, match=r"Zeile \d+.*R69"):
        parse_map(blitz_map(army_n=ARMY[:-1] + ["raketenwerfer"]), "blitztest")


def test_r67_no_ammunition_units_fire_every_turn():
    """R67: no ammunition in Blitz: a unit fires while it lives, turn after turn, and answers every time."""
    g = make(["H........H"], [U("nordbund", "kampfpanzer", (4, 0)),
                              U("liga", "kampfpanzer", (5, 0), level=5)], owners=HQS, blitz=True,
             phase="attack")
    assert g.units[1].ammo is None and g.units[1].fuel is None
    for _ in range(3):
        ev = attack(g, 1, (5, 0))
        assert ev[0]["counter_damage"] is not None
        g.units[1].hp = g.units[2].hp = 10   # keep both alive for the next round
        for _ in range(4):
            end_phase(g)
    assert g.units[1].ammo is None and g.units[2].ammo is None


def test_r67_no_fuel_full_movement_every_turn():
    """R67: no fuel in Blitz: a Spähwagen drives its full 8 road hexes every turn."""
    g = make(["=" * 30], [U("nordbund", "spaehwagen", (0, 0)), U("liga", "jaeger", (29, 0))], blitz=True)
    for turn in range(3):
        start = g.units[1].at
        assert max(c for c, _ in [tuple(r["to"]) for r in g.reachable(1)]) == start + 8
        move(g, 1, (start + 8, 0))
        for _ in range(3):
            end_phase(g)
        end_phase(g)
        assert (g.side, g.phase) == ("nordbund", "move")
    assert g.units[1].fuel is None


def test_r68_every_jaeger_captures_when_the_move_phase_ends():
    """R68: in Blitz a Jäger captures at the end of its move phase, no waiting for the next turn."""
    g = make(["H...S....H"], [U("nordbund", "jaeger", (3, 0)), U("liga", "jaeger", (7, 0))], owners=HQS, blitz=True)
    move(g, 1, (4, 0))
    ev = end_phase(g)
    assert g.buildings[4].owner == "nordbund" and "captured" in kinds(ev)
    assert "capture_started" not in kinds(ev)


def test_r66_r68_blitz_jaeger_on_the_enemy_hq_wins_at_once():
    """R66/R68: capturing the HQ before the limit wins at once, a Jäger suffices in Blitz."""
    g = make(["H........H"], [U("nordbund", "jaeger", (8, 0)), U("liga", "jaeger", (5, 0))], owners=HQS,
             blitz=True, round_limit=10, round_=4)
    move(g, 1, (9, 0))
    end_phase(g)
    assert g.outcome.winner == "nordbund" and g.outcome.reason == "hq"


def test_r69_only_ground_units_are_built():
    """R69: in Blitz only Jäger, Spähwagen, Schützenpanzer, Kampfpanzer and Panzerhaubitze are built."""
    g = make(["HW.......H"], [U("liga", "jaeger", (7, 0))], owners={**HQS, (1, 0): "nordbund"}, blitz=True,
             money=(5000, 0))
    assert {o["unit_type"] for o in g.build_options([0, 0])} == {"jaeger"}
    assert {o["unit_type"] for o in g.build_options([1, 0])} == {"spaehwagen", "schuetzenpanzer", "kampfpanzer",
                                                                 "panzerhaubitze"}
    assert_illegal(g, {"type": "build", "at": [0, 0], "unit_type": "pionier"}, "Blitz")
    assert_illegal(g, {"type": "build", "at": [1, 0], "unit_type": "raketenwerfer"}, "Blitz")
    g.apply({"type": "build", "at": [1, 0], "unit_type": "kampfpanzer"})
    built = max(g.units)
    assert g.units[built].ammo is None and g.units[built].fuel is None


def test_r70_repair_stays_in_blitz():
    """R70: damaged units on own buildings still gain 3 hp per turn."""
    g = make(["HW.......H"], [U("nordbund", "kampfpanzer", (1, 0), hp=4), U("liga", "jaeger", (7, 0))],
             owners={**HQS, (1, 0): "nordbund"}, blitz=True, phase="attack")
    ev = end_phase(g)
    assert g.units[1].hp == 7 and "repaired" in kinds(ev)


def test_r66_r50_after_round_ten_more_buildings_wins():
    """R66/R50: after round 10 the side holding more buildings wins."""
    g = make(["H...S....H"], [U("nordbund", "jaeger", (2, 0)), U("liga", "kampfpanzer", (7, 0)),
                              U("liga", "kampfpanzer", (6, 0))],
             owners={**HQS, (4, 0): "nordbund"}, blitz=True, round_=10, round_limit=10)
    end_phase(g)
    assert g.outcome is None
    end_phase(g)
    end_phase(g)
    assert g.outcome.winner == "nordbund" and g.outcome.reason == "round_limit"


def test_r67_r19_no_crash_without_fuel_in_blitz():
    """R67: without fuel there is nothing to run dry (Blitz has no aircraft, but the rule holds for every
    unit): fuel stays None and nothing crashes."""
    g = make(["H........H"], [U("nordbund", "kampfpanzer", (2, 0)), U("liga", "jaeger", (7, 0))], owners=HQS,
             blitz=True)
    move(g, 1, (5, 0))
    ev = end_phase(g)
    assert "crashed" not in kinds(ev) and g.units[1].fuel is None


def test_blitz_differences_against_a_normal_game():
    """R67/R68 against R18/R31/R35: the same position without Blitz spends fuel and ammunition and a
    Jäger needs two turns."""
    for blitz in (False, True):
        g = make(["H...S....H"], [U("nordbund", "jaeger", (3, 0)), U("nordbund", "kampfpanzer", (6, 0)),
                                  U("liga", "jaeger", (7, 0))], owners=HQS, blitz=blitz, phase="attack")
        attack(g, 2, (7, 0))
        end_phase(g)
        move(g, 1, (4, 0))
        move(g, 2, (5, 0))
        end_phase(g)
        if blitz:
            assert g.units[2].ammo is None and g.units[2].fuel is None
            assert g.buildings[4].owner == "nordbund"
        else:
            assert g.units[2].ammo == 5 and g.units[2].fuel == 49
            assert g.buildings[4].owner is None and g.buildings[4].capture_side == "nordbund"
