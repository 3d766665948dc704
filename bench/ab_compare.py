"""Compare two arms of the AI game by game on the same seeds (issue 16: the project's rule for keeping a change).

    # from a tree of HEAD (git archive HEAD | tar -x -C base), one file per seed:
    python -m kaltfront selfplay --map grosser-belt --nordbund schwer --liga normal --games 20
        --swap --fog --max-rounds 60 --seed 175000 --jobs 1 > out/base_175000.txt
    (the same from a tree with the change, into out/arm_175000.txt; more seeds alike)
    python bench/ab_compare.py --a out/base_*.txt --b out/arm_*.txt [--strength schwer]

Reads the per-game lines that `selfplay` prints ("seed N  X vs Y  -> result, end, Runde R"), pairs the
games of the two arms by map and seed (self-play is deterministic per seed), and prints for each input
file pair how many games ended by HQ capture or "no army" (R48, R49; not "stalled" at the round cap),
then over all pairs: the ends of each arm with a 95 % Wilson interval, the games only one arm ended,
the two-sided exact sign test on those, and the ends by the side the given strength played. The rule
(docs/ai.md): keep a change only with a clear game-by-game gain (p well below 0.1) on 120 games or
more, on seeds it was not tuned on.
"""

from __future__ import annotations

import argparse
import glob
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaltfront.roundrobin import wilson  # noqa: E402

GAME = re.compile(r"^\s+(\S+)\s+seed\s+(\d+)\s+(\w+) vs (\w+)\s+->\s+(.*)$")


def games(path: str) -> dict[tuple[str, int], tuple[str, str, bool]]:
    """(map, seed) -> (Nordbund's player, Liga's player, ended) for one selfplay output file."""
    out = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        m = GAME.match(line)
        if m:
            out[(m.group(1), int(m.group(2)))] = (m.group(3), m.group(4), "stalled" not in m.group(5))
    return out


def sign_test(a: int, b: int) -> float:
    """Two-sided exact binomial test of a against b discordant games (p = 1/2 each)."""
    n = a + b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(a, b) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", nargs="+", required=True, help="selfplay outputs of arm A (globs allowed)")
    ap.add_argument("--b", nargs="+", required=True, help="selfplay outputs of arm B, same seeds")
    ap.add_argument("--strength", default="schwer", help="whose side the by-side count follows")
    args = ap.parse_args()
    per_file_a = {f: games(f) for f in sorted(f for pat in args.a for f in glob.glob(pat))}
    a_all = {k: v for ga in per_file_a.values() for k, v in ga.items()}
    b_all = {k: v for f in sorted(f for pat in args.b for f in glob.glob(pat)) for k, v in games(f).items()}
    for f, ga in per_file_a.items():
        keys = [k for k in ga if k in b_all]
        if keys:
            print(f"{Path(f).name}: A {sum(ga[k][2] for k in keys)} of {len(keys)}, "
                  f"B {sum(b_all[k][2] for k in keys)} of {len(keys)}")
    keys = sorted(k for k in a_all if k in b_all)
    n = len(keys)
    ends_a = sum(a_all[k][2] for k in keys)
    ends_b = sum(b_all[k][2] for k in keys)
    only_a = sum(1 for k in keys if a_all[k][2] and not b_all[k][2])
    only_b = sum(1 for k in keys if b_all[k][2] and not a_all[k][2])
    for name, ends in (("A", ends_a), ("B", ends_b)):
        lo, hi = wilson(ends, n)
        print(f"{name}: {ends} of {n} ended ({ends / max(1, n):.0%}, Wilson {lo:.0%}-{hi:.0%})")
    print(f"only A ended {only_a}, only B ended {only_b}: sign test p = {sign_test(only_a, only_b):.3f}")
    for side, col in (("Nordbund", 0), ("Liga", 1)):
        mine = [k for k in keys if a_all[k][col] == args.strength]
        print(f"{args.strength} as {side}: A {sum(a_all[k][2] for k in mine)}, "
              f"B {sum(b_all[k][2] for k in mine)} of {len(mine)}")


if __name__ == "__main__":
    main()
