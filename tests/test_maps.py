"""Tests for the shipped maps (kaltfront/maps/*.map): the six Blitz maps of R65-R71 and the standard
scenarios (R1, R50, R58).

Every map must load, have one HQ per side (R36), start units on terrain they may enter (R14, R17) and
let each side reach the other's HQ with units it can build (R2, R48). Each map has a test for its named
geographic features: the Fehmarnsund bridge, the fjord head at Flensburg, the ferry line Schaprode-Vitte
(D7), the two bridges over the Guldborgsund ... Reachability is a small breadth-first search over the
terrain costs in data/rules.json, written here so the test does not depend on the engine's movement code.
"""

from __future__ import annotations

from collections import Counter, deque

import pytest

from kaltfront.hexgrid import Hex, distance, neighbours
from kaltfront.mapfile import Scenario, load_scenario, scenario_ids
from kaltfront.rulesdata import RULES, SIDES

# Blitz maps of R65 with their HQ towns (first named = Nordbund, second = Baltische Liga).
BLITZ_HQ = {
    "fehmarnsund": ("Burg", "Heiligenhafen"),
    "flensburger-foerde": ("Flensburg", "Sønderborg"),
    "bornholm": ("Rønne", "Nexø"),
    "ruegen-hiddensee": ("Bergen", "Sassnitz"),
    "usedom": ("Peenemünde", "Świnoujście"),
    "lolland-falster": ("Nakskov", "Nykøbing"),
}
DEV_MAPS = {"uebungsplatz"}  # the engine's small test map; neither Blitz nor a standard scenario
STANDARD = sorted(set(scenario_ids()) - set(BLITZ_HQ) - DEV_MAPS)
LAND_CLASSES = ("fuss", "rad", "kette")


# ----------------------------------------------------------------------------------------------------
# helpers

def terrain(sc: Scenario, h: Hex) -> str:
    return sc.terrain[h.row * sc.width + h.col]


def on_map(sc: Scenario, h: Hex) -> bool:
    return 0 <= h.col < sc.width and 0 <= h.row < sc.height


def nbrs(sc: Scenario, h: Hex) -> list[Hex]:
    return [n for n in neighbours(h) if on_map(sc, n)]


def hexes(sc: Scenario, *terrain_ids: str) -> list[Hex]:
    return [Hex(i % sc.width, i // sc.width) for i, t in enumerate(sc.terrain) if t in terrain_ids]


def enterable(sc: Scenario, h: Hex, mclass: str) -> bool:
    return RULES.terrain[terrain(sc, h)].cost[mclass] is not None


def is_water(tid: str) -> bool:
    return RULES.terrain[tid].water


def reach(sc: Scenario, starts, mclass: str, blocked=frozenset()) -> set[Hex]:
    """Hexes a unit of movement class `mclass` can ever get to from `starts` (any number of turns)."""
    seen = {s for s in starts if s not in blocked}
    todo = deque(seen)
    while todo:
        h = todo.popleft()
        for n in nbrs(sc, h):
            if n not in seen and n not in blocked and enterable(sc, n, mclass):
                seen.add(n)
                todo.append(n)
    return seen


def hq(sc: Scenario, side: str):
    (b,) = [b for b in sc.buildings if b.type == "hq" and b.owner == side]
    return b


def building(sc: Scenario, name: str):
    found = [b for b in sc.buildings if b.name == name]
    assert len(found) == 1, f"{sc.id}: building {name!r} found {len(found)} times"
    return found[0]


def producers(sc: Scenario, side: str) -> dict[str, list[Hex]]:
    """Movement class -> hexes of the side's own buildings that produce it (R34, D5)."""
    out: dict[str, list[Hex]] = {}
    for b in sc.buildings:
        if b.owner == side:
            for mclass in RULES.buildings[b.type].produces:
                out.setdefault(mclass, []).append(b.at)
    return out


def crossings(sc: Scenario, *terrain_ids: str) -> list[set[Hex]]:
    """Connected groups of bridge or ferry-line hexes: each group is one crossing."""
    todo = set(hexes(sc, *terrain_ids))
    groups = []
    while todo:
        start = todo.pop()
        group, queue = {start}, deque([start])
        while queue:
            h = queue.popleft()
            for n in nbrs(sc, h):
                if n in todo:
                    todo.discard(n)
                    group.add(n)
                    queue.append(n)
        groups.append(group)
    return groups


def land_reaches_enemy_hq(sc: Scenario, side: str, blocked=frozenset()) -> bool:
    """A land unit the side can build (R34) can drive from where it is built to the enemy HQ."""
    target = hq(sc, "liga" if side == "nordbund" else "nordbund").at
    for mclass, spots in producers(sc, side).items():
        if mclass in LAND_CLASSES and target in reach(sc, spots, mclass, blocked):
            return True
    return False


def sea_reaches_enemy_hq(sc: Scenario, side: str) -> bool:
    """Foot units from the own HQ board a Landungsboot in coastal water or a port (R42, D6), the boat
    built in an own Hafen sails there and on to a coast from which the foot units walk to the enemy HQ."""
    spots = producers(sc, side)
    if "see" not in spots or "fuss" not in spots:
        return False
    target = hq(sc, "liga" if side == "nordbund" else "nordbund").at
    sea = reach(sc, spots["see"], "see")
    boarding_ok = {"kueste", "hafen"}
    own_foot = reach(sc, spots["fuss"], "fuss")
    boarding = {w for w in sea if terrain(sc, w) in boarding_ok
                and (w in own_foot or any(n in own_foot for n in nbrs(sc, w)))}
    if not boarding:
        return False
    # hexes from which foot units can walk to the enemy HQ
    walk_back = reach(sc, [target], "fuss")
    landing = {w for w in sea if terrain(sc, w) in boarding_ok
               and (w in walk_back or any(n in walk_back for n in nbrs(sc, w)))}
    return bool(landing)


# ----------------------------------------------------------------------------------------------------
# every map

@pytest.mark.parametrize("sid", scenario_ids())
def test_every_map_loads_with_one_hq_per_side(sid):
    """R36: exactly one HQ per side, owned by it (the loader checks it; the test names the rule)."""
    sc = load_scenario(sid)
    for side in SIDES:
        assert hq(sc, side).owner == side
    assert sc.name and sc.width > 0 and sc.height > 0


@pytest.mark.parametrize("sid", scenario_ids())
def test_units_stand_on_terrain_they_may_enter(sid):
    """R14/R17: every start unit stands on terrain its movement class may enter; cargo rides along."""
    sc = load_scenario(sid)
    seen = set()
    for u in sc.units:
        mclass = RULES.units[u.type].movement
        assert enterable(sc, u.at, mclass), f"{sid}: {u.type} on {terrain(sc, u.at)} at {u.at}"
        assert u.at not in seen
        seen.add(u.at)


@pytest.mark.parametrize("sid", sorted(set(scenario_ids()) - DEV_MAPS))
def test_every_shore_has_coastal_water(sid):
    """R42: the Landungsboot loads and unloads in coastal water, so no open-sea hex touches land."""
    sc = load_scenario(sid)
    for h in hexes(sc, "see"):
        for n in nbrs(sc, h):
            assert is_water(terrain(sc, n)), f"{sid}: open sea at {h} touches land at {n}"


@pytest.mark.parametrize("sid", sorted(set(scenario_ids()) - DEV_MAPS))
def test_buildings_carry_real_town_names(sid):
    """R32: buildings are named (the game shows the names); every name is unique on its map."""
    sc = load_scenario(sid)
    names = [b.name for b in sc.buildings]
    assert all(names), f"{sid}: unnamed building"
    assert len(names) == len(set(names)), f"{sid}: duplicate building name"


@pytest.mark.parametrize("sid", sorted(set(scenario_ids()) - DEV_MAPS))
def test_each_side_can_reach_the_enemy_hq(sid):
    """R2/R48: each side can reach the other's HQ with units it can build: by land (roads, bridges,
    ferry lines) on Blitz maps, by land or by sea transport on the standard maps."""
    sc = load_scenario(sid)
    for side in SIDES:
        if sc.blitz:
            assert land_reaches_enemy_hq(sc, side), f"{sid}: {side} cannot drive to the enemy HQ"
        else:
            assert land_reaches_enemy_hq(sc, side) or sea_reaches_enemy_hq(sc, side), sid


# ----------------------------------------------------------------------------------------------------
# Blitz (R65-R71)

def test_blitz_maps_are_exactly_the_six_of_r65():
    """R65: the six Blitz maps with their fixed scenario ids (share links and saves use them)."""
    blitz = sorted(sid for sid in scenario_ids() if load_scenario(sid).blitz)
    assert blitz == sorted(BLITZ_HQ)


@pytest.mark.parametrize("sid", sorted(BLITZ_HQ))
def test_blitz_settings_r66_r71(sid):
    """R66: 10 rounds; R71: 600 money each; the map says blitz = true."""
    sc = load_scenario(sid)
    assert sc.blitz is True
    assert sc.round_limit == 10 == RULES.blitz_rounds
    assert sc.money == {"nordbund": 600, "liga": 600}
    assert sc.briefing and all(sc.objectives[s] for s in SIDES)
    assert sc.region == "Ostsee"


@pytest.mark.parametrize("sid", sorted(BLITZ_HQ))
def test_blitz_hq_towns(sid):
    """R65: the named HQ towns, Nordbund first."""
    sc = load_scenario(sid)
    north, league = BLITZ_HQ[sid]
    assert hq(sc, "nordbund").name == north
    assert hq(sc, "liga").name == league


@pytest.mark.parametrize("sid", sorted(BLITZ_HQ))
def test_blitz_start_army_r71(sid):
    """R71: each side starts with two Jäger, a Spähwagen, a Schützenpanzer, a Kampfpanzer and a
    Panzerhaubitze, placed near its own HQ."""
    sc = load_scenario(sid)
    for side in SIDES:
        units = [u for u in sc.units if u.side == side]
        assert Counter(u.type for u in units) == Counter(RULES.blitz_start_army)
        home = hq(sc, side).at
        for u in units:
            assert distance(u.at, home) <= 3, f"{sid}: {side} {u.type} at {u.at} is far from its HQ"
            assert not u.cargo


@pytest.mark.parametrize("sid", sorted(BLITZ_HQ))
def test_blitz_ground_units_only_no_ports_or_airfields_r69(sid):
    """R69: no Hafen and no Flugplatz on Blitz maps, and only the five Blitz units."""
    sc = load_scenario(sid)
    assert not [b for b in sc.buildings if b.type in ("hafen", "flugplatz")]
    assert {u.type for u in sc.units} <= set(RULES.blitz_buildable)


@pytest.mark.parametrize("sid", sorted(BLITZ_HQ))
def test_blitz_production_builds_all_five_units_r69(sid):
    """R69/R34: each side owns production for all five Blitz units (HQ: Jäger; Werk: Spähwagen and the
    tracked units), and its Werk is connected by land to its HQ."""
    sc = load_scenario(sid)
    for side in SIDES:
        spots = producers(sc, side)
        for utype in RULES.blitz_buildable:
            assert RULES.units[utype].movement in spots, f"{sid}: {side} cannot build {utype}"
        werke = [b.at for b in sc.buildings if b.owner == side and b.type == "werk"]
        assert werke
        home = reach(sc, [hq(sc, side).at], "kette")
        assert all(w in home for w in werke)


@pytest.mark.parametrize("sid", sorted(BLITZ_HQ))
def test_blitz_has_neutral_buildings_to_take(sid):
    """R71: neutral buildings to capture; at least three, so the round-limit count (R50) matters."""
    sc = load_scenario(sid)
    assert len([b for b in sc.buildings if b.owner is None]) >= 3


@pytest.mark.parametrize("sid", sorted(BLITZ_HQ))
def test_blitz_neutral_buildings_at_the_crossings_r71(sid):
    """R71: every bridge or ferry line that alone opens the way to buildings has a neutral building
    within two hexes of it."""
    sc = load_scenario(sid)
    neutral = [b.at for b in sc.buildings if b.owner is None]
    for group in crossings(sc, "bruecke", "faehrlinie"):
        without = frozenset(group)
        ends = {n for h in group for n in nbrs(sc, h) if n not in group and not is_water(terrain(sc, n))}
        parts = []
        for e in ends:
            if not any(e in p for p in parts):
                parts.append(reach(sc, [e], "fuss", without))
        with_buildings = [p for p in parts if any(b.at in p for b in sc.buildings)]
        if len(parts) > 1 and len(with_buildings) > 1:
            assert any(distance(n, h) <= 2 for n in neutral for h in group), \
                f"{sid}: no neutral building near the crossing at {sorted(group)}"


@pytest.mark.parametrize("sid", sorted(BLITZ_HQ))
def test_blitz_size_is_small(sid):
    """R65: a game of about ten minutes: small maps, and the HQs a few turns of driving apart."""
    sc = load_scenario(sid)
    assert 14 <= sc.width <= 24 and 12 <= sc.height <= 22
    assert sc.width * sc.height <= 450


# ---- named features, one test per map

def test_fehmarnsund_bridge_is_the_only_land_link():
    """R65: Burg on Fehmarn against Heiligenhafen on the mainland; the Fehmarnsund bridge is the one
    land link: without its hexes a tracked unit cannot get from one HQ to the other."""
    sc = load_scenario("fehmarnsund")
    burg, heiligenhafen = hq(sc, "nordbund").at, hq(sc, "liga").at
    bridges = hexes(sc, "bruecke")
    assert bridges, "no Fehmarnsund bridge"
    assert heiligenhafen in reach(sc, [burg], "kette")
    island = reach(sc, [burg], "kette", frozenset(bridges))
    mainland = reach(sc, [heiligenhafen], "kette", frozenset(bridges))
    assert heiligenhafen not in island
    for b in bridges:  # every bridge hex joins the island and the mainland
        assert any(n in island for n in nbrs(sc, b)) and any(n in mainland for n in nbrs(sc, b))
    # Burg is on the island (north of the sund), Heiligenhafen south of it
    assert burg.row < min(b.row for b in bridges) < heiligenhafen.row
    # the bridgeheads Fehmarnsund (island) and Großenbrode (mainland) are neutral
    assert building(sc, "Fehmarnsund").at in island and building(sc, "Fehmarnsund").owner is None
    assert building(sc, "Großenbrode").at in mainland and building(sc, "Großenbrode").owner is None


def test_flensburger_foerde_fjord_separates_the_sides_except_at_the_head():
    """R65: Flensburg at the head of the fjord, Sønderborg on Als. North and south shore meet only
    round the fjord head (south of its last water hex); Als hangs on the Als Sund bridge."""
    sc = load_scenario("flensburger-foerde")
    flensburg, soenderborg = hq(sc, "nordbund").at, hq(sc, "liga").at
    # the fjord: the water body next to Flensburg, open to the sea
    head = [n for n in nbrs(sc, flensburg) if is_water(terrain(sc, n))]
    assert head, "Flensburg must lie on the fjord"
    fjord = reach(sc, head, "see")
    assert any(terrain(sc, w) == "see" for w in fjord), "the fjord must open to the Baltic"
    head_row = max(w.row for w in fjord if w.col <= flensburg.col + 2)
    south_of_head = frozenset(h for h in hexes(sc, *[t for t in RULES.terrain if not is_water(t)])
                              if h.row > head_row)
    north_shore, south_shore = building(sc, "Kruså").at, building(sc, "Glücksburg").at
    assert south_shore in reach(sc, [north_shore], "kette")
    assert south_shore not in reach(sc, [north_shore], "kette", south_of_head), \
        "the fjord must separate Angeln from the north shore except round its head"
    # Als (with Sønderborg) is reached only over the bridges
    bridges = frozenset(hexes(sc, "bruecke"))
    assert soenderborg in reach(sc, [flensburg], "kette")
    assert soenderborg not in reach(sc, [flensburg], "kette", bridges)
    als_bridge = [b for b in bridges if distance(b, soenderborg) == 1]
    assert als_bridge, "the Als Sund bridge must end at Sønderborg"
    assert building(sc, "Dybbøl").owner is None and distance(building(sc, "Dybbøl").at, als_bridge[0]) == 1


def test_bornholm_is_one_island_with_both_hqs():
    """R65: Rønne (west coast) against Nexø (east coast) on one island, with hills and forest in
    the middle (Almindingen, Rytterknægten)."""
    sc = load_scenario("bornholm")
    roenne, nexoe = hq(sc, "nordbund").at, hq(sc, "liga").at
    land = [h for h in hexes(sc, *[t for t in RULES.terrain if not is_water(t)])]
    island = reach(sc, [roenne], "fuss")
    assert set(land) <= island, "Bornholm is a single island"
    assert nexoe in reach(sc, [roenne], "kette")
    assert not any(h.col in (0, sc.width - 1) or h.row in (0, sc.height - 1) for h in land), \
        "the sea surrounds the island"
    assert roenne.col < nexoe.col - 8, "Rønne lies west, Nexø east"
    assert not hexes(sc, "bruecke", "faehrlinie")
    middle = [h for h in land if distance(h, roenne) > 3 and distance(h, nexoe) > 3]
    assert any(terrain(sc, h) == "huegel" for h in middle) and any(terrain(sc, h) == "wald" for h in middle)


def test_ruegen_ferry_line_schaprode_vitte_reaches_hiddensee():
    """R65/D7: Hiddensee (with Vitte) is reached only over the ferry line Schaprode-Vitte, a line of
    ferry-line hexes that ground units cross like a road."""
    sc = load_scenario("ruegen-hiddensee")
    schaprode, vitte = building(sc, "Schaprode"), building(sc, "Vitte")
    bergen, sassnitz = hq(sc, "nordbund").at, hq(sc, "liga").at
    ferry = [g for g in crossings(sc, "faehrlinie")
             if any(distance(h, schaprode.at) == 1 for h in g) and any(distance(h, vitte.at) == 1 for h in g)]
    assert len(ferry) == 1, "one ferry line from Schaprode to Vitte"
    line = frozenset(ferry[0])
    hiddensee = reach(sc, [vitte.at], "kette", line)
    assert bergen not in hiddensee and sassnitz not in hiddensee, "Hiddensee is an island"
    assert vitte.owner is None and vitte.at in hiddensee
    for side in SIDES:
        assert vitte.at in reach(sc, [hq(sc, side).at], "kette"), f"{side} cannot cross to Hiddensee"
    # Sassnitz on Jasmund, Bergen in the middle of Rügen: connected by land (Lietzow, Schmale Heide)
    assert sassnitz in reach(sc, [bergen], "kette", frozenset(hexes(sc, "faehrlinie")))


def test_usedom_routes_and_swina_ferry():
    """R65: Peenemünde (north-west) against Świnoujście (south-east on the Świna). The coast road over
    the Koserow narrows and the route over the Wolgast and Zecherin bridges both link the HQs; a ferry
    line crosses the Świna to Warszów."""
    sc = load_scenario("usedom")
    peenemuende, swinoujscie = hq(sc, "nordbund").at, hq(sc, "liga").at
    assert peenemuende.row < swinoujscie.row and peenemuende.col < swinoujscie.col
    bridges = frozenset(hexes(sc, "bruecke"))
    koserow = frozenset([building(sc, "Koserow").at])
    assert swinoujscie in reach(sc, [peenemuende], "kette", bridges), "coast road over Koserow"
    assert swinoujscie in reach(sc, [peenemuende], "kette", koserow), "route over the Peene bridges"
    assert swinoujscie not in reach(sc, [peenemuende], "kette", bridges | koserow)
    assert len(crossings(sc, "bruecke")) == 2  # Wolgast and Zecherin
    warszow = building(sc, "Warszów")
    swina = [g for g in crossings(sc, "faehrlinie") if any(distance(h, swinoujscie) == 1 for h in g)]
    assert len(swina) == 1
    assert warszow.at not in reach(sc, [swinoujscie], "kette", frozenset(swina[0]))
    assert warszow.at in reach(sc, [swinoujscie], "kette")


def test_lolland_falster_two_bridges_over_the_guldborgsund():
    """R65: Nakskov (Lolland) against Nykøbing (Falster): exactly two bridge crossings over the
    Guldborgsund, and each one alone connects the islands."""
    sc = load_scenario("lolland-falster")
    nakskov, nykoebing = hq(sc, "nordbund").at, hq(sc, "liga").at
    groups = crossings(sc, "bruecke")
    assert len(groups) == 2
    everything = frozenset(h for g in groups for h in g)
    assert nykoebing not in reach(sc, [nakskov], "kette", everything), "Lolland and Falster are islands"
    for g in groups:
        others = everything - g
        assert nykoebing in reach(sc, [nakskov], "kette", others), f"bridge {sorted(g)} alone must connect"
    assert not hexes(sc, "faehrlinie")
    # the Lolland ends of the bridges are the neutral towns Guldborg and Sundby
    for name in ("Guldborg", "Sundby"):
        b = building(sc, name)
        assert b.owner is None and any(distance(b.at, h) == 1 for h in everything)
    assert nakskov.col < nykoebing.col - 10, "Nakskov on Lolland's west coast, Nykøbing far east"


# ----------------------------------------------------------------------------------------------------
# standard scenarios

def test_there_are_at_least_four_standard_scenarios():
    assert len(STANDARD) >= 4


@pytest.mark.parametrize("sid", STANDARD)
def test_standard_scenario_size_and_texts_r58(sid):
    """R58: German name, one-paragraph briefing and each side's objective; around 30x20 or larger."""
    sc = load_scenario(sid)
    assert not sc.blitz
    assert 30 <= sc.width <= 40 and 20 <= sc.height <= 30
    assert len(sc.briefing) > 80 and "\n" not in sc.briefing
    for side in SIDES:
        assert "HQ" in sc.objectives[side]
    assert sc.region in ("Ostsee", "Nordsee")
    assert sc.money["nordbund"] >= 1000 and sc.money["liga"] >= 1000


def test_standard_scenarios_regions_and_round_limits_r50():
    """At least one on the North Sea and the rest on the Baltic; some with a round limit (R50), some
    without."""
    scs = [load_scenario(s) for s in STANDARD]
    regions = Counter(s.region for s in scs)
    assert regions["Nordsee"] >= 1 and regions["Ostsee"] >= 1
    assert regions["Nordsee"] + regions["Ostsee"] == len(scs)
    assert any(s.round_limit is None for s in scs) and any(s.round_limit for s in scs)


def test_standard_scenarios_use_all_19_units():
    """R38/D1: between them the standard scenarios field all 19 unit types (cargo included)."""
    seen = set()
    for sid in STANDARD:
        for u in load_scenario(sid).units:
            seen.add(u.type)
            seen.update(u.cargo)
    assert seen == set(RULES.units), f"missing: {sorted(set(RULES.units) - seen)}"


@pytest.mark.parametrize("sid", STANDARD)
def test_standard_buildings_for_both_sides(sid):
    """D5: each side has an HQ, a Werk, a Flugplatz and a Hafen; the map has a Depot and Städte."""
    sc = load_scenario(sid)
    for side in SIDES:
        own = Counter(b.type for b in sc.buildings if b.owner == side)
        for btype in ("hq", "werk", "flugplatz", "hafen"):
            assert own[btype] >= 1, f"{sid}: {side} has no {btype}"
    kinds = Counter(b.type for b in sc.buildings)
    assert kinds["depot"] >= 1 and kinds["stadt"] >= 4


@pytest.mark.parametrize("sid", STANDARD)
def test_ports_open_to_the_sea(sid):
    """R43: ships built in a Hafen can leave it: every port touches water from which ships reach the
    open sea, and the ports of both sides are joined by water."""
    sc = load_scenario(sid)
    ports = [b for b in sc.buildings if b.type == "hafen"]
    for p in ports:
        assert any(is_water(terrain(sc, n)) for n in nbrs(sc, p.at)), f"{sid}: {p.name} is inland"
        sea = reach(sc, [p.at], "see")
        assert any(terrain(sc, w) == "see" for w in sea), f"{sid}: {p.name} is cut off from the sea"
    for side in SIDES:
        own = [p.at for p in ports if p.owner == side]
        enemy = [p.at for p in ports if p.owner not in (side, None)]
        sea = reach(sc, own, "see")
        assert all(e in sea for e in enemy)


@pytest.mark.parametrize("sid", STANDARD)
def test_start_units_sensible(sid):
    """Ships start on water or in a port, aircraft on land or an airfield; both sides field a
    comparable force (unit value within 25 %, D8)."""
    sc = load_scenario(sid)
    value = Counter()
    for u in sc.units:
        ut = RULES.units[u.type]
        t = terrain(sc, u.at)
        if ut.movement == "see":
            assert is_water(t) or t == "hafen", f"{sid}: ship {u.type} on {t}"
        if ut.movement == "luft":
            assert not is_water(t), f"{sid}: aircraft {u.type} over water at {u.at}"
        value[u.side] += ut.cost + sum(RULES.units[c].cost for c in u.cargo)
    lo, hi = sorted(value[s] for s in SIDES)
    assert lo >= 0.75 * hi


@pytest.mark.parametrize("sid", STANDARD)
def test_standard_land_and_sea_fronts(sid):
    """Each side can reach the enemy HQ by sea transport (Landungsboot from an own Hafen), so the
    scenarios use their ports and landing craft."""
    sc = load_scenario(sid)
    for side in SIDES:
        assert sea_reaches_enemy_hq(sc, side), f"{sid}: {side} cannot land near the enemy HQ"


# ----------------------------------------------------------------------------------------------------
# preview

@pytest.mark.parametrize("sid", scenario_ids())
def test_preview_draws_every_map(sid):
    """`python -m kaltfront preview MAP --out FILE`: one hexagon per hex, every building name, the HQ
    labels (R37) and the title end up in the SVG."""
    from kaltfront.preview import render_svg
    sc = load_scenario(sid)
    svg = render_svg(sc)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<polygon") >= sc.width * sc.height
    for b in sc.buildings:
        assert b.name.replace("&", "&amp;") in svg
    assert "HQ Nordbund" in svg and "HQ Baltische Liga" in svg and sc.name in svg


def test_preview_command_writes_svg(tmp_path):
    from kaltfront.preview import main
    out = tmp_path / "map.svg"
    assert main(["bornholm", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<svg")
    assert main(["keine-karte", "--out", str(out)]) == 2
