"""Shared fixtures for the browser tests: a local server for the repository, a system Chromium, and pages
on which the engine has booted.

- `base_url` (session): starts tools/serve.py on a free loopback port in a subprocess, serving the
  repository root (so the app is tested exactly as `make play` serves it) and stops it at the end.
  `pytest --base-url URL` tests a server you run yourself instead.
- `browser_type_launch_args` (session): pytest-playwright launches the Chromium that
  tools/find_browser.py finds (Debian's /usr/bin/chromium here), because `playwright install` cannot
  download its own build everywhere. No browser is a failure, not a skip: a green run must mean the
  browser tests ran. `make browser` installs one.
- `booted_page`: the app at base_url with the engine ready. Contract with the UI (index.html): the page
  sets `window.kaltfront = {ready: bool, call(op, args) -> Promise}`; `ready` turns true once the
  Pyodide worker answers, and `call` resolves with the bridge's result or rejects with an Error whose
  `.kind`/`.message` come from the bridge (pwa/engine.js). A page that failed to boot may also set
  `window.kaltfront.error = {kind, message}`, which is then reported at once instead of after 60 s.
- `phone_context`, `phone_page`, `booted_phone_page`: the same on a 390×844 touch phone viewport.
- `fresh_precache` (module): rewrites vendor/sw-manifest.js once per test file before its tests, for the
  files that boot the app with its service worker; they ask for it with
  `pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("fresh_precache")]`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from find_browser import find_browser  # noqa: E402
from serve_process import ServerError, end_process, start_server, wait_until_answering  # noqa: E402

# Cold boot is ~5 s on a 2-core machine (TECH_NOTES.md); 60 s leaves room for a loaded CI machine.
BOOT_TIMEOUT_MS = 60_000

CHROMIUM_ARGS = [
    "--no-sandbox",  # the tests run as root in a container, where the sandbox cannot start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # No background calls to Google's services: nothing may leave the machine, and the
    # same-origin check in test_boot.py must see only the app's own requests.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


def _start_server(log_path: Path) -> tuple[subprocess.Popen, str]:
    try:
        return start_server(log_path.open("w"), log_path)
    except ServerError as e:
        pytest.fail(str(e))


def _wait_until_answering(url: str) -> None:
    try:
        wait_until_answering(url)
    except ServerError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def base_url(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    given = pytestconfig.getoption("--base-url", default=None)
    if given:
        yield given.rstrip("/") + "/"
        return
    if not (ROOT / "vendor" / "build-info.json").exists():
        pytest.fail("vendor/ is missing: run `make site` (or `make test`, which builds it) first")
    proc, url = _start_server(tmp_path_factory.mktemp("server") / "serve.log")
    try:
        _wait_until_answering(url)
        yield url
    finally:
        end_process(proc)


@pytest.fixture(scope="session")
def browser_executable() -> str:
    path = find_browser()
    if path is None:
        pytest.fail(
            "No Chromium or Chrome found for the browser tests (looked for /usr/bin/chromium, "
            "/usr/bin/chromium-browser, /usr/bin/google-chrome and Playwright's cache). "
            "Run `make browser` to install one, or set KALTFRONT_BROWSER=/path/to/chrome."
        )
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict, browser_executable: str) -> dict:
    # Extends pytest-playwright's own fixture of the same name, so --headed and --slowmo still work.
    return {**browser_type_launch_args, "executable_path": browser_executable, "args": CHROMIUM_ARGS}


def _wait_for_engine(page, timeout_ms: int = BOOT_TIMEOUT_MS) -> dict:
    """Wait until the page's engine is ready; fail with the page's own error message if it failed."""
    try:
        page.wait_for_function(
            "() => window.kaltfront && (window.kaltfront.ready === true || !!window.kaltfront.error)",
            timeout=timeout_ms,
        )
    except Exception as e:  # Playwright's TimeoutError; its message is long and says little
        pytest.fail(f"the engine did not boot within {timeout_ms / 1000:.0f} s: {type(e).__name__}")
    state = page.evaluate(
        "() => ({ready: window.kaltfront.ready === true, error: window.kaltfront.error || null,"
        " info: window.kaltfront.info || null})"
    )
    if not state["ready"]:
        pytest.fail(f"the engine failed to boot: {state['error']}")
    return state


@pytest.fixture(scope="session")
def wait_for_engine():
    """`wait_for_engine(page, timeout_ms=60000) -> {ready, error, info}`; fails the test if no boot.

    A fixture rather than an import, because tests/ and e2e/ each may have a module named conftest.
    """
    return _wait_for_engine


@pytest.fixture
def booted_page(page, base_url: str):
    """The app's start page with the Pyodide engine booted (window.kaltfront.ready === true)."""
    page.goto(base_url)
    _wait_for_engine(page)
    return page


@pytest.fixture
def phone_context(new_context):
    """A browser context that looks like a phone: 390×844, touch, mobile user agent behaviour."""
    return new_context(**PHONE)


@pytest.fixture
def phone_page(phone_context):
    return phone_context.new_page()


@pytest.fixture
def booted_phone_page(phone_page, base_url: str):
    phone_page.goto(base_url)
    _wait_for_engine(phone_page)
    return phone_page


@pytest.fixture(scope="module")
def fresh_precache():
    """The service worker refuses to install when a file no longer matches its listed hash, and the shell
    may have been edited since `make site`: list the files as they are now (offline_helpers)."""
    from offline_helpers import rebuild_precache

    rebuild_precache()
