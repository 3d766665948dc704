"""Enemy fire zones (issue 13.2): where the enemies a side can see can fire next turn.

The attack phase comes before the move phase (R8–R11), so a unit that ends its move next to an enemy
is fired on before it can fire. For every visible enemy this answers: the hexes it can attack at the
start of its next turn from where it stands ("now": its range R23, its attack values per armour class
R25, its ammunition R31), the hexes it can reach in its move phase, and the hexes it could fire on
after that move ("after", i.e. in the turn after next). Expected damage is the engine's value without
the random part (R26, D2).

Only what the side can see is used (R20): a hidden enemy adds nothing, and it does not even shape a
visible enemy's reach (its hex counts as free), so the answer never depends on hidden units.
"""

from __future__ import annotations

from .combat import base_damage, clamp_damage, defence_twice
from .limits import show
from .movement import search
from .rulesdata import RULES, other_side

ARMOUR_CLASSES = ("weich", "hart", "luft", "see")


class FireZoneQuestionError(ValueError):
    """The question names no side, no own unit or no visible enemy; str(e) says why, in German."""


def _most_vulnerable() -> dict[str, object]:
    """Per armour class the unit type with the lowest base defence: "expected damage against this
    class" means against the most exposed unit of it, the figure a player should fear."""
    out = {}
    for ut in RULES.units.values():
        cur = out.get(ut.armour)
        if cur is None or ut.defence < cur.defence:
            out[ut.armour] = ut
    return out


def _ring(grid, centre: int, lo: int, hi: int) -> list[int]:
    return [i for i in grid.within(centre, hi) if grid.dist(centre, i) >= lo]


def _fire_from_region(grid, region: list[int], lo: int, hi: int) -> set[int]:
    """Every hex within [lo, hi] of some hex of `region`: a multi-source breadth-first search gives
    the nearest distance; hexes nearer than `lo` to the region need one hex of it far enough away."""
    nearest = {i: 0 for i in region}
    frontier = list(region)
    neighbours = grid.neighbours
    for d in range(1, hi + 1):
        nxt = []
        for i in frontier:
            for n in neighbours[i]:
                if n not in nearest:
                    nearest[n] = d
                    nxt.append(n)
        frontier = nxt
    if lo <= 0:
        return set(nearest)
    if lo == 1:  # only the region's own hexes are too close, unless another region hex is in range
        inside = set(region)
        out = {i for i, d in nearest.items() if d >= 1}
        neighbours = grid.neighbours
        for h in inside:  # a neighbour in the region is in range (hi >= 1); else look further
            if any(n in inside for n in neighbours[h]) or (
                    hi > 1 and any(j != h and j in inside for j in grid.within(h, hi))):
                out.add(h)
        return out
    # A hex within lo-1 of every region hex is too close for all of them; in cube coordinates that
    # is a box test on each axis (hex distance is the largest axis difference).
    cube = grid.cube
    k = lo - 1
    boxes = []
    for axis in range(3):
        vals = [cube[h][axis] for h in region]
        boxes.append((max(vals) - k, min(vals) + k))
    dist = grid.dist
    out = set()
    for i, d in nearest.items():
        if d >= lo:
            out.add(i)
            continue
        c = cube[i]
        if all(lo_a <= c[a] <= hi_a for a, (lo_a, hi_a) in enumerate(boxes)):
            continue
        if any(lo <= dist(i, h) <= hi for h in region):
            out.add(i)
    return out


def fire_zones(g, side: str, target=None, enemy: int | None = None) -> dict:
    """The fire zones of the enemies `side` can see (docs/api.md). `target`: an own unit id or a unit
    type, to get the expected damage against it on each hex under fire now. `enemy`: an enemy id, to
    get that unit's own hexes (reach, fire now, fire after moving) for the "tap on an enemy" view."""
    if side not in ("nordbund", "liga"):
        raise FireZoneQuestionError(f"Unbekannte Seite: {show(side)}.")
    foe = other_side(side)
    seen = g.visible(side)
    grid = g.grid
    enemies = [u for u in g.units_of(foe) if u.at in seen]
    tgt_type = tgt_level = None
    tgt_hp = RULES.start_hp
    if target is not None:
        if isinstance(target, str):
            if target not in RULES.units:
                raise FireZoneQuestionError(f"Es gibt keinen Einheitentyp {show(target)}.")
            tgt_type, tgt_level = RULES.units[target], 0
        else:
            t = g.units.get(target)
            if t is None or t.side != side:
                raise FireZoneQuestionError(f"Du hast keine Einheit mit der Nummer {target}.")
            tgt_type, tgt_level, tgt_hp = t.utype, t.level, t.hp
    vulnerable = _most_vulnerable()
    size = grid.size
    terrain_def = getattr(g, "_terrain_defence", None)  # terrain never changes during a game
    if terrain_def is None or len(terrain_def) != size:
        terrain_def = [RULES.terrain[t].defence for t in g.terrain]
        g._terrain_defence = terrain_def
    own_building = {i for i, b in g.buildings.items() if b.owner == side}
    width = g.width
    at_json = [[i % width, i // width] for i in range(size)]  # fresh lists: the reply may be changed
    memo: dict[tuple, int] = {}

    def expected(av: int, e, vt, level: int, i: int, cap: int) -> int:
        """Expected damage of `e` (value av) on a `vt` at level `level` standing on hex i (R26, D2)."""
        key = (av, e.hp, e.level, vt.id, level, terrain_def[i], i in own_building, cap)
        v = memo.get(key)
        if v is None:
            d2 = defence_twice(vt, level, terrain_def[i], i in own_building)
            v = memo[key] = clamp_damage(base_damage(av, e.hp, e.level, d2), cap)
        return v

    # Hidden enemies leave the board while we ask where the visible ones can go (see module doc).
    hidden = {i: uid for i, uid in g.board.items() if g.units[uid].side == foe and i not in seen}
    for i in hidden:
        del g.board[i]
    everything = frozenset(range(size))  # the moving enemy is stopped by every unit of `side`
    now: dict[int, list] = {}  # hex -> [count, {class: damage}, damage against target]
    after_count = [0] * size
    after_mask = [0] * size
    bit = {c: 1 << k for k, c in enumerate(ARMOUR_CLASSES)}
    listed = []
    try:
        for e in enemies:
            ut = e.utype
            attack = {c: v for c, v in ut.attack.items() if v is not None}
            entry = {"id": e.id, "type": e.type, "at": at_json[e.at], "hp": e.hp,
                     "attack": attack, "range": list(ut.range) if ut.range else None, "ammo": e.ammo}
            listed.append(entry)
            b = g.buildings.get(e.at)
            # Standing on an own building that supplies it, it starts its move phase full (R33).
            resupplied = b is not None and b.owner == foe and ut.movement in RULES.buildings[b.type].supplies
            armed = bool(attack) and ut.range is not None
            reach = []
            if armed or enemy == e.id:
                fuel = e.fuel
                if resupplied and fuel is not None:
                    e.fuel = ut.fuel
                try:
                    reach = search(g, e, everything).destinations
                finally:
                    e.fuel = fuel
            if not armed:
                fire_now, fire_after = [], set()
            else:
                lo, hi = ut.range
                armed_now = g.has_ammo(e)
                fire_now = _ring(grid, e.at, lo, hi) if armed_now else []
                fire_after = (_fire_from_region(grid, [e.at] + reach, lo, hi)
                              if armed_now or resupplied else set())
                # Expected damage on each hex it can fire on now, per armour class (R26, D2).
                tgt_av = attack.get(tgt_type.armour) if tgt_type is not None else None
                for i in fire_now:
                    cell = now.get(i)
                    if cell is None:
                        cell = now[i] = [0, {}, 0]
                    cell[0] += 1
                    classes = cell[1]
                    for cls, av in attack.items():
                        dmg = expected(av, e, vulnerable[cls], 0, i, RULES.start_hp)
                        classes[cls] = min(RULES.start_hp, classes.get(cls, 0) + dmg)
                    if tgt_av is not None:
                        cell[2] = min(tgt_hp, cell[2] + expected(tgt_av, e, tgt_type, tgt_level, i, tgt_hp))
                m = 0
                for c in attack:
                    m |= bit[c]
                for i in fire_after:
                    after_count[i] += 1
                    after_mask[i] |= m
            if enemy == e.id:
                entry["reach"] = [at_json[i] for i in reach]
                entry["now"] = [at_json[i] for i in sorted(fire_now)]
                entry["after"] = [at_json[i] for i in sorted(fire_after)]
    finally:
        for i, uid in hidden.items():
            g.board[i] = uid
    if enemy is not None and not any(x["id"] == enemy for x in listed):
        raise FireZoneQuestionError(f"Keine sichtbare feindliche Einheit mit der Nummer {enemy}.")
    out_now = []
    for i in sorted(now):
        count, classes, damage = now[i]
        item = {"at": at_json[i], "count": count, "classes": classes}
        if tgt_type is not None:
            item["damage"] = damage
        out_now.append(item)
    names = [[c for c in ARMOUR_CLASSES if m & bit[c]] for m in range(16)]
    out_after = [{"at": at_json[i], "count": after_count[i], "classes": names[after_mask[i]]}
                 for i in range(size) if after_count[i]]
    return {"side": side, "target": (tgt_type.id if tgt_type is not None else None),
            "enemies": listed, "now": out_now, "after": out_after}
