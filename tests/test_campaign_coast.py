"""The coast outline of the campaign map (issue 15 UI: "regions as large hexes over the coast outline",
C1): a coarse land outline is data beside the regions, handed to the page by `observe`, and it agrees
with where the regions are placed: every island region sits on its island, every mainland region on
the mainland. A broken outline is refused with a German message like the rest of the map file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kaltfront.campaign.mapdata as mapdata
from kaltfront.campaign import load_campaign_map, new_campaign

CMAP = load_campaign_map()
MAINLAND = "Jütland, Schleswig-Holstein, Mecklenburg und Vorpommern"
ON_LAND = {  # region -> the land it lies on
    "samsoe": "Samsø", "fuenen": "Fünen", "seeland": "Seeland", "nordseeland": "Seeland",
    "suedseeland": "Seeland", "kopenhagen": "Seeland", "moen": "Møn", "als": "Als", "langeland": "Langeland",
    "aeroe": "Ærø", "lolland": "Lolland", "falster": "Falster", "fehmarn": "Fehmarn", "hiddensee": "Hiddensee",
    "ruegen": "Rügen", "bornholm": "Bornholm", "kullen": "Schonen", "schonen": "Schonen", "oesterlen": "Schonen",
    "ostjuetland": MAINLAND, "flensburg": MAINLAND, "kieler-foerde": MAINLAND, "dithmarschen": MAINLAND,
    "wagrien": MAINLAND, "wismar": MAINLAND, "rostock": MAINLAND, "darss": MAINLAND, "greifswald": MAINLAND,
    "usedom": MAINLAND,
}


def centre(region: str) -> tuple[float, float]:
    col, row = CMAP.regions[region].at
    return col + 0.5 * (row & 1), float(row)


def inside(p: tuple[float, float], poly: list[list[float]]) -> bool:
    x, y = p
    hit = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_c1_every_region_on_land_sits_on_its_own_land_and_nowhere_else():
    land = {c["name"]: c["points"] for c in CMAP.coast}
    assert set(ON_LAND.values()) <= set(land)
    for region, name in ON_LAND.items():
        on = [n for n, poly in land.items() if inside(centre(region), poly)]
        assert on == [name], (region, on)


def test_c1_the_belts_are_water():
    land = [c["points"] for c in CMAP.coast]
    assert not any(inside(centre("kleiner-belt"), poly) for poly in land)


def test_observe_hands_the_coast_to_the_page_and_it_is_a_copy():
    c = new_campaign(seed=1)
    obs = c.observe("liga")
    assert [p["name"] for p in obs["coast"]] == [p["name"] for p in CMAP.coast]
    json.dumps(obs)
    obs["coast"][0]["points"][0][0] = 99.0
    assert c.observe("liga")["coast"][0]["points"][0][0] != 99.0


@pytest.mark.parametrize("coast, words", [
    ({"land": [{"name": "x", "points": [[1, 1], [2, 2]]}]}, "mindestens 3 Punkte"),
    ({"land": [{"name": "x", "points": [[1, 1], [2, "a"], [3, 1]]}]}, "mindestens 3 Punkte"),
    ({"land": [{"name": "x", "points": [[1, 1], [2, 99], [3, 1]]}]}, "mehr als 10 Felder"),
    ({"land": "Ostsee"}, "'coast' braucht eine Liste"),
])
def test_a_broken_coast_is_refused_in_german(coast, words):
    data = json.loads(Path(mapdata.__file__).with_name("westliche-ostsee.json").read_text(encoding="utf-8"))
    data["coast"] = coast
    with pytest.raises(mapdata.CampaignMapError, match=words):
        mapdata.parse_map(data)
