"""Fog of war and ambush (R20, R21, R46, R4): what a side sees, that unseen enemies cannot be attacked,
that the engine's answers leak nothing hidden, and that a hidden enemy on the path stops a move."""

from __future__ import annotations

from helpers import U, assert_illegal, end_phase, kinds, make, move, reach, unit_at

CORRIDOR = ["gggggggggggg", "============", "gggggggggggg"]


def seen(g, side):
    """Visible hexes as (col, row)."""
    return {(i % g.width, i // g.width) for i in g.visible(side)}


def ring(g, col, row, radius):
    c = row * g.width + col
    return {(i % g.width, i // g.width) for i in range(g.width * g.height) if g.grid.dist(c, i) <= radius}


def test_r20_units_see_their_vision_range():
    """R20: a Jäger (vision 2) sees exactly the hexes within 2; a Spähwagen (vision 4) within 4."""
    g = make(["." * 13] * 13, [U("nordbund", "jaeger", (6, 6)), U("liga", "jaeger", (0, 0))], fog=True)
    assert seen(g, "nordbund") == ring(g, 6, 6, 2)
    g = make(["." * 13] * 13, [U("nordbund", "spaehwagen", (6, 6)), U("liga", "jaeger", (0, 0))], fog=True)
    assert seen(g, "nordbund") == ring(g, 6, 6, 4)


def test_r20_sight_disc_is_every_hex_within_the_radius_in_map_order():
    """R20: a unit sees every hex at most its vision away. `Grid.within`, which sight is built from,
    gives exactly the hexes whose hex distance is within the radius, in index order, on maps of odd
    and even sizes, at the edges and corners, for radii 0 to 8 (a Drohne on a mountain sees 7)."""
    from kaltfront.hexgrid import Grid
    for width, height in ((1, 1), (2, 7), (5, 3), (12, 9), (17, 12)):
        grid = Grid(width, height)
        for centre in range(grid.size):
            for radius in range(-1, 9):
                assert grid.within(centre, radius) == [i for i in range(grid.size) if grid.dist(centre, i) <= radius]


def test_r20_hills_add_one_mountains_add_two():
    """R20: +1 on hills, +2 in mountains."""
    rows = ["." * 13] * 13
    hill = [r if k != 6 else "......h......" for k, r in enumerate(rows)]
    mountain = [r if k != 6 else "......g......" for k, r in enumerate(rows)]
    g = make(hill, [U("nordbund", "jaeger", (6, 6)), U("liga", "jaeger", (0, 0))], fog=True)
    assert seen(g, "nordbund") == ring(g, 6, 6, 3)
    g = make(mountain, [U("nordbund", "jaeger", (6, 6)), U("liga", "jaeger", (0, 0))], fog=True)
    assert seen(g, "nordbund") == ring(g, 6, 6, 4)


def test_r20_own_buildings_show_everything_within_two():
    """R20: each own building reveals every hex within 2; neutral and enemy buildings do not."""
    rows = ["." * 13] * 5 + ["S...........S"] + ["." * 13] * 7
    g = make(rows, [U("liga", "jaeger", (6, 12))], fog=True, owners={(0, 5): "nordbund", (12, 5): None})
    assert seen(g, "nordbund") == ring(g, 0, 5, 2)
    g = make(rows, [U("liga", "jaeger", (6, 12))], fog=True, owners={(0, 5): "nordbund", (12, 5): "liga"})
    assert seen(g, "nordbund") == ring(g, 0, 5, 2)


def test_r20_without_fog_everything_is_visible():
    """R3/R20: fog is a choice; without it the whole map is seen."""
    g = make(["." * 10] * 3, [U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (9, 2))], fog=False)
    assert len(g.visible("nordbund")) == 30
    assert all(ch == "1" for row in g.observe("nordbund")["visible"] for ch in row)


def test_r20_r22_an_unseen_enemy_cannot_be_attacked():
    """R20/R22: a Raketenwerfer (vision 2) cannot fire at an enemy 4 hexes away that nobody sees;
    once a Spähwagen sees it, it can."""
    units = [U("nordbund", "raketenwerfer", (0, 0)), U("liga", "jaeger", (4, 0))]
    g = make(["." * 10], units, fog=True, phase="attack")
    assert g.attack_options(1) == []
    assert not [a for a in g.legal_actions() if a.to_json()["type"] == "attack"]
    assert_illegal(g, {"type": "attack", "unit": 1, "target": [4, 0]}, "kein sichtbares Ziel")
    g = make(["." * 10], units + [U("nordbund", "spaehwagen", (1, 0))], fog=True, phase="attack")
    assert [o["target"] for o in g.attack_options(1)] == [[4, 0]]


def test_r20_r4_observe_hides_unseen_enemies_and_their_money():
    """R20/R4: the view a side gets (the UI's and the computer's only view) lists no hidden enemy and,
    under fog, not the enemy's balance."""
    g = make(["." * 10], [U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (2, 0)), U("liga", "kampfpanzer", (6, 0))],
             fog=True, money=(300, 700))
    obs = g.observe("nordbund")
    assert [u["id"] for u in obs["units"]] == [1, 2]
    assert obs["money"] == {"nordbund": 300}
    assert obs["visible"] == ["1110000000"]
    obs = make(["." * 10], [U("nordbund", "jaeger", (0, 0)), U("liga", "kampfpanzer", (6, 0))],
               fog=False, money=(300, 700)).observe("nordbund")
    assert obs["money"] == {"nordbund": 300, "liga": 700} and len(obs["units"]) == 2


def test_r46_cargo_invisible_and_enemy_cargo_not_shown():
    """R46: cargo is invisible; an enemy transport shows only that it is loaded (the marker)."""
    g = make(["." * 8], [U("nordbund", "jaeger", (0, 0)),
                         U("liga", "transporter", (1, 0), cargo=[U("liga", "jaeger"), U("liga", "pionier")])],
             fog=True)
    obs = g.observe("nordbund")
    enemy = [u for u in obs["units"] if u["side"] == "liga"]
    assert len(enemy) == 1 and enemy[0]["loaded"] == 2 and "cargo" not in enemy[0]
    own = g.observe("liga")
    truck = [u for u in own["units"] if u["id"] == 2][0]
    assert truck["loaded"] == 2 and [c["type"] for c in truck["cargo"]] == ["jaeger", "pionier"]
    assert all(u["id"] not in (3, 4) for u in own["units"])  # cargo is not on the map


def test_r46_cargo_gives_no_vision():
    """R46 (decision): cargo is off the map, so it sees nothing; only the transport's vision counts."""
    g = make(["." * 10], [U("nordbund", "schuetzenpanzer", (0, 0), cargo=[U("nordbund", "jaeger")]),
                          U("liga", "jaeger", (9, 0))], fog=True)
    assert seen(g, "nordbund") == {(c, 0) for c in range(4)}  # Schützenpanzer vision 3


def test_r21_ambush_stops_on_the_hex_before_the_hidden_enemy():
    """R21: a hidden enemy on the path stops the unit on the hex before it; its movement is spent and
    the fuel for the hexes it drove is used."""
    g = make(CORRIDOR, [U("nordbund", "kampfpanzer", (0, 1)), U("liga", "jaeger", (4, 1))], fog=True)
    assert (5, 1) in reach(g, 1)  # the hidden Jäger does not show in the search (no information leak)
    ev = move(g, 1, (5, 1))
    assert kinds(ev) == ["moved", "ambushed"]
    assert ev[1]["at"] == [3, 1] and ev[1]["by"] == [4, 1]
    assert unit_at(g, 3, 1).id == 1 and g.units[1].moved and g.units[1].fuel == 50 - 3
    assert g.reachable(1) == []
    assert_illegal(g, {"type": "move", "unit": 1, "to": [2, 1]}, "schon bewegt")


def test_r21_ambush_on_the_destination_itself():
    """R21: a hidden enemy on the chosen hex: the unit stops right before it."""
    g = make(CORRIDOR, [U("nordbund", "kampfpanzer", (0, 1)), U("liga", "jaeger", (4, 1))], fog=True)
    ev = move(g, 1, (4, 1))
    assert "ambushed" in kinds(ev) and unit_at(g, 3, 1).id == 1 and unit_at(g, 4, 1).side == "liga"


def test_r21_a_scout_sees_further_and_stops_later():
    """R21/R20: the Spähwagen (vision 4) sees up to 4 hexes ahead; an enemy on the 5th is hidden and
    stops it on the 4th. (An enemy next to any own unit is always seen: every vision is at least 2.)"""
    g = make(CORRIDOR, [U("nordbund", "spaehwagen", (0, 1), fuel=60), U("liga", "jaeger", (5, 1))], fog=True)
    assert (5, 1) not in seen(g, "nordbund") and (4, 1) in seen(g, "nordbund")
    ev = move(g, 1, (8, 1))
    assert unit_at(g, 4, 1).id == 1 and ev[-1]["type"] == "ambushed"


def test_r21_no_ambush_without_fog_the_enemy_simply_blocks():
    """R21/R16: without fog every enemy is seen, so it blocks instead of ambushing."""
    g = make(CORRIDOR, [U("nordbund", "kampfpanzer", (0, 1)), U("liga", "jaeger", (4, 1))], fog=False)
    assert reach(g, 1) == {(1, 1), (2, 1), (3, 1)}


def test_r21_events_under_fog_do_not_reveal_hidden_paths():
    """R20: the other side sees only the visible part of an enemy's move."""
    g = make(["." * 12], [U("nordbund", "jaeger", (0, 0)), U("liga", "jaeger", (11, 0))], fog=True)
    ev = move(g, 1, (3, 0))
    view = g.observe_events(ev, "liga")
    assert view == []  # nothing of it is near the liga Jäger (vision 2: hexes 9..11)
    end_phase(g)
    assert g.side == "liga"
