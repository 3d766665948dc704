"""D15 and issue 11.2 / 11.8: the Protokoll of each side is built only from what that side saw, and it
names places by buildings (their map names), never by coordinates.

`kaltfront.logtext.log_lines(game, events, side)` is the engine's rule; the bridge hands the page one
list of lines per side (`apply` / `ai_step` → `log`), so a hot-seat page never holds the other
player's lines.
"""

from __future__ import annotations

import json
import random
import re

from helpers import U, end_phase, make_dict, move

import kaltfront
from kaltfront import bridge
from kaltfront.logtext import log_lines

# Nordbund's HQ at the west end, liga's at the east end; a Stadt "Allinge" and a Werk "Aakirkeby".
ROW = ["H.S.......W........H"]
NAMES = {(0, 0): "Rønne", (2, 0): "Allinge", (10, 0): "Aakirkeby", (19, 0): "Nexø"}
OWNERS = {(0, 0): "nordbund", (19, 0): "liga", (10, 0): "nordbund"}
COORDS = re.compile(r"\(\s*\d+\s*\|\s*\d+\s*\)|\[\s*\d+\s*,\s*\d+\s*\]")


def named_game(units, **kw) -> kaltfront.Game:
    d = make_dict(ROW, units, owners=OWNERS, **kw)
    for b in d["buildings"]:
        b["name"] = NAMES.get(tuple(b["at"]), "")
    return kaltfront.Game.from_json(d)


def test_d15_a_hidden_enemy_move_is_not_in_the_other_sides_log():
    """D15: Nordbund moves far from any liga eye: the liga log stays empty, Nordbund's names the place."""
    g = named_game([U("nordbund", "jaeger", (1, 0)), U("liga", "jaeger", (18, 0))], fog=True)
    ev = move(g, 1, (2, 0))
    assert log_lines(g, ev, "liga") == []
    assert log_lines(g, ev, "nordbund") == ["Jäger (Nordbund) zieht nach Allinge."]


def test_d15_hidden_build_and_income_stay_with_their_side():
    """D15: the other side never reads an unseen build or the enemy's income."""
    g = named_game([U("liga", "jaeger", (18, 0))], fog=True, money=(1000, 1000))
    ev = g.apply({"type": "build", "at": [0, 0], "unit_type": "jaeger"})
    assert log_lines(g, ev, "liga") == []
    assert log_lines(g, ev, "nordbund") == ["Jäger (Nordbund) gebaut in Rønne (100)."]
    texts = {"nordbund": [], "liga": []}
    for _ in range(4):  # Nordbund's move phase, liga's whole turn, Nordbund's attack phase → income
        ev = end_phase(g)
        for side in texts:
            texts[side] += log_lines(g, ev, side)
    assert any(line.startswith("Einnahmen Nordbund") for line in texts["nordbund"])
    assert not any("Einnahmen Nordbund" in line for line in texts["liga"])
    assert any(line.startswith("Einnahmen Baltische Liga") for line in texts["liga"])
    assert not any("Einnahmen Baltische Liga" in line for line in texts["nordbund"])


def test_d15_a_hidden_capture_is_not_reported_but_a_lost_building_is():
    """D15: a capture of a neutral building out of sight stays hidden; the side that loses a
    building learns of it ("erobert Aakirkeby", named by the map, issue 11.8)."""
    g = named_game([U("nordbund", "jaeger", (2, 0)), U("liga", "jaeger", (10, 0)),
                    U("liga", "jaeger", (18, 0))], fog=True, side="liga", phase="move",
                   captures={(10, 0): ("liga", 2)})
    lines = {"nordbund": [], "liga": []}
    # liga's Jäger started capturing Aakirkeby (Nordbund's) a turn ago; Nordbund's Jäger starts on
    # neutral Allinge. Play on until both captures are done.
    for _ in range(8):
        ev = end_phase(g)
        for side in lines:
            lines[side] += log_lines(g, ev, side)
    assert g.buildings[10].owner == "liga" and g.buildings[2].owner == "nordbund"
    assert "Baltische Liga erobert Aakirkeby." in lines["nordbund"]  # Nordbund lost it: it knows
    assert "Nordbund erobert Allinge." in lines["nordbund"]
    assert not any("Allinge" in line for line in lines["liga"])  # far from every liga eye


def test_d15_seen_enemy_moves_are_logged_and_hidden_ends_are_named_not_blank():
    """D15, issue 11.8: an enemy seen leaving into the fog gets a readable line without "nach ."."""
    g = named_game([U("nordbund", "spaehwagen", (8, 0)), U("liga", "jaeger", (12, 0))], fog=True,
                   side="liga", phase="move")
    ev = move(g, 2, (14, 0))
    lines = log_lines(g, ev, "nordbund")
    assert g.index(kaltfront.Hex(14, 0)) not in g.visible("nordbund")
    assert len(lines) == 1 and "Jäger (Baltische Liga)" in lines[0]
    assert "nach ." not in lines[0] and not COORDS.search(lines[0])
    assert "Aakirkeby" in lines[0]


def test_d15_the_shooter_in_the_fog_is_not_named():
    """D15: being hit tells you that you were hit, not who fired from a hex you cannot see."""
    g = named_game([U("nordbund", "jaeger", (11, 0)), U("liga", "panzerhaubitze", (14, 0)),
                    U("liga", "spaehwagen", (15, 0))], fog=True, side="liga", phase="attack")
    assert g.index(kaltfront.Hex(14, 0)) not in g.visible("nordbund")
    ev = g.apply({"type": "attack", "unit": 2, "target": [11, 0]})
    (line,) = log_lines(g, ev, "nordbund")
    assert line.startswith("Ein Gegner aus dem Nebel greift Jäger (Nordbund)") and "Panzerhaubitze" not in line
    assert log_lines(g, ev, "liga")[0].startswith("Panzerhaubitze (Baltische Liga) greift Jäger (Nordbund)")


def call(op, **args):
    reply = json.loads(bridge.handle(json.dumps({"op": op, "args": args})))
    assert reply["ok"], reply
    return reply["result"]


def test_d15_bridge_hot_seat_under_fog_gives_each_player_only_their_own_log():
    """D15 through the worker's door: a random hot-seat game on Bornholm under fog. Each reply carries
    a log per person; a line about the other side appears only when that side's unit was in view."""
    bridge.reset()
    call("new_game", scenario="bornholm", seed=11, fog=True, players={"nordbund": "human", "liga": "human"})
    rnd = random.Random(5)
    unseen_moves = 0
    for _ in range(400):
        actions = [a for a in call("legal_actions") if a["type"] != "surrender"]
        action = rnd.choice(actions)
        acting = bridge.SESSION.game.side
        r = call("apply", action=action)
        assert set(r["log"]) == {"nordbund", "liga"}
        other = "liga" if acting == "nordbund" else "nordbund"
        if action["type"] == "move":
            g = bridge.SESSION.game
            seen = g.visible(other)
            walked = [g.index(kaltfront.Hex(*h)) for e in r["events"] if e["type"] == "moved" for h in e["path"]]
            if walked and not any(i in seen for i in walked):
                unseen_moves += 1
                # nothing of this move may reach the other player's Protokoll
                assert not any("zieht" in line or "taucht" in line or "verschwindet" in line
                               for line in r["log"][other]), r["log"][other]
        for side, lines in r["log"].items():
            for line in lines:
                assert not COORDS.search(line) and "nach ." not in line, line
                if line.startswith("Einnahmen"):
                    assert line.startswith("Einnahmen " + ("Nordbund" if side == "nordbund" else "Baltische Liga"))
        if r["observation"]["outcome"]:
            break
    assert unseen_moves > 5  # the test did exercise hidden moves


def test_d15_against_the_computer_only_the_person_keeps_a_log():
    """D15: with one person at the screen, the replies carry only that person's log."""
    bridge.reset()
    call("new_game", scenario="bornholm", seed=2, fog=True, players={"nordbund": "leicht", "liga": "human"})
    step = call("ai_step")
    assert set(step["log"]) == {"liga"}


def test_issue_11_8_places_are_named_by_buildings_never_by_coordinates():
    """Issue 11.8: every line of a whole computer-against-computer game names places by the map."""
    bridge.reset()
    call("new_game", scenario="bornholm", seed=4, fog=False, players={"nordbund": "leicht", "liga": "leicht"})
    lines = []
    for _ in range(2000):
        step = call("ai_step")
        lines += step.get("log", {}).get("nordbund", [])
        if step["observation"]["outcome"] or len(lines) > 300:
            break
    names = {b["name"] for b in step["observation"]["buildings"]}
    assert len(lines) > 30
    for line in lines:
        assert not COORDS.search(line) and " ." not in line and "None" not in line, line
    placed = [line for line in lines if " zieht " in line]
    assert placed
    assert all(any(name in line for name in names) for line in placed), placed[:5]


# -- issue 11.11: the end screen's figures come from the engine ---------------------------------------

def test_issue_11_11_stats_count_built_lost_destroyed_and_survive_a_save():
    """Issue 11.11: built, lost (cargo included, R46) and destroyed per side; kept in the save."""
    from helpers import attack, rng_for

    g = named_game([U("nordbund", "kampfpanzer", (12, 0)), U("liga", "jaeger", (13, 0), hp=1)],
                   phase="attack", rng=rng_for(0), money=(500, 0))
    attack(g, 1, (13, 0))
    assert g.stats["nordbund"]["destroyed"] == 1 and g.stats["liga"]["lost"] == 1
    end_phase(g)
    g.apply({"type": "build", "at": [0, 0], "unit_type": "jaeger"})
    assert g.stats["nordbund"]["built"] == 1
    again = kaltfront.Game.from_json(g.to_json())
    assert again.stats == g.stats == {"nordbund": {"built": 1, "lost": 0, "destroyed": 1},
                                     "liga": {"built": 0, "lost": 1, "destroyed": 0}}
    old = json.loads(g.to_json())
    del old["stats"]  # a save from before issue 11.11 still loads, with counts from zero
    assert kaltfront.Game.from_json(old).stats["nordbund"] == {"built": 0, "lost": 0, "destroyed": 0}


def test_issue_11_11_r50_d8_summary_names_the_deciding_tie_break():
    """Issue 11.11, R50/D8: at the round limit the summary shows buildings held and unit value per side
    and which of them decided; the bridge gives it only once the game is over."""
    g = named_game([U("nordbund", "kampfpanzer", (5, 0)), U("liga", "jaeger", (15, 0), hp=5)],
                   round_=10, round_limit=10, side="liga", phase="move", first="nordbund")
    # Buildings: Nordbund holds Rønne and Aakirkeby, liga only Nexø: buildings decide.
    end_phase(g)
    from kaltfront.victory import end_summary
    s = end_summary(g)
    assert g.outcome.reason == "round_limit" and g.outcome.winner == "nordbund"
    assert s["decided_by"] == "buildings" and s["round"] == 10 and s["round_limit"] == 10
    assert s["sides"]["nordbund"]["buildings"] == 2 and s["sides"]["liga"]["buildings"] == 1
    cost = {t: kaltfront.rulesdata.RULES.units[t].cost for t in ("kampfpanzer", "jaeger")}
    assert s["sides"]["nordbund"]["unit_value"] == cost["kampfpanzer"]
    assert s["sides"]["liga"]["unit_value"] == cost["jaeger"] * 5 / 10
    # Equal buildings: the unit value decides (D8).
    g2 = named_game([U("nordbund", "kampfpanzer", (5, 0)), U("liga", "jaeger", (15, 0), hp=5)],
                    round_=10, round_limit=10, side="liga", phase="move")
    g2.buildings[10].owner = "liga"  # 1 : 2 … then give Nordbund Allinge: 2 : 2
    g2.buildings[2].owner = "nordbund"
    end_phase(g2)
    s2 = end_summary(g2)
    assert s2["decided_by"] == "unit_value" and g2.outcome.winner == "nordbund"

    bridge.reset()
    call("new_game", scenario="bornholm", seed=1, fog=True, players={"nordbund": "human", "liga": "leicht"})
    reply = json.loads(bridge.handle(json.dumps({"op": "summary", "args": {}})))
    assert not reply["ok"] and "Spielende" in reply["error"]["message"]  # no peeking under fog
    call("apply", action={"type": "surrender", "side": "nordbund"})
    done = call("summary")
    assert done["reason"] == "surrender" and done["winner"] == "liga" and set(done["sides"]) == {"nordbund", "liga"}


def test_issue_11_14_blitz_maps_in_the_rulebooks_order():
    """Issue 11.14: the menu lists the engine's scenarios as they come; Blitz maps in the rulebook's order
    (spielanleitung, section 12)."""
    names = [s["name"] for s in kaltfront.scenarios() if s["blitz"]]
    # Section 12: "Fehmarnsund …, Flensburger Förde …, Bornholm …, Rügen und Hiddensee …, Usedom … und
    # Lolland–Falster …".
    assert names == ["Fehmarnsund", "Flensburger Förde", "Bornholm", "Rügen und Hiddensee", "Usedom", "Lolland–Falster"]
