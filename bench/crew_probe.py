"""What stands between Schwer's helicopter crews and the enemy HQ (issue 16, Großer Belt), seen without fog.

    python bench/crew_probe.py --map grosser-belt --seed 53000 --schwer nordbund --every 3
    python bench/crew_probe.py --map grosser-belt --seed 53001 --schwer liga

Plays the self-play harness's game (Schwer against Normal, fog on, same seeds as
`python -m kaltfront selfplay`: game seed = --seed, AI seeds seed*2 and seed*2+1) and, at the start of
Schwer's move phase every --every rounds, reads the TRUE game state -- a diagnostic only; the AI never
sees this (R4, R20). It prints:
  * whether the enemy HQ is free and how many of its six neighbours are free (R35, R48: a Pionier
    put down on a free HQ takes it at once);
  * "stops": hexes from which a Transporthubschrauber reaches a free neighbour of the HQ in one move
    (7 hexes, flying round enemy units, R19) and where no enemy unit's anti-aircraft fire reaches it
    from where that unit stands (the enemy fires before it moves, R8; range R23, luft attack R25);
  * "seen": how many of those stops Schwer could tell apart from a trap, i.e. every hex within two of
    the stop is in its sight (Flugabwehr range 2, R20);
  * the enemy units within 7 hexes of its HQ, by type;
  * "crews": each helicopter with a Pionier aboard, its fuel and its true flying distance to a free
    hex beside the HQ round every enemy unit (session 22: 16-33 hexes on the Liga side while 100
    stops lay free of fire -- the enemy army walls the way, not its fire).
At the end: the share of probes with a free HQ, the median numbers of stops and seen stops, and the
median distance of the nearest crew.

Every round, whatever --every says, it also follows two things (session 23) and sums them up at the end:
  * "nights at a stop": each crew that ends Schwer's move phase with a true way of at most one move
    and the fuel for it, and what became of that way by Schwer's next move phase, after the enemy's
    attack and move phases: still open (the strike could go), longer, closed (a unit on the HQ, or
    every neighbour of it taken), or the crew lost;
  * "HQ held": at the start of each Schwer move phase, whether a unit stands on the enemy HQ (no
    Pionier can be put down on it, R35), and whether it was built there in the enemy's last move phase
    (R34) or moved onto it.
Session 24 added: whether the enemy saw the crew at its stop overnight (R20), and a line for each open
morning (round, crew, hex, way, fuel), so that a strike that should have followed can be replayed.
Session 25 added:
  * for each morning a crew's way was no longer open, who came overnight: the enemy units now on the
    HQ, beside it or beside the crew that did not stand there at night, built or moved in (and from
    how far);
  * "unseen by the enemy": of the stops in a probe, how many the enemy does not see (R20), with
    examples;
  * every night, all true stops where no crew stood, told apart by whether the enemy saw them, and
    how many of them still lay one move from a free hex beside the HQ the next morning: what a crew
    waiting there would have found, had the enemy not known of it.
Session 30 added, for each crew night at a stop, who of the enemy saw the crew: a unit Schwer saw
when its move phase ended (so it could have known), only units it did not see, or only the enemy's
buildings (`seen_by`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kaltfront  # noqa: E402
from kaltfront.ai.common import INF, UNITS, Geo, distance_field, terrain_ids  # noqa: E402
from kaltfront.ai.reference import make_player  # noqa: E402
from kaltfront.fog import sight as sight_of, visible  # noqa: E402

HELI_MOVE = UNITS["transporthubschrauber"]["move"]
MORNINGS = ("open", "longer", "HQ held", "every neighbour taken", "lost")  # what became of a night's way


def enemy_of(schwer: str) -> str:
    return "liga" if schwer == "nordbund" else "nordbund"


def enemy_hq(game, schwer: str) -> int:
    return next(b.at for b in game.buildings.values() if b.type == "hq" and b.owner == enemy_of(schwer))


def loaded_crews(game, schwer: str) -> list:
    """Schwer's Transporthubschrauber on the map with a Pionier aboard: the finishing crews."""
    return [u for u in game.units.values()
            if u.side == schwer and u.at is not None and u.type == "transporthubschrauber"
            and any(game.units[c].type == "pionier" for c in u.cargo)]


def aa_fire(game, schwer: str, geo: Geo) -> set[int]:
    """The hexes the enemy's anti-aircraft fire reaches from where its units stand (R8, R23, R25)."""
    fire: set[int] = set()
    for u in game.units.values():
        ut = UNITS[u.type]
        if u.side == enemy_of(schwer) and u.at is not None and ut["range"] and ut["attack"].get("luft"):
            fire.update(geo.ring(u.at, *ut["range"]))
    return fire


def true_stops(game, schwer: str, geo: Geo, way: list[int]) -> list[int]:
    """The hexes within one helicopter move of a free hex beside the HQ by `way`, out of the enemy's
    anti-aircraft fire and free: where a crew can wait for the strike."""
    taken = {u.at for u in game.units.values() if u.at is not None}
    fire = aa_fire(game, schwer, geo)
    return [h for h in range(geo.size) if way[h] <= HELI_MOVE and h not in fire and h not in taken]


def probe(game, schwer: str, geo: Geo) -> dict:
    """The crews' view of this position, from the true state (see the module docstring)."""
    enemy = enemy_of(schwer)
    hq = enemy_hq(game, schwer)
    foes = [u for u in game.units.values() if u.side == enemy and u.at is not None]
    taken = {u.at for u in game.units.values() if u.at is not None}
    free = [n for n in geo.nb[hq] if n not in taken]
    near: dict[str, int] = {}
    for u in foes:
        if geo.dist(u.at, hq) <= HELI_MOVE:
            near[u.type] = near.get(u.type, 0) + 1
    stops, seen, way, unseen = [], [], None, []
    if free:
        obs = game.observe(schwer)
        vis = obs["visible"]
        way = distance_field(geo, terrain_ids(obs), "luft", free, [u.at for u in foes if u.at != hq])
        stops = true_stops(game, schwer, geo, way)
        seen = [h for h in stops if all(vis[n // geo.w][n % geo.w] == "1" for n in geo.ring(h, 0, 2))]
        evis = game.observe(enemy)["visible"]
        unseen = [h for h in stops if evis[h // geo.w][h % geo.w] != "1"]
    crews = [(u.at, u.fuel, way[u.at] if way else None) for u in loaded_crews(game, schwer)]
    return {"hq_free": hq not in taken, "free": len(free), "stops": len(stops), "seen": len(seen),
            "unseen": len(unseen), "examples": [geo.hex(h) for h in unseen[:4]],
            "near": near, "crews": crews}


def true_way(game, schwer: str, geo: Geo) -> list[int] | None:
    """Flying distance to a free hex beside the enemy HQ round every enemy unit (R19); None while a
    unit stands on the HQ or every neighbour is taken."""
    enemy, hq = enemy_of(schwer), enemy_hq(game, schwer)
    taken = {u.at for u in game.units.values() if u.at is not None}
    free = [n for n in geo.nb[hq] if n not in taken]
    if hq in taken or not free:
        return None
    foes = [u.at for u in game.units.values() if u.side == enemy and u.at is not None]
    return distance_field(geo, terrain_ids(game.observe(schwer)), "luft", free, foes)


def crews_by_id(game, schwer: str, geo: Geo) -> list[tuple]:
    """(id, fuel, true way or None) of each Transporthubschrauber with a Pionier aboard."""
    way = true_way(game, schwer, geo)
    return [(u.id, u.fuel, None if way is None or way[u.at] >= INF else way[u.at])
            for u in loaded_crews(game, schwer)]


def who_came(game, schwer: str, geo: Geo, cid: int, before: dict[int, int | None]) -> str:
    """The enemy units that stand this morning on the enemy HQ, beside it or beside crew `cid`, and
    did not stand there at night (`before`: unit id -> hex, None aboard a transport): built
    overnight, put down from a transport, or moved in and from how far."""
    hq, crew = enemy_hq(game, schwer), game.units[cid].at
    out = []
    for u in sorted(game.units.values(), key=lambda x: x.id):
        if u.side != enemy_of(schwer) or u.at is None or before.get(u.id) == u.at:
            continue
        where = ("on the HQ" if u.at == hq else "beside the HQ" if geo.dist(u.at, hq) == 1
                 else "beside the crew" if geo.dist(u.at, crew) == 1 else None)
        if where:
            came = ("built" if u.id not in before else "unloaded" if before[u.id] is None
                    else f"moved {geo.dist(before[u.id], u.at)} hexes")
            out.append(f"{u.type} {where} ({came})")
    return "; ".join(out) or "nobody new"


def follow_night(game, schwer: str, geo: Geo, night: dict | None, nights: dict,
                 before: dict[int, int | None]) -> None:
    """What became of each crew that ended Schwer's last move phase at a stop (see the docstring);
    for a way no longer open, who came (`who_came`, from the enemy's positions at night)."""
    if not night:
        return
    now = {cid: (fuel, way) for cid, fuel, way in crews_by_id(game, schwer, geo)}
    hq = enemy_hq(game, schwer)
    hq_held = any(u.at == hq for u in game.units.values())
    for cid, (way, seen) in night.items():
        nights["seen" if seen else "unseen"] += 1
        if cid not in now:
            nights["lost"] += 1
            continue
        fuel, way_now = now[cid]
        at = geo.hex(game.units[cid].at)
        if way_now is not None and way_now <= HELI_MOVE and (fuel is None or fuel >= way_now):
            nights["open"] += 1
            nights["open though seen" if seen else "open unseen"] += 1
            print(f"R{game.round:2} open morning: crew {cid} at {at}, way {way_now}, "
                  f"fuel {fuel}, {'seen' if seen else 'unseen'} by the enemy overnight", flush=True)
            continue
        if way_now is None:
            nights["HQ held" if hq_held else "every neighbour taken"] += 1
        else:
            nights["longer"] += 1
        print(f"R{game.round:2} shut morning: crew {cid} at {at}, {'seen' if seen else 'unseen'} overnight; "
              f"came: {who_came(game, schwer, geo, cid, before)}", flush=True)


def seen_by(game, schwer: str, at: int) -> str:
    """Who of the enemy sees a crew at `at` (R20): "known" when one of the enemy units that see it
    stands where Schwer sees it, else "unknown" when only units Schwer does not see do, else
    "building" when only the enemy's buildings see it (owners are public: Schwer knows), else "".
    Session 30: a stop seen by units Schwer knew is one its crews could have kept out of."""
    en = enemy_of(schwer)
    mine = visible(game, schwer)
    units = [u.at for u in game.units_of(en) if u.at is not None
             and at in sight_of(game.grid, game.terrain, [(u.at, u.utype.vision)], [])]
    if any(h in mine for h in units):
        return "known"
    if units:
        return "unknown"
    blds = [b.at for b in game.buildings.values() if b.owner == en]
    return "building" if at in sight_of(game.grid, game.terrain, [], blds) else ""


def virtual_stops(game, schwer: str, geo: Geo, sight) -> dict:
    """The true stops at night (one move from a free hex beside the enemy HQ, out of the enemy's
    anti-aircraft fire, free), each with whether the enemy sees it: where a crew could have waited."""
    way = true_way(game, schwer, geo)
    return {} if way is None else {h: h in sight for h in true_stops(game, schwer, geo, way)}


def follow_virtual(game, schwer: str, geo: Geo, vstops: dict | None, v: dict) -> None:
    """Whether last night's true stops still lie one move from a free hex beside the HQ this morning."""
    if vstops is None:
        return
    v["nights"] += 1
    way = true_way(game, schwer, geo)
    opened = {h for h in vstops if way is not None and way[h] <= HELI_MOVE}
    unseen = [h for h, seen in vstops.items() if not seen]
    v["unseen"] += len(unseen)
    v["unseen open"] += sum(1 for h in unseen if h in opened)
    v["seen"] += len(vstops) - len(unseen)
    v["seen open"] += sum(1 for h, seen in vstops.items() if seen and h in opened)
    if unseen:
        v["nights with an unseen stop"] += 1
        v["nights with an unseen stop open"] += any(h in opened for h in unseen)


def count_held(game, schwer: str, before: dict[int, int | None], held: dict) -> None:
    """Whether a unit stands on the enemy HQ now, built there since Schwer's last move (not in `before`,
    the night's positions) or moved onto it."""
    hq = enemy_hq(game, schwer)
    held["phases"] += 1
    on = [u for u in game.units.values() if u.at == hq]
    if on:
        held["built there" if on[0].id not in before else "moved onto it"] += 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default="grosser-belt")
    ap.add_argument("--seed", type=int, default=53000)
    ap.add_argument("--schwer", choices=("nordbund", "liga"), default="nordbund")
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--max-rounds", type=int, default=60)
    args = ap.parse_args(argv)
    players = {"nordbund": "normal", "liga": "normal", args.schwer: "schwer"}
    game = kaltfront.new_game(args.map, seed=args.seed, fog=True)
    ais = {s: make_player(players[s], s, seed=args.seed * 2 + k) for k, s in enumerate(("nordbund", "liga"))}
    geo = Geo(game.width, game.height)
    probes, last = [], None
    # Every unit's hex when Schwer's move phase ended (None: aboard): what was there overnight.
    phase_key, night, night_pos = None, None, {u.id: u.at for u in game.units.values()}
    nights = dict.fromkeys(MORNINGS + ("seen", "unseen", "open though seen", "open unseen"), 0)
    seers = dict.fromkeys(("known", "unknown", "building", "nobody"), 0)  # who saw a crew at its stop
    held = {"phases": 0, "built there": 0, "moved onto it": 0}
    vstops, vnights = None, {"nights": 0, "unseen": 0, "unseen open": 0, "seen": 0, "seen open": 0,
                             "nights with an unseen stop": 0, "nights with an unseen stop open": 0}
    while game.outcome is None and game.round <= args.max_rounds:
        side = game.side
        key = (game.round, side, game.phase)
        if key != phase_key:
            phase_key = key
            if side == args.schwer and game.phase == "move":
                follow_night(game, args.schwer, geo, night, nights, night_pos)
                follow_virtual(game, args.schwer, geo, vstops, vnights)
                vstops = None
                count_held(game, args.schwer, night_pos, held)
                night = None
            elif side != args.schwer and game.phase == "attack":
                # Schwer's move phase has just ended: where its crews spend the night.
                # Whether the enemy saw the crew there (R20): seen, it may draw the enemy's units.
                sight = visible(game, enemy_of(args.schwer))
                night = {cid: (way, game.units[cid].at in sight)
                         for cid, fuel, way in crews_by_id(game, args.schwer, geo)
                         if way is not None and way <= HELI_MOVE and (fuel is None or fuel >= way)}
                for cid in night:
                    by = seen_by(game, args.schwer, game.units[cid].at)
                    seers[by or "nobody"] += 1
                night_pos = {u.id: u.at for u in game.units.values()}
                vstops = virtual_stops(game, args.schwer, geo, sight)
        if side == args.schwer and game.phase == "move" and game.round != last and game.round % args.every == 0:
            last = game.round
            p = probe(game, args.schwer, geo)
            probes.append(p)
            near = " ".join(f"{t}:{n}" for t, n in sorted(p["near"].items()))
            print(f"R{game.round:2} HQ {'free' if p['hq_free'] else 'held'}, {p['free']} of 6 beside it free, "
                  f"stops {p['stops']:3}, seen {p['seen']:2}, unseen by the enemy {p['unseen']:3} "
                  f"e.g. {p['examples']} | near the HQ: {near}", flush=True)
            crews = " ".join(f"{geo.hex(at)} fuel {fuel} way {'-' if d is None or d >= INF else d}"
                             for at, fuel, d in p["crews"])
            print(f"    crews: {crews or 'none loaded'}", flush=True)
        action = ais[side].next_action(game.observe(side))
        try:
            game.apply(action)
        except kaltfront.IllegalAction:
            game.apply({"type": "end_phase"})
    o = game.outcome
    print("end:", f"{o.winner} by {o.reason}, round {game.round}" if o else f"cap, round {game.round}")
    print(f"nights at a stop (a crew one move from a free hex beside the HQ, with the fuel): "
          f"{sum(nights[k] for k in MORNINGS)}; next morning the way was open {nights['open']}, longer {nights['longer']}, "
          f"closed with the HQ held {nights['HQ held']} or every neighbour taken "
          f"{nights['every neighbour taken']}, the crew lost {nights['lost']}")
    print(f"  the enemy saw the crew at its stop {nights['seen']} times (open next morning "
          f"{nights['open though seen']}), did not see it {nights['unseen']} times (open {nights['open unseen']})")
    print(f"  who saw a crew at its stop: an enemy unit Schwer saw {seers['known']}, only units it did not see "
          f"{seers['unknown']}, only enemy buildings {seers['building']}, nobody {seers['nobody']}")
    print(f"enemy HQ held at {held['built there'] + held['moved onto it']} of {held['phases']} Schwer move phases: "
          f"by a unit built there {held['built there']}, by one moved onto it {held['moved onto it']}")
    v = vnights
    share = 100 * v["unseen open"] / max(1, v["unseen"])
    print(f"stops the enemy did not see at night (true stops after Schwer's move, no crew there): "
          f"{v['unseen']} over {v['nights']} nights, open next morning {v['unseen open']} ({share:.0f} %); "
          f"stops it saw {v['seen']}, open {v['seen open']}; "
          f"nights with an unseen stop {v['nights with an unseen stop']}, "
          f"of them with one still open {v['nights with an unseen stop open']}")
    if probes:
        print(f"probes {len(probes)}: HQ free in {sum(p['hq_free'] for p in probes)}; median stops "
              f"{statistics.median(p['stops'] for p in probes)}, median seen stops "
              f"{statistics.median(p['seen'] for p in probes)}")
        # A crew walled in on every side (no way at all) is left out of the median.
        nearest = [min(d for _, _, d in p["crews"] if d is not None and d < INF) for p in probes
                   if any(d is not None and d < INF for _, _, d in p["crews"])]
        if nearest:
            print(f"nearest crew's true way to a free hex beside the HQ: median {statistics.median(nearest)} "
                  f"over {len(nearest)} probes (one move is {HELI_MOVE})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
