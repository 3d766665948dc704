"""Turn structure (R8–R12, D4): rounds, the two phases in their order, what "Phase beenden" does, the
first turn without an attack phase, and start-of-move-phase effects on the very first turn."""

from __future__ import annotations

import kaltfront
from helpers import U, assert_illegal, attack, end_phase, kinds, make, move


def test_r12_first_turn_starts_with_the_move_phase():
    """R12: the very first turn of the game has no attack phase."""
    g = kaltfront.new_game("uebungsplatz", seed=1, fog=False)
    assert (g.round, g.side, g.phase) == (1, "nordbund", "move")


def test_r8_r11_r12_phase_order_and_rounds():
    """R8/R11: attack phase, then move phase; after the move phase the opponent's turn begins; a round
    ends when both have had a turn. Only the very first turn skips the attack phase (R12)."""
    g = kaltfront.new_game("uebungsplatz", seed=1, fog=False)
    seq = [(g.round, g.side, g.phase)]
    for _ in range(6):
        ev = end_phase(g)
        assert ev[-1]["type"] == "phase" or "phase" in kinds(ev)
        seq.append((g.round, g.side, g.phase))
    assert seq == [(1, "nordbund", "move"), (1, "liga", "attack"), (1, "liga", "move"),
                   (2, "nordbund", "attack"), (2, "nordbund", "move"), (2, "liga", "attack"),
                   (2, "liga", "move")]


def test_r8_round_counts_from_the_side_that_moves_first():
    """R8: the round ends when both sides have played, whichever side moves first (map `first`)."""
    g = make(["H......H"], [U("nordbund", "jaeger", (1, 0)), U("liga", "jaeger", (6, 0))],
             owners={(0, 0): "nordbund", (7, 0): "liga"}, first="liga", side="liga", round_=1)
    end_phase(g)
    assert (g.round, g.side, g.phase) == (1, "nordbund", "attack")
    end_phase(g)
    end_phase(g)
    assert (g.round, g.side, g.phase) == (2, "liga", "attack")


def test_r11_d4_first_turn_gets_its_income():
    """R11/D4: start-of-move-phase effects (income …) happen in every move phase, the first turn's
    included. Übungsplatz: each side holds HQ 300 + Werk 100 + Flugplatz 100 + Hafen 100 = 600 and starts
    with 1000."""
    g = kaltfront.new_game("uebungsplatz", seed=1, fog=False)
    assert g.money == {"nordbund": 1600, "liga": 1000}
    end_phase(g)                  # liga's attack phase: no income yet
    assert g.money["liga"] == 1000
    ev = end_phase(g)             # "Phase beenden" in the attack phase: income (R33)
    assert g.money["liga"] == 1600
    assert {"type": "income", "side": "liga", "amount": 600} in ev


def test_r11_ending_the_attack_phase_starts_the_move_phase_with_its_effects():
    """R11: ending the attack phase starts the move phase: income, captures, repair and resupply, in that
    order."""
    g = make(["H.S....H"], [U("nordbund", "jaeger", (0, 0), hp=4, ammo=1), U("nordbund", "jaeger", (2, 0), ammo=0),
                            U("liga", "jaeger", (6, 0))],
             owners={(0, 0): "nordbund", (2, 0): "nordbund", (7, 0): "liga"}, phase="attack", money=(0, 0))
    ev = end_phase(g)
    assert kinds(ev) == ["phase", "income", "repaired", "resupplied", "resupplied"]
    assert g.phase == "move" and g.money["nordbund"] == 400
    assert g.units[1].hp == 7 and g.units[1].ammo == 9 and g.units[2].ammo == 9


def test_r10_r13_flags_reset_at_the_start_of_the_own_turn():
    """R10/R13/R22: each unit may attack once and move once per turn; the marks are cleared when its side's
    next turn begins, not before."""
    g = make(["........", "........"], [U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (1, 0))],
             phase="attack")
    attack(g, 1, (1, 0))
    end_phase(g)
    move(g, 1, (0, 1))
    assert g.units[1].attacked and g.units[1].moved
    end_phase(g)
    assert g.units[1].attacked and g.units[1].moved  # liga's turn: nordbund's marks stay
    end_phase(g)
    end_phase(g)
    assert (g.side, g.phase) == ("nordbund", "attack")
    assert not g.units[1].attacked and not g.units[1].moved


def test_r10_attack_then_withdraw():
    """R10 and section 2: a unit may attack in the attack phase and then move the same turn."""
    g = make(["........"], [U("nordbund", "jaeger", (1, 0)), U("liga", "jaeger", (2, 0))], phase="attack")
    attack(g, 1, (2, 0))
    end_phase(g)
    move(g, 1, (0, 0))
    assert g.units[1].at == 0


def test_r11_phase_event_and_no_attack_after_moving():
    """R10/R11: after the move phase no attack is possible until the next own attack phase."""
    g = make(["........"], [U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (3, 0))])
    move(g, 1, (2, 0))
    assert_illegal(g, {"type": "attack", "unit": 1, "target": [3, 0]}, "Angriffsphase")
    ev = end_phase(g)
    assert ev[-1] == {"type": "phase", "side": "liga", "phase": "attack", "round": 2}


def test_r8_legal_actions_always_offer_end_phase_and_only_for_the_side_to_act():
    """R8/R11: "Phase beenden" is always possible; the other side's units cannot act."""
    g = make(["........"], [U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (3, 0))])
    acts = [a.to_json() for a in g.legal_actions()]
    assert {"type": "end_phase"} in acts
    assert all(a.get("unit") != 2 for a in acts)
    assert_illegal(g, {"type": "move", "unit": 2, "to": [4, 0]}, "keine Einheit")
