"""The cross-engine smoke scenario (issue 17), the same steps in every engine: cold boot, a Blitz game
against the computer, a unit selected and moved by clicking hexes, the phase ended, the computer's turn,
a reload (warm start from the memory snapshot where the engine can store one), the server switched off
and a reload that boots from the service worker's cache and resumes the same game, and no console error.

The UI is driven through stable ids (#menu-start, #menu-continue, #opt-…) and the page's test surface
`window.kaltfront` (state, hexToScreen, endPhase, call); rule answers (where a unit may go) come from the
engine through `kaltfront.call`, never from here. Capabilities are detected in the page, not by browser
name: where one is missing (IndexedDB for the snapshot, navigator.storage.persist), the fallback is what
gets checked.
"""

from __future__ import annotations

import time

from engine_drivers import BOOT_TIMEOUT_S, Browser

READY = "window.kaltfront && (window.kaltfront.ready === true || !!window.kaltfront.error)"
MY_TURN = "kaltfront.myTurn() && !kaltfront.state.busy && kaltfront.state.obs.phase === '%s'"

# What the page can do, asked of the page itself (never of the user agent string).
CAPABILITIES = """(() => ({
  indexedDB: typeof indexedDB !== "undefined" && indexedDB !== null,
  serviceWorker: "serviceWorker" in navigator,
  persist: !!(navigator.storage && navigator.storage.persist),
  estimate: !!(navigator.storage && navigator.storage.estimate),
  deviceMemory: navigator.deviceMemory === undefined ? null : navigator.deviceMemory,
  userAgent: navigator.userAgent,
  width: innerWidth, height: innerHeight,
}))()"""

# The worker's snapshot record (database/store/record names as in pwa/worker.js, openSnapshotDb).
SNAPSHOT_RECORD = """new Promise((resolve) => {
  const open = indexedDB.open("kaltfront-engine", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("snapshots");
  open.onerror = () => resolve({error: String(open.error)});
  open.onsuccess = () => {
    const db = open.result;
    const get = db.transaction("snapshots", "readonly").objectStore("snapshots").get("engine");
    get.onsuccess = () => { const r = get.result; db.close();
      resolve(r ? {key: r.key, bytes: r.bytes ? r.bytes.length : 0, failures: r.failures || 0} : null); };
    get.onerror = () => { db.close(); resolve({error: String(get.error)}); };
  };
})"""

# Damage the stored snapshot so that restoring it must fail (its own sha256 no longer matches).
DAMAGE_SNAPSHOT = """new Promise((resolve, reject) => {
  const open = indexedDB.open("kaltfront-engine", 1);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const tx = db.transaction("snapshots", "readwrite");
    const store = tx.objectStore("snapshots");
    const get = store.get("engine");
    get.onsuccess = () => { const r = get.result; const b = r.bytes.slice();
      for (let i = 1 << 20; i < b.length; i += 4096) b[i] ^= 0xff; r.bytes = b; store.put(r, "engine"); };
    tx.oncomplete = () => { db.close(); resolve(true); };
    tx.onerror = () => { db.close(); reject(tx.error); };
  };
})"""


MENU_SAVES_REACHABLE = """(() => { const el = document.getElementById("menu-saves"); if (!el || el.hidden) return false;
  el.scrollIntoView({block: "nearest"}); const r = el.getBoundingClientRect();
  return r.width > 0 && el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); })()"""


def capabilities(b: Browser) -> dict:
    return b.eval(CAPABILITIES)


def wait_ready(b: Browser, started: float) -> dict:
    """Wait for the engine; return {wall_s, info} or fail with the page's own boot error."""
    b.wait_for(READY, timeout_s=BOOT_TIMEOUT_S, what="the engine to boot", poll_s=0.05)
    wall = time.perf_counter() - started
    state = b.eval("({ready: kaltfront.ready === true, error: kaltfront.error || null, info: kaltfront.info})")
    assert state["ready"], f"{b.name}: the engine failed to boot: {state['error']}"
    # The computer's moves unanimated and no opening pan: the smoke test is about the engine, not pace.
    b.eval("(() => { kaltfront.skipIntro = true; kaltfront.setAiDelay(0); })()")
    info = state["info"]
    return {"wall_s": round(wall, 2), "boot": info["boot"], "boot_ms": info["bootMs"], "snapshot": info["snapshot"]}


def cold_boot(b: Browser, url: str) -> dict:
    started = time.perf_counter()
    b.goto(url)
    return wait_ready(b, started)


def reload_boot(b: Browser) -> dict:
    started = time.perf_counter()
    b.reload()
    return wait_ready(b, started)


def wait_offline_ready(b: Browser) -> None:
    """The service worker has precached every file and controls the page."""
    b.wait_for("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
               timeout_s=90, what="the service worker to control the page")


def wait_snapshot_stored(b: Browser) -> dict | None:
    """The worker stores its snapshot after "ready"; wait until the record holds bytes (or give up after
    60 s and return what is there)."""
    try:
        return b.wait_for(f"{SNAPSHOT_RECORD}.then(r => r && r.bytes > 0 ? r : null)", timeout_s=60,
                          what="the memory snapshot in IndexedDB", poll_s=0.5)
    except AssertionError:
        return b.eval(SNAPSHOT_RECORD)


def obs(b: Browser) -> dict:
    return b.eval("kaltfront.state.obs")


def start_blitz(b: Browser) -> None:
    """Blitz against the computer (Leicht), Nordbund, open map: set through the menu's own controls by
    id, started with a real click on #menu-start."""
    b.eval("""(() => {
      const pick = (id) => { const el = document.getElementById(id); if (!el.checked) el.click(); };
      pick("opt-blitz"); pick("opt-mode-ai");
      const choose = (id, value) => { const el = document.getElementById(id); el.value = value;
        el.dispatchEvent(new Event("change", {bubbles: true})); };
      choose("opt-side", "nordbund"); choose("opt-strength", "leicht");
      const fog = document.getElementById("opt-fog"); if (fog.checked) fog.click();
    })()""")
    b.wait_for("!document.getElementById('menu-start').disabled", what="#menu-start to be enabled")
    b.click_id("menu-start")
    b.wait_for("kaltfront.state.game && kaltfront.state.obs", what="the game to start")
    assert obs(b)["blitz"] is True, f"{b.name}: the started game is not a Blitz game"


def wait_my_turn(b: Browser, phase: str, timeout_s: float = 180) -> None:
    b.wait_for(MY_TURN % phase, timeout_s=timeout_s, what=f"the player's {phase} phase")


# A hex centre's viewport position, and whether a click there reaches the map (not a panel over it).
CLICKABLE = """(() => { const p = kaltfront.hexToScreen(%d, %d);
  return {x: p.x, y: p.y, hit: document.elementFromPoint(p.x, p.y) === document.getElementById('map')}; })()"""


def wait_camera_still(b: Browser) -> None:
    last = None
    end = time.monotonic() + 5
    while time.monotonic() < end:
        now = b.eval("[kaltfront.camera.x, kaltfront.camera.y, kaltfront.camera.scale]")
        if now == last:
            return
        last = now
        time.sleep(0.15)


def centre_on(b: Browser, at) -> None:
    """Centre the camera on a hex, so it and its neighbourhood are on screen in a phone window too. The
    shell may still be gliding the camera (after a resume or the computer's moves), so pan until the hex
    stays centred."""
    pan = """(([c, r]) => { const p = kaltfront.camera.hexToScreen(c, r); const cam = kaltfront.camera;
              const dx = cam.viewW / 2 - p.x, dy = cam.viewH / 2 - p.y;
              if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return true;
              cam.panBy(dx, dy); return false; })(%s)""" % list(at)
    steady = 0
    end = time.monotonic() + 10
    while steady < 2 and time.monotonic() < end:
        steady = steady + 1 if b.eval(pan) else 0
        time.sleep(0.15)


def move_a_unit_by_clicks(b: Browser) -> tuple[int, list[int]]:
    """Click an own unit, check the map shows the engine's reachable hexes, click a free one of them
    that is on screen, and check the unit is there. Returns (unit id, destination)."""
    # The shell asks the engine which units can act one round trip after the phase change.
    b.wait_for("kaltfront.state.canAct.move.length > 0", what="units that can move (R55)")
    o = obs(b)
    taken = {tuple(u["at"]) for u in o["units"]} | {tuple(x["at"]) for x in o["buildings"]}
    tried = []
    for uid in b.eval("kaltfront.state.canAct.move"):
        unit = next(u for u in o["units"] if u["id"] == uid)
        centre_on(b, unit["at"])
        reach = b.eval(f"kaltfront.call('reachable', {{unit: {uid}}})")
        free = [r for r in reach if tuple(r["to"]) not in taken]
        here = b.eval(CLICKABLE % tuple(unit["at"]))
        tried.append({"unit": uid, "at": unit["at"], "xy": here, "reach": len(reach), "free": len(free)})
        if not free or not here["hit"]:
            continue
        b.click_at(here["x"], here["y"])
        b.wait_for(f"kaltfront.state.selection && kaltfront.state.selection.id === {uid} && kaltfront.state.reach",
                   what=f"unit {uid} to be selected")
        shown = sorted(tuple(t) for t in b.eval("kaltfront.state.reach.map(r => r.to)"))
        assert shown == sorted(tuple(r["to"]) for r in reach), f"{b.name}: the map shows other hexes than the engine's"
        # Selecting may glide the camera (on a phone, to keep the unit clear of the panel): positions are
        # read only once it rests.
        wait_camera_still(b)
        targets = [(len(r["path"]), r["to"], p) for r in free for p in [b.eval(CLICKABLE % tuple(r["to"]))] if p["hit"]]
        tried[-1]["clickable"] = len(targets)
        if not targets:
            continue  # clicking the next unit selects that one instead
        _, dest, dest_xy = max(targets, key=lambda t: t[0])
        b.click_at(dest_xy["x"], dest_xy["y"])
        b.wait_for("(() => { const u = kaltfront.state.obs.units.find(u => u.id === %d);"
                   " return u && u.at[0] === %d && u.at[1] === %d; })()" % (uid, dest[0], dest[1]),
                   what=f"unit {uid} to arrive at {dest}")
        b.wait_for("!kaltfront.state.busy", what="the move to finish")
        return uid, dest
    raise AssertionError(f"{b.name}: no own unit has a free reachable hex on screen; tried: {tried}")


def end_phase_and_let_the_computer_play(b: Browser) -> None:
    """End the move phase (the shell's own endPhase path) and wait for the computer's whole turn."""
    b.eval("kaltfront.endPhase({confirmed: true})")
    wait_my_turn(b, "attack")
    o = obs(b)
    assert o["round"] == 2 and o["side"] == "nordbund", f"{b.name}: after the computer's turn: {o['round']}, {o['side']}"


def autosave_kind(b: Browser) -> str | None:
    return b.eval("(() => { const s = localStorage.getItem('kaltfront.autosave'); return s && JSON.parse(s).kind; })()")


def continue_game(b: Browser) -> None:
    """Resume the autosave through the main menu's "Spiel fortsetzen" (#menu-continue)."""
    b.wait_for("(() => { const c = document.getElementById('menu-continue'); return c && !c.hidden && !c.disabled; })()",
               what="#menu-continue")
    b.click_id("menu-continue")
    b.wait_for("kaltfront.state.game && kaltfront.state.obs", what="the saved game to resume")


def persistence_answer(b: Browser):
    """What the app's own persistence request (pwa/saves.js) answers in this engine: a boolean, never a
    throw, also where navigator.storage.persist does not exist; or "pending" when the browser asks the
    player first (Firefox shows a prompt and resolves only when it is answered; the app never awaits it)."""
    return b.eval("import('./pwa/saves.js').then(m => Promise.race([m.requestPersistence(),"
                  " new Promise(ok => setTimeout(() => ok('pending'), 3000))]))"
                  ".then(v => typeof v === 'boolean' || v === 'pending' ? v : 'not a boolean: ' + v)")


def run_smoke(b: Browser, server, *, damage_snapshot: bool = False) -> dict:
    """The whole scenario in one browser (one cold boot, then reloads). Returns the boot figures."""
    figures: dict = {"steps": {}}
    t0 = [time.perf_counter()]

    def lap(step: str) -> None:  # where the time goes, for the report (never asserted)
        now = time.perf_counter()
        figures["steps"][step] = round(now - t0[0], 1)
        t0[0] = now

    figures["cold"] = cold_boot(b, server.url)
    caps = capabilities(b)
    figures["capabilities"] = caps
    assert figures["cold"]["boot"] == "normal", f"{b.name}: a fresh profile booted from {figures['cold']}"
    assert caps["serviceWorker"], f"{b.name}: no service worker, so no offline play"
    lap("cold boot")
    wait_offline_ready(b)
    lap("service worker")

    # Warm start: only where the engine can keep the 31 MB snapshot (IndexedDB). Without it the worker
    # must say so and boot normally every time.
    record = wait_snapshot_stored(b) if caps["indexedDB"] else None
    snapshot_expected = bool(record and record.get("bytes"))
    if not caps["indexedDB"]:
        assert figures["cold"]["snapshot"] == "unavailable", figures["cold"]

    lap("snapshot stored")
    start_blitz(b)
    wait_my_turn(b, "move")
    lap("start")
    move_a_unit_by_clicks(b)
    lap("move")
    end_phase_and_let_the_computer_play(b)
    lap("computer turn")
    assert autosave_kind(b) == "kaltfront-slot", f"{b.name}: no autosave after the computer's turn"
    before = obs(b)

    # Persistence is asked for by capability; where persist() is missing the app answers false and the
    # saves still work (the resume below is the proof).
    persisted = persistence_answer(b)
    assert isinstance(persisted, bool) or persisted == "pending", f"{b.name}: requestPersistence answered {persisted!r}"
    if not caps["persist"]:
        assert persisted is False
    figures["persisted"] = persisted
    lap("persist")

    figures["snapshot"] = reload_boot(b)
    want = "snapshot" if snapshot_expected else "normal"
    assert figures["snapshot"]["boot"] == want, f"{b.name}: reload booted {figures['snapshot']}, expected {want}"
    continue_game(b)
    assert obs(b) == before, f"{b.name}: the resumed game after the reload is not the saved one"
    lap("warm reload")

    server.stop()
    assert not server.answers(), "the server still answers: this would not be offline"
    figures["offline"] = reload_boot(b)
    assert figures["offline"]["boot"] == want, f"{b.name}: offline reload booted {figures['offline']}, expected {want}"
    # Storage may be evicted (Safari: seven days without a visit); the way to a save file must be in
    # reach on the main menu, on a phone too.
    assert b.eval(MENU_SAVES_REACHABLE), f"{b.name}: „Spielstände“ (#menu-saves, export) is not reachable in the menu"
    continue_game(b)
    assert obs(b) == before, f"{b.name}: the game resumed offline is not the saved one"
    lap("offline reload")
    # Play on offline: end the attack phase, move by clicks, and let the computer play its turn.
    b.eval("kaltfront.endPhase({confirmed: true})")
    wait_my_turn(b, "move")
    move_a_unit_by_clicks(b)
    b.eval("kaltfront.endPhase({confirmed: true})")
    wait_my_turn(b, "attack")
    assert obs(b)["round"] == 3, f"{b.name}: the computer's offline turn did not end in round 3"
    lap("offline turn")

    if damage_snapshot and snapshot_expected:
        # The fallback where restoring fails (a damaged or unrestorable snapshot, as on an engine whose
        # memory or wasm differs): the worker must boot normally, offline, and the game resumes.
        b.eval(DAMAGE_SNAPSHOT)
        running = obs(b)
        figures["fallback"] = reload_boot(b)
        assert figures["fallback"]["boot"] == "normal", figures["fallback"]
        assert figures["fallback"]["snapshot"].startswith("failed"), figures["fallback"]
        continue_game(b)
        assert obs(b) == running, f"{b.name}: the game after the fallback boot is not the saved one"
        lap("fallback boot")

    errors = b.errors()
    assert errors == [], f"{b.name}: console errors: {errors}"
    return figures
