"""Draw Kaltfront's app icons as PNG files (standard library only: the pixels are computed here and
written with zlib), so the icons can be regenerated anywhere without an image library.

    python tools/make_icons.py            # writes icons/*.png

The motif is the game's own: a pointy-top hex split into the two faction colours (Nordbund blue left,
Baltische Liga orange right, the colours of pwa/palette.js) with a white star, the HQ symbol, on the
dark theme colour of manifest.json. Outputs:

- icon-192.png, icon-512.png   purpose "any": rounded square, transparent corners.
- icon-maskable-512.png        purpose "maskable": full-bleed background, motif inside the central
                               safe circle (radius 40 % of the size) so any launcher mask keeps it.
- apple-touch-icon.png         180 px, full-bleed and opaque: iOS fills transparency with black and
                               rounds the corners itself.

The PNGs are committed as source assets; the service worker precaches them by content hash. The
output is deterministic (same script, same bytes), so rerunning it never invalidates caches.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "icons"

# Colours (r, g, b): the theme colour of manifest.json/index.html and the faction colours of
# pwa/palette.js (SIDE_COLOUR), so the icon matches the map.
BACKGROUND = (0x13, 0x26, 0x3D)
NORDBUND = (0x2F, 0x6F, 0xD6)
LIGA = (0xEF, 0x8A, 0x17)
RIM = (0xE8, 0xEE, 0xF7)
STAR = (0xFF, 0xFF, 0xFF)
STAR_EDGE = (0x13, 0x26, 0x3D)

Colour = tuple[int, int, int, int]


def hex_inside(x: float, y: float, radius: float) -> bool:
    """Inside a pointy-top regular hexagon of circumradius `radius` centred at the origin."""
    ax, ay = abs(x), abs(y)
    half_width = radius * math.sqrt(3) / 2
    return ax <= half_width and ay <= radius - ax / math.sqrt(3)


def star_polygon(radius: float) -> list[tuple[float, float]]:
    """A five-pointed star, point up, inner radius 0.4 of the outer one (a classic HQ star)."""
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.4
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((r * math.cos(angle), r * math.sin(angle)))
    return points


def poly_inside(x: float, y: float, poly: list[tuple[float, float]]) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def rounded_square_inside(x: float, y: float, half: float, corner: float) -> bool:
    ax, ay = abs(x), abs(y)
    if ax > half or ay > half:
        return False
    cx, cy = half - corner, half - corner
    if ax > cx and ay > cy:
        return (ax - cx) ** 2 + (ay - cy) ** 2 <= corner**2
    return True


class Motif:
    """The icon as a function from a point (in units of the icon size, origin at the centre) to a colour."""

    def __init__(self, hex_radius: float, full_bleed: bool) -> None:
        self.hex_radius = hex_radius
        self.rim = hex_radius * 0.085
        self.star = star_polygon(hex_radius * 0.5)
        self.star_edge = star_polygon(hex_radius * 0.5 + hex_radius * 0.07)
        self.full_bleed = full_bleed

    def colour(self, x: float, y: float) -> Colour:
        if not self.full_bleed and not rounded_square_inside(x, y, 0.5, 0.18):
            return (0, 0, 0, 0)
        inner = self.hex_radius - self.rim
        if hex_inside(x, y, inner):
            # A thin dark outline keeps the white star readable against the orange half.
            if poly_inside(x, y, self.star):
                return (*STAR, 255)
            if poly_inside(x, y, self.star_edge):
                return (*STAR_EDGE, 255)
            return (*(NORDBUND if x < 0 else LIGA), 255)
        if hex_inside(x, y, self.hex_radius):
            return (*RIM, 255)
        return (*BACKGROUND, 255)


def render(size: int, motif: Motif, samples: int = 4) -> bytes:
    """RGBA rows, anti-aliased: pixels whose corners agree take one sample, edge pixels samples²."""
    rows = bytearray()
    step = 1.0 / size
    for py in range(size):
        rows.append(0)  # PNG filter type 0 (none) for this row
        for px in range(size):
            x0, y0 = px * step - 0.5, py * step - 0.5
            corners = {
                motif.colour(x0, y0),
                motif.colour(x0 + step, y0),
                motif.colour(x0, y0 + step),
                motif.colour(x0 + step, y0 + step),
                motif.colour(x0 + step / 2, y0 + step / 2),
            }
            if len(corners) == 1:
                rows.extend(corners.pop())
                continue
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in range(samples):
                for sx in range(samples):
                    r, g, b, a = motif.colour(x0 + (sx + 0.5) * step / samples, y0 + (sy + 0.5) * step / samples)
                    # Premultiplied, so transparent samples do not darken the edge.
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            alpha = acc[3] / samples**2
            if alpha == 0:
                rows.extend((0, 0, 0, 0))
            else:
                rows.extend((round(acc[0] / acc[3]), round(acc[1] / acc[3]), round(acc[2] / acc[3]), round(alpha)))
    return bytes(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rgba_rows, 9)) + chunk(b"IEND", b"")


ICONS = {
    # name: (size, hex circumradius as a fraction of the size, full bleed)
    "icon-192.png": (192, 0.40, False),
    "icon-512.png": (512, 0.40, False),
    # Maskable safe zone: a circle of radius 0.40; the hex's circumradius stays inside it.
    "icon-maskable-512.png": (512, 0.33, True),
    "apple-touch-icon.png": (180, 0.38, True),
}


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for name, (size, radius, full_bleed) in ICONS.items():
        data = png(size, render(size, Motif(radius, full_bleed)))
        path = OUT / name
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        print(f"make_icons: icons/{name} {size}×{size} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
