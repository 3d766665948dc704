"""The computer opponent (issue 4): fairness (R4), Leicht (R5), Normal (R6), Schwer (R7), and that every
strength plays every part of the game legally: captures, transports, aircraft fuel, the Blitz end-game.

Positions are written as save dicts; the AI is driven exactly as the browser bridge drives it: one
action per call with the new `observe(side)`, until its turn is over.
"""

from __future__ import annotations

import json

import pytest

import kaltfront
from kaltfront.ai import STRENGTHS, AIPlayer
from kaltfront.ai.move import SIMPLE_UNITS
from kaltfront.selfplay import main as selfplay_main
from kaltfront.selfplay import play

R = kaltfront.rules()


def unit(uid, utype, side, at, **extra):
    ut = R["units"][utype]
    d = {"id": uid, "type": utype, "side": side, "at": at, "hp": 10, "level": 0, "ammo": ut["ammo"],
         "fuel": ut["fuel"], "moved": False, "attacked": False}
    d.update(extra)
    return d


def position(terrain, units, *, owners=None, side="nordbund", phase="move", fog=False, blitz=False,
             money=(0, 0), round_=2, round_limit=None):
    owners = owners or {}
    by_char = {t["char"]: tid for tid, t in R["terrain"].items()}
    blist = []
    for r, row in enumerate(terrain):
        for c, ch in enumerate(row):
            if by_char[ch] in R["buildings"]:
                blist.append({"at": [c, r], "type": by_char[ch], "owner": owners.get((c, r)), "name": "",
                              "capture": None})
    if blitz:
        for u in units:
            u["ammo"] = u["fuel"] = None
    return {"format": "kaltfront-save", "version": 1, "scenario": "test", "name": "Test", "briefing": "",
            "objectives": {}, "region": "", "map": {"width": len(terrain[0]), "height": len(terrain),
                                                    "terrain": terrain},
            "blitz": blitz, "fog": fog, "round_limit": round_limit, "first": "nordbund", "round": round_,
            "side": side, "phase": phase, "money": {"nordbund": money[0], "liga": money[1]},
            "buildings": blist, "units": units, "next_id": 100, "rng": 777, "outcome": None}


def ai_turn(game, ai, *, check_legal=True, limit=500):
    """Let `ai` play until the side to act changes or the game ends; returns (actions, events)."""
    side = game.side
    actions, events = [], []
    while game.outcome is None and game.side == side and len(actions) < limit:
        a = ai.next_action(game.observe(side))
        if check_legal:
            assert a in [x.to_json() for x in game.legal_actions()], a
        actions.append(a)
        events.extend(game.apply(a))
    assert len(actions) < limit, "the AI did not end its turn"
    return actions, events


def ai_phase(game, ai):
    side, phase = game.side, game.phase
    actions, events = [], []
    while game.outcome is None and game.side == side and game.phase == phase:
        a = ai.next_action(game.observe(side))
        assert a in [x.to_json() for x in game.legal_actions()], a
        actions.append(a)
        events.extend(game.apply(a))
        assert len(actions) < 300
    return actions, events


# -- R4: fairness ---------------------------------------------------------------------------------

def _midgame(seed=3, rounds=4):
    g = kaltfront.new_game("fehmarnsund", seed=seed, fog=True)
    ais = {s: AIPlayer("normal", s, seed=k) for k, s in enumerate(("nordbund", "liga"))}
    while g.outcome is None and not (g.round == rounds and g.side == "nordbund"):
        g.apply(ais[g.side].next_action(g.observe(g.side)))
    assert g.outcome is None and g.phase == "attack"
    return g


def _with_hidden_units(g, side):
    """Two copies of g that differ only in enemy units `side` cannot see (far from its units)."""
    a = json.loads(g.to_json())
    b = json.loads(g.to_json())
    seen = g.observe(side)["visible"]
    w, h = a["map"]["width"], a["map"]["height"]
    taken = {tuple(u["at"]) for u in a["units"]}
    grid = kaltfront.Game.from_json(a)
    own = [tuple(u["at"]) for u in a["units"] if u["side"] == side]
    enemy = "liga" if side == "nordbund" else "nordbund"
    added = []
    nid = a["next_id"]
    spots = []
    for r in range(h):
        for c in range(w):
            ch = a["map"]["terrain"][r][c]
            if ch not in ".=who" or seen[r][c] == "1" or (c, r) in taken:
                continue
            d = min(kaltfront.hexgrid.distance(kaltfront.Hex(c, r), kaltfront.Hex(*o)) for o in own)
            spots.append((-d, c, r, ch))
    spots.sort()
    for d, c, r, ch in spots[:3]:
        if -d < 4:
            break
        utype = "kampfpanzer" if ch in ".=" and not added else "jaeger"
        added.append(unit(nid, utype, enemy, [c, r], ammo=None, fuel=None))
        nid += 1
    assert added, "no hidden hex found for the test"
    del grid
    b["units"].extend(added)
    a["next_id"] = b["next_id"] = nid
    return kaltfront.Game.from_json(a), kaltfront.Game.from_json(b)


@pytest.mark.parametrize("strength", STRENGTHS)
def test_r4_hidden_enemy_units_do_not_change_the_ai_turn(strength):
    """R4: the AI decides only from observe(side) and its memory: two games that differ only in
    enemy units it cannot see give exactly the same actions for its whole turn."""
    g = _midgame()
    ga, gb = _with_hidden_units(g, "nordbund")
    assert ga.observe("nordbund") == gb.observe("nordbund")
    ai_a = AIPlayer(strength, "nordbund", seed=11)
    ai_b = AIPlayer(strength, "nordbund", seed=11)
    acts_a, _ = ai_turn(ga, ai_a)
    acts_b, _ = ai_turn(gb, ai_b)
    assert acts_a == acts_b
    assert len(acts_a) > 2


def test_r4_no_hidden_information_in_the_belief():
    """R4: the belief game holds no enemy unit the AI cannot see and no enemy money under fog."""
    from kaltfront.ai.common import belief_dict
    g = _midgame()
    ga, gb = _with_hidden_units(g, "nordbund")
    da = belief_dict(ga.observe("nordbund"), "nordbund")
    db = belief_dict(gb.observe("nordbund"), "nordbund")
    assert da == db
    assert da["money"]["liga"] == 0


# -- all strengths: legal, complete games ------------------------------------------------------------

@pytest.mark.parametrize("pair", [("schwer", "leicht"), ("normal", "schwer")])
def test_r4_r7_ai_finishes_a_blitz_game_with_legal_actions_only(pair):
    g = kaltfront.new_game("fehmarnsund", seed=5, fog=True)
    r = play(g, {"nordbund": pair[0], "liga": pair[1]}, seed=5, check_legal=True)
    assert r["reason"] in ("hq", "no_army", "round_limit") and r["illegal"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("strength", STRENGTHS)
def test_r4_r7_ai_finishes_a_standard_game_with_legal_actions_only(strength):
    """Fuel, ammunition, aircraft, ships: the practice map has every building."""
    g = kaltfront.new_game("uebungsplatz", seed=2, fog=True)
    r = play(g, {"nordbund": strength, "liga": "normal"}, seed=2, check_legal=True, record=True)
    assert r["reason"] in ("hq", "no_army", "round_limit") and r["illegal"] == 0


def test_selfplay_is_reproducible_action_for_action():
    logs = []
    for _ in range(2):
        g = kaltfront.new_game("fehmarnsund", seed=9, fog=True)
        logs.append(play(g, {"nordbund": "schwer", "liga": "normal"}, seed=9, record=True)["log"])
    assert logs[0] == logs[1] and len(logs[0]) > 50


def test_selfplay_command_prints_summary(capsys):
    assert selfplay_main(["--map", "fehmarnsund", "--nordbund", "leicht", "--liga", "leicht",
                          "--games", "1", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 1 and out["summary"].startswith("nordbund ")


def test_selfplay_prints_wins_per_map_and_strength(capsys):
    assert selfplay_main(["--map", "fehmarnsund", "--nordbund", "normal", "--liga", "leicht",
                          "--games", "2", "--seed", "3", "--swap"]) == 0
    lines = capsys.readouterr().out.splitlines()
    map_line = next(x for x in lines if x.strip().startswith("fehmarnsund") and "unentschieden" in x)
    assert "(normal " in map_line and ", leicht " in map_line
    assert lines[-1].startswith("normal ") and " – leicht " in lines[-1]


# -- R5: Leicht ---------------------------------------------------------------------------------------

def test_r5_leicht_buys_only_simple_units():
    for seed in range(6):
        d = json.loads(kaltfront.new_game("uebungsplatz", seed=1, fog=False).to_json())
        d["money"]["nordbund"] = 20000
        d["units"] = [u for u in d["units"] if u["side"] == "liga"]  # every building free
        g = kaltfront.Game.from_json(d)
        acts, _ = ai_phase(g, AIPlayer("leicht", "nordbund", seed=seed))
        built = [a["unit_type"] for a in acts if a["type"] == "build"]
        assert built and set(built) <= set(SIMPLE_UNITS)


def test_r5_leicht_attacks_the_nearest_target():
    terrain = ["H.........",
               "..........",
               "..........",
               ".........H"]
    units = [unit(1, "panzerhaubitze", "nordbund", [4, 1]),
             unit(2, "jaeger", "liga", [6, 1]),          # distance 2: nearest
             unit(3, "kampfpanzer", "liga", [8, 1], hp=3)]  # distance 4: juicier
    g = kaltfront.Game.from_json(position(terrain, units, phase="attack", blitz=True, round_limit=10,
                                          owners={(0, 0): "nordbund", (9, 3): "liga"}))
    a = AIPlayer("leicht", "nordbund", seed=1).next_action(g.observe("nordbund"))
    assert a == {"type": "attack", "unit": 1, "target": [6, 1]}


# -- R6: Normal ---------------------------------------------------------------------------------------

REPAIR_MAP = ["..........",
              "W.........",
              "..........",
              "H........H",
              ".........."]


def _repair_position(hp):
    units = [unit(1, "kampfpanzer", "nordbund", [5, 2], hp=hp),
             unit(2, "jaeger", "nordbund", [4, 3]),
             unit(3, "kampfpanzer", "liga", [7, 2]),
             unit(4, "schuetzenpanzer", "liga", [8, 3])]
    return kaltfront.Game.from_json(position(REPAIR_MAP, units, blitz=True, round_limit=10, round_=3,
                                             owners={(0, 1): "nordbund", (0, 3): "nordbund",
                                                     (9, 3): "liga"}))


def test_r6_normal_sends_a_badly_damaged_unit_to_repair():
    g = _repair_position(hp=3)
    ai_phase(g, AIPlayer("normal", "nordbund", seed=1))
    tank = next(u for u in g.observe("nordbund")["units"] if u["id"] == 1)
    # It stands on (or next to) the Werk or the HQ, both of which repair tracked vehicles.
    assert min(kaltfront.hexgrid.distance(kaltfront.Hex(*tank["at"]), kaltfront.Hex(*b))
               for b in ([0, 1], [0, 3])) <= 1


def test_r6_normal_weighs_damage_against_counter_fire():
    """A Spähwagen does not attack a full Kampfpanzer (little damage, heavy answer); it does hit a
    weakened enemy Jäger."""
    terrain = ["H........H"] + ["." * 10] * 3
    units = [unit(1, "spaehwagen", "nordbund", [4, 1]),
             unit(2, "kampfpanzer", "liga", [5, 1])]
    g = kaltfront.Game.from_json(position(terrain, units, phase="attack", blitz=True, round_limit=10,
                                          owners={(0, 0): "nordbund", (9, 0): "liga"}))
    assert AIPlayer("normal", "nordbund", seed=1).next_action(g.observe("nordbund")) == {"type": "end_phase"}
    units[1] = unit(2, "jaeger", "liga", [5, 1], hp=4)
    g = kaltfront.Game.from_json(position(terrain, units, phase="attack", blitz=True, round_limit=10,
                                          owners={(0, 0): "nordbund", (9, 0): "liga"}))
    assert AIPlayer("normal", "nordbund", seed=1).next_action(g.observe("nordbund"))["type"] == "attack"


# -- R7: Schwer ---------------------------------------------------------------------------------------

def test_r7_schwer_focus_fires_artillery_first_to_destroy():
    terrain = ["H.........",
               "..........",
               "..........",
               "..........",
               ".........H"]
    units = [unit(1, "kampfpanzer", "nordbund", [4, 1]),
             unit(2, "schuetzenpanzer", "nordbund", [4, 3]),
             unit(3, "panzerhaubitze", "nordbund", [2, 2]),
             unit(10, "jaeger", "liga", [5, 2]),
             unit(11, "jaeger", "liga", [5, 1]),
             unit(12, "spaehwagen", "liga", [5, 3])]
    g = kaltfront.Game.from_json(position(terrain, units, phase="attack", blitz=True, round_limit=10,
                                          owners={(0, 0): "nordbund", (9, 4): "liga"}))
    acts, events = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    attacks = [a for a in acts if a["type"] == "attack"]
    assert attacks[0]["unit"] == 3  # the howitzer fires first: no counter-fire
    first_target = attacks[0]["target"]
    destroyed = [e for e in events if e["type"] == "destroyed" and e["side"] == "liga"]
    assert destroyed and destroyed[0]["at"] == first_target
    # Shots go to the first target until it falls (focus fire), and at least one unit is destroyed.
    k = next(i for i, a in enumerate(attacks) if a["target"] != first_target) if any(
        a["target"] != first_target for a in attacks) else len(attacks)
    assert all(a["target"] == first_target for a in attacks[:k])


def test_r7_schwer_keeps_its_hq_occupied_against_a_jaeger():
    terrain = ["..........",
               ".H........",
               "..........",
               ".........H"]
    units = [unit(1, "kampfpanzer", "nordbund", [3, 1]),
             unit(2, "spaehwagen", "nordbund", [2, 2]),
             unit(10, "jaeger", "liga", [4, 2]),
             unit(11, "kampfpanzer", "liga", [8, 3])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_limit=10, round_=3,
                                          owners={(1, 1): "nordbund", (9, 3): "liga"}))
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert any(u["at"] == [1, 1] for u in g.observe("nordbund")["units"] if u["side"] == "nordbund")


def test_r7_schwer_remembers_seen_enemy_units_two_turns():
    ai = AIPlayer("schwer", "nordbund", seed=1)
    # The first of rounds 3-6 in which the Nordbund sees a Liga unit (fog on).
    for rounds in (3, 4, 5, 6):
        obs = _midgame(rounds=rounds).observe("nordbund")
        seen = [u for u in obs["units"] if u["side"] == "liga"]
        if seen:
            break
    assert seen, "no Liga unit in sight in rounds 3-6: pick another position for this test"
    ai._remember(obs)
    later = dict(obs, round=obs["round"] + 1, units=[u for u in obs["units"] if u["side"] == "nordbund"],
                 visible=["0" * obs["width"]] * obs["height"])
    assert {u["id"] for u in ai._remember(later)} == {u["id"] for u in seen}
    much_later = dict(later, round=obs["round"] + 3)
    assert ai._remember(much_later) == []


# -- every strength: jets, Blitz end-game, transports ----------------------------------------------------

JET_MAP = ["F.............",
           "..............",
           "H............H",
           "..............",
           ".............."]


@pytest.mark.parametrize("strength", STRENGTHS)
def test_no_avoidable_jet_crash(strength):
    """R19: a Kampfjet with little fuel far from home returns instead of crashing."""
    units = [unit(1, "kampfjet", "nordbund", [7, 1], fuel=9),
             unit(2, "jaeger", "nordbund", [1, 2]),
             unit(10, "kampfpanzer", "liga", [12, 2]),
             unit(11, "jaeger", "liga", [12, 3])]
    g = kaltfront.Game.from_json(position(JET_MAP, units, owners={(0, 0): "nordbund", (0, 2): "nordbund",
                                                                    (13, 2): "liga"}, round_limit=20))
    ai = AIPlayer(strength, "nordbund", seed=4)
    for _ in range(3):
        _, events = ai_turn(g, ai)
        assert not any(e["type"] == "crashed" for e in events)
        if g.outcome is not None:
            break
        while g.side != "nordbund" and g.outcome is None:
            g.apply({"type": "end_phase"})
    assert any(u["id"] == 1 for u in g.observe("nordbund")["units"])


@pytest.mark.parametrize("strength", STRENGTHS)
def test_blitz_end_game_jaeger_captures_a_reachable_building(strength):
    """R66, R68: in the last round a Jäger goes to a building it can still take."""
    terrain = ["H..........",
               "...........",
               ".....S.....",
               "..........H"]
    units = [unit(1, "jaeger", "nordbund", [3, 1]),
             unit(2, "kampfpanzer", "nordbund", [1, 1]),
             unit(10, "jaeger", "liga", [9, 3])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_=10, round_limit=10,
                                          owners={(0, 0): "nordbund", (10, 3): "liga"}))
    _, events = ai_turn(g, AIPlayer(strength, "nordbund", seed=2))
    assert any(e["type"] == "captured" and e["at"] == [5, 2] for e in events)


ISLANDS = ["~~~~~~~~~~~",
           "~.H.kkkk.S~",
           "~..Pkkkk.H~",
           "~...kkkk..~",
           "~~~~~~~~~~~"]


@pytest.mark.parametrize("strength", ["normal", "schwer"])
def test_transport_carries_foot_units_across_water(strength):
    """R39-R42: with the objectives on another island, the Jäger boards the Landungsboot, crosses
    and is unloaded on the far shore."""
    units = [unit(1, "jaeger", "nordbund", [1, 2]),
             unit(2, "landungsboot", "nordbund", [4, 2]),
             unit(10, "jaeger", "liga", [8, 3])]
    g = kaltfront.Game.from_json(position(ISLANDS, units, round_limit=20, money=(0, 0),
                                          owners={(2, 1): "nordbund", (3, 2): "nordbund", (9, 2): "liga"}))
    ai = AIPlayer(strength, "nordbund", seed=3)
    kinds = []
    for _ in range(4):
        acts, _ = ai_turn(g, ai)
        kinds += [a["type"] for a in acts]
        if g.outcome is not None:
            break
        while g.side != "nordbund" and g.outcome is None:
            g.apply({"type": "end_phase"})
    assert "load" in kinds and "unload" in kinds
    j = next((u for u in g.observe("nordbund")["units"] if u["id"] == 1), None)
    assert j is None or j["at"][0] >= 7 or g.outcome is not None


# -- the game's last move and production sites ----------------------------------------------------

def test_r7_r66_schwer_last_word_takes_as_many_buildings_as_it_can_reach():
    """R7, R50, R66, R68: Liga moves last in round 10, so no enemy turn follows. Schwer gives every
    Jäger a different building it can reach (Jäger 20 could take either Stadt but Jäger 21 only
    the near one) and even leaves its own threatened Stadt to take one more."""
    terrain = ["................",
               "S....S......S.S.",
               "................",
               "H..............H"]
    units = [unit(20, "jaeger", "liga", [3, 1]),     # reaches (0,1) in 3 and (5,1) in 2
             unit(21, "jaeger", "liga", [8, 1]),     # reaches only (5,1)
             unit(22, "jaeger", "liga", [12, 1]),    # guards its own Stadt; (14,1) is 2 away
             unit(1, "jaeger", "nordbund", [12, 2]),  # threatens (12,1)
             unit(2, "kampfpanzer", "nordbund", [1, 3])]
    owners = {(0, 1): "nordbund", (5, 1): "nordbund", (14, 1): "nordbund", (12, 1): "liga",
              (0, 3): "nordbund", (15, 3): "liga"}
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_=10, round_limit=10,
                                          side="liga", owners=owners))
    assert g.observe("liga")["first"] == "nordbund"
    _, events = ai_turn(g, AIPlayer("schwer", "liga", seed=1))
    taken = sorted(e["at"] for e in events if e["type"] == "captured")
    assert taken == [[0, 1], [5, 1], [14, 1]]
    assert g.outcome is not None and g.outcome.winner == "liga"


@pytest.mark.parametrize("strength", ["normal", "schwer"])
def test_r34_a_unit_leaves_its_production_site_when_the_money_can_build_there(strength):
    """R34: a unit standing on the own Werk stops the build there. With 700 money and nothing in
    sight, Normal and Schwer move it off and build on the Werk instead."""
    terrain = ["..........",
               ".W........",
               "H........H"]
    units = [unit(1, "kampfpanzer", "nordbund", [1, 1]),
             unit(10, "jaeger", "liga", [9, 1])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_=3, round_limit=10,
                                          money=(700, 0), owners={(1, 1): "nordbund", (0, 2): "nordbund",
                                                                  (9, 2): "liga"}))
    actions, events = ai_phase(g, AIPlayer(strength, "nordbund", seed=1))
    assert any(a["type"] == "move" and a["unit"] == 1 for a in actions)
    assert any(e["type"] == "built" and e["at"] == [1, 1] for e in events)


def werk_builds_beside_two_guns(strength: str, *, round_: int, money: int) -> list[str]:
    """What the Nordbund's free Werk builds in one AI phase on a 10-round Blitz map where it already has
    two Panzerhaubitzen and a Jäger, and the Liga a Kampfpanzer and a Spähwagen in sight (R7's artillery
    core, issue 16's last-turn purchase)."""
    terrain = ["...........",
               ".W.........",
               "H.........H"]
    units = [unit(1, "jaeger", "nordbund", [3, 2]),
             unit(2, "panzerhaubitze", "nordbund", [2, 0]),
             unit(3, "panzerhaubitze", "nordbund", [3, 0]),
             unit(10, "kampfpanzer", "liga", [8, 1]),
             unit(11, "spaehwagen", "liga", [9, 1])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_=round_, round_limit=10,
                                          money=(money, 0),
                                          owners={(1, 1): "nordbund", (0, 2): "nordbund", (10, 2): "liga"}))
    _, events = ai_phase(g, AIPlayer(strength, "nordbund", seed=1))
    return [e["unit_type"] for e in events if e["type"] == "built" and e["at"] == [1, 1]]


def test_r7_schwer_keeps_a_core_of_artillery_that_fires_without_answer():
    """R6, R7 (buys against the enemy units it has seen), R23, R29: a Panzerhaubitze fires from two
    to four hexes, where no direct-fire unit can answer. With two of them already, Schwer builds a
    third on its free Werk (its core is three); Normal's core is two, so it takes a Kampfpanzer."""
    built = {strength: werk_builds_beside_two_guns(strength, round_=3, money=700)
             for strength in ("schwer", "normal")}
    assert built["schwer"] == ["panzerhaubitze"]
    assert built["normal"] and built["normal"] != ["panzerhaubitze"]


# -- issue 16: Schwer against everyone ------------------------------------------------------------------

def test_issue16_r8_schwer_hq_guard_survives_the_enemy_attack_phase():
    """Issue 16, R8 (the enemy fires before it moves): an enemy Jäger next to the HQ, two Kampfpanzer
    and a Schützenpanzer in reach of it. A Jäger built on the HQ would be shot off and the HQ taken; Schwer
    keeps a unit on the HQ that survives the expected damage of every enemy shot that can reach it."""
    terrain = ["..........",
               "..........",
               ".H........",
               "..........",
               ".........H"]
    units = [unit(1, "kampfpanzer", "nordbund", [3, 2]), unit(2, "jaeger", "nordbund", [5, 0]),
             unit(10, "jaeger", "liga", [2, 1]), unit(11, "kampfpanzer", "liga", [2, 3]),
             unit(12, "kampfpanzer", "liga", [0, 1]), unit(13, "schuetzenpanzer", "liga", [0, 3])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_limit=10, round_=3,
                                          money=(800, 0), owners={(1, 2): "nordbund", (9, 4): "liga"}))
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert g.side == "liga" and g.phase == "attack"
    guard = next((u for u in g.observe("liga")["units"] if u["at"] == [1, 2]), None)
    assert guard is not None and guard["side"] == "nordbund"
    focus = sum(o["damage"] for e in (10, 11, 12, 13)
                for o in g.attack_options(e) if o["target"] == [1, 2])
    assert focus < guard["hp"], (guard, focus)


def test_issue16_schwer_declines_a_trade_whose_counter_fire_costs_more():
    """Issue 16: a Schützenpanzer does not hit a full Kampfpanzer in a wood (little dealt, more taken:
    the answer costs more than the hit wins, and nothing is killed or saved)."""
    terrain = ["H........H", ".....w....", "." * 10, "." * 10]
    units = [unit(1, "schuetzenpanzer", "nordbund", [4, 1], hp=7), unit(2, "kampfpanzer", "liga", [5, 1])]
    g = kaltfront.Game.from_json(position(terrain, units, phase="attack", blitz=True, round_limit=10,
                                          owners={(0, 0): "nordbund", (9, 0): "liga"}))
    o = g.attack_options(1)[0]
    assert o["counter"] * 400 > o["damage"] * 700
    assert AIPlayer("schwer", "nordbund", seed=1).next_action(g.observe("nordbund")) == {"type": "end_phase"}


def test_issue16_schwer_builds_no_fleet_the_enemy_seen_does_not_call_for():
    """Issue 16 (Kieler Bucht: ten Patrouillenboote): with two warships of its own and no enemy ship
    seen, Schwer builds no further warship in its harbour; Normal is unchanged (R6)."""
    terrain = ["~~~~~~~~~~",
               "kkkkkkkkkk",
               "P.........",
               "H........H"]
    units = [unit(1, "patrouillenboot", "nordbund", [2, 0]), unit(2, "patrouillenboot", "nordbund", [4, 0]),
             unit(3, "jaeger", "nordbund", [1, 3]), unit(10, "kampfpanzer", "liga", [8, 2])]
    g = kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=3, money=(3000, 0),
                                          owners={(0, 2): "nordbund", (0, 3): "nordbund", (9, 3): "liga"}))
    _, events = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    built = [e["unit_type"] for e in events if e["type"] == "built" and e["at"] == [0, 2]]
    assert not [t for t in built if R["units"][t]["movement"] == "see" and not R["units"][t]["transport"]]


# -- issue 16: finishing a won game on maps without a round limit ----------------------------------------

def _finish_position(units, *, round_=31, money=(0, 0), phase="move", fog=False):
    """Own HQ top left, the enemy HQ on the far shore across a strait; no round limit."""
    terrain = ["H..........",
               "~~~~~~~~~~~",
               "~~~~~~~~~~~",
               ".........H.",
               "..........."]
    return kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=round_, money=money,
                                             phase=phase, fog=fog,
                                             owners={(0, 0): "nordbund", (9, 3): "liga"}))


def _pionier_aboard(uid, heli_id, at):
    heli = unit(heli_id, "transporthubschrauber", "nordbund", at)
    p = unit(uid, "pionier", "nordbund", None)
    p.pop("at")
    heli["cargo"] = [p]
    return heli


@pytest.mark.parametrize("fog", [False, True])
def test_issue16_r48_schwer_flies_a_pionier_onto_the_free_enemy_hq(fog):
    """Issue 16 (Großer Belt, seed 9100: sixty rounds beside an empty enemy HQ): on a map without a
    round limit a helicopter with a Pionier aboard in one move of the free enemy HQ flies next to it
    and puts the Pionier down on it; a Pionier takes at once (R35), the HQ wins the game (R48)."""
    units = [_pionier_aboard(2, 1, [3, 1]), unit(3, "kampfpanzer", "nordbund", [1, 0]),
             unit(10, "kampfpanzer", "liga", [10, 4]), unit(11, "flugabwehr", "liga", [5, 4])]
    g = _finish_position(units, fog=fog)
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == ("nordbund", "hq")


def test_issue16_r21_schwer_crew_strikes_by_the_way_in_it_sees_best():
    """Issue 16, R21 (Großer Belt, session 24: both mornings a crew found its way to the free enemy HQ
    open in six capped games, it flew to the first hex beside the HQ it listed, through ground it
    could not see, and a hidden enemy stopped it short): of the ways in, the crew takes the one the
    engine walks through the fewest hexes out of sight. Here the first-listed way passes a hidden
    Jäger; the other way runs through fewer hexes out of sight, and the Pionier takes the HQ (R35, R48)."""
    units = [_pionier_aboard(2, 1, [16, 1]), unit(3, "kampfpanzer", "nordbund", [1, 0]),
             unit(4, "jaeger", "nordbund", [20, 4], moved=True),  # sees the south of the HQ
             unit(10, "kampfpanzer", "liga", [25, 0]), unit(11, "jaeger", "liga", [21, 1])]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    assert 11 not in {u["id"] for u in g.observe("nordbund")["units"]}  # hidden (R20)
    _, events = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert not any(e["type"] == "ambushed" for e in events), events
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == ("nordbund", "hq")


def test_issue16_r20_schwer_looks_at_a_blind_way_in_before_the_strike():
    """Issue 16, R20/R21 (session 24): when every way in to the free enemy HQ runs through hexes out
    of sight, an aircraft free to move (here a Kampfjet) flies out to look at them first, and what it
    reveals decides the crew's way: a hidden Jäger on the first-listed way is seen, and the crew
    takes the other way and the HQ."""
    units = [_pionier_aboard(2, 1, [16, 1]), unit(3, "kampfpanzer", "nordbund", [1, 0]),
             unit(5, "kampfjet", "nordbund", [12, 2]),
             unit(10, "kampfpanzer", "liga", [25, 0]), unit(11, "jaeger", "liga", [21, 1])]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    assert 11 not in {u["id"] for u in g.observe("nordbund")["units"]}
    actions, events = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    moves = [a.get("unit") for a in actions if a["type"] == "move"]
    assert 5 in moves and moves.index(5) < moves.index(1), actions  # the jet looks before the crew flies
    assert not any(e["type"] == "ambushed" and e["unit"] == 1 for e in events), events
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == ("nordbund", "hq")


def _far_from_the_enemy_hq(units, *, water, round_=31, fog=False):
    """A 26x5 map without a round limit, Nordbund's move phase: own HQ top left, the enemy HQ at (22,3),
    across a strait (`water`) or over land."""
    terrain = ["H.........................",
               ".~~~~~~~~~~~~~~~~~~~~~~~~~" if water else "..........................",
               ".~~~~~~~~~~~~~~~~~~~~~~~~~" if water else "..........................",
               "......................H...",
               ".........................."]
    return kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=round_, fog=fog,
                                             owners={(0, 0): "nordbund", (22, 3): "liga"}))


def _schwer_moves_far_from_the_enemy_hq(units, *, water, round_=31, fog=False):
    """Schwer's move phase on `_far_from_the_enemy_hq`; the game and helicopter 1 afterwards."""
    g = _far_from_the_enemy_hq(units, water=water, round_=round_, fog=fog)
    return g, _schwer_moves(g)


def _schwer_moves(g):
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    return next(u for u in g.observe("nordbund")["units"] if u["id"] == 1)


def test_issue16_schwer_finishing_pionier_boards_a_helicopter_that_heads_for_the_enemy_hq():
    """Issue 16: when finishing, the Pionier next to an empty helicopter boards it (R40, R44) and the
    helicopter sets off toward the far enemy HQ across the water (move 7), though a long way round by
    land exists (before, the Pionier walked it and the helicopter stood idle)."""
    units = [unit(1, "transporthubschrauber", "nordbund", [3, 0]), unit(2, "pionier", "nordbund", [2, 0]),
             unit(3, "kampfpanzer", "nordbund", [0, 4]),  # an even army: finishing is on (round 30+)
             unit(10, "kampfpanzer", "liga", [24, 4]), unit(11, "flugabwehr", "liga", [20, 4])]
    _, heli = _schwer_moves_far_from_the_enemy_hq(units, water=True)
    assert [c["id"] for c in heli.get("cargo") or []] == [2], heli
    assert heli["at"][0] >= 3 + 5, heli


def test_issue16_schwer_finishing_builds_the_pionier_at_the_hq_first():
    """Issue 16 (Großer Belt: the Flugplatz bought helicopter after helicopter, no Pionier was built):
    when finishing without a Pionier, the HQ builds one before the other sites spend the money."""
    terrain = ["HF.........",
               "...........",
               ".........H."]
    units = [unit(1, "kampfpanzer", "nordbund", [3, 1]), unit(10, "kampfpanzer", "liga", [10, 2])]
    g = kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=31, money=(500, 0),
                                          owners={(0, 0): "nordbund", (1, 0): "nordbund", (9, 2): "liga"}))
    _, events = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    built = {tuple(e["at"]): e["unit_type"] for e in events if e["type"] == "built"}
    assert built.get((0, 0)) == "pionier", built


def _finishing(units, *, owners_extra=None, fog=True, round_=31):
    from kaltfront.ai.common import belief_dict
    from kaltfront.ai.situation import Situation
    terrain = ["H......S...",
               "...........",
               ".........H."]
    owners = {(0, 0): "nordbund", (9, 2): "liga"}
    owners.update(owners_extra or {})
    g = kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=round_, fog=fog,
                                          owners=owners))
    obs = g.observe("nordbund")
    return Situation(obs, belief_dict(obs, "nordbund"), "nordbund").finish


def test_issue16_schwer_finishes_from_round_30_only_with_an_even_army_and_income():
    """Issue 16 (Deutsche Bucht seed 41000, lost: from round 30 the old rule pushed "anyway", sending a
    losing army at the enemy HQ). On a map without a round limit the late push needs at least an even
    army by what Schwer sees (R4: fog on, all units here in sight) and at least the enemy's income
    (building owners are public); R36, R48."""
    ours = [unit(1, "kampfpanzer", "nordbund", [4, 1]), unit(2, "kampfpanzer", "nordbund", [5, 1])]
    theirs = [unit(10, "kampfpanzer", "liga", [4, 2]), unit(11, "kampfpanzer", "liga", [5, 2])]
    extra = [unit(12, "flugabwehr", "liga", [3, 1])]
    assert _finishing(ours + theirs)                              # even: push on
    assert not _finishing(ours + theirs, round_=29)               # before round 30: no
    assert not _finishing(ours[:1] + theirs)                      # 700 against 1400: losing army
    assert not _finishing(ours + theirs + extra)                  # 1400 against 1900
    assert not _finishing(ours + theirs, owners_extra={(7, 0): "liga"})  # the enemy earns more
    assert _finishing(ours + theirs, owners_extra={(7, 0): "nordbund"})
    third = [unit(3, "kampfpanzer", "nordbund", [6, 1])]
    assert _finishing(ours + third + theirs[:1], round_=12)       # far ahead: from round 10 as before


def test_issue16_r8_schwer_puts_a_guard_on_a_threatened_stadt_that_survives_the_enemy_fire():
    """Issue 16, R8 (the enemy fires before it moves), R66: Schwer's last turn before the enemy's
    final one. An enemy Jäger can reach our Stadt, an enemy Panzerhaubitze covers it. A 3-hp Jäger
    standing on it would be shot off and the Stadt taken (Usedom, seed 122: two Stadt lost that way
    in the last round); Schwer puts its full Kampfpanzer on the Stadt instead."""
    terrain = ["..........",
               "..........",
               "....S.....",
               "..........",
               "H........H"]
    units = [unit(1, "jaeger", "nordbund", [4, 2], hp=3), unit(2, "kampfpanzer", "nordbund", [2, 2]),
             unit(10, "jaeger", "liga", [7, 2]), unit(11, "kampfpanzer", "liga", [5, 1]),
             unit(12, "panzerhaubitze", "liga", [7, 3])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_limit=10, round_=10,
                                          owners={(4, 2): "nordbund", (0, 4): "nordbund", (9, 4): "liga"}))
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert g.side == "liga" and g.phase == "attack"
    guard = next((u for u in g.observe("liga")["units"] if u["at"] == [4, 2]), None)
    assert guard is not None and guard["side"] == "nordbund"
    focus = sum(o["damage"] for e in (10, 11, 12) for o in g.attack_options(e) if o["target"] == [4, 2])
    assert focus < guard["hp"], (guard, focus)


def test_issue16_d8_schwer_buys_the_dearest_unit_in_its_last_turn():
    """Issue 16, D8: at the round limit a tie in buildings goes to the higher unit value, and money left
    over counts for nothing. In its last turn Schwer's free Werk builds the dearest unit the money buys
    (Kampfpanzer, 700) rather than a third Panzerhaubitze; a round earlier it still builds the
    Panzerhaubitze its artillery core calls for (R7)."""
    built = {round_: werk_builds_beside_two_guns("schwer", round_=round_, money=800) for round_ in (9, 10)}
    assert built == {9: ["panzerhaubitze"], 10: ["kampfpanzer"]}


def test_issue16_r68_schwer_guards_a_threatened_stadt_in_its_last_turn_even_under_heavy_fire():
    """Issue 16, R66, R68, R8: Schwer's last turn before the enemy's final one. An enemy Jäger can
    reach our Stadt, and so much enemy fire covers it that no unit is expected to survive there.
    An empty Stadt is lost for certain, a guard only if the dice go the enemy's way: Schwer puts its
    Kampfpanzer (the unit with the most hp to spare) on it rather than leave it empty (Flensburger
    Förde seed 140: 8 - 6 up before the enemy's last turn, Schwer left a threatened Stadt empty,
    finished 7 - 7 and lost on unit value, D8). Fails without `MovePlanner.final_guards`: the Jäger
    walks off, the tank stays out of the fire."""
    terrain = ["..........",
               "..........",
               "....S.....",
               "..........",
               "H........H"]
    units = [unit(2, "kampfpanzer", "nordbund", [2, 2]), unit(3, "jaeger", "nordbund", [1, 3]),
             unit(10, "jaeger", "liga", [7, 2]), unit(11, "kampfpanzer", "liga", [5, 1]),
             unit(12, "panzerhaubitze", "liga", [7, 3]), unit(13, "panzerhaubitze", "liga", [7, 1]),
             unit(14, "kampfpanzer", "liga", [5, 2])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_limit=10, round_=10,
                                          owners={(4, 2): "nordbund", (0, 4): "nordbund", (9, 4): "liga"}))
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    guard = next((u for u in g.observe("liga")["units"] if u["at"] == [4, 2]), None)
    assert guard is not None and guard["id"] == 2, guard


def test_issue16_schwer_tank_heads_for_the_enemy_on_a_building_not_for_one_in_the_open():
    """Issue 16 (every unit with a purpose; idle units), R66/R68: in Blitz only buildings decide. An
    enemy Spähwagen stands in the open far from every building, an enemy Jäger on a Stadt; Schwer's
    Kampfpanzer heads for the Jäger (it holds a building, and shooting it off frees the Stadt) rather
    than for the nearer Spähwagen. With the plain front field (any enemy unit) it drove after the
    Spähwagen; tanks also stood still two hexes from such units for whole turns."""
    terrain = ["............",
               "............",
               "............",
               "........S...",
               "H..........H"]
    units = [unit(2, "kampfpanzer", "nordbund", [1, 1]),
             unit(10, "spaehwagen", "liga", [6, 0]), unit(11, "jaeger", "liga", [8, 3])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_limit=10, round_=4,
                                          owners={(0, 4): "nordbund", (11, 4): "liga"}))
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    tank = next(u for u in g.observe("nordbund")["units"] if u["id"] == 2)
    geo = kaltfront.ai.common.Geo(12, 5)
    # Five hexes of movement: from [1, 1] it can end three hexes from the Jäger (toward the Spähwagen
    # it went to [4, 0], six away).
    assert geo.dist(geo.idx(tank["at"]), geo.idx([8, 3])) <= 3, tank


# -- issue 16, session 6: Großer Belt (no round limit: places under the unit limit, fog, the bridge) --------

def _built(g, side="nordbund", seed=1):
    _, events = ai_phase(g, AIPlayer("schwer", side, seed=seed))
    return [(tuple(e["at"]), e["unit_type"]) for e in events if e["type"] == "built"]


def test_issue16_d9_schwer_runs_no_air_race_on_a_map_without_round_limit():
    """Issue 16, D9 (60 units, Großer Belt seed 9100: 8 Kampfjets, 7 helicopters and 9 Flugabwehr among
    57 units, while Normal answered with 16-23 Flugabwehr that shot the finishing crews down): without a
    round limit Schwer fields combat aircraft only to half the enemy aircraft seen (at least two) and no
    more Flugabwehr than one per three enemy aircraft (+1). With a round limit it is unchanged."""
    terrain = ["HFW........",
               "...........",
               ".........H."]
    units = [unit(1, "kampfjet", "nordbund", [3, 0]), unit(2, "kampfhubschrauber", "nordbund", [4, 0]),
             unit(3, "flugabwehr", "nordbund", [3, 1]), unit(4, "flugabwehr", "nordbund", [4, 1]),
             unit(10, "drohne", "liga", [6, 1]), unit(11, "drohne", "liga", [7, 1]),
             unit(12, "drohne", "liga", [8, 1]), unit(13, "kampfpanzer", "liga", [7, 2])]
    owners = {(0, 0): "nordbund", (1, 0): "nordbund", (2, 0): "nordbund", (9, 2): "liga"}

    def build(limit):
        g = kaltfront.Game.from_json(position(terrain, [dict(u) for u in units], round_limit=limit, round_=5,
                                              money=(20000, 0), owners=owners))
        return dict(_built(g))
    unlimited, limited = build(None), build(40)
    air = {t for t, u in R["units"].items() if u["movement"] == "luft" and not u["transport"]}
    assert unlimited.get((1, 0)) not in air, unlimited            # two combat aircraft: enough
    assert unlimited.get((2, 0)) != "flugabwehr", unlimited       # two Flugabwehr for three drones
    assert limited.get((1, 0)) in air or limited.get((2, 0)) == "flugabwehr", limited  # the old buying


def _flugplatz_builds(helis):
    """What the Flugplatz beside Schwer's HQ builds when finishing under fog (no round limit, round 31,
    two Pioniere at home, $3000), with these transport helicopters in the army."""
    terrain = ["HF.........",
               "...........",
               ".........H."]
    owners = {(0, 0): "nordbund", (1, 0): "nordbund", (9, 2): "liga"}
    base = [unit(1, "kampfpanzer", "nordbund", [3, 1]), unit(2, "kampfpanzer", "nordbund", [4, 1]),
            unit(3, "pionier", "nordbund", [2, 1]), unit(4, "pionier", "nordbund", [2, 2]),
            unit(10, "kampfpanzer", "liga", [8, 2])]
    g = kaltfront.Game.from_json(position(terrain, [dict(u) for u in base + helis], round_limit=None,
                                          round_=31, money=(3000, 0), fog=True, owners=owners))
    return dict(_built(g)).get((1, 0))


def test_issue16_schwer_finishing_builds_three_crews_helicopters_and_a_scout_drone():
    """Issue 16 (no round limit, finishing, fog): the Flugplatz builds the three Transporthubschrauber
    for the Pionier crews first (CREWS, session 16: they go in together, `airlift`), then one Drohne
    (vision 5, R20) to look round the enemy HQ."""
    helis = [unit(5 + k, "transporthubschrauber", "nordbund", [5 + k, 0]) for k in range(3)]
    assert _flugplatz_builds([]) == "transporthubschrauber"
    assert _flugplatz_builds(helis[:2]) == "transporthubschrauber"
    assert _flugplatz_builds(helis) == "drohne"


def _builds_at_the_unit_limit(army: int, helis: int = 0):
    """What Schwer builds, by site, on a map without a round limit (fog, $20,000), with `army` Panzerjäger,
    three Pioniere and `helis` Transporthubschrauber; the sites are the HQ, a Flugplatz and a Werk."""
    terrain = ["HFW" + "." * 27] + ["." * 30 for _ in range(3)] + ["." * 27 + "H.."]
    owners = {(0, 0): "nordbund", (1, 0): "nordbund", (2, 0): "nordbund", (27, 4): "liga"}
    own = [unit(1 + k, "panzerjaeger", "nordbund", [k % 30, 1 + k // 30]) for k in range(army)]
    own += [unit(70 + k, "pionier", "nordbund", [5 + k, 0]) for k in range(3)]
    own += [unit(80 + k, "transporthubschrauber", "nordbund", [10 + k, 0]) for k in range(helis)]
    g = kaltfront.Game.from_json(position(terrain, own + [unit(90, "kampfpanzer", "liga", [20, 4])],
                                          round_limit=None, round_=31, money=(20000, 0), fog=True,
                                          owners=owners))
    return dict(_built(g))


def test_issue16_d9_schwer_keeps_the_crews_places_under_the_unit_limit():
    """Issue 16, D9 (Großer Belt seed 99000: from round 30 Schwer stood at 60 units with one empty
    helicopter and no crew, and $55,000 unspent by round 60; a lost crew could never be built again, so
    the game ran to the cap): without a round limit the rest of the army leaves the places of the three
    crews (helicopter and Pionier) and their scout Drohne free (3 + 3 + 1 here: no picket spot). With 53
    other units the Werk builds nothing and the Flugplatz builds a crew's helicopter; with 52, one of
    them (units built this phase count too); with fewer the Werk builds as before."""
    full = _builds_at_the_unit_limit(53)
    assert full.get((1, 0)) == "transporthubschrauber", full
    assert (2, 0) not in full and (0, 0) not in full, full
    last = _builds_at_the_unit_limit(52)
    assert last.get((1, 0)) == "transporthubschrauber" and len(last) == 2, last
    full_with_crews = _builds_at_the_unit_limit(53, helis=3)
    assert set(full_with_crews.values()) <= {"drohne"}, full_with_crews  # only the scouts' places are left
    room = _builds_at_the_unit_limit(40)
    assert room.get((2, 0)) not in (None, "transporthubschrauber", "pionier", "drohne"), room


def _crews_out_of_reach_of_home(crew_fuel: int, crew_cols=(20, 21, 22)):
    """Schwer (Nordbund) at the unit limit (D9) on a 30x5 map without a round limit: 48 Panzerjäger,
    three crews over row 2 (columns `crew_cols`) with `crew_fuel` fuel, far beyond reach of the
    Flugplatz (1,0) and the HQ (0,0); an empty helicopter on the Flugplatz, a Pionier on foot at (5,0);
    the enemy HQ at (27,4) held by a Jäger. 56 own units with the cargo."""
    terrain = ["HF" + "." * 28] + ["." * 30 for _ in range(3)] + ["." * 27 + "H.."]
    owners = {(0, 0): "nordbund", (1, 0): "nordbund", (27, 4): "liga"}
    own = [unit(1 + k, "panzerjaeger", "nordbund", [k % 24, 3 + k // 24]) for k in range(48)]
    own += [dict(_pionier_aboard(70 + k, 80 + k, [c, 2]), fuel=crew_fuel) for k, c in enumerate(crew_cols)]
    own += [unit(83, "transporthubschrauber", "nordbund", [1, 0]), unit(73, "pionier", "nordbund", [5, 0])]
    return kaltfront.Game.from_json(position(terrain, own + [unit(90, "jaeger", "liga", [27, 4])],
                                             round_limit=None, round_=31, money=(20000, 0), owners=owners))


def test_issue16_d9_r19_schwer_crew_that_cannot_get_home_leaves_its_place_to_a_fresh_crew():
    """Issue 16, D9/R19 (Großer Belt, session 35: at the unit limit crews hovered with 1-13 fuel, out of
    reach of any air home, for 12-51 rounds; counted as the three crews, they kept the spare helicopter
    on its Flugplatz and the Pioniere on foot unfetched until the 60-round cap): with three loaded
    crews that can no longer get home (but can still reach the enemy HQ), the empty helicopter flies
    from its Flugplatz to the Pionier on foot, to make a fresh crew."""
    from kaltfront.ai.common import Geo
    g = _crews_out_of_reach_of_home(10)
    p = _schwer_planner(g)
    assert p.sit.at_limit and all(p.committed(80 + k) and not p.spent(80 + k) for k in range(3))
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    heli, geo = g.units[83], Geo(30, 5)
    # Beside the hex the Pionier stood on at the start of the phase (the pick-up), or with it aboard.
    assert 73 in heli.cargo or geo.dist(heli.at, geo.idx([5, 0])) <= 1, heli


def test_issue16_d9_r19_schwer_spent_crew_flies_its_last_fuel_toward_the_enemy_hq():
    """Issue 16, D9/R19 (Großer Belt seed 120018: a crew hovered at sea with 1 fuel, 11 hexes from the
    enemy HQ, from round 9 to the cap, holding two of the sixty places): at the unit limit a crew that
    can reach neither an air home nor the enemy HQ flies its last fuel toward the enemy HQ and comes
    down (R19), which frees its places for a fresh crew."""
    from kaltfront.ai.common import Geo
    g = _crews_out_of_reach_of_home(1, crew_cols=(12, 13, 14))
    p = _schwer_planner(g)
    assert all(p.spent(80 + k) for k in range(3))
    geo = Geo(30, 5)
    hq = geo.idx([27, 4])
    before = {80 + k: g.units[80 + k].at for k in range(3)}
    _, events = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    crashed = {e["unit"]: e["at"] for e in events if e["type"] == "crashed"}
    assert set(crashed) == set(before), events  # all three came down: six places free (D9)
    for uid, at in crashed.items():
        # The nearest hex it may end on (the ones nearer may be taken by its own units), never away.
        assert geo.dist(geo.idx(at), hq) <= geo.dist(before[uid], hq), (uid, at)


def test_issue16_r20_schwer_finishing_sends_a_drone_to_look_round_the_enemy_hq_first():
    """Issue 16, R20/R21 (Großer Belt: the crews flew blind into hidden Flugabwehr or an ambush): when
    finishing under fog with a crew one move from the enemy HQ (held this turn), the first move of the
    phase is the Drohne's, to where it sees the hidden hexes round the enemy HQ; the rest of the phase
    is planned on what it reveals."""
    terrain = ["H..................",
               "...................",
               "...................",
               "...............H...",
               "..................."]
    units = [unit(1, "drohne", "nordbund", [5, 0]), unit(2, "kampfpanzer", "nordbund", [9, 3]),
             unit(3, "kampfpanzer", "nordbund", [2, 2]), unit(12, "kampfpanzer", "liga", [11, 4]),
             unit(10, "kampfpanzer", "liga", [16, 3]), unit(11, "flugabwehr", "liga", [14, 2]),
             _pionier_aboard(5, 4, [8, 1]), unit(13, "jaeger", "liga", [15, 3]),
             unit(6, "spaehwagen", "nordbund", [12, 4])]  # sees the Jäger on the HQ: no strike this turn
    g = kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=31, fog=True,
                                          owners={(0, 0): "nordbund", (15, 3): "liga"}))
    actions, _ = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    first = actions[0]
    assert first["type"] == "move" and first["unit"] == 1, actions
    geo_w = 19
    from kaltfront.ai.common import Geo
    geo = Geo(geo_w, 5)
    assert geo.dist(geo.idx(first["to"]), geo.idx([15, 3])) <= R["units"]["drohne"]["vision"], first


def test_issue16_r46_schwer_crew_helicopter_keeps_out_of_known_flugabwehr_fire():
    """Issue 16, R46 (the cargo dies with its transport): a helicopter with a Pionier aboard, far from the
    enemy HQ, does not stage inside the fire of the Flugabwehr it knows of (six, range 2, a corridor
    between them), though it would be seven hexes nearer the HQ (before, that outweighed a certain loss)."""
    units = [_pionier_aboard(2, 1, [2, 1])] + [unit(3 + k, "kampfpanzer", "nordbund", [k % 3, 2 + k // 3])
                                               for k in range(5)]
    units += [unit(10, "kampfpanzer", "liga", [23, 4])]
    units += [unit(11 + k, "flugabwehr", "liga", [6 + 3 * (k // 2), 4 * (k % 2)]) for k in range(6)]
    g, heli = _schwer_moves_far_from_the_enemy_hq(units, water=False)
    assert g.side == "liga" and g.phase == "attack"
    shots = [o for k in range(6) for o in g.attack_options(11 + k)]
    assert heli["cargo"], heli
    assert not [o for o in shots if o["target"] == heli["at"]], (heli, shots)


def _aboard(uid, utype, transport):
    c = unit(uid, utype, transport["side"], None)
    c.pop("at")
    transport.setdefault("cargo", []).append(c)
    return transport


def test_issue16_r41_schwer_crew_gets_out_when_no_vehicle_reaches_the_building():
    """Issue 16, R41 (Großer Belt, Schwer as Liga: sixteen Schützenpanzer with a Pionier aboard stood on
    Stigsnæs for thirty rounds, bound for Agersø, a harbour on an island no vehicle reaches): without a
    round limit, a Schützenpanzer whose only free target lies across the water puts its Pionier down."""
    terrain = ["H.......kkk.",
               "........kPk.",
               "........kkk.",
               "..........H."]
    spz = _aboard(2, "pionier", unit(1, "schuetzenpanzer", "nordbund", [6, 1]))
    units = [spz, unit(3, "kampfpanzer", "nordbund", [1, 1]), unit(4, "kampfpanzer", "nordbund", [2, 1]),
             unit(10, "kampfpanzer", "liga", [10, 3]), unit(11, "jaeger", "liga", [11, 2])]
    g = kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=5,
                                          owners={(0, 0): "nordbund", (10, 3): "liga"}))
    actions, _ = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert {"type": "unload", "transport": 1, "unit": 2} in [
        {k: a[k] for k in ("type", "transport", "unit")} for a in actions if a["type"] == "unload"], actions


def test_issue16_d9_schwer_counts_the_capturers_aboard_when_it_buys():
    """Issue 16, D9 (cargo counts; Großer Belt: Pioniere riding in Schützenpanzer were not counted, so the
    HQ built capturer after capturer, sixteen in all): without a round limit Schwer's HQ buys the same
    with three Pioniere aboard Schützenpanzer as with the three on foot beside them (a Panzerjäger
    against two Jäger and a Kampfpanzer; before, aboard meant "no capturers yet": another Pionier).
    The finishing crews (CREWS Pioniere in helicopters, working from the start since session 22) are
    full in both cases, so the HQ does not buy a Pionier for them."""
    from kaltfront.ai.move import CREWS
    terrain = ["H.............................",
               "..............................",
               "........................S.S..H"]
    enemy = [unit(20 + k, t, "liga", [27 - k, 1]) for k, t in enumerate(("jaeger", "jaeger", "kampfpanzer"))]
    built = []
    for aboard in (False, True):
        spz = [unit(k + 1, "schuetzenpanzer", "nordbund", [2 + k, 1]) for k in range(3)]
        crews = [_pionier_aboard(40 + k, 30 + k, [6 + k, 0]) for k in range(CREWS)]
        if aboard:
            units = [_aboard(10 + k, "pionier", spz[k]) for k in range(3)] + crews
        else:
            units = spz + [unit(10 + k, "pionier", "nordbund", [2 + k, 0]) for k in range(3)] + crews
        g = kaltfront.Game.from_json(position(terrain, units + [dict(e) for e in enemy], round_limit=None,
                                              round_=5, money=(1000, 0),
                                              owners={(0, 0): "nordbund", (29, 2): "liga"}))
        built.append(dict(_built(g)).get((0, 0)))
    assert built[0] == built[1] == "panzerjaeger", built


def test_issue16_schwer_crew_aloft_carries_on_when_finishing_is_off():
    """Issue 16 (the finishing test flickers under fog as the known army changes; stranded crews were shot
    down or ran dry): a helicopter with a Pionier aboard keeps the crew aboard and heads for the enemy HQ
    even in a turn where Schwer's known army is behind (no push that turn); R46."""
    units = [_pionier_aboard(2, 1, [3, 0]),
             unit(10, "kampfpanzer", "liga", [24, 4]), unit(11, "kampfpanzer", "liga", [20, 4]),
             unit(12, "kampfpanzer", "liga", [18, 4])]
    _, heli = _schwer_moves_far_from_the_enemy_hq(units, water=True)
    assert [c["id"] for c in heli.get("cargo") or []] == [2], heli
    assert heli["at"][0] >= 3 + 5, heli


# -- issue 16, session 7: the finishing crews on Großer Belt (fuel, fog, the finishing test's flicker) -----

def test_issue16_r19_schwer_replaces_a_crew_helicopter_stranded_without_fuel():
    """Issue 16, R19 (Großer Belt seed 46000: two Transporthubschrauber hovered over the sea with 3 and 5
    fuel, too little to reach any Flugplatz, HQ or Depot, for thirty rounds; counted as the two crew
    helicopters, no new one was ever built and the Pioniere waited): one that cannot get home and carries
    nothing does not count, so the Flugplatz builds another."""
    helis = [unit(5, "transporthubschrauber", "nordbund", [5, 0]),
             unit(6, "transporthubschrauber", "nordbund", [10, 0], fuel=2)]  # 9 hexes from home
    assert _flugplatz_builds(helis) == "transporthubschrauber"


def test_issue16_r20_schwer_crew_stages_only_where_the_ground_round_it_was_seen():
    """Issue 16, R20/R46 (Großer Belt seed 46000: a crew staged on a hex it could see, two hexes from a
    Flugabwehr it could not, range 2, and was shot down with its Pionier): under fog, against an enemy
    seen to field Flugabwehr, a helicopter with a Pionier aboard stages where the ground within two
    hexes was in sight, so the hidden Flugabwehr cannot fire on it in the enemy's attack phase."""
    units = [_pionier_aboard(2, 1, [2, 1]), unit(3, "spaehwagen", "nordbund", [6, 1]),
             unit(4, "kampfpanzer", "nordbund", [0, 3]), unit(5, "kampfpanzer", "nordbund", [1, 3]),
             unit(10, "kampfpanzer", "liga", [23, 4]), unit(11, "flugabwehr", "liga", [11, 1]),
             unit(12, "flugabwehr", "liga", [7, 4])]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    seen = {u["id"] for u in g.observe("nordbund")["units"]}
    assert 11 not in seen and 12 in seen  # one hidden (vision 4, five hexes), one in sight
    heli = _schwer_moves(g)
    assert heli["cargo"], heli
    assert heli["at"] != [2, 1], heli  # it did set off toward the enemy HQ
    assert not [o for o in g.attack_options(11) if o["target"] == heli["at"]], heli


def _crew_beside_helicopter_behind_in_army(round_):
    """A Pionier beside an empty helicopter, the enemy HQ across the water, Schwer's army far behind
    (finishing is off); Schwer's move phase; the helicopter afterwards."""
    units = [unit(1, "transporthubschrauber", "nordbund", [3, 0]), unit(2, "pionier", "nordbund", [2, 0]),
             unit(3, "kampfpanzer", "nordbund", [0, 4]),
             unit(10, "kampfpanzer", "liga", [24, 4]), unit(11, "kampfpanzer", "liga", [20, 4]),
             unit(12, "kampfpanzer", "liga", [18, 4]), unit(13, "kampfpanzer", "liga", [16, 4])]
    return _schwer_moves_far_from_the_enemy_hq(units, water=True, round_=round_)[1]


@pytest.mark.parametrize("round_", [2, 5, 12, 31])
def test_issue16_r48_schwer_crews_fly_from_the_start_though_the_known_army_is_behind(round_):
    """Issue 16, R48 (Großer Belt seed 46000: the finishing test, which reads the known armies, flickered
    under fog; while it was off the helicopters were moved as fighters and burnt their fuel, and a
    Pionier waited fifteen rounds unfetched): on a map without a round limit the Pionier boards the
    empty helicopter next to it (R40, R44) and the helicopter heads for the enemy HQ across the water,
    though Schwer's army is behind (no push) -- from the first rounds on (session 22), not only from
    round 10: by then the enemy's whole army walls the way to its HQ (R19). The old code kept the
    Pionier at home in rounds 2 and 5."""
    heli = _crew_beside_helicopter_behind_in_army(round_)
    assert [c["id"] for c in heli.get("cargo") or []] == [2], heli
    assert heli["at"][0] >= 3 + 5, heli


def test_issue16_d9_schwer_presses_at_the_unit_limit_with_money_to_rebuild():
    """Issue 16, D9 (Großer Belt: both armies at 60 units for forty rounds with $40,000 unspent, nobody
    fired, because no trade at full price was good enough): finishing at the unit limit with the money
    to rebuild, Schwer weighs its own losses at half their price; below the limit, or poor, at full."""
    from kaltfront.ai.common import belief_dict
    from kaltfront.ai.situation import Situation
    terrain = ["H" + "." * 29] + ["." * 30 for _ in range(4)] + ["." * 27 + "H.."]
    own = [unit(1 + k, "jaeger", "nordbund", [k % 30, 1 + k // 30]) for k in range(57)]
    theirs = [unit(70 + k, "jaeger", "liga", [k, 4]) for k in range(10)]

    def weight(n_own, money):
        g = kaltfront.Game.from_json(position(terrain, [dict(u) for u in own[:n_own] + theirs], round_limit=None,
                                              round_=31, money=(money, 0),
                                              owners={(0, 0): "nordbund", (27, 5): "liga"}))
        obs = g.observe("nordbund")
        sit = Situation(obs, belief_dict(obs, "nordbund"), "nordbund")
        assert sit.finish
        return sit.loss_weight
    assert weight(57, 5000) == 0.5
    assert weight(57, 1000) == 1.0
    assert weight(40, 5000) == 1.0


def test_issue16_r6_d9_normal_presses_on_the_enemy_hq_at_the_unit_limit_with_money_to_rebuild():
    """Issue 16, R6 ("advances as a group"), D9 (Großer Belt: Normal's army stood round its own HQ at
    the unit limit for forty rounds with $35,000 it could not spend, so Schwer's games ran to the cap):
    on a map without a round limit, at the unit limit with the money to rebuild its losses, Normal's
    fighters head for the enemy HQ; below the limit, or poor, for the nearest enemy as before."""
    terrain = ["H" + "." * 29] + ["." * 30 for _ in range(4)] + ["." * 27 + "H.."]
    fill = [unit(1 + k, "jaeger", "nordbund", [k % 28, 1 + k // 28], moved=True) for k in range(56)]
    tank = unit(80, "kampfpanzer", "nordbund", [12, 4])
    enemy = unit(90, "kampfpanzer", "liga", [4, 5])

    def tank_after(n_fill, money):
        g = kaltfront.Game.from_json(position(terrain, [dict(u) for u in fill[:n_fill]] + [dict(tank), dict(enemy)],
                                              round_limit=None, round_=31, money=(money, 0),
                                              owners={(0, 0): "nordbund", (27, 5): "liga"}))
        ai_phase(g, AIPlayer("normal", "nordbund", seed=1))
        return next(u for u in g.observe("nordbund")["units"] if u["id"] == 80)["at"]
    assert tank_after(56, 5000)[0] > 12  # pressing: toward the enemy HQ at (27, 5)
    assert tank_after(56, 1000)[0] <= 12  # poor: toward the enemy tank at (4, 5), or holding
    assert tank_after(30, 5000)[0] <= 12  # below the limit: the same


# -- issue 16, session 8: aircraft round a home another unit stands on -------------------------------------

def test_issue16_r19_schwer_aircraft_does_not_count_on_a_home_another_unit_holds():
    """Issue 16, R19 (Großer Belt seed 52000, round 30: five Kampfjets hung round the one Depot on Sprogø
    with 1-3 fuel, each "within reach of home" while another jet stood on it; stranded for good, and on
    the hexes the tanks needed to cross the bridge): on a map without a round limit an aircraft ends its
    move only where it can reach a home no other unit of ours holds -- here the own HQ, not the Depot."""
    terrain = ["H.........................",
               "..........................",
               ".............D............",
               "......................H...",
               ".........................."]
    units = [unit(1, "kampfjet", "nordbund", [13, 2], moved=True, attacked=True),  # holds the Depot
             unit(2, "kampfjet", "nordbund", [6, 2], fuel=14),
             unit(3, "kampfpanzer", "nordbund", [2, 1]),
             unit(10, "kampfpanzer", "liga", [21, 3]), unit(11, "kampfpanzer", "liga", [20, 2])]
    g = kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=31,
                                          owners={(0, 0): "nordbund", (13, 2): "nordbund", (22, 3): "liga"}))
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    jet = next(u for u in g.observe("nordbund")["units"] if u["id"] == 2)
    assert jet["at"] != [6, 2], jet  # it did fly toward the enemy
    assert jet["fuel"] >= kaltfront.hexgrid.distance(kaltfront.Hex(*jet["at"]), kaltfront.Hex(0, 0)), jet


def test_issue16_r19_schwer_replaces_a_crew_helicopter_stranded_with_its_pionier_aboard():
    """Issue 16, R19 (Großer Belt seed 53000, round 40: a Transporthubschrauber with a Pionier aboard
    hovered over the Belt with 2 fuel for twenty rounds, thirteen hexes from the enemy HQ and further from
    any home, and as a loaded helicopter it still counted as one of the two crews): one that can reach
    neither an air home nor the enemy HQ does not count, so the Flugplatz builds another."""
    stuck = _pionier_aboard(7, 6, [6, 0])
    stuck["fuel"] = 1
    able = _pionier_aboard(7, 6, [6, 0])
    helis = [unit(5, "transporthubschrauber", "nordbund", [5, 0]), unit(9, "transporthubschrauber", "nordbund", [4, 0])]
    assert _flugplatz_builds(helis + [able]) == "drohne"  # three crews: the scout next
    assert _flugplatz_builds(helis + [stuck]) == "transporthubschrauber"


def _schwer_planner(g, remembered=()):
    """Schwer's move planner on Nordbund's observation of `g` (plus remembered enemy units, R7)."""
    import random

    from kaltfront.ai.common import Budget, belief_dict, load
    from kaltfront.ai.move import SCHWER, MovePlanner
    from kaltfront.ai.situation import Situation
    obs = g.observe("nordbund")
    belief = belief_dict(obs, "nordbund", list(remembered))
    return MovePlanner(load(dict(belief, fog=False)), Situation(obs, belief, "nordbund"), SCHWER,
                       random.Random(1), Budget(10 ** 6, None))


def test_issue16_r20_schwer_crew_weighs_unseen_ground_by_the_anti_aircraft_fire_it_has_seen():
    """Issue 16, R20/R25 (Großer Belt seed 53000: Slagelse stood free behind 22 Kampfpanzer and one
    Flugabwehr, yet no crew ever staged within a move of it, because every unseen hex near a stop
    counted as a near-sure loss): under fog, against an enemy seen with no anti-aircraft fire at all,
    the crew stages within one helicopter move (7) of a free hex next to the enemy HQ."""
    units = [_pionier_aboard(2, 1, [12, 1]), unit(3, "kampfpanzer", "nordbund", [14, 4]),
             unit(4, "kampfpanzer", "nordbund", [10, 4]), unit(5, "kampfpanzer", "nordbund", [0, 2]),
             unit(10, "kampfpanzer", "liga", [17, 4]), unit(11, "kampfpanzer", "liga", [16, 4]),
             unit(12, "panzerjaeger", "liga", [18, 3])]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    heli = _schwer_moves(g)
    from kaltfront.ai.common import Geo
    geo = Geo(26, 5)
    assert heli["cargo"], heli
    assert min(geo.dist(geo.idx(heli["at"]), n) for n in geo.nb[geo.idx([22, 3])]) <= 7, heli



def test_issue16_r20_schwer_crew_judges_unseen_ground_by_its_distance_from_the_flugabwehr_it_has_seen():
    """Issue 16, R20/R25 (Großer Belt, session 14: of 5458 stops Schwer's crews could have taken, the
    ones 7+ hexes from every Flugabwehr it knew of had hidden anti-aircraft fire on them in 8-11 % of
    cases, the ones 2-3 hexes off in 53-64 %; the old estimate spread the unseen part of the enemy
    evenly and told them apart hardly at all, so the crews hovered 8 hexes out for twenty rounds):
    under fog, with the one Flugabwehr it has seen far behind, the crew stages within a move of the
    strike over unseen ground (the old estimate kept it 8 hexes out, at (13,3))."""
    units = [_pionier_aboard(2, 1, [12, 1]), unit(3, "kampfpanzer", "nordbund", [3, 4]),
             unit(4, "kampfpanzer", "nordbund", [10, 4]), unit(5, "kampfpanzer", "nordbund", [0, 2]),
             unit(6, "kampfpanzer", "nordbund", [7, 3]),
             unit(10, "kampfpanzer", "liga", [17, 4]), unit(11, "kampfpanzer", "liga", [16, 4]),
             unit(12, "panzerjaeger", "liga", [18, 3]), unit(13, "flugabwehr", "liga", [8, 4])]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    assert 13 in {u["id"] for u in g.observe("nordbund")["units"]}
    from kaltfront.ai.common import Geo
    geo = Geo(26, 5)
    heli = _schwer_moves(g)
    assert heli["cargo"], heli
    assert min(geo.dist(geo.idx(heli["at"]), n) for n in geo.nb[geo.idx([22, 3])]) <= 7, heli

def test_issue16_r20_schwer_scout_looks_round_the_crews_next_stop_first():
    """Issue 16, R20 (Großer Belt seed 53001: a crew 20 hexes out crept 3-4 hexes a turn through unseen
    ground while the scout flew only where it could see round the enemy HQ): with the crew far from
    the enemy HQ, the Drohne moves first, to where it sees the ground round the crew's stop."""
    units = [_pionier_aboard(2, 1, [3, 1]), unit(3, "drohne", "nordbund", [2, 0]),
             unit(4, "kampfpanzer", "nordbund", [0, 3]), unit(5, "kampfpanzer", "nordbund", [1, 3]),
             unit(10, "kampfpanzer", "liga", [23, 4]), unit(11, "flugabwehr", "liga", [20, 1])]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    actions, _ = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    first = actions[0]
    assert first["type"] == "move" and first["unit"] == 3, actions
    heli = next(u for u in g.observe("nordbund")["units"] if u["id"] == 1)
    from kaltfront.ai.common import Geo
    geo = Geo(26, 5)
    assert geo.dist(geo.idx(first["to"]), geo.idx(heli["at"])) <= R["units"]["drohne"]["vision"] - 2, (first, heli)


def test_issue16_r31_schwer_aircraft_counts_a_hex_beside_its_versorger_as_home():
    """Issue 16, R18/R19/R31 (a Versorger refuels the aircraft next to it at the end of the move phase,
    before the crash check): on a map without a round limit, Schwer's aircraft may end its move next to
    its own Versorger with 1 fuel left; elsewhere that far from an air home it may not."""
    units = [unit(1, "kampfjet", "nordbund", [10, 1], fuel=2), unit(2, "versorger", "nordbund", [12, 1]),
             unit(10, "kampfpanzer", "liga", [23, 4])]
    g = _far_from_the_enemy_hq(units, water=False)
    p = _schwer_planner(g)
    jet = p.sit.own[1]
    idx = p.geo.idx
    assert p.air_ok(jet, idx([11, 1]), 1)       # beside the Versorger: refuelled, no crash
    assert not p.air_ok(jet, idx([9, 1]), 1)    # not beside it, the HQ 9 hexes off: stranded


def test_issue16_r7_schwer_crews_way_is_blocked_only_by_enemies_in_sight():
    """Issue 16, R7/R19 (Großer Belt seed 53002, round 21: about twenty remembered enemy units, seen up
    to two turns before, closed every way to a free Slagelse, and a crew eight hexes out turned home):
    the crews' flying distance to the enemy HQ goes round the enemy units in sight only."""
    units = [_pionier_aboard(2, 1, [3, 1]), unit(3, "kampfpanzer", "nordbund", [0, 3]),
             unit(10, "kampfpanzer", "liga", [24, 4])]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    wall = [dict(unit(20 + r, "kampfpanzer", "liga", [15, r]), moved=False) for r in range(5)]
    with_memory, without = _schwer_planner(g, wall), _schwer_planner(g)
    here = with_memory.geo.idx([3, 1])
    assert with_memory.approach_field()[here] == without.approach_field()[here] < 20


def test_issue16_r19_schwer_walled_in_crew_is_built_again():
    """Issue 16, R19 (Großer Belt seed 53000: the Liga's tanks drove round a crew waiting over land; it
    could fly nowhere for 28 rounds and still counted as one of the two crews): a loaded helicopter
    whose every neighbour holds an enemy unit in sight is not counted as a crew."""
    ring = [[6, 1], [6, 0], [5, 0], [4, 1], [5, 2], [6, 2]]  # the six neighbours of (5,1) (odd rows shifted right)
    units = [_pionier_aboard(2, 1, [5, 1]), unit(3, "kampfpanzer", "nordbund", [0, 3])]
    units += [unit(10 + k, "kampfpanzer", "liga", at) for k, at in enumerate(ring)]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    p = _schwer_planner(g)
    assert sorted(p.geo.nb[p.geo.idx([5, 1])]) == sorted(p.geo.idx(h) for h in ring)
    assert p.stuck_crew(1)
    assert p.pioneers() == 0


def _across_a_wide_sound(units, *, fog=True):
    """A 20x9 map without a round limit, Nordbund's move phase in round 31: own HQ top left, the enemy HQ
    at (14,8) across five rows of sea. Row 4 is three hexes from either shore: no ground unit's
    anti-aircraft fire reaches it (Flugabwehr range 2, R23)."""
    terrain = ["H...................",
               "....................",
               "~~~~~~~~~~~~~~~~~~~~",
               "~~~~~~~~~~~~~~~~~~~~",
               "~~~~~~~~~~~~~~~~~~~~",
               "~~~~~~~~~~~~~~~~~~~~",
               "~~~~~~~~~~~~~~~~~~~~",
               "....................",
               "..............H....."]
    return kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=31, fog=fog,
                                             owners={(0, 0): "nordbund", (14, 8): "liga"}))


def test_issue16_r20_schwer_scout_keeps_watch_over_sea_that_no_ground_fire_reaches():
    """Issue 16, R20/R23/D12 (Großer Belt seeds 60000/60002: the scouts flew one way from Odense-Beldringe,
    arrived with 1-3 fuel and were lost every third turn; Schwer never once saw round Slagelse): the
    Drohne's picket spots are sea hexes out of every ground unit's anti-aircraft reach, within sight of
    the crews' stops; a Drohne on one keeps watch there (hovering costs no fuel) instead of flying one
    way to look round a crew's next stop, and one away from them flies toward them."""
    units = [_pionier_aboard(2, 1, [2, 1]), unit(3, "drohne", "nordbund", [12, 4]),
             unit(4, "kampfpanzer", "nordbund", [0, 1]), unit(5, "kampfpanzer", "nordbund", [1, 1]),
             unit(10, "kampfpanzer", "liga", [18, 8]), unit(11, "flugabwehr", "liga", [10, 7])]
    g = _across_a_wide_sound(units)
    p = _schwer_planner(g)
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    drone = next(u for u in g.observe("nordbund")["units"] if u["id"] == 3)
    assert drone["at"] == [12, 4], drone
    spots = [p.geo.hex(i) for i in p.pickets()]
    assert spots and all(r == 4 for _, r in spots), spots
    # A second Drohne looks round the crew's next stops (one way); the one on watch stays.
    g = _across_a_wide_sound(units + [unit(6, "drohne", "nordbund", [4, 1])])
    actions, _ = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert any(a.get("unit") == 6 for a in actions) and not any(a.get("unit") == 3 for a in actions), actions
    # From the far shore it sets off for the best spot, a full move (8) nearer, with the fuel to get
    # there and one to spare (R19).
    units[1] = unit(3, "drohne", "nordbund", [3, 0])
    g = _across_a_wide_sound(units)
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    drone = next(u for u in g.observe("nordbund")["units"] if u["id"] == 3)
    geo, best = p.geo, p.pickets()[0]
    before, after = geo.dist(geo.idx([3, 0]), best), geo.dist(geo.idx(drone["at"]), best)
    assert after == before - R["units"]["drohne"]["move"] and drone["fuel"] >= after + 1, (drone, geo.hex(best))


def test_issue16_r21_schwer_scout_looks_round_the_enemy_hq_before_the_crew_strikes():
    """Issue 16, R20/R21/R48: where a picket keeps watch, a crew that can strike the enemy HQ this phase
    waits until the Drohne has looked round the HQ: its first move is the Drohne's. A unit revealed on
    the HQ or on the way in then stops the strike, instead of the crew flying in blind."""
    units = [_pionier_aboard(2, 1, [14, 3]), unit(3, "drohne", "nordbund", [12, 4]),
             unit(4, "kampfpanzer", "nordbund", [0, 1]), unit(5, "kampfpanzer", "nordbund", [1, 1]),
             unit(10, "kampfpanzer", "liga", [18, 8])]
    g = _across_a_wide_sound(units)
    actions, _ = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert actions[0]["type"] == "move" and actions[0]["unit"] == 3, actions
    assert g.outcome is not None and g.outcome.winner == "nordbund", actions
    # A Pionier on the HQ, hidden until the Drohne looks: the crew does not fly in.
    units.append(unit(12, "jaeger", "liga", [14, 8]))
    g = _across_a_wide_sound(units)
    actions, _ = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    assert actions[0]["unit"] == 3 and not any(a["type"] == "unload" for a in actions), actions
    heli = next(u for u in g.observe("nordbund")["units"] if u["id"] == 1)
    assert max(abs(heli["at"][0] - 14), abs(heli["at"][1] - 8)) > 1, heli


def test_issue16_r19_schwer_crew_out_of_fuel_beside_its_own_hq_lands_on_it():
    """Issue 16, R19 (Großer Belt seed 60000 without fog: a crew hovered beside Odense with 1 fuel for
    twelve rounds, kept off the own HQ, still counted as a crew, so none was built again): a crew
    helicopter that reaches no other air home lands on its own HQ, which refuels it."""
    units = [_pionier_aboard(2, 1, [1, 0]), unit(4, "kampfpanzer", "nordbund", [3, 1]),
             unit(10, "kampfpanzer", "liga", [18, 8])]
    units[0]["fuel"] = 1
    g = _across_a_wide_sound(units)
    heli = _schwer_moves(g)
    assert heli["at"] == [0, 0], heli



def _crew_behind_a_flugabwehr_screen(heli_at, fuel, screen=True):
    """A 26x5 map without a round limit: own HQ top left and an own Depot at (10,0), two helicopter
    moves from the enemy HQ at (22,3); a crew helicopter at `heli_at`; five Flugabwehr (range 2) stand
    so that every hex nearer the enemy HQ within a move lies in their fire (`screen`), or one far off."""
    terrain = ["H.........D...............",
               "..........................",
               "..........................",
               "......................H...",
               ".........................."]
    heli = _pionier_aboard(2, 1, heli_at)
    heli["fuel"] = fuel
    units = [heli] + [unit(3 + k, "kampfpanzer", "nordbund", [k, 4]) for k in range(6)]
    flak = [[14, 0], [14, 2], [14, 4], [17, 1], [17, 3]] if screen else [[25, 0]]
    units += [unit(10 + k, "flugabwehr", "liga", at) for k, at in enumerate(flak)]
    return kaltfront.Game.from_json(position(terrain, units, round_limit=None, round_=31,
                                             owners={(0, 0): "nordbund", (10, 0): "nordbund", (22, 3): "liga"}))


def test_issue16_r19_schwer_crew_waits_refuelled_at_the_forward_home_not_on_the_way():
    """Issue 16, R19/R31 (Großer Belt seed 60000: two crews hovered fourteen rounds in the Agersø sound,
    eight hexes from Slagelse, with 11 and 16 fuel, then flew on and were stranded with 4): with an air
    home within two helicopter moves of the enemy HQ, a crew on the way that finds every stop in known
    anti-aircraft fire flies back to that home to wait refuelled, instead of hovering where it is (the
    old code crept one hex on, to (11,1)). From the home it stays while the screen stands, and flies
    straight to a stop within a move of the strike once the way is clear."""
    from kaltfront.ai.common import Geo
    geo = Geo(26, 5)
    heli = _schwer_moves(_crew_behind_a_flugabwehr_screen([11, 2], 22))
    assert heli["cargo"] and heli["at"] == [10, 0], heli
    heli = _schwer_moves(_crew_behind_a_flugabwehr_screen([10, 0], 30))
    assert heli["cargo"] and heli["at"] == [10, 0], heli
    heli = _schwer_moves(_crew_behind_a_flugabwehr_screen([10, 0], 30, screen=False))
    assert heli["cargo"], heli
    assert min(geo.dist(geo.idx(heli["at"]), n) for n in geo.nb[geo.idx([22, 3])]) <= 7, heli


def _crews_near_a_flugabwehr(n):
    """Under fog, `n` loaded crew helicopters over the strait, two moves (10-11 hexes) from a free
    hex next to the enemy HQ at (22,3), no forward home; one Flugabwehr seen at (15,4), so every
    stop within a move of the strike lies over ground Schwer cannot all see, 3-5 hexes from it
    (43-55 % of such stops had hidden anti-aircraft fire on them on Großer Belt, `HIDDEN_AA`).
    Schwer's move phase played; the crews' helicopters afterwards."""
    crews = [_pionier_aboard(20 + k, 1 + k, at) for k, at in enumerate([[9, 1], [9, 2], [8, 2]][:n])]
    units = crews + [unit(5, "kampfpanzer", "nordbund", [13, 4]), unit(6, "kampfpanzer", "nordbund", [12, 3]),
                     unit(7, "kampfpanzer", "nordbund", [2, 0]), unit(30, "flugabwehr", "liga", [15, 4]),
                     unit(40, "kampfpanzer", "liga", [25, 4])]
    g = _far_from_the_enemy_hq(units, water=True, fog=True)
    assert 30 in {u["id"] for u in g.observe("nordbund")["units"]}
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    return [u for u in g.observe("nordbund")["units"] if u["type"] == "transporthubschrauber"]


def test_issue16_r46_schwer_crews_go_in_together_when_all_three_are_near():
    """Issue 16, R46 (Großer Belt, session 16: Normal's Flugabwehr ring round Slagelse kept every stop
    3-4 hexes from a Flugabwehr; one crew at a time waited out there for a safe stop that never came,
    and 2 of 20 games ended): with all three crews within two moves of the strike, they fly in
    together to the least dangerous stops, out of the known fire, accepting a fair chance of hidden
    fire that one crew alone refuses (SALVO_RISK against TRIP_RISK). The old code kept all three
    10-11 hexes out. With two crews (not all of CREWS) no crew takes a stop over TRIP_RISK: one
    that goes in stays four hexes or more from the Flugabwehr (hidden fire 0.43 by `HIDDEN_AA`),
    where the salvo goes to three (0.54; session 28: a lone crew takes a stop under the bar)."""
    from kaltfront.ai.common import Geo
    geo = Geo(26, 5)
    free = [n for n in geo.nb[geo.idx([22, 3])]]

    def to_strike(h):
        return min(geo.dist(geo.idx(h["at"]), n) for n in free)
    three = _crews_near_a_flugabwehr(3)
    assert all(h["cargo"] for h in three), three
    gone_in = [h for h in three if to_strike(h) <= R["units"]["transporthubschrauber"]["move"]]
    assert len(gone_in) >= 2, three
    assert all(geo.dist(geo.idx(h["at"]), geo.idx([15, 4])) > 2 for h in gone_in), three  # out of its fire
    assert any(geo.dist(geo.idx(h["at"]), geo.idx([15, 4])) == 3 for h in gone_in), three  # over TRIP_RISK
    two = _crews_near_a_flugabwehr(2)
    assert all(h["cargo"] for h in two), two
    assert all(geo.dist(geo.idx(h["at"]), geo.idx([15, 4])) >= 4 for h in two
               if to_strike(h) <= R["units"]["transporthubschrauber"]["move"]), two

# -- issue 16: think time in the browser ----------------------------------------------------------

def _big_midgame(rounds=6, seed=16):
    """Deutsche Bucht (the largest standard map) after a few rounds of Normal against Normal, fog on:
    Schwer's move phase to play, with many units and enemies half seen."""
    g = kaltfront.new_game("deutsche-bucht", seed=seed, fog=True)
    ais = {s: AIPlayer("normal", s, seed=k) for k, s in enumerate(("nordbund", "liga"))}
    while g.outcome is None and not (g.round == rounds and g.phase == "move"):
        g.apply(ais[g.side].next_action(g.observe(g.side)))
    assert g.outcome is None
    return g


def test_issue16_r7_browser_clock_cuts_the_search_but_leaves_no_unit_idle():
    """R7 in the browser (issue 16): the turn's think allowance ends the search for better variants,
    never a plan half made. With no time at all (both caps 0 s), Schwer still plays a whole legal move
    phase from its main plan and moves as many units as with all the time it wants, within a few.
    Before, a spent clock stopped the plan at once and left the units standing."""
    g = _big_midgame()
    side = g.side
    movable = {u.id for u in g.units_of(side) if g.reachable(u.id)}
    assert len(movable) >= 8
    moved = {}
    for name, caps in (("unhurried", {}), ("no time", {"time_limit": 0.0, "turn_limit": 0.0})):
        game = kaltfront.Game.from_json(g.to_json())
        actions, _ = ai_phase(game, AIPlayer("schwer", side, seed=5, **caps))
        assert actions[-1] == {"type": "end_phase"}
        moved[name] = {a["unit"] for a in actions if a["type"] == "move"}
    assert len(moved["no time"]) >= len(moved["unhurried"]) - 3, moved


def test_issue16_turn_allowance_is_shared_by_the_decisions_of_a_turn_and_renewed_next_turn():
    """The browser's allowance is per turn, not per decision (issue 16: six plans a turn at
    Deutsche Bucht took 9 s in Pyodide): what one decision used is taken from the next decision's
    cap, down to a small floor; a new turn starts with the whole allowance again."""
    from kaltfront.ai import MIN_WALL
    g = _big_midgame()
    p = AIPlayer("schwer", g.side, seed=5, time_limit=2.5, turn_limit=3.0)
    assert p._wall() == 2.5
    p.next_action(g.observe(g.side))
    used = p._turn_spent
    assert used > 0 and p._wall() == pytest.approx(min(2.5, max(MIN_WALL, 3.0 - used)))
    p._turn_spent = 10.0
    assert p._wall() == MIN_WALL
    later = kaltfront.Game.from_json(g.to_json())
    later.round += 1
    p.next_action(later.observe(later.side))
    assert p._turn_spent < 10.0  # the next turn's own count
    native = AIPlayer("schwer", g.side, seed=5)
    assert native._wall() is None  # outside the browser, the node budget alone decides (replays exactly)


def test_issue16_signature_from_the_game_equals_the_one_from_its_observation():
    """The plan's replay reads what the AI expects to see next straight from the game; it must equal
    the signature of the observation the real game will give, for both sides, at every step of a
    game with fog, transports and cargo."""
    from kaltfront.ai import game_signature, signature
    g = kaltfront.new_game("grosser-belt", seed=7, fog=True)
    ais = {s: AIPlayer("normal", s, seed=k) for k, s in enumerate(("nordbund", "liga"))}
    steps = 0
    while g.outcome is None and g.round <= 8:
        for s in ("nordbund", "liga"):
            assert game_signature(g, s) == signature(g.observe(s), s)
        g.apply(ais[g.side].next_action(g.observe(g.side)))
        steps += 1
    assert steps > 100


def test_issue16_ai_rings_are_every_hex_between_the_two_distances_in_map_order():
    """The planner's `Geo.ring(centre, lo, hi)` (where to shoot from, where to look) is exactly the
    hexes at hex distance lo..hi, in index order, at edges and corners of odd and even maps."""
    from kaltfront.ai.common import Geo
    for width, height in ((1, 1), (2, 7), (5, 3), (12, 9), (17, 12)):
        geo = Geo(width, height)
        for centre in range(geo.size):
            for lo in range(0, 6):
                for hi in range(-1, 8):
                    assert geo.ring(centre, lo, hi) == [i for i in range(geo.size) if lo <= geo.dist(centre, i) <= hi]


def _crew_position(rows, enemy_hq, heli_at, fuel, liga, *, towns=(), fog=False):
    """Nordbund's move phase in round 31 on an open map 34 hexes wide and `rows` high without a round
    limit: the own HQ (the only air home) at (0,0), the Liga HQ at `enemy_hq` and Liga Städte at
    `towns`; a crew helicopter (id 1, Pionier 2 aboard) at `heli_at` with `fuel`, a Nordbund
    Kampfpanzer at the bottom left, and the Liga units `liga`."""
    grid = [["."] * 34 for _ in range(rows)]
    grid[0][0] = grid[enemy_hq[1]][enemy_hq[0]] = "H"
    for c, r in towns:
        grid[r][c] = "S"
    heli = _pionier_aboard(2, 1, list(heli_at))
    heli["fuel"] = fuel
    units = [heli, unit(3, "kampfpanzer", "nordbund", [0, rows - 1])] + liga
    owners = {(0, 0): "nordbund", tuple(enemy_hq): "liga", **{tuple(t): "liga" for t in towns}}
    return kaltfront.Game.from_json(position(["".join(row) for row in grid], units, round_limit=None,
                                             round_=31, fog=fog, owners=owners))


def _scout_beside_a_crew(heli_at, scout_fuel=12):
    """`_crew_position` under fog with a scout Drohne (id 5) with `scout_fuel` beside the own HQ, the
    enemy HQ free at (30,2) and a Liga Kampfpanzer far behind it; the units after Schwer's move phase."""
    g = _crew_position(5, (30, 2), heli_at, 30, [unit(13, "kampfpanzer", "liga", [33, 0]),
                                                 unit(5, "drohne", "nordbund", [2, 2], fuel=scout_fuel)], fog=True)
    ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    return {u["id"]: u for u in g.observe("nordbund")["units"]}


def test_issue16_r20_r21_schwer_scout_spends_the_night_near_a_crew_that_strikes_next_morning():
    """Issue 16, R20/R21 (Großer Belt seeds 99000 and 102006, session 29: four open mornings, each
    crew stopped on its way in by a unit hidden beside the HQ while another way in was free; the scouts
    rested at the far Flugplatz or on a picket and none could look at the ways before the strike):
    when a crew reaches a stop one move from the enemy HQ tonight, the scout flies toward it, one
    way, to look next morning. With the crew far from any stop it keeps within reach of home."""
    from kaltfront.ai.common import Geo
    geo = Geo(34, 5)
    near = _scout_beside_a_crew((18, 2))
    crew, scout = near[1], near[5]
    assert crew["cargo"] and geo.dist(geo.idx(crew["at"]), geo.idx([30, 2])) <= 8, crew
    # A full move (8) toward the crew, one way (12 fuel: it could not fly home); the old code kept it
    # within reach of home, 24 hexes from the enemy HQ.
    assert geo.dist(geo.idx(scout["at"]), geo.idx([30, 2])) <= 20, scout
    far = _scout_beside_a_crew((3, 4))[5]
    assert far["fuel"] >= geo.dist(geo.idx(far["at"]), 0), far  # R19: it can still fly home


def _crew_on_a_long_trip(fuel, heli_at=(12, 1)):
    """A 34x5 map without a round limit, Nordbund's move phase in round 31: the own HQ (the only air
    home) top left, the enemy HQ free at (30,3), three helicopter moves and a bit from a crew
    helicopter at `heli_at` with `fuel`. A Liga Flugabwehr at (20,2) fires (range 2) on
    the straight way; a Kampfpanzer stands far behind the enemy HQ."""
    return _crew_position(5, (30, 3), heli_at, fuel,
                          [unit(10, "flugabwehr", "liga", [20, 2]), unit(11, "kampfpanzer", "liga", [33, 0])])


def test_issue16_r19_r20_schwer_crew_plans_a_one_way_trip_of_several_nights_out_of_the_enemys_fire():
    """Issue 16, R18-R20 (Großer Belt seed 85001, session 26: Odense and all six hexes round it stood
    free for twelve rounds while Schwer's crews, 23 hexes away with 30 fuel, flew to and fro where
    they could still get home): a crew with no stop in reach tonight and no forward home plans the
    whole trip -- the fewest nights, each where no enemy it knows can see and fire on it, the
    last within a move of the strike with the fuel for it -- and flies the first leg, one way. The
    old code kept it where it could still fly home to its HQ: here it ended 16 hexes from the enemy
    HQ. With too little fuel for any such trip it does not set out."""
    from kaltfront.ai.common import Geo
    geo = Geo(34, 5)
    hq = geo.idx([30, 3])
    heli = _schwer_moves(_crew_on_a_long_trip(20))
    at = geo.idx(heli["at"])
    assert heli["cargo"], heli
    assert geo.dist(at, hq) <= 13, heli  # set out: beyond the way home
    assert geo.dist(at, geo.idx([20, 2])) > R["units"]["flugabwehr"]["range"][1], heli  # out of its fire
    heli = _schwer_moves(_crew_on_a_long_trip(16))  # 17 hexes and the strike need more than 16 fuel
    assert heli["cargo"] and geo.dist(geo.idx(heli["at"]), hq) >= 14, heli


def _crew_short_of_a_flak_screen(fuel):
    """A 34x5 map without a round limit, Nordbund's move phase in round 31: a crew helicopter at
    (19,2) with `fuel`, 10 hexes from a free hex beside the enemy HQ at (30,2), too far from its own
    HQ to fly home (R19). Three Liga Flugabwehr at (22,2), (24,1) and (24,3) (range 2) cover every
    stop it reaches tonight; the stops beyond them, on the far side of the HQ, are out of their
    fire, two nights away."""
    liga = [unit(10, "flugabwehr", "liga", [24, 1]), unit(11, "flugabwehr", "liga", [24, 3]),
            unit(12, "flugabwehr", "liga", [22, 2]), unit(13, "kampfpanzer", "liga", [33, 0])]
    return _crew_position(5, (30, 2), (19, 2), fuel, liga)


def test_issue16_r19_r20_schwer_crew_plans_its_trip_past_the_stops_in_the_enemys_fire():
    """Issue 16, R18-R20 (session 28): a stop in reach tonight ended the trip planning even when
    every such stop lay in the enemy's fire, and the crew, unable to get home, hovered where it
    was. Now only a stop under TRIP_RISK hands the decision to `stage`; otherwise the crew plans
    round the fire: here it flies the first night of the two out of the Flugabwehr's reach, from
    where a stop on the far side of the HQ is one move on. The old code left it at (19,2). With too
    little fuel for that way round it stays."""
    from kaltfront.ai.common import Geo
    geo = Geo(34, 5)
    flak = [geo.idx(x) for x in ([24, 1], [24, 3], [22, 2])]
    heli = _schwer_moves(_crew_short_of_a_flak_screen(14))
    at = geo.idx(heli["at"])
    assert heli["cargo"] and heli["at"] != [19, 2], heli
    assert all(geo.dist(at, f) > R["units"]["flugabwehr"]["range"][1] for f in flak), heli  # out of fire
    assert heli["fuel"] >= 14 - R["units"]["transporthubschrauber"]["move"], heli
    heli = _schwer_moves(_crew_short_of_a_flak_screen(12))  # 2 + 6 hexes and the strike: more than 12
    assert heli["at"] == [19, 2] and heli["cargo"], heli


def _stranded_crew(guard_hp):
    """A 34x4 map without a round limit, Nordbund's move phase in round 31: a crew helicopter at
    (20,2) with 11 fuel, 10 hexes from a free hex beside the enemy HQ at (30,2) and too far from its
    own HQ to fly home (R19). Every stop it reaches with the fuel for the strike is next to one of
    two weakened Liga Jäger with `guard_hp` hp (anti-aircraft 1, range 1)."""
    liga = [unit(10, "jaeger", "liga", [26, 1]), unit(11, "jaeger", "liga", [26, 3]),
            unit(12, "jaeger", "liga", [25, 2]), unit(13, "kampfpanzer", "liga", [33, 0]),
            unit(14, "jaeger", "liga", [22, 2], hp=guard_hp), unit(15, "jaeger", "liga", [24, 2], hp=guard_hp)]
    return _crew_position(4, (30, 2), (20, 2), 11, liga)


def test_issue16_r19_stranded_crew_takes_a_stop_under_the_trip_risk_bar():
    """Issue 16, R19 (Großer Belt seed 92005, session 28: a crew 8-10 hexes out, unable to get home,
    hovered there while a stop at 0.2 risk was in reach, until the enemy found it): `stage` scored a
    stop only by the hexes left to fly, so one hex nearer never paid for any risk. Now a stop under
    TRIP_RISK, the bar every night of a trip clears, beats waiting short of it. With the Jäger at
    3 hp (a chance-like risk of 0.35) the crew goes to a stop; the old code stayed at (20,2). With
    them at 6 hp (0.62, over the bar) it still waits."""
    from kaltfront.ai.common import Geo
    geo = Geo(34, 4)
    hq = geo.idx([30, 2])
    heli = _schwer_moves(_stranded_crew(3))
    assert heli["cargo"] and heli["at"] != [20, 2], heli
    # At a stop: a hex beside the HQ is one move on, with the fuel for it and the Pionier's step.
    assert geo.dist(geo.idx(heli["at"]), hq) <= R["units"]["transporthubschrauber"]["move"] + 1, heli
    heli = _schwer_moves(_stranded_crew(6))
    assert heli["at"] == [20, 2] and heli["cargo"], heli


def _crew_beside_a_seeing_town():
    """A 34x5 map without a round limit under fog, Nordbund's move phase in round 31: a crew
    helicopter at (20,2) with 30 fuel, 10 hexes from a free hex beside the enemy HQ at (30,2). A Liga
    Stadt at (25,1) sees every hex within two of it (R20); no enemy unit can fire on the stops in
    reach."""
    return _crew_position(5, (30, 2), (20, 2), 30, [unit(13, "kampfpanzer", "liga", [33, 0])],
                          towns=[(25, 1)], fog=True)


def test_issue16_r20_schwer_crew_waits_where_the_enemy_does_not_see_it():
    """Issue 16, R20 (session 28: on Großer Belt a crew the enemy saw at its stop never found the way
    open next morning, 0 of 12 nights): of the stops equally out of fire, the crew takes one the enemy
    does not see as far as it knows (`SEEN_COST`). The old code took (24,1), beside the Liga's Stadt,
    the stop nearest the strike from which it could still fly home."""
    from kaltfront.ai.common import Geo
    geo = Geo(34, 5)
    heli = _schwer_moves(_crew_beside_a_seeing_town())
    at = geo.idx(heli["at"])
    assert heli["cargo"], heli
    assert geo.dist(at, geo.idx([25, 1])) > R["building_vision"], heli  # out of the Stadt's sight
    # still a stop: a hex beside the HQ one move on, with the Pionier's step
    assert geo.dist(at, geo.idx([30, 2])) <= R["units"]["transporthubschrauber"]["move"] + 1, heli


def test_issue16_r20_ai_guess_of_the_enemys_sight_is_the_rule_when_it_knows_every_enemy():
    """R20 (issue 16, the crews' trips): what the AI takes the enemy to see -- under fog, round each
    enemy unit it knows by that unit's vision, +1 on hills and +2 in mountains, and within two of
    each enemy building -- is exactly what the engine lets the enemy see, when every enemy unit is
    known (here remembered from the same position observed without fog). Without fog the enemy
    sees every hex, and so does the AI's guess. Großer Belt after four seeded rounds, from either
    side."""
    from kaltfront.ai.common import belief_dict
    from kaltfront.ai.situation import Situation
    g = kaltfront.new_game("grosser-belt", seed=5, fog=True)
    play(g, {"nordbund": "normal", "liga": "normal"}, 5, max_rounds=4)
    clear = kaltfront.Game.from_json(dict(json.loads(g.to_json()), fog=False))
    for me, enemy in (("nordbund", "liga"), ("liga", "nordbund")):
        known = [u for u in clear.observe(me)["units"] if u["side"] == enemy]
        obs = g.observe(me)
        assert len([u for u in obs["units"] if u["side"] == enemy]) < len(known), me  # fog hides some
        sight = Situation(obs, belief_dict(obs, me, known), me).enemy_sight()
        assert sight == g.visible(enemy) and len(sight) < g.width * g.height, me
        obs = clear.observe(me)
        assert Situation(obs, belief_dict(obs, me), me).enemy_sight() == frozenset(range(g.width * g.height)), me


def _crew_short_of_a_watched_line(army):
    """A 34x5 map without a round limit under fog, Nordbund's move phase in round 31: a crew
    helicopter at (15,2) with 30 fuel, the enemy HQ free at (30,2), and `army` more Nordbund Jäger at
    the west end (with the crew and a Kampfpanzer: army + 3 units). A Liga Stadt at (23,2) sees
    every hex within two of it (R20: owners are public, so the AI knows), and so every stop the
    crew reaches tonight; the stops beyond it, out of its sight and the HQ's, are a night further
    on. No enemy unit can fire on aircraft (a Kampfpanzer far behind the HQ)."""
    g = _crew_position(5, (30, 2), (15, 2), 30, [unit(13, "kampfpanzer", "liga", [33, 0])],
                       towns=[(23, 2)], fog=True)
    d = json.loads(g.to_json())
    west = [[c, r] for c in range(1, 12) for r in range(5)]  # column 0: the HQ and the Kampfpanzer
    d["units"] += [unit(100 + k, "jaeger", "nordbund", at) for k, at in enumerate(west[:army])]
    d["next_id"] = 100 + army
    return kaltfront.Game.from_json(d)


def _next_turn(g):
    """The same game at Nordbund's next move phase, the Liga having done nothing."""
    g2 = kaltfront.Game.from_json(dict(json.loads(g.to_json()), round=32, side="nordbund", phase="move"))
    for u in g2.units.values():
        u.moved = u.attacked = False
    return g2


def test_issue16_r20_d9_schwer_crew_spends_no_night_at_a_stop_the_enemy_sees_once_the_armies_stand():
    """Issue 16, R20 and D9 (Großer Belt, session 30: on seeds 99000, 100002, 100004 and 102006
    `bench/crew_probe.py` ("who saw a crew at its stop") found 16 crew nights one move from a free hex beside Slagelse or Odense, 15 of them in
    the sight of an enemy unit or building, 13 of those of one Schwer knew; sessions 24-25 saw 1 of
    41 such seen nights followed by an open morning, for once the armies stand at the unit limit
    Normal's units close in on a helicopter they see): then a stop the enemy sees, as far as we
    know, is no stop to wait at. Here every stop in reach tonight lies in a Liga Stadt's sight.
    With Schwer at 55 units the crew spends the night out of the enemy's sight, on the way round to
    the unseen stops, where the old code waited at a seen stop beside the Stadt; next turn it
    reaches an unseen stop. Early on, with the armies still on the move (10 units), it still takes
    a seen stop: on Großer Belt the Liga's crews took Odense in rounds 5-6 from such stops while
    Normal's army marched out, and without them lost those games."""
    from kaltfront.ai.common import Geo
    geo = Geo(34, 5)
    town, hq = geo.idx([23, 2]), geo.idx([30, 2])
    mv = R["units"]["transporthubschrauber"]["move"]
    g = _crew_short_of_a_watched_line(R["max_units"] - 5 - 3)
    heli = _schwer_moves(g)
    at = geo.idx(heli["at"])
    assert heli["cargo"], heli
    assert at not in g.visible("liga"), heli  # out of the enemy's sight tonight
    assert geo.dist(at, hq) > mv + 1, heli  # not at a stop: none in reach is unseen
    g2 = _next_turn(g)
    heli = _schwer_moves(g2)
    at = geo.idx(heli["at"])
    assert heli["cargo"] and at not in g2.visible("liga"), heli
    assert geo.dist(at, hq) <= mv + 1 and geo.dist(at, town) > R["building_vision"], heli  # an unseen stop
    g = _crew_short_of_a_watched_line(7)
    heli = _schwer_moves(g)
    assert heli["cargo"] and geo.dist(geo.idx(heli["at"]), hq) <= mv + 1, heli  # a stop, though seen


def test_issue16_r41_schwer_scout_skips_a_unit_put_down_earlier_in_the_phase():
    """Issue 16, R41 (session 42: an experiment that unloaded a Pionier before the scout flew stopped
    a 20-game run with a KeyError in `MovePlanner.scout`): a unit put down from a transport earlier in
    the move phase stands in the planner's positions but was cargo in the observation; the scout's
    look over the loaded crews passes over it instead of failing."""
    units = [_pionier_aboard(2, 1, [3, 1]), unit(3, "drohne", "nordbund", [2, 0]),
             unit(4, "kampfpanzer", "nordbund", [0, 3]),
             unit(10, "kampfpanzer", "liga", [23, 4]), unit(11, "flugabwehr", "liga", [20, 1])]
    g = _far_from_the_enemy_hq(units, water=False, fog=True)
    planner = _schwer_planner(g)
    events = planner.apply({"type": "unload", "transport": 1, "unit": 2, "to": [4, 1]})
    assert any(e["type"] == "unloaded" for e in events), events
    assert 2 in planner.pos and 2 not in planner.sit.own
    planner.scout()  # raised KeyError: 2 before the fix
    assert planner.actions[0]["type"] == "unload"


def _empty_helicopter_and_a_pionier_far_off(money, at_limit=False):
    """Nordbund's move phase on `_far_from_the_enemy_hq` (HQ at (0,0), no round limit): an empty
    Transporthubschrauber at (5,2), the one Pionier on foot at (16,1), eleven hexes east of it;
    `at_limit`: Nordbund fields 60 units (D9), Jäger filling rows 2-4 west of column 20."""
    units = [unit(1, "transporthubschrauber", "nordbund", [5, 2]), unit(2, "pionier", "nordbund", [16, 1]),
             unit(3, "kampfpanzer", "nordbund", [3, 4]), unit(10, "kampfpanzer", "liga", [24, 4])]
    if at_limit:
        free = [(c, r) for r in (2, 3, 4) for c in range(20) if (c, r) not in ((5, 2), (3, 4))]
        units += [unit(20 + k, "jaeger", "nordbund", list(h)) for k, h in enumerate(free[:57])]
    g = _far_from_the_enemy_hq(units, water=False, round_=2)
    d = json.loads(g.to_json())
    d["money"] = {"nordbund": money, "liga": 0}
    return kaltfront.Game.from_json(json.dumps(d))


def test_issue16_r40_d9_schwer_empty_helicopter_waits_beside_the_hq_that_builds_a_pionier():
    """Issue 16, R34/R40 (Großer Belt seed 161000, rounds 1-2: the first Transporthubschrauber flew
    toward the Pionier at Nyborg, which walked off to take a town, and came back for the Pionier the
    HQ had built, a round and 12 fuel later): a helicopter that reaches no Pionier on foot this phase
    waits beside the own HQ, which builds one at the end of the phase, so that it boards next phase.
    Without the money for a Pionier, or at the unit limit (D9), where the HQ builds nothing, it flies
    toward the one on foot."""
    from kaltfront.ai.common import Geo
    geo = Geo(26, 5)
    g = _empty_helicopter_and_a_pionier_far_off(3000)
    actions, _ = ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
    heli = next(u for u in g.observe("nordbund")["units"] if u["id"] == 1)
    assert geo.dist(geo.idx(heli["at"]), geo.idx([0, 0])) == 1, (heli, actions)
    assert any(a["type"] == "build" and a["at"] == [0, 0] and a["unit_type"] == "pionier" for a in actions)
    for g in (_empty_helicopter_and_a_pionier_far_off(0), _empty_helicopter_and_a_pionier_far_off(3000, True)):
        ai_phase(g, AIPlayer("schwer", "nordbund", seed=1))
        heli = next(u for u in g.observe("nordbund")["units"] if u["id"] == 1)
        assert heli["at"][0] > 5, heli
