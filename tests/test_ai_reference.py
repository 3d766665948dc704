"""Issue 16: the reference opponents (`greedy`, `rollout`) of the self-play harness and the round-robin.

They must play only legal actions, decide from what their side observes (R4, the same fairness
property as the real AI), never be offered as a strength to the UI, and the round-robin must print its
table with correct 95 % Wilson intervals.
"""

from __future__ import annotations

import re

import pytest
from test_ai import _midgame, _with_hidden_units, ai_phase, ai_turn, position, unit

import kaltfront
from kaltfront import bridge
from kaltfront.ai import AIPlayer
from kaltfront.ai.reference import REFERENCE_BOTS, ReferenceBot, make_player
from kaltfront.roundrobin import main as roundrobin_main
from kaltfront.roundrobin import format_table, tally, wilson
from kaltfront.selfplay import main as selfplay_main
from kaltfront.selfplay import play


@pytest.mark.parametrize("kind", REFERENCE_BOTS)
def test_issue16_r4_hidden_enemy_units_do_not_change_a_reference_bot_turn(kind):
    """R4 for the reference bots: two games that differ only in enemy units the bot cannot see give
    exactly the same actions for its whole turn (attack and move phase)."""
    g = _midgame()
    ga, gb = _with_hidden_units(g, "nordbund")
    assert ga.observe("nordbund") == gb.observe("nordbund")
    acts_a, _ = ai_turn(ga, ReferenceBot(kind, "nordbund", seed=11))
    acts_b, _ = ai_turn(gb, ReferenceBot(kind, "nordbund", seed=11))
    assert acts_a == acts_b
    assert any(a["type"] in ("move", "build") for a in acts_a)


def test_issue16_reference_bots_play_a_whole_blitz_game_with_legal_actions_only():
    g = kaltfront.new_game("fehmarnsund", seed=4, fog=True)
    r = play(g, {"nordbund": "rollout", "liga": "greedy"}, seed=4, check_legal=True)
    assert r["reason"] in ("hq", "no_army", "round_limit") and r["illegal"] == 0
    assert r["think"]["nordbund"] and r["think"]["liga"]


@pytest.mark.parametrize("kind", REFERENCE_BOTS)
def test_issue16_reference_bots_are_never_a_ui_strength(kind):
    with pytest.raises(ValueError):
        AIPlayer(kind, "nordbund")
    assert kind not in bridge.STRENGTHS
    assert isinstance(make_player(kind, "liga", seed=1), ReferenceBot)


GREEDY_MAP = ["H........H"] + ["." * 10] * 3


def test_issue16_greedy_takes_the_best_trade_and_declines_a_losing_one():
    """One ply: a Spähwagen does not shoot a full Kampfpanzer (little dealt, heavy answer); against a
    Panzerhaubitze next to it (no answer at range 1, R29) the unit that deals most fires."""
    units = [unit(1, "spaehwagen", "nordbund", [4, 1]), unit(2, "kampfpanzer", "liga", [5, 1])]
    g = kaltfront.Game.from_json(position(GREEDY_MAP, units, phase="attack", blitz=True, round_limit=10,
                                          owners={(0, 0): "nordbund", (9, 0): "liga"}))
    assert ReferenceBot("greedy", "nordbund").next_action(g.observe("nordbund")) == {"type": "end_phase"}
    units = [unit(1, "spaehwagen", "nordbund", [4, 1]), unit(3, "kampfpanzer", "nordbund", [5, 2]),
             unit(2, "panzerhaubitze", "liga", [5, 1])]
    g = kaltfront.Game.from_json(position(GREEDY_MAP, units, phase="attack", blitz=True, round_limit=10,
                                          owners={(0, 0): "nordbund", (9, 0): "liga"}))
    a = ReferenceBot("greedy", "nordbund").next_action(g.observe("nordbund"))
    assert a == {"type": "attack", "unit": 3, "target": [5, 1]}


def test_issue16_greedy_sends_jaeger_to_a_building_and_buys_the_dearest_unit():
    terrain = ["H...S....H"] + ["." * 10] * 3
    units = [unit(1, "jaeger", "nordbund", [1, 1]), unit(2, "kampfpanzer", "liga", [8, 3])]
    g = kaltfront.Game.from_json(position(terrain, units, blitz=True, round_limit=10, money=(2000, 0),
                                          owners={(0, 0): "nordbund", (9, 0): "liga"}))
    acts, _ = ai_phase(g, ReferenceBot("greedy", "nordbund"))
    jaeger = next(u for u in g.observe("nordbund")["units"] if u["id"] == 1)
    assert kaltfront.hexgrid.distance(kaltfront.Hex(*jaeger["at"]), kaltfront.Hex(4, 0)) < 3
    builds = [a for a in acts if a["type"] == "build"]
    costs = {o["unit_type"]: o["cost"] for o in kaltfront.Game.from_json(position(
        terrain, [], blitz=True, round_limit=10, money=(2000, 0),
        owners={(0, 0): "nordbund", (9, 0): "liga"})).build_options([0, 0]) if o["affordable"]}
    assert len(builds) == 1 and costs[builds[0]["unit_type"]] == max(costs.values())


@pytest.mark.parametrize("wins,n,lo,hi", [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634),
                                          (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662),
                                          (114, 120, 0.8953, 0.9768)])
def test_issue16_wilson_interval_on_known_values(wins, n, lo, hi):
    a, b = wilson(wins, n)
    assert a == pytest.approx(lo, abs=5e-4) and b == pytest.approx(hi, abs=5e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_issue16_roundrobin_prints_its_table_for_a_tiny_run(capsys):
    assert roundrobin_main(["--pairs", "greedy:leicht", "--map", "fehmarnsund", "--games", "2",
                            "--seed", "3", "--fog"]) == 0
    out = capsys.readouterr().out
    assert "| Paarung (A – B) | Partien | Siege A | Siege B | unentsch. | A gewinnt | 95 %-Intervall (Wilson) |" in out
    row = next(x for x in out.splitlines() if x.startswith("| greedy – leicht |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "2" and int(cells[2]) + int(cells[3]) + int(cells[4]) == 2
    assert "fehmarnsund" in out and "Gewinnrate Zeile gegen Spalte" in out
    # Issue 16's per-map target counts each side apart: one game as Nordbund, one as Liga.
    cell = next(x for x in out.splitlines() if x.startswith("  greedy – leicht: fehmarnsund ") and "·" in x)
    assert re.search(r"fehmarnsund \d/1 · \d/1; schwächste: fehmarnsund als (Nordbund|Liga) \d/1 \(\d+–\d+ %\)",
                     cell), cell


def test_issue16_roundrobin_counts_each_map_and_side_apart():
    def game(mp, schwer_side, winner):
        other = "liga" if schwer_side == "nordbund" else "nordbund"
        return {"map": mp, "players": {schwer_side: "schwer", other: "greedy"}, "winner": winner,
                "reason": "hq" if winner else "stalled"}

    results = [game("bornholm", "nordbund", "nordbund"), game("bornholm", "liga", "nordbund"),
               game("bornholm", "liga", "liga"), game("usedom", "liga", None)]
    row = tally("schwer", "greedy", results)
    assert row["map_side"] == {"bornholm": {"nordbund": [1, 1], "liga": [1, 2]},
                               "usedom": {"nordbund": [0, 0], "liga": [0, 1]}}
    assert row["a_as"] == {"nordbund": [1, 1], "liga": [1, 3]}
    text = format_table([row])
    assert "bornholm 1/1 · 1/2, usedom 0/0 · 0/1; schwächste: usedom als Liga 0/1" in text


def test_issue16_roundrobin_refuses_an_unknown_player(capsys):
    assert roundrobin_main(["--pairs", "greedy:kaiser", "--games", "2"]) == 2
    assert "Unbekannter Spieler" in capsys.readouterr().err


def test_issue16_selfplay_takes_a_reference_bot(capsys):
    assert selfplay_main(["--map", "fehmarnsund", "--nordbund", "greedy", "--liga", "leicht",
                          "--games", "1", "--seed", "2", "--fog"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("greedy ")
