"""Drivers for the cross-engine smoke tests (issue 17) and bench/bench_engines.py: a server that can be
switched off (the "offline" of engines without Chromium's DevTools set_offline), a virtual X display, and
one small browser interface over two automation stacks:

- WebKitGTK (Debian webkit2gtk-driver 2.50): Selenium (PyPI) talks to /usr/bin/WebKitWebDriver, which
  starts MiniBrowser in automation mode. MiniBrowser has no headless mode, so it draws on an Xvfb display
  started here (not `xvfb-run`, so a plain `pytest` works). An iPhone user agent makes Pyodide take its
  iOS code path (it picks code by user agent).
- Firefox ESR (Debian firefox-esr): Debian has no geckodriver, and Selenium Manager cannot download one
  here, so Selenium cannot drive Firefox. npm puppeteer-core speaks WebDriver BiDi to Firefox itself;
  e2e/engines/firefox_driver.mjs runs it and answers JSON requests line by line on stdin/stdout.

Both offer `goto`, `reload`, `eval` (a JS expression, awaited), `wait_for`, `click_at` (a real pointer
click at viewport coordinates), `click_id` (a real click on an element), `errors()` (console errors) and
`close`. A missing engine raises EngineMissing with what to install: the tests turn it into a failure.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
import warnings
from pathlib import Path

import serve_process  # e2e/, on the path through e2e/conftest.py (bench_engines.py puts it there too)

ROOT = Path(__file__).resolve().parents[2]
WEBKIT_DRIVER = os.environ.get("KALTFRONT_WEBKITDRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER_CANDIDATES = [
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/libexec/webkit2gtk-4.1/MiniBrowser",
]
FIREFOX = os.environ.get("KALTFRONT_FIREFOX", "/usr/bin/firefox-esr")
FIREFOX_SCRIPT = Path(__file__).with_name("firefox_driver.mjs")

# iOS 18 Safari on an iPhone: Pyodide's iOS branch keys on "iPhone" / "iPad" in the user agent.
IPHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.5 Mobile/15E148 Safari/604.1"
)
IPHONE_WINDOW = (390, 844)  # iPhone 12–16 in CSS pixels
DESKTOP_WINDOW = (1280, 800)

# Cold boots take 5–20 s in WebKitGTK on a loaded 2-core machine; leave room.
BOOT_TIMEOUT_S = 120


class EngineMissing(RuntimeError):
    """The engine or its driver is not installed; the message says what `make engines` installs."""


class DriverError(RuntimeError):
    pass


# ---- the app server, which the tests switch off to go offline ---------------------------------------


class AppServer:
    """tools/serve.py on a free loopback port in a subprocess. `stop()` takes the origin off the network,
    which is what "offline" means to the page: every request that the service worker does not answer
    from its cache now fails (connection refused)."""

    def __init__(self, log_path: Path):
        self._log = open(log_path, "w")
        try:
            self.proc, url = serve_process.start_server(self._log, log_path)
        except serve_process.ServerError as e:
            self._log.close()
            raise DriverError(str(e)) from None
        # localhost, not 127.0.0.1: a secure context by name in every engine (service workers need one).
        self.url = url.replace("127.0.0.1", "localhost")
        try:
            serve_process.wait_until_answering(self.url)
        except serve_process.ServerError as e:
            self.stop()
            raise DriverError(str(e)) from None

    def answers(self) -> bool:
        return serve_process.answers(self.url)

    def stop(self) -> None:
        serve_process.end_process(self.proc)
        self._log.close()


# ---- a virtual display for MiniBrowser -----------------------------------------------------------------


class VirtualDisplay:
    """Xvfb on the first free display number (Xvfb picks it and reports it through -displayfd)."""

    def __init__(self, size: str = "1280x900x24"):
        if shutil.which("Xvfb") is None:
            raise EngineMissing("Xvfb fehlt: `make engines` (apt-get install -y xvfb) installiert es.")
        read_end, write_end = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", size, "-nolisten", "tcp"],
            pass_fds=[write_end], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(write_end)
        number = b""
        end = time.monotonic() + 20
        while not number.endswith(b"\n") and time.monotonic() < end:
            chunk = os.read(read_end, 16)
            if not chunk:
                break
            number += chunk
        os.close(read_end)
        if not number.strip():
            self.close()
            raise DriverError("Xvfb did not report a display number")
        self.display = ":" + number.decode().strip()

    def close(self) -> None:
        serve_process.end_process(self.proc)


# ---- the common browser interface ---------------------------------------------------------------------

# Selenium's execute_async_script: run an expression, await it, hand back {ok}|{err}.
_ASYNC_WRAPPER = """
const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (%s)).then(
  (v) => done({ok: v === undefined ? null : v}),
  (e) => done({err: String(e && e.stack ? e.stack : e)}));
"""


class Browser:
    name = "?"
    version = "?"

    def eval(self, expr: str):
        raise NotImplementedError

    def wait_for(self, expr: str, timeout_s: float = 60, what: str | None = None, poll_s: float = 0.1):
        """Poll until the JS expression is truthy; returns its value. Fails with `what` after timeout_s."""
        end = time.monotonic() + timeout_s
        last = None
        while True:
            try:
                last = self.eval(expr)
            except DriverError:
                last = None  # a page in the middle of navigating
            if last:
                return last
            if time.monotonic() > end:
                raise AssertionError(f"{self.name}: waited {timeout_s:.0f} s for {what or expr}")
            time.sleep(poll_s)


class WebKitBrowser(Browser):
    """MiniBrowser (WebKitGTK) through WebKitWebDriver and Selenium. Each session starts with empty
    storage, so the first load is a real cold boot."""

    def __init__(self, display: VirtualDisplay, *, user_agent: str | None = None,
                 window: tuple[int, int] = DESKTOP_WINDOW, log_path: Path | None = None):
        minibrowser = next((p for p in MINIBROWSER_CANDIDATES if os.access(p, os.X_OK)), None)
        if not os.access(WEBKIT_DRIVER, os.X_OK) or minibrowser is None:
            raise EngineMissing(
                f"WebKitGTK fehlt ({WEBKIT_DRIVER}, MiniBrowser): `make engines` "
                "(apt-get install -y webkit2gtk-driver xvfb) installiert es."
            )
        try:
            from selenium import webdriver
            from selenium.webdriver.webkitgtk.options import Options
            from selenium.webdriver.webkitgtk.service import Service
        except ImportError as e:
            raise EngineMissing(f"Selenium fehlt ({e}): `make venv` installiert die Test-Pakete.") from e
        options = Options()
        options.binary_location = minibrowser
        options.add_argument("--automation")
        if user_agent:
            options.add_argument(f"--user-agent={user_agent}")
        env = dict(os.environ, DISPLAY=display.display)
        self._log = open(log_path, "w") if log_path else subprocess.DEVNULL
        # executable_path given: Selenium Manager (which would try to download a driver) stays out.
        service = Service(executable_path=WEBKIT_DRIVER, env=env, log_output=self._log)
        with warnings.catch_warnings():
            # Selenium 4.51's own WebKitGTK class still uses a RemoteConnection argument it deprecates.
            warnings.simplefilter("ignore", DeprecationWarning)
            self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_script_timeout(BOOT_TIMEOUT_S)
        self.driver.set_page_load_timeout(BOOT_TIMEOUT_S)
        self.driver.set_window_size(*window)
        self.name = "WebKitGTK" + (" (iPhone)" if user_agent and "iPhone" in user_agent else "")
        self.version = self.driver.capabilities.get("browserVersion", "?")

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def eval(self, expr: str):
        from selenium.common.exceptions import WebDriverException

        try:
            answer = self.driver.execute_async_script(_ASYNC_WRAPPER % expr)
        except WebDriverException as e:
            raise DriverError(str(e).splitlines()[0] if str(e) else type(e).__name__) from e
        if answer is None:
            raise DriverError("no answer (page navigated?)")
        if "err" in answer:
            raise DriverError(answer["err"])
        return answer["ok"]

    def click_at(self, x: float, y: float) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        actions = ActionChains(self.driver)
        actions.w3c_actions.pointer_action.move_to_location(int(round(x)), int(round(y)))
        actions.w3c_actions.pointer_action.click()
        actions.perform()

    def click_id(self, element_id: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.ID, element_id).click()

    def errors(self) -> list[str]:
        """The page's error journal (pwa/error-journal.js): WebKitWebDriver cannot read the console."""
        return [f"{e['kind']}: {e['text']}" for e in self.eval("window.kaltfrontErrors ? window.kaltfrontErrors() : []")]

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            if self._log is not subprocess.DEVNULL:
                self._log.close()


class FirefoxBrowser(Browser):
    """Firefox ESR, headless, through puppeteer-core over WebDriver BiDi (firefox_driver.mjs). A fresh
    temporary profile per instance: the first load is a cold boot."""

    name = "Firefox"

    def __init__(self, *, window: tuple[int, int] = DESKTOP_WINDOW, log_path: Path | None = None):
        if not os.access(FIREFOX, os.X_OK):
            raise EngineMissing(f"Firefox fehlt ({FIREFOX}): `make engines` (apt-get install -y firefox-esr) installiert es.")
        node = shutil.which("node")
        if node is None or not (ROOT / "node_modules" / "puppeteer-core").is_dir():
            raise EngineMissing("node oder puppeteer-core fehlt: `make node_modules` (npm ci) installiert es.")
        self._log = open(log_path, "w") if log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [node, str(FIREFOX_SCRIPT), str(window[0]), str(window[1])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True, cwd=ROOT,
            env=dict(os.environ, KALTFRONT_FIREFOX=FIREFOX),
            # A group of its own: if node has to be killed, Firefox goes with it (no orphaned browser).
            start_new_session=True,
        )
        self._answers: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._next = 0
        first = self._answer(0, 60)
        if first.get("value") != "ready":
            raise DriverError(f"firefox_driver.mjs did not start: {first}")
        self.version = self._call("version").replace("firefox/", "")

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                self._answers.put(json.loads(line))
            except ValueError:
                pass  # not ours
        self._answers.put(None)

    def _answer(self, want_id: int, timeout_s: float) -> dict:
        end = time.monotonic() + timeout_s
        while True:
            try:
                answer = self._answers.get(timeout=max(0.1, end - time.monotonic()))
            except queue.Empty:
                raise DriverError(f"firefox_driver.mjs: no answer within {timeout_s:.0f} s") from None
            if answer is None:
                raise DriverError("firefox_driver.mjs ended (see its log)")
            if answer.get("id") == want_id:
                return answer

    def _call(self, cmd: str, timeout_s: float = BOOT_TIMEOUT_S, **args):
        self._next += 1
        self.proc.stdin.write(json.dumps({"id": self._next, "cmd": cmd, **args}) + "\n")
        self.proc.stdin.flush()
        answer = self._answer(self._next, timeout_s)
        if not answer["ok"]:
            raise DriverError(answer["error"].splitlines()[0])
        return answer["value"]

    def goto(self, url: str) -> None:
        self._call("goto", url=url)

    def reload(self) -> None:
        self._call("reload")

    def eval(self, expr: str):
        return self._call("eval", expr=expr)

    def click_at(self, x: float, y: float) -> None:
        self._call("click", x=x, y=y)

    def click_id(self, element_id: str) -> None:
        self._call("clickSelector", selector=f"#{element_id}")

    def errors(self) -> list[str]:
        """Console errors of the page and its workers (BiDi log events), plus uncaught page errors."""
        return [f"{m['type']}: {m['text']}" for m in self._call("console") if m["type"] in ("error", "pageerror")]

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                self._call("close", timeout_s=20)
                self.proc.wait(timeout=20)
        except (DriverError, OSError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.proc.pid, 9)  # node and the Firefox it started, by this group's id only
            except ProcessLookupError:
                pass
            self.proc.wait()
        finally:
            if self._log is not subprocess.DEVNULL:
                self._log.close()
