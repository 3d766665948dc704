"""Schwer's strength with the browser's think-time caps (issue 16), measured natively.

In the browser Schwer's search is cut by a wall clock (a turn allowance and a cap per decision,
kaltfront/ai/__init__.py); natively it is off, so self-play measures Schwer without it. This plays
Schwer against Normal with the caps scaled to native speed (Pyodide runs about 2.3–2.5 times slower),
sides alternating, fog on, and prints each game and how many ended by HQ or no army.

    python bench/browser_caps.py --map deutsche-bucht --games 10 --seed 60000 --turn 0.6 --decision 1.0 --jobs 2

Wall-clock caps depend on the machine and its load: run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import kaltfront  # noqa: E402
import kaltfront.selfplay as selfplay  # noqa: E402

_ARGS: argparse.Namespace | None = None
_make_player = selfplay.make_player


def _capped_player(strength: str, side: str, seed: int = 0):
    p = _make_player(strength, side, seed=seed)
    if strength == "schwer" and _ARGS is not None and _ARGS.turn > 0:
        p.time_limit, p.turn_limit = _ARGS.decision, _ARGS.turn
    return p


def _one(job: tuple) -> tuple:
    args, k = job
    global _ARGS
    _ARGS = args
    selfplay.make_player = _capped_player
    schwer_side = "nordbund" if k % 2 == 0 else "liga"
    players = {schwer_side: "schwer", ("liga" if schwer_side == "nordbund" else "nordbund"): "normal"}
    g = kaltfront.new_game(args.map, seed=args.seed + k, fog=True)
    r = selfplay.play(g, players, args.seed + k, max_rounds=args.max_rounds)
    t = sorted(r["think"][schwer_side]) or [0.0]
    return k, schwer_side, r.get("winner_strength"), r["reason"], r["rounds"], t[len(t) // 2], t[-1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/browser_caps.py")
    p.add_argument("--map", default="deutsche-bucht")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=60000)
    p.add_argument("--turn", type=float, default=0.6, help="turn allowance in s (0: no caps)")
    p.add_argument("--decision", type=float, default=1.0, help="cap per decision in s")
    p.add_argument("--max-rounds", type=int, default=60)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    jobs = [(args, k) for k in range(args.games)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            rows = pool.map(_one, jobs)
    else:
        rows = [_one(j) for j in jobs]
    for k, side, winner, reason, rounds, median, worst in rows:
        print(f"seed {args.seed + k}  Schwer as {side:8}  winner {winner or '-':7} {reason:10} round {rounds:3}"
              f"  think median {median:.2f} s, worst {worst:.2f} s")
    ended = [r for r in rows if r[3] in ("hq", "no_army")]
    avg = sum(r[4] for r in ended) / len(ended) if ended else 0.0
    print(f"ended {len(ended)} of {len(rows)} by HQ or no army, Schwer won {sum(r[2] == 'schwer' for r in rows)}, "
          f"{avg:.1f} rounds on average")
    return 0


if __name__ == "__main__":
    sys.exit(main())
