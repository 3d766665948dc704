"""Browser figures for the UI (issue 5): boot, menu, tap-to-highlight latency, full-redraw frame time.

    .venv/bin/python bench/bench_browser.py [--taps 60] [--frames 60]

Serves the repository with tools/serve.py on a free port and drives the system Chromium headless:
- boot, cold: a fresh browser context (empty HTTP cache, no stored snapshot) until the engine answers
  (`kaltfront.ready`); warm: a reload in the same context (the server answers no-cache, so the browser
  revalidates), once restored from the memory snapshot the cold boot stored (pwa/worker.js, "Warm
  start") and once with that snapshot deleted first (the normal boot);
- menu visible: when app.js showed the main menu, and the first contentful paint (plain HTML);
- tap-to-highlight: a real mouse click on a unit until its reachable hexes are drawn, measured from the
  click event's timestamp; "cached" with the answers the page asked for ahead, "one round trip" with
  that cache emptied before every tap, so each tap waits for the worker;
- frame: a full redraw of the largest map zoomed all the way out, with the terrain layer cached
  (what every frame costs) and re-rendered (what a zoom step costs).
Targets (issue 5): menu ≤ 0.5 s, tap-to-highlight ≤ 50 ms p95, frame ≤ 8 ms. Prints figures only;
tests never assert wall-clock time.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from find_browser import find_browser  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def start_server():
    proc = subprocess.Popen([sys.executable, str(ROOT / "tools" / "serve.py"), "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    return proc, line.split(": ", 1)[1].strip()


def wait_ready(page):
    page.wait_for_function("() => window.kaltfront && (kaltfront.ready || kaltfront.error)", timeout=90_000)
    err = page.evaluate("() => kaltfront.error")
    if err:
        raise SystemExit(f"boot failed: {err}")
    return page.evaluate("""() => ({ready: kaltfront.timings.scriptStart + kaltfront.timings.engineReady,
        menu: kaltfront.timings.menuShown,
        fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null,
        worker: kaltfront.info && kaltfront.info.bootMs, path: kaltfront.info && kaltfront.info.boot})""")


# pwa/worker.js keeps the snapshot in IndexedDB "kaltfront-engine" / "snapshots" / "engine".
SNAPSHOT_JS = """async (op) => {
  const db = await new Promise((resolve, reject) => {
    const r = indexedDB.open("kaltfront-engine", 1);
    r.onupgradeneeded = () => r.result.createObjectStore("snapshots");
    r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error);
  });
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction("snapshots", op === "delete" ? "readwrite" : "readonly");
      const store = tx.objectStore("snapshots");
      const req = op === "delete" ? store.delete("engine") : store.get("engine");
      tx.oncomplete = () => resolve(op === "delete" ? null : (req.result && req.result.bytes ? req.result.bytes.length : 0));
      tx.onerror = () => reject(tx.error);
    });
  } finally { db.close(); }
}"""


def wait_snapshot(page, timeout_s=60.0):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        size = page.evaluate(SNAPSHOT_JS, "get")
        if size:
            return size
        page.wait_for_timeout(200)
    raise SystemExit("no memory snapshot was stored after the cold boot")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=60)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--boots", type=int, default=3)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    proc, url = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_browser(), args=ARGS)
            cold, warm, warm_worker, warm_normal, menus, fcps, sizes = [], [], [], [], [], [], []
            for _ in range(a.boots):
                ctx = browser.new_context(viewport={"width": 1280, "height": 800})
                page = ctx.new_page()
                page.goto(url)
                t = wait_ready(page)
                cold.append(t["ready"]); menus.append(t["menu"]); fcps.append(t["fcp"] or 0)
                sizes.append(wait_snapshot(page))
                page.reload()
                t = wait_ready(page)
                if t["path"] != "snapshot":
                    print(f"warning: the warm boot did not restore the snapshot ({t['path']})")
                warm.append(t["ready"]); warm_worker.append(t["worker"])
                page.evaluate(SNAPSHOT_JS, "delete")
                page.reload()
                t = wait_ready(page)
                warm_normal.append(t["ready"])
                ctx.close()

            def runs(xs):
                return f"median {statistics.median(xs)/1000:.2f} s (runs: {', '.join(f'{x/1000:.2f}' for x in xs)})"

            print(f"boot until the engine answers, cold: {runs(cold)}")
            print(f"boot until the engine answers, warm from the memory snapshot "
                  f"({statistics.median(sizes)/1e6:.1f} MB): {runs(warm)}; "
                  f"inside the worker {runs(warm_worker)}")
            print(f"boot until the engine answers, warm without a snapshot (normal boot): {runs(warm_normal)}")
            print(f"main menu visible: median {statistics.median(menus):.0f} ms after navigation start "
                  f"(first contentful paint {statistics.median(fcps):.0f} ms)")

            ctx = browser.new_context(viewport={"width": 1280, "height": 800})
            page = ctx.new_page()
            page.goto(url)
            wait_ready(page)
            scen = page.evaluate("() => kaltfront.state.scenarios")
            big = max(scen, key=lambda s: s["width"] * s["height"])
            # Not awaited: startGame resolves only after the hot-seat "Weiter" below.
            page.evaluate("(id) => { kaltfront.skipIntro = true; kaltfront.startGame({scenario: id, fog: true, seed: 1,"
                          " players: {nordbund: 'human', liga: 'human'}}); }", big["id"])
            page.wait_for_selector("#handoff:not([hidden])")
            page.click("#handoff-continue")
            page.wait_for_function("() => kaltfront.myTurn() && !kaltfront.state.busy")
            units = page.evaluate("() => kaltfront.state.obs.units.filter(u => kaltfront.state.readySet.has(u.id)).map(u => u.at)")

            def taps(clear):
                page.evaluate("() => { kaltfront.state.tapLatencies.length = 0; }")
                for i in range(a.taps):
                    at = units[i % len(units)]
                    page.evaluate("([c, r]) => { const cam = kaltfront.camera; const p = cam.hexToScreen(c, r);"
                                  " cam.panBy(cam.viewW/2 - p.x, cam.viewH/2 - p.y); }", at)
                    if clear:
                        page.evaluate("() => kaltfront.state.answers.clear()")
                    page.evaluate("() => { kaltfront.state.selection = null; }")
                    xy = page.evaluate("([c, r]) => kaltfront.hexToScreen(c, r)", at)
                    n = page.evaluate("() => kaltfront.state.tapLatencies.length")
                    page.mouse.click(xy["x"], xy["y"])
                    page.wait_for_function("(n) => kaltfront.state.tapLatencies.length > n", arg=n)
                return page.evaluate("() => kaltfront.state.tapLatencies.slice()")

            for label, clear in (("cached", False), ("one round trip", True)):
                lat = taps(clear)
                print(f"tap-to-highlight ({label}, {big['name']}, {len(lat)} taps): median {statistics.median(lat):.1f} ms, "
                      f"p95 {pct(lat, 95):.1f} ms, max {max(lat):.1f} ms")

            page.evaluate("() => { const c = kaltfront.camera; c.set(0, 0, 0.01); kaltfront.state.selection = null; }")
            warm_f = page.evaluate("(n) => kaltfront.benchRedraw(n, false)", a.frames)
            cold_f = page.evaluate("(n) => kaltfront.benchRedraw(n, true)", max(5, a.frames // 4))
            scale = page.evaluate("() => kaltfront.camera.scale")
            print(f"full redraw, {big['name']} {big['width']}x{big['height']} zoomed out (scale {scale:.2f}): "
                  f"median {statistics.median(warm_f[1:]):.2f} ms, p95 {pct(warm_f[1:], 95):.2f} ms; "
                  f"with the terrain layer re-rendered: median {statistics.median(cold_f):.2f} ms")
            browser.close()
    finally:
        proc.terminate()
        proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
