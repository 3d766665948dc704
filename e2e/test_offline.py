"""Offline-first and installable (issue 6; P1, P3, R63): the service worker precaches everything, the
app boots and plays a Blitz game with the network off, an autosave survives closing the browser, an
update waits for the player, and Chromium's own install check finds nothing to complain about.
"""

from __future__ import annotations

import functools
import json
import threading
import time
import urllib.parse

import pytest

from offline_helpers import (
    ROOT, boot, end_phase, fast, launch_profile, move_one_unit, obs, play_a_turn, precache,
    start_blitz_from_menu, wait_game, wait_my_turn, wait_offline_ready,
)
import serve  # noqa: E402  tools/serve.py; offline_helpers (and conftest) put tools/ on the path

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("fresh_precache")]


def same_origin(url: str, base_url: str) -> bool:
    a, b = urllib.parse.urlsplit(url), urllib.parse.urlsplit(base_url)
    return (a.scheme, a.netloc) == (b.scheme, b.netloc)


def test_precache_list_holds_every_file_the_app_fetches(page, base_url, wait_for_engine, record_property):
    """P3: every same-origin file a boot and a game fetch is in the build's precache list, with its hash."""
    fast(page)
    urls: list[str] = []
    page.context.on("request", lambda r: urls.append(r.url))
    boot(page, base_url, wait_for_engine)
    wait_offline_ready(page)
    start_blitz_from_menu(page)
    wait_my_turn(page, "move")
    page.click("#btn-menu")
    page.click("#menu-help")  # the help page is drawn from the game data: nothing extra to fetch

    listed = {entry["url"] for entry in precache()["files"]}
    fetched = set()
    for url in urls:
        assert same_origin(url, base_url) or url.startswith(("data:", "blob:")), f"left the origin: {url}"
        path = urllib.parse.urlsplit(url).path.lstrip("/")
        if path in ("", "service-worker.js", "vendor/sw-manifest.js") or url.startswith(("data:", "blob:")):
            continue
        fetched.add(path)
    assert fetched - listed == set(), f"fetched but not precached: {sorted(fetched - listed)}"
    build = json.loads((ROOT / "vendor" / "build-info.json").read_text(encoding="utf-8"))
    for must in ("index.html", "manifest.json", "pwa/worker.js", f"vendor/{build['runtime_dir']}pyodide.asm.wasm",
                 f"vendor/{build['stdlib']}", "vendor/pyodide-lock.json", "icons/icon-512.png"):
        assert must in listed
    assert any(u.startswith("vendor/kaltfront-") and u.endswith(".whl") for u in listed)

    info = page.evaluate("() => import('./pwa/sw-register.js').then(m => m.cacheInfo())")
    assert info["version"] == precache()["version"]
    cached = page.evaluate("(name) => caches.open(name).then(c => c.keys()).then(ks => ks.map(k => k.url))", info["cache"])
    assert {urllib.parse.urlsplit(u).path.lstrip("/") for u in cached} == listed
    record_property("precache_files", len(listed))
    record_property("precache_bytes", precache()["bytes"])


def test_offline_reload_boots_and_plays_blitz(page, base_url, wait_for_engine, record_property):
    """P1: load once, network off, reload: the app boots from the cache and a Blitz game is played."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    wait_offline_ready(page)
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.context.set_offline(True)
    try:
        started = time.perf_counter()
        page.reload()
        wait_for_engine(page)
        boot_s = time.perf_counter() - started
        assert page.evaluate("() => navigator.onLine") is False
        start_blitz_from_menu(page, strength="leicht", fog=True)
        assert obs(page)["blitz"] is True
        play_a_turn(page)  # our move phase, the computer's whole turn, back to us
        o = obs(page)
        assert o["round"] == 2 and o["phase"] == "attack" and o["side"] == "nordbund"
        end_phase(page)
        wait_my_turn(page, "move")
        assert failed == [], f"requests failed offline: {failed}"
    finally:
        page.context.set_offline(False)
    record_property("offline_boot_s", round(boot_s, 2))


def test_autosave_resumes_offline_after_closing_the_browser(browser_type, browser_type_launch_args, base_url, tmp_path, wait_for_engine):
    """P1, R63: play online, close the browser; reopen the same profile with no network and continue."""
    profile = tmp_path / "profile"
    context = launch_profile(browser_type, profile, browser_type_launch_args)
    fast(context)
    page = context.pages[0] if context.pages else context.new_page()
    boot(page, base_url, wait_for_engine)
    wait_offline_ready(page)
    start_blitz_from_menu(page, strength="leicht", fog=False)
    play_a_turn(page)
    before = obs(page)
    assert json.loads(page.evaluate("() => localStorage.getItem('kaltfront.autosave')"))["kind"] == "kaltfront-slot"
    context.close()

    context = launch_profile(browser_type, profile, browser_type_launch_args, offline=True)
    try:
        fast(context)
        page = context.pages[0] if context.pages else context.new_page()
        boot(page, base_url, wait_for_engine)
        assert page.evaluate("() => navigator.onLine") is False
        page.wait_for_selector("#menu-continue:not([hidden]):not([disabled])")
        page.click("#menu-continue")
        wait_my_turn(page, "attack")
        assert obs(page) == before
        end_phase(page)
        wait_my_turn(page, "move")
    finally:
        context.close()


class _SwitchableHandler(serve.Handler):
    """tools/serve.py's handler, but a path can be answered with other bytes: a "new deployment"."""

    def do_GET(self):
        body = self.server.overrides.get(self.path.split("?")[0])
        if body is None:
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


@pytest.fixture
def deploy_server():
    """A server of its own for the update test: the browser's update check of a service worker goes
    straight to the network (Playwright's routing does not see it), so the new version must really be
    served. Yields (url, overrides): put {"/vendor/sw-manifest.js": bytes} into overrides to deploy."""
    handler = functools.partial(_SwitchableHandler, directory=str(ROOT))
    httpd = serve.Server(("127.0.0.1", 0), handler)
    httpd.overrides = {}
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{httpd.server_address[1]}/", httpd.overrides
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_update_waits_for_the_player_and_keeps_the_game(page, deploy_server, wait_for_engine):
    """A changed file list installs a new cache beside the old one and waits; the running game goes on;
    "Neu laden" saves, switches, reloads and resumes the game; the old cache is deleted afterwards."""
    url, overrides = deploy_server
    fast(page)
    boot(page, url, wait_for_engine)
    wait_offline_ready(page)
    old = page.evaluate("() => import('./pwa/sw-register.js').then(m => m.cacheInfo())")
    start_blitz_from_menu(page, strength="leicht", fog=False)
    wait_my_turn(page, "move")
    move_one_unit(page)  # an action after the last phase change: the update must not lose it
    running = obs(page)

    # The next deployment: the same files under a new list hash (a real one changes some file too).
    text = (ROOT / "vendor" / "sw-manifest.js").read_text(encoding="utf-8")
    assert f'"version":"{old["version"]}"' in text
    overrides["/vendor/sw-manifest.js"] = text.replace(f'"version":"{old["version"]}"', '"version":"neueversion0001"').encode()
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_selector("#update-banner", timeout=60_000)
    assert "Neue Version bereit" in page.inner_text("#update-banner")
    assert sorted(page.evaluate("() => caches.keys()")) == sorted([old["cache"], "kaltfront-precache-neueversion0001"])

    # Nothing reloaded under the running game: it is still there and it is still the player's turn.
    page.evaluate("() => { window.__notReloaded = true; }")
    assert obs(page) == running and page.evaluate("() => kaltfront.myTurn()")
    assert page.evaluate("() => import('./pwa/sw-register.js').then(m => m.cacheInfo())")["version"] == old["version"]

    page.click("#update-banner button.primary")
    page.wait_for_function("() => !window.__notReloaded && window.kaltfront && window.kaltfront.ready", timeout=60_000)
    wait_game(page)
    wait_my_turn(page, "move")
    assert obs(page) == running, "the game after the update is the one that was running"
    assert page.evaluate("() => import('./pwa/sw-register.js').then(m => m.cacheInfo())")["version"] == "neueversion0001"
    assert page.evaluate("() => caches.keys()") == ["kaltfront-precache-neueversion0001"]


def test_manifest_and_chromium_installability(browser_type, browser_type_launch_args, base_url, tmp_path, wait_for_engine):
    """P1: Chromium's own check (DevTools Page.getInstallabilityErrors) reports nothing. A persistent
    profile, because Chromium never offers installation in an incognito context (Playwright's default)."""
    context = launch_profile(browser_type, tmp_path / "profile", browser_type_launch_args)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        check_installable(page, base_url, wait_for_engine)
    finally:
        context.close()


def check_installable(page, base_url, wait_for_engine):
    boot(page, base_url, wait_for_engine)
    wait_offline_ready(page)
    manifest = page.evaluate("() => fetch('manifest.json').then(r => r.json())")
    assert manifest["display"] == "standalone"
    assert manifest["name"] == "Kaltfront" and manifest["short_name"] == "Kaltfront"
    assert manifest["theme_color"] == "#13263d"
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        dims = page.evaluate(
            "(src) => new Promise((ok, no) => { const i = new Image(); i.onload = () => ok([i.naturalWidth, i.naturalHeight]);"
            " i.onerror = no; i.src = src; })", icon["src"])
        assert f"{dims[0]}x{dims[1]}" == icon["sizes"]
    cdp = page.context.new_cdp_session(page)
    result = cdp.send("Page.getInstallabilityErrors")
    assert result["installabilityErrors"] == [], result
    app_manifest = cdp.send("Page.getAppManifest")
    assert not app_manifest.get("errors"), app_manifest["errors"]
