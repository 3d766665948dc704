"""Every unit Schwer puts ashore from a Landungsboot, and what became of it (issue 16, session 45).

    python bench/landing_log.py --map grosser-belt --seeds 182000 184002
    python bench/landing_log.py             # seed 182000, as `make bench` runs it

Plays the self-play harness's games (Schwer against Normal, fog on; Schwer is Nordbund on even seeds
and Liga on odd ones, as with `selfplay --swap`; AI seeds seed*2 and seed*2+1) and logs each unload
from a Landungsboot of Schwer's (R41, R42): the round, the hex, and from the engine's events (truth;
the AI never sees this log, R4) every shot at the landed unit (the shooter's type and the damage),
every shot it fired, and the round it died. Session 45 built a landing force for Großer Belt and
found with this log that the tanks it put ashore on Zealand died within a round, most to the
Raketenwerfer and Panzerhaubitzen round Slagelse, which shoot from beyond their sight without answer.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kaltfront  # noqa: E402
from kaltfront.ai.reference import make_player  # noqa: E402


def play(map_name: str, seed: int, max_rounds: int) -> tuple[str, str, dict[int, dict]]:
    """One game; Schwer's side, how it ended, and per landed unit id: round, hex, died, shots."""
    schwer = "nordbund" if seed % 2 == 0 else "liga"
    players = {"nordbund": "normal", "liga": "normal", schwer: "schwer"}
    game = kaltfront.new_game(map_name, seed=seed, fog=True)
    ais = {s: make_player(players[s], s, seed=seed * 2 + k) for k, s in enumerate(("nordbund", "liga"))}
    landed: dict[int, dict] = {}
    while game.outcome is None and game.round <= max_rounds:
        side = game.side
        action = ais[side].next_action(game.observe(side))
        if side == schwer and action["type"] == "unload":
            boat = game.units.get(action["transport"])
            if boat is not None and boat.type == "landungsboot":
                landed[action["unit"]] = {"round": game.round, "at": action["to"], "died": None, "shots": []}
        try:
            events = game.apply(action)
        except kaltfront.IllegalAction:
            events = game.apply({"type": "end_phase"})
        for e in events:
            if e["type"] != "attacked":
                continue
            if e["target"] in landed:
                landed[e["target"]]["shots"].append(f"hit by {e['unit_type']} {e['damage']}")
            if e["unit"] in landed:
                landed[e["unit"]]["shots"].append(
                    f"shot {e['target_type']} {e['damage']} (answer {e['counter_damage']})")
        for uid, v in landed.items():
            if v["died"] is None and uid not in game.units:
                v["died"] = game.round
    end = f"{game.outcome.winner} by {game.outcome.reason}" if game.outcome else "capped"
    return schwer, f"{end}, round {min(game.round, max_rounds)}", landed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--map", default="grosser-belt")
    ap.add_argument("--seeds", type=int, nargs="+", default=[182000])
    ap.add_argument("--max-rounds", type=int, default=60)
    args = ap.parse_args()
    total = lived = 0
    for seed in args.seeds:
        schwer, end, landed = play(args.map, seed, args.max_rounds)
        print(f"{seed} schwer={schwer} {end}: {len(landed)} landed", flush=True)
        for uid, v in sorted(landed.items(), key=lambda x: (x[1]["round"], x[0])):
            fate = f"died R{v['died']} ({v['died'] - v['round']} rounds ashore)" if v["died"] else "alive at the end"
            print(f"  R{v['round']} unit {uid} ashore at {v['at']}, {fate}: " + ("; ".join(v["shots"]) or "no shots"))
            total += 1
            lived += v["died"] is None or v["died"] - v["round"] >= 2
    print(f"games {len(args.seeds)}: landed {total}, alive two rounds later or at the end {lived}")


if __name__ == "__main__":
    main()
