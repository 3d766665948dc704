"""Issue 11, points 5, 6, 7, 11 and 14 in the browser, each on the viewport where it was found: the first
visit's progress bar and share-link preview (phone), the second tap explained with the map kept still
(phone), asking before ending the move phase too with "Nicht mehr fragen" (desktop), the end screen with
the engine's figures and "Revanche" (desktop), and the menu's memory, Blitz line, map order and bad-link
messages in words (small phone).
"""

from __future__ import annotations

import json
import re

import pytest

import kaltfront
from kaltfront.victory import end_summary

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}


def boot(page, base_url, wait_for_engine, fragment=""):
    page.goto(base_url + fragment)
    wait_for_engine(page)
    page.evaluate("() => { kaltfront.skipIntro = true; kaltfront.setAiDelay(0); }")


def start(page, *, scenario="bornholm", fog=False):
    page.click("label:has(#opt-blitz)")
    page.select_option("#opt-scenario", scenario)
    page.click("label:has(#opt-mode-ai)")
    if page.is_checked("#opt-fog") != fog:
        page.click("#opt-fog")
    page.click("#menu-start")
    page.wait_for_function("() => kaltfront.myTurn() && kaltfront.state.obs.phase === 'move' && !kaltfront.state.busy")


def test_issue_11_5_first_visit_shows_megabytes_and_the_shared_game(new_context, base_url, wait_for_engine):
    """Phone, throttled link: a bar with "x von y MB" that grows, and a share link says what it starts
    (side, strength, map) before the engine has booted; the game then starts."""
    page = new_context(**PHONE).new_page()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    # 40 Mbit/s: slow enough to see the bar move, fast enough for a test.
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 20,
                                                  "downloadThroughput": 40e6 / 8, "uploadThroughput": 5e6 / 8})
    page.add_init_script("""(() => { window.__bootSamples = []; const t = setInterval(() => {
        const q = (id) => document.getElementById(id);
        if (!q('boot-bar')) return;
        window.__bootSamples.push({bar: q('boot-bar').value, text: q('boot-bytes').textContent,
          hidden: q('boot-progress').hidden, preview: q('link-preview').hidden ? '' : q('link-preview-text').textContent,
          form: getComputedStyle(q('new-game')).display, ready: !!(window.kaltfront && window.kaltfront.ready)});
        if (window.kaltfront && window.kaltfront.ready) clearInterval(t); }, 50); })()""")
    page.goto(base_url + "#blitz=bornholm&side=liga&ai=schwer&fog=1&seed=5")
    wait_for_engine(page)
    page.wait_for_function("() => kaltfront.state.obs && kaltfront.state.game")
    samples = page.evaluate("() => window.__bootSamples")
    before = [s for s in samples if not s["ready"]]
    assert before, "no sample before the engine answered"
    loading = [s for s in before if re.search(r"\d+,\d von \d+,\d MB", s["text"])]
    assert loading, [s["text"] for s in before[:5]]
    values = [s["bar"] for s in before if not s["hidden"]]
    assert any(0 < v < 100 for v in values) and max(values) == 100, values
    assert values == sorted(values), "the bar only grows"
    total = re.search(r"von (\d+,\d) MB", loading[0]["text"]).group(1)
    info = json.loads(page.evaluate("() => fetch('vendor/build-info.json').then(r => r.text())"))
    assert total == f"{info['fetch_bytes'] / 1e6:.1f}".replace(".", ",")
    assert any("Python startet" in s["text"] for s in before) or any("Danach startet Python" in s["text"] for s in before)
    shown = [s for s in before if s["preview"]]
    assert shown and shown[0]["preview"].startswith(
        "Blitz auf Bornholm: du spielst Baltische Liga gegen den Computer (Schwer), mit Nebel"), shown[:1]
    assert all(s["form"] == "none" for s in shown), "the plain new-game form gives way to the shared game"
    game = page.evaluate("() => kaltfront.state.game")
    assert game["scenario"] == "bornholm" and game["players"] == {"nordbund": "schwer", "liga": "human"}
    assert page.is_hidden("#boot-progress") and page.is_hidden("#link-preview")


def test_issue_11_6_second_tap_is_explained_and_the_map_stays_still(new_context, base_url, wait_for_engine):
    """Phone: after selecting a unit the first tap on a hex shows "Nochmal tippen zum Ziehen" there;
    neither the canvas nor the hex moves between the taps; the second tap moves and the hint goes."""
    page = new_context(**PHONE).new_page()
    boot(page, base_url, wait_for_engine)
    start(page, fog=False)
    o = page.evaluate("() => kaltfront.state.obs")
    uid = page.evaluate("() => kaltfront.state.canAct.move")[0]
    unit = next(u for u in o["units"] if u["id"] == uid)
    page.evaluate("([c, r]) => { const p = kaltfront.camera.hexToScreen(c, r); const cam = kaltfront.camera;"
                  " cam.panBy(cam.viewW / 2 - p.x, cam.viewH / 2 - p.y); }", unit["at"])
    canvas0 = page.locator("#map").bounding_box()
    at = page.evaluate("([c, r]) => kaltfront.hexToScreen(c, r)", unit["at"])
    page.touchscreen.tap(at["x"], at["y"])
    page.wait_for_function("(id) => kaltfront.state.selection && kaltfront.state.selection.id === id && kaltfront.state.reach", arg=uid)
    taken = {tuple(u["at"]) for u in o["units"]} | {tuple(b["at"]) for b in o["buildings"]}
    dest = next(r for r in page.evaluate("() => kaltfront.state.reach") if tuple(r["to"]) not in taken)
    p1 = page.evaluate("([c, r]) => kaltfront.hexToScreen(c, r)", dest["to"])
    canvas1 = page.locator("#map").bounding_box()
    page.touchscreen.tap(p1["x"], p1["y"])
    page.wait_for_selector("#tap-hint:not([hidden])")
    assert page.inner_text("#tap-hint") == "Nochmal tippen zum Ziehen"
    assert page.get_attribute("#tap-hint", "data-at") == ",".join(map(str, dest["to"]))
    hint = page.locator("#tap-hint").bounding_box()
    assert abs(hint["x"] + hint["width"] / 2 - p1["x"]) < hint["width"] / 2 + 2 and hint["y"] + hint["height"] <= p1["y"]
    canvas2 = page.locator("#map").bounding_box()
    p2 = page.evaluate("([c, r]) => kaltfront.hexToScreen(c, r)", dest["to"])
    assert canvas0 == canvas1 == canvas2, (canvas0, canvas1, canvas2)
    assert (round(p1["x"]), round(p1["y"])) == (round(p2["x"]), round(p2["y"])), "the hex did not move under the finger"
    page.touchscreen.tap(p2["x"], p2["y"])
    page.wait_for_function("([id, to]) => { const u = kaltfront.state.obs.units.find(u => u.id === id);"
                           " return u && u.at[0] === to[0] && u.at[1] === to[1]; }", arg=[uid, dest["to"]])
    page.wait_for_selector("#tap-hint", state="hidden")


def test_issue_11_7_enter_asks_before_ending_the_move_phase_and_can_stop_asking(new_context, base_url, wait_for_engine):
    """Desktop: Enter with units that could still move asks (R61 now in both phases); "Zurück" keeps the
    phase; "Nicht mehr fragen" is remembered, so the next Enter ends the phase at once."""
    page = new_context(**DESKTOP).new_page()
    boot(page, base_url, wait_for_engine)
    start(page, fog=False)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm:not([hidden])")
    n = len(set(page.evaluate("() => [...kaltfront.state.canAct.move, ...kaltfront.state.canAct.unload]")))
    assert page.inner_text("#confirm-text") == f"{n} Einheiten können noch ziehen. Zugphase trotzdem beenden?"
    assert page.is_visible("#confirm-dont-ask")
    page.click("#confirm-no")
    assert page.evaluate("() => kaltfront.state.obs.phase") == "move"
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm:not([hidden])")
    page.check("#confirm-dont-ask-box")
    page.click("#confirm-yes")
    page.wait_for_function("() => kaltfront.state.obs.side === 'nordbund' && kaltfront.state.obs.phase === 'attack'"
                           " && kaltfront.myTurn() && !kaltfront.state.busy", timeout=120_000)
    assert json.loads(page.evaluate("() => localStorage.getItem('kaltfront.settings')"))["askEndPhase"] is False
    page.evaluate("() => kaltfront.endPhase()")  # the attack phase: no question either now
    page.wait_for_function("() => kaltfront.state.obs.phase === 'move' && kaltfront.myTurn() && !kaltfront.state.busy")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Enter")
    assert page.is_hidden("#confirm")
    page.wait_for_function("() => kaltfront.state.obs.round === 3 || kaltfront.state.obs.side === 'liga'")
    # The game menu turns the question back on.
    page.click("#btn-menu")
    assert not page.is_checked("#menu-ask-end")
    page.check("#menu-ask-end")
    assert json.loads(page.evaluate("() => localStorage.getItem('kaltfront.settings')"))["askEndPhase"] is True


def round_limit_position() -> tuple[str, dict]:
    """Bornholm in its last round, Liga (the person) about to end the last move phase; Liga holds one
    building more (Allinge), so the buildings decide (R50)."""
    g = kaltfront.new_game("bornholm", seed=3, fog=False)
    d = json.loads(g.to_json())
    d["round"], d["side"], d["phase"] = 10, "liga", "move"
    for b in d["buildings"]:
        if b["name"] == "Allinge":
            b["owner"] = "liga"
    d["stats"] = {"nordbund": {"built": 4, "lost": 3, "destroyed": 2}, "liga": {"built": 5, "lost": 2, "destroyed": 3}}
    text = json.dumps(d)
    after = kaltfront.Game.from_json(text)
    after.apply({"type": "end_phase"})
    return text, end_summary(after)


def test_issue_11_11_end_screen_explains_the_round_limit_and_offers_revanche(new_context, base_url, wait_for_engine):
    """Desktop: at the round limit the end screen says why (buildings, R50), shows buildings held, unit
    value (D8), units built, lost and destroyed per side and the rounds, all as the engine computed
    them; "Revanche" starts the same map and settings with a new seed."""
    page = new_context(**DESKTOP).new_page()
    boot(page, base_url, wait_for_engine)
    text, want = round_limit_position()
    players = {"nordbund": "leicht", "liga": "human"}
    page.evaluate("([save, players]) => kaltfront.resumeGame({save, meta: {players, viewer: 'liga', seed: 7}})", [text, players])
    page.wait_for_function("() => kaltfront.myTurn() && !kaltfront.state.busy")
    page.evaluate("() => { kaltfront.endPhase({confirmed: true}); }")
    page.wait_for_selector("#end-screen:not([hidden])")
    assert page.inner_text("#end-title") == "Sieg! Die Baltische Liga gewinnt."
    reason = page.inner_text("#end-reason")
    s = want["sides"]
    assert reason.startswith("Das Rundenlimit von 10 Runden ist erreicht. Entschieden haben die gehaltenen Gebäude")
    assert f"Nordbund hält {s['nordbund']['buildings']}, Baltische Liga {s['liga']['buildings']} Gebäude" in reason
    cells = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#end-stats tr[data-key]')].map(
        tr => [tr.dataset.key, [...tr.querySelectorAll('td')].map(td => td.textContent)]))""")
    fmt = lambda v: f"{v:,.1f}".rstrip("0").rstrip(".").replace(",", "X").replace(".", ",").replace("X", ".")  # noqa: E731
    for key in ("buildings", "unit_value", "units", "built", "lost", "destroyed"):
        assert cells[key] == [fmt(s["nordbund"][key]), fmt(s["liga"][key])], (key, cells[key])
    assert cells["built"] == ["4", "5"] and cells["destroyed"] == ["2", "3"]
    assert page.inner_text("[data-testid=end-rounds]") == "Gespielte Runden: 10 von 10"
    buttons = page.evaluate("() => [...document.querySelectorAll('#end-actions button')].map(b => b.textContent)")
    assert buttons == ["Revanche", "Hauptmenü"]
    page.click("#end-rematch")
    page.wait_for_selector("#end-screen", state="hidden")
    page.wait_for_function("() => kaltfront.state.obs && kaltfront.state.obs.round === 1 && kaltfront.state.game.seed !== 7")
    game = page.evaluate("() => kaltfront.state.game")
    assert game["scenario"] == "bornholm" and game["players"] == players and game["fog"] is False


def test_issue_11_14_menu_remembers_explains_blitz_orders_maps_and_words_bad_links(new_context, base_url, wait_for_engine):
    """Small phone: the menu lists Blitz maps in the rulebook's order, says in one line what Blitz is,
    remembers side, strength, fog and mode across a reload, and a bad link names fields in words."""
    page = new_context(**SMALL_PHONE).new_page()
    boot(page, base_url, wait_for_engine)
    page.click("label:has(#opt-blitz)")
    assert page.inner_text("#opt-spielart-line").startswith("Blitz: eine kleine Karte, 10 Runden")
    names = page.evaluate("() => [...document.querySelectorAll('#opt-scenario option')].map(o => o.textContent)")
    assert names == ["Fehmarnsund", "Flensburger Förde", "Bornholm", "Rügen und Hiddensee", "Usedom", "Lolland–Falster"]
    page.click("label:has(#opt-standard)")
    assert page.inner_text("#opt-spielart-line").startswith("Standard:")
    page.click("label:has(#opt-blitz)")
    page.select_option("#opt-scenario", "usedom")
    page.click("label:has(#opt-mode-ai)")
    page.select_option("#opt-side", "liga")
    page.select_option("#opt-strength", "schwer")
    if page.is_checked("#opt-fog"):
        page.click("#opt-fog")
    page.click("#menu-start")
    page.wait_for_function("() => kaltfront.state.game")
    bad_link = "#blitz=atlantis&side=x&ai=&fog=2&seed=-1"
    # A bad link opened over a running game (only the fragment changes: no reload) says so in a toast,
    # which stays long enough to read its 200 characters, and leaves the game running.
    page.goto(base_url + bad_link)
    page.wait_for_selector("#toast:not([hidden])")
    toast = page.inner_text("#toast")
    assert toast.startswith("Der geteilte Link ist fehlerhaft") and toast.endswith("Dein laufendes Spiel geht weiter.")
    box = page.locator("#toast").bounding_box()  # the whole message on the screen, at most 90 % wide
    assert box["y"] >= 0 and box["y"] + box["height"] <= 640 and box["width"] > 0.6 * 360 and box["width"] <= 0.9 * 360 + 1
    page.wait_for_timeout(4000)  # the old 3.5 s toast was gone by now
    assert page.is_visible("#toast") and page.evaluate("() => !!kaltfront.state.game")
    page.click("#toast")  # a tap hides it
    assert page.is_hidden("#toast")
    # The menu remembers across a real reload; the same bad link then shows its message in the menu.
    page.goto("about:blank")
    page.goto(base_url + bad_link)
    wait_for_engine(page)
    assert page.is_checked("#opt-blitz") and page.is_checked("#opt-mode-ai")
    assert page.input_value("#opt-scenario") == "usedom"
    assert page.input_value("#opt-side") == "liga" and page.input_value("#opt-strength") == "schwer"
    assert not page.is_checked("#opt-fog")
    # The bad link's message: fields in words, the known maps by name, no keys, no internal numbers.
    page.wait_for_function("() => document.body.innerText.includes('Der geteilte Link ist fehlerhaft')")
    message = page.evaluate("() => [...document.querySelectorAll('*')].map(e => e.childNodes.length === 1 && e.textContent)"
                            ".find(t => t && t.startsWith('Der geteilte Link ist fehlerhaft'))")
    assert "Fehmarnsund" in message and "fehmarnsund" not in message
    for internal in ("blitz=", "side=", "ai=", "fog=", "0 oder 1", "nordbund oder liga", str(2 ** 53 - 1)):
        assert internal not in message, (internal, message)
    assert "Nordbund oder Baltische Liga" in message and "an oder aus" in message
