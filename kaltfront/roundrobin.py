"""Round-robin of the computer opponents and the reference bots (issue 16):
`python -m kaltfront roundrobin --players schwer,normal,greedy,rollout --games 12 --seed 5000 --fog`.

Every pair plays `--games` games over the six Blitz maps (by default), sides swapped every second game
(so each map sees each pair from both sides when games is a multiple of 12). Prints one row per pair:
wins, draws, the first player's win rate with its 95 % Wilson interval, and per map; then a matrix
of win rates. Game k of a pair uses seed `seed + k` (the same seeds for every pair).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from itertools import combinations

import kaltfront

from .selfplay import PLAYERS, _one, blitz_maps

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion wins/n (95 % with the default z); (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def pair_jobs(a: str, b: str, games: int, maps: list[str], seed: int, fog: bool, max_rounds: int) -> list[tuple]:
    jobs = []
    for k in range(games):
        players = {"nordbund": a, "liga": b} if k % 2 == 0 else {"nordbund": b, "liga": a}
        jobs.append((maps[(k // 2) % len(maps)], players, seed + k, fog, max_rounds))
    return jobs


def tally(a: str, b: str, results: list[dict]) -> dict:
    """Wins of a and b, draws, a's win rate (draws count as half) with its Wilson interval, per map,
    as a or b's side, and per map and side (issue 16: "on every Blitz map ... as either side")."""
    row = {"a": a, "b": b, "games": len(results), "wins_a": 0, "wins_b": 0, "draws": 0,
           "map_side": {}, "reasons": {}}
    for r in results:
        side_a = "nordbund" if r["players"]["nordbund"] == a else "liga"
        cell = row["map_side"].setdefault(r["map"], {"nordbund": [0, 0], "liga": [0, 0]})[side_a]
        cell[1] += 1
        row["reasons"][r["reason"]] = row["reasons"].get(r["reason"], 0) + 1
        if r["winner"] is None:
            row["draws"] += 1
        elif r["winner"] == side_a:
            row["wins_a"] += 1
            cell[0] += 1
        else:
            row["wins_b"] += 1
    # Per map and per side are sums of the map-and-side cells.
    row["maps"] = {m: [sum(c[0] for c in sd.values()), sum(c[1] for c in sd.values())]
                   for m, sd in row["map_side"].items()}
    row["a_as"] = {s: [sum(sd[s][0] for sd in row["map_side"].values()),
                       sum(sd[s][1] for sd in row["map_side"].values())] for s in ("nordbund", "liga")}
    n = row["games"]
    score = row["wins_a"] + 0.5 * row["draws"]
    row["rate_a"] = score / n if n else 0.0
    row["ci_a"] = wilson(score, n)
    return row


def format_table(rows: list[dict]) -> str:
    lines = ["| Paarung (A – B) | Partien | Siege A | Siege B | unentsch. | A gewinnt | 95 %-Intervall (Wilson) |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r["ci_a"]
        lines.append(f"| {r['a']} – {r['b']} | {r['games']} | {r['wins_a']} | {r['wins_b']} | {r['draws']} | "
                     f"{100 * r['rate_a']:.0f} % | {100 * lo:.0f}–{100 * hi:.0f} % |")
    lines.append("")
    lines.append("A je Karte (Siege/Partien) und als Nordbund/Liga:")
    for r in rows:
        maps = ", ".join(f"{m} {w}/{n}" for m, (w, n) in sorted(r["maps"].items()))
        sides = ", ".join(f"{s} {w}/{n}" for s, (w, n) in r["a_as"].items())
        lines.append(f"  {r['a']} – {r['b']}: {maps}; {sides}")
    lines.append("")
    lines.append("A je Karte als Nordbund / als Liga (Siege/Partien), die schwächste Zelle mit Intervall:")
    for r in rows:
        cells = [(m, s, w, n) for m, sides in sorted(r["map_side"].items())
                 for s, (w, n) in sides.items() if n]
        per_map = ", ".join(f"{m} {sd['nordbund'][0]}/{sd['nordbund'][1]} · {sd['liga'][0]}/{sd['liga'][1]}"
                            for m, sd in sorted(r["map_side"].items()))
        line = f"  {r['a']} – {r['b']}: {per_map}"
        if cells:
            m, s, w, n = min(cells, key=lambda c: (c[2] / c[3], c[0], c[1]))
            lo, hi = wilson(w, n)
            side = "Nordbund" if s == "nordbund" else "Liga"
            line += f"; schwächste: {m} als {side} {w}/{n} ({100 * lo:.0f}–{100 * hi:.0f} %)"
        lines.append(line)
    names = []
    for r in rows:
        for x in (r["a"], r["b"]):
            if x not in names:
                names.append(x)
    rate = {}
    for r in rows:
        rate[(r["a"], r["b"])] = r["rate_a"]
        rate[(r["b"], r["a"])] = 1 - r["rate_a"]
    lines.append("")
    lines.append("Gewinnrate Zeile gegen Spalte:")
    lines.append("| | " + " | ".join(names) + " |")
    lines.append("|---" * (len(names) + 1) + "|")
    for x in names:
        cells = ["–" if x == y else (f"{100 * rate[(x, y)]:.0f} %" if (x, y) in rate else "") for y in names]
        lines.append(f"| {x} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kaltfront roundrobin",
                                description="Jeder gegen jeden auf den Blitz-Karten, Seiten getauscht (issue 16).")
    p.add_argument("--players", default="schwer,normal,greedy,rollout",
                   help="Spieler, durch Komma getrennt: " + ", ".join(PLAYERS))
    p.add_argument("--pairs", default="", help="nur diese Paarungen, z. B. schwer:greedy,normal:leicht")
    p.add_argument("--map", default="all-blitz", help="Szenario-ID(s), durch Komma getrennt, oder all-blitz")
    p.add_argument("--games", type=int, default=12, help="Partien je Paarung")
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--fog", action="store_true", help="Nebel des Krieges an")
    p.add_argument("--jobs", type=int, default=1, help="parallele Prozesse (nur nativ)")
    p.add_argument("--max-rounds", type=int, default=60)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    players = [x for x in args.players.split(",") if x]
    if args.pairs:
        pairs = [tuple(x.split(":")) for x in args.pairs.split(",") if x]
    else:
        pairs = list(combinations(players, 2))
    bad = [x for pr in pairs for x in pr if x not in PLAYERS] + [pr for pr in pairs if len(pr) != 2]
    if bad:
        print(f"Unbekannter Spieler oder Paarung: {bad[0]}", file=sys.stderr)
        return 2
    known = {s["id"] for s in kaltfront.scenarios()}
    maps = blitz_maps() if args.map == "all-blitz" else args.map.split(",")
    if not set(maps) <= known:
        print(f"Unbekanntes Szenario: {args.map}", file=sys.stderr)
        return 2
    rows = []
    for a, b in pairs:
        jobs = pair_jobs(a, b, args.games, maps, args.seed, args.fog, args.max_rounds)
        if args.jobs > 1:
            from concurrent.futures import ProcessPoolExecutor
            with ProcessPoolExecutor(args.jobs) as ex:
                results = list(ex.map(_one, jobs))
        else:
            results = [_one(j) for j in jobs]
        row = tally(a, b, results)
        rows.append(row)
        if not args.json:
            lo, hi = row["ci_a"]
            print(f"{a} – {b}: {row['wins_a']} – {row['wins_b']} – {row['draws']} "
                  f"({100 * row['rate_a']:.0f} %, 95 % {100 * lo:.0f}–{100 * hi:.0f} %)", flush=True)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        print()
        print(format_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
