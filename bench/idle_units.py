"""Count idle units of one player in seeded self-play (issue 16: "every unit with a purpose each turn").

    python bench/idle_units.py --map lolland-falster,kieler-bucht --player schwer --vs normal --games 4 --seed 100 --fog
    python bench/idle_units.py --map all-blitz --games 12 --seed 100 --fog --swap --list

A unit is *idle* in a turn when it neither moved (moved, boarded or was put down) nor attacked during
its side's whole turn although it had something to do within reach at the start of the turn: a
visible enemy unit within its move plus its longest range (hex distance), or a building not yet its
side's within its move. Units aboard a transport, units built this turn and units lost in the turn are
not counted; a unit standing on one of its side's buildings is counted apart (`on own building`), as
it may be guarding it. Same games as `python -m kaltfront selfplay` (game seed = seed + k, AI seeds
(seed + k) * 2 and * 2 + 1; with --swap every second game the other sides), so a figure before and
after a change compares the same openings. Prints per game and a total: idle unit-turns per player
turn, by unit type.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kaltfront  # noqa: E402
from kaltfront.ai.common import UNITS, Geo  # noqa: E402
from kaltfront.ai.reference import make_player  # noqa: E402
from kaltfront.selfplay import blitz_maps  # noqa: E402


def start_of_turn(obs: dict, side: str, geo: Geo) -> dict[int, tuple]:
    """Own units on the map at the start of a turn -> (type, hex index, has something in reach,
    stands on an own building)."""
    enemies = [geo.idx(u["at"]) for u in obs["units"] if u["side"] != side]
    not_ours = [geo.idx(b["at"]) for b in obs["buildings"] if b["owner"] != side]
    ours = {geo.idx(b["at"]) for b in obs["buildings"] if b["owner"] == side}
    out = {}
    for u in obs["units"]:
        if u["side"] != side:
            continue
        ut = UNITS[u["type"]]
        h = geo.idx(u["at"])
        reach = ut["move"] + (ut["range"][1] if ut["range"] else 0)
        busy = any(geo.dist(h, e) <= reach for e in enemies) or any(geo.dist(h, b) <= ut["move"] for b in not_ours)
        out[u["id"]] = (u["type"], h, busy, h in ours)
    return out


def play_counting(map_id: str, players: dict, seed: int, fog: bool, watch: str, max_rounds: int,
                  listing: bool) -> dict:
    game = kaltfront.new_game(map_id, seed=seed, fog=fog)
    ais = {side: make_player(players[side], side, seed=seed * 2 + k) for k, side in enumerate(("nordbund", "liga"))}
    geo = Geo(game.observe("nordbund")["width"], game.observe("nordbund")["height"])
    sides = [s for s in ("nordbund", "liga") if players[s] == watch][:1]
    stats = {"turns": 0, "idle": 0, "idle_on_own": 0, "units": 0, "by_type": {}, "lines": []}
    start = None
    acted: set[int] = set()
    turn_side = None

    def close_turn(rnd: int) -> None:
        if start is None:
            return
        alive = {u["id"] for u in game.observe(turn_side)["units"] if u["side"] == turn_side}
        stats["turns"] += 1
        for uid, (utype, h, busy, on_own) in sorted(start.items()):
            if uid not in alive:
                continue
            stats["units"] += 1
            if uid in acted or not busy:
                continue
            if on_own:
                stats["idle_on_own"] += 1
                continue
            stats["idle"] += 1
            stats["by_type"][utype] = stats["by_type"].get(utype, 0) + 1
            if listing:
                stats["lines"].append(f"    R{rnd:2} {utype} at {list(geo.hex(h))}")

    n = 0
    while game.outcome is None and game.round <= max_rounds and n < 20000:
        side = game.side
        if side != turn_side:
            if turn_side in sides:
                close_turn(game.round if side == game.first else game.round)
            turn_side, start, acted = side, None, set()
            if side in sides:
                start = start_of_turn(game.observe(side), side, geo)
        a = ais[side].next_action(game.observe(side))
        try:
            game.apply(a)
        except kaltfront.IllegalAction:
            game.apply({"type": "end_phase"})
            a = {"type": "end_phase"}
        if a["type"] in ("move", "attack", "load"):
            acted.add(a["unit"])
        elif a["type"] == "unload":
            acted.add(a["unit"])
            acted.add(a["transport"])
        n += 1
    if turn_side in sides:
        close_turn(game.round)
    o = game.outcome
    stats["winner"] = players[o.winner] if o and o.winner else "draw"
    return stats


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--map", default="all-blitz")
    p.add_argument("--player", default="schwer", help="whose idle units are counted")
    p.add_argument("--vs", default="normal")
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--fog", action="store_true")
    p.add_argument("--swap", action="store_true")
    p.add_argument("--max-rounds", type=int, default=60)
    p.add_argument("--list", action="store_true", help="list every idle unit (round, type, hex)")
    args = p.parse_args(argv)
    maps = blitz_maps() if args.map == "all-blitz" else args.map.split(",")
    total = {"turns": 0, "idle": 0, "idle_on_own": 0, "units": 0, "by_type": {}}
    for k in range(args.games):
        players = {"nordbund": args.player, "liga": args.vs}
        if args.swap and k % 2 == 1:
            players = {"nordbund": args.vs, "liga": args.player}
        m = maps[(k // (2 if args.swap else 1)) % len(maps)]
        s = play_counting(m, players, args.seed + k, args.fog, args.player, args.max_rounds, args.list)
        side = "nordbund" if players["nordbund"] == args.player else "liga"
        types = " ".join(f"{t} {c}" for t, c in sorted(s["by_type"].items()))
        print(f"{m:20} seed {args.seed + k} {args.player} as {side:8} winner {s['winner']:7} "
              f"turns {s['turns']:2} idle {s['idle']:3} ({s['idle'] / max(1, s['turns']):.2f}/turn) "
              f"on own bld {s['idle_on_own']:3} [{types}]", flush=True)
        for line in s["lines"]:
            print(line)
        for key in ("turns", "idle", "idle_on_own", "units"):
            total[key] += s[key]
        for t, c in s["by_type"].items():
            total["by_type"][t] = total["by_type"].get(t, 0) + c
    types = " ".join(f"{t} {c}" for t, c in sorted(total["by_type"].items()))
    print(f"total: {total['turns']} turns, {total['units']} unit-turns, idle {total['idle']} "
          f"({total['idle'] / max(1, total['turns']):.2f} per turn, {100 * total['idle'] / max(1, total['units']):.1f} % "
          f"of unit-turns), idle on own building {total['idle_on_own']} [{types}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
