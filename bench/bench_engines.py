"""Boot figures per browser engine (issue 17), side by side: Chromium, WebKitGTK (desktop and iPhone
user agent) and Firefox ESR.

    .venv/bin/python bench/bench_engines.py [--runs 1] [--engines chromium,webkit,iphone,firefox]

For each engine and run, a fresh profile (empty storage) against its own tools/serve.py:
- cold: first visit, until the engine answers (`kaltfront.ready`); the worker then stores its memory
  snapshot and the service worker precaches the app;
- snapshot: a reload, restored from that snapshot where the engine could store one;
- offline: the server switched off, a reload: every file from the service worker's cache.
Each cell is the wall time from navigation to `kaltfront.ready` ("s"), and the worker's own bootMs and
boot path in brackets. The drivers are the smoke tests' own (e2e/engines/engine_drivers.py): WebKit
through Selenium + WebKitWebDriver + MiniBrowser on Xvfb, Firefox through puppeteer-core (BiDi),
Chromium through Playwright. Prints figures only; tests never assert wall-clock time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "e2e" / "engines"), str(ROOT / "e2e"), str(ROOT / "tools")]
import build_sw  # noqa: E402
from engine_drivers import (  # noqa: E402
    DESKTOP_WINDOW, IPHONE_UA, IPHONE_WINDOW, AppServer, Browser, FirefoxBrowser, VirtualDisplay, WebKitBrowser,
)
from engine_smoke import capabilities, cold_boot, reload_boot, wait_offline_ready, wait_snapshot_stored  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class ChromiumBrowser(Browser):
    """Playwright's Chromium (the system one), behind the same small interface as the other engines."""

    name = "Chromium"

    def __init__(self, playwright):
        from find_browser import find_browser

        self._browser = playwright.chromium.launch(executable_path=find_browser(), args=CHROMIUM_ARGS)
        self.version = self._browser.version
        self._context = self._browser.new_context(viewport={"width": DESKTOP_WINDOW[0], "height": DESKTOP_WINDOW[1]})
        self.page = self._context.new_page()

    def goto(self, url):
        self.page.goto(url)

    def reload(self):
        self.page.reload()

    def eval(self, expr):
        from engine_drivers import DriverError
        from playwright.sync_api import Error

        try:
            return self.page.evaluate(f"async () => ({expr})")
        except Error as e:  # e.g. "Execution context was destroyed" while a reload navigates
            raise DriverError(str(e).splitlines()[0]) from e

    def close(self):
        self._browser.close()


def one_run(make_browser, tmp: Path) -> dict:
    build_sw.main()
    server = AppServer(tmp / "serve.log")
    browser = make_browser()
    try:
        figures = {"engine": f"{browser.name} {browser.version}"}
        figures["cold"] = cold_boot(browser, server.url)
        wait_offline_ready(browser)
        if capabilities(browser)["indexedDB"]:
            wait_snapshot_stored(browser)
        figures["snapshot"] = reload_boot(browser)
        server.stop()
        figures["offline"] = reload_boot(browser)
        return figures
    finally:
        browser.close()
        server.stop()


def cell(samples: list[dict]) -> str:
    wall = statistics.median(s["wall_s"] for s in samples)
    worker = statistics.median(s["boot_ms"] for s in samples) / 1000
    paths = "/".join(sorted({s["boot"] for s in samples}))
    return f"{wall:5.1f} s ({worker:.1f} s {paths})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--engines", default="chromium,webkit,iphone,firefox")
    args = parser.parse_args()
    wanted = args.engines.split(",")

    results: dict[str, list[dict]] = {}
    tmp = Path(tempfile.mkdtemp(prefix="bench-engines-"))
    display = VirtualDisplay() if {"webkit", "iphone"} & set(wanted) else None
    playwright = None
    try:
        makers = {}
        if "chromium" in wanted:
            from playwright.sync_api import sync_playwright

            playwright = sync_playwright().start()
            makers["chromium"] = lambda: ChromiumBrowser(playwright)
        makers["webkit"] = lambda: WebKitBrowser(display, window=DESKTOP_WINDOW)
        makers["iphone"] = lambda: WebKitBrowser(display, user_agent=IPHONE_UA, window=IPHONE_WINDOW)
        makers["firefox"] = lambda: FirefoxBrowser(window=DESKTOP_WINDOW)
        for key in wanted:
            for _ in range(args.runs):
                results.setdefault(key, []).append(one_run(makers[key], tmp))
    finally:
        if playwright:
            playwright.stop()
        if display:
            display.close()

    print(f"boot to kaltfront.ready, median of {args.runs} run(s); wall time (worker bootMs, boot path)")
    print(f"{'engine':<32} {'cold':<26} {'snapshot':<26} {'offline':<26}")
    for key, runs in results.items():
        name = runs[0]["engine"]
        print(f"{name:<32} " + " ".join(f"{cell([r[step] for r in runs]):<26}" for step in ("cold", "snapshot", "offline")))


if __name__ == "__main__":
    main()
