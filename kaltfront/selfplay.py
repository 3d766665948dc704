"""Headless self-play of the computer opponents (issue 4): `python -m kaltfront selfplay ...`.

    python -m kaltfront selfplay --map bornholm --nordbund schwer --liga normal --games 40 --seed 1 --fog
    python -m kaltfront selfplay --map all-blitz --nordbund schwer --liga normal --games 120 --swap --fog
    python -m kaltfront selfplay --map all-blitz --nordbund greedy --liga schwer --games 24 --swap --fog

Besides the three strengths a side may be played by a reference bot, `greedy` or `rollout`
(kaltfront/ai/reference.py, issue 16): self-play only, never a strength in the UI.

Prints wins per side and per strength, draws, average rounds and think time per turn, and ends with
a one-line summary such as `schwer 31 – normal 7 – draws 2` (`--json`: the same as JSON). Game k uses
seed `seed + k` for the engine and the AIs, so a seeded game replays action for action.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import kaltfront

from .ai import STRENGTHS
from .ai.reference import REFERENCE_BOTS, make_player

# The three strengths and the reference bots (issue 16; self-play only, never in the UI).
PLAYERS = STRENGTHS + REFERENCE_BOTS

MAX_ACTIONS = 20_000  # a game that needs more has stalled: it is scored as a draw


def blitz_maps() -> list[str]:
    return sorted(s["id"] for s in kaltfront.scenarios() if s["blitz"])


def play(game, players: dict[str, str], seed: int = 0, *, check_legal: bool = False,
         record: bool = False, max_rounds: int | None = None) -> dict:
    """Play one game to its end with AIPlayers for both sides; returns a result dict.

    players: {"nordbund": strength, "liga": strength}; a strength may also be a reference bot
    ("greedy", "rollout", issue 16). With check_legal every action is first checked
    against the engine's `legal_actions()`; an illegal one raises AssertionError."""
    ais = {side: make_player(players[side], side, seed=seed * 2 + k)
           for k, side in enumerate(("nordbund", "liga"))}
    think: dict[str, list[float]] = {"nordbund": [], "liga": []}
    actions: list[dict] = []
    turn_time = 0.0
    turn_side = game.side
    n = 0
    illegal = 0
    while game.outcome is None and n < MAX_ACTIONS and (max_rounds is None or game.round <= max_rounds):
        side = game.side
        if side != turn_side:
            think[turn_side].append(turn_time)
            turn_side, turn_time = side, 0.0
        obs = game.observe(side)
        t0 = time.perf_counter()
        action = ais[side].next_action(obs)
        turn_time += time.perf_counter() - t0
        if check_legal:
            legal = [a.to_json() for a in game.legal_actions()]
            assert action in legal, f"illegal AI action {action} ({players[side]}, {side})"
        try:
            game.apply(action)
        except kaltfront.IllegalAction:
            illegal += 1
            game.apply({"type": "end_phase"})
            action = {"type": "end_phase", "replaced": action}
        if record:
            actions.append({"side": side, **action})
        n += 1
    think[turn_side].append(turn_time)
    o = game.outcome
    result = {"winner": o.winner if o else None, "reason": o.reason if o else "stalled",
              "rounds": game.round, "actions": n, "illegal": illegal,
              "players": dict(players), "think": think}
    if o is not None and o.winner is not None:
        result["winner_strength"] = players[o.winner]
    if record:
        result["log"] = actions
    return result


def _one(job: tuple) -> dict:
    map_id, players, seed, fog, max_rounds = job
    g = kaltfront.new_game(map_id, seed=seed, fog=fog)
    r = play(g, players, seed, max_rounds=max_rounds)
    r["map"], r["seed"] = map_id, seed
    return r


def _jobs(args) -> list[tuple]:
    maps = blitz_maps() if args.map == "all-blitz" else args.map.split(",")
    jobs = []
    for k in range(args.games):
        players = {"nordbund": args.nordbund, "liga": args.liga}
        if args.swap and k % 2 == 1:
            players = {"nordbund": args.liga, "liga": args.nordbund}
        m = maps[(k // (2 if args.swap else 1)) % len(maps)]
        jobs.append((m, players, args.seed + k, args.fog, args.max_rounds))
    return jobs


def summarise(results: list[dict]) -> dict:
    wins_side = {"nordbund": 0, "liga": 0}
    wins_strength: dict[str, int] = {}
    draws = 0
    per_map: dict[str, dict] = {}
    think: dict[str, list[float]] = {}
    reasons: dict[str, int] = {}
    for r in results:
        m = per_map.setdefault(r.get("map", "?"), {"nordbund": 0, "liga": 0, "draws": 0, "games": 0})
        m["games"] += 1
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
        if r["winner"] is None:
            draws += 1
            m["draws"] += 1
        else:
            wins_side[r["winner"]] += 1
            m[r["winner"]] += 1
            s = r["players"][r["winner"]]
            wins_strength[s] = wins_strength.get(s, 0) + 1
            m.setdefault("by_strength", {})
            m["by_strength"][s] = m["by_strength"].get(s, 0) + 1
        for side, times in r["think"].items():
            think.setdefault(r["players"][side], []).extend(times)
    strengths = []
    for r in results:
        for side in ("nordbund", "liga"):
            if r["players"][side] not in strengths:
                strengths.append(r["players"][side])
    times = {s: {"median": statistics.median(v) if v else 0.0, "max": max(v) if v else 0.0,
                 "turns": len(v)} for s, v in think.items()}
    same = len(strengths) == 1
    return {"games": len(results), "wins_side": wins_side,
            "wins_strength": {} if same else {s: wins_strength.get(s, 0) for s in strengths},
            "draws": draws, "reasons": reasons,
            "avg_rounds": statistics.mean(r["rounds"] for r in results) if results else 0,
            "think": times, "maps": per_map, "strengths": strengths,
            "illegal": sum(r["illegal"] for r in results)}


def summary_line(s: dict) -> str:
    if len(s["strengths"]) == 1:
        w = s["wins_side"]
        return f"nordbund {w['nordbund']} – liga {w['liga']} – draws {s['draws']}"
    a, b = s["strengths"][:2]
    return f"{a} {s['wins_strength'][a]} – {b} {s['wins_strength'][b]} – draws {s['draws']}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kaltfront selfplay",
                                description="Computer gegen Computer, ohne Oberfläche (issue 4).")
    p.add_argument("--map", default="all-blitz", help="Szenario-ID(s), durch Komma getrennt, oder all-blitz")
    p.add_argument("--nordbund", choices=PLAYERS, default="normal")
    p.add_argument("--liga", choices=PLAYERS, default="normal")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--fog", action="store_true", help="Nebel des Krieges an")
    p.add_argument("--swap", action="store_true", help="jede zweite Partie mit getauschten Seiten")
    p.add_argument("--jobs", type=int, default=1, help="parallele Prozesse (nur nativ)")
    p.add_argument("--max-rounds", type=int, default=60,
                   help="Abbruch als Unentschieden (stalled) nach so vielen Runden, für Karten ohne Limit")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    known = {s["id"] for s in kaltfront.scenarios()}
    if args.map != "all-blitz" and not set(args.map.split(",")) <= known:
        print(f"Unbekanntes Szenario: {args.map}", file=sys.stderr)
        return 2
    jobs = _jobs(args)
    results = []

    def report(r: dict) -> None:  # each game as it ends (in game order), also with --jobs
        results.append(r)
        if not args.json:
            who = f"{r['winner']} ({r['players'][r['winner']]})" if r["winner"] else "unentschieden"
            print(f"  {r['map']:20} seed {r['seed']:4}  {r['players']['nordbund']:6} vs "
                  f"{r['players']['liga']:6}  -> {who}, {r['reason']}, Runde {r['rounds']}", flush=True)
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(args.jobs) as ex:
            for r in ex.map(_one, jobs):
                report(r)
    else:
        for job in jobs:
            report(_one(job))
    s = summarise(results)
    if args.json:
        print(json.dumps({**s, "summary": summary_line(s)}, ensure_ascii=False, indent=1))
        return 0
    print(f"Partien: {s['games']}  Siege Nordbund: {s['wins_side']['nordbund']}  Liga: {s['wins_side']['liga']}"
          f"  Unentschieden: {s['draws']}  Ø Runden: {s['avg_rounds']:.1f}")
    if s["wins_strength"]:
        print("Siege je Stärke: " + ", ".join(f"{k} {v}" for k, v in s["wins_strength"].items()))
    print("Enden: " + ", ".join(f"{k} {v}" for k, v in sorted(s["reasons"].items())))
    for m, v in sorted(s["maps"].items()):
        by = ""
        if s["wins_strength"]:
            by = "  (" + ", ".join(f"{k} {v.get('by_strength', {}).get(k, 0)}" for k in s["strengths"]) + ")"
        print(f"  {m:20} Nordbund {v['nordbund']:3}  Liga {v['liga']:3}  unentschieden {v['draws']:3}{by}")
    for k, v in s["think"].items():
        print(f"Denkzeit {k}: Median {v['median'] * 1000:.0f} ms, höchstens {v['max'] * 1000:.0f} ms "
              f"je Zug ({v['turns']} Züge)")
    print(summary_line(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
