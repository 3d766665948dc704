"""Issue 11.1: a resumed game can be played. After "Spiel fortsetzen" (after a reload or from the main
menu) the view shows the place the player left, and dragging, the wheel, a pinch, H, Shift+H, "Ziel: HQ"
and the minimap all move it. The saved camera used to be restored before the camera knew the map's size,
which clamped it against a 1×1 map and pinned it to an empty corner until the window was resized.

Desktop (1366×768, reload, mouse) and phone (412×915, touch, back from the main menu, then turned to
landscape). R56, R57, R58, R59, R63.
"""

from __future__ import annotations

import json

import pytest

from view_helpers import (
    DEVICES, FAST_APP, box, camera, centre_on, dist, hq_at, map_world_size, obs, start_vs_computer, touch_drag,
    wait_centre_near, wait_my_turn,
)

pytestmark = pytest.mark.e2e


def minimap_xy(page, h) -> tuple[float, float]:
    """Page coordinates of hex h on the minimap (pwa/minimap.js fits the whole map, centred)."""
    o = obs(page)
    ww, wh = map_world_size(o["width"], o["height"])
    mm = box(page, "#minimap")
    k = min(mm["w"] / ww, mm["h"] / wh)
    ox, oy = (mm["w"] - ww * k) / 2, (mm["h"] - wh * k) / 2
    w = page.evaluate("([c, r]) => { const k = kaltfront.camera; const p = k.hexToScreen(c, r); return k.toWorld(p.x, p.y); }", list(h))
    return mm["x"] + ox + w["x"] * k, mm["y"] + oy + w["y"] * k


def assert_camera_knows_the_map(page) -> dict:
    o = obs(page)
    cam = camera(page)
    ww, wh = map_world_size(o["width"], o["height"])
    assert abs(cam["worldW"] - ww) < 0.01 and abs(cam["worldH"] - wh) < 0.01, "the camera was not told the map's size"
    c, r = cam["hex"]
    assert 0 <= c < o["width"] and 0 <= r < o["height"], f"the view is centred off the map, at {cam['hex']}"
    return cam


def in_view(page, h) -> bool:
    return page.evaluate("([c, r]) => { const k = kaltfront.camera; const p = k.hexToScreen(c, r);"
                         " return p.x >= 0 && p.y >= 0 && p.x <= k.viewW && p.y <= k.viewH; }", list(h))


def open_minimap(page) -> None:
    # Issue 11.12: on small screens the minimap may be folded away; a tap on its toggle opens it.
    if page.is_visible("#minimap-toggle") and page.get_attribute("#minimap-toggle", "aria-expanded") == "false":
        page.click("#minimap-toggle")
    page.wait_for_selector("#minimap", state="visible")


def test_resume_after_reload_then_pan_zoom_and_jump(new_context, base_url, wait_for_engine):
    """Issue 11.1 on the desktop: reload, "Spiel fortsetzen", then drag, wheel, H, Shift+H, "Ziel: HQ", minimap."""
    ctx = new_context(**DEVICES["desktop"])
    ctx.add_init_script(FAST_APP)
    page = ctx.new_page()
    page.goto(base_url)
    wait_for_engine(page)
    start_vs_computer(page)
    wait_my_turn(page, "move")
    o = obs(page)
    mid = [o["width"] // 2, o["height"] // 2]
    # The player looks at the middle of the map, zoomed in, and saves.
    page.evaluate("() => { const c = kaltfront.camera; c.zoomAt(1.6, c.viewW / 2, c.viewH / 2); }")
    centre_on(page, mid)
    saved = camera(page)
    page.click("#btn-menu")
    page.click("#menu-save")
    page.wait_for_selector("#toast:not([hidden])")

    page.reload()
    wait_for_engine(page)
    page.wait_for_selector("#menu-continue:not([hidden]):not([disabled])")
    page.click("#menu-continue")
    wait_my_turn(page)
    cam = assert_camera_knows_the_map(page)
    assert cam["hex"] == mid, "the resumed view is not where the player left it"
    assert abs(cam["scale"] - saved["scale"]) < 1e-9
    assert abs(cam["cx"] - saved["cx"]) < 1 and abs(cam["cy"] - saved["cy"]) < 1

    # Drag with the mouse (R57): the view follows the pointer.
    st = box(page, "#map")
    x, y = st["x"] + st["w"] / 2, st["y"] + st["h"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 160, y - 90, steps=6)
    page.mouse.up()
    moved = camera(page)
    assert moved["x"] - cam["x"] > 100 / cam["scale"] and moved["y"] - cam["y"] > 50 / cam["scale"], (cam, moved)

    # Wheel zoom (R56).
    page.mouse.move(x, y)
    page.mouse.wheel(0, 400)
    page.wait_for_function("(s) => kaltfront.camera.scale < s - 0.05", arg=moved["scale"])

    # H, Shift+H and "Ziel: HQ" (R58, R59).
    enemy, own = hq_at(o, own=False), hq_at(o, own=True)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("h")
    wait_centre_near(page, enemy)
    page.keyboard.press("Shift+H")
    wait_centre_near(page, own)
    page.click("#btn-target-hq")
    wait_centre_near(page, enemy)

    # The minimap (R57): a click centres the map there.
    open_minimap(page)
    page.mouse.click(*minimap_xy(page, own))
    wait_centre_near(page, own, tol=16)
    assert_camera_knows_the_map(page)

    # A camera entry that is not numbers (hand-edited or damaged) is ignored: the view frames the own HQ.
    page.click("#btn-menu")
    page.click("#menu-main")
    page.wait_for_selector("#main-menu:not([hidden])")  # shown once the autosave is written
    record = json.loads(page.evaluate("() => localStorage.getItem('kaltfront.autosave')"))
    record["meta"]["camera"] = {"x": "links", "y": None, "scale": -3}
    page.evaluate("(t) => localStorage.setItem('kaltfront.autosave', t)", json.dumps(record))
    page.click("#menu-continue")
    wait_my_turn(page)
    assert_camera_knows_the_map(page)
    assert in_view(page, own), "a broken saved camera must fall back to framing the own HQ"
    ctx.close()


@pytest.mark.mobile
def test_resume_from_main_menu_on_a_phone_then_turned_sideways(new_context, base_url, wait_for_engine):
    """Issue 11.1 on a 412×915 touch phone: "Hauptmenü", then "Spiel fortsetzen"; a finger pans, H and the
    minimap jump; resumed again in landscape (915×412) the same place is in the middle of the view; an
    older save's camera ({x, y, scale}) resumes onto the map too."""
    ctx = new_context(**DEVICES["phone"])
    ctx.add_init_script(FAST_APP)
    page = ctx.new_page()
    page.goto(base_url)
    wait_for_engine(page)
    start_vs_computer(page)
    wait_my_turn(page, "move")
    o = obs(page)
    spot = [max(1, o["width"] // 2 - 2), o["height"] // 2 + 1]
    centre_on(page, spot)
    page.click("#btn-menu")
    page.click("#menu-main")
    page.wait_for_selector("#main-menu:not([hidden])")  # shown once the autosave is written
    page.wait_for_selector("#menu-continue:not([hidden])")
    page.click("#menu-continue")
    wait_my_turn(page)
    cam = assert_camera_knows_the_map(page)
    assert cam["hex"] == spot

    # One finger pans (R57).
    st = box(page, "#map")
    touch_drag(page, st["x"] + st["w"] / 2, st["y"] + st["h"] / 2, -120, -150)
    moved = camera(page)
    assert moved["x"] > cam["x"] + 60 / cam["scale"] and moved["y"] > cam["y"] + 60 / cam["scale"], (cam, moved)

    # H (a keyboard on a tablet or phone) and a tap on the minimap jump.
    enemy, own = hq_at(o, own=False), hq_at(o, own=True)
    page.keyboard.press("h")
    wait_centre_near(page, enemy)
    open_minimap(page)
    page.touchscreen.tap(*minimap_xy(page, own))
    wait_centre_near(page, own, tol=16)

    # Back to the menu, the phone turned sideways, resumed: the same place is in the middle.
    centre_on(page, spot)
    page.click("#btn-menu")
    page.click("#menu-main")
    page.wait_for_selector("#main-menu:not([hidden])")  # shown once the autosave is written
    page.set_viewport_size({"width": 915, "height": 412})
    page.wait_for_function("() => window.innerWidth === 915 && window.innerHeight === 412")
    page.click("#menu-continue")
    wait_my_turn(page)
    cam = assert_camera_knows_the_map(page)
    assert dist(cam["hex"], spot) <= 1, cam

    # A save written by the previous version kept only the top-left corner: it resumes onto the map.
    page.click("#btn-menu")
    page.click("#menu-main")
    page.wait_for_selector("#main-menu:not([hidden])")  # shown once the autosave is written
    page.evaluate(
        """() => { const r = JSON.parse(localStorage.getItem('kaltfront.autosave'));
                   r.meta.camera = {x: 40, y: 60, scale: 1.2}; localStorage.setItem('kaltfront.autosave', JSON.stringify(r)); }"""
    )
    page.click("#menu-continue")
    wait_my_turn(page)
    cam = assert_camera_knows_the_map(page)
    assert abs(cam["scale"] - 1.2) < 1e-9
    page.keyboard.press("Shift+H")
    wait_centre_near(page, own)
    ctx.close()

