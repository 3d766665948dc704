"""Playing Kaltfront through the browser UI (issue 5; R37, R52–R64, R66), desktop and phone.

These tests drive the real page (index.html + pwa/) with the real engine in its Pyodide worker. They
click and tap on hexes at the positions the page's own layout reports (`kaltfront.hexToScreen`, layout
only), and read back what the page shows: DOM text, canvas pixels and the shell's state. Where a test
needs a rule answer (which hex is reachable, what damage to expect), it asks the engine through
`kaltfront.call`, the same way the page does, and checks that the page shows that answer.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.e2e

# ---- helpers -----------------------------------------------------------------------------------------


def boot(page, base_url, wait_for_engine, *, intro=False):
    page.goto(base_url)
    wait_for_engine(page)
    # The computer's animation runs at a fifth of its normal pace: still animated, still in order.
    page.evaluate("(intro) => { kaltfront.skipIntro = !intro; kaltfront.setAiDelay(0.2); }", intro)


def first_blitz(page) -> dict:
    scenarios = page.evaluate("() => kaltfront.state.scenarios")
    blitz = [s for s in scenarios if s["blitz"]]
    assert blitz, "no Blitz scenario"
    return blitz[0]


def start_from_menu(page, *, blitz=True, mode="ai", side="nordbund", strength="leicht", fog=True):
    """Start a game the way a player does: through the main menu's controls."""
    page.click("label:has(#opt-blitz)" if blitz else "label:has(#opt-standard)")
    page.click("label:has(#opt-mode-ai)" if mode == "ai" else "label:has(#opt-mode-hotseat)")
    if mode == "ai":
        page.select_option("#opt-side", side)
        page.select_option("#opt-strength", strength)
    if page.is_checked("#opt-fog") != fog:
        page.click("#opt-fog")
    page.click("#menu-start")
    page.wait_for_function("() => kaltfront.state.obs && kaltfront.state.game")


def end_phase_confirmed(page):
    """Click "Phase beenden"; if units could still act it asks first (R61, issue 11.7): confirm."""
    page.click("#btn-end-phase")
    if page.is_visible("#confirm"):
        page.click("#confirm-yes")


def wait_my_turn(page, phase=None, timeout=90_000):
    cond = "kaltfront.myTurn()" + (f" && kaltfront.state.obs.phase === '{phase}'" if phase else "")
    page.wait_for_function(f"() => {cond} && !kaltfront.state.busy", timeout=timeout)


def obs(page) -> dict:
    return page.evaluate("() => kaltfront.state.obs")


def hex_xy(page, h):
    p = page.evaluate("([c, r]) => kaltfront.hexToScreen(c, r)", list(h))
    return p["x"], p["y"]


def pixel(page, h):
    """RGBA of the map canvas at the centre of hex h (CSS pixels → device pixels)."""
    return page.evaluate(
        """([c, r]) => { const cv = document.getElementById('map'); const p = kaltfront.camera.hexToScreen(c, r);
             const k = cv.width / cv.getBoundingClientRect().width;
             return Array.from(cv.getContext('2d').getImageData(Math.round(p.x * k), Math.round(p.y * k), 1, 1).data); }""",
        list(h),
    )


def centre_on(page, h):
    page.evaluate("([c, r]) => { const p = kaltfront.camera.hexToScreen(c, r); const cam = kaltfront.camera;"
                  " cam.panBy(cam.viewW / 2 - p.x, cam.viewH / 2 - p.y); kaltfront.redraw(); }", list(h))


def occupied(o) -> set:
    return {tuple(u["at"]) for u in o["units"]} | {tuple(b["at"]) for b in o["buildings"]}


def cube(h):
    q = h[0] - (h[1] - (h[1] & 1)) // 2
    return q, h[1], -q - h[1]


def dist(a, b):
    return max(abs(x - y) for x, y in zip(cube(a), cube(b)))


def enemy_hq(o):
    return next(b["at"] for b in o["buildings"] if b["type"] == "hq" and b["owner"] != o["viewer"])


def advance_all(page):
    """Move every own unit that can move as close to the enemy HQ as the engine allows (via the UI's action path)."""
    o = obs(page)
    target = enemy_hq(o)
    for uid in page.evaluate("() => kaltfront.state.canAct.move"):
        reach = page.evaluate("(id) => kaltfront.call('reachable', {unit: id})", uid)
        o = obs(page)
        free = [r for r in reach if tuple(r["to"]) not in {tuple(u["at"]) for u in o["units"]}]
        if not free:
            continue
        best = min(free, key=lambda r: dist(r["to"], target))
        page.evaluate("(a) => kaltfront.act(a)", {"type": "move", "unit": uid, "to": best["to"]})


# ---- tests: desktop --------------------------------------------------------------------------------


def test_menu_shows_before_python_and_start_unlocks_after_boot(page, base_url, wait_for_engine):
    """The menu is plain HTML/JS: visible while Pyodide still boots; starting is enabled only once it answers."""
    page.goto(base_url)
    assert page.is_visible("#main-menu")
    assert page.is_visible("#menu-start")
    timings = page.evaluate("() => kaltfront.timings")
    if not page.evaluate("() => kaltfront.ready"):
        assert page.is_disabled("#menu-start")
    assert timings["menuShown"] < 5000
    wait_for_engine(page)
    assert page.is_enabled("#menu-start")
    options = page.eval_on_selector_all("#opt-scenario option", "os => os.map(o => o.textContent)")
    assert options and all(options), options


def test_boot_failure_shows_a_clear_error_not_a_blank_page(page, base_url):
    """Issue 5: if Python cannot start, the player sees why (German) over the menu, with a reload button."""
    page.context.route("**/vendor/python_stdlib-*.zip", lambda route: route.fulfill(status=404, body="fehlt"))
    page.goto(base_url)
    assert page.is_visible("#main-menu")
    page.wait_for_selector("#boot-error:not([hidden])", timeout=60_000)
    text = page.inner_text("#boot-error")
    assert "Die Spiel-Engine startet nicht" in text
    assert "Die Spiel-Engine konnte nicht gestartet werden" in page.inner_text("#boot-error-text")
    assert page.is_visible("#boot-reload")
    assert page.is_disabled("#menu-start")
    assert page.evaluate("() => kaltfront.ready") is False
    assert page.evaluate("() => kaltfront.error.kind") == "boot"
    # Issue 12.7: the button is wired by the script (no inline onclick under the CSP) and reloads.
    page.evaluate("() => { window.__beforeReload = true; }")
    with page.expect_navigation():
        page.click("#boot-reload")
    assert page.evaluate("() => window.__beforeReload") is None


def test_blitz_against_leicht_select_move_end_phase_ai_then_attack(page, base_url, wait_for_engine):
    """R53, R54, R55, R61, R66: a Blitz game against Leicht, played through clicks."""
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, blitz=True, strength="leicht", fog=True)
    wait_my_turn(page, "move")
    o = obs(page)
    assert page.inner_text("#hdr-round") == f"Runde 1 / {o['round_limit']}" == "Runde 1 / 10"
    assert page.inner_text("#hdr-phase") == "Zugphase"
    ready = page.evaluate("() => kaltfront.state.canAct.move")
    assert page.inner_text("#counter") == f"{len(ready)} können ziehen"

    # Select a unit: its reachable hexes (the engine's answer) light up on the canvas.
    uid = ready[0]
    unit = next(u for u in o["units"] if u["id"] == uid)
    expected = page.evaluate("(id) => kaltfront.call('reachable', {unit: id})", uid)
    free = [r for r in expected if tuple(r["to"]) not in occupied(o)]
    assert free, "the unit has nowhere to go"
    dest = max(free, key=lambda r: len(r["path"]))
    centre_on(page, unit["at"])
    page.wait_for_timeout(50)
    before = pixel(page, dest["to"])
    page.mouse.click(*hex_xy(page, unit["at"]))
    page.wait_for_function("(id) => kaltfront.state.selection && kaltfront.state.selection.id === id && kaltfront.state.reach", arg=uid)
    shown = page.evaluate("() => kaltfront.state.reach.map(r => r.to)")
    assert sorted(map(tuple, shown)) == sorted(tuple(r["to"]) for r in expected)
    page.wait_for_function(
        "([c, r, b]) => { const cv = document.getElementById('map'); const p = kaltfront.camera.hexToScreen(c, r);"
        " const k = cv.width / cv.getBoundingClientRect().width;"
        " const d = cv.getContext('2d').getImageData(Math.round(p.x*k), Math.round(p.y*k), 1, 1).data;"
        " return d[0] !== b[0] || d[1] !== b[1] || d[2] !== b[2]; }",
        arg=[*dest["to"], before],
    )
    assert "Jäger" in page.inner_text("#panel") or page.inner_text("[data-testid=panel-title]")
    assert "hp" in page.inner_text("#panel")

    # Hover shows the engine's path; a click moves the unit there.
    page.mouse.move(*hex_xy(page, dest["to"]))
    page.wait_for_function("(to) => { const p = kaltfront.state.path; return p && p[p.length-1][0] === to[0] && p[p.length-1][1] === to[1]; }", arg=dest["to"])
    assert page.evaluate("() => kaltfront.state.path") == dest["path"]
    page.mouse.click(*hex_xy(page, dest["to"]))
    page.wait_for_function("([id, to]) => { const u = kaltfront.state.obs.units.find(u => u.id === id); return u && u.at[0] === to[0] && u.at[1] === to[1]; }", arg=[uid, dest["to"]])
    # The counter follows the engine's next can_act answer, one worker round trip after the move.
    want = f"{len(ready) - 1} können ziehen" if len(ready) > 2 else "1 kann ziehen"
    page.wait_for_function("(want) => document.querySelector('#counter').innerText === want", arg=want)

    # End the move phase: the computer plays in the worker, visibly, and hands back the attack phase.
    # The bar may come and go between two polls when the Liga's turn is short: record it as it shows.
    page.evaluate("""() => { window.__aiBarSeen = false; const bar = document.getElementById('ai-bar');
        new MutationObserver(() => { if (!bar.hidden) window.__aiBarSeen = true; }).observe(bar, {attributes: true}); }""")
    end_phase_confirmed(page)
    wait_my_turn(page, "attack")
    assert page.evaluate("() => window.__aiBarSeen"), "the computer's turn was not shown in the bar"
    assert page.inner_text("#hdr-round") == "Runde 2 / 10"
    assert page.inner_text("#hdr-phase") == "Angriffsphase"
    log = page.text_content("#log")
    assert "Baltische Liga" in log, log

    # Advance until some unit can fire, then attack with the shown expected damage.
    for _ in range(8):
        wait_my_turn(page)
        if obs(page)["phase"] == "attack":
            shooters = page.evaluate("() => kaltfront.state.canAct.attack")
            if shooters:
                break
            assert page.inner_text("#counter") == "Keiner kann schießen"
            page.click("#btn-end-phase")
            wait_my_turn(page, "move")
        advance_all(page)
        end_phase_confirmed(page)
        wait_my_turn(page, "attack")
    else:
        pytest.fail("no contact with the enemy within 8 rounds")

    n = len(shooters)
    assert page.inner_text("#counter") == (f"{n} können schießen" if n > 1 else "1 kann schießen")
    # The minimap marks units that can fire with a bright yellow dot (R55).
    # (the minimap is drawn with the next frame after the phase's answer: wait for it)
    page.wait_for_function(
        """() => { const c = document.getElementById('minimap'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
             let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] > 240 && d[i+1] > 235 && d[i+2] < 140) n++; return n > 0; }""", timeout=10_000)
    # The counter jumps to a unit that can fire, like Tab (R55).
    page.click("#counter")
    assert page.evaluate("() => kaltfront.state.selection && kaltfront.state.selection.id") in shooters
    page.keyboard.press("Escape")
    # Ending the attack phase while units could still fire asks first (R61); "Zurück" keeps the phase.
    page.click("#btn-end-phase")
    page.wait_for_selector("#confirm:not([hidden])")
    assert "noch schießen" in page.inner_text("#confirm-text")
    page.click("#confirm-no")
    assert obs(page)["phase"] == "attack"

    shooter = shooters[0]
    o = obs(page)
    su = next(u for u in o["units"] if u["id"] == shooter)
    options = page.evaluate("(id) => kaltfront.call('attack_options', {unit: id})", shooter)["targets"]
    assert options
    t = options[0]
    centre_on(page, su["at"])
    page.mouse.click(*hex_xy(page, su["at"]))
    page.wait_for_function("() => kaltfront.state.targets && kaltfront.state.targets.length")
    page.mouse.move(*hex_xy(page, t["target"]))
    page.wait_for_selector("[data-testid=attack-preview]")
    preview = page.inner_text("[data-testid=attack-preview]")
    assert f"erwarteter Schaden {t['damage']}" in preview
    assert ("Keine Erwiderung" in preview) if t["counter"] is None else (f"Erwiderung {t['counter']}" in preview)
    target_hp = next(u["hp"] for u in o["units"] if u["id"] == t["target_id"])
    page.mouse.click(*hex_xy(page, t["target"]))
    page.wait_for_function("(id) => { const u = kaltfront.state.obs.units.find(u => u.id === id); return u && u.attacked; }", arg=shooter)
    after = obs(page)
    hit = next((u for u in after["units"] if u["id"] == t["target_id"]), None)
    lo, hi = t["damage_range"]
    assert hit is None or lo <= target_hp - hit["hp"] <= hi
    assert "greift" in page.text_content("#log")


def test_reload_resumes_from_autosave(page, base_url, wait_for_engine):
    """R63: the game is saved in the browser; after a reload "Spiel fortsetzen" resumes it exactly."""
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, blitz=True, strength="leicht", fog=False)
    wait_my_turn(page, "move")
    advance_all(page)
    end_phase_confirmed(page)
    wait_my_turn(page, "attack")
    before = obs(page)
    saved = page.evaluate("() => localStorage.getItem('kaltfront.autosave')")
    assert saved and json.loads(saved)
    page.reload()
    wait_for_engine(page)
    page.evaluate("() => kaltfront.setAiDelay(0)")
    assert page.is_visible("#menu-continue")
    page.click("#menu-continue")
    wait_my_turn(page, "attack")
    assert obs(page) == before
    assert page.inner_text("#hdr-round") == f"Runde {before['round']} / 10"


def test_hotseat_handoff_covers_the_map_under_fog(page, base_url, wait_for_engine):
    """R61: in hot-seat with fog, "Spieler 2 ist dran" covers the map until "Weiter"."""
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, mode="hotseat", fog=True)
    page.wait_for_selector("#handoff:not([hidden])")
    assert page.inner_text("#handoff-title") == "Spieler 1 ist dran"
    page.click("#handoff-continue")
    wait_my_turn(page, "move")
    end_phase_confirmed(page)
    page.wait_for_selector("#handoff:not([hidden])")
    assert page.inner_text("#handoff-title") == "Spieler 2 ist dran"
    assert "Baltische Liga" in page.inner_text("#handoff-text")
    assert page.evaluate("() => kaltfront.state.covered") is True
    # The cover is opaque, and beneath it the map canvas shows nothing but its background.
    bg = page.eval_on_selector("#handoff", "e => getComputedStyle(e).backgroundColor")
    assert bg in ("rgb(10, 20, 32)", "rgba(10, 20, 32, 1)"), bg
    colours = page.evaluate(
        """() => { const cv = document.getElementById('map'); const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
             const s = new Set(); for (let i = 0; i < d.length; i += 4 * 97) s.add(d[i] + ',' + d[i+1] + ',' + d[i+2]); return [...s]; }""")
    assert colours == ["29,53,80"], colours
    assert page.inner_text("#panel-body").strip() == ""
    page.click("#handoff-continue")
    wait_my_turn(page)
    o = obs(page)
    assert o["side"] == o["viewer"] == "liga"
    assert page.inner_text("#hdr-side") == "Baltische Liga"
    assert page.evaluate("() => kaltfront.state.covered") is False


def test_keyboard_shortcuts(page, base_url, wait_for_engine):
    """R59 as issue 11.13 changed it: N/Shift+N (Tab is left to the browser), Esc, H/Shift+H,
    Shift+arrows, + and −, Enter."""
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, blitz=True, fog=False)
    wait_my_turn(page, "move")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")  # keys go to the map, not a button
    ready = page.evaluate("() => kaltfront.state.obs.units.filter(u => kaltfront.state.readySet.has(u.id)).map(u => u.id)")
    page.keyboard.press("n")
    first = page.evaluate("() => kaltfront.state.selection && kaltfront.state.selection.id")
    assert first in ready
    page.keyboard.press("n")
    second = page.evaluate("() => kaltfront.state.selection.id")
    assert second != first and second in ready
    page.keyboard.press("Shift+N")
    assert page.evaluate("() => kaltfront.state.selection.id") == first
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")  # the second Esc hides the hex cursor N put on the unit
    assert page.evaluate("() => kaltfront.state.selection") is None

    def centre_hex():
        return page.evaluate("() => { const c = kaltfront.camera; const h = c.screenToHex(c.viewW/2, c.viewH/2); return [h.col, h.row]; }")

    o = obs(page)
    own = next(b["at"] for b in o["buildings"] if b["type"] == "hq" and b["owner"] == "nordbund")
    enemy = enemy_hq(o)
    page.keyboard.press("h")
    page.wait_for_function("(e) => { const c = kaltfront.camera; const h = c.screenToHex(c.viewW/2, c.viewH/2); return Math.abs(h.col-e[0]) + Math.abs(h.row-e[1]) <= 2; }", arg=enemy)
    page.keyboard.press("Shift+H")
    page.wait_for_function("(e) => { const c = kaltfront.camera; const h = c.screenToHex(c.viewW/2, c.viewH/2); return Math.abs(h.col-e[0]) + Math.abs(h.row-e[1]) <= 2; }", arg=own)
    assert dist(centre_hex(), own) <= 2

    x0 = page.evaluate("() => kaltfront.camera.x")
    page.keyboard.press("Shift+ArrowRight")
    assert page.evaluate("() => kaltfront.camera.x") != x0
    s0 = page.evaluate("() => kaltfront.camera.scale")
    page.keyboard.press("+")
    s1 = page.evaluate("() => kaltfront.camera.scale")
    assert s1 > s0
    page.keyboard.press("-")
    assert page.evaluate("() => kaltfront.camera.scale") < s1

    # Enter ends the move phase (the computer then plays).
    page.keyboard.press("Enter")
    # Units could still move: Enter asks first (issue 11.7); a second Enter confirms (focus on "Phase beenden").
    page.wait_for_selector("#confirm:not([hidden])")
    assert "noch ziehen" in page.inner_text("#confirm-text")
    page.keyboard.press("Enter")
    page.wait_for_function("() => kaltfront.state.obs.side === 'liga' || kaltfront.state.obs.round === 2")


def test_hq_finder_chip_and_target_button(page, base_url, wait_for_engine):
    """R58: the chip shows direction and distance to the off-screen enemy HQ; "Ziel: HQ" jumps there and back."""
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, blitz=True, fog=True)
    wait_my_turn(page, "move")
    o = obs(page)
    enemy = enemy_hq(o)
    # Zoom in on the own HQ so the enemy HQ is surely off screen.
    page.evaluate("() => { const c = kaltfront.camera; c.zoomAt(3, c.viewW/2, c.viewH/2); }")
    own = next(b["at"] for b in o["buildings"] if b["type"] == "hq" and b["owner"] == "nordbund")
    centre_on(page, own)
    page.wait_for_selector("#hq-chip:not([hidden])")
    chip = page.inner_text("#hq-chip")
    d = int(page.get_attribute("#hq-chip", "data-distance"))
    assert f"HQ {d}" in chip
    centre = page.evaluate("() => { const c = kaltfront.camera; const h = c.screenToHex(c.viewW/2, c.viewH/2); return [h.col, h.row]; }")
    assert d == dist(centre, enemy)
    page.click("#hq-chip")
    page.wait_for_selector("#hq-chip", state="hidden")
    page.click("#btn-target-hq")  # first click after the chip: own HQ
    page.wait_for_function("(e) => { const c = kaltfront.camera; const h = c.screenToHex(c.viewW/2, c.viewH/2); return Math.abs(h.col-e[0]) + Math.abs(h.row-e[1]) <= 2; }", arg=own)
    page.click("#btn-target-hq")
    page.wait_for_function("(e) => { const c = kaltfront.camera; const h = c.screenToHex(c.viewW/2, c.viewH/2); return Math.abs(h.col-e[0]) + Math.abs(h.row-e[1]) <= 2; }", arg=enemy)


def test_new_game_states_objective_and_pans_to_enemy_hq(page, base_url, wait_for_engine):
    """R58: at the start the game names the objective and pans to the enemy HQ and back."""
    boot(page, base_url, wait_for_engine, intro=True)
    start_from_menu(page, blitz=True, fog=True)
    page.wait_for_selector("#objective:not([hidden])")
    assert page.inner_text("#objective").startswith("Dein Ziel:")
    o = obs(page)
    enemy = enemy_hq(o)
    page.wait_for_function("(e) => { const c = kaltfront.camera; const h = c.screenToHex(c.viewW/2, c.viewH/2); return Math.abs(h.col-e[0]) + Math.abs(h.row-e[1]) <= 1; }", arg=enemy, timeout=5000)
    page.wait_for_selector("#objective", state="hidden", timeout=10000)
    own = next(b["at"] for b in o["buildings"] if b["type"] == "hq" and b["owner"] == "nordbund")
    # Back at the start view: framed on the own HQ (issue 11.12: the HQ in view, the view on the map,
    # so an HQ at the map's edge is not in the middle).
    back = page.evaluate("(h) => { const k = kaltfront.camera; const p = k.hexToScreen(h[0], h[1]);"
                         " return {inView: p.x >= 0 && p.y >= 0 && p.x <= k.viewW && p.y <= k.viewH, off: k.offMapShare()}; }", own)
    assert back["inView"] and back["off"] <= 0.02, back


def test_production_in_the_panel(page, base_url, wait_for_engine):
    """R62: selecting an own empty building offers "Produzieren" with the engine's build options."""
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, blitz=True, fog=False)
    wait_my_turn(page, "move")
    o = obs(page)
    units_at = {tuple(u["at"]) for u in o["units"]}
    own_empty = [b for b in o["buildings"] if b["owner"] == "nordbund" and tuple(b["at"]) not in units_at]
    for b in own_empty:
        opts = page.evaluate("(at) => kaltfront.call('build_options', {at})", b["at"])
        if any(x["affordable"] for x in opts):
            break
    else:
        raise AssertionError("no own empty building that can build on this map: the test lost its subject")
    centre_on(page, b["at"])
    page.mouse.click(*hex_xy(page, b["at"]))
    page.wait_for_selector("#build-list")
    assert "Produzieren" in page.inner_text("#build-list")
    choice = next(x for x in opts if x["affordable"])
    money = o["money"]["nordbund"]
    page.click(f"[data-testid=build-{choice['unit_type']}]")
    page.wait_for_function("(at) => kaltfront.state.obs.units.some(u => u.at[0] === at[0] && u.at[1] === at[1])", arg=b["at"])
    assert obs(page)["money"]["nordbund"] == money - choice["cost"]
    assert page.inner_text("#hdr-money") == str(money - choice["cost"])


def test_mouse_wheel_zoom_drag_pan_and_surrender_from_the_menu(page, base_url, wait_for_engine):
    """R56, R57, R51, R64: wheel zooms around the cursor, dragging pans; Aufgeben ends the game."""
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, blitz=True, fog=True)
    wait_my_turn(page, "move")
    box = page.locator("#map").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cam = "() => ({x: kaltfront.camera.x, y: kaltfront.camera.y, s: kaltfront.camera.scale})"
    c0 = page.evaluate(cam)
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -300)
    page.wait_for_function("(s) => kaltfront.camera.scale > s", arg=c0["s"])
    c1 = page.evaluate(cam)
    page.mouse.wheel(0, 300)
    page.wait_for_function("(s) => kaltfront.camera.scale < s", arg=c1["s"])
    c2 = page.evaluate(cam)
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 60, cy - 40, steps=6)
    page.mouse.move(cx - 120, cy - 80, steps=6)
    page.mouse.up()
    c3 = page.evaluate(cam)
    assert c3["x"] > c2["x"] and c3["s"] == c2["s"]
    assert page.evaluate("() => kaltfront.state.selection") is None, "a drag is not a click"

    page.click("#btn-menu")
    for label in ("Speichern", "Aufgeben", "Hilfe", "Hauptmenü"):
        assert page.is_visible(f"#game-menu button:has-text('{label}')")
    page.click("#menu-surrender")
    page.wait_for_selector("#confirm:not([hidden])")
    page.click("#confirm-yes")
    page.wait_for_selector("#end-screen:not([hidden])")
    assert page.get_attribute("#end-screen", "data-reason") == "surrender"
    assert page.get_attribute("#end-screen", "data-winner") == "liga"
    assert page.inner_text("#end-title").startswith("Niederlage")
    assert "aufgegeben" in page.inner_text("#end-reason")


def test_help_lists_all_19_units_from_game_data(page, base_url, wait_for_engine):
    """R38, R64: the help page is the rulebook with the unit table rendered from the engine's data."""
    page.goto(base_url)
    wait_for_engine(page)
    page.click("#menu-help-main")
    page.wait_for_selector("#table-units tbody tr")
    rules = page.evaluate("() => kaltfront.call('rules', {})")
    names = page.eval_on_selector_all("#table-units tbody th", "cells => cells.map(c => c.textContent)")
    assert len(names) == 19
    assert names == [u["name"] for u in rules["units"].values()]
    for section in ("10. Bedienung", "5. Gebäude", "12. Blitz-Modus"):
        assert section in page.inner_text("#help-content")
    assert page.locator("#table-terrain tbody tr").count() == len(rules["terrain"])
    assert page.locator("#table-buildings tbody tr").count() == len(rules["buildings"])
    # D13: the Stadt rearms every unit on it, aircraft included; the table says so.
    stadt = page.locator("#table-buildings tbody tr", has_text="Stadt").inner_text()
    assert "Munition: alle Einheiten" in stadt
    page.keyboard.press("Escape")
    assert page.is_hidden("#help")


# ---- tests: phone ----------------------------------------------------------------------------------


def touch(page, kind, points):
    """Raw touch events through the DevTools protocol (Playwright has no multi-touch API)."""
    cdp = page.context.new_cdp_session(page) if not hasattr(page, "_kf_cdp") else page._kf_cdp
    page._kf_cdp = cdp
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


@pytest.mark.mobile
def test_phone_tap_select_move_pan_and_pinch(phone_page, base_url, wait_for_engine):
    """R56, R57, R60 on a 390×844 touch phone: panel at the bottom, tap to select and move, pan, pinch."""
    page = phone_page
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, blitz=True, fog=True)
    wait_my_turn(page, "move")
    stage = page.locator("#stage").bounding_box()
    pnl = page.locator("#panel").bounding_box()
    assert pnl["y"] >= stage["y"] + stage["height"] - 1, "the panel is a bar below the map on a phone"
    assert pnl["width"] >= 380

    o = obs(page)
    uid = page.evaluate("() => kaltfront.state.canAct.move")[0]
    unit = next(u for u in o["units"] if u["id"] == uid)
    centre_on(page, unit["at"])
    page.touchscreen.tap(*hex_xy(page, unit["at"]))
    page.wait_for_function("(id) => kaltfront.state.selection && kaltfront.state.selection.id === id && kaltfront.state.reach", arg=uid)
    reach = page.evaluate("() => kaltfront.state.reach")
    dest = next(r for r in reach if tuple(r["to"]) not in occupied(o))
    # First tap previews the path (touch has no hover), the second moves.
    page.touchscreen.tap(*hex_xy(page, dest["to"]))
    page.wait_for_function("() => kaltfront.state.path")
    assert page.evaluate("() => kaltfront.state.path") == dest["path"]
    page.touchscreen.tap(*hex_xy(page, dest["to"]))
    page.wait_for_function("([id, to]) => { const u = kaltfront.state.obs.units.find(u => u.id === id); return u.at[0] === to[0] && u.at[1] === to[1]; }", arg=[uid, dest["to"]])

    # One-finger pan.
    cx, cy = stage["x"] + stage["width"] / 2, stage["y"] + stage["height"] / 2
    cam0 = page.evaluate("() => ({x: kaltfront.camera.x, y: kaltfront.camera.y, s: kaltfront.camera.scale})")
    touch(page, "touchStart", [(cx, cy)])
    for i in range(1, 6):
        touch(page, "touchMove", [(cx - 12 * i, cy - 8 * i)])
    touch(page, "touchEnd", [])
    cam1 = page.evaluate("() => ({x: kaltfront.camera.x, y: kaltfront.camera.y, s: kaltfront.camera.scale})")
    assert cam1["x"] > cam0["x"] and cam1["s"] == cam0["s"]
    assert page.evaluate("() => kaltfront.state.obs.units.find(u => u.id === %d).at" % uid) == dest["to"], "a pan is not a tap"

    # Two-finger pinch outwards zooms in around the midpoint.
    touch(page, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for i in range(1, 8):
        touch(page, "touchMove", [(cx - 30 - 12 * i, cy), (cx + 30 + 12 * i, cy)])
    touch(page, "touchEnd", [])
    cam2 = page.evaluate("() => ({x: kaltfront.camera.x, y: kaltfront.camera.y, s: kaltfront.camera.scale})")
    assert cam2["s"] > cam1["s"] * 1.5
    # and inwards zooms out again.
    touch(page, "touchStart", [(cx - 120, cy), (cx + 120, cy)])
    for i in range(1, 8):
        touch(page, "touchMove", [(cx - 120 + 12 * i, cy), (cx + 120 - 12 * i, cy)])
    touch(page, "touchEnd", [])
    assert page.evaluate("() => kaltfront.camera.scale") < cam2["s"]


@pytest.mark.mobile
def test_phone_help_table_scrolls_sideways_with_fixed_first_column(phone_page, base_url, wait_for_engine):
    """R38: on a narrow screen the unit table scrolls sideways and its first column stays put."""
    page = phone_page
    page.goto(base_url)
    wait_for_engine(page)
    page.click("#menu-help-main")
    page.wait_for_selector("#table-units tbody tr")
    box = page.locator("#help-units")
    box.scroll_into_view_if_needed()
    assert page.evaluate("() => { const e = document.getElementById('help-units'); return e.scrollWidth > e.clientWidth; }")
    first = page.locator("#table-units tbody tr:first-child th")
    other = page.locator("#table-units tbody tr:first-child td:nth-child(3)")
    x0, o0 = first.bounding_box()["x"], other.bounding_box()["x"]
    page.evaluate("() => { document.getElementById('help-units').scrollLeft = 200; }")
    page.wait_for_function("() => document.getElementById('help-units').scrollLeft > 0")
    assert abs(first.bounding_box()["x"] - x0) < 1
    assert other.bounding_box()["x"] < o0 - 50


def test_load_then_unload_through_the_panel(page, base_url, wait_for_engine):
    """R40, R41, R46: a foot unit boards a transport by a click on it; next turn "Ausladen" in the panel."""
    boot(page, base_url, wait_for_engine)
    start_from_menu(page, mode="hotseat", fog=False)
    page.wait_for_selector("#handoff:not([hidden])")
    assert page.evaluate("() => kaltfront.state.covered") is False  # without fog the map stays visible
    page.click("#handoff-continue")
    wait_my_turn(page, "move")
    o = obs(page)
    for u in o["units"]:
        if u["side"] != "nordbund":
            continue
        opts = page.evaluate("(id) => kaltfront.call('load_options', {unit: id})", u["id"])
        if opts:
            break
    else:
        raise AssertionError("no foot unit next to a transport on this map: the test lost its subject")
    cargo, transport_at, transport = u, opts[0]["at"], opts[0]["transport"]
    centre_on(page, cargo["at"])
    page.mouse.click(*hex_xy(page, cargo["at"]))
    page.wait_for_function("() => kaltfront.state.loadOpts && kaltfront.state.loadOpts.length")
    page.mouse.click(*hex_xy(page, transport_at))
    page.wait_for_function("(id) => !kaltfront.state.obs.units.some(u => u.id === id)", arg=cargo["id"])
    t = next(x for x in obs(page)["units"] if x["id"] == transport)
    assert t["loaded"] == 1 and [c["id"] for c in t["cargo"]] == [cargo["id"]]
    assert "Protokoll" in page.inner_text("#log-box") and "steigt in" in page.text_content("#log")

    # Round trip to Nordbund's next move phase (Liga passes).
    def end_and_hand_over():
        end_phase_confirmed(page)
        page.wait_for_selector("#handoff:not([hidden])")
        page.click("#handoff-continue")

    end_and_hand_over()              # Nordbund's move phase -> Liga
    wait_my_turn(page, "attack")
    end_phase_confirmed(page)
    wait_my_turn(page, "move")
    end_and_hand_over()              # Liga's move phase -> Nordbund
    wait_my_turn(page, "attack")
    end_phase_confirmed(page)
    wait_my_turn(page, "move")
    assert obs(page)["side"] == "nordbund"

    t = next(x for x in obs(page)["units"] if x["id"] == transport)
    centre_on(page, t["at"])
    page.mouse.click(*hex_xy(page, t["at"]))
    page.wait_for_selector("#btn-unload")
    assert "An Bord: Jäger" in page.inner_text("#panel") or "An Bord:" in page.inner_text("#panel")
    page.click("#btn-unload")
    page.wait_for_function("() => kaltfront.state.unloadUnit !== null && kaltfront.state.unloadOptions")
    to = page.evaluate("() => kaltfront.state.unloadOptions[0].to[0]")
    page.mouse.click(*hex_xy(page, to))
    page.wait_for_function("([id, to]) => { const u = kaltfront.state.obs.units.find(u => u.id === id); return u && u.at[0] === to[0] && u.at[1] === to[1]; }", arg=[cargo["id"], to])
    assert next(x for x in obs(page)["units"] if x["id"] == transport)["loaded"] == 0
