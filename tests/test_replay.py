"""Replays (issue 13.3, D2): a finished game is its seed and actions; the replay file
(.kaltfront-replay.json) is versioned and checked like a save, and replays to the identical end."""

from __future__ import annotations

import json

import pytest
from helpers import U, assert_german, make

import kaltfront
from kaltfront import bridge
from kaltfront.replay import CHECKPOINT_EVERY, SUFFIX, ReplayError, load_replay, make_replay
from kaltfront.save import game_to_dict
from kaltfront.selfplay import play

MAPS = [s["id"] for s in kaltfront.scenarios()]


def finished(scenario: str, seed: int = 5, rounds: int = 2) -> kaltfront.Game:
    """A short AI-vs-AI game (Leicht, fog on, capped rounds), ended by the side to act surrendering."""
    g = kaltfront.new_game(scenario, seed=seed, fog=True)
    play(g, {"nordbund": "leicht", "liga": "leicht"}, seed, max_rounds=rounds)
    if g.outcome is None:
        g.apply({"type": "surrender", "side": g.side})
    return g


@pytest.mark.parametrize("scenario", MAPS)
def test_issue13_ai_games_replay_from_their_files_to_the_identical_end(scenario, tmp_path):
    g = finished(scenario)
    path = tmp_path / f"{scenario}{SUFFIX}"
    path.write_text(json.dumps(make_replay(g, {"name": g.name}), ensure_ascii=False), encoding="utf-8")
    r = load_replay(path.read_text(encoding="utf-8"))
    end = r.state(r.length)
    assert game_to_dict(end, history=False) == game_to_dict(g, history=False)
    assert end.outcome == g.outcome and r.final["outcome"] == g.outcome.to_json()
    assert r.length == len(g.record_actions)
    assert any(isinstance(a, kaltfront.Attack) for a in r.actions) or g.round <= 2


def test_issue13_jumping_gives_the_same_positions_as_stepping():
    g = finished("fehmarnsund", seed=3, rounds=3)
    r = load_replay(make_replay(g))
    assert r.length > CHECKPOINT_EVERY
    step = r.state(0)
    for n in range(1, r.length + 1):
        step.apply(r.actions[n - 1])
        if n % 17 == 0 or n in (CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, r.length):
            assert game_to_dict(r.state(n), history=False) == game_to_dict(step, history=False)
    # jump to a round: the index where its first phase begins
    k = r.round_start(2)
    assert r.state(k).round == 2 and r.state(k - 1).round == 1
    assert [p["round"] for p in r.phases] == sorted(p["round"] for p in r.phases)


def test_issue13_replay_view_lifts_the_fog_and_lists_recent_actions():
    g = finished("bornholm", seed=2)
    r = load_replay(make_replay(g))
    v = r.view(r.length, recent=5)
    assert v["observation"]["fog"] is False and set(v["observation"]["visible"][0]) == {"1"}
    assert {u["side"] for u in v["observation"]["units"]} == {"nordbund", "liga"}
    assert [e["index"] for e in v["recent"]] == list(range(r.length, r.length - 5, -1))
    assert v["recent"][0]["events"][-1]["type"] == "game_over"
    with pytest.raises(ValueError):
        r.view(r.length + 1)


def test_issue13_taken_back_actions_are_not_in_the_record():
    """D16: an undone move leaves no trace; the replay still reaches the same end."""
    g = kaltfront.new_game("uebungsplatz", seed=1, fog=True)
    moves = [a for a in g.legal_actions() if isinstance(a, kaltfront.Move)]
    g.apply(moves[0])
    g.apply(moves[-1])
    g.undo()
    assert g.record_actions == [moves[0]]
    g.apply({"type": "surrender", "side": g.side})
    r = load_replay(make_replay(g))
    assert game_to_dict(r.state(r.length), history=False) == game_to_dict(g, history=False)
    # the record survives a save, so a reloaded game still has its replay
    again = kaltfront.Game.from_json(g.to_json())
    assert make_replay(again)["actions"] == make_replay(g)["actions"]


def test_issue13_no_replay_of_a_running_game_or_a_hand_made_position():
    g = kaltfront.new_game("uebungsplatz", seed=1)
    with pytest.raises(ReplayError) as exc:
        make_replay(g)
    assert "läuft noch" in str(exc.value)
    h = make(["H...H"], [U("nordbund", "jaeger", (1, 0)), U("liga", "jaeger", (3, 0))],
             owners={(0, 0): "nordbund", (4, 0): "liga"})
    h.apply({"type": "surrender", "side": "nordbund"})
    with pytest.raises(ReplayError) as exc:
        make_replay(h)
    assert_german(str(exc.value))


def _file():
    return make_replay(finished("uebungsplatz", seed=4))


@pytest.mark.parametrize("tamper, words", [
    (lambda d: d.update(format="kaltfront-save"), "Spielstand, keine Wiederholung"),
    (lambda d: d.update(format="zip"), "keine Kaltfront-Wiederholung"),
    (lambda d: d.update(version=99), "neueren Version"),
    (lambda d: d.pop("start"), "Startaufstellung"),
    (lambda d: d["start"].update(money={"nordbund": -5, "liga": 0}), "Startaufstellung"),
    (lambda d: d["actions"].insert(0, {"type": "attack", "unit": 1, "target": [0, 0]}), "Aktion 1 ist nicht erlaubt"),
    (lambda d: d["actions"].insert(0, {"type": "fliegen"}), "Aktion 1"),
    (lambda d: d["actions"].pop(), "nicht bis zum Ende"),
    (lambda d: d["final"].update(round=77), "Ergebnis passt nicht"),
    (lambda d: d.update(meta={"players": {"nordbund": ["x"]}}), "meta.players"),
])
def test_issue13_a_broken_replay_is_refused_in_german(tamper, words):
    d = _file()
    tamper(d)
    with pytest.raises(ReplayError) as exc:
        load_replay(json.dumps(d))
    assert words in str(exc.value)
    assert_german(str(exc.value))


def test_issue13_truncated_or_not_json():
    text = json.dumps(_file())
    for bad in (text[: len(text) // 2], b"\xff\xfe", "[]"):
        with pytest.raises(ReplayError) as exc:
            load_replay(bad)
        assert_german(str(exc.value))


def test_issue13_a_deeply_nested_replay_is_refused_before_parsing():
    """Issue 10's doors, for replay files too: nesting is measured before json.loads, because under
    Pyodide a deep text overflows the WebAssembly stack instead of raising RecursionError."""
    for deep in ("[" * 5000 + "]" * 5000, '{"a":' * 150 + "1" + "}" * 150):
        with pytest.raises(ReplayError) as exc:
            load_replay(deep)
        assert "verschachtelt" in str(exc.value)
    answer = call("replay_open", replay="[" * 5000 + "]" * 5000)
    assert answer["ok"] is False and "verschachtelt" in answer["error"]["message"], answer


def call(op, **args):
    return json.loads(bridge.handle(json.dumps({"op": op, "args": args})))


def test_issue13_bridge_export_open_view_round():
    bridge.reset()
    call("new_game", scenario="uebungsplatz", seed=2, fog=True, players={"nordbund": "human", "liga": "leicht"})
    r = call("replay_export")
    assert r["ok"] is False and "läuft noch" in r["error"]["message"]
    call("apply", action={"type": "surrender", "side": "nordbund"})
    r = call("replay_export", meta={"saved": "2026-11-30"})
    assert r["ok"], r
    rep = r["result"]
    assert rep["format"] == "kaltfront-replay" and rep["meta"]["players"]["liga"] == "leicht"
    bridge.reset()
    o = call("replay_open", replay=rep)["result"]
    assert o["length"] == len(rep["actions"]) and o["view"]["index"] == 0
    v = call("replay_view", index=o["length"], recent=3)["result"]
    assert v["observation"]["outcome"]["winner"] == "liga"
    assert call("replay_round", round=1)["result"]["index"] == 0
    assert call("replay_view", index=-1)["error"]["kind"] == "bad_request"
    assert call("replay_open", replay={"format": "x"})["error"]["kind"] == "save"


def test_issue13_a_feldzug_battle_replays_with_its_reinforcements():
    """Issue 15's campaign_setup (C6, C8) changes the start; the record keeps it, the replay repeats it."""
    g = kaltfront.new_game("fehmarnsund", seed=9, fog=True)
    g.campaign_setup("nordbund", money_delta=300, units=["jaeger"], round_limit=12)
    g.campaign_setup("liga", money_delta=-200, units=[], round_limit=12)
    play(g, {"nordbund": "leicht", "liga": "leicht"}, 9, max_rounds=2)
    if g.outcome is None:
        g.apply({"type": "surrender", "side": g.side})
    again = kaltfront.Game.from_json(g.to_json())
    assert again.record_setup == g.record_setup and len(g.record_setup) == 2
    r = load_replay(make_replay(again))
    assert game_to_dict(r.state(r.length), history=False) == game_to_dict(g, history=False)
    plain = kaltfront.new_game("fehmarnsund", seed=9, fog=True)
    assert r.state(0).unit_count("nordbund") == plain.unit_count("nordbund") + 1
    assert r.state(0).money["nordbund"] == plain.money["nordbund"] + 300
    d = json.loads(g.to_json())
    d["record"]["setup"][0]["units"] = ["drache"]
    with pytest.raises(kaltfront.SaveError) as exc:
        kaltfront.Game.from_json(d)
    assert "record.setup" in str(exc.value)
