"""The hex grid: odd-r offset coordinates, neighbours and distances.

Maps are rectangles of pointy-top hexes whose odd rows sit half a hex to the right ("odd-r", Red Blob
Games). A hex is `Hex(col, row)`; algorithms convert to cube coordinates, where distance is simple.
For speed the engine also numbers hexes `index = row * width + col` and keeps neighbour lists per map.
The neighbour order is fixed and shared with the JS layout module: E, NE, NW, W, SW, SE.
"""

from __future__ import annotations

from typing import NamedTuple

from .limits import MAX_COORD


class Hex(NamedTuple):
    col: int
    row: int

    def to_json(self) -> list[int]:
        return [self.col, self.row]


# (dcol, drow) per direction E, NE, NW, W, SW, SE, for even and for odd rows.
_EVEN_ROW = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
_ODD_ROW = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))


def neighbours(h: Hex) -> list[Hex]:
    """The six neighbours of `h` in the fixed direction order (off-map ones included)."""
    deltas = _ODD_ROW if h.row & 1 else _EVEN_ROW
    return [Hex(h.col + dc, h.row + dr) for dc, dr in deltas]


def to_cube(h: Hex) -> tuple[int, int, int]:
    q = h.col - (h.row - (h.row & 1)) // 2
    r = h.row
    return q, r, -q - r


def distance(a: Hex, b: Hex) -> int:
    aq, ar, as_ = to_cube(a)
    bq, br, bs = to_cube(b)
    return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))


def parse_hex(value: object) -> Hex:
    """A hex from JSON `[col, row]`; raises ValueError with a German message otherwise. Coordinates
    beyond MAX_COORD (no map is wider than 200) are refused as hostile before anything prints them."""
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and -MAX_COORD <= v <= MAX_COORD
                    for v in value)):
        return Hex(value[0], value[1])
    raise ValueError("Kein gültiges Feld: erwartet [Spalte, Zeile] mit zwei ganzen Zahlen.")


class Grid:
    """A width x height rectangle with precomputed neighbour indices and cube coordinates."""

    __slots__ = ("width", "height", "size", "neighbours", "cube")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.size = width * height
        self.neighbours: list[tuple[int, ...]] = []
        self.cube: list[tuple[int, int, int]] = []
        for i in range(self.size):
            h = self.hex(i)
            self.cube.append(to_cube(h))
            self.neighbours.append(tuple(
                n.row * width + n.col for n in neighbours(h)
                if 0 <= n.col < width and 0 <= n.row < height))

    def index(self, h: Hex) -> int:
        return h.row * self.width + h.col

    def hex(self, i: int) -> Hex:
        return Hex(i % self.width, i // self.width)

    def contains(self, h: Hex) -> bool:
        return 0 <= h.col < self.width and 0 <= h.row < self.height

    def dist(self, a: int, b: int) -> int:
        aq, ar, as_ = self.cube[a]
        bq, br, bs = self.cube[b]
        return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))

    def within(self, centre: int, radius: int) -> list[int]:
        """All hex indices at distance <= radius from centre (on the map), row by row, west to east."""
        # Sight (R20) asks this for every unit after every action: each row of the disc is one run of
        # hexes, found from cube coordinates (|dq|, |dr|, |dq + dr| <= radius) instead of testing the
        # distance of every hex in the bounding box.
        w = self.width
        q0, r0, _ = self.cube[centre]
        out: list[int] = []
        for row in range(max(0, r0 - radius), min(self.height, r0 + radius + 1)):
            dr = row - r0
            shift = (row - (row & 1)) // 2  # col = q + shift in odd-r offset coordinates
            lo = max(0, q0 + max(-radius, -radius - dr) + shift)
            hi = min(w - 1, q0 + min(radius, radius - dr) + shift)
            base = row * w
            out.extend(range(base + lo, base + hi + 1))
        return out
