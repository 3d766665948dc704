"""How often a crew's stop has hidden anti-aircraft fire on it, by what Schwer knows (issue 16, R20, R25).

    python bench/hidden_aa.py --seeds 60000 60001 60003 60004
    python bench/hidden_aa.py --map grosser-belt --seeds 61000 61001 --every 3

Plays the self-play harness's games (Schwer against Normal, fog on, Schwer as Nordbund on even seeds
and as Liga on odd ones; game seed = seed, AI seeds seed*2 and seed*2+1, as `python -m kaltfront
selfplay`). Every --every rounds from round 12, when Schwer stages a loaded crew helicopter, it takes
every *stop* of the crew (a hex within a helicopter move of a free hex next to the enemy HQ, flying
round the enemies in sight, `MovePlanner.approach_field`) that no enemy Schwer knows of can fire on,
and reads from the TRUE game whether an enemy with anti-aircraft fire reaches it from where it stands
(the enemy fires before it moves, R8). A diagnostic only: the AI never sees the truth (R4).

It prints the share of such stops under hidden fire by the distance to the nearest known enemy that
fires on aircraft, next to what `MovePlanner.hidden_aa_risk` estimates (`HIDDEN_AA`, fitted to the
first command's seeds in session 14). Other seeds show whether the fit holds.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kaltfront  # noqa: E402
from kaltfront.ai import move as M  # noqa: E402
from kaltfront.ai.common import UNITS, Geo  # noqa: E402
from kaltfront.ai.reference import make_player  # noqa: E402

HELI_MOVE = UNITS["transporthubschrauber"]["move"]


def fires_on_aircraft(utype: str) -> bool:
    ut = UNITS[utype]
    return bool(ut["range"] and ut["attack"].get("luft"))


def play(map_id: str, seed: int, every: int, tally: dict) -> None:
    schwer = "nordbund" if seed % 2 == 0 else "liga"
    enemy = "liga" if schwer == "nordbund" else "nordbund"
    players = {schwer: "schwer", enemy: "normal"}
    game = kaltfront.new_game(map_id, seed=seed, fog=True)
    ais = {s: make_player(players[s], s, seed=seed * 2 + k) for k, s in enumerate(("nordbund", "liga"))}
    geo = Geo(game.width, game.height)
    probe = {"on": False, "done": False}
    stage = M.MovePlanner.stage

    def watched_stage(self, tid, approach):
        if probe["on"] and not probe["done"] and self.st.name == "schwer":
            probe["done"] = True
            truth = [u for u in game.observe(enemy)["units"] if u["side"] == enemy and fires_on_aircraft(u["type"])]
            known = [e["i"] for e in self.sit.enemies.values() if fires_on_aircraft(e["type"])]
            u = self.sit.own[tid]
            for h in range(geo.size):
                if approach[h] > HELI_MOVE or self.sit.expected_hit(u, h) > 0:
                    continue
                near = min((geo.dist(h, i) for i in known), default=99)
                hit = any(geo.dist(h, geo.idx(e["at"])) <= UNITS[e["type"]]["range"][1] for e in truth)
                row = tally[min(near, 9)]
                row[0] += 1
                row[1] += hit
                row[2] += self.hidden_aa_risk(h)
        return stage(self, tid, approach)

    M.MovePlanner.stage = watched_stage
    try:
        while game.outcome is None and game.round <= 60:
            side, phase = game.side, game.phase
            probe["on"] = side == schwer and phase == "move" and game.round >= 12 and game.round % every == 0
            action = ais[side].next_action(game.observe(side))
            try:
                game.apply(action)
            except kaltfront.IllegalAction:
                game.apply({"type": "end_phase"})
            if (side, phase) != (game.side, game.phase):
                probe["done"] = False
    finally:
        M.MovePlanner.stage = stage
    print(f"  seed {seed} (Schwer {schwer}): {game.outcome.reason if game.outcome else 'cap'} round {game.round}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default="grosser-belt")
    ap.add_argument("--seeds", type=int, nargs="+", default=[60000, 60001, 60003, 60004])
    ap.add_argument("--every", type=int, default=3)
    a = ap.parse_args()
    tally: dict[int, list] = defaultdict(lambda: [0, 0, 0.0])
    for seed in a.seeds:
        play(a.map, seed, a.every, tally)
    print("nearest known anti-aircraft unit | stops | under hidden fire | estimate (hidden_aa_risk)")
    for d in sorted(tally):
        n, hit, est = tally[d]
        print(f"  {'9+' if d == 9 else d:>2} hexes | {n:5d} | {hit / n:5.0%} | {est / n:5.0%}")


if __name__ == "__main__":
    main()
