"""Fire zones in the browser (issue 13.2): prints figures, asserts nothing.

    .venv/bin/python bench/bench_fire_zones_browser.py [--repeat 10]

Serves the repository (tools/serve.py), boots the page in the system Chromium headless, loads the
largest shipped map with 60 visible enemy units (bench/bench_fire_zones.py's position) and measures:
- the `fire_zones` op through the worker (Pyodide), the first computation of a turn, as a round trip;
- the "Feuerzonen" toggle once that answer is cached: from the click to the end of the next frame.
Target (issue 13): the toggle answers within one frame after the first computation of a turn.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from bench_browser import ARGS, start_server, wait_ready  # noqa: E402
from bench_fire_zones import crowded, largest_scenario  # noqa: E402
from find_browser import find_browser  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright
    game = crowded(largest_scenario())
    save, me = game.to_json(), game.side
    foe = "liga" if me == "nordbund" else "nordbund"
    proc, url = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_browser(), args=ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(url)
            wait_ready(page)
            page.evaluate("() => { kaltfront.skipIntro = true; kaltfront.setAiDelay(0); }")
            page.evaluate("([s, me, foe]) => kaltfront.resumeGame({save: s, meta: {players: {[me]: 'human', [foe]: 'leicht'}}})",
                          [save, me, foe])
            page.wait_for_function("() => kaltfront.myTurn()", timeout=120_000)
            n = page.evaluate("(foe) => kaltfront.state.obs.units.filter((u) => u.side === foe).length", foe)
            trips = page.evaluate("""async (k) => { const out = [];
                for (let i = 0; i < k; i++) { const t = performance.now(); await kaltfront.call('fire_zones', {}); out.push(performance.now() - t); }
                return out; }""", a.repeat)
            size = len(json.dumps(page.evaluate("() => kaltfront.call('fire_zones', {})")))
            page.click("#btn-fire-zones")
            page.wait_for_function("() => kaltfront.aids.zones !== null")
            toggles, draws = [], []
            for _ in range(a.repeat):
                page.click("#btn-fire-zones")  # off
                ms = page.evaluate("""() => new Promise((resolve) => {
                    const t = performance.now(); document.getElementById('btn-fire-zones').click();
                    // app.js queued its frame in the click; this callback runs right after it in the same frame
                    requestAnimationFrame(() => resolve([performance.now() - t, kaltfront.lastFrameMs()])); })""")
                toggles.append(ms[0])
                draws.append(ms[1])
            browser.close()
    finally:
        proc.terminate()
    print(f"{largest_scenario()}, {n} visible enemy units, reply {size / 1024:.1f} KiB")
    print(f"fire_zones through the worker (first computation): median {statistics.median(trips):7.1f} ms   "
          f"max {max(trips):7.1f} ms")
    print(f"toggle with the answer cached, click to painted frame: median {statistics.median(toggles):6.1f} ms   "
          f"max {max(toggles):6.1f} ms   (target: the next frame; includes waiting for it)")
    print(f"drawing that frame with the zones: median {statistics.median(draws):6.1f} ms   max {max(draws):6.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
