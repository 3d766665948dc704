"""Issue 17: the smoke scenario (e2e/engines/engine_smoke.py) in WebKitGTK, the engine of every iPhone
browser: once with WebKitGTK's desktop user agent and once with an iPhone user agent in a phone-sized
window (Pyodide picks its iOS code path by user agent). Each run: cold boot, Blitz game, a unit moved
by clicking hexes, the computer's turn, a warm reload from the memory snapshot, the server switched off
and an offline reload that resumes the same game and plays on, no console error. The iPhone run also
damages the stored snapshot and checks the fallback boot (worker.js) offline in WebKit.

A missing WebKitGTK, WebKitWebDriver or Xvfb fails the tests (`make engines` installs them).
"""

from __future__ import annotations

import pytest

import build_sw  # tools/, on the path through e2e/conftest.py
from engine_drivers import IPHONE_UA, IPHONE_WINDOW, DESKTOP_WINDOW, AppServer, EngineMissing, VirtualDisplay, WebKitBrowser
from engine_smoke import run_smoke

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def display():
    build_sw.main()  # the precache list must match the files as they are (the worker checks hashes)
    try:
        screen = VirtualDisplay()
    except EngineMissing as e:
        pytest.fail(str(e))
    yield screen
    screen.close()


@pytest.fixture
def server(tmp_path):
    app = AppServer(tmp_path / "serve.log")
    yield app
    app.stop()


def webkit(display, tmp_path, **kwargs) -> WebKitBrowser:
    try:
        return WebKitBrowser(display, log_path=tmp_path / "webkitdriver.log", **kwargs)
    except EngineMissing as e:
        pytest.fail(str(e))


def report(record_property, browser, figures):
    record_property("engine", f"{browser.name} {browser.version}")
    for step in ("cold", "snapshot", "offline", "fallback"):
        if step in figures:
            record_property(f"{step}_boot_s", figures[step]["wall_s"])
    print(figures["steps"])
    print(f"{browser.name} {browser.version}: " + ", ".join(
        f"{k} {v['wall_s']} s ({v['boot']})" for k, v in figures.items() if isinstance(v, dict) and "wall_s" in v))


def test_webkit_desktop_boots_plays_reloads_and_resumes_offline(display, server, tmp_path, record_property):
    """Issue 17 in WebKitGTK with its own (desktop) user agent at 1280×800."""
    browser = webkit(display, tmp_path, window=DESKTOP_WINDOW)
    try:
        figures = run_smoke(browser, server)
        assert "iPhone" not in figures["capabilities"]["userAgent"]
    finally:
        browser.close()
    report(record_property, browser, figures)


def test_webkit_iphone_boots_plays_resumes_offline_and_falls_back(display, server, tmp_path, record_property):
    """Issue 17 in WebKitGTK as an iPhone (user agent, 390×844 window): Pyodide's iOS path, and the
    snapshot fallback: a damaged snapshot gives a normal boot offline, and the game resumes."""
    browser = webkit(display, tmp_path, user_agent=IPHONE_UA, window=IPHONE_WINDOW)
    try:
        figures = run_smoke(browser, server, damage_snapshot=True)
        caps = figures["capabilities"]
        assert "iPhone" in caps["userAgent"]
        assert caps["width"] <= 480, f"not a phone-sized window: {caps['width']}×{caps['height']}"
    finally:
        browser.close()
    report(record_property, browser, figures)
