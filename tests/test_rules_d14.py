"""D14: five choices the rulebook leaves open, settled as the engine has them. One test each:
repair costs no money; there is no zone of control; a ship at 0 fuel cannot move but does not sink;
destroying a loaded transport earns one level; both sides losing their last unit in one step is a draw."""

from __future__ import annotations

from helpers import U, assert_illegal, attack, end_phase, kinds, make, move, reach, rng_for

HQS = {(0, 0): "nordbund", (9, 0): "liga"}


def test_d14_repair_costs_no_money():
    """D14/R33: a Kampfpanzer with 4 hp on an own Werk gains 3 hp at the start of the move phase and
    the balance grows by exactly the income (HQ 300 + Werk 100): the repair is free."""
    g = make(["HW.......H"], [U("nordbund", "kampfpanzer", (1, 0), hp=4), U("liga", "jaeger", (8, 0))],
             owners={**HQS, (1, 0): "nordbund"}, phase="attack", money=(50, 0))
    ev = end_phase(g)
    assert g.units[1].hp == 7 and "repaired" in kinds(ev)
    assert g.money["nordbund"] == 50 + 300 + 100


def test_d14_no_zone_of_control():
    """D14: there is no zone of control: a Spähwagen drives along a road right past two visible enemy
    Jäger (each next to its path) and on to the end of its 8 points, without stopping beside them."""
    rows = ["H.........",
            "==========",
            "gggggggggH"]
    g = make(rows, [U("nordbund", "spaehwagen", (0, 1)), U("liga", "jaeger", (2, 0)),
                    U("liga", "jaeger", (5, 0))], owners={(0, 0): "nordbund", (9, 2): "liga"})
    assert (8, 1) in reach(g, 1)
    ev = move(g, 1, (8, 1))
    assert kinds(ev) == ["moved"] and ev[0]["to"] == [8, 1]
    assert g.units[1].fuel == 60 - 8


def test_d14_ship_at_zero_fuel_cannot_move_but_does_not_sink():
    """D14/R18/R19: a Fregatte with 0 fuel cannot move (not even R15's one step), and unlike an
    aircraft (R19) it does not sink at the end of the move phase: it is still there a whole round
    later."""
    g = make(["H~~~~~~~~H"], [U("nordbund", "fregatte", (3, 0), fuel=0), U("liga", "jaeger", (9, 0))],
             owners=HQS)
    assert g.reachable(1) == []
    assert_illegal(g, {"type": "move", "unit": 1, "to": [4, 0]}, "nicht erreichen")
    ev = end_phase(g)
    assert "crashed" not in kinds(ev) and "destroyed" not in kinds(ev)
    end_phase(g), end_phase(g), end_phase(g)  # liga's turn, then nordbund's attack phase
    assert g.side == "nordbund" and g.phase == "move"
    assert g.units[1].fuel == 0 and g.units[1].at is not None


def test_d14_destroying_a_loaded_transport_earns_one_level():
    """D14/R30/R27: a Kampfpanzer that destroys a Schützenpanzer carrying a Jäger kills two units but
    gains one level, as for one destroyed unit."""
    g = make(["........"], [U("nordbund", "kampfpanzer", (0, 0)),
                            U("liga", "schuetzenpanzer", (1, 0), hp=1, cargo=[U("liga", "jaeger")])],
             phase="attack", rng=rng_for(0))
    ev = attack(g, 1, (1, 0))
    assert [e for e in ev if e["type"] == "destroyed"][0]["cargo"] == [3]
    assert set(g.units) == {1}
    assert g.units[1].level == 1
    assert [e["level"] for e in ev if e["type"] == "level_up"] == [1]


def test_d14_both_sides_losing_their_last_unit_in_one_step_is_a_draw():
    """D14/R49/R19: nordbund's last unit, a Kampfhubschrauber with no fuel left, destroys liga's last
    unit in the attack phase; at the end of the move phase it crashes. Neither side can build (no
    money, and in this hand-made position neither holds a building): both are without an army at the
    same end of the move phase, and the game is a draw."""
    g = make(["H........H"], [U("nordbund", "kampfhubschrauber", (4, 0), fuel=0),
                              U("liga", "jaeger", (5, 0), hp=1)],
             owners={}, phase="attack", rng=rng_for(0))
    attack(g, 1, (5, 0))
    assert g.outcome is None
    end_phase(g)  # into the move phase: an HQ would refuel it, but it stands on plain
    ev = end_phase(g)
    assert "crashed" in kinds(ev) and not g.units
    assert g.outcome.winner is None and g.outcome.reason == "no_army"
    assert ev[-1] == {"type": "game_over", "winner": None, "reason": "no_army"}
    assert g.describe_outcome().startswith("Unentschieden")
