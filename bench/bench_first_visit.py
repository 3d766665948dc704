"""First visit on a slow link (issue 11.5): time from the page's first byte to a usable menu, with the
network throttled to 9 Mbit/s through the DevTools protocol (Network.emulateNetworkConditions).

    .venv/bin/python bench/bench_first_visit.py [--mbit 9] [--latency 40] [--runs 1]

Each run is a fresh browser context (empty HTTP cache, no service worker, no stored snapshot). Figures:
- first byte: responseStart of index.html (navigation timing), the zero point;
- progress shown: when the download bar first shows megabytes (#boot-bytes "… von … MB");
- usable menu: when "Spiel starten" is enabled (the engine answered and the scenarios are listed);
- the runtime's size as the bar counts it (vendor/build-info.json, fetch_bytes).
Prints figures only; tests never assert wall-clock time.
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

# Polls in the page from its first script on; times are performance.now() (0 = navigation start).
PROBE = """(() => { window.__firstVisit = {}; const t = setInterval(() => {
  const f = window.__firstVisit, q = (id) => document.getElementById(id);
  if (!q('menu-start')) return;
  if (f.progress === undefined && /von .* MB/.test((q('boot-bytes') || {}).textContent || '')) f.progress = performance.now();
  if (!q('menu-start').disabled) { f.usable = performance.now(); clearInterval(t); }
}, 20); })()"""


def start_server():
    proc = subprocess.Popen([sys.executable, str(ROOT / "tools" / "serve.py"), "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    return proc, proc.stdout.readline().split(": ", 1)[1].strip()


def one_run(browser, url, mbit, latency):
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True, has_touch=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency,
                                                  "downloadThroughput": mbit * 1e6 / 8,
                                                  "uploadThroughput": mbit * 1e6 / 8})
    page.add_init_script(PROBE)
    page.goto(url)
    page.wait_for_function("() => window.__firstVisit && window.__firstVisit.usable", timeout=300_000)
    r = page.evaluate("""() => ({nav: performance.getEntriesByType('navigation')[0].responseStart,
        progress: window.__firstVisit.progress, usable: window.__firstVisit.usable,
})""")
    context.close()
    first = r["nav"]
    return {"progress": (r["progress"] - first) / 1000 if r["progress"] else None,
            "usable": (r["usable"] - first) / 1000}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mbit", type=float, default=9.0)
    ap.add_argument("--latency", type=float, default=40.0, help="round-trip latency in ms")
    ap.add_argument("--runs", type=int, default=1)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    import json

    total = json.loads((ROOT / "vendor" / "build-info.json").read_text(encoding="utf-8")).get("fetch_bytes", 0)
    proc, url = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_browser(), args=ARGS)
            for i in range(a.runs):
                r = one_run(browser, url, a.mbit, a.latency)
                prog = f"{r['progress']:.2f} s" if r["progress"] is not None else "never"
                print(f"first visit at {a.mbit:g} Mbit/s, {a.latency:g} ms RTT (run {i + 1}): "
                      f"progress bar with MB after {prog}, usable menu after {r['usable']:.1f} s "
                      f"(from the first byte of index.html); runtime {total / 1e6:.1f} MB")
            browser.close()
    finally:
        proc.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
