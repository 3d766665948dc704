"""Engine speed, natively: prints figures, asserts nothing (tests never time things).

    python bench/bench_engine.py            # all three measurements
Targets (issue 2): one unit's reachable set <= 1 ms; all legal actions for 60 units on a 40x30 map
<= 30 ms; a random Blitz game <= 0.5 s.
"""

from __future__ import annotations

import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import kaltfront  # noqa: E402
from kaltfront.movement import search  # noqa: E402

LAND = "..........====wwwhhmo"  # weights: mostly plain, roads, forest, some hills/moor/towns


def big_position(width: int = 40, height: int = 30, units: int = 60, seed: int = 1) -> kaltfront.Game:
    """A 40x30 land map with 60 Nordbund units of every land and air type, and 20 enemies."""
    rnd = random.Random(seed)
    rows = []
    for r in range(height):
        rows.append("".join(rnd.choice(LAND) for _ in range(width)))
    rows[0] = "H" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "H"
    types = [t for t, u in kaltfront.RULES.units.items() if u.movement != "see"]
    unit_list = []
    free = [(c, r) for r in range(height) for c in range(width)]
    rnd.shuffle(free)
    uid = 1
    for side, n, rows_from in (("nordbund", units, 0), ("liga", 20, height // 2)):
        placed = 0
        for c, r in free:
            if placed == n:
                break
            if (side == "nordbund") != (r < height // 2) or rows[r][c] == "H":
                continue
            t = types[(uid * 7) % len(types)]
            ut = kaltfront.RULES.units[t]
            if kaltfront.RULES.terrain_by_char[rows[r][c]].cost[ut.movement] is None:
                continue
            unit_list.append({"id": uid, "type": t, "side": side, "at": [c, r], "hp": 10, "level": 0,
                              "ammo": ut.ammo, "fuel": ut.fuel, "moved": False, "attacked": False})
            uid += 1
            placed += 1
        free = [h for h in free if h not in {tuple(u["at"]) for u in unit_list}]
    save = {"format": "kaltfront-save", "version": 1, "scenario": "bench", "name": "Bench",
            "map": {"width": width, "height": height, "terrain": rows}, "blitz": False, "fog": True,
            "round_limit": None, "first": "nordbund", "round": 2, "side": "nordbund", "phase": "move",
            "money": {"nordbund": 5000, "liga": 0},
            "buildings": [{"at": [0, 0], "type": "hq", "owner": "nordbund", "name": "", "capture": None},
                          {"at": [width - 1, height - 1], "type": "hq", "owner": "liga", "name": "",
                           "capture": None}],
            "units": unit_list, "next_id": uid, "rng": 7, "outcome": None}
    return kaltfront.Game.from_json(save)


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def report(name: str, ms: list[float], target: str) -> None:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"{name:44} median {statistics.median(ms):8.3f} ms   p95 {p95:8.3f} ms   "
          f"max {ms[-1]:8.3f} ms   (target {target})")


def main() -> None:
    print(f"Python {sys.version.split()[0]}, kaltfront {kaltfront.__version__}")
    g = big_position()
    mine = g.units_of("nordbund")
    print(f"40x30 map, {len(mine)} Nordbund units, {len(g.units_of('liga'))} Liga units, fog on")
    seen = g.visible("nordbund")
    tank = next(u for u in mine if u.type == "kampfpanzer")
    jet = next(u for u in mine if u.type == "kampfjet")
    report("reachable set, one Kampfpanzer (move 5)", timed(lambda: search(g, tank, seen), 300), "<= 1 ms")
    report("reachable set, one Kampfjet (move 10)", timed(lambda: search(g, jet, seen), 300), "<= 1 ms")
    report("Game.reachable() incl. paths, Kampfjet", timed(lambda: g.reachable(jet.id), 100), "<= 1 ms")
    # Short of fuel (D12: points pay the terrain, fuel counts hexes): the two-budget case.
    low = g.clone()
    low_tank = low.units[tank.id]
    low_jet = low.units[jet.id]
    low_tank.fuel, low_jet.fuel = 3, 6
    low_seen = low.visible("nordbund")
    report("reachable set, Kampfpanzer with 3 fuel", timed(lambda: search(low, low_tank, low_seen), 300),
           "<= 1 ms")
    report("reachable set, Kampfjet with 6 fuel", timed(lambda: search(low, low_jet, low_seen), 300),
           "<= 1 ms")

    def legal():
        g.invalidate()  # no cached vision: the full cost of a fresh position
        return g.legal_actions()
    n_actions = len(legal())
    report(f"legal_actions(), 60 units ({n_actions} actions)", timed(legal, 30), "<= 30 ms")

    blitz = [s["id"] for s in kaltfront.scenarios() if s["blitz"]] or ["uebungsplatz"]
    rnd = random.Random(1)
    times, actions = [], 0
    for k in range(30):
        game = kaltfront.new_game(blitz[k % len(blitz)], seed=k, fog=True)
        t = time.perf_counter()
        while game.outcome is None:
            acts = game.legal_actions()
            busy = [a for a in acts if not isinstance(a, kaltfront.EndPhase)]
            a = rnd.choice(busy) if busy and rnd.random() < 0.8 else kaltfront.EndPhase()
            game.apply(a)
            actions += 1
        times.append((time.perf_counter() - t) * 1000)
    report(f"random Blitz game ({', '.join(blitz[:6])})", times, "<= 500 ms")
    print(f"random Blitz games per second: {1000 * len(times) / sum(times):.1f} "
          f"({actions / len(times):.0f} actions per game)")


if __name__ == "__main__":
    main()
