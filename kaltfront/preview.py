"""Map preview: draws a scenario as a standalone SVG (or PNG) so its geography can be checked by eye.

`python -m kaltfront preview MAP --out map.svg` calls `main`; MAP is a scenario id (`bornholm`) or the
path of a `.map` file. The drawing uses the same odd-r, pointy-top layout and the same terrain and faction
colours as the browser (`pwa/layout.js`, `pwa/palette.js`): buildings with an owner ring and their name,
HQs as stars, start units as labelled markers, a legend and the title. Standard library only; a PNG is
made by screenshotting the SVG with a headless Chromium, when one is installed.
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

from .hexgrid import Hex, neighbours
from .mapfile import MapError, Scenario, load_scenario, parse_map, scenario_ids
from .rulesdata import RULES, SIDE_NAMES

TERRAIN_COLOUR = {
    "ebene": "#c7d39b", "strasse": "#d9cda6", "wald": "#6f9950", "huegel": "#b9ad6c",
    "gebirge": "#9b9183", "moor": "#8aa08a", "fluss": "#6aa6d8", "bruecke": "#6aa6d8",
    "ortschaft": "#d2c2a4", "see": "#2f6596", "kueste": "#5792c4", "faehrlinie": "#5792c4",
}
BUILDING_FILL = "#d6d0bd"
SIDE_COLOUR = {"nordbund": "#2f6fd6", "liga": "#ef8a17"}
SIDE_DARK = {"nordbund": "#15336e", "liga": "#7a3a00"}
NEUTRAL = "#8a8a8a"
BUILDING_LETTER = {"hq": "HQ", "stadt": "S", "werk": "W", "flugplatz": "F", "hafen": "P", "depot": "D"}
UNIT_LABEL = {
    "jaeger": "Jg", "pionier": "Pi", "panzerjaeger": "PzJ", "spaehwagen": "Sp", "raketenwerfer": "RW",
    "transporter": "LKW", "versorger": "Vs", "schuetzenpanzer": "SPz", "kampfpanzer": "KPz",
    "panzerhaubitze": "PzH", "flugabwehr": "Fla", "kampfhubschrauber": "KHs",
    "transporthubschrauber": "THs", "kampfjet": "Jet", "drohne": "Dr", "fregatte": "Fr",
    "patrouillenboot": "PB", "landungsboot": "LB", "faehre": "Fä",
}
SQRT3 = math.sqrt(3.0)


def _centre(col: int, row: int, size: float, ox: float, oy: float) -> tuple[float, float]:
    return ox + size * SQRT3 * (col + 0.5 * (row & 1)), oy + size * 1.5 * row


def _corners(x: float, y: float, size: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{x + size * math.cos(a):.1f},{y + size * math.sin(a):.1f}")
    return " ".join(pts)


def _star(x: float, y: float, r_out: float, r_in: float) -> str:
    pts = []
    for i in range(10):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(-90 + 36 * i)
        pts.append(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}")
    return " ".join(pts)


def render_svg(scenario: Scenario, size: float = 22.0) -> str:
    """The whole map as one SVG document (text)."""
    w, h = scenario.width, scenario.height
    margin = 22.0
    title_h = 58.0
    ox = margin + size * SQRT3 / 2
    oy = margin + title_h + size
    map_w = size * SQRT3 * (w + 0.5)
    map_h = size * (1.5 * (h - 1) + 2)
    legend_w = 210.0
    total_w = margin * 2 + map_w + legend_w
    total_h = max(oy + map_h - size + margin + 24, title_h + 640.0)
    out: list[str] = []
    add = out.append
    add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
        f'viewBox="0 0 {total_w:.0f} {total_h:.0f}" font-family="DejaVu Sans, Arial, sans-serif">')
    add('<rect width="100%" height="100%" fill="#f4f1e8"/>')
    kind = "Blitz" if scenario.blitz else "Standard"
    limit = f"{scenario.round_limit} Runden" if scenario.round_limit else "ohne Rundenlimit"
    add(f'<text x="{margin}" y="{margin + 22}" font-size="22" font-weight="bold">'
        f'{escape(scenario.name)}</text>')
    add(f'<text x="{margin}" y="{margin + 44}" font-size="13" fill="#444">'
        f'{escape(scenario.id)} · {kind} · {w}×{h} Felder · {escape(scenario.region or "–")} · {limit} · '
        f'Geld {scenario.money["nordbund"]} / {scenario.money["liga"]}</text>')

    # Terrain
    for i, tid in enumerate(scenario.terrain):
        col, row = i % w, i // w
        x, y = _centre(col, row, size, ox, oy)
        fill = TERRAIN_COLOUR.get(tid, BUILDING_FILL)
        add(f'<polygon points="{_corners(x, y, size)}" fill="{fill}" stroke="#00000022" '
            f'stroke-width="0.8"/>')
    # Terrain details drawn on top: roads and bridges as links between neighbouring hexes, the ferry
    # line dashed, then town roofs, trees, hills, moor and river marks.
    land_like = {tid for tid, t in RULES.terrain.items() if not t.water}
    links = {"strasse": ("#8c7a52", 4.0, ""), "bruecke": ("#5a4634", 6.0, ""),
             "faehrlinie": ("#ffffff", 2.4, ' stroke-dasharray="5 4"')}
    road_ends = {"strasse", "bruecke", "ortschaft"} | set(BUILDING_LETTER)
    for i, tid in enumerate(scenario.terrain):
        if tid not in links:
            continue
        col, row = i % w, i // w
        x, y = _centre(col, row, size, ox, oy)
        colour, width, dash = links[tid]
        ends = road_ends if tid == "strasse" else (land_like | {"faehrlinie"} if tid == "faehrlinie"
                                                  else land_like)
        drawn = False
        for n in neighbours(Hex(col, row)):
            if not (0 <= n.col < w and 0 <= n.row < h):
                continue
            other = scenario.terrain[n.row * w + n.col]
            if other in ends:
                nx, ny = _centre(n.col, n.row, size, ox, oy)
                mx, my = (x + nx) / 2, (y + ny) / 2
                add(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{mx:.1f}" y2="{my:.1f}" stroke="{colour}" '
                    f'stroke-width="{width}" stroke-linecap="round"{dash}/>')
                drawn = True
        if not drawn:
            add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{width:.1f}" fill="{colour}"/>')
    for i, tid in enumerate(scenario.terrain):
        col, row = i % w, i // w
        x, y = _centre(col, row, size, ox, oy)
        s = size
        if tid == "ortschaft":
            for dx, dy in ((-0.3, -0.1), (0.25, -0.2), (0.0, 0.3)):
                add(f'<rect x="{x + dx * s - 4:.1f}" y="{y + dy * s - 4:.1f}" width="8" height="7" '
                    f'fill="#9c5b3a"/>')
        elif tid == "wald":
            for dx, dy in ((-0.35, 0.15), (0.3, 0.2), (0.0, -0.25)):
                add(f'<circle cx="{x + dx * s:.1f}" cy="{y + dy * s:.1f}" r="{s * 0.2:.1f}" '
                    f'fill="#3f6b2c"/>')
        elif tid == "huegel":
            add(f'<path d="M{x - s * 0.6:.1f},{y + s * 0.3:.1f} Q{x:.1f},{y - s * 0.6:.1f} '
                f'{x + s * 0.6:.1f},{y + s * 0.3:.1f}" fill="none" stroke="#7a6b33" stroke-width="2"/>')
        elif tid == "gebirge":
            add(f'<polygon points="{x - s * 0.55:.1f},{y + s * 0.35:.1f} {x:.1f},{y - s * 0.5:.1f} '
                f'{x + s * 0.55:.1f},{y + s * 0.35:.1f}" fill="#6e665c"/>')
        elif tid == "moor":
            for dy in (-0.2, 0.15):
                add(f'<line x1="{x - s * 0.45:.1f}" y1="{y + dy * s:.1f}" x2="{x + s * 0.45:.1f}" '
                    f'y2="{y + dy * s:.1f}" stroke="#4d6b55" stroke-width="1.6"/>')
        elif tid == "fluss":
            add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s * 0.18:.1f}" fill="#3b7fc0"/>')
    # Column and row numbers, as used in the map file's [buildings] and [units] sections.
    for col in range(w):
        x, _ = _centre(col, 0, size, ox, oy)
        add(f'<text x="{x:.1f}" y="{oy - size - 3:.1f}" font-size="9" fill="#666" '
            f'text-anchor="middle">{col}</text>')
    for row in range(h):
        _, y = _centre(0, row, size, ox, oy)
        add(f'<text x="{margin - 2:.1f}" y="{y + 3:.1f}" font-size="9" fill="#666" '
            f'text-anchor="end">{row}</text>')

    # Buildings
    for b in scenario.buildings:
        x, y = _centre(b.at.col, b.at.row, size, ox, oy)
        ring = SIDE_COLOUR[b.owner] if b.owner else NEUTRAL
        if b.type == "hq":
            dark = SIDE_DARK[b.owner or "nordbund"]
            add(f'<polygon points="{_corners(x, y, size * 0.95)}" fill="{dark}" stroke="{ring}" '
                f'stroke-width="4"/>')
            add(f'<polygon points="{_star(x, y, size * 0.7, size * 0.3)}" fill="#ffd84a" '
                f'stroke="#000" stroke-width="0.8"/>')
        else:
            add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.62:.1f}" fill="#f2eee0" '
                f'stroke="{ring}" stroke-width="3.5"/>')
            add(f'<text x="{x:.1f}" y="{y + size * 0.22:.1f}" font-size="{size * 0.62:.1f}" '
                f'font-weight="bold" text-anchor="middle" fill="#222">{BUILDING_LETTER[b.type]}</text>')
        if b.name:
            label = b.name
            if b.type == "hq" and b.owner:
                label = f"HQ {SIDE_NAMES[b.owner]} · {b.name}"
            add(f'<text x="{x:.1f}" y="{y + size * 1.25:.1f}" font-size="{size * 0.5:.1f}" '
                f'text-anchor="middle" fill="#111" stroke="#fff" stroke-width="2.5" '
                f'paint-order="stroke">{escape(label)}</text>')

    # Start units
    for u in scenario.units:
        x, y = _centre(u.at.col, u.at.row, size, ox, oy)
        ux, uy = x + size * 0.32, y - size * 0.32
        add(f'<rect x="{ux - size * 0.5:.1f}" y="{uy - size * 0.3:.1f}" width="{size:.1f}" '
            f'height="{size * 0.6:.1f}" rx="3" fill="{SIDE_COLOUR[u.side]}" stroke="#fff" '
            f'stroke-width="1"/>')
        label = UNIT_LABEL.get(u.type, u.type[:3]) + ("+" if u.cargo else "")
        add(f'<text x="{ux:.1f}" y="{uy + size * 0.17:.1f}" font-size="{size * 0.42:.1f}" '
            f'text-anchor="middle" fill="#fff" font-weight="bold">{escape(label)}</text>')

    # Legend
    lx = margin * 2 + map_w
    ly = oy - size
    add(f'<text x="{lx}" y="{ly}" font-size="14" font-weight="bold">Legende</text>')
    ly += 10
    for tid, t in RULES.terrain.items():
        if tid in BUILDING_LETTER:
            continue
        add(f'<polygon points="{_corners(lx + 10, ly + 10, 9)}" fill="{TERRAIN_COLOUR[tid]}" '
            f'stroke="#0003"/>')
        add(f'<text x="{lx + 26}" y="{ly + 15}" font-size="12">{t.char}  {escape(t.name)}</text>')
        ly += 21
    ly += 6
    for bid, letter in BUILDING_LETTER.items():
        if bid == "hq":
            add(f'<polygon points="{_star(lx + 10, ly + 10, 9, 4)}" fill="#ffd84a" stroke="#000" '
                f'stroke-width="0.6"/>')
        else:
            add(f'<circle cx="{lx + 10}" cy="{ly + 10}" r="8" fill="#f2eee0" stroke="{NEUTRAL}" '
                f'stroke-width="2"/><text x="{lx + 10}" y="{ly + 14}" font-size="10" '
                f'text-anchor="middle" font-weight="bold">{letter}</text>')
        add(f'<text x="{lx + 26}" y="{ly + 15}" font-size="12">{escape(RULES.buildings[bid].name)}</text>')
        ly += 21
    ly += 6
    for side, colour in SIDE_COLOUR.items():
        add(f'<rect x="{lx + 1}" y="{ly + 3}" width="18" height="12" rx="3" fill="{colour}"/>')
        add(f'<text x="{lx + 26}" y="{ly + 15}" font-size="12">{SIDE_NAMES[side]}</text>')
        ly += 21
    add(f'<circle cx="{lx + 10}" cy="{ly + 10}" r="7" fill="none" stroke="{NEUTRAL}" stroke-width="3"/>')
    add(f'<text x="{lx + 26}" y="{ly + 15}" font-size="12">neutral</text>')
    ly += 28
    add(f'<text x="{lx}" y="{ly}" font-size="11" fill="#444">Norden ist oben.</text>')
    add("</svg>")
    return "\n".join(out)


def _load(spec: str) -> Scenario:
    path = Path(spec)
    if spec.endswith(".map") or path.exists():
        return parse_map(path.read_text(encoding="utf-8"), path.stem, path.name)
    return load_scenario(spec)


def _svg_to_png(svg: str, out: Path) -> None:
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if browser is None:
        raise RuntimeError("PNG braucht einen Chromium im Pfad; schreibe sonst eine .svg-Datei")
    head = svg.split(">", 1)[0]
    width = int(float(head.split('width="', 1)[1].split('"', 1)[0]))
    height = int(float(head.split('height="', 1)[1].split('"', 1)[0]))
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "map.svg"
        page.write_text(svg, encoding="utf-8")
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}",
                        f"--screenshot={out.resolve()}", page.as_uri()],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kaltfront preview",
        description="Zeichnet eine Karte als SVG (oder PNG), um die Geografie zu prüfen.")
    parser.add_argument("map", metavar="MAP",
                        help=f"Szenario-Id ({', '.join(scenario_ids())}) oder Pfad einer .map-Datei")
    parser.add_argument("--out", required=True, help="Ausgabedatei, .svg oder .png")
    args = parser.parse_args(argv)
    try:
        scenario = _load(args.map)
    except KeyError:
        print(f"Unbekannte Karte: {args.map}", file=sys.stderr)
        return 2
    except MapError as e:
        print(str(e), file=sys.stderr)
        return 2
    svg = render_svg(scenario)
    out = Path(args.out)
    if out.suffix.lower() == ".png":
        try:
            _svg_to_png(svg, out)
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            print(f"PNG nicht möglich: {e}", file=sys.stderr)
            return 1
    else:
        out.write_text(svg, encoding="utf-8")
    print(f"{out} geschrieben ({scenario.width}×{scenario.height})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
