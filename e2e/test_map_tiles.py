"""Issue 14 (memory): the map's terrain and fog come from tiles kept around the view (pwa/render.js
`drawTiles`), not from two canvases of the whole map in device pixels (2 × 57 MB on a phone), and the
unit sprites stay within their budget however far the player zooms.

One phone page (412×915 CSS px at devicePixelRatio 2.625, the largest map, Deutsche Bucht, with fog):
- at several places and zoom levels the tiles give the picture that drawing the hexes straight gives
  (a missing or misplaced tile, a seam or stale fog would differ in whole hexes), and the renderer keeps
  no more tiles than twice what the view needs (at least 16);
- when what the player sees changes (here: the other side's view of the same map), the kept tiles show
  the new fog (R11: fog of war);
- a wheel sweep across the whole zoom range keeps the sprites within 24 MB and the tiles within bound.
"""

from __future__ import annotations

import pytest

from view_helpers import FAST_APP

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2.625, "is_mobile": True, "has_touch": True}

# The tiles alone (drawTiles into a blank canvas) against the hexes drawn straight at the view's scale
# (the same terrain sprites and fog paths, no tiles): per pixel, the largest channel difference.
COMPARE = """() => {
  const R = kaltfront.renderer, cam = kaltfront.camera, obs = kaltfront.state.obs, dpr = R.dpr;
  kaltfront.redraw();
  const q = R.tileQ, W = R.canvas.width, H = R.canvas.height;
  const tiled = new OffscreenCanvas(W, H), straight = new OffscreenCanvas(W, H);
  const own = R.ctx;
  R.ctx = tiled.getContext("2d");
  try { R.drawTiles(obs, q); } finally { R.ctx = own; }
  const s = straight.getContext("2d");
  s.setTransform(dpr * cam.scale, 0, 0, dpr * cam.scale, -cam.x * cam.scale * dpr, -cam.y * cam.scale * dpr);
  R.drawTerrainRange(s, obs, q, 0, obs.width - 1, 0, obs.height - 1);
  R.drawFogRange(s, obs, 0, obs.width - 1, 0, obs.height - 1);
  const a = tiled.getContext("2d").getImageData(0, 0, W, H).data, b = s.getImageData(0, 0, W, H).data;
  let bad = 0, sum = 0;
  for (let i = 0; i < a.length; i += 4) {
    const d = Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2]), Math.abs(a[i + 3] - b[i + 3]));
    sum += d; if (d > 64) bad++;
  }
  const k = cam.scale * dpr / q, across = Math.ceil(W / k / 256) + 1, down = Math.ceil(H / k / 256) + 1;
  return {bad: bad / (W * H), mean: sum / (W * H), tiles: R.tiles.size, bound: Math.max(16, 2 * across * down),
          spriteBytes: R.spriteBytes, fogged: obs.visible.join("").split("0").length - 1};
}"""


def check_picture(page, where: str) -> dict:
    r = page.evaluate(COMPARE)
    assert r["bad"] < 0.005 and r["mean"] < 3, f"{where}: the tiles differ from the hexes drawn straight: {r}"
    assert r["tiles"] <= r["bound"], f"{where}: {r['tiles']} tiles kept, more than {r['bound']}"
    return r


def start(page, human: str) -> None:
    """Deutsche Bucht with fog, `human` against the computer (Leicht), the human's turn, seed 5."""
    other = "liga" if human == "nordbund" else "nordbund"
    page.evaluate(f"() => kaltfront.startGame({{scenario: 'deutsche-bucht', fog: true, seed: 5,"
                  f" players: {{{human}: 'human', {other}: 'leicht'}}}})")
    page.wait_for_function("(side) => kaltfront.state.obs && kaltfront.state.obs.side === side && kaltfront.myTurn()"
                           " && !kaltfront.state.busy", arg=human, timeout=180_000)


def test_tiles_show_the_map_and_fog_and_stay_bounded(new_context, base_url, wait_for_engine):
    """Issue 14: tiles = the map drawn straight, at every zoom and place; bounded; fog follows (R11)."""
    ctx = new_context(**PHONE)
    ctx.add_init_script(FAST_APP)
    page = ctx.new_page()
    page.goto(base_url)
    wait_for_engine(page)
    start(page, "liga")
    first = check_picture(page, "the start")
    assert first["fogged"] > 0, "the test needs fog on the map"

    for where, js in [
        ("zoomed in", "k => k.zoomAt(3, k.viewW / 2, k.viewH / 2)"),
        ("panned right and down", "k => k.panBy(-k.viewW * 1.3, -k.viewH * 0.8)"),
        ("zoomed out", "k => k.zoomAt(0.1, k.viewW / 2, k.viewH / 2)"),
        ("half way in, at the left", "k => { k.zoomAt(1.7, k.viewW / 2, k.viewH / 2); k.panBy(k.viewW * 2, 0); }"),
    ]:
        page.evaluate(f"() => {{ ({js})(kaltfront.camera); kaltfront.redraw(); }}")
        check_picture(page, where)

    # Wheel notches in and out across the whole range, each its own gesture (sharpened after 150 ms).
    box = page.locator("#map").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for delta in [-120] * 20 + [120] * 20:
        page.mouse.wheel(0, delta)
        page.wait_for_timeout(60)
    page.wait_for_timeout(400)
    swept = check_picture(page, "after a zoom sweep")
    assert 0 < swept["spriteBytes"] <= 24e6, f"sprites hold {swept['spriteBytes'] / 1e6:.1f} MB"

    # The other side's view of the same map: with the camera on a hex that one side sees and the other
    # does not, the tiles drawn with the first view's fog must show the second's (R11).
    liga = page.evaluate("() => kaltfront.state.obs.visible")
    start(page, "nordbund")
    nord = page.evaluate("() => kaltfront.state.obs.visible")
    differ = [(c, r) for r in range(len(nord)) for c in range(len(nord[r])) if nord[r][c] != liga[r][c]]
    assert differ, "the two sides see the same hexes: the fog check would prove nothing"
    target = differ[len(differ) // 2]
    start(page, "liga")
    page.evaluate("([c, r]) => { const k = kaltfront.camera; const p = k.hexToScreen(c, r);"
                  " k.panBy(k.viewW / 2 - p.x, k.viewH / 2 - p.y); kaltfront.redraw(); }", list(target))
    view = page.evaluate("() => kaltfront.camera.snapshot()")
    start(page, "nordbund")
    stale = page.evaluate("""(v) => { const R = kaltfront.renderer, old = new Set(R.tiles.keys());
      kaltfront.camera.restore(v); kaltfront.redraw(); return [...R.tiles.keys()].filter(k => old.has(k)).length; }""", view)
    assert stale > 0, "no tile of the first view is in view: the fog check would prove nothing"
    check_picture(page, f"the other side's fog around {target}")
    ctx.close()
