"""Side balance of the Feldzug (issue 15, C2, C4, C10): a Normal-vs-Normal campaign went 29–1 for the
Nordbund. The causes found and fixed, each with a test here: the quick auto-resolve counted the income
the first mover gets when a battle is created but not the other side's, the campaign map put more
regions nearer the Liga's base, Normal broke ties by region name so every campaign was the same, and
long chains of regions stalled at their 1-KP tip, so the land grab alone went 190–0 for the Nordbund."""

from __future__ import annotations

from collections import deque

import pytest

from kaltfront.campaign import CampaignAI, load_campaign_map, new_campaign
from kaltfront.campaign.auto import forces
from kaltfront.game import new_game

CMAP = load_campaign_map()


@pytest.mark.parametrize("map_id", sorted({r.map for r in CMAP.regions.values()}))
def test_c10_quick_resolve_sees_equal_forces_on_every_campaign_battle_map(map_id):
    g = new_game(map_id, seed=0, fog=False)
    assert g.money["nordbund"] != g.money["liga"]   # the first mover already has its income ...
    f = forces(g)
    assert f["nordbund"] == f["liga"]               # ... and the other side's is counted too


def _steps_from(start: str) -> dict[str, int]:
    dist, todo = {start: 0}, deque([start])
    while todo:
        x = todo.popleft()
        for n in CMAP.regions[x].neighbours:
            if n not in dist:
                dist[n] = dist[x] + 1
                todo.append(n)
    return dist


def test_c1_c2_as_many_regions_are_nearer_each_base():
    nb, liga = _steps_from(CMAP.bases["nordbund"]), _steps_from(CMAP.bases["liga"])
    nearer_nb = sum(1 for r in CMAP.regions if nb[r] < liga[r])
    nearer_liga = sum(1 for r in CMAP.regions if liga[r] < nb[r])
    assert nearer_nb == nearer_liga


def test_c4_normal_does_not_play_the_same_land_grab_in_every_campaign():
    firsts = set()
    for seed in range(8):
        c = new_campaign(seed=seed)
        for _ in range(3):  # three rounds without contact: only occupations and moves
            for side in ("nordbund", "liga"):
                c.apply(CampaignAI("normal", side, seed=seed * 2).next_order(c.observe(side)))
        firsts.add((tuple(sorted(c.regions_of("nordbund"))), tuple(sorted(c.regions_of("liga")))))
    assert len(firsts) > 1


def test_c4_a_chain_tip_without_spare_kp_is_fed_so_the_land_grab_goes_on():
    """Rostock (1 KP) borders the free Darß; Wismar has KP to spare: Normal moves KP up to Rostock."""
    from campaign_helpers import LIGA, NB, position

    c = position({"kullen": (NB, 30), "wismar": (LIGA, 20), "rostock": (LIGA, 1), "fehmarn": (LIGA, 3),
                  "wagrien": (LIGA, 3)})
    plan = CampaignAI("normal", LIGA, seed=1).next_order(c.observe(LIGA))
    assert any(m["from"] == "wismar" and m["to"] == "rostock" for m in plan["moves"])
    c.apply(plan)  # legal
    c.apply({"type": "plan", "side": NB})
    assert c.kp["rostock"] >= 2  # so next round it has a KP to occupy Darß with
