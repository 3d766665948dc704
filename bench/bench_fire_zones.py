"""Enemy fire zones and undo, natively: prints figures, asserts nothing (tests never time things).

    python bench/bench_fire_zones.py
Target (issue 13.2): `g.fire_zones(side)` <= 20 ms for 60 visible enemy units on the largest shipped
map. Also prints what one undo (D16) costs after a phase of moves, since undo replays the phase.
"""

from __future__ import annotations

import json
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import kaltfront  # noqa: E402
from kaltfront.rulesdata import RULES  # noqa: E402


def largest_scenario() -> str:
    return max(kaltfront.scenarios(), key=lambda s: s["width"] * s["height"])["id"]


def crowded(sid: str, enemies: int = 60, seed: int = 1) -> kaltfront.Game:
    """The shipped map with 60 Liga units of every type spread over it (fog off: all visible)."""
    d = json.loads(kaltfront.new_game(sid, seed=seed, fog=False).to_json())
    d.pop("undo"), d.pop("record")
    rnd = random.Random(seed)
    taken = {tuple(u["at"]) for u in d["units"]}
    rows = d["map"]["terrain"]
    cells = [(c, r) for r in range(len(rows)) for c in range(len(rows[0])) if (c, r) not in taken]
    rnd.shuffle(cells)
    kinds = list(RULES.units)
    uid = d["next_id"]
    liga = [u for u in d["units"] if u["side"] == "liga"]
    for c, r in cells:
        if sum(1 + len(x.get("cargo", [])) for x in liga) >= enemies:
            break
        t = kinds[uid % len(kinds)]
        ut = RULES.units[t]
        if RULES.terrain_by_char[rows[r][c]].cost[ut.movement] is None:
            continue
        u = {"id": uid, "type": t, "side": "liga", "at": [c, r], "hp": 10, "level": 0, "ammo": ut.ammo,
             "fuel": ut.fuel, "moved": False, "attacked": False}
        d["units"].append(u)
        liga.append(u)
        uid += 1
    d["next_id"] = uid
    return kaltfront.Game.from_json(d)


CPU: list[float] = []  # process time of the last timed() run: on a shared, loaded machine the wall
                       # clock also counts time waiting for a core; CPU time is what the work costs


def timed(fn, repeat: int) -> list[float]:
    out = []
    CPU.clear()
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        out.append((time.perf_counter() - t) * 1000)
        CPU.append((time.process_time() - c) * 1000)
    return out


def report(name: str, ms: list[float], target: str) -> None:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"{name:52} median {statistics.median(ms):8.3f} ms   p95 {p95:8.3f} ms   "
          f"max {ms[-1]:8.3f} ms   CPU median {statistics.median(CPU):8.3f} ms   (target {target})")


def main() -> None:
    print(f"Python {sys.version.split()[0]}, kaltfront {kaltfront.__version__}")
    sid = largest_scenario()
    g = crowded(sid)
    n = len([u for u in g.units_of("liga") if u.at in g.visible("nordbund")])
    print(f"{sid} {g.width}x{g.height}, {n} visible Liga units")
    report("fire_zones(nordbund)", timed(lambda: g.fire_zones("nordbund"), 30), "<= 20 ms")
    own = g.units_of("nordbund")[0].id
    report("fire_zones(nordbund, target=own unit)", timed(lambda: g.fire_zones("nordbund", own), 30), "<= 20 ms")
    foe = g.units_of("liga")[0].id
    report("fire_zones(..., enemy=id) (tap on an enemy)", timed(lambda: g.fire_zones("nordbund", own, foe), 30),
           "<= 20 ms")
    size = len(json.dumps(g.fire_zones("nordbund", own)))
    print(f"fire_zones reply as JSON: {size / 1024:.1f} KiB")

    # Undo after a phase of moves: restore plus replaying the kept moves.
    game = kaltfront.new_game(sid, seed=2, fog=True)
    moves = 0
    for u in list(game.units_of(game.side)):
        dests = game.reachable(u.id)
        if dests:
            game.apply({"type": "move", "unit": u.id, "to": dests[len(dests) // 2]["to"]})
            moves += 1
    steps = game.can_undo()["steps"]
    text = game.to_json()

    def one_undo():
        kaltfront.Game.from_json(text).undo()
    load = timed(lambda: kaltfront.Game.from_json(text), 10)
    report(f"load + undo after {moves} moves ({steps} undoable)", timed(one_undo, 10),
           f"load alone {statistics.median(load):.1f} ms")


if __name__ == "__main__":
    main()
