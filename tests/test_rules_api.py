"""The public API's promises (docs/api.md): every illegal action raises `IllegalAction` with a German
message and leaves the game exactly unchanged; `legal_actions()` and `apply()` agree; actions round-trip
through JSON; the seeded generator makes games replay exactly (D2); the HQ data the map draws (R37)."""

from __future__ import annotations

import json
import random

import pytest

import kaltfront
from helpers import U, assert_german, assert_illegal, make
from kaltfront import (Attack, Build, EndPhase, Hex, IllegalAction, Load, Move, Surrender, Unload,
                       action_from_json)
from kaltfront.rulesdata import RULES


def play_random(g, steps, seed):
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.outcome is not None:
            break
        acts = g.legal_actions()
        g.apply(rnd.choice(acts))
    return g


def positions():
    start = kaltfront.new_game("uebungsplatz", seed=5, fog=True)
    mid = play_random(kaltfront.new_game("uebungsplatz", seed=7, fog=False), 40, 1)
    fogged_attack = make(["H.........", "..........", ".........H"],
                         [U("nordbund", "kampfpanzer", (3, 1)), U("nordbund", "transporter", (2, 1),
                                                                  cargo=[U("nordbund", "jaeger")]),
                          U("liga", "jaeger", (4, 1)), U("liga", "jaeger", (8, 1))],
                         owners={(0, 0): "nordbund", (9, 2): "liga"}, fog=True, phase="attack", money=(500, 0))
    fogged_move = make(["H.........", "..........", ".........H"],
                       [U("nordbund", "kampfpanzer", (3, 1)), U("nordbund", "transporter", (2, 1),
                                                                cargo=[U("nordbund", "jaeger")]),
                        U("nordbund", "jaeger", (1, 1)), U("liga", "jaeger", (4, 1)), U("liga", "jaeger", (8, 1))],
                       owners={(0, 0): "nordbund", (9, 2): "liga"}, fog=True, money=(500, 0))
    return {"start": start, "mid": mid, "fogged-attack": fogged_attack, "fogged-move": fogged_move}


def candidates(g):
    """Every action of every kind on every hex for every unit id (own, enemy, cargo, missing)."""
    hexes = [Hex(c, r) for r in range(-1, g.height + 1) for c in range(-1, g.width + 1)]
    ids = sorted(g.units) + [max(g.units, default=0) + 5]
    for uid in ids:
        for h in hexes:
            yield Move(uid, h)
            yield Attack(uid, h)
        for t in ids:
            yield Load(uid, t)
            for h in hexes:
                if g.units.get(t) is not None and g.units[t].cargo:
                    yield Unload(t, uid, h)
    for h in hexes:
        for ut in ("jaeger", "kampfpanzer", "kampfjet", "fregatte"):
            yield Build(h, ut)
    yield EndPhase()


@pytest.mark.parametrize("name", ["start", "mid", "fogged-attack", "fogged-move"])
def test_api_illegal_actions_raise_and_change_nothing(name):
    """R9/R10/R16/R22/R34/R40/R41: every action not in legal_actions() raises IllegalAction with a German
    message and leaves to_json() exactly as it was; every listed action is accepted."""
    g = positions()[name]
    legal = set(g.legal_actions())
    before = g.to_json()
    seen_messages = set()
    pool = list(candidates(g))
    if len(pool) > 1500:  # keep the suite fast: a fixed sample of the big positions
        pool = random.Random(name).sample(pool, 1500)
    for a in pool:
        if a in legal:
            continue
        with pytest.raises(IllegalAction) as exc:
            g.apply(a)
        assert g.to_json() == before, a
        seen_messages.add(str(exc.value))
    for msg in seen_messages:
        assert_german(msg)
    for a in legal:
        c = g.clone()
        c.apply(a)


def test_api_legal_actions_include_every_kind():
    """The positions above exercise moves, loads, unloads, attacks, builds (so the sweep means something)."""
    kinds = {type(a).__name__ for name, g in positions().items() for a in g.legal_actions()}
    assert kinds >= {"Move", "Load", "Unload", "Attack", "Build", "EndPhase"}


@pytest.mark.parametrize("name", ["start", "mid", "fogged-attack", "fogged-move"])
def test_api_actions_round_trip_through_json(name):
    """docs/api.md: action.to_json() → JSON text → action_from_json gives the same action, and applying
    the JSON form does the same as applying the action."""
    g = positions()[name]
    for a in g.legal_actions() + [Surrender("liga")]:
        d = json.loads(json.dumps(a.to_json()))
        assert action_from_json(d) == a
    a = g.legal_actions()[0]
    g1, g2 = g.clone(), g.clone()
    assert g1.apply(a) == g2.apply(a.to_json())
    assert g1 == g2


@pytest.mark.parametrize("bad", [
    None, [], "move", {}, {"type": 5}, {"type": "fly"}, {"type": "move"}, {"type": "move", "unit": "7", "to": [1, 1]},
    {"type": "move", "unit": True, "to": [1, 1]}, {"type": "move", "unit": 1, "to": [1]},
    {"type": "move", "unit": 1, "to": "1,1"}, {"type": "attack", "unit": 1, "target": [1.5, 2]},
    {"type": "build", "at": [0, 0], "unit_type": "ritter"}, {"type": "surrender", "side": "daenemark"},
    {"type": "load", "unit": 1}, {"type": "unload", "transport": 1, "unit": 2},
])
def test_api_malformed_action_json(bad):
    """A malformed action raises IllegalAction with a German message, and apply() leaves the game as it was."""
    with pytest.raises(IllegalAction) as exc:
        action_from_json(bad)
    assert_german(str(exc.value))
    g = kaltfront.new_game("uebungsplatz", seed=1, fog=False)
    assert_illegal(g, bad)


def test_api_surrender_is_legal_for_the_waiting_side_too():
    """R51: surrender is always legal while the game runs."""
    g = kaltfront.new_game("uebungsplatz", seed=1, fog=False)
    g.apply(Surrender("liga"))
    assert g.outcome.winner == "nordbund"


def test_d2_rng_rolls_are_minus_one_zero_plus_one_evenly():
    """D2: the random part is −1, 0 or +1 with equal chance."""
    from kaltfront.rng import damage_roll
    state, counts = 12345, {-1: 0, 0: 0, 1: 0}
    for _ in range(30000):
        state, r = damage_roll(state)
        counts[r] += 1
    assert set(counts) == {-1, 0, 1}
    assert all(abs(c - 10000) < 400 for c in counts.values()), counts


def test_d2_replay_from_seed_and_actions():
    """D2: a game replays exactly from its seed and its actions."""
    g = kaltfront.new_game("uebungsplatz", seed=11, fog=True)
    log = []
    rnd = random.Random(3)
    for _ in range(120):
        if g.outcome is not None:
            break
        a = rnd.choice(g.legal_actions())
        log.append(a.to_json())
        g.apply(a)
    r = kaltfront.new_game("uebungsplatz", seed=11, fog=True)
    for a in log:
        r.apply(a)
    assert r.to_json() == g.to_json()
    attacks = [a for a in log if a["type"] == "attack"]
    assert attacks, "the random game should have fought"


def test_d2_saved_game_continues_the_same_way():
    """D2: the generator's state is in the save: a loaded game continues exactly like the original,
    random damage included."""
    g = play_random(kaltfront.new_game("uebungsplatz", seed=21, fog=False), 30, 5)
    saved = g.to_json()
    loaded = kaltfront.Game.from_json(saved)
    assert loaded.to_json() == saved
    rnd1, rnd2 = random.Random(9), random.Random(9)
    for _ in range(80):
        if g.outcome is not None:
            break
        a1, a2 = rnd1.choice(g.legal_actions()), rnd2.choice(loaded.legal_actions())
        assert a1 == a2
        assert g.apply(a1) == loaded.apply(a2)
    assert g.to_json() == loaded.to_json()


def test_d2_different_seeds_give_different_rolls():
    """D2: the seed matters (the same attack from two seeds does not always deal the same damage)."""
    damages = set()
    for seed in range(12):
        g = make(["........"], [U("nordbund", "kampfpanzer", (0, 0)), U("liga", "kampfpanzer", (1, 0))],
                 phase="attack", rng=seed)
        damages.add(g.apply({"type": "attack", "unit": 1, "target": [1, 0]})[0]["damage"])
    assert damages == {4, 5, 6}   # 5.14 → 5, ±1


def test_r37_r36_hq_data_for_drawing():
    """R37 (drawing is the UI's): the engine gives what the map needs to draw and label both HQs — their
    hex, owner and name in `scenarios()` and in `observe()`; each side has exactly one (R36)."""
    for s in kaltfront.scenarios():
        assert set(s["hq"]) == {"nordbund", "liga"}
        g = kaltfront.new_game(s["id"], seed=1, fog=True)
        obs = g.observe("nordbund")
        hqs = [b for b in obs["buildings"] if b["type"] == "hq"]
        assert sorted(b["owner"] for b in hqs) == ["liga", "nordbund"]
        assert {b["owner"]: b["at"] for b in hqs} == {side: v["at"] for side, v in s["hq"].items()}


def test_r3_fog_is_chosen_at_the_start():
    """R3: fog on or off is chosen when the game is created."""
    assert kaltfront.new_game("uebungsplatz", seed=1, fog=True).fog is True
    g = kaltfront.new_game("uebungsplatz", seed=1, fog=False)
    assert g.fog is False and len(g.visible("nordbund")) == g.width * g.height


def test_r22_attack_preview_matches_the_attack_without_the_roll():
    """R22/D2: the expected damage and counter-fire shown while aiming are the values with roll 0."""
    from helpers import rng_for
    g = make(["........"], [U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (1, 0), level=1)],
             phase="attack", rng=rng_for(0, 0))
    opt = g.attack_options(1)[0]
    ev = g.apply({"type": "attack", "unit": 1, "target": [1, 0]})[0]
    assert (opt["damage"], opt["counter"]) == (ev["damage"], ev["counter_damage"])
    assert RULES.units["jaeger"].cost == 100


@pytest.mark.parametrize("map_id", ["lolland-falster", "grosser-belt"])
def test_api_is_legal_answers_exactly_as_legal_actions(map_id):
    """`Game.is_legal(action)` (one unit's question, used by the computer for every action it sends) says
    yes exactly for the actions in `legal_actions()`: over states of a real game with fog, for every
    listed action and for near misses -- moves to other hexes, attacks on other hexes, boarding any own
    unit, unloading anywhere near, building every type on every building, other units' ids."""
    from kaltfront.ai import AIPlayer
    g = kaltfront.new_game(map_id, seed=4, fog=True)
    ais = {s: AIPlayer("normal", s, seed=k) for k, s in enumerate(("nordbund", "liga"))}
    rnd = random.Random(7)
    checked = 0
    for step in range(400):
        if g.outcome is not None or g.round > 3:
            break
        if step % 14 == 0:
            legal = {json.dumps(a.to_json(), sort_keys=True) for a in g.legal_actions()}
            side = g.side
            own = [u for u in g.units_of(side)]
            cands = [json.loads(a) for a in legal]
            hexes = [[c, r] for c in range(g.width) for r in range(g.height)]
            for u in own:
                c, r = g.hex(u.at).to_json()
                for to in rnd.sample(hexes, 12) + [[c + dc, r + dr] for dc in (-2, 0, 1) for dr in (-1, 0, 2)]:
                    cands.append({"type": "move", "unit": u.id, "to": to})
                    cands.append({"type": "attack", "unit": u.id, "target": to})
                for t in rnd.sample(own, min(4, len(own))):
                    cands.append({"type": "load", "unit": u.id, "transport": t.id})
                for cid in u.cargo + [u.id]:
                    for to in [[c + dc, r + dr] for dc in (-1, 0, 1) for dr in (-1, 0, 1)]:
                        cands.append({"type": "unload", "transport": u.id, "unit": cid, "to": to})
            for b in g.buildings.values():
                for ut in RULES.units:
                    cands.append({"type": "build", "at": g.hex(b.at).to_json(), "unit_type": ut})
            cands += [{"type": "end_phase"}, {"type": "move", "unit": 999999, "to": [0, 0]},
                      {"type": "build", "at": [-1, 0], "unit_type": "jaeger"}, {"type": "surrender"}]
            for a in cands:
                assert g.is_legal(a) == (json.dumps(a, sort_keys=True) in legal), (a, g.side, g.phase)
                checked += 1
        g.apply(ais[g.side].next_action(g.observe(g.side)))
    assert checked > 1000
