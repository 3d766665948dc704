"""Feldzug speed figures (issue 15): prints, does not assert.

    .venv/bin/python bench/bench_campaign.py            # quick-resolved campaigns + one real battle
    .venv/bin/python bench/bench_campaign.py --campaigns 20

Figures: seconds per campaign with the quick stand-in (strategic step, options, evaluation, saves),
and seconds for one battle auto-resolved by the battle AI (C10) on a Blitz and on a standard map.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kaltfront.campaign.auto import play_out
from kaltfront.campaign.selfplay import play_campaign
from kaltfront.game import new_game


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--campaigns", type=int, default=10)
    p.add_argument("--strength", default="normal")
    p.add_argument("--standard", action="store_true", help="also one battle on a standard map (slow)")
    args = p.parse_args()
    times = []
    for k in range(args.campaigns):
        t0 = time.perf_counter()
        play_campaign({"nordbund": "schwer", "liga": "normal"}, k, check=True)
        times.append(time.perf_counter() - t0)
    print(f"quick-resolved campaign (with a save round-trip after every order): "
          f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")
    maps = ["fehmarnsund"] + (["grosser-belt"] if args.standard else [])
    for m in maps:
        g = new_game(m, seed=1, fog=True)
        if g.round_limit is None:
            g.campaign_setup("nordbund", round_limit=20)
        t0 = time.perf_counter()
        play_out(g, args.strength, seed=1)
        print(f"battle AI both sides ({args.strength}) on {m}: {time.perf_counter() - t0:.1f} s, "
              f"{g.round} rounds, {g.describe_outcome()}")


if __name__ == "__main__":
    main()
