"""Combat (R22–R31, D2, D3): the damage formula against hand-computed cases, counter-fire, ranges,
armour classes, experience and ammunition.

Hand computation, in the engine's exact integer form (kaltfront/combat.py):
  S  = attack value × hp × (10 + level)          (= strength × 100)
  D2 = 2 × (defence + terrain bonus [+1 on own building]) + level      (= defence × 2)
  share = S / (S + 50 × D2);  damage = round_half_away(9 × share + roll), clamped to [1, target hp].
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from helpers import U, assert_illegal, attack, kinds, make, rng_for, unit_at
from kaltfront.combat import base_damage, clamp_damage

PLAIN = ["........"]


def hand(attack_value, hp, level, d2):
    """9 × share as an exact fraction, for the comments' arithmetic."""
    s = Fraction(attack_value * hp * (10 + level), 100)
    return 9 * s / (s + Fraction(d2, 2))


def fight(attacker: dict, target: dict, rows=PLAIN, rolls=(0, 0), **kw):
    """nordbund's `attacker` attacks liga's `target` with the given random rolls; returns (game, events)."""
    g = make(rows, [attacker, target], phase="attack", rng=rng_for(*rolls), **kw)
    ev = attack(g, 1, target["at"])
    return g, ev


# -- R26: the damage formula ----------------------------------------------------------------------

def test_r26_kampfpanzer_vs_kampfpanzer_on_plain():
    """R26: KP 10 hp level 0 vs KP on plain: S = 8*10*10 = 800, D2 = 2*6 = 12 → share 800/1400 →
    9*share = 5.14 → 5. The KP left with 5 hp fires back (R29): S = 8*5*10 = 400 → 400/1000 → 3.6 → 4."""
    assert round(float(hand(8, 10, 0, 12)), 2) == 5.14
    g = make(PLAIN, [U("nordbund", "kampfpanzer", (0, 0)), U("liga", "kampfpanzer", (1, 0))], phase="attack",
             rng=rng_for(0, 0))
    opt, = g.attack_options(1)
    assert opt["damage"] == 5 and opt["damage_range"] == [4, 6]     # D2: without the random part, and the range
    assert opt["counter"] == 4 and opt["counter_range"] == [3, 5]
    ev = attack(g, 1, (1, 0))
    assert ev[0]["damage"] == 5 and ev[0]["counter_damage"] == 4
    assert g.units[2].hp == 5 and g.units[1].hp == 6


def test_r26_five_hp_hits_half_as_hard():
    """R26: a unit with 5 hp attacks with half the strength: S = 8*5*10 = 400 (half of 800) →
    400/(400+600) = 0.4 → 3.6 → 4 instead of 5."""
    assert hand(8, 5, 0, 12) == Fraction(18, 5)
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0), hp=5), U("liga", "kampfpanzer", (1, 0)))
    assert ev[0]["damage"] == 4


def test_r26_r30_level_five_hits_fifty_percent_harder():
    """R26/R30: level 5 → × 1.5: S = 8*10*15 = 1200 → 1200/1800 → 9*2/3 = 6.0 → 6."""
    assert hand(8, 10, 5, 12) == 6
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0), level=5), U("liga", "kampfpanzer", (1, 0)))
    assert ev[0]["damage"] == 6


def test_r30_defence_plus_half_per_level():
    """R30: each level adds 0.5 defence. KP vs KP level 2: D2 = 12 + 2 = 14 → 800/1500 → 4.8 → 5;
    vs level 5: D2 = 17 → 800/1650 → 4.36 → 4."""
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0)), U("liga", "kampfpanzer", (1, 0), level=5))
    assert round(float(hand(8, 10, 0, 17)), 2) == 4.36
    assert ev[0]["damage"] == 4
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0)), U("liga", "kampfpanzer", (1, 0), level=2))
    assert ev[0]["damage"] == 5


@pytest.mark.parametrize("attacker,target_level,note", [
    ("kampfhubschrauber", 0, "S = 6*10*10 = 600, D2 = 12 → 600/1200 → 4.5"),
    ("kampfpanzer", 4, "S = 800, D2 = 12 + 4 = 16 → 800/1600 → 4.5"),
])
def test_d2_r26_half_rounds_away_from_zero(attacker, target_level, note):
    """D2: "gerundet" is half away from zero: 4.5 → 5 (Python's round() would give 4)."""
    g, ev = fight(U("nordbund", attacker, (0, 0)), U("liga", "kampfpanzer", (1, 0), level=target_level))
    assert ev[0]["damage"] == 5, note
    assert round(4.5) == 4  # the trap the rule avoids


def test_d2_rounding_with_the_random_part():
    """D2/R26: the random part is added before rounding: 4.5 − 1 = 3.5 → 4, 4.5 + 1 = 5.5 → 6."""
    for roll, want in ((-1, 4), (0, 5), (1, 6)):
        g, ev = fight(U("nordbund", "kampfhubschrauber", (0, 0)), U("liga", "kampfpanzer", (1, 0)),
                      rolls=(roll,))
        assert ev[0]["damage"] == want, roll
    assert base_damage(6, 10, 0, 12) == 5
    assert [base_damage(a, hp, lv, d) for a, hp, lv, d in ((5, 10, 0, 10), (5, 10, 0, 4))] == [5, 6]  # 4.5, 6.43


def test_r26_at_least_one_damage():
    """R26: every hit does at least 1. Jäger 1 hp (2 vs hart) vs KP in forest: S = 2*1*10 = 20,
    D2 = 2*(6+2) = 16 → 20/820 → 0.22 → 0, with roll −1 → −1 → still 1."""
    assert float(hand(2, 1, 0, 16)) < 0.25
    g, ev = fight(U("nordbund", "jaeger", (0, 0), hp=1), U("liga", "kampfpanzer", (1, 0)), rows=[".w......"],
                  rolls=(-1, 0))
    assert ev[0]["damage"] == 1
    assert g.units[2].hp == 9
    assert clamp_damage(-1, 10) == 1 and clamp_damage(0, 10) == 1


def test_r26_r27_at_most_target_hp_and_destroyed_at_zero():
    """R26/R27: at most the target's hp. Raketenwerfer at distance 3 vs Jäger with 2 hp:
    S = 8*10*10 = 800, D2 = 4 → 800/1000 → 7.2 → 7 (+1) → clamped to 2; the Jäger is destroyed."""
    g, ev = fight(U("nordbund", "raketenwerfer", (0, 0)), U("liga", "jaeger", (3, 0), hp=2), rolls=(1,))
    assert ev[0]["damage"] == 2
    assert 2 not in g.units and unit_at(g, 3, 0) is None
    assert "destroyed" in kinds(ev)
    opts = make(PLAIN, [U("nordbund", "raketenwerfer", (0, 0)), U("liga", "jaeger", (3, 0), hp=2)],
                phase="attack").attack_options(1)
    assert opts[0]["damage"] == 2 and opts[0]["damage_range"] == [2, 2] and opts[0]["destroys"]


@pytest.mark.parametrize("row,owners,want,note", [
    ("........", {}, 6, "plain: D2 = 2*2 = 4 → 500/700 → 6.43 → 6"),
    (".w......", {}, 5, "forest +2: D2 = 8 → 500/900 → 5.0 → 5"),
    (".o......", {}, 5, "Ortschaft +2: D2 = 8 → 5"),
    (".g......", {}, 5, "mountains +3: D2 = 10 → 500/1000 → 4.5 → 5"),
    (".h......", {}, 6, "hills +1: D2 = 6 → 500/800 → 5.625 → 6"),
])
def test_r28_terrain_bonus(row, owners, want, note):
    """R28: the target hex's terrain bonus adds to its defence (Jäger vs Jäger, S = 5*10*10 = 500)."""
    g, ev = fight(U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (1, 0)), rows=[row], owners=owners)
    assert ev[0]["damage"] == want, note


@pytest.mark.parametrize("owner,want,note", [
    ("liga", 4, "own HQ: D2 = 2*(2+3+1) = 12 → 500/1100 → 4.09 → 4"),
    ("nordbund", 5, "enemy HQ (the target stands on the attacker's HQ): D2 = 2*(2+3) = 10 → 4.5 → 5"),
])
def test_r26_r36_own_building_gives_one_more(owner, want, note):
    """R26: +1 when the target stands on a building its owner holds; R36: the HQ gives +3."""
    rows = [".H.H...."]  # the second HQ belongs to the other side
    owners = {(1, 0): owner, (3, 0): "nordbund" if owner == "liga" else "liga"}
    g, ev = fight(U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (1, 0)), rows=rows, owners=owners)
    assert ev[0]["damage"] == want, note


def test_r26_neutral_building_gives_no_owner_bonus():
    """R26: a neutral Stadt gives only its terrain bonus. KP (7 vs weich) vs Jäger: S = 700;
    neutral Stadt D2 = 2*(2+2) = 8 → 700/1100 → 5.73 → 6; own Stadt D2 = 10 → 700/1200 → 5.25 → 5."""
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0)), U("liga", "jaeger", (1, 0)), rows=[".S......"])
    assert ev[0]["damage"] == 6
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0)), U("liga", "jaeger", (1, 0)), rows=[".S......"],
                  owners={(1, 0): "liga"})
    assert ev[0]["damage"] == 5


def test_r28_water_gives_no_bonus():
    """R28: water hexes give +0. Fregatte (8 vs See) vs Patrouillenboot (defence 3) on coastal water:
    S = 800, D2 = 6 → 800/1100 → 6.55 → 7."""
    g, ev = fight(U("nordbund", "fregatte", (0, 0)), U("liga", "patrouillenboot", (1, 0)), rows=["kkkkkkkk"])
    assert ev[0]["damage"] == 7


# -- R29: counter-fire ------------------------------------------------------------------------------

def test_r29_d3_counter_fire_with_hp_after_the_hit_costs_a_shot():
    """R29: the surviving target fires back once, with its hp after the hit. D3: that costs it a shot.
    Jäger vs Jäger on plain: 6 (6.43); the target, 4 hp left: S = 5*4*10 = 200 → 200/400 → 4.5 → 5."""
    g, ev = fight(U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (1, 0)))
    assert ev[0]["damage"] == 6 and ev[0]["counter_damage"] == 5
    assert g.units[1].hp == 5 and g.units[2].hp == 4
    assert g.units[1].ammo == 8 and g.units[2].ammo == 8   # 9 − 1 each
    assert kinds(ev) == ["attacked"]  # no further exchange


def test_r29_no_counter_attacking_a_howitzer_from_next_door():
    """R29 case 1: a Panzerhaubitze attacked from the neighbouring hex does not answer (minimum range 2).
    KP vs PzH (defence 2): 800/1000 → 7.2 → 7, the PzH keeps 3 hp and is silent."""
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0)), U("liga", "panzerhaubitze", (1, 0)))
    assert ev[0]["damage"] == 7 and ev[0]["counter_damage"] is None
    assert g.units[2].hp == 3 and g.units[1].hp == 10 and g.units[2].ammo == 5
    g2 = make(PLAIN, [U("nordbund", "kampfpanzer", (0, 0)), U("liga", "panzerhaubitze", (1, 0))], phase="attack")
    assert g2.attack_options(1)[0]["counter"] is None


def test_r29_no_counter_from_a_tank_shelled_at_three_hexes():
    """R29 case 2: a Panzerhaubitze fires from 3 hexes at a Kampfpanzer (range 1): no answer.
    PzH 6 vs hart: S = 600, D2 = 12 → 4.5 → 5."""
    g, ev = fight(U("nordbund", "panzerhaubitze", (0, 0)), U("liga", "kampfpanzer", (3, 0)))
    assert ev[0]["damage"] == 5 and ev[0]["counter_damage"] is None
    assert g.units[1].hp == 10


def test_r29_no_counter_from_a_tank_against_a_helicopter():
    """R29 case 3: Kampfhubschrauber vs Kampfpanzer: the tank has no attack against Luft."""
    g, ev = fight(U("nordbund", "kampfhubschrauber", (0, 0)), U("liga", "kampfpanzer", (1, 0)))
    assert ev[0]["damage"] == 5 and ev[0]["counter_damage"] is None
    assert g.units[1].hp == 10 and g.units[2].ammo == 6


def test_r29_no_counter_from_a_destroyed_target():
    """R29 case 4: a destroyed target has nothing to answer with."""
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0)), U("liga", "jaeger", (1, 0), hp=3))
    assert ev[0]["counter_damage"] is None and 2 not in g.units and g.units[1].hp == 10


def test_r29_r31_no_counter_without_ammunition():
    """R29/R31: a target without ammunition cannot answer."""
    g, ev = fight(U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (1, 0), ammo=0))
    assert ev[0]["counter_damage"] is None and g.units[1].hp == 10
    g2 = make(PLAIN, [U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (1, 0), ammo=0)], phase="attack")
    assert g2.attack_options(1)[0]["counter"] is None


def test_r29_counter_at_distance_two_from_a_range_two_target():
    """R29: the attacker within the target's range is answered, also at distance 2: a Panzerhaubitze
    shelling a Flugabwehr (range 1–2, 1 vs hart) from 2 hexes. PzH 6 vs hart: S = 600, D2 = 2*4 = 8 →
    600/1000 → 5.4 → 5; the Flak with 5 hp: S = 1*5*10 = 50, D2 = 2*2 = 4 → 50/250 → 1.8 → 2.
    From 3 hexes the Flak is silent."""
    g, ev = fight(U("nordbund", "panzerhaubitze", (0, 0)), U("liga", "flugabwehr", (2, 0)))
    assert ev[0]["damage"] == 5 and ev[0]["counter_damage"] == 2 and g.units[1].hp == 8
    g, ev = fight(U("nordbund", "panzerhaubitze", (0, 0)), U("liga", "flugabwehr", (3, 0)))
    assert ev[0]["counter_damage"] is None


def test_r30_counter_kill_levels_the_defender():
    """R30: a defender that destroys its attacker by counter-fire gains a level.
    Jäger 1 hp vs Jäger: S = 50 → 50/250 → 1.8 → 2; answer at 8 hp: S = 400 → 400/600 → 6 ≥ 1 hp."""
    g, ev = fight(U("nordbund", "jaeger", (0, 0), hp=1), U("liga", "jaeger", (1, 0)))
    assert ev[0]["damage"] == 2 and 1 not in g.units
    assert g.units[2].level == 1 and g.units[2].hp == 8
    assert kinds(ev) == ["attacked", "destroyed", "level_up"]


def test_r30_kill_gives_a_level_at_most_five():
    """R30: a kill gives the killer one level, never beyond 5."""
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0), level=2), U("liga", "jaeger", (1, 0), hp=1))
    assert g.units[1].level == 3 and "level_up" in kinds(ev)
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0), level=5), U("liga", "jaeger", (1, 0), hp=1))
    assert g.units[1].level == 5 and "level_up" not in kinds(ev)


# -- R22, R23, R25, R31: who may attack what ---------------------------------------------------------

def test_r22_once_per_unit_and_only_in_the_attack_phase():
    """R22: each unit attacks once, in the attack phase only (R10: no attacks in the move phase)."""
    g = make(PLAIN, [U("nordbund", "kampfpanzer", (0, 0)), U("liga", "kampfpanzer", (1, 0))], phase="attack")
    attack(g, 1, (1, 0))
    assert_illegal(g, {"type": "attack", "unit": 1, "target": [1, 0]}, "schon angegriffen")
    g = make(PLAIN, [U("nordbund", "kampfpanzer", (0, 0)), U("liga", "kampfpanzer", (1, 0))], phase="move")
    assert_illegal(g, {"type": "attack", "unit": 1, "target": [1, 0]}, "Angriffsphase")
    assert g.attack_options(1) == []


def test_r22_r54_attack_options_list_every_target_in_range():
    """R22/R54: the targets offered are the enemies in range the unit can hit, with expected damage."""
    g = make(["........"], [U("nordbund", "panzerhaubitze", (0, 0)), U("liga", "jaeger", (1, 0)),
                            U("liga", "jaeger", (2, 0)), U("liga", "kampfhubschrauber", (3, 0)),
                            U("liga", "jaeger", (4, 0)), U("liga", "jaeger", (5, 0))], phase="attack")
    assert [o["target"] for o in g.attack_options(1)] == [[2, 0], [4, 0]]
    assert {a.to_json()["target"][0] for a in g.legal_actions() if a.to_json()["type"] == "attack"} == {2, 4}


@pytest.mark.parametrize("utype,dist,ok", [
    ("panzerhaubitze", 1, False), ("panzerhaubitze", 2, True), ("panzerhaubitze", 4, True),
    ("panzerhaubitze", 5, False), ("raketenwerfer", 2, False), ("raketenwerfer", 3, True),
    ("raketenwerfer", 6, True), ("raketenwerfer", 7, False), ("kampfpanzer", 1, True),
    ("kampfpanzer", 2, False), ("flugabwehr", 2, True), ("flugabwehr", 3, False),
])
def test_r23_range_minimum_and_maximum(utype, dist, ok):
    """R23: range is a minimum and a maximum distance; "1" is adjacent only."""
    g = make(["........"], [U("nordbund", utype, (0, 0)), U("liga", "jaeger", (dist, 0))], phase="attack")
    act = {"type": "attack", "unit": 1, "target": [dist, 0]}
    if ok:
        g.apply(act)
    else:
        assert_illegal(g, act, "Reichweite")


def test_r23_fregatte_reaches_three_hexes_and_attack_range():
    """R23: Fregatte 1–3; attack_range lists the hexes between minimum and maximum."""
    g = make(["kkkkkkkk"], [U("nordbund", "fregatte", (0, 0)), U("liga", "patrouillenboot", (3, 0))],
             phase="attack")
    assert g.attack_options(1)[0]["target"] == [3, 0]
    r = make(["........"], [U("nordbund", "panzerhaubitze", (0, 0))], phase="attack").attack_range(1)
    assert r["min"] == 2 and r["max"] == 4 and [h[0] for h in r["hexes"]] == [2, 3, 4]


def test_r25_no_attack_value_no_attack():
    """R25: "–" means that class cannot be attacked: a Kampfpanzer cannot attack a helicopter."""
    g = make(PLAIN, [U("nordbund", "kampfpanzer", (0, 0)), U("liga", "kampfhubschrauber", (1, 0))],
             phase="attack")
    assert g.attack_options(1) == []
    assert_illegal(g, {"type": "attack", "unit": 1, "target": [1, 0]}, "nicht angreifen")


def test_r31_each_attack_costs_a_shot_and_empty_units_cannot_attack():
    """R31: an attack costs one shot; with none left a unit can neither attack nor answer."""
    g = make(PLAIN, [U("nordbund", "raketenwerfer", (0, 0), ammo=1), U("liga", "kampfpanzer", (3, 0))],
             phase="attack")
    attack(g, 1, (3, 0))
    assert g.units[1].ammo == 0
    g = make(PLAIN, [U("nordbund", "raketenwerfer", (0, 0), ammo=0), U("liga", "kampfpanzer", (3, 0))],
             phase="attack")
    assert g.attack_options(1) == []
    assert_illegal(g, {"type": "attack", "unit": 1, "target": [3, 0]}, "keine Munition")


def test_r31_unarmed_units_cannot_attack():
    """R31: units without an ammunition value (Transporter …) are unarmed."""
    for utype in ("transporter", "versorger"):
        g = make(PLAIN, [U("nordbund", utype, (0, 0)), U("liga", "jaeger", (1, 0))], phase="attack")
        assert g.attack_options(1) == []
        assert_illegal(g, {"type": "attack", "unit": 1, "target": [1, 0]}, "unbewaffnet")


def test_r31_unarmed_target_never_answers():
    """R31/R29: an unarmed target (Transporter) has no attack value, so no counter-fire."""
    g, ev = fight(U("nordbund", "jaeger", (0, 0)), U("liga", "transporter", (1, 0)))
    assert ev[0]["counter_damage"] is None


def test_r22_own_units_and_empty_hexes_are_no_target():
    """R22: the target must be an enemy unit."""
    g = make(PLAIN, [U("nordbund", "kampfpanzer", (0, 0)), U("nordbund", "jaeger", (1, 0))], phase="attack")
    assert_illegal(g, {"type": "attack", "unit": 1, "target": [1, 0]})
    assert_illegal(g, {"type": "attack", "unit": 1, "target": [2, 0]})
    assert_illegal(g, {"type": "attack", "unit": 2, "target": [9, 0]})


def test_r27_cargo_dies_with_its_transport():
    """R27/R46: a destroyed transport takes its cargo with it."""
    target = U("liga", "schuetzenpanzer", (1, 0), hp=1, cargo=[U("liga", "jaeger")])
    g, ev = fight(U("nordbund", "kampfpanzer", (0, 0)), target)
    assert g.units.keys() == {1}
    destroyed = [e for e in ev if e["type"] == "destroyed"]
    assert destroyed[0]["unit"] == 2 and destroyed[0]["cargo"] == [3]
