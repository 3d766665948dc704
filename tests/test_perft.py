"""perft: the number of legal action sequences to a small depth from fixed positions.

The counts live in tests/perft.txt. Any change in move generation (reachability, loading, attacks,
building) changes a count, so it cannot drift unnoticed. A changed count is either a bug or a
deliberate rule change; in the second case regenerate with `python tests/test_perft.py --write` and say
why in the commit. The `open-field` position is small enough to count by hand (see its comment).
"""

from __future__ import annotations

import pathlib
import sys

import pytest

import kaltfront

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from positions import game, unit  # noqa: E402

COUNTS = pathlib.Path(__file__).with_name("perft.txt")


def positions() -> dict[str, kaltfront.Game]:
    plains = ["H......", ".......", ".......", ".......", ".......", ".......", "......H"]
    return {
        # One Jäger (movement 3) in the middle of a 7x7 plain, nothing else it can do: it reaches
        # every hex within 3 (1 + 6 + 12 + 18 = 37 hexes, minus its own) = 36 moves, + end_phase = 37.
        # No money, so no builds. Depth 2 = 36 * 1 (after a move: only end_phase)
        #   + 1 * (liga's attack phase: end_phase only) = 37.
        "open-field": game(plains, [unit(1, "jaeger", "nordbund", [3, 3])],
                           buildings={(0, 0): "nordbund", (6, 6): "liga"}),
        "uebungsplatz-start": kaltfront.new_game("uebungsplatz", seed=1, fog=True),
        # Attack phase with artillery (2-4), a tank duel and a transport with cargo on the coast.
        "skirmish": game(
            ["~~kk.=..H",
             "~kk..=w..",
             "~kk.h=..o",
             "~~k..=.w.",
             "H~k..=..."],
            [unit(1, "kampfpanzer", "nordbund", [4, 1]), unit(2, "panzerhaubitze", "nordbund", [3, 3]),
             unit(3, "landungsboot", "nordbund", [2, 2], cargo=[unit(4, "jaeger", "nordbund", None)]),
             unit(5, "kampfpanzer", "liga", [5, 1]), unit(6, "jaeger", "liga", [6, 2]),
             unit(7, "flugabwehr", "liga", [7, 3], hp=6)],
            buildings={(8, 0): "liga", (0, 4): "nordbund"}, phase="attack", money=(300, 300)),
        # Fog, hidden enemies (ambush paths) and a helicopter transport.
        "fog-and-air": game(
            ["H..ww..~~",
             "...w...k~",
             "..rrr..k~",
             "...b....H",
             "..www...."],
            [unit(1, "transporthubschrauber", "nordbund", [1, 1], cargo=[unit(2, "jaeger", "nordbund", None)]),
             unit(3, "spaehwagen", "nordbund", [1, 3]), unit(4, "pionier", "nordbund", [2, 0]),
             unit(5, "jaeger", "liga", [6, 3]), unit(6, "panzerjaeger", "liga", [5, 0])],
            buildings={(0, 0): "nordbund", (8, 3): "liga"}, fog=True, money=(100, 0)),
        # Vehicles short of fuel on terrain dearer than 1 point (D12: fuel counts hexes, points pay the
        # terrain): a Spähwagen with 3 fuel on plain, a Kampfpanzer with 3 fuel in forest, a
        # Panzerhaubitze with 1 fuel (the R15 step) and a Transporthubschrauber with 2 fuel.
        "low-fuel": game(
            ["H...ww...",
             "....www..",
             "..hh.w...",
             "......=..",
             "........H"],
            [unit(1, "spaehwagen", "nordbund", [1, 1], fuel=3), unit(2, "kampfpanzer", "nordbund", [4, 1], fuel=3),
             unit(3, "panzerhaubitze", "nordbund", [2, 3], fuel=1),
             unit(4, "transporthubschrauber", "nordbund", [7, 3], fuel=2),
             unit(5, "jaeger", "liga", [8, 2])],
            buildings={(0, 0): "nordbund", (8, 4): "liga"}),
    }


def perft(g: kaltfront.Game, depth: int) -> int:
    if depth == 0 or g.outcome is not None:
        return 1
    total = 0
    for a in g.legal_actions():
        if depth == 1:
            total += 1
            continue
        child = g.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def expected() -> list[tuple[str, int, int]]:
    rows = []
    for line in COUNTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, depth, count = line.split()
            rows.append((name, int(depth), int(count)))
    return rows


@pytest.mark.parametrize("name,depth,count", expected())
def test_perft(name, depth, count):
    """R9, R10, R14-R16, R20-R23, R34, R40-R41: move generation counted to a fixed depth."""
    assert perft(positions()[name], depth) == count


def test_open_field_is_hand_counted():
    assert ("open-field", 1, 37) in expected() and ("open-field", 2, 37) in expected()


if __name__ == "__main__" and "--write" in sys.argv:
    depths = {"open-field": (1, 2), "uebungsplatz-start": (1, 2), "skirmish": (1, 2, 3),
              "fog-and-air": (1, 2), "low-fuel": (1, 2)}
    lines = ["# name depth count — legal action sequences (tests/test_perft.py)"]
    for name, g in positions().items():
        for d in depths[name]:
            lines.append(f"{name} {d} {perft(g, d)}")
    COUNTS.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
