"""Watch one self-play game round by round (issue 16: why do games on the big standard maps stall?).

    python bench/watch_game.py --map grosser-belt --nordbund schwer --liga normal --seed 9100 --fog
    python bench/watch_game.py --map deutsche-bucht --nordbund normal --liga schwer --seed 9101 --every 5

After each side's turn it prints: money, buildings held, units by type and their value, the units'
distance to the enemy HQ (nearest and median, in hexes), how many of them stand within 4 hexes of
it, whether the Schwer player's finishing plan is on (`Situation.finish`), its chosen variant, and the
enemy units within 3 hexes of the HQ (its guard). At the end: how the game ended. Same seeds and
players as `python -m kaltfront selfplay` (game seed = --seed, AI seeds seed*2, seed*2+1).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kaltfront  # noqa: E402
from kaltfront.ai.common import UNITS, Geo, belief_dict  # noqa: E402
from kaltfront.ai.reference import make_player  # noqa: E402
from kaltfront.ai.situation import Situation  # noqa: E402

SHORT = {"jaeger": "J", "pionier": "Pi", "kampfpanzer": "KP", "panzerhaubitze": "PH", "raketenwerfer": "RW",
         "schuetzenpanzer": "SPz", "spaehwagen": "SW", "panzerjaeger": "PJ", "flakpanzer": "FP",
         "transporter": "LKW", "versorger": "V"}


def describe(game, side: str, geo: Geo) -> str:
    obs = game.observe(side)
    en = "liga" if side == "nordbund" else "nordbund"
    hq = next((geo.idx(b["at"]) for b in obs["buildings"] if b["type"] == "hq" and b["owner"] == en), None)
    own = [u for u in obs["units"] if u["side"] == side]
    types: dict[str, int] = {}
    value = 0.0
    dists = []
    for u in own:
        types[u["type"]] = types.get(u["type"], 0) + 1
        value += UNITS[u["type"]]["cost"] * u["hp"] / 10
        if hq is not None:
            dists.append(geo.dist(geo.idx(u["at"]), hq))
    held = sum(1 for b in obs["buildings"] if b["owner"] == side)
    t = " ".join(f"{SHORT.get(k, k)}{v}" for k, v in sorted(types.items()))
    d = f"HQ-dist min {min(dists)} med {statistics.median(dists):.0f} near {sum(1 for x in dists if x <= 4)}" \
        if dists else "-"
    return f"{side[:4]} ${obs['money'][side]:5} bld {held:2} units {len(own):2} val {value:6.0f} {d} [{t}]"


def crews(game, side: str) -> str:
    """Where the side's Pioniere are (on foot or aboard what, with its fuel): the finishing strike."""
    out = []
    for u in game.observe(side)["units"]:
        if u["side"] != side:
            continue
        if u["type"] == "pionier":
            out.append(f"Pi@{u['at']}")
        for c in u.get("cargo") or []:
            if c["type"] == "pionier":
                out.append(f"Pi in {SHORT.get(u['type'], u['type'])}@{u['at']} fuel {u.get('fuel')}")
    return "; ".join(out) or "no Pionier"


def guard(game, side: str, geo: Geo) -> str:
    """Units of `side` within 3 hexes of its own HQ (true positions)."""
    obs = game.observe(side)
    hq = next((geo.idx(b["at"]) for b in obs["buildings"] if b["type"] == "hq" and b["owner"] == side), None)
    if hq is None:
        return ""
    near = [SHORT.get(u["type"], u["type"]) + f"({u['hp']})" for u in obs["units"]
            if u["side"] == side and geo.dist(geo.idx(u["at"]), hq) <= 3]
    on = any(geo.idx(u["at"]) == hq for u in obs["units"] if u["side"] == side)
    return f"guard {side[:4]}: {' '.join(near) or '-'}{' (on HQ)' if on else ''}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--map", default="grosser-belt")
    p.add_argument("--nordbund", default="schwer")
    p.add_argument("--liga", default="normal")
    p.add_argument("--seed", type=int, default=9100)
    p.add_argument("--fog", action="store_true")
    p.add_argument("--max-rounds", type=int, default=60)
    p.add_argument("--every", type=int, default=1, help="print every n-th round")
    p.add_argument("--load", default="", help="continue from a save file instead of a new game")
    p.add_argument("--dump", default="", help="ROUND:FILE: write the save (JSON) when that round begins")
    args = p.parse_args(argv)
    game = kaltfront.Game.from_json(Path(args.load).read_text()) if args.load else \
        kaltfront.new_game(args.map, seed=args.seed, fog=args.fog)
    players = {"nordbund": args.nordbund, "liga": args.liga}
    ais = {side: make_player(players[side], side, seed=args.seed * 2 + k)
           for k, side in enumerate(("nordbund", "liga"))}
    obs0 = game.observe("nordbund")
    geo = Geo(obs0["width"], obs0["height"])
    side = game.side
    think = 0.0
    dump_round, dump_file = (int(args.dump.split(":")[0]), args.dump.split(":", 1)[1]) if args.dump else (0, "")
    while game.outcome is None and game.round <= args.max_rounds:
        s = game.side
        if s != side:
            if game.round % args.every == 0 or game.round <= 2:
                ai = ais[side]
                extra = ""
                if players[side] == "schwer":
                    o = game.observe(side)
                    sit = Situation(o, belief_dict(o, side), side)
                    extra = f" finish={int(sit.finish)} var={getattr(ai, 'last_variant', '')} [{crews(game, side)}]"
                print(f"R{game.round:2} {players[side]:6} {describe(game, side, geo)} "
                      f"t={think:.1f}s{extra} | {guard(game, 'liga' if side == 'nordbund' else 'nordbund', geo)}",
                      flush=True)
            side, think = s, 0.0
        if dump_round and game.round == dump_round:
            Path(dump_file).write_text(game.to_json())
            dump_round = 0
        t0 = time.perf_counter()
        a = ais[s].next_action(game.observe(s))
        think += time.perf_counter() - t0
        try:
            game.apply(a)
        except kaltfront.IllegalAction:
            game.apply({"type": "end_phase"})
    o = game.outcome
    print(f"end: {o.winner if o else None} {o.reason if o else 'cap'} round {game.round}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
