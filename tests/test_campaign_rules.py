"""Feldzug, the campaign mode (issue 15): one or more tests per rule C1–C12 of FELDZUG.md, through the
public campaign API (`new_campaign`, `legal_orders`, `apply`, `observe`, `to_json`/`from_json`)."""

from __future__ import annotations

import json

import pytest
from campaign_helpers import EMPTY, LIGA, NB, draw_battle, options, plans, position, win_battle

import kaltfront
from kaltfront.campaign import Campaign, IllegalOrder, SaveError, load_campaign_map, new_campaign, taktikpunkte
from kaltfront.campaign.mapdata import CampaignMapError, parse_map
from kaltfront.hexgrid import Hex, distance


def unchanged_after_illegal(c: Campaign, order: dict, words: str) -> None:
    before = c.to_json()
    with pytest.raises(IllegalOrder) as e:
        c.apply(order)
    assert words in str(e.value)
    assert c.to_json() == before


# -- C1: the campaign map ------------------------------------------------------------------------------

def test_c1_map_has_20_to_30_named_regions_on_every_blitz_and_standard_map():
    m = load_campaign_map()
    assert 20 <= len(m.regions) <= 30
    names = [r.name for r in m.regions.values()]
    assert len(set(names)) == len(names)
    for expected in ("Fehmarn", "Lolland", "Falster", "Bornholm", "Rügen", "Usedom", "Kieler Förde",
                     "Flensburg", "Schonen", "Seeland", "Fünen"):
        assert expected in names
    used = {r.map for r in m.regions.values()}
    assert {s["id"] for s in kaltfront.scenarios()} <= used


def test_c1_neighbours_are_symmetric_hex_neighbours():
    m = load_campaign_map()
    for r in m.regions.values():
        assert r.neighbours
        for n in r.neighbours:
            assert r.id in m.regions[n].neighbours
            assert distance(Hex(*r.at), Hex(*m.regions[n].at)) == 1


def test_c1_a_broken_map_file_is_rejected_in_german():
    path = kaltfront.campaign.mapdata.Path(kaltfront.campaign.mapdata.__file__).with_name("westliche-ostsee.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["regions"][0]["neighbours"].append("bornholm")  # not next to Ostjütland
    with pytest.raises(CampaignMapError, match="nebeneinander"):
        parse_map(data)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["regions"][3]["map"] = "atlantis"
    with pytest.raises(CampaignMapError, match="unbekannte Schlachtkarte"):
        parse_map(data)


# -- C2, C3: start and the KP account -------------------------------------------------------------------

def test_c2_each_side_starts_with_30_kp_on_its_base_opposite_each_other():
    c = new_campaign(seed=1)
    m = c.map
    a, b = m.regions[m.bases[NB]], m.regions[m.bases[LIGA]]
    assert distance(Hex(*a.at), Hex(*b.at)) >= 4
    for side in (NB, LIGA):
        assert c.regions_of(side) == [m.bases[side]]
        assert c.total_kp(side) == 30
    assert sum(1 for r in m.regions if c.owner[r] is None) == len(m.regions) - 2


def test_c3_reserven_never_lift_the_account_above_30():
    """C3 and C8: at 30 KP Reserven cannot be bought; at 29 they bring the account to 30."""
    c = position({"kullen": (NB, 28), "seeland": (NB, 2), "fuenen": (LIGA, 3), "wismar": (LIGA, 20)},
                 last_result={NB: "won"})
    plans(c, {"attack": {"from": "seeland", "to": "fuenen"}})
    tp = c.battle["tp"][NB]
    assert tp >= 65
    assert c.legal_orders(NB)["reserven"] is False
    unchanged_after_illegal(c, {"type": "options", "side": NB, "kriegskasse": 0, "verstaerkung": [],
                                "reserven": True}, "30 KP")
    c2 = position({"kullen": (NB, 27), "seeland": (NB, 2), "fuenen": (LIGA, 3), "wismar": (LIGA, 20)},
                  last_result={NB: "won"})
    plans(c2, {"attack": {"from": "seeland", "to": "fuenen"}})
    options(c2, {"kriegskasse": 0, "verstaerkung": [], "reserven": True})
    assert c2.kp["kullen"] == 28 and c2.total_kp(NB) == 30


# -- C4: the strategic step ---------------------------------------------------------------------------------

def test_c4_occupy_a_free_neighbour_and_plans_stay_secret_until_both_are_in():
    c = new_campaign(seed=2)
    c.apply({"type": "plan", "side": NB, "occupy": {"region": "seeland", "from": "kullen", "kp": 3}})
    view = c.observe(LIGA)
    assert view["planned"] == {NB: True, LIGA: False}
    assert view["plan"] is None and "seeland" not in json.dumps(view["log"])
    assert c.owner["seeland"] is None  # nothing happens before both plans are in
    events = c.apply({"type": "plan", "side": LIGA, "occupy": {"region": "rostock", "from": "wismar", "kp": 2}})
    assert any(e["type"] == "revealed" for e in events)
    assert c.owner["seeland"] == NB and c.kp["seeland"] == 3 and c.kp["kullen"] == 27
    assert c.owner["rostock"] == LIGA and c.kp["rostock"] == 2
    assert c.observe(LIGA)["revealed"][NB]["occupy"]["region"] == "seeland"
    assert c.phase == "plan" and c.round == 2


def test_c4_at_most_10_kp_move_in_all_occupation_included():
    c = position({"kullen": (NB, 20), "seeland": (NB, 5), "wismar": (LIGA, 30)})
    unchanged_after_illegal(c, {"type": "plan", "side": NB,
                                "occupy": {"region": "kopenhagen", "from": "kullen", "kp": 4},
                                "moves": [{"from": "kullen", "to": "seeland", "kp": 7}]}, "Höchstens 10 KP")
    c.apply({"type": "plan", "side": NB, "occupy": {"region": "kopenhagen", "from": "kullen", "kp": 4},
             "moves": [{"from": "kullen", "to": "seeland", "kp": 6}]})


def test_c4_each_kp_moves_one_step_into_an_own_or_just_occupied_region():
    c = position({"kullen": (NB, 20), "seeland": (NB, 2), "wismar": (LIGA, 30)})
    unchanged_after_illegal(c, {"type": "plan", "side": NB,
                                "moves": [{"from": "kullen", "to": "fuenen", "kp": 1}]}, "eigene")
    # Seeland's 2 KP may give 1; KP arriving there this step cannot walk on
    unchanged_after_illegal(c, {"type": "plan", "side": NB,
                                "moves": [{"from": "kullen", "to": "seeland", "kp": 5},
                                          {"from": "seeland", "to": "kullen", "kp": 3}]}, "höchstens 1")
    unchanged_after_illegal(c, {"type": "plan", "side": NB,
                                "moves": [{"from": "kullen", "to": "kullen", "kp": 1}]}, "einen Schritt")
    plans(c, {"occupy": {"region": "fuenen", "from": "seeland", "kp": 1},
              "moves": [{"from": "kullen", "to": "seeland", "kp": 4}]})
    assert (c.kp["kullen"], c.kp["seeland"], c.kp["fuenen"]) == (16, 5, 1)


def test_c4_both_sides_occupying_the_same_free_region_get_nothing():
    c = position({"kullen": (NB, 22), "hiddensee": (NB, 5), "falster": (NB, 3),
                  "rostock": (LIGA, 4), "wismar": (LIGA, 26)})
    assert c.owner["darss"] is None
    plans(c, {"occupy": {"region": "darss", "from": "falster", "kp": 2},
              "moves": [{"from": "hiddensee", "to": "darss", "kp": 2}]},
          {"occupy": {"region": "darss", "from": "rostock", "kp": 3}})
    assert c.owner["darss"] is None and c.kp["darss"] == 0
    assert c.kp["falster"] == 3 and c.kp["hiddensee"] == 5 and c.kp["rostock"] == 4
    assert any(e["type"] == "occupy_failed" for e in c.log)


def test_c4_attack_only_from_an_own_region_on_an_adjacent_enemy_one():
    c = position({"kullen": (NB, 25), "falster": (NB, 5), "darss": (LIGA, 3), "wismar": (LIGA, 27)})
    unchanged_after_illegal(c, {"type": "plan", "side": NB, "attack": {"from": "falster", "to": "wismar"}},
                            "grenzt nicht")
    unchanged_after_illegal(c, {"type": "plan", "side": NB, "attack": {"from": "falster", "to": "moen"}},
                            "keine gegnerische")
    legal = c.legal_orders(NB)
    assert {"from": "falster", "to": "darss", "max_follow": 4} in legal["attack"]
    c.apply({"type": "plan", "side": NB, "attack": {"from": "falster", "to": "darss"}})


# -- C5: battles --------------------------------------------------------------------------------------------

def test_c5_each_attack_is_a_battle_on_the_attacked_regions_map_and_sides_play_their_faction():
    c = position({"kullen": (NB, 22), "falster": (NB, 5), "lolland": (NB, 3),
                  "darss": (LIGA, 3), "fehmarn": (LIGA, 4), "wismar": (LIGA, 23)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}}, {"attack": {"from": "fehmarn", "to": "lolland"}})
    assert c.phase == "options" and c.battle["region"] == "darss"   # round 1: the Nordbund's attack first
    options(c)
    g = c.battle_game
    assert isinstance(g, kaltfront.Game) and g.scenario_id == "ruegen-hiddensee"
    assert {u.side for u in g.units.values()} == {NB, LIGA}
    win_battle(c, NB)
    assert c.phase == "options" and c.battle["region"] == "lolland" and c.battle["attacker"] == LIGA
    options(c)
    assert c.battle_game.scenario_id == "lolland-falster"


def test_c5_two_attacks_between_the_same_two_regions_are_one_battle():
    c = position({"kullen": (NB, 25), "falster": (NB, 5), "darss": (LIGA, 3), "wismar": (LIGA, 27)})
    plans(c, {"attack": {"from": "falster", "to": "darss", "follow": 2}},
          {"attack": {"from": "darss", "to": "falster", "follow": 1}})
    assert c.battle["mutual"] and c.queue == []
    # Both sides are named: one battle of two attackers (gap review of issue 15: it read "Nordbund greifen").
    battle = next(e for e in reversed(c.log) if e["type"] == "battle")
    assert battle["text"].startswith("Schlacht um Fischland-Darß: Nordbund und Baltische Liga greifen sich "
                                     "gegenseitig an (Falster gegen Fischland-Darß).")
    options(c)
    win_battle(c, LIGA)   # the winner counts as the attacker who won: Falster falls to the Liga
    assert c.owner["falster"] == LIGA and c.kp["falster"] == 1 and c.kp["darss"] == 2
    assert c.round == 2 and c.phase == "plan"


# -- C6: evaluation -----------------------------------------------------------------------------------------

def test_c6_a_beaten_attacker_loses_1_kp_and_keeps_its_region():
    c = position({"kullen": (NB, 25), "falster": (NB, 5), "darss": (LIGA, 3), "wismar": (LIGA, 27)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    win_battle(c, LIGA)
    assert (c.owner["falster"], c.kp["falster"]) == (NB, 4)
    assert (c.owner["darss"], c.kp["darss"]) == (LIGA, 3)
    assert c.last_result == {NB: "lost", LIGA: "won"}


def test_c6_a_draw_costs_both_sides_1_kp_from_the_battle_regions():
    c = position({"kullen": (NB, 25), "falster": (NB, 5), "darss": (LIGA, 1), "wismar": (LIGA, 29)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    draw_battle(c)
    assert c.kp["falster"] == 4
    assert c.owner["darss"] is None and c.kp["darss"] == 0   # emptied: the region is free
    assert c.last_result == {NB: "draw", LIGA: "draw"}


def test_c6_the_winner_occupies_and_the_defender_retreats_by_its_own_choice():
    c = position({"kullen": (NB, 22), "falster": (NB, 8), "darss": (LIGA, 5), "rostock": (LIGA, 2),
                  "hiddensee": (LIGA, 1), "wismar": (LIGA, 22)})
    plans(c, {"attack": {"from": "falster", "to": "darss", "follow": 3}})
    options(c)
    win_battle(c, NB)
    assert c.owner["darss"] == NB and c.kp["darss"] == 3 and c.kp["falster"] == 5
    assert c.phase == "retreat"
    assert c.legal_orders(LIGA)["kp"] == 4 and set(c.legal_orders(LIGA)["to"]) == {"rostock", "hiddensee"}
    unchanged_after_illegal(c, {"type": "retreat", "side": LIGA, "to": {"rostock": 2}}, "genau 4")
    unchanged_after_illegal(c, {"type": "retreat", "side": NB, "to": {"rostock": 4}}, "kein Rückzug")
    c.apply({"type": "retreat", "side": LIGA, "to": {"rostock": 1, "hiddensee": 3}})
    assert c.kp["rostock"] == 3 and c.kp["hiddensee"] == 4
    assert c.total_kp(LIGA) == 22 + 3 + 4   # exactly one KP struck (C6)
    assert c.phase == "plan"


def test_c6_the_computer_spreads_a_retreat_evenly():
    from kaltfront.campaign import CampaignAI
    c = position({"kullen": (NB, 22), "falster": (NB, 8), "darss": (LIGA, 6), "rostock": (LIGA, 2),
                  "hiddensee": (LIGA, 1), "wismar": (LIGA, 21)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    win_battle(c, NB)
    order = CampaignAI("normal", LIGA).next_order(c.observe(LIGA))
    assert order["type"] == "retreat" and sorted(order["to"].values()) == [2, 3]
    c.apply(order)


def test_c6_retreat_with_no_own_neighbour_loses_every_kp_there():
    c = position({"kullen": (NB, 22), "falster": (NB, 8), "darss": (LIGA, 5), "wismar": (LIGA, 25)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    win_battle(c, NB)
    assert c.phase == "plan"
    assert c.total_kp(LIGA) == 25 and c.owner["darss"] == NB
    assert any("keine Nachbarregion" in e["text"] for e in c.log)


def test_c6_an_attacker_with_only_1_kp_leaves_the_won_region_free():
    c = position({"kullen": (NB, 29), "falster": (NB, 1), "darss": (LIGA, 2), "wismar": (LIGA, 28)})
    plans(c, {"attack": {"from": "falster", "to": "darss", "follow": 5}})
    options(c)
    win_battle(c, NB)
    assert c.owner["darss"] is None and c.kp["falster"] == 1 and c.total_kp(LIGA) == 28


def test_c6_a_lost_base_defence_costs_3_kp_taken_from_neighbours_when_the_base_has_too_few():
    c2 = position({"kullen": (NB, 20), "rostock": (NB, 8), "wagrien": (LIGA, 3), "fehmarn": (LIGA, 2),
                   "wismar": (LIGA, 1)})
    plans(c2, {"attack": {"from": "rostock", "to": "wismar", "follow": 4}})
    options(c2)
    win_battle(c2, NB)
    assert c2.owner["wismar"] == LIGA and c2.kp["wismar"] == 0   # a base never changes hands
    assert c2.kp["rostock"] == 8
    # 1 from the base, then 2 from the neighbours, the fuller first: Wagrien 3 → 2, then 2 → 1 or Fehmarn
    assert c2.total_kp(LIGA) == 6 - 3
    assert c2.kp["wagrien"] + c2.kp["fehmarn"] == 3


def test_c6_a_lost_base_defence_takes_from_the_base_first():
    c = position({"kullen": (NB, 20), "rostock": (NB, 8), "wagrien": (LIGA, 3), "wismar": (LIGA, 10)})
    plans(c, {"attack": {"from": "rostock", "to": "wismar"}})
    options(c)
    win_battle(c, NB)
    assert c.kp["wismar"] == 7 and c.kp["wagrien"] == 3 and c.owner["wismar"] == LIGA


def test_c6_a_map_without_round_limit_gets_20_rounds():
    c = position({"kullen": (NB, 25), "kopenhagen": (NB, 2), "seeland": (LIGA, 2), "wismar": (LIGA, 28)})
    assert kaltfront.new_game("grosser-belt").round_limit is None
    plans(c, {"attack": {"from": "kopenhagen", "to": "seeland"}})
    options(c)
    assert c.battle_game.scenario_id == "grosser-belt" and c.battle_game.round_limit == 20


# -- C7: Taktikpunkte -------------------------------------------------------------------------------------

def test_c7_worked_example_4_kp_against_1_kp_both_won_before_at_750():
    """The help page's example: 80 + 30 + 15 = 125 against 80 + 30 = 110."""
    assert taktikpunkte(750, "won", 4, 1) == 80 + 30 + 15 == 125
    assert taktikpunkte(750, "won", 1, 4) == 80 + 30 == 110


def test_c7_tp_in_a_campaign_battle_count_money_last_result_and_kp_lead():
    c = position({"kullen": (NB, 25), "falster": (NB, 4), "darss": (LIGA, 1), "wismar": (LIGA, 29)},
                 last_result={NB: "won", LIGA: "draw"})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    assert c.battle["tp"] == {NB: 60 + 30 + 15, LIGA: 60 - 10}   # Blitz: 600 → 60
    view = c.observe(LIGA)
    assert view["battle"]["tp"] == {NB: 105, LIGA: 50}
    c3 = position({"kullen": (NB, 25), "falster": (NB, 4), "darss": (LIGA, 1), "wismar": (LIGA, 29)},
                  last_result={NB: "lost"})
    plans(c3, {"attack": {"from": "falster", "to": "darss"}})
    assert c3.battle["tp"][NB] == 60 - 30 + 15


# -- C8: tactical options ---------------------------------------------------------------------------------

def test_c8_kriegskasse_verstaerkung_and_lapsed_tp():
    c = position({"kullen": (NB, 25), "falster": (NB, 4), "darss": (LIGA, 1), "wismar": (LIGA, 29)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    tp = c.battle["tp"]
    assert tp == {NB: 75, LIGA: 60}
    choices = {v["unit_type"]: v["tp"] for v in c.legal_orders(NB)["verstaerkung"]}
    assert choices["jaeger"] == 20 and "kampfjet" not in choices   # Blitz: ground units only
    unchanged_after_illegal(c, {"type": "options", "side": NB, "kriegskasse": 60, "verstaerkung": ["jaeger"]},
                            "80 TP")
    before = kaltfront.new_game("ruegen-hiddensee", seed=0)
    options(c, {"kriegskasse": 50, "verstaerkung": ["jaeger"]}, {"kriegskasse": 10})
    g = c.battle_game
    assert g.money[NB] == before.money[NB] + 250       # 5 TP over: they lapse
    assert g.money[LIGA] == before.money[LIGA] + 50
    assert g.unit_count(NB) == before.unit_count(NB) + 1
    hq = next(b.at for b in g.buildings.values() if b.type == "hq" and b.owner == NB)
    assert g.unit_at(hq).type == "jaeger"


def test_c8_enemy_options_stay_hidden_until_both_chose():
    c = position({"kullen": (NB, 25), "falster": (NB, 4), "darss": (LIGA, 1), "wismar": (LIGA, 29)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    c.apply({"type": "options", "side": NB, "kriegskasse": 75})
    assert c.observe(LIGA)["battle"]["options"][NB] is None
    assert c.observe(LIGA)["battle"]["chosen"][NB] is True
    c.apply({"type": "options", "side": LIGA, **EMPTY})
    assert c.observe(LIGA)["battle"]["options"][NB]["kriegskasse"] == 75


def test_c8_negative_tp_cost_guthaben_never_below_0():
    c = position({"kullen": (NB, 29), "falster": (NB, 1), "darss": (LIGA, 6), "wismar": (LIGA, 24)},
                 last_result={NB: "lost"})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    assert c.battle["tp"][NB] == 60 - 30
    c2 = position({"kullen": (NB, 29), "falster": (NB, 1), "darss": (LIGA, 6), "wismar": (LIGA, 24)},
                  last_result={LIGA: "lost"})
    plans(c2, {}, {"attack": {"from": "darss", "to": "falster"}})
    assert c2.battle["tp"] == {NB: 60, LIGA: 60 - 30 + 25}
    # a side at −30 TP: Kriegskasse impossible, 150 Guthaben taken
    c3 = position({"kullen": (NB, 29), "falster": (NB, 1), "darss": (LIGA, 6), "wismar": (LIGA, 24)},
                  last_result={NB: "lost"})
    plans(c3, {"attack": {"from": "falster", "to": "darss"}})
    # The shipped maps start with 600 or more, so TP go no lower than 60 − 30; a save can hold less.
    d = json.loads(c3.to_json())
    d["battle"]["tp"][NB] = -30
    c3 = Campaign.from_json(d)
    assert c3.legal_orders(NB)["verstaerkung"] == []
    unchanged_after_illegal(c3, {"type": "options", "side": NB, "kriegskasse": 1}, "nur 0")
    options(c3)
    start = kaltfront.new_game("ruegen-hiddensee", seed=0).money[NB]
    assert c3.battle_game.money[NB] == max(0, start - 150)
    g = kaltfront.new_game("ruegen-hiddensee", seed=0)
    g.campaign_setup(NB, money_delta=-10_000)
    assert g.money[NB] == 0


def test_c8_reserven_cost_65_tp_and_add_1_kp_on_the_base():
    c = position({"kullen": (NB, 20), "falster": (NB, 4), "darss": (LIGA, 1), "wismar": (LIGA, 29)},
                 last_result={NB: "won"})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    assert c.battle["tp"][NB] == 105
    options(c, {"kriegskasse": 40, "verstaerkung": [], "reserven": True})
    assert c.kp["kullen"] == 21
    assert c.battle_game.money[NB] == kaltfront.new_game("ruegen-hiddensee").money[NB] + 200


def test_c8_verstaerkung_needs_a_free_place_and_the_hook_changes_nothing_when_it_fails():
    g = kaltfront.new_game("fehmarnsund", seed=1)
    before = g.to_json()
    with pytest.raises(kaltfront.IllegalAction, match="kein freies eigenes Gebäude"):
        g.campaign_setup(NB, units=["kampfpanzer"] * 12, money_delta=100)
    assert g.to_json() == before
    assert g.reinforcement_sites(NB, "kampfjet") == []   # Blitz: ground units only (R69)
    with pytest.raises(kaltfront.IllegalAction, match="Kampfjet"):
        g.campaign_setup(NB, units=["kampfjet"])
    assert g.to_json() == before


# -- C9: the end ------------------------------------------------------------------------------------------

def test_c9_a_side_without_kp_loses_at_once():
    c = position({"kullen": (NB, 29), "falster": (NB, 1), "darss": (LIGA, 1)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    draw_battle(c)
    assert c.outcome == {"winner": NB, "reason": "no_kp"} and c.phase == "over"
    unchanged_after_illegal(c, {"type": "plan", "side": NB}, "beendet")


def test_c9_only_the_base_with_fewer_than_5_kp_at_the_end_of_a_round_loses():
    c = position({"kullen": (NB, 30), "wismar": (LIGA, 4)})
    plans(c)
    assert c.outcome == {"winner": NB, "reason": "only_base"}
    c2 = position({"kullen": (NB, 30), "wismar": (LIGA, 5)})
    plans(c2)
    assert c2.outcome is None


@pytest.mark.parametrize("regions, expected", [
    ({"kullen": (NB, 20), "kopenhagen": (NB, 1), "wismar": (LIGA, 25)}, {"winner": NB, "reason": "regions"}),
    ({"kullen": (NB, 20), "kopenhagen": (NB, 1), "wismar": (LIGA, 25), "rostock": (LIGA, 1)},
     {"winner": LIGA, "reason": "kp"}),
    ({"kullen": (NB, 20), "kopenhagen": (NB, 1), "wismar": (LIGA, 20), "rostock": (LIGA, 1)},
     {"winner": None, "reason": "draw"}),
])
def test_c9_after_12_rounds_more_regions_then_more_kp_else_a_draw(regions, expected):
    c = position(regions, round_=12)
    plans(c)
    assert c.outcome == expected


# -- C10: auto-resolve --------------------------------------------------------------------------------------

def test_c10_auto_resolve_plays_the_battle_ai_on_both_sides_and_the_result_counts():
    c = position({"kullen": (NB, 25), "falster": (NB, 4), "darss": (LIGA, 2), "wismar": (LIGA, 28)})
    c.strength = "leicht"
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    g = c.battle_game
    events = c.apply({"type": "auto_resolve"})
    assert g.outcome is not None and g.round >= 2
    assert any(e["type"] == "result" and "automatisch" in e["text"] for e in events)
    assert c.last_result[NB] in ("won", "lost", "draw") and c.phase in ("plan", "retreat")


def test_c10_auto_resolve_only_while_a_battle_runs():
    c = new_campaign(seed=3)
    unchanged_after_illegal(c, {"type": "auto_resolve"}, "Schlacht")


# -- C11: fog on the campaign map -------------------------------------------------------------------------

def test_c11_owners_always_visible_enemy_kp_only_next_to_own_regions():
    c = position({"kullen": (NB, 25), "falster": (NB, 5), "darss": (LIGA, 3), "rostock": (LIGA, 2),
                  "wismar": (LIGA, 25)})
    view = {r["id"]: r for r in c.observe(NB)["regions"]}
    assert view["darss"]["owner"] == LIGA and view["darss"]["kp"] == 3        # borders Falster
    assert view["rostock"]["owner"] == LIGA and view["rostock"]["kp"] is None
    assert view["wismar"]["kp"] is None and view["wismar"]["base"] == LIGA
    assert c.observe(NB)["kp_total"][LIGA] is None
    clear = position({"kullen": (NB, 25), "falster": (NB, 5), "darss": (LIGA, 3), "rostock": (LIGA, 2),
                      "wismar": (LIGA, 25)}, fog=False)
    assert {r["id"]: r["kp"] for r in clear.observe(NB)["regions"]}["rostock"] == 2
    assert clear.observe(NB)["kp_total"][LIGA] == 30


def test_c11_a_retreat_under_fog_shows_the_other_side_no_numbers():
    c = position({"kullen": (NB, 22), "falster": (NB, 8), "darss": (LIGA, 5), "rostock": (LIGA, 2),
                  "hiddensee": (LIGA, 1), "wismar": (LIGA, 22)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    win_battle(c, NB)
    assert "kp" not in c.observe(NB)["retreat"]
    events = c.apply({"type": "retreat", "side": LIGA, "to": {"rostock": 4, "hiddensee": 0}})
    mine = [e["text"] for e in c.events_for(events, LIGA)]
    theirs = [e["text"] for e in c.events_for(events, NB)]
    assert any("4 nach Rostock" in t for t in mine)
    assert not any("Rostock" in t for t in theirs)


# -- C12: saves --------------------------------------------------------------------------------------------

def test_c12_save_and_resume_at_every_step_and_in_the_middle_of_a_battle():
    c = position({"kullen": (NB, 22), "falster": (NB, 8), "darss": (LIGA, 5), "rostock": (LIGA, 2),
                  "hiddensee": (LIGA, 1), "wismar": (LIGA, 22)})
    assert Campaign.from_json(c.to_json()) == c
    c.apply({"type": "plan", "side": NB, "attack": {"from": "falster", "to": "darss"}})
    assert Campaign.from_json(c.to_json()) == c     # a secret plan is kept
    c.apply({"type": "plan", "side": LIGA})
    c.apply({"type": "options", "side": NB, "kriegskasse": 30})
    assert Campaign.from_json(c.to_json()) == c
    c.apply({"type": "options", "side": LIGA, **EMPTY})
    g = c.battle_game
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    resumed = Campaign.from_json(c.to_json())
    assert resumed == c and resumed.battle_game == g
    resumed.battle_game.apply({"type": "surrender", "side": LIGA})
    resumed.apply({"type": "evaluate"})
    assert resumed.phase == "retreat"
    assert Campaign.from_json(resumed.to_json()) == resumed


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.update(format="kaltfront-save"), "kein Kaltfront-Feldzug"),
    (lambda d: d.update(version=99), "neueren Version"),
    (lambda d: d["regions"]["kullen"].update(owner="liga"), "Basis"),
    (lambda d: d["regions"]["seeland"].update(owner="nordbund", kp=0), "besetzte Region"),
    (lambda d: d["regions"]["seeland"].update(owner="nordbund", kp=5), "mehr als 30 KP"),
    (lambda d: d.update(phase="battle"), "laufende Schlacht"),
    (lambda d: d.update(round=13), "'round'"),
    (lambda d: d["plans"].update(nordbund={"attack": {"from": "kullen", "to": "wismar"}}), "Plan von nordbund"),
])
def test_c12_a_bad_save_is_refused_in_german(edit, words):
    d = json.loads(new_campaign(seed=1).to_json())
    edit(d)
    with pytest.raises(SaveError, match=words):
        Campaign.from_json(json.dumps(d))
    with pytest.raises(SaveError, match="beschädigt"):
        Campaign.from_json(json.dumps(d)[:40])


def test_c10_auto_resolve_in_short_calls_goes_on_where_it_stopped_and_survives_a_save():
    """The page auto-resolves in short engine calls (`steps`): each call plays at most that many battle
    actions, says how far the battle is, and only the last one evaluates (C10, C12)."""
    c = position({"kullen": (NB, 25), "falster": (NB, 4), "darss": (LIGA, 2), "wismar": (LIGA, 28)})
    c.strength = "leicht"
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    unchanged_after_illegal(c, {"type": "auto_resolve", "mode": "quick", "steps": 5}, "steps")
    unchanged_after_illegal(c, {"type": "auto_resolve", "steps": 0}, "steps")
    events = c.apply({"type": "auto_resolve", "steps": 5})
    assert [e["type"] for e in events] == ["auto_progress"] and "Runde" in events[0]["text"]
    assert c.phase == "battle" and c.battle["auto_actions"] == 5 and c.battle_game.outcome is None
    assert not any(e["type"] == "auto_progress" for e in c.log)   # progress is no log line
    c = Campaign.from_json(c.to_json())                          # resumes mid-way (C12)
    assert c.battle["auto_actions"] == 5
    calls = 0
    while c.phase == "battle":
        events = c.apply({"type": "auto_resolve", "steps": 200})
        calls += 1
        assert calls < 200
    assert any(e["type"] == "result" and "automatisch" in e["text"] for e in events)
    assert c.last_result[NB] in ("won", "lost", "draw")


def test_c12_a_save_with_a_bad_auto_action_count_is_refused():
    c = position({"kullen": (NB, 25), "falster": (NB, 4), "darss": (LIGA, 2), "wismar": (LIGA, 28)})
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    options(c)
    c.apply({"type": "auto_resolve", "steps": 1})
    d = json.loads(c.to_json())
    d["battle"]["auto_actions"] = -1
    with pytest.raises(SaveError, match="auto_actions"):
        Campaign.from_json(d)
