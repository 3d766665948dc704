"""The player aids of issue 13 in the browser: "Rückgängig" (D16) with its lock reasons, Ctrl+Z and
Backspace; the "Feuerzonen" toggle, a tapped enemy's reach and the path preview's expected damage,
under fog (a hidden enemy adds nothing); replays from the end screen, in the viewer, and under
"Spielstände" with export and import. The page shows what the engine answers; where a test needs a
rule answer it asks the engine through `kaltfront.call`, as the page does."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.e2e

# A hand-made position (docs/save-format.md): Nordbund's attack phase, a Liga Jäger next to the
# Kampfpanzer, a second Liga Jäger hidden in the fog behind it, and a Liga Kampfpanzer far away.
ROWS = ["H..............", "...............", "...............", "...............", "..............H"]


def position() -> dict:
    def unit(uid, utype, side, at, ammo, fuel):
        return {"id": uid, "type": utype, "side": side, "at": at, "hp": 10, "level": 0, "ammo": ammo,
                "fuel": fuel, "moved": False, "attacked": False}
    return {
        "format": "kaltfront-save", "version": 1, "scenario": "test", "name": "Übung", "briefing": "",
        "objectives": {}, "region": "", "map": {"width": 15, "height": 5, "terrain": ROWS},
        "blitz": False, "fog": True, "round_limit": None, "first": "nordbund", "round": 2,
        "side": "nordbund", "phase": "attack", "money": {"nordbund": 0, "liga": 0},
        "buildings": [{"at": [0, 0], "type": "hq", "owner": "nordbund", "name": "Kiel", "capture": None},
                      {"at": [14, 4], "type": "hq", "owner": "liga", "name": "Rostock", "capture": None}],
        "units": [unit(1, "kampfpanzer", "nordbund", [3, 2], 6, 50), unit(2, "jaeger", "nordbund", [1, 2], 9, None),
                  unit(3, "jaeger", "liga", [4, 2], 9, None), unit(4, "jaeger", "liga", [8, 2], 9, None),
                  unit(5, "kampfpanzer", "liga", [13, 4], 6, 50)],
        "next_id": 6, "rng": 11, "outcome": None,
    }


def boot(page, base_url, wait_for_engine):
    page.goto(base_url)
    wait_for_engine(page)
    page.evaluate("() => { kaltfront.skipIntro = true; kaltfront.setAiDelay(0); }")


def load_position(page):
    page.evaluate("(save) => kaltfront.resumeGame({save: JSON.stringify(save), meta: {players: {nordbund: 'human', liga: 'leicht'}}})",
                  position())
    page.wait_for_function("() => kaltfront.myTurn() && kaltfront.state.obs.phase === 'attack' && !kaltfront.state.busy")


def undo_state(page) -> dict:
    return page.evaluate("""() => { const b = document.getElementById('btn-undo');
        return {code: b.dataset.code, reason: b.querySelector('.undo-reason').textContent,
                locked: b.getAttribute('aria-disabled') === 'true', hidden: b.hidden}; }""")


def unit_at(page, uid):
    return page.evaluate("(id) => { const u = kaltfront.state.obs.units.find((x) => x.id === id); return u ? u.at : null; }", uid)


def hex_xy(page, h):
    p = page.evaluate("([c, r]) => kaltfront.hexToScreen(c, r)", list(h))
    return p["x"], p["y"]


def pixel(page, h):
    return page.evaluate(
        """([c, r]) => { const cv = document.getElementById('map'); const p = kaltfront.camera.hexToScreen(c, r);
             const k = cv.width / cv.getBoundingClientRect().width;
             return Array.from(cv.getContext('2d').getImageData(Math.round(p.x * k), Math.round(p.y * k), 1, 1).data); }""",
        list(h))


def settle(page):
    page.wait_for_function("() => !kaltfront.state.busy")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def move_jaeger(page, to):
    # After "Rückgängig" the unit stays selected, ready to move again; a tap on it would deselect it.
    if page.evaluate("() => !(kaltfront.state.selection && kaltfront.state.selection.id === 2)"):
        page.click("#map", position=dict(zip("xy", rel(page, (1, 2)))))
    page.wait_for_function("() => kaltfront.state.reach && kaltfront.state.reach.length")
    page.click("#map", position=dict(zip("xy", rel(page, to))))
    page.wait_for_function(f"() => {{ const u = kaltfront.state.obs.units.find((x) => x.id === 2); return u && u.at[0] === {to[0]}; }}")
    settle(page)


def rel(page, h):
    x, y = hex_xy(page, h)
    box = page.locator("#map").bounding_box()
    return x - box["x"], y - box["y"]


def test_issue13_undo_locks_with_reasons_and_takes_back_by_button_ctrl_z_and_backspace(page, base_url, wait_for_engine):
    boot(page, base_url, wait_for_engine)
    assert page.locator("#btn-undo").is_hidden()  # not in the main menu
    load_position(page)
    page.evaluate("() => kaltfront.camera.centreOn(300, 150, 1)")
    s = undo_state(page)
    assert not s["hidden"] and s["locked"] and s["reason"] == "Noch nichts zurückzunehmen"
    box = page.locator("#btn-undo").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44  # a big touch target
    # An attack is final (D16).
    page.evaluate("() => kaltfront.act({type: 'attack', unit: 1, target: [4, 2]})")
    settle(page)
    s = undo_state(page)
    assert s["locked"] and s["reason"] == "Angriffe lassen sich nicht zurücknehmen"
    # A tap on the locked button says why once more, and changes nothing.
    before = page.evaluate("() => JSON.stringify(kaltfront.state.obs)")
    page.click("#btn-undo", force=True)  # aria-disabled: Playwright would wait for "enabled"
    page.wait_for_selector("#toast:not([hidden])")
    assert "Angriffe lassen sich nicht zurücknehmen" in page.inner_text("#toast")
    assert page.evaluate("() => JSON.stringify(kaltfront.state.obs)") == before
    page.evaluate("() => kaltfront.endPhase({confirmed: true})")
    page.wait_for_function("() => kaltfront.state.obs.phase === 'move' && kaltfront.myTurn() && !kaltfront.state.busy")
    assert undo_state(page)["reason"] == "Noch nichts zurückzunehmen"

    # Move the Jäger one hex (nothing new comes into view), take it back three ways.
    for how in ("button", "Control+z", "Backspace"):
        seen_before = page.evaluate("() => JSON.stringify(kaltfront.state.obs)")
        move_jaeger(page, (1, 1))
        assert unit_at(page, 2) == [1, 1]
        s = undo_state(page)
        assert s["code"] == "ok" and not s["locked"]
        if how == "button":
            page.click("#btn-undo")
        else:
            page.keyboard.press(how)
        page.wait_for_function("() => kaltfront.state.obs.units.find((x) => x.id === 2).at[1] === 2")
        settle(page)
        assert unit_at(page, 2) == [1, 2]
        # D16 fairness, as the page sees it: exactly the view from before the move, nothing more.
        assert page.evaluate("() => JSON.stringify(kaltfront.state.obs)") == seen_before
        assert undo_state(page)["reason"] == "Noch nichts zurückzunehmen"
        # The Protokoll (newest line first) says so, in the engine's words.
        assert page.evaluate("() => document.querySelector('#log li').textContent") == "Bewegung zurückgenommen."

    # A move that brings the hidden Jäger at (8, 2) into view cannot be taken back.
    hidden_before = page.evaluate("() => kaltfront.state.obs.units.some((u) => u.id === 4)")
    assert not hidden_before
    page.evaluate("() => kaltfront.act({type: 'move', unit: 1, to: [6, 2]})")
    settle(page)
    assert page.evaluate("() => kaltfront.state.obs.units.some((u) => u.id === 4)")
    s = undo_state(page)
    assert s["locked"] and s["reason"] == "Feind gesichtet"
    page.keyboard.press("Control+z")
    settle(page)
    assert unit_at(page, 1) == [6, 2]

    # The reason shows while the computer is on (its actions are not the player's to take back).
    page.evaluate("() => kaltfront.endPhase({confirmed: true})")
    page.wait_for_function("() => kaltfront.state.obs.side === 'nordbund' && kaltfront.myTurn() && !kaltfront.state.busy",
                           timeout=90_000)
    assert undo_state(page)["reason"] == "Noch nichts zurückzunehmen"


def test_issue13_fire_zones_toggle_enemy_reach_and_path_damage_under_fog(page, base_url, wait_for_engine):
    boot(page, base_url, wait_for_engine)
    load_position(page)
    page.evaluate("() => kaltfront.endPhase({confirmed: true})")
    page.wait_for_function("() => kaltfront.state.obs.phase === 'move' && kaltfront.myTurn() && !kaltfront.state.busy")
    page.evaluate("() => kaltfront.camera.centreOn(300, 150, 1)")
    settle(page)
    engine = page.evaluate("() => kaltfront.call('fire_zones', {})")
    # Fog: only the Jäger next to the tank is seen; the hidden Jäger and the far tank add nothing.
    assert [e["id"] for e in engine["enemies"]] == [3]
    threatened = [c["at"] for c in engine["now"]]
    free = next(h for h in ([2, 0], [0, 4], [1, 4]) if h not in threatened and h not in [a for a in
                [c["at"] for c in engine["after"]]])
    hot = next(h for h in threatened if h not in ([3, 2], [4, 2]))
    before_hot, before_free = pixel(page, hot), pixel(page, free)
    page.click("#btn-fire-zones")
    page.wait_for_function("() => kaltfront.aids.zones !== null")
    settle(page)
    assert page.get_attribute("#btn-fire-zones", "aria-pressed") == "true"
    zones = page.evaluate("() => kaltfront.aids.zones")
    assert [c["at"] for c in zones["now"]] == threatened
    after_hot = pixel(page, hot)
    assert after_hot[0] - after_hot[1] > before_hot[0] - before_hot[1] + 15  # tinted red
    assert pixel(page, free) == before_free
    # Selected unit: the tint follows its armour class and the engine's damage against it.
    page.click("#map", position=dict(zip("xy", rel(page, (3, 2)))))
    page.wait_for_function("() => kaltfront.aids.zones && kaltfront.aids.zones.target === 'kampfpanzer'")
    want = page.evaluate("() => kaltfront.call('fire_zones', {target: 1})")
    assert page.evaluate("() => kaltfront.aids.zones") == want
    # Path preview: a hex under fire shows the expected damage there (D2).
    page.wait_for_function("() => kaltfront.aids.pathZones !== null && kaltfront.state.reach")
    target_cell = next(c for c in want["now"] if c["damage"] and c["at"] != [3, 2]
                       and page.evaluate("(h) => kaltfront.state.reach.some((r) => r.to[0] === h[0] && r.to[1] === h[1])", c["at"]))
    page.mouse.move(*hex_xy(page, target_cell["at"]))
    page.wait_for_function("(h) => kaltfront.state.path && kaltfront.state.path.at(-1)[0] === h[0] && kaltfront.state.path.at(-1)[1] === h[1]",
                           arg=target_cell["at"])
    assert page.evaluate("() => kaltfront.aids.pathDamage(kaltfront.state.path)") == target_cell["damage"]
    # Tap on an enemy: its reach and fire range.
    page.click("#map", position=dict(zip("xy", rel(page, (4, 2)))))
    page.wait_for_function("() => kaltfront.aids.enemy && kaltfront.aids.enemy.entry")
    entry = page.evaluate("() => kaltfront.aids.enemy.entry")
    want = page.evaluate("() => kaltfront.call('fire_zones', {enemy: 3})")
    assert entry == next(e for e in want["enemies"] if e["id"] == 3)
    assert entry["reach"] and entry["now"] and entry["after"]
    # Toggle off: the tint goes.
    page.click("#btn-fire-zones")
    page.click("#map", position=dict(zip("xy", rel(page, free))))
    settle(page)
    assert page.get_attribute("#btn-fire-zones", "aria-pressed") == "false"
    assert pixel(page, hot) == before_hot


def test_issue13_replay_from_end_screen_viewer_and_saves_export_import(page, base_url, wait_for_engine, tmp_path):
    boot(page, base_url, wait_for_engine)
    # The help page explains the three aids.
    page.click("#menu-help-main")
    section = page.locator("#help-content #hilfe-hilfen")
    assert section.count() == 1
    text = page.inner_text("#help-content")
    for words in ("Rückgängig", "Feind gesichtet", "Feuerzonen", "Wiederholung ansehen", ".kaltfront-replay.json"):
        assert words in text
    page.click("#help-close")
    page.evaluate("() => kaltfront.startGame({scenario: 'uebungsplatz', fog: true, seed: 7, players: {nordbund: 'human', liga: 'leicht'}})")
    page.wait_for_function("() => kaltfront.myTurn() && !kaltfront.state.busy")
    # Play a little: two moves and the end of the phase; the computer answers.
    for a in page.evaluate("() => kaltfront.call('legal_actions', {})"):
        if a["type"] == "move":
            page.evaluate("(a) => kaltfront.act(a)", a)
            break
    page.evaluate("() => kaltfront.endPhase({confirmed: true})")
    page.wait_for_function("() => kaltfront.state.obs.side === 'nordbund' && kaltfront.myTurn() && !kaltfront.state.busy",
                           timeout=90_000)
    assert page.locator("#end-replay").count() == 0  # no replay of a running game
    page.click("#btn-menu")
    page.click("#menu-surrender")
    page.click("#confirm-yes")
    page.wait_for_selector("#end-screen:not([hidden])")
    page.wait_for_selector("#end-replay:not([hidden])")
    page.click("#end-replay")
    page.wait_for_selector("#replay-viewer:not([hidden])")
    n = page.evaluate("() => kaltfront.replay.summary.length")
    assert n >= 3
    assert page.inner_text("#replay-pos").startswith(f"Aktion 0 / {n}")
    page.click("#replay-step")
    page.wait_for_function("() => kaltfront.replay.index === 1")
    assert page.inner_text("#replay-pos").startswith(f"Aktion 1 / {n}")
    assert page.locator("#replay-log li").count() >= 1
    # The viewer shows the engine's position, fog lifted: both sides' units.
    obs = page.evaluate("() => kaltfront.replay.view.observation")
    assert obs["fog"] is False and {u["side"] for u in obs["units"]} == {"nordbund", "liga"}
    page.select_option("#replay-speed", "4")
    page.click("#replay-play")
    page.wait_for_function("() => kaltfront.replay.index >= 3")
    page.click("#replay-play")  # pause
    stopped = page.evaluate("() => kaltfront.replay.index")
    page.wait_for_timeout(600)
    assert page.evaluate("() => kaltfront.replay.index") == stopped
    page.select_option("#replay-round", "2")
    page.wait_for_function("() => kaltfront.replay.view.observation.round === 2")
    page.click("#replay-start")
    page.wait_for_function("() => kaltfront.replay.index === 0")
    page.click("#replay-close")
    assert page.locator("#replay-viewer").is_hidden()

    # Kept automatically and listed under "Spielstände"; export and import as a file.
    page.click("#end-main")
    page.click("#menu-saves")
    page.wait_for_selector("#replays-list li.replay")
    assert page.locator("#replays-list li.replay").count() == 1
    with page.expect_download() as dl:
        page.click("#replays-list li.replay button:has-text('Exportieren')")
    path = tmp_path / dl.value.suggested_filename
    dl.value.save_as(path)
    assert path.name.endswith(".kaltfront-replay.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "kaltfront-replay" and len(data["actions"]) == n
    page.set_input_files("#replays-file", str(path))
    page.wait_for_function("() => document.getElementById('replays-message').textContent === 'Wiederholung importiert.'")
    assert page.locator("#replays-list li.replay").count() == 2
    bad = tmp_path / "kaputt.kaltfront-replay.json"
    data["actions"].insert(0, {"type": "attack", "unit": 1, "target": [0, 0]})
    bad.write_text(json.dumps(data), encoding="utf-8")
    page.set_input_files("#replays-file", str(bad))
    page.wait_for_function("() => document.getElementById('replays-message').textContent.includes('nicht erlaubt')")
    assert page.locator("#replays-list li.replay").count() == 2
    page.click("#replays-list li.replay >> nth=0 >> button:has-text('Ansehen')")
    page.wait_for_selector("#replay-viewer:not([hidden])")
    assert page.inner_text("#replay-pos").startswith(f"Aktion 0 / {n}")


def test_issue13_phone_undo_and_fire_zones_by_touch(phone_page, base_url, wait_for_engine):
    page = phone_page
    boot(page, base_url, wait_for_engine)
    load_position(page)
    page.evaluate("() => kaltfront.endPhase({confirmed: true})")
    page.wait_for_function("() => kaltfront.state.obs.phase === 'move' && kaltfront.myTurn() && !kaltfront.state.busy")
    page.evaluate("() => kaltfront.camera.centreOn(150, 150, 1)")
    settle(page)
    for sel in ("#btn-undo", "#btn-fire-zones"):
        box = page.locator(sel).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, sel
    page.tap("#btn-fire-zones")
    page.wait_for_function("() => kaltfront.aids.zones !== null")
    # Touch: first tap selects, tap on a hex previews, second tap moves; then "Rückgängig" by tap.
    page.tap("#map", position=dict(zip("xy", rel(page, (1, 2)))))
    page.wait_for_function("() => kaltfront.state.reach && kaltfront.state.reach.length")
    page.tap("#map", position=dict(zip("xy", rel(page, (1, 1)))))
    page.tap("#map", position=dict(zip("xy", rel(page, (1, 1)))))
    page.wait_for_function("() => kaltfront.state.obs.units.find((x) => x.id === 2).at[1] === 1")
    settle(page)
    page.tap("#btn-undo")
    page.wait_for_function("() => kaltfront.state.obs.units.find((x) => x.id === 2).at[1] === 2")
    assert undo_state(page)["reason"] == "Noch nichts zurückzunehmen"


def test_issue13_the_last_ten_finished_games_are_kept_within_the_storage_share(page, base_url, wait_for_engine):
    """pwa/replays.js: at most ten, oldest dropped first, all within a fixed share of the storage."""
    page.goto(base_url)
    r = page.evaluate("""async () => {
        const m = await import(new URL('pwa/replays.js', location.href));
        localStorage.clear();
        const fake = (k, pad) => ({format: 'kaltfront-replay', version: 1, actions: [], final: {round: k, text: 'x'},
                                   meta: {name: 'Spiel ' + k, saved: '2026-11-30T20:0' + (k % 10) + ':00Z', pad}});
        for (let k = 1; k <= 12; k++) m.keepReplay('g' + k, fake(k, ''));
        const ten = m.listReplays().map((e) => e.id);
        const again = m.keepReplay('g12', fake(12, ''));           // the same game is not kept twice
        const big = 'x'.repeat(Math.floor(m.BUDGET_CHARS / 3));
        for (let k = 13; k <= 15; k++) m.keepReplay('g' + k, fake(k, big));
        const share = m.listReplays();
        const used = share.reduce((n, e) => n + e.size, 0);
        const stored = Object.keys(localStorage).filter((key) => key.startsWith(m.ITEM_PREFIX)).length;
        const tooBig = m.keepReplay('huge', fake(99, 'x'.repeat(m.BUDGET_CHARS + 1)));
        return {ten, again, ids: share.map((e) => e.id), used, budget: m.BUDGET_CHARS, max: m.MAX_KEPT, stored, tooBig,
                name: m.replayFileName({name: 'Rügen und Hiddensee', saved_at: '2026-11-30T20:00:00Z'})};
    }""")
    assert r["max"] == 10 and r["ten"] == [f"g{k}" for k in range(12, 2, -1)]  # newest first, g1 and g2 dropped
    assert r["again"] == {"ok": True, "kept": False}
    assert r["ids"][:2] == ["g15", "g14"] and r["used"] <= r["budget"] and len(r["ids"]) <= 10
    assert r["stored"] == len(r["ids"])  # dropped replays leave nothing behind
    assert r["tooBig"]["ok"] is False and "zu groß" in r["tooBig"]["message"]
    assert r["name"] == "kaltfront-ruegen-und-hiddensee-2026-11-30.kaltfront-replay.json"
