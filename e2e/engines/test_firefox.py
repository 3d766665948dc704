"""Issue 17: the smoke scenario (e2e/engines/engine_smoke.py) in Firefox ESR, headless, driven by npm
puppeteer-core over WebDriver BiDi (e2e/engines/firefox_driver.mjs; Debian has no geckodriver for
Selenium). Cold boot, Blitz game, a unit moved by clicking hexes, the computer's turn, a warm reload from
the memory snapshot, the server switched off and an offline reload that resumes the same game and plays
on; no console error in the page or its workers (Firefox reports worker console messages over BiDi).

A missing firefox-esr, node or puppeteer-core fails the test (`make engines` installs them).
"""

from __future__ import annotations

import pytest

import build_sw  # tools/, on the path through e2e/conftest.py
from engine_drivers import DESKTOP_WINDOW, AppServer, EngineMissing, FirefoxBrowser
from engine_smoke import run_smoke

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path):
    build_sw.main()  # the precache list must match the files as they are (the worker checks hashes)
    app = AppServer(tmp_path / "serve.log")
    yield app
    app.stop()


def test_firefox_boots_plays_reloads_and_resumes_offline(server, tmp_path, record_property):
    """Issue 17 in Firefox ESR at 1280×800."""
    try:
        browser = FirefoxBrowser(window=DESKTOP_WINDOW, log_path=tmp_path / "firefox_driver.log")
    except EngineMissing as e:
        pytest.fail(str(e))
    try:
        figures = run_smoke(browser, server)
    finally:
        browser.close()
    record_property("engine", f"Firefox {browser.version}")
    for step in ("cold", "snapshot", "offline"):
        record_property(f"{step}_boot_s", figures[step]["wall_s"])
    print(figures["steps"]); print(f"Firefox {browser.version}: " + ", ".join(f"{k} {figures[k]['wall_s']} s ({figures[k]['boot']})"
                                                     for k in ("cold", "snapshot", "offline")))
