"""The engine boots in the browser from the app's own origin and answers (P1, P2, P3, D11).

Runs against e2e/pages/boot.html, a test page with no UI that starts the real worker (pwa/worker.js)
through the real page client (pwa/engine.js), so a failure here is a boot problem, not a UI one.
Also checks the failure paths a player could meet: a missing runtime file and a boot that hangs.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOT_PAGE = "e2e/pages/boot.html"
# What `make site` built (the runtime folder's name carries a hash of its files, issue 14).
_INFO = ROOT / "vendor" / "build-info.json"
BUILD = json.loads(_INFO.read_text(encoding="utf-8")) if _INFO.exists() else {}


def same_origin(url: str, base_url: str) -> bool:
    a, b = urllib.parse.urlsplit(url), urllib.parse.urlsplit(base_url)
    return (a.scheme, a.netloc) == (b.scheme, b.netloc)


def failed_boot(page, url: str, timeout_ms: int) -> dict:
    """Open `url` (the boot page) and wait until its boot fails; the page's error, {kind, message}."""
    page.goto(url)
    page.wait_for_function("() => window.kaltfront && window.kaltfront.error", timeout=timeout_ms)
    return page.evaluate("() => window.kaltfront.error")


def test_engine_boots_offline_capable_from_own_origin(page, base_url, wait_for_engine, record_property):
    """P1/P3: every byte the engine needs comes from the app's origin; no CDN, nothing outside."""
    requests: list[str] = []
    wasm_types: list[str] = []
    # Context-level events also see what the module worker fetches (Pyodide, the stdlib, the wheel).
    page.context.on("request", lambda r: requests.append(r.url))
    page.context.on(
        "response",
        lambda r: wasm_types.append(r.headers.get("content-type", "")) if r.url.endswith(".wasm") else None,
    )

    page.goto(base_url + BOOT_PAGE)
    state = wait_for_engine(page)
    info = state["info"]

    assert info["version"]["engine"] == "kaltfront"
    assert info["version"]["version"] == "0.1.0"
    assert info["version"]["python"].startswith("3.14.")

    # The wheel that loaded is the one the build wrote down, and the lockfile pins its sha256.
    build = json.loads((ROOT / "vendor" / "build-info.json").read_text())
    lock = json.loads((ROOT / "vendor" / "pyodide-lock.json").read_text())
    assert info["build"]["wheel_sha256"] == build["wheel_sha256"] == lock["packages"]["kaltfront"]["sha256"]
    assert any(url.endswith("/vendor/" + build["wheel"]) for url in requests), requests

    outside = [url for url in requests if not same_origin(url, base_url) and not url.startswith(("data:", "blob:"))]
    assert outside == [], f"requests left the app's origin: {outside}"
    # Issue 14: the runtime from its hash-named folder, the cut standard library, not Pyodide's own.
    assert any(url.endswith(f"/vendor/{build['runtime_dir']}pyodide.asm.wasm") for url in requests), requests
    assert any(url.endswith(f"/vendor/{build['stdlib']}") for url in requests), requests
    assert not any(url.endswith("/python_stdlib.zip") for url in requests), requests
    assert wasm_types == ["application/wasm"]

    record_property("boot_ms", info["bootMs"])
    record_property("timings", info["timings"])
    record_property("requests", len(requests))


def test_call_returns_result_and_bridge_errors_reject(page, base_url, wait_for_engine):
    """call() resolves with the bridge's result; a bridge error rejects with its kind and German text."""
    page.goto(base_url + BOOT_PAGE)
    wait_for_engine(page)
    version = page.evaluate("() => window.kaltfront.call('version', {})")
    assert version["engine"] == "kaltfront"

    error = page.evaluate(
        """() => window.kaltfront.call('keine_solche_operation', {}).then(
               () => null, (e) => ({name: e.name, kind: e.kind, message: e.message}))"""
    )
    assert error is not None, "an unknown op must be rejected"
    assert error["name"] == "EngineError"
    assert error["kind"] == "bad_request"
    assert error["message"]


def test_missing_runtime_file_is_reported_in_german(page, base_url):
    """A broken deployment gives the player a clear German message instead of an endless spinner."""
    page.context.route("**/vendor/python_stdlib-*.zip", lambda route: route.fulfill(status=404, body="fehlt"))
    error = failed_boot(page, base_url + BOOT_PAGE, timeout_ms=60_000)
    assert error["kind"] == "boot"
    assert error["message"].startswith("Die Spiel-Engine konnte nicht gestartet werden: ")


def test_wheel_is_integrity_checked(page, base_url):
    """D11: the wheel is installed only if its sha256 matches the project lockfile."""

    def tampered_lockfile(route):
        lock = route.fetch().json()
        lock["packages"]["kaltfront"]["sha256"] = "0" * 64
        route.fulfill(json=lock)

    page.context.route("**/vendor/pyodide-lock.json", tampered_lockfile)
    error = failed_boot(page, base_url + BOOT_PAGE, timeout_ms=60_000)
    assert error["kind"] == "boot"
    assert "Das Paket kaltfront konnte nicht geladen werden" in error["message"]


def test_missing_worker_module_is_reported(page, base_url):
    """If the worker script itself cannot load, the page still learns about it (the error event)."""
    page.context.route("**/vendor/pyodide/pyodide.mjs", lambda route: route.fulfill(status=404, body="fehlt"))
    error = failed_boot(page, base_url + BOOT_PAGE, timeout_ms=30_000)
    assert error["kind"] == "boot"
    assert error["message"].startswith("Die Spiel-Engine konnte nicht gestartet werden")


def test_hanging_boot_times_out(page, base_url):
    """A .wasm with the wrong MIME type makes loadPyodide hang forever; the boot deadline catches it."""

    def wrong_type(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-type": "text/plain"})

    page.context.route("**/vendor/runtime-*/pyodide.asm.wasm", wrong_type)
    error = failed_boot(page, base_url + BOOT_PAGE + "?timeout=4000", timeout_ms=30_000)
    assert error["kind"] == "boot"
    assert "keine Antwort nach 4 Sekunden" in error["message"]


AI_TURN = """async ([players]) => {
    const k = window.kaltfront;
    const scenarios = await k.call('scenarios', {});
    await k.call('new_game', {scenario: scenarios[0].id, seed: 7, fog: true, players});
    const progress = [];
    const result = await k.engine.call('ai_turn', {}, {onProgress: (p) => progress.push(p)});
    return {progress, result};
}"""


def test_ai_turn_without_a_computer_player_streams_nothing(page, base_url, wait_for_engine):
    """ai_turn when no side is the computer's: one reply, done at once, no progress messages."""
    page.goto(base_url + BOOT_PAGE)
    wait_for_engine(page)
    out = page.evaluate(AI_TURN, [{"nordbund": "human", "liga": "human"}])
    assert out["progress"] == []
    assert out["result"]["done"] is True
    assert out["result"]["steps"] == 0


def test_ai_turn_streams_each_computer_move(page, base_url, wait_for_engine):
    """R4/P2: the computer's turn runs in the worker and reaches the page move by move."""
    page.goto(base_url + BOOT_PAGE)
    wait_for_engine(page)
    out = page.evaluate(AI_TURN, [{"nordbund": "leicht", "liga": "human"}])
    progress, result = out["progress"], out["result"]
    assert len(progress) == result["steps"] >= 1
    assert all("action" in step and "events" in step for step in progress)
    assert [step["done"] for step in progress] == [False] * (len(progress) - 1) + [True]
    assert result["observation"]["side"] == "liga" or result["observation"]["outcome"] is not None


@pytest.mark.parametrize(
    ("path", "mime"),
    [
        (f"vendor/{BUILD.get('runtime_dir', 'runtime-missing/')}pyodide.asm.wasm", "application/wasm"),
        ("vendor/pyodide/pyodide.mjs", "text/javascript"),
        ("pwa/worker.js", "text/javascript"),
        ("vendor/pyodide-lock.json", "application/json"),
        ("e2e/pages/boot.html", "text/html"),
    ],
)
def test_server_sends_the_types_browsers_insist_on(base_url, path, mime):
    with urllib.request.urlopen(base_url + path, timeout=10) as response:
        assert response.headers.get_content_type() == mime
        assert response.headers["Cache-Control"] == "no-cache"


@pytest.mark.mobile
def test_engine_boots_on_a_touch_phone(phone_page, base_url, wait_for_engine):
    """P5: the phone fixtures give a 390 px touch viewport, and the engine boots there too."""
    phone_page.goto(base_url + BOOT_PAGE)
    wait_for_engine(phone_page)
    screen = phone_page.evaluate(
        "() => ({width: innerWidth, touch: navigator.maxTouchPoints, coarse: matchMedia('(pointer: coarse)').matches})"
    )
    assert screen["width"] == 390
    assert screen["touch"] > 0
    assert screen["coarse"]
