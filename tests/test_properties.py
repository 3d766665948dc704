"""Random legal games through the public API, checking every invariant after every action.

Hypothesis draws the scenario, seed, fog and each action's choice, so a failure shrinks to a short
game. The number of games is set by the Hypothesis profile: `ci` (default, a few hundred games in
`make test`) or `thorough` (KALTFRONT_PROFILE=thorough, thousands of games, run by hand).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings, strategies as st, given

import kaltfront
from kaltfront import IllegalAction, RULES, SIDES
from kaltfront.hexgrid import Hex

settings.register_profile("ci", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("KALTFRONT_PROFILE", "ci"))

SCENARIOS = [s["id"] for s in kaltfront.scenarios() if s["width"] * s["height"] <= 700]
MAX_ACTIONS = 120


def check_invariants(g: kaltfront.Game) -> None:
    for side in SIDES:
        assert g.money[side] >= 0, "money never negative"
        assert g.unit_count(side) <= RULES.max_units, "R34/D9: at most 60 units"
    seen_hexes = set()
    for u in g.units.values():
        assert 1 <= u.hp <= 10, f"R27: hp {u.hp}"
        assert 0 <= u.level <= RULES.max_level, "R30: level 0-5"
        if u.at is None:
            carrier = g.units[u.carried_by]
            assert u.id in carrier.cargo
            assert len(carrier.cargo) <= carrier.utype.transport_slots, "R39: slots"
            continue
        assert u.at not in seen_hexes, "R16: no two units on a hex"
        seen_hexes.add(u.at)
        assert g.board[u.at] == u.id
        assert g.terrain_at(u.at).cost[u.utype.movement] is not None, "units only on enterable terrain"
        if u.ammo is not None:
            assert 0 <= u.ammo <= u.utype.ammo
        if u.fuel is not None:
            assert 0 <= u.fuel <= u.utype.fuel
    assert len(g.board) == len(seen_hexes)
    # from_json(to_json(g)) == g
    again = kaltfront.Game.from_json(g.to_json())
    assert again == g
    # observe shows no enemy outside the viewer's vision, and no enemy cargo (R20, R46)
    for viewer in SIDES:
        obs = g.observe(viewer)
        vis = obs["visible"]
        for u in obs["units"]:
            if u["side"] != viewer:
                c, r = u["at"]
                assert vis[r][c] == "1", "enemy shown outside vision"
                assert "cargo" not in u
        assert "rng" not in obs


def try_illegal(g: kaltfront.Game, data) -> None:
    """An illegal action raises IllegalAction and changes nothing."""
    before = g.to_json()
    legal = {repr(a) for a in g.legal_actions()}
    ids = sorted(g.units) or [1]
    col = data.draw(st.integers(-1, g.width), label="illegal col")
    row = data.draw(st.integers(-1, g.height), label="illegal row")
    candidates = [
        kaltfront.Move(data.draw(st.sampled_from(ids + [999])), Hex(col, row)),
        kaltfront.Attack(data.draw(st.sampled_from(ids)), Hex(col, row)),
        kaltfront.Build(Hex(col, row), data.draw(st.sampled_from(sorted(RULES.units)))),
        kaltfront.Unload(data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids)), Hex(col, row)),
        kaltfront.Load(data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids))),
    ]
    for a in candidates:
        if repr(a) in legal:
            continue
        try:
            g.apply(a)
        except IllegalAction as e:
            assert str(e), "an illegal action explains itself"
        else:
            raise AssertionError(f"{a!r} was not listed as legal but was accepted")
        assert g.to_json() == before, f"{a!r} changed the game"


@given(data=st.data())
def test_random_legal_games_keep_every_invariant(data):
    """R16, R27, R34, D9, R20, R46 and save round trips, over random legal play."""
    sid = data.draw(st.sampled_from(SCENARIOS), label="scenario")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    fog = data.draw(st.booleans(), label="fog")
    g = kaltfront.new_game(sid, seed=seed, fog=fog)
    check_invariants(g)
    for step in range(MAX_ACTIONS):
        if g.outcome is not None:
            break
        acts = g.legal_actions()
        assert acts, "a running game always has a legal action (at least end_phase)"
        for a in acts:  # every listed action survives a JSON round trip
            assert kaltfront.action_from_json(a.to_json()) == a
        # Prefer doing something over ending the phase, so games get busy.
        non_end = [a for a in acts if not isinstance(a, kaltfront.EndPhase)]
        if non_end and data.draw(st.integers(0, 3), label="act?") > 0:
            a = non_end[data.draw(st.integers(0, len(non_end) - 1), label="action")]
        else:
            a = kaltfront.EndPhase()
        g.apply(a)
        check_invariants(g)
        if step % 10 == 0:
            try_illegal(g, data)
    if g.outcome is None and data.draw(st.booleans(), label="surrender"):
        g.apply(kaltfront.Surrender(g.side))
        assert g.outcome is not None and g.outcome.reason == "surrender"  # R51
        assert g.legal_actions() == []
