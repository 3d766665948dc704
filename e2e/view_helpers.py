"""Helpers shared by the issue-11 browser tests (camera, header layout, map labels, keyboard, axe):
browser contexts for the five devices of the issue, starting a game the way a player does, and reading
back what the page shows (camera centre, boxes of elements). Layout only: rule answers come from the
engine through `kaltfront.call`, never from here.
"""

from __future__ import annotations

import math
from pathlib import Path

# The app booted fast (FAST_APP: no opening pan, the computer plays without animation), the observation and
# the wait for the own turn are the same as for the issue-6/12 tests; the test files import them from here.
from offline_helpers import FAST_APP, obs, wait_my_turn  # noqa: F401

# The devices issue 11 was tried on (and COMMON.md's screenshot set).
DEVICES = {
    "desktop": {"viewport": {"width": 1366, "height": 768}},
    "phone": {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True},
    "small": {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True},
    "landscape": {"viewport": {"width": 915, "height": 412}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True},
    "tablet": {"viewport": {"width": 1024, "height": 1366}, "is_mobile": True, "has_touch": True},
}

# axe-core (npm devDependency, never served by the app), evaluated in the page by the accessibility checks.
AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"


def axe_problems(page, where: str) -> list[str]:
    """The serious and critical problems axe-core finds on the page as it is now, each named with `where`."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;void 0")  # evaluate, not a <script>: no CSP can refuse it
    result = page.evaluate("async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
                           " return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
                           " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})); }")
    return [f"{where}: {v['id']} ({v['impact']}): {v['help']} {v['nodes']}" for v in result if v["impact"] in ("serious", "critical")]


HEX_SIZE = 32
HEX_W = math.sqrt(3) * HEX_SIZE


def map_world_size(width: int, height: int) -> tuple[float, float]:
    """pwa/layout.js mapWorldSize, for checking what the camera was told."""
    return HEX_W * (width + 0.5), 1.5 * HEX_SIZE * (height - 1) + 2 * HEX_SIZE


def cube(h):
    q = h[0] - (h[1] - (h[1] & 1)) // 2
    return q, h[1], -q - h[1]


def dist(a, b) -> int:
    return max(abs(x - y) for x, y in zip(cube(a), cube(b)))


def hq_at(o: dict, own: bool):
    viewer = o["viewer"]
    return next(b["at"] for b in o["buildings"] if b["type"] == "hq" and (b["owner"] == viewer) == own and b["owner"])


def camera(page) -> dict:
    return page.evaluate(
        """() => { const c = kaltfront.camera; const m = c.toWorld(c.viewW / 2, c.viewH / 2);
                   const h = c.screenToHex(c.viewW / 2, c.viewH / 2);
                   return {x: c.x, y: c.y, scale: c.scale, cx: m.x, cy: m.y, worldW: c.worldW, worldH: c.worldH,
                           viewW: c.viewW, viewH: c.viewH, hex: [h.col, h.row]}; }"""
    )


def centre_on(page, h) -> None:
    page.evaluate("([c, r]) => { const p = kaltfront.camera.hexToScreen(c, r); const cam = kaltfront.camera;"
                  " cam.panBy(cam.viewW / 2 - p.x, cam.viewH / 2 - p.y); kaltfront.redraw(); }", list(h))


def hex_xy(page, h) -> tuple[float, float]:
    p = page.evaluate("([c, r]) => kaltfront.hexToScreen(c, r)", list(h))
    return p["x"], p["y"]


def wait_centre_near(page, h, within: int = 2, timeout: int = 5000, tol: float = 0.5) -> None:
    """The view came to rest centred on hex h, as far as the map's edges allow: the camera is where
    centring on h puts it (pwa/layout.js clamps at the edges; a map narrower than the view stays centred),
    or the hex at the centre is within `within` hexes of h. `tol`: world pixels of slack (a minimap
    click lands on the nearest minimap pixel, several world pixels wide)."""
    page.wait_for_function(
        """([e, d, tol]) => { const k = kaltfront.camera; const h = k.screenToHex(k.viewW / 2, k.viewH / 2);
             const cube = (x) => { const q = x[0] - (x[1] - (x[1] & 1)) / 2; return [q, x[1], -q - x[1]]; };
             const a = cube([h.col, h.row]), b = cube(e);
             if (Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2])) <= d) return true;
             const c = Object.assign(Object.create(Object.getPrototypeOf(k)), k);
             const p = k.hexToScreen(e[0], e[1]), w = k.toWorld(p.x, p.y);
             c.centreOn(w.x, w.y);
             return Math.abs(c.x - k.x) <= tol && Math.abs(c.y - k.y) <= tol; }""",
        arg=[list(h), within, tol],
        timeout=timeout,
    )


def start_vs_computer(page, *, blitz: bool = True, side: str = "nordbund", strength: str = "leicht", fog: bool = True) -> None:
    """Start a game against the computer through the main menu's controls."""
    page.click("label:has(#opt-blitz)" if blitz else "label:has(#opt-standard)")
    page.click("label:has(#opt-mode-ai)")
    page.select_option("#opt-side", side)
    page.select_option("#opt-strength", strength)
    if page.is_checked("#opt-fog") != fog:
        page.click("#opt-fog")
    page.click("#menu-start")
    page.wait_for_function("() => kaltfront.state.obs && kaltfront.state.game")


def box(page, selector: str) -> dict | None:
    return page.evaluate(
        "(s) => { const e = document.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect();"
        " return {x: r.left, y: r.top, w: r.width, h: r.height}; }",
        selector,
    )


def touch(page, kind: str, points) -> None:
    """Raw touch events through the DevTools protocol (Playwright has no multi-touch API)."""
    cdp = getattr(page, "_kf_cdp", None) or page.context.new_cdp_session(page)
    page._kf_cdp = cdp
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def touch_drag(page, x: float, y: float, dx: float, dy: float, steps: int = 6) -> None:
    touch(page, "touchStart", [(x, y)])
    for i in range(1, steps + 1):
        touch(page, "touchMove", [(x + dx * i / steps, y + dy * i / steps)])
    touch(page, "touchEnd", [])
