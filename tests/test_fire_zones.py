"""Enemy fire zones (issue 13.2): where visible enemies can fire at the start of their next turn (R8–R11,
R23, R25, R31) and after their move, the expected damage there (R26, D2), and fog fairness (R20): a
hidden enemy adds nothing and changes nothing."""

from __future__ import annotations

import json

import pytest
from helpers import U, assert_german, make, make_dict

import kaltfront
from kaltfront import bridge
from kaltfront.movement import search

PLAIN = ["." * 13] * 9


def hexes(items) -> set:
    return {tuple(h) for h in items}


def ring(g, col, row, lo, hi) -> set:
    c = g.index(kaltfront.Hex(col, row))
    return {(i % g.width, i // g.width) for i in range(g.grid.size) if lo <= g.grid.dist(c, i) <= hi}


def test_issue13_fire_now_is_the_range_ring_with_expected_damage_per_class():
    """A Panzerhaubitze (2–4, R23) fires next turn on the ring around it; a Jäger only next to it."""
    g = make(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("liga", "panzerhaubitze", (8, 4)),
                     U("liga", "jaeger", (2, 7))], fog=False)
    z = g.fire_zones("nordbund")
    assert {e["type"] for e in z["enemies"]} == {"panzerhaubitze", "jaeger"}
    now = {tuple(c["at"]): c for c in z["now"]}
    assert set(now) == ring(g, 8, 4, 2, 4) | ring(g, 2, 7, 1, 1)
    assert (8, 4) not in now and (9, 4) not in now  # adjacent: too close for the howitzer
    # per armour class: the classes it can attack (R25), none it cannot ("–" vs Luft)
    assert set(now[(8, 2)]["classes"]) == {"weich", "hart", "see"}
    assert set(now[(2, 6)]["classes"]) == {"weich", "hart", "luft"}
    assert all(1 <= v <= 10 for c in now.values() for v in c["classes"].values())


def test_issue13_damage_against_the_selected_unit_is_the_engines_expected_value():
    """D2: the figure on a hex is exactly what the engine would preview for that attack."""
    rows = ["....w........", ".............", "............."]
    units = [U("nordbund", "kampfpanzer", (4, 0)), U("liga", "panzerhaubitze", (7, 0), hp=8, level=1)]
    g = make(rows, units, fog=False)
    z = g.fire_zones("nordbund", target=1)
    cell = next(c for c in z["now"] if c["at"] == [4, 0])
    enemy_turn = make(rows, units, fog=False, side="liga", phase="attack")
    preview = enemy_turn.attack_options(2)
    assert [p["target"] for p in preview] == [[4, 0]]
    assert cell["damage"] == preview[0]["damage"]
    assert z["target"] == "kampfpanzer"
    # by type, at level 0 and full hp: the same formula
    assert next(c for c in g.fire_zones("nordbund", target="jaeger")["now"] if c["at"] == [4, 0])["damage"] >= 1


def test_issue13_damage_adds_up_over_several_enemies_capped_at_the_units_hp():
    g = make(PLAIN, [U("nordbund", "jaeger", (5, 4), hp=3), U("liga", "kampfpanzer", (6, 4)),
                     U("liga", "kampfpanzer", (4, 4))], fog=False)
    cell = next(c for c in g.fire_zones("nordbund", target=1)["now"] if c["at"] == [5, 4])
    assert cell["count"] == 2 and cell["damage"] == 3


def test_issue13_no_ammunition_no_fire_next_turn():
    """R31: without a shot left it can neither attack nor counter-fire."""
    g = make(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("liga", "kampfpanzer", (8, 4), ammo=0)], fog=False)
    z = g.fire_zones("nordbund")
    assert z["now"] == [] and z["after"] == []
    assert z["enemies"][0]["ammo"] == 0


def test_issue13_unarmed_enemies_add_no_zone():
    g = make(PLAIN, [U("nordbund", "jaeger", (1, 1)), U("liga", "transporter", (8, 4))], fog=False)
    z = g.fire_zones("nordbund", enemy=2)
    assert z["now"] == [] and z["after"] == [] and z["enemies"][0]["reach"]


@pytest.mark.parametrize("scenario", ["bornholm", "kieler-bucht"])
def test_issue13_fire_after_moving_is_every_hex_in_range_of_a_hex_it_can_reach(scenario):
    """Per enemy: 'after' = union of its range ring over where it stands and every hex it can reach."""
    g = kaltfront.new_game(scenario, seed=4, fog=False)
    for e in g.units_of("liga"):
        z = g.fire_zones("nordbund", enemy=e.id)
        entry = next(x for x in z["enemies"] if x["id"] == e.id)
        if e.utype.range is None:
            assert entry["after"] == []
            continue
        lo, hi = e.utype.range
        reach = search(g, e, frozenset(range(g.grid.size))).destinations
        assert hexes(entry["reach"]) == {(i % g.width, i // g.width) for i in reach}
        want = set()
        for i in [e.at] + reach:
            want |= ring(g, i % g.width, i // g.width, lo, hi)
        assert hexes(entry["after"]) == want, e.type
        assert hexes(entry["now"]) == ring(g, e.at % g.width, e.at // g.width, lo, hi)
    union_after = hexes(c["at"] for c in g.fire_zones("nordbund")["after"])
    assert union_after == set().union(*(hexes(x["after"]) for e in g.units_of("liga")
                                        for x in g.fire_zones("nordbund", enemy=e.id)["enemies"]
                                        if x["id"] == e.id))


def test_issue13_own_units_block_the_enemys_reach():
    """R16: the enemy cannot pass our units, so its reach stops at a wall of them."""
    rows = ["ggggggggg", "=========", "ggggggggg"]
    g = make(rows, [U("nordbund", "jaeger", (3, 1)), U("liga", "kampfpanzer", (6, 1))], fog=False)
    reach = hexes(g.fire_zones("nordbund", enemy=2)["enemies"][0]["reach"])
    assert reach == {(4, 1), (5, 1), (7, 1), (8, 1)}


# -- fog fairness -------------------------------------------------------------------------------------

FOG_ROWS = ["." * 16] * 7


def _fog_game(extra=()):
    units = [U("nordbund", "jaeger", (1, 3)), U("nordbund", "spaehwagen", (2, 3)),
             U("liga", "kampfpanzer", (6, 3)), U("liga", "panzerhaubitze", (5, 1))] + list(extra)
    return make(FOG_ROWS, units, fog=True)


def test_issue13_fog_only_visible_enemies_count():
    g = _fog_game([U("liga", "raketenwerfer", (14, 3))])
    seen = g.visible("nordbund")
    assert g.index(kaltfront.Hex(14, 3)) not in seen
    z = g.fire_zones("nordbund")
    assert {e["type"] for e in z["enemies"]} == {"kampfpanzer", "panzerhaubitze"}
    with pytest.raises(ValueError) as exc:
        g.fire_zones("nordbund", enemy=5)
    assert_german(str(exc.value))


@pytest.mark.parametrize("hidden_at", [(9, 3), (10, 2), (12, 5), (15, 0), (9, 6)])
def test_issue13_fog_a_hidden_enemy_adds_nothing_and_changes_nothing(hidden_at):
    """R20: the answer with a hidden enemy — even one standing where a visible enemy could go or
    pass — equals the answer without it; so does the observation (nothing leaks either way)."""
    plain = _fog_game()
    crowded = _fog_game([U("liga", "kampfpanzer", hidden_at), U("liga", "raketenwerfer", (15, 6))])
    assert plain.index(kaltfront.Hex(*hidden_at)) not in plain.visible("nordbund")
    assert crowded.fire_zones("nordbund", target=2) == plain.fire_zones("nordbund", target=2)
    for e in plain.units_of("liga"):
        assert crowded.fire_zones("nordbund", enemy=e.id) == plain.fire_zones("nordbund", enemy=e.id)
    before = crowded.to_json()
    crowded.fire_zones("nordbund")
    assert crowded.to_json() == before  # asking changes nothing


def test_issue13_fire_zones_bad_input_is_refused_in_german():
    g = _fog_game()
    for kwargs in ({"side": "dänemark"}, {"side": "nordbund", "target": "drache"},
                   {"side": "nordbund", "target": 3}):
        with pytest.raises(ValueError) as exc:
            g.fire_zones(**kwargs)
        assert_german(str(exc.value))


def call(op, **args):
    return json.loads(bridge.handle(json.dumps({"op": op, "args": args})))


def test_issue13_bridge_fire_zones_answers_for_the_viewer():
    bridge.reset()
    call("load", save=make_dict(FOG_ROWS, [U("nordbund", "jaeger", (1, 3)), U("liga", "kampfpanzer", (3, 3)),
                                           U("liga", "kampfpanzer", (14, 3))], fog=True),
         players={"nordbund": "human", "liga": "leicht"})
    r = call("fire_zones", target=1)
    assert r["ok"] and [e["id"] for e in r["result"]["enemies"]] == [2]
    assert call("fire_zones", enemy=3)["error"]["kind"] == "bad_request"
    assert call("fire_zones", target=[1])["error"]["kind"] == "bad_request"
