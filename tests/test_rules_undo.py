"""Undo within a phase (D16, issue 13.1): what can be taken back, that it restores the exact state,
that it never returns information (fairness under fog), that the history survives a save, and the
bridge's `can_undo` / `undo` ops."""

from __future__ import annotations

import json

import pytest
from helpers import U, assert_german, attack, end_phase, make, make_dict, move, unit_at
from hypothesis import HealthCheck, given, settings, strategies as st

import kaltfront
from kaltfront import bridge
from kaltfront.save import game_to_dict

PLAIN = ["." * 14] * 3
CORRIDOR = ["gggggggggggg", "============", "gggggggggggg"]


def state(g) -> dict:
    return game_to_dict(g, history=False)


def test_d16_nothing_to_undo_at_the_start_of_a_phase():
    g = make(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("liga", "jaeger", (12, 1))], fog=True)
    can = g.can_undo()
    assert can == {"ok": False, "reason": "Noch nichts zurückzunehmen", "code": "phase", "steps": 0}
    with pytest.raises(kaltfront.IllegalAction) as exc:
        g.undo()
    assert_german(str(exc.value))


def test_d16_undo_a_move_restores_the_exact_state_and_view():
    g = make(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("nordbund", "kampfpanzer", (1, 0)),
                     U("liga", "jaeger", (12, 1))], fog=True)
    before, seen = g.to_json(), g.observe("nordbund")
    move(g, 1, (4, 1))
    assert unit_at(g, 4, 1).id == 1
    assert g.can_undo()["ok"] and g.can_undo()["steps"] == 1
    events = g.undo()
    assert events[0]["type"] == "undone" and events[0]["action"] == {"type": "move", "unit": 1, "to": [4, 1]}
    assert g.to_json() == before
    assert g.observe("nordbund") == seen
    assert not g.reachable(1) == []  # it may move again


def test_d16_several_steps_back_within_a_phase():
    g = make(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("nordbund", "kampfpanzer", (1, 0)),
                     U("nordbund", "jaeger", (0, 2)), U("liga", "jaeger", (13, 1))], fog=True)
    snaps = [g.to_json()]
    for uid, to in ((1, (3, 1)), (2, (5, 0)), (3, (2, 2))):
        move(g, uid, to)
        snaps.append(g.to_json())
    assert g.can_undo()["steps"] == 3
    for k in (2, 1, 0):
        g.undo()
        assert g.to_json() == snaps[k]
    assert g.can_undo()["code"] == "phase"


def test_d16_attacks_are_never_undone_and_block_what_came_before():
    """An attack draws from the random generator and is final; moves after it can be taken back up to it."""
    g = make(PLAIN, [U("nordbund", "kampfpanzer", (5, 1)), U("nordbund", "jaeger", (1, 1)),
                     U("liga", "jaeger", (6, 1))], phase="attack", fog=True)
    attack(g, 1, (6, 1))
    can = g.can_undo()
    assert not can["ok"] and can["reason"] == "Angriffe lassen sich nicht zurücknehmen"
    end_phase(g)  # to the move phase
    assert g.can_undo()["code"] == "phase"


def test_d16_never_across_a_phase_end():
    g = make(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("liga", "jaeger", (12, 1))], fog=True)
    move(g, 1, (3, 1))
    end_phase(g)
    assert g.side == "liga" and not g.can_undo()["ok"]
    with pytest.raises(kaltfront.IllegalAction):
        g.undo()


def test_d16_a_move_that_brings_an_enemy_into_view_cannot_be_undone():
    g = make(PLAIN, [U("nordbund", "kampfpanzer", (1, 1)), U("nordbund", "jaeger", (0, 0)),
                     U("liga", "jaeger", (8, 1))], fog=True)
    move(g, 2, (2, 0))  # sees nothing new: undoable
    assert g.can_undo()["steps"] == 1
    move(g, 1, (6, 1))  # the Kampfpanzer now sees the Jäger at (8, 1)
    assert any(u["side"] == "liga" for u in g.observe("nordbund")["units"])
    can = g.can_undo()
    assert not can["ok"] and can["reason"] == "Feind gesichtet"
    with pytest.raises(kaltfront.IllegalAction) as exc:
        g.undo()
    assert "Feind gesichtet" in str(exc.value)


def test_d16_an_ambush_cannot_be_undone():
    g = make(CORRIDOR, [U("nordbund", "spaehwagen", (0, 1)), U("liga", "jaeger", (6, 1))], fog=True)
    events = move(g, 1, (8, 1))
    assert "ambushed" in [e["type"] for e in events]
    assert g.can_undo()["reason"] == "Hinterhalt"


def test_d16_moves_without_fog_reveal_nothing_and_stay_undoable():
    g = make(PLAIN, [U("nordbund", "kampfpanzer", (1, 1)), U("liga", "jaeger", (8, 1))], fog=False)
    before = g.to_json()
    move(g, 1, (6, 1))
    g.undo()
    assert g.to_json() == before


def test_d16_undo_a_build_gives_the_money_and_the_number_back():
    g = make(["W....", "....."], [U("liga", "jaeger", (4, 1))], owners={(0, 0): "nordbund"},
             money=(1000, 0), fog=True)
    before = g.to_json()
    g.apply({"type": "build", "at": [0, 0], "unit_type": "spaehwagen"})
    assert g.money["nordbund"] < 1000 and unit_at(g, 0, 0) is not None
    g.undo()
    assert g.to_json() == before and g.money["nordbund"] == 1000 and unit_at(g, 0, 0) is None


def test_d16_undo_load_and_unload():
    g = make(PLAIN, [U("nordbund", "transporter", (3, 1), cargo=[U("nordbund", "jaeger")]),
                     U("nordbund", "jaeger", (1, 1)), U("liga", "jaeger", (13, 2))], fog=True)
    start = g.to_json()
    g.apply({"type": "unload", "transport": 1, "unit": 2, "to": [4, 1]})
    after_unload = g.to_json()
    g.apply({"type": "load", "unit": 3, "transport": 1})
    assert g.units[1].cargo == [3]
    g.undo()
    assert g.to_json() == after_unload
    g.undo()
    assert g.to_json() == start and g.units[1].cargo == [2]


def test_d16_undo_restores_capture_progress():
    """R35: leaving a building resets a Jäger's capture; undoing the step puts it back."""
    g = make(["..S..", "....."], [U("nordbund", "jaeger", (2, 0)), U("liga", "jaeger", (4, 1))],
             captures={(2, 0): ("nordbund", 1)}, fog=False)
    move(g, 1, (0, 0))
    assert g.buildings[2].capture_unit is None
    g.undo()
    assert g.buildings[2].capture_unit == 1


# -- the history is part of the save ----------------------------------------------------------------

def _two_moves():
    g = make(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("nordbund", "kampfpanzer", (1, 0)),
                     U("liga", "jaeger", (13, 1))], fog=True)
    first = g.to_json()
    move(g, 1, (3, 1))
    middle = g.to_json()
    move(g, 2, (5, 0))
    return g, first, middle


def test_d16_history_survives_save_and_load():
    g, first, middle = _two_moves()
    loaded = kaltfront.Game.from_json(g.to_json())
    assert loaded == g and loaded.can_undo()["steps"] == 2
    loaded.undo()
    assert loaded.to_json() == middle
    loaded.undo()
    assert loaded.to_json() == first


def test_d16_old_saves_without_history_still_load():
    d = make_dict(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("liga", "jaeger", (13, 1))])
    assert "undo" not in d and "record" not in d
    g = kaltfront.Game.from_json(d)
    assert g.can_undo()["code"] == "phase" and g.record_actions is None


@pytest.mark.parametrize("tamper, words", [
    (lambda u: u.update(block="zauber"), "undo.block"),
    (lambda u: u.update(base=None), "undo.base"),
    (lambda u: u["actions"].append({"type": "attack", "unit": 1, "target": [2, 1]}), "nicht zurücknehmen"),
    (lambda u: u["actions"].__setitem__(0, {"type": "move", "unit": 1, "to": [2, 2]}), "Rückgängig-Verlauf"),
    (lambda u: u["base"]["units"][0].update(hp=99), "Rückgängig-Verlauf"),
    (lambda u: u.update(actions="viel"), "undo.actions"),
])
def test_d16_a_tampered_history_is_refused_in_german(tamper, words):
    g, _, _ = _two_moves()
    d = json.loads(g.to_json())
    tamper(d["undo"])
    with pytest.raises(kaltfront.SaveError) as exc:
        kaltfront.Game.from_json(d)
    assert words in str(exc.value)
    assert_german(str(exc.value))


# -- bridge ------------------------------------------------------------------------------------------

def call(op, **args):
    return json.loads(bridge.handle(json.dumps({"op": op, "args": args})))


def test_d16_bridge_can_undo_and_undo():
    bridge.reset()
    r = call("new_game", scenario="bornholm", seed=1, fog=True, players={"nordbund": "human", "liga": "leicht"})
    assert r["result"]["undo"]["ok"] is False and r["result"]["undo"]["reason"] == "Noch nichts zurückzunehmen"
    before = call("observe")["result"]["observation"]
    mv = next(a for a in call("legal_actions")["result"] if a["type"] == "move")
    r = call("apply", action=mv)["result"]
    assert r["undo"]["ok"] is True
    assert call("can_undo")["result"]["steps"] == 1
    r = call("undo")["result"]
    assert r["events"][0]["type"] == "undone" and r["observation"] == before
    r = call("undo")
    assert r["ok"] is False and r["error"]["kind"] == "illegal" and "Noch nichts" in r["error"]["message"]


def test_d16_bridge_refuses_undo_during_the_computers_turn():
    bridge.reset()
    call("new_game", scenario="bornholm", seed=1, fog=True, players={"nordbund": "leicht", "liga": "human"})
    assert call("can_undo")["result"]["reason"] == "Der Computer ist am Zug"
    call("ai_step")
    r = call("undo")
    assert r["ok"] is False and "Computer" in r["error"]["message"]


# -- fairness: no sequence of actions and undos shows more than plain moves ---------------------------

FAIR_ROWS = ["..w.....h.....", "..=====o=====.", "W..m....w...h.", "..=....r.....S", ".....h........"]


def _fair_game():
    return make(FAIR_ROWS, [
        U("nordbund", "jaeger", (1, 1)), U("nordbund", "spaehwagen", (2, 1)),
        U("nordbund", "kampfpanzer", (1, 3)), U("nordbund", "transporter", (0, 1), cargo=[U("nordbund", "jaeger")]),
        U("liga", "jaeger", (8, 0)), U("liga", "kampfpanzer", (10, 2)), U("liga", "spaehwagen", (12, 4)),
        U("liga", "jaeger", (6, 3)), U("liga", "panzerhaubitze", (11, 1)),
    ], owners={(0, 2): "nordbund", (13, 3): "liga"}, money=(800, 800), fog=True)


def _enemies_seen(g) -> set:
    side = g.side
    return {(side, u["id"], tuple(u["at"])) for u in g.observe(side)["units"] if u["side"] != side}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 10_000)), min_size=1, max_size=30))
def test_d16_fairness_undo_never_returns_information(steps):
    """D16: after any undo observe(side) equals what it was before the undone action, and the enemy
    units a side saw during any sequence of actions and undos are ones the same game played without
    the undone actions (plain moves only) also showed it; both end in the identical state."""
    g = _fair_game()
    start = g.clone()
    stack: list[tuple[dict, dict]] = []  # (observation, state) before each undoable action
    plain: list = []
    seen = _enemies_seen(g)
    for want_undo, pick in steps:
        if g.outcome is not None:
            break
        if want_undo and g.can_undo()["ok"]:
            g.undo()
            obs, before = stack.pop()
            assert g.observe(g.side) == obs and state(g) == before
            plain.pop()
        else:
            acts = g.legal_actions()
            # end_phase rarely, so that phases are long enough to take things back
            a = acts[pick % len(acts)]
            if isinstance(a, kaltfront.EndPhase) and pick % 4:
                a = acts[(pick // 4) % len(acts)]
            obs, before = g.observe(g.side), state(g)
            g.apply(a)
            plain.append(a)
            if g.can_undo()["ok"]:
                stack.append((obs, before))
            else:
                stack.clear()
        seen |= _enemies_seen(g)
    plain_seen = _enemies_seen(start)
    for a in plain:
        start.apply(a)
        plain_seen |= _enemies_seen(start)
    assert seen <= plain_seen
    assert state(start) == state(g)
    assert start.record_actions is None or start.record_actions == g.record_actions


def test_d16_bridge_hot_seat_each_player_takes_back_only_their_own_phase():
    bridge.reset()
    call("new_game", scenario="uebungsplatz", seed=3, fog=True, players={"nordbund": "human", "liga": "human"})
    side = call("observe")["result"]["observation"]["side"]
    mv = next(a for a in call("legal_actions")["result"] if a["type"] == "move")
    assert call("apply", action=mv)["result"]["undo"]["ok"] is True
    r = call("apply", action={"type": "end_phase"})["result"]
    assert r["viewer"] != side and r["undo"]["ok"] is False  # the other player cannot take it back
    assert call("undo")["ok"] is False


def test_d16_undo_of_a_build_restores_the_end_screen_count():
    """Issue 11.11's 'built' count is part of what a build changes, so undo gives it back."""
    g = make(["W....", "....."], [U("liga", "jaeger", (4, 1))], owners={(0, 0): "nordbund"},
             money=(1000, 0), fog=True)
    g.apply({"type": "build", "at": [0, 0], "unit_type": "spaehwagen"})
    assert g.stats["nordbund"]["built"] == 1
    again = kaltfront.Game.from_json(g.to_json())
    again.undo()
    assert again.stats["nordbund"]["built"] == 0
