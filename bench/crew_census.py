"""Where Schwer's finishing crews are, round by round (issue 16: why do big-map games stall?).

    python bench/crew_census.py --map grosser-belt --seed 120018
    python bench/crew_census.py --seed 120000 --every 1 --max-rounds 12
    python bench/crew_census.py            # seed 120018, as `make bench` runs it

Plays one of the self-play harness's games (Schwer against Normal, fog on; Schwer is Nordbund on even
seeds and Liga on odd ones, as with `selfplay --swap`; AI seeds seed*2 and seed*2+1) and prints, at
the end of Schwer's move phase every `--every` rounds (and in each of the first seven), read from the
game (truth; the AI never sees this, R4):
  * Schwer's unit count with the cargo (D9: 60 at most) and its money;
  * every Transporthubschrauber: id, hex, fuel, hex distance to the enemy HQ, cargo;
  * every Pionier: its hex, or "aboard".
Every 15 rounds also the count of Schwer's units by type. Session 35 found with it crews that
hovered out of reach of any air home for 12-51 rounds while they still counted as the crews.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kaltfront  # noqa: E402
from kaltfront.ai.common import Geo  # noqa: E402
from kaltfront.ai.reference import make_player  # noqa: E402

from crew_probe import enemy_hq as enemy_hq_of  # noqa: E402  (bench/ is on the path when run as a script)


def census(game, side: str, geo: Geo, enemy_hq: int) -> str:
    """One line: the unit count, money, helicopters and Pioniere of `side`."""
    def at(i):
        return (i % game.width, i // game.width) if i is not None else "aboard"
    own = [u for u in game.units.values() if u.side == side]
    helis = [(u.id, at(u.at), u.fuel, geo.dist(u.at, enemy_hq) if u.at is not None else None,
              [game.units[c].type for c in u.cargo]) for u in own if u.type == "transporthubschrauber"]
    pioneers = [at(u.at) for u in own if u.type == "pionier"]
    return f"units {len(own)} money {game.money[side]} helicopters {helis} Pioniere {pioneers}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--map", default="grosser-belt")
    ap.add_argument("--seed", type=int, default=120018)  # a default, so that `make bench` runs it too
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--max-rounds", type=int, default=60)
    args = ap.parse_args()
    schwer = "nordbund" if args.seed % 2 == 0 else "liga"
    players = {"nordbund": "normal", "liga": "normal", schwer: "schwer"}  # as in crew_probe.py
    game = kaltfront.new_game(args.map, seed=args.seed, fog=True)
    ais = {s: make_player(players[s], s, seed=args.seed * 2 + k) for k, s in enumerate(("nordbund", "liga"))}
    geo = Geo(game.width, game.height)
    enemy_hq = enemy_hq_of(game, schwer)
    while game.outcome is None and game.round <= args.max_rounds:
        side, phase, rnd = game.side, game.phase, game.round
        game.apply(ais[side].next_action(game.observe(side)))
        ended = game.side != side or game.phase != phase or game.outcome is not None
        if side == schwer and phase == "move" and ended and (rnd % args.every == 0 or rnd < 8):
            print(f"R{rnd} {census(game, schwer, geo, enemy_hq)}", flush=True)
            if rnd % 15 == 0:
                counts = Counter(u.type for u in game.units.values() if u.side == schwer)
                print("    " + ", ".join(f"{t} {n}" for t, n in sorted(counts.items())), flush=True)
    if game.outcome:
        print(f"end: {game.outcome.winner} by {game.outcome.reason} in round {game.round} (Schwer is {schwer})")
    else:
        print(f"no end by round {args.max_rounds} (Schwer is {schwer})")


if __name__ == "__main__":
    main()
