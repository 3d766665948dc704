"""Phone figures for issue 11: frame time while the computer moves, and tap-to-highlight, on a 412×915
touch phone viewport (device scale 2.6, as a Pixel 7).

    .venv/bin/python bench/bench_phone.py [--taps 40]

Serves the repository with tools/serve.py on a free port and drives the system Chromium headless:
- frame time: a Blitz game as the Baltische Liga against "Normal", the computer's first turn played at
  its normal, animated pace; every requestAnimationFrame interval during that turn (what the player
  sees) and the shell's own draw time per frame (`kaltfront.lastFrameMs`);
- tap-to-highlight: real touch taps on own units in the move phase, from the tap event's timestamp
  until the reachable hexes are drawn (`kaltfront.state.tapLatencies`, the same figure as
  bench/bench_browser.py takes with a mouse on the desktop).
Prints p50, p95 and the worst value. Figures only: tests never assert wall-clock time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from find_browser import find_browser  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2.6, "is_mobile": True, "has_touch": True}

# Every animation frame while the computer's turn runs (recording starts before the game does).
RECORD = """() => { const out = {frames: [], draws: []}; window.__bench = out; let last = null;
  const step = (t) => { const ai = kaltfront.state.aiRunning;
    if (last !== null && ai) { out.frames.push(t - last); out.draws.push(kaltfront.lastFrameMs()); }
    last = ai ? t : null; if (!out.stop) requestAnimationFrame(step); };
  requestAnimationFrame(step); }"""


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def line(name, xs):
    return f"{name}: n={len(xs)}, p50 {pct(xs, 50):.1f} ms, p95 {pct(xs, 95):.1f} ms, worst {max(xs):.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=40)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    proc = subprocess.Popen([sys.executable, str(ROOT / "tools" / "serve.py"), "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    url = proc.stdout.readline().split(": ", 1)[1].strip()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_browser(), args=ARGS)
            page = browser.new_context(**PHONE).new_page()
            page.goto(url)
            page.wait_for_function("() => window.kaltfront && (kaltfront.ready || kaltfront.error)", timeout=120_000)
            page.evaluate("() => { kaltfront.skipIntro = true; kaltfront.setAiDelay(1); }")
            scen = next(s["id"] for s in page.evaluate("() => kaltfront.state.scenarios") if s["blitz"])
            page.evaluate(RECORD)
            page.evaluate("(id) => { kaltfront.startGame({scenario: id, fog: true, seed: 11, players: {nordbund: 'normal', liga: 'human'}}); }", scen)
            page.wait_for_function("() => kaltfront.state.aiRunning", timeout=60_000)
            page.wait_for_function("() => kaltfront.myTurn() && !kaltfront.state.busy", timeout=300_000)
            rec = page.evaluate("() => { window.__bench.stop = true; return window.__bench; }")
            print(f"phone 412×915, {scen}, the computer (Normal) moving with its animation:")
            print("  " + line("frame interval (requestAnimationFrame)", rec["frames"]))
            print("  " + line("draw time per frame (kaltfront.lastFrameMs)", rec["draws"]))

            page.evaluate("() => { kaltfront.endPhase({confirmed: true}); }")
            page.wait_for_function("() => kaltfront.myTurn() && kaltfront.state.obs.phase === 'move' && !kaltfront.state.busy")
            ids = page.evaluate("() => kaltfront.state.canAct.move")
            page.evaluate("() => { kaltfront.state.tapLatencies.length = 0; }")
            missed = covered = 0
            for i in range(a.taps):
                uid = ids[i % len(ids)]
                at = page.evaluate("(id) => kaltfront.state.obs.units.find(u => u.id === id).at", uid)
                page.evaluate("([c, r]) => { const k = kaltfront.camera; const p = k.hexToScreen(c, r); k.panBy(k.viewW / 2 - p.x, k.viewH / 2 - p.y); }", at)
                if page.evaluate("() => !!kaltfront.state.selection"):
                    page.keyboard.press("Escape")
                xy = page.evaluate("([c, r]) => kaltfront.hexToScreen(c, r)", at)
                # A unit at the map's edge cannot be panned to the middle (the camera stops at the edge),
                # and may lie under the minimap or a button: a player cannot tap it there either.
                on_map = page.evaluate("(p) => { const e = document.elementFromPoint(p.x, p.y); return !!e && e.id === 'map'; }", xy)
                if not on_map:
                    covered += 1
                    continue
                n = page.evaluate("() => kaltfront.state.tapLatencies.length")
                page.touchscreen.tap(xy["x"], xy["y"])
                try:
                    page.wait_for_function("(n) => kaltfront.state.tapLatencies.length > n", arg=n, timeout=5_000)
                except Exception:
                    missed += 1  # the tap selected something else (a building under the unit's hex): no figure
            taps = page.evaluate("() => kaltfront.state.tapLatencies")
            if covered:
                print(f"  ({covered} of {a.taps} units lay under a control at the map's edge and were not tapped)")
            if missed:
                print(f"  ({missed} of {a.taps} taps gave no highlight and are not counted)")
            print("  " + line("tap-to-highlight (touch tap on a unit until its reachable hexes are drawn)", taps))
            browser.close()
    finally:
        proc.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
