"""The worker bridge's campaign ops (issue 15; C4, C5, C10, C11, C12): a Feldzug against the computer
through `bridge.handle`, a battle played through the ordinary battle ops and resumed from a save."""

from __future__ import annotations

import json

import pytest
from campaign_helpers import LIGA, NB, position

from kaltfront import bridge


@pytest.fixture(autouse=True)
def fresh_session():
    bridge.reset()
    yield
    bridge.reset()


def call(op: str, **args):
    reply = json.loads(bridge.handle(json.dumps({"op": op, "args": args})))
    return reply


def ok(op: str, **args):
    reply = call(op, **args)
    assert reply["ok"], reply
    return reply["result"]


def test_campaign_against_the_computer_through_plan_options_battle_and_evaluation():
    start = position({"kullen": (NB, 22), "falster": (NB, 8), "darss": (LIGA, 1), "wismar": (LIGA, 29)})
    view = ok("campaign_load", save=start.to_json(), players={NB: "human", LIGA: "leicht"})
    assert view["viewer"] == NB and view["legal"]["orders"] == ["plan"]
    # the page may not decide for the computer's side
    assert call("campaign_apply", order={"type": "plan", "side": LIGA})["error"]["kind"] == "bad_request"
    ok("campaign_apply", order={"type": "plan", "side": NB, "attack": {"from": "falster", "to": "darss"}})
    r = ok("campaign_ai")
    assert r["order_type"] == "plan" and r["campaign"]["phase"] == "options"
    assert r["campaign"]["battle"]["tp"][NB] == 60 + 5 * 7 and not r["campaign"]["battle"]["mutual"]
    ok("campaign_apply", order={"type": "options", "side": NB, "kriegskasse": 95})
    r = ok("campaign_ai")
    assert r["order_type"] == "options" and r["campaign"]["phase"] == "battle"
    assert ok("campaign_ai")["done"] is True
    battle = ok("campaign_battle")
    assert battle["observation"]["scenario"] == "ruegen-hiddensee" and battle["viewer"] == NB
    assert battle["players"] == {NB: "human", LIGA: "leicht"}
    # C12: saved in the middle of the battle and resumed
    saved = ok("campaign_save")
    bridge.reset()
    ok("campaign_load", save=saved, players={NB: "human", LIGA: "leicht"})
    resumed = ok("campaign_battle")
    assert resumed["observation"] == battle["observation"]
    ok("apply", action={"type": "surrender", "side": NB})
    r = ok("campaign_apply", order={"type": "evaluate"})
    assert r["campaign"]["last_result"] == {NB: "lost", LIGA: "won"}
    assert {x["id"]: x["kp"] for x in r["campaign"]["regions"]}["falster"] == 7
    assert any("Baltische Liga gewinnt" in e["text"] for e in r["events"])


def test_campaign_ops_answer_bad_input_in_german_and_change_nothing():
    assert call("campaign_observe")["error"]["message"] == "Es läuft kein Feldzug."
    ok("campaign_new", seed=2, fog=True, strength="schwer", players={NB: "human", LIGA: "human"})
    before = ok("campaign_save")
    for order in ({"type": "plan", "side": NB, "attack": {"from": "kullen", "to": "wismar"}},
                  {"type": "fliegen"}, {"type": "options", "side": NB}, "kaputt"):
        reply = call("campaign_apply", order=order)
        assert not reply["ok"] and reply["error"]["kind"] in ("illegal", "bad_request")
        assert reply["error"]["message"][0].isupper()
    assert ok("campaign_save") == before
    assert call("campaign_load", save="{kaputt")["error"]["kind"] == "save"
    assert call("campaign_new", strength="unschlagbar")["error"]["kind"] == "bad_request"


def test_hot_seat_hands_the_campaign_to_the_side_that_decides_and_hides_the_other_plan():
    ok("campaign_new", seed=2, fog=True, players={NB: "human", LIGA: "human"})
    ok("campaign_apply", order={"type": "plan", "side": NB,
                                "occupy": {"region": "seeland", "from": "kullen", "kp": 3}})
    view = ok("campaign_observe")
    assert view["viewer"] == LIGA and view["deciding"] == LIGA
    assert view["campaign"]["plan"] is None and view["campaign"]["planned"][NB] is True
    assert "seeland" not in json.dumps(view["campaign"]["log"])


def test_c12_campaign_seed_is_bounded_like_a_games():
    """C12 (issue 10): campaign_new refuses a seed beyond 20 digits in German, as new_game does; the
    largest allowed seed starts a campaign that saves and loads again."""
    reply = call("campaign_new", seed=1 << 64)
    assert reply["error"]["kind"] == "bad_request" and "Startwert" in reply["error"]["message"]
    ok("campaign_new", seed=(1 << 64) - 1, fog=True, players={NB: "human", LIGA: "human"})
    ok("campaign_load", save=ok("campaign_save"))
