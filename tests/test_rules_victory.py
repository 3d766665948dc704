"""Victory and defeat (R2, R36, R48–R51, D8): HQ capture, no army, round limit with its tie-breaks,
surrender."""

from __future__ import annotations

import pytest

from helpers import U, assert_illegal, attack, end_phase, kinds, make, move
from kaltfront.victory import unit_value

HQS = {(0, 0): "nordbund", (9, 0): "liga"}


def test_r48_r36_pionier_takes_the_enemy_hq_and_wins_at_once():
    """R48/R36: capturing the enemy HQ wins at once (a Pionier, at the end of the move phase); the game
    is over and no action is legal any more."""
    g = make(["H.......SH"], [U("nordbund", "pionier", (8, 0)), U("liga", "jaeger", (5, 0))], owners=HQS)
    move(g, 1, (9, 0))
    ev = end_phase(g)
    assert g.outcome.winner == "nordbund" and g.outcome.reason == "hq"
    assert {"type": "game_over", "winner": "nordbund", "reason": "hq"} in ev
    assert g.side == "nordbund"  # no turn change after the end
    assert g.legal_actions() == []
    assert_illegal(g, {"type": "end_phase"}, "beendet")
    assert_illegal(g, {"type": "surrender", "side": "liga"}, "beendet")
    assert "gewinnt" in g.describe_outcome()


def test_r48_jaeger_takes_the_enemy_hq_at_the_start_of_its_next_move_phase():
    """R48/R35: a Jäger's HQ capture counts at the start of its next move phase; then the game ends."""
    g = make(["H........H"], [U("nordbund", "jaeger", (9, 0)), U("liga", "jaeger", (5, 0))], owners=HQS)
    end_phase(g)
    assert g.outcome is None
    end_phase(g)
    end_phase(g)
    ev = end_phase(g)
    assert g.outcome.winner == "nordbund" and g.outcome.reason == "hq"
    assert "captured" in kinds(ev) and "game_over" in kinds(ev)


def test_r48_the_other_way_round():
    """R48: "Das gilt auch umgekehrt": liga taking nordbund's HQ wins for liga."""
    g = make(["H........H"], [U("nordbund", "jaeger", (5, 0)), U("liga", "pionier", (1, 0))], owners=HQS,
             side="liga")
    move(g, 2, (0, 0))
    end_phase(g)
    assert g.outcome.winner == "liga" and g.outcome.reason == "hq"


def test_r48_a_unit_on_the_hq_prevents_capture():
    """R48/R16 (rulebook tip 3): a unit on the HQ makes a capture impossible while it lives, because the
    hex is not free."""
    g = make(["H........H"], [U("nordbund", "jaeger", (0, 0)), U("liga", "pionier", (1, 0))], owners=HQS,
             side="liga")
    assert_illegal(g, {"type": "move", "unit": 2, "to": [0, 0]}, "nicht erreichen")


def test_r49_r2_no_army_and_no_money_loses_at_the_end_of_the_move_phase():
    """R49/R2/D4: nordbund destroys liga's last unit; liga has 90 (< 100) money: nordbund wins when its
    move phase ends (victory checks are end-of-move-phase effects)."""
    g = make(["H........H"], [U("nordbund", "kampfpanzer", (4, 0)), U("liga", "jaeger", (5, 0), hp=1)],
             owners=HQS, phase="attack", money=(0, 90))
    attack(g, 1, (5, 0))
    assert g.outcome is None
    end_phase(g)
    assert g.outcome is None
    ev = end_phase(g)
    assert g.outcome.winner == "nordbund" and g.outcome.reason == "no_army"
    assert ev[-1] == {"type": "game_over", "winner": "nordbund", "reason": "no_army"}


def test_r49_no_units_but_can_still_build_plays_on():
    """R49: a side without units that can still build (100 money and its HQ) is not beaten."""
    g = make(["H........H"], [U("nordbund", "jaeger", (4, 0))], owners=HQS, money=(0, 100))
    end_phase(g)
    assert g.outcome is None and g.side == "liga"


def test_r49_no_production_building_left():
    """R49: money is no help without a production building: liga holds only a Stadt (which produces
    nothing; both HQ hexes belong to nordbund in this hand-made position) and 5000 money → it is beaten."""
    g = make(["H...S...H"], [U("nordbund", "jaeger", (2, 0))],
             owners={(0, 0): "nordbund", (4, 0): "liga", (8, 0): "nordbund"}, money=(0, 5000))
    end_phase(g)
    assert g.outcome.winner == "nordbund" and g.outcome.reason == "no_army"


def test_r49_both_sides_without_an_army_is_a_draw():
    """R49 (engine decision): if both sides are without units and cannot build, the game is drawn."""
    g = make(["H........H"], [], owners=HQS, money=(0, 0))
    end_phase(g)
    assert g.outcome.winner is None and g.outcome.reason == "no_army"


def test_r50_round_limit_more_buildings_wins():
    """R50: at the round limit the side with more buildings wins. The limit is reached after the last
    side's move phase of the last round."""
    g = make(["HS.......H"], [U("nordbund", "jaeger", (2, 0)), U("liga", "kampfpanzer", (7, 0))],
             owners={**HQS, (1, 0): "nordbund"}, round_=3, round_limit=3)
    end_phase(g)
    assert g.outcome is None
    end_phase(g)
    ev = end_phase(g)
    assert g.outcome.winner == "nordbund" and g.outcome.reason == "round_limit"
    assert ev[-1]["type"] == "game_over"


def test_r50_d8_tie_on_buildings_unit_value_decides():
    """R50/D8: equal buildings → the larger sum of cost × hp / 10 wins, cargo included.
    nordbund: Kampfpanzer 5 hp = 700*5/10 = 350; liga: Jäger 10 hp = 100 + LKW 200 with a Pionier 200
    aboard at 7 hp = 140 → 440. liga wins."""
    g = make(["H........H"], [U("nordbund", "kampfpanzer", (2, 0), hp=5),
                              U("liga", "jaeger", (7, 0)),
                              U("liga", "transporter", (6, 0), cargo=[U("liga", "pionier", hp=7)])],
             owners=HQS, round_=1, round_limit=1, side="liga")
    assert unit_value(g, "nordbund") == 350 and unit_value(g, "liga") == 440
    end_phase(g)
    assert g.outcome.winner == "liga" and g.outcome.reason == "round_limit"


def test_r50_full_tie_is_a_draw():
    """R50: equal buildings and equal unit value → draw."""
    g = make(["H........H"], [U("nordbund", "jaeger", (2, 0)), U("liga", "jaeger", (7, 0))],
             owners=HQS, round_=1, round_limit=1, side="liga")
    end_phase(g)
    assert g.outcome.winner is None and g.outcome.reason == "round_limit"
    assert "Unentschieden" in g.describe_outcome()


def test_r50_no_limit_plays_on():
    """R50: only some scenarios have a limit; without one the rounds go on."""
    g = make(["H........H"], [U("nordbund", "jaeger", (2, 0)), U("liga", "jaeger", (7, 0))],
             owners=HQS, round_=999, round_limit=None, side="liga")
    end_phase(g)
    assert g.outcome is None and g.round == 1000


def test_r48_hq_capture_in_the_last_round_beats_the_round_limit():
    """R48/R50: an HQ captured in the last move phase wins by HQ, not by count."""
    g = make(["H.......SH"], [U("nordbund", "jaeger", (5, 0)), U("liga", "pionier", (1, 0))],
             owners={**HQS, (8, 0): "liga"}, round_=3, round_limit=3, side="liga")
    move(g, 2, (0, 0))
    end_phase(g)
    assert g.outcome.winner == "liga" and g.outcome.reason == "hq"


@pytest.mark.parametrize("who,phase", [("nordbund", "move"), ("liga", "move"), ("liga", "attack")])
def test_r51_surrender_any_time(who, phase):
    """R51: either side may surrender at any time, also during the opponent's turn; it is not listed
    among the legal actions."""
    g = make(["H........H"], [U("nordbund", "jaeger", (2, 0)), U("liga", "jaeger", (7, 0))], owners=HQS,
             phase=phase)
    assert all(a.to_json()["type"] != "surrender" for a in g.legal_actions())
    ev = g.apply({"type": "surrender", "side": who})
    other = "liga" if who == "nordbund" else "nordbund"
    assert g.outcome.winner == other and g.outcome.reason == "surrender"
    assert kinds(ev) == ["surrendered", "game_over"]
    assert "Aufgabe" in g.describe_outcome()
