"""Headless campaign self-play (issue 15): `python -m kaltfront campaign-selfplay …`.

    python -m kaltfront campaign-selfplay --nordbund schwer --liga normal --campaigns 40 --swap --fog

The strategic step of each side is played by `CampaignAI` at that side's strength; battles are
auto-resolved: `--resolve ai` lets the battle AI play both sides (each at its own side's strength: the
full C10 auto-resolve, seconds per Blitz battle, minutes on the large maps), `--resolve quick` uses the
fast weighted draw of auto.py (for measuring the strategic AI only). Campaign k uses seed `seed + k`;
with --swap every second campaign swaps the strengths' sides. Prints wins per strength, draws, how the
campaigns ended and the time per campaign; the last line is a summary like `schwer 31 – normal 7 – draws 2`.
`--jobs N` plays N campaigns at a time in separate processes (each campaign is deterministic from its
seed, so the results do not depend on N; the time per campaign is each campaign's own wall clock).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from ..rulesdata import SIDES
from .ai import CampaignAI
from .auto import play_out
from .feldzug import STRENGTHS, new_campaign

MAX_ORDERS = 2_000  # a campaign never needs more orders than this; more means a bug


def play_campaign(players: dict[str, str], seed: int, *, fog: bool = True, resolve: str = "quick",
                  check: bool = False) -> dict:
    """Play one campaign with CampaignAIs for both sides; returns a result dict. With `check`, the
    campaign's save round-trips after every order."""
    c = new_campaign(seed=seed, fog=fog, strength="normal")
    ais = {s: CampaignAI(players[s], s, seed=seed * 2 + k) for k, s in enumerate(SIDES)}
    orders = battles = 0
    while c.outcome is None and orders < MAX_ORDERS:
        order = None
        for s in SIDES:
            order = ais[s].next_order(c.observe(s))
            if order is not None:
                break
        if order is None:  # a battle is running: auto-resolve it (C10)
            if resolve == "ai":
                play_out(c.battle_game, players, c.battle["seed"])
                order = {"type": "evaluate"}
            else:
                order = {"type": "auto_resolve", "mode": "quick"}
            battles += 1
        c.apply(order)
        orders += 1
        if check:
            assert type(c).from_json(c.to_json()) == c
    o = c.outcome or {"winner": None, "reason": "stalled"}
    r = {"winner": o["winner"], "reason": o["reason"], "rounds": c.round, "battles": battles,
         "players": dict(players), "seed": seed,
         "regions": {s: len(c.regions_of(s)) for s in SIDES}, "kp": {s: c.total_kp(s) for s in SIDES}}
    if o["winner"]:
        r["winner_strength"] = players[o["winner"]]
    return r


def _timed_campaign(task: tuple) -> tuple[dict, float]:
    """One campaign and its wall-clock seconds (a top-level function, so worker processes can run it)."""
    players, seed, fog, resolve = task
    t0 = time.perf_counter()
    r = play_campaign(players, seed, fog=fog, resolve=resolve)
    return r, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kaltfront campaign-selfplay",
                                description="Feldzug: Computer gegen Computer, ohne Oberfläche (issue 15).")
    p.add_argument("--nordbund", choices=STRENGTHS, default="schwer")
    p.add_argument("--liga", choices=STRENGTHS, default="normal")
    p.add_argument("--campaigns", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--fog", action="store_true", help="Nebel auf der Feldzugkarte (C11)")
    p.add_argument("--swap", action="store_true", help="jeder zweite Feldzug mit getauschten Seiten")
    p.add_argument("--resolve", choices=("quick", "ai"), default="quick",
                   help="Schlachten: quick = schnelle gewichtete Auslosung, ai = Schlacht-KI gegen Schlacht-KI")
    p.add_argument("--jobs", type=int, default=1, help="so viele Feldzüge gleichzeitig (eigene Prozesse)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.jobs < 1 or args.campaigns < 0:
        print("--jobs muss mindestens 1 sein, --campaigns darf nicht negativ sein.", file=sys.stderr)
        return 2
    tasks = []
    for k in range(args.campaigns):
        players = {"nordbund": args.nordbund, "liga": args.liga}
        if args.swap and k % 2 == 1:
            players = {"nordbund": args.liga, "liga": args.nordbund}
        tasks.append((players, args.seed + k, args.fog, args.resolve))
    results, times = [], []

    def report(r: dict, seconds: float) -> None:
        results.append(r)
        times.append(seconds)
        if not args.json:
            players = r["players"]
            who = f"{r['winner']} ({r['winner_strength']})" if r["winner"] else "unentschieden"
            print(f"  seed {r['seed']:4}  {players['nordbund']:6} vs {players['liga']:6} -> {who}, {r['reason']}, "
                  f"Runde {r['rounds']}, {r['battles']} Schlachten, Regionen {r['regions']}, "
                  f"{seconds:.2f} s", flush=True)

    if args.jobs == 1:
        for task in tasks:
            report(*_timed_campaign(task))
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed
        with ProcessPoolExecutor(args.jobs) as ex:
            for done in as_completed([ex.submit(_timed_campaign, task) for task in tasks]):
                report(*done.result())
        order = sorted(range(len(results)), key=lambda i: results[i]["seed"])
        results, times = [results[i] for i in order], [times[i] for i in order]
    strengths = list(dict.fromkeys([args.nordbund, args.liga]))
    wins = {s: sum(1 for r in results if r.get("winner_strength") == s) for s in strengths}
    draws = sum(1 for r in results if r["winner"] is None)
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    side_wins = {s: sum(1 for r in results if r["winner"] == s) for s in SIDES}
    summary = (" – ".join(f"{s} {wins[s]}" for s in strengths) + f" – draws {draws}") if len(strengths) == 2 \
        else f"nordbund {side_wins['nordbund']} – liga {side_wins['liga']} – draws {draws}"
    stats = {"campaigns": len(results), "wins_strength": wins, "wins_side": side_wins, "draws": draws,
             "reasons": reasons, "resolve": args.resolve,
             "seconds_per_campaign": statistics.mean(times) if times else 0.0,
             "battles_per_campaign": statistics.mean(r["battles"] for r in results) if results else 0.0,
             "summary": summary}
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=1))
        return 0
    print(f"Feldzüge: {len(results)}  Siege Nordbund: {side_wins['nordbund']}  Liga: {side_wins['liga']}  "
          f"Unentschieden: {draws}  Schlachten je Feldzug: {stats['battles_per_campaign']:.1f}  "
          f"Auflösung: {args.resolve}")
    print("Enden: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    print(f"Zeit je Feldzug: {stats['seconds_per_campaign']:.2f} s")
    print(summary)
    return 0
