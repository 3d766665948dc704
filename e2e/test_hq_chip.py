"""Issue 11.4: the HQ finder chip (R58) sits at the map's edge where it hides no hex a player needs, a tap
on a hex beside it acts on the map, and its text has a contrast of at least 4.5:1.

On a 412×915 touch phone (where the chip took the most of the front): a unit of the player is selected
and the view is moved around it in many directions; for each view the chip, when shown, must cover no
unit, building or reachable hex (the engine's `reachable` answer), nor the minimap and its toggle. Then a
reachable hex right beside the chip is tapped twice (preview, move) and the unit moves there. Its
accessible name contains the words it shows, and axe-core finds no serious problem with it shown.
"""

from __future__ import annotations

import re

import pytest

from view_helpers import DEVICES, FAST_APP, axe_problems, box, hex_xy, obs, start_vs_computer, wait_my_turn

pytestmark = pytest.mark.e2e


def luminance(css: str) -> float:
    r, g, b = (int(x) / 255 for x in re.findall(r"\d+", css)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


CHIP_AND_NEEDS = """() => {
  const chip = document.getElementById('hq-chip');
  if (chip.hidden) return null;
  const map = document.getElementById('map').getBoundingClientRect();
  const c = chip.getBoundingClientRect();
  const k = kaltfront.camera, S = kaltfront.state, o = S.obs;
  const r = 32 * k.scale * 0.5; // the middle of a hex, where a tap lands and the unit is drawn
  const hexes = [...o.units.map(u => ['unit', u.at]), ...o.buildings.map(b => ['building', b.at]),
                 ...(S.reach || []).map(x => ['reach', x.to])];
  const needs = hexes.map(([kind, at]) => { const p = k.hexToScreen(at[0], at[1]);
    return {kind, at, x: map.left + p.x - r, y: map.top + p.y - r, w: 2 * r, h: 2 * r}; });
  const others = ['minimap-box'].map(id => document.getElementById(id).getBoundingClientRect())
    .map(b => ({kind: 'control', at: null, x: b.left, y: b.top, w: b.width, h: b.height}));
  return {chip: {x: c.left, y: c.top, w: c.width, h: c.height}, needs: [...needs, ...others],
          yields: getComputedStyle(chip).pointerEvents === 'none',
          map: {x: map.left, y: map.top, w: map.width, h: map.height}};
}"""


def overlap(a, b) -> float:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def gap(a, b) -> float:
    dx = max(a["x"] - (b["x"] + b["w"]), b["x"] - (a["x"] + a["w"]), 0)
    dy = max(a["y"] - (b["y"] + b["h"]), b["y"] - (a["y"] + a["h"]), 0)
    return (dx * dx + dy * dy) ** 0.5


def test_hq_chip_keeps_off_needed_hexes_leaves_taps_to_the_map_and_reads_well(new_context, base_url, wait_for_engine):
    ctx = new_context(**DEVICES["phone"])
    ctx.add_init_script(FAST_APP)
    page = ctx.new_page()
    page.goto(base_url)
    wait_for_engine(page)
    page.evaluate("() => localStorage.setItem('kaltfront.ui.minimap', 'open')")  # the chip must also keep off it
    start_vs_computer(page, fog=False)
    wait_my_turn(page, "move")
    o = obs(page)
    # The unit that can reach the most hexes: the most area the chip must keep clear.
    best = None
    for uid in page.evaluate("() => kaltfront.state.canAct.move"):
        reach = page.evaluate("(id) => kaltfront.call('reachable', {unit: id})", uid)
        if best is None or len(reach) > len(best[1]):
            best = (uid, reach)
    uid, reach = best
    unit = next(u for u in o["units"] if u["id"] == uid)
    page.evaluate("() => { const c = kaltfront.camera; c.set(c.x, c.y, 1.1); }")
    page.evaluate("(at) => { const k = kaltfront.camera; const p = k.hexToScreen(at[0], at[1]); k.panBy(k.viewW / 2 - p.x, k.viewH / 2 - p.y); }", unit["at"])
    page.touchscreen.tap(*hex_xy(page, unit["at"]))
    page.wait_for_function("(id) => kaltfront.state.selection && kaltfront.state.selection.id === id && kaltfront.state.reach", arg=uid)
    assert {tuple(r["to"]) for r in page.evaluate("() => kaltfront.state.reach")} == {tuple(r["to"]) for r in reach}

    views, yielded, closest = 0, 0, None
    for fx in (-0.42, -0.3, -0.15, 0.0, 0.15, 0.3, 0.42):
        for fy in (-0.42, -0.25, 0.0, 0.25, 0.42):
            # Put the unit at (fx, fy) of the view from its middle: its reachable hexes reach the edges.
            page.evaluate("""([at, fx, fy]) => { const k = kaltfront.camera; const p = k.hexToScreen(at[0], at[1]);
                              k.panBy(k.viewW * (0.5 + fx) - p.x, k.viewH * (0.5 + fy) - p.y); }""", [unit["at"], fx, fy])
            page.evaluate("() => kaltfront.benchRedraw(1)")
            m = page.evaluate(CHIP_AND_NEEDS)
            if m is None:
                continue  # the enemy HQ is in view: no chip
            views += 1
            chip = m["chip"]
            assert chip["x"] >= m["map"]["x"] - 0.5 and chip["x"] + chip["w"] <= m["map"]["x"] + m["map"]["w"] + 0.5
            assert chip["y"] >= m["map"]["y"] - 0.5 and chip["y"] + chip["h"] <= m["map"]["y"] + m["map"]["h"] + 0.5
            assert chip["h"] >= 44 and chip["w"] >= 44
            covers = [n for n in m["needs"] if overlap(chip, n) >= 0.5]
            if covers:
                # Zoomed far in on a crowded front the whole edge can be taken: then the chip must let
                # every tap through to the map (and is drawn half transparent).
                yielded += 1
                assert m["yields"], f"view ({fx}, {fy}): the chip covers the {covers[0]['kind']} at {covers[0]['at']} and takes taps"
                assert all(n["kind"] != "control" for n in covers), f"view ({fx}, {fy}): the chip covers the minimap"
            for n in m["needs"]:
                if n["kind"] == "reach" and (closest is None or gap(chip, n) < closest[0]):
                    closest = (gap(chip, n), fx, fy, n["at"])
    assert views >= 10, "the chip was shown in too few views to say anything"
    assert yielded == 0, f"the chip found no free place in {yielded} of {views} views"

    # A tap on the reachable hex nearest to the chip moves the unit there (touch: preview, then move).
    assert closest is not None and closest[0] < 40, f"no reachable hex came near the chip: {closest}"
    _, fx, fy, dest = closest
    page.evaluate("""([at, fx, fy]) => { const k = kaltfront.camera; const p = k.hexToScreen(at[0], at[1]);
                      k.panBy(k.viewW * (0.5 + fx) - p.x, k.viewH * (0.5 + fy) - p.y); }""", [unit["at"], fx, fy])
    page.evaluate("() => kaltfront.benchRedraw(1)")
    cam = page.evaluate("() => ({x: kaltfront.camera.x, y: kaltfront.camera.y})")
    page.touchscreen.tap(*hex_xy(page, dest))
    page.wait_for_function("(to) => kaltfront.state.pendingTouch && kaltfront.state.pendingTouch[0] === to[0] && kaltfront.state.pendingTouch[1] === to[1]", arg=dest)
    page.touchscreen.tap(*hex_xy(page, dest))
    page.wait_for_function("([id, to]) => { const u = kaltfront.state.obs.units.find(u => u.id === id); return u.at[0] === to[0] && u.at[1] === to[1]; }", arg=[uid, dest])
    after = page.evaluate("() => ({x: kaltfront.camera.x, y: kaltfront.camera.y})")
    assert abs(after["x"] - cam["x"]) < 1 and abs(after["y"] - cam["y"]) < 1, "the tap panned the map"

    # Contrast of the chip's text on both sides' colours (WCAG AA for normal text: 4.5:1).
    page.evaluate("() => { const c = kaltfront.camera; c.set(c.x, c.y, 3); }")
    page.evaluate("(at) => { const k = kaltfront.camera; const p = k.hexToScreen(at[0], at[1]); k.panBy(k.viewW / 2 - p.x, k.viewH / 2 - p.y); }", unit["at"])
    page.evaluate("() => kaltfront.benchRedraw(1)")
    page.wait_for_selector("#hq-chip:not([hidden])")
    for side in ("liga", "nordbund"):
        colours = page.evaluate("""(side) => { const c = document.getElementById('hq-chip'); const old = c.className; c.className = side;
            const s = getComputedStyle(c); const out = [s.color, s.backgroundColor]; c.className = old; return out; }""", side)
        assert contrast(*colours) >= 4.5, f"{side}: {colours} has contrast {contrast(*colours):.2f}"

    # The name a screen reader or speech input uses contains the words the chip shows (WCAG 2.5.3), in the
    # full and in the compact form, and axe-core finds no serious problem on the game with the chip shown.
    for compact in (False, True):
        name, shown = page.evaluate("""(compact) => { const c = document.getElementById('hq-chip'); const old = c.className;
            c.classList.toggle('compact', compact); const out = [c.getAttribute('aria-label') || c.textContent, c.innerText];
            c.className = old; return out; }""", compact)
        words = " ".join(shown.replace("➜", " ").split())
        assert words and words in " ".join(name.split()), f"compact={compact}: the chip shows {words!r} but is named {name!r}"
    assert page.is_visible("#hq-chip")
    assert axe_problems(page, "Spiel mit HQ-Anzeiger") == []
    ctx.close()
