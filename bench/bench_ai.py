"""AI think time per turn (issue 4): median and worst turn per strength on every Blitz map and on the
largest standard map.

    python bench/bench_ai.py                 # native CPython
    python bench/bench_ai.py --games 2 --maps fehmarnsund
    python bench/bench_ai.py --pyodide       # the same inside Pyodide under node (node_modules/pyodide)
    python bench/bench_ai.py --load save.json --rounds 3 --strengths schwer [--pyodide]

`--load` times a late position (e.g. round 30 of a big map, written by `bench/watch_game.py --dump`):
the strength plays both sides from the save for `--rounds` rounds, and every turn is timed.

Each strength plays `--games` games against Normal (sides alternate, fog on; at most 15 rounds, since
standard maps may have no round limit); a turn's time is the sum of all `next_action` calls of that
side's turn. Prints figures only; tests never assert wall-clock.
Browser targets: Leicht <= 0.3 s, Normal <= 1 s, Schwer <= 3 s median on Blitz maps, no turn over 8 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def turn_times(map_id: str, strength: str, games: int, seed: int,
               clock=time.perf_counter, max_rounds: int = 15) -> list[float]:
    import kaltfront
    from kaltfront.ai import AIPlayer

    times: list[float] = []
    for k in range(games):
        me = "nordbund" if k % 2 == 0 else "liga"
        g = kaltfront.new_game(map_id, seed=seed + k, fog=True)
        ais = {s: AIPlayer(strength if s == me else "normal", s, seed=seed * 7 + k + (s == "liga"))
               for s in ("nordbund", "liga")}
        cur, t_turn, side = None, 0.0, None
        n = 0
        while g.outcome is None and n < 20000 and g.round <= max_rounds:
            s = g.side
            key = (g.round, s)
            if key != cur:
                if side == me and cur is not None:
                    times.append(t_turn)
                cur, t_turn, side = key, 0.0, s
            obs = g.observe(s)
            t0 = clock()
            a = ais[s].next_action(obs)
            if s == me:
                t_turn += clock() - t0
            g.apply(a)
            n += 1
        if side == me:
            times.append(t_turn)
    return times


def turn_times_from(save_text: str, strength: str, rounds: int, seed: int, clock=time.perf_counter) -> list[float]:
    """Seconds per turn when `strength` plays both sides of a saved game for `rounds` rounds."""
    import kaltfront
    from kaltfront.ai import AIPlayer

    g = kaltfront.Game.from_json(save_text)
    ais = {s: AIPlayer(strength, s, seed=seed + (s == "liga")) for s in ("nordbund", "liga")}
    last_round = g.round + rounds
    times: list[float] = []
    cur, n = None, 0
    while g.outcome is None and g.round < last_round and n < 20000:
        key = (g.round, g.side)
        if key != cur:
            times.append(0.0)
            cur = key
        obs = g.observe(g.side)
        t0 = clock()
        a = ais[g.side].next_action(obs)
        times[-1] += clock() - t0
        g.apply(a)
        n += 1
    return times


def maps_to_bench() -> list[str]:
    import kaltfront
    sc = kaltfront.scenarios()
    blitz = sorted(s["id"] for s in sc if s["blitz"])
    standard = [s for s in sc if not s["blitz"]]
    if standard:
        largest = max(standard, key=lambda s: (s["width"] * s["height"], s["id"]))
        blitz.append(largest["id"])
    return blitz


def run(maps: list[str], strengths: list[str], games: int, seed: int, cpu: bool = False) -> list[dict]:
    rows = []
    clock = time.process_time if cpu else time.perf_counter
    for m in maps:
        for st in strengths:
            t = turn_times(m, st, games, seed, clock)
            rows.append({"map": m, "strength": st, "turns": len(t),
                         "median": statistics.median(t) if t else 0.0, "max": max(t) if t else 0.0})
            print(f"{m:22} {st:7} turns {len(t):4}  median {rows[-1]['median']:.3f} s  "
                  f"worst {rows[-1]['max']:.3f} s", flush=True)
    return rows


PYODIDE_JS = r"""
const path = require('path');
const fs = require('fs');
const { loadPyodide } = require(path.join(process.env.ROOT, 'node_modules', 'pyodide'));
(async () => {
  const py = await loadPyodide();
  const root = process.env.ROOT;
  function copy(dir, dest) {
    py.FS.mkdirTree(dest);
    for (const name of fs.readdirSync(dir)) {
      const p = path.join(dir, name);
      if (fs.statSync(p).isDirectory()) { if (name !== '__pycache__') copy(p, dest + '/' + name); }
      else py.FS.writeFile(dest + '/' + name, fs.readFileSync(p));
    }
  }
  copy(path.join(root, 'kaltfront'), '/work/kaltfront');
  copy(path.join(root, 'bench'), '/work/bench');
  if (process.env.LOAD) py.FS.writeFile('/work/load.json', fs.readFileSync(process.env.LOAD));
  py.runPython(`
import sys
sys.path.insert(0, '/work')
sys.argv = ['bench_ai.py'] + ${JSON.stringify(process.env.ARGS)}.split()
sys.path.insert(0, '/work/bench')
import bench_ai
bench_ai.main(sys.argv[1:])
`);
})().catch(e => { console.error(e); process.exit(1); });
"""


def run_pyodide(argv: list[str], load: str = "") -> int:
    args = [a for a in argv if a != "--pyodide"]
    if load:  # the save is copied into Pyodide's file system under a fixed name
        i = args.index("--load")
        args[i + 1] = "/work/load.json"
    env = dict(os.environ, ROOT=ROOT, ARGS=" ".join(args), LOAD=os.path.abspath(load) if load else "")
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "pyodide")):
        print("node_modules/pyodide fehlt (npm ci)", file=sys.stderr)
        return 2
    return subprocess.call(["node", "-e", PYODIDE_JS], env=env, cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/bench_ai.py")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--maps", default="", help="comma-separated map ids (default: Blitz maps + largest standard)")
    p.add_argument("--strengths", default="leicht,normal,schwer")
    p.add_argument("--pyodide", action="store_true")
    p.add_argument("--cpu", action="store_true",
                   help="measure process CPU time instead of wall-clock (steadier on a busy machine)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--load", default="", help="time the turns of this saved game instead of new games")
    p.add_argument("--rounds", type=int, default=3, help="with --load: how many rounds to play from the save")
    args = p.parse_args(argv)
    if args.pyodide:
        return run_pyodide(list(argv if argv is not None else sys.argv[1:]), args.load)
    if args.load:
        with open(args.load, encoding="utf-8") as f:
            text = f.read()
        clock = time.process_time if args.cpu else time.perf_counter
        print(f"# {platform.python_implementation()} {platform.python_version()} ({sys.platform}), "
              f"{args.load}, {args.rounds} rounds, {'CPU' if args.cpu else 'wall-clock'} time")
        for st in [s for s in args.strengths.split(",") if s]:
            t = turn_times_from(text, st, args.rounds, args.seed, clock)
            print(f"{'loaded':22} {st:7} turns {len(t):4}  median {statistics.median(t):.3f} s  "
                  f"worst {max(t):.3f} s  each {' '.join(f'{x:.2f}' for x in t)}", flush=True)
        return 0
    maps = [m for m in args.maps.split(",") if m] or maps_to_bench()
    print(f"# {platform.python_implementation()} {platform.python_version()} ({sys.platform}), "
          f"{args.games} games per strength and map, fog on, {'CPU' if args.cpu else 'wall-clock'} time")
    rows = run(maps, [s for s in args.strengths.split(",") if s], args.games, args.seed, args.cpu)
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
