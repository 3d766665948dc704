"""First visit, warm start and memory (issue 14): an older build against this tree's, side by side in one run.

    .venv/bin/python bench/bench_firstvisit.py [--old REV] [--runs 3] [--slow4g-runs 2] [--no-memory]
                                               [--throttle cdp|server] [--only new|old]

Builds compared (both precompressed by their own `make dist` steps, served by their own tools/serve.py):
- "old": commit REV (default: where this branch left main, `git merge-base HEAD main`), exported with
  `git archive` to /tmp/kaltfront-bench-<rev> and built there with this venv (build_site, build_sw,
  build_dist; kept for the next run). A commit from before `make dist` (e.g. e978aff, before issue 14)
  is served from its repository root by its own server instead.
- "new": this tree's dist/ (rebuilt by `make dist` if older than the sources it is made of).

The link (`--throttle cdp`, the default): Chromium's own throttling, Network.emulateNetworkConditions
sent over the DevTools protocol to EVERY target the browser starts (the page, the engine's module worker
and the service worker), each attached before it runs (Target.setAutoAttach with waitForDebuggerOnStart;
a page-level throttle alone leaves the worker's 3 MB of Pyodide unthrottled: measured). Chromium
throttles each target on its own, so a worker and the page downloading at once could together exceed
the link; on the boot path they take turns (the page's modules, then the worker's runtime).
`--throttle server` instead shapes in the server: one token bucket for all bytes and a round trip before
each response (a shared bottleneck, the stricter model). Links:
- "9 Mbit/s, 40 ms": 9 Mbit/s down and up, 40 ms round trip (issue 14's first-visit target);
- "slow 4G": Lighthouse's mobile profile as DevTools emulates it: 1.6 Mbit/s down, 0.75 Mbit/s up,
  150 ms round trip, no CPU slowdown.

Per run a fresh Chromium with a fresh persistent profile (a real disk HTTP cache), headless:
- progress shown: when the download bar first shows megabytes (#boot-bytes "… von … MB", issue 11.5;
  this merges the former bench/bench_first_visit.py, which measured only that and the usable menu);
- usable menu: navigation start until the app has the engine's scenario list ("Spiel starten" usable;
  `kaltfront.timings.scriptStart + engineReady`); where that time went: the app's modules (menu
  shown), the worker's own phases (`phases` in its "ready" message: build-info read, IndexedDB
  answered, runtime downloaded (the worker's resource timing), loadPyodide done, engine imported);
- bytes on the wire: every byte the server wrote (headers included) until the engine was ready, and
  until the service worker has cached the app and the memory snapshot is stored;
- warm start, offline: the server is stopped, the throttling lifted, and the page reloaded 3 times from
  the service worker and the memory snapshot: main menu visible (`menuShown`) and playable (engine
  ready and scenarios listed);
- memory during a Schwer computer turn on the largest map (after the warm starts, so on a snapshot-
  booted engine like a returning player's): peak resident memory (VmRSS, sampled every 0.2 s) of the
  renderer process that hosts the page and its engine worker, and of all renderers; after the turn the
  worker's WebAssembly memory (every WebAssembly.Memory in the worker, found with
  Runtime.queryObjects: Pyodide's HEAP8 buffer; it only grows, so this is its peak), the worker's and the
  page's JS heap (Runtime.getHeapUsage; `performance.memory` in the page with
  --enable-precise-memory-info).
Medians with the spread (min–max) over the runs. Targets (issue 14): usable menu ≤ 7 s on 9 Mbit/s,
warm playable ≤ 1 s and menu ≤ 0.3 s, memory < 300 MB. Prints figures only; tests never assert them.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import itertools
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from find_browser import find_browser  # noqa: E402

CHROME_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--enable-precise-memory-info", "--window-size=412,915", "--no-default-browser-check"]

# (down bytes/s, up bytes/s, round trip s)
LINKS = {"9 Mbit/s, 40 ms": (9e6 / 8, 9e6 / 8, 0.040),
         "slow 4G (1.6 Mbit/s, 150 ms)": (1.6e6 / 8, 0.75e6 / 8, 0.150)}
FAST, SLOW = LINKS


# --- a minimal DevTools protocol client (websocket-client, a dependency of the test venv) ------------
class Cdp:
    """One websocket to the browser; flat sessions; events to a handler running on its own thread."""

    def __init__(self, ws_url: str, on_event):
        import websocket

        self.ws = websocket.create_connection(ws_url, max_size=None, suppress_origin=True)
        self.ids = itertools.count(1)
        self.waiting: dict[int, queue.Queue] = {}
        self.lock = threading.Lock()
        self.events: queue.Queue = queue.Queue()
        self.on_event = on_event
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._dispatch, daemon=True).start()

    def _read(self):
        while not self.closed:
            try:
                message = json.loads(self.ws.recv())
            except Exception:
                self.closed = True
                break
            if "id" in message:
                q = self.waiting.pop(message["id"], None)
                if q:
                    q.put(message)
            else:
                self.events.put(message)
        for q in list(self.waiting.values()):
            q.put({"error": {"message": "connection closed"}})

    def _dispatch(self):
        while True:
            message = self.events.get()
            try:
                self.on_event(message)
            except Exception as e:  # a handler bug must not stop the other events
                print(f"bench: event handler: {e!r}", file=sys.stderr)

    def send(self, method, params=None, session=None, timeout=120.0, check=True):
        n = next(self.ids)
        q: queue.Queue = queue.Queue()
        self.waiting[n] = q
        message = {"id": n, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        with self.lock:
            if self.closed:
                raise ConnectionError(f"{method}: the browser connection is closed")
            self.ws.send(json.dumps(message))
        try:
            reply = q.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"{method}: no answer in {timeout:.0f} s") from None
        if "error" in reply:
            if check:
                raise RuntimeError(f"{method}: {reply['error'].get('message')}")
            return None
        return reply.get("result", {})

    def close(self):
        self.closed = True
        try:
            self.ws.close()
        except Exception:
            pass


class Browser:
    """A fresh Chromium with its own profile; every target throttled before it runs."""

    def __init__(self, conditions: dict | None):
        self.profile = tempfile.mkdtemp(prefix="kaltfront-bench-")
        self.proc = subprocess.Popen([find_browser(), *CHROME_ARGS, "--remote-debugging-port=0",
                                      f"--user-data-dir={self.profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile, "DevToolsActivePort")
        for _ in range(300):
            if port_file.exists() and len(port_file.read_text().split()) >= 2:
                break
            time.sleep(0.1)
        port, path = port_file.read_text().split()[:2]
        self.conditions = conditions
        self.closing = False
        self.sessions: dict[str, dict] = {}  # sessionId -> targetInfo
        self.attached = threading.Condition()
        self.cdp = Cdp(f"ws://127.0.0.1:{port}{path}", self._on_event)
        self.cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True})
        self.page = self._wait_session("page")

    def _on_event(self, message):
        if message.get("method") == "Target.attachedToTarget":
            params = message["params"]
            session, info = params["sessionId"], params["targetInfo"]
            # Off the dispatch thread: the calls below wait for answers the dispatcher would deliver.
            threading.Thread(target=self._prepare_quietly, args=(session, info, params.get("waitingForDebugger")),
                             daemon=True).start()
        elif message.get("method") == "Target.detachedFromTarget":
            with self.attached:
                self.sessions.pop(message["params"]["sessionId"], None)

    def _prepare_quietly(self, session, info, waiting):
        try:
            self._prepare(session, info, waiting)
        except Exception as e:
            if not self.closing:
                print(f"bench: could not prepare the {info['type']} target: {e!r}", file=sys.stderr)

    def _prepare(self, session, info, waiting):
        send = functools.partial(self.cdp.send, session=session, check=False, timeout=30)
        # A paused service worker answers the throttle only once it runs; the protocol keeps a session's
        # commands in order, so the throttle is sent first and its answer awaited after the resume.
        throttled = threading.Thread(target=self._throttle_quietly, args=(session,), daemon=True)
        throttled.start()
        if self.closing:
            return
        if info["type"] in ("page", "iframe"):
            send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True})
        if waiting:
            time.sleep(0.05)
            send("Runtime.runIfWaitingForDebugger")
        throttled.join()
        with self.attached:
            self.sessions[session] = info
            self.attached.notify_all()

    def _throttle_quietly(self, session):
        try:
            self.throttle_session(session)
        except Exception:
            pass

    def throttle_session(self, session):
        # Without Network.enable on the worker's own session its fetches stay unthrottled (measured:
        # 2.7 MB in 0.6 s "at 9 Mbit/s"); with it the worker's downloads take the link's time.
        self.cdp.send("Network.enable", {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0}, session=session,
                      check=False, timeout=30)
        c = self.conditions
        params = ({"offline": False, "latency": c[2] * 1000, "downloadThroughput": c[0], "uploadThroughput": c[1]}
                  if c else {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        self.cdp.send("Network.emulateNetworkConditions", params, session=session, check=False, timeout=30)

    def set_conditions(self, conditions):
        self.conditions = conditions
        for session in list(self.sessions):
            self.throttle_session(session)

    def _wait_session(self, kind, timeout=60.0):
        end = time.monotonic() + timeout
        with self.attached:
            while time.monotonic() < end:
                for session, info in self.sessions.items():
                    if info["type"] == kind:
                        return session
                self.attached.wait(0.5)
        raise SystemExit(f"bench: no {kind} target within {timeout:.0f} s")

    def worker_session(self):
        return self._wait_session("worker", 30)

    def evaluate(self, expression, session=None, timeout=120.0):
        r = self.cdp.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                          session=session or self.page, timeout=timeout)
        if "exceptionDetails" in r:
            raise RuntimeError(f"evaluate {expression[:60]!r}: {r['exceptionDetails'].get('text')}"
                               f" {r['exceptionDetails'].get('exception', {}).get('description', '')[:300]}")
        return r["result"].get("value")

    def wait_for(self, expression, timeout_s, what):
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            try:
                value = self.evaluate(expression, timeout=30)
            except (RuntimeError, TimeoutError):
                value = None  # between documents during a navigation
            if value:
                return value
            time.sleep(0.1)
        raise SystemExit(f"bench: {what} did not happen within {timeout_s:.0f} s")

    def renderer_rss(self) -> list[tuple[int, int]]:
        """(VmRSS, private bytes) of each renderer process of this browser."""
        sizes = []
        for pid in descendants(self.proc.pid):
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
                if b"--type=renderer" not in cmd:
                    continue
                sizes.append(rss_and_private(pid))
            except OSError:
                continue
        return sizes

    def close(self):
        self.closing = True
        try:
            self.cdp.send("Browser.close", timeout=10, check=False)
        except Exception:
            pass
        self.cdp.close()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def rss_and_private(pid: int) -> tuple[int, int]:
    """(VmRSS, private bytes: RSS without pages shared with other processes) of one process."""
    rss = private = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) * 1024
        elif line.startswith(("Private_Clean:", "Private_Dirty:")):
            private += int(line.split()[1]) * 1024
    return rss, private


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            out.append(c)
            todo.append(c)
    return out


# --- the server: the build's own tools/serve.py, counting (and with --throttle server, shaping) bytes --
class Link:
    """Counts every byte; with a rate, one shared bottleneck plus a round trip before each response."""

    def __init__(self, rate: float | None = None, rtt: float = 0.0):
        self.rate, self.rtt = rate, rtt
        self.free_at = 0.0
        self.lock = threading.Lock()
        self.bytes = 0
        self.by_path: dict[str, int] = {}  # request path -> bytes written (headers included)

    def send(self, n: int) -> None:
        with self.lock:
            self.bytes += n
            if not self.rate:
                return
            now = time.monotonic()
            self.free_at = max(now, self.free_at) + n / self.rate
            delay = self.free_at - now
        time.sleep(delay)


class CountingWriter:
    def __init__(self, raw, link: Link, handler=None):
        self.raw, self.link, self.handler = raw, link, handler

    def write(self, data) -> int:
        view = memoryview(data)
        path = getattr(self.handler, "path", "?")
        for start in range(0, len(view), 16384):
            chunk = view[start:start + 16384]
            self.link.send(len(chunk))
            with self.link.lock:
                self.link.by_path[path] = self.link.by_path.get(path, 0) + len(chunk)
            self.raw.write(chunk)
        return len(view)

    def __getattr__(self, name):
        return getattr(self.raw, name)


def load_module(path: Path, name: str):
    """Load a build's own tools/serve.py with ITS site_headers (which files it compresses): the module
    cache would otherwise hand the second build the first build's (measured: the new wheel sent raw)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    sys.modules.pop("site_headers", None)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
        sys.modules.pop("site_headers", None)
    return module


class Server:
    def __init__(self, build: dict, link: Link):
        serve = build["module"]

        class Counted(serve.Handler):
            allow_list = build["allow_list"]

            def setup(self):
                super().setup()
                self.wfile = CountingWriter(self.wfile, link, self)

            def log_message(self, *args):
                pass

            def handle(self):
                try:
                    super().handle()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the browser dropped a download (a reload): not the bench's business

            def send_head(self):
                if link.rtt:
                    time.sleep(link.rtt)
                return super().send_head()

        self.httpd = serve.Server(("127.0.0.1", 0), functools.partial(Counted, directory=str(build["root"])))
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://localhost:{self.httpd.server_address[1]}/"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


# --- builds ---------------------------------------------------------------------------------------------
def git(*args) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def prepare_old(rev: str) -> dict:
    sha = git("rev-parse", "--short=12", rev)
    base = Path(f"/tmp/kaltfront-bench-{sha}")
    stamp = base / ".bench-built"
    if not stamp.exists():
        print(f"bench: building {rev} ({sha}) in {base} (a few minutes, once)", flush=True)
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        (base / "node_modules").symlink_to(ROOT / "node_modules")
        for tool in ("build_site.py", "build_sw.py", "build_dist.py"):
            if (base / "tools" / tool).exists():
                subprocess.run([sys.executable, str(base / "tools" / tool)], cwd=base, check=True,
                               stdout=subprocess.DEVNULL)
        stamp.write_text(sha)
    dist = (base / "dist" / "_headers").exists()
    return {"label": f"old ({sha[:7]})", "root": base / "dist" if dist else base, "allow_list": not dist,
            "module": load_module(base / "tools" / "serve.py", f"serve_{sha}")}


def prepare_new() -> dict:
    dist = ROOT / "dist"
    sources = [ROOT / "index.html", ROOT / "service-worker.js", *(ROOT / "pwa").rglob("*"), *(ROOT / "vendor").rglob("*")]
    newest = max(p.stat().st_mtime for p in sources if p.is_file())
    if not (dist / "_headers").exists() or (dist / "_headers").stat().st_mtime < newest:
        print("bench: make dist", flush=True)
        subprocess.run(["make", "dist"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return {"label": f"new ({git('rev-parse', '--short=7', 'HEAD')}{'+' if git('status', '--porcelain', '--', 'pwa', 'tools', 'index.html', 'service-worker.js') else ''})",
            "root": dist, "allow_list": False, "module": load_module(ROOT / "tools" / "serve.py", "serve_new")}


# --- one run ----------------------------------------------------------------------------------------------
# From bench/bench_first_visit.py (issue 11.5, merged here): when the download bar first shows megabytes.
PROGRESS_PROBE = """(() => { window.__firstVisit = {}; const t = setInterval(() => {
  const el = document.getElementById('boot-bytes');
  if (el && /von .* MB/.test(el.textContent || '')) { window.__firstVisit.progress = performance.now(); clearInterval(t); }
}, 20); })()"""
READY = "window.kaltfront && (kaltfront.ready || kaltfront.error) ? true : false"
TIMES = """(() => ({ready: kaltfront.ready ? kaltfront.timings.scriptStart + kaltfront.timings.engineReady : null,
  menu: kaltfront.timings.menuShown, progress: (window.__firstVisit || {}).progress || null, error: kaltfront.error ? kaltfront.error.message : null,
  origin: performance.timeOrigin, info: kaltfront.info ? {boot: kaltfront.info.boot, bootMs: kaltfront.info.bootMs,
  timings: kaltfront.info.timings, phases: kaltfront.info.phases || null, timeOrigin: kaltfront.info.timeOrigin || null,
  snapshot: kaltfront.info.snapshot} : null}))()"""
WORKER_RESOURCES = """performance.getEntriesByType('resource').map(e => ({name: e.name.split('/').pop(),
  start: e.startTime, end: e.responseEnd, size: e.transferSize}))"""
SNAPSHOT_STORED = """(async () => { const db = await new Promise((ok, bad) => { const r = indexedDB.open("kaltfront-engine", 1);
  r.onupgradeneeded = () => r.result.createObjectStore("snapshots"); r.onsuccess = () => ok(r.result); r.onerror = () => bad(r.error); });
  try { return await new Promise((ok, bad) => { const tx = db.transaction("snapshots", "readonly");
    const q = tx.objectStore("snapshots").get("engine"); tx.oncomplete = () => { const r = q.result, stored = !!(r && r.bytes);
      if (stored && r.bytes.buffer && r.bytes.buffer.transfer) r.bytes.buffer.transfer(0); /* the page's 31 MB copy: freed now, not at its next GC */
      ok(stored); };
    tx.onerror = () => bad(tx.error); }); } finally { db.close(); } })()"""


def breakdown(t: dict, browser: Browser) -> dict:
    """The boot's phases in seconds after navigation start (None where the build does not say)."""
    out = {"menu": t["menu"] / 1000, "ready": t["ready"] / 1000 if t["ready"] else None,
           "progress": t["progress"] / 1000 if t.get("progress") else None}
    info = t["info"] or {}
    for name, ms in (info.get("timings") or {}).items():  # every build has these (restoreMs, pyodideMs, …)
        out[name] = ms / 1000
    if info.get("phases") and info.get("timeOrigin"):
        shift = info["timeOrigin"] - t["origin"]
        for name, ms in info["phases"].items():
            out[name] = (shift + ms) / 1000
        try:
            res = browser.evaluate(WORKER_RESOURCES, session=browser.worker_session(), timeout=20)
            ends = [r["end"] for r in res if r["name"].endswith((".wasm", ".zip", ".whl", ".mjs"))]
            if ends:
                out["downloaded"] = (shift + max(ends)) / 1000
        except (RuntimeError, TimeoutError, SystemExit):
            pass
    return out


def first_visit(build: dict, link_name: str, throttle: str, full: bool, memory: bool) -> dict:
    down, up, rtt = LINKS[link_name]
    link = Link(down, rtt) if throttle == "server" else Link()
    server = Server(build, link)
    browser = Browser((down, up, rtt) if throttle == "cdp" else None)
    out: dict = {}
    try:
        browser.cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": PROGRESS_PROBE}, session=browser.page)
        browser.cdp.send("Page.navigate", {"url": server.url}, session=browser.page)
        browser.wait_for(READY, 300, "the boot")
        t = browser.evaluate(TIMES)
        if t["error"]:
            out["error"] = t["error"]
            return out
        out["bytes_ready"] = link.bytes
        out["by_path"] = dict(link.by_path)
        out["cold"] = breakdown(t, browser)
        if not full:
            return out
        browser.wait_for("navigator.serviceWorker && navigator.serviceWorker.controller !== null", 300, "the offline cache")
        browser.wait_for(SNAPSHOT_STORED, 120, "the memory snapshot")
        time.sleep(1.0)
        out["bytes_all"] = link.bytes
        # Offline: no server any more, no throttling (the service worker and IndexedDB answer).
        server.stop()
        server = None
        link.rate, link.rtt = None, 0.0
        browser.set_conditions(None)
        out["warm"] = []
        for _ in range(3):
            browser.cdp.send("Page.reload", {}, session=browser.page)
            time.sleep(0.2)
            browser.wait_for(READY, 120, "the warm start")
            t = browser.evaluate(TIMES)
            if t["error"]:
                out["warm_error"] = t["error"]
                break
            w = breakdown(t, browser)
            w["path"] = t["info"]["boot"]
            out["warm"].append(w)
        if memory and "warm_error" not in out:
            out.update(schwer_turn(browser))
    finally:
        browser.close()
        if server:
            server.stop()
    return out


QUERY_WASM = """(() => WebAssembly.Memory.prototype)()"""


def wasm_memory(browser: Browser, session: str) -> int | None:
    """Pyodide's WebAssembly memory in the worker: the worker's own "memory" op (pwa/worker.js) where the
    build has it, else the total of every WebAssembly.Memory alive in the worker (Runtime.queryObjects)."""
    try:
        size = browser.evaluate("kaltfront.call('memory').then(r => r.wasmHeapBytes, () => null)", timeout=30)
        if size:
            return size
    except (RuntimeError, TimeoutError):
        pass
    browser.cdp.send("Runtime.enable", {}, session=session, check=False, timeout=20)
    proto = browser.cdp.send("Runtime.evaluate", {"expression": QUERY_WASM}, session=session, check=False)
    if not proto or "objectId" not in proto.get("result", {}):
        return None
    try:
        found = browser.cdp.send("Runtime.queryObjects", {"prototypeObjectId": proto["result"]["objectId"]},
                                 session=session, check=False, timeout=30)
    except TimeoutError:
        return None
    if not found:
        return None
    total = browser.cdp.send("Runtime.callFunctionOn", {
        "objectId": found["objects"]["objectId"], "returnByValue": True,
        "functionDeclaration": "function () { return this.reduce((n, m) => n + m.buffer.byteLength, 0); }"},
        session=session, check=False)
    return total["result"]["value"] if total else None


def schwer_turn(browser: Browser) -> dict:
    scen = browser.evaluate("kaltfront.state.scenarios")
    big = max(scen, key=lambda s: s["width"] * s["height"])
    peak = {"page_rss": 0, "page_private": 0, "all_rss": 0}
    done = threading.Event()

    def sample():
        while not done.is_set():
            sizes = browser.renderer_rss() or [(0, 0)]
            top = max(sizes)
            peak["page_rss"] = max(peak["page_rss"], top[0])
            peak["page_private"] = max(peak["page_private"], top[1])
            peak["all_rss"] = max(peak["all_rss"], sum(s[0] for s in sizes))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    browser.evaluate("(kaltfront.skipIntro = true, kaltfront.setAiDelay && kaltfront.setAiDelay(0),"
                     f" kaltfront.startGame({{scenario: {json.dumps(big['id'])}, fog: true, seed: 1,"
                     " players: {nordbund: 'schwer', liga: 'human'}}), true)")
    browser.wait_for("kaltfront.state.obs && kaltfront.state.obs.side === 'liga' && !kaltfront.state.busy", 600,
                     "the Schwer turn")
    seconds = time.monotonic() - started
    done.set()
    sampler.join()
    worker = browser.worker_session()
    heap = browser.cdp.send("Runtime.getHeapUsage", {}, session=worker, check=False) or {}
    page_heap = browser.evaluate("performance.memory ? performance.memory.usedJSHeapSize : null")
    return {"map": f"{big['name']} {big['width']}x{big['height']}", "turn_s": seconds, **peak,
            "wasm": wasm_memory(browser, worker), "worker_js": heap.get("usedSize"), "page_js": page_heap,
            **blank_renderer(browser)}


def blank_renderer(browser: Browser) -> dict:
    """The floor: RSS and private memory of a renderer showing about:blank in the same browser. What the
    game's renderer holds above it is what the page and its worker cost; the rest (Chromium's own code,
    fonts, shared memory with the browser process) is there for any tab."""
    before = {pid for pid in descendants(browser.proc.pid)}
    target = browser.cdp.send("Target.createTarget", {"url": "about:blank"}, check=False, timeout=30) or {}
    time.sleep(2.0)
    sizes = {}
    for pid in descendants(browser.proc.pid):
        if pid in before:
            continue
        try:
            if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            sizes[pid] = rss_and_private(pid)
        except OSError:
            continue
    if target.get("targetId"):
        browser.cdp.send("Target.closeTarget", {"targetId": target["targetId"]}, check=False, timeout=30)
    if len(sizes) != 1:
        return {}
    rss, private = next(iter(sizes.values()))
    return {"blank_rss": rss, "blank_private": private}


# --- report -----------------------------------------------------------------------------------------------
def spread(xs, unit="s", scale=1.0, digits=2):
    xs = [x * scale for x in xs if x is not None]
    if not xs:
        return "n/a"
    if len(xs) == 1:
        return f"{xs[0]:.{digits}f} {unit}"
    return f"median {statistics.median(xs):.{digits}f} {unit} ({min(xs):.{digits}f}–{max(xs):.{digits}f}, n={len(xs)})"


PHASES = (("menu", "menu shown"), ("progress", "bar shows MB"), ("info", "worker read build-info"), ("stored", "IndexedDB answered"),
          ("downloaded", "runtime downloaded"), ("runtime", "loadPyodide done"), ("wheel", "wheel unpacked"),
          ("engine", "engine imported"), ("ready", "usable menu"))


def report(label: str, runs: list[dict], slow: list[dict]) -> None:
    print(f"== {label}")
    good = [r for r in runs if "error" not in r]
    for r in runs:
        if "error" in r:
            print(f"  a first visit failed: {r['error']}")
    if good:
        print(f"  usable menu with the engine ready, {FAST}, fresh profile: {spread([r['cold']['ready'] for r in good])}")
        for key, name in PHASES[:-1]:
            xs = [r["cold"].get(key) for r in good]
            if any(x is not None for x in xs):
                print(f"    {name:24s} at {spread(xs)}")
        for key in ("pyodideMs", "wheelMs", "bridgeMs"):
            xs = [r["cold"].get(key) for r in good]
            if any(x is not None for x in xs):
                print(f"    worker's {key[:-2]:15s} took {spread(xs)}")
        if os.environ.get("BENCH_BYTES"):
            for path, n in sorted(good[0]["by_path"].items(), key=lambda kv: -kv[1])[:12]:
                print(f"      {n / 1e6:7.3f} MB  {path}")
        print(f"  bytes on the wire until the engine was ready: {spread([r['bytes_ready'] for r in good], 'MB', 1e-6)}; "
              f"until the offline cache and snapshot were complete: {spread([r.get('bytes_all') for r in good], 'MB', 1e-6)}")
    ok4g = [r for r in slow if "error" not in r]
    if slow:
        print(f"  usable menu on {SLOW}: {spread([r['cold']['ready'] for r in ok4g])}"
              + "".join(f"; failed: {r['error']}" for r in slow if "error" in r))
    warm = [w for r in good for w in r.get("warm", [])]
    if warm:
        paths = sorted({w["path"] for w in warm})
        print(f"  warm start offline (service worker + memory snapshot, boot {'/'.join(paths)}): "
              f"menu visible {spread([w['menu'] for w in warm])}, playable {spread([w['ready'] for w in warm])}")
        for key, name in PHASES[1:-1]:
            xs = [w.get(key) for w in warm]
            if any(x is not None for x in xs):
                print(f"    {name:24s} at {spread(xs)}")
        for key in ("restoreMs", "wheelMs", "bridgeMs"):
            xs = [w.get(key) for w in warm]
            if any(x is not None for x in xs):
                print(f"    worker's {key[:-2]:15s} took {spread(xs)}")
    for r in good:
        if "warm_error" in r:
            print(f"  a warm start failed: {r['warm_error']}")
    mem = [r for r in good if "turn_s" in r]
    if mem:
        print(f"  Schwer computer turn on {mem[0]['map']}: {spread([r['turn_s'] for r in mem], 's', 1, 1)}")
        print(f"    peak RSS of the page's renderer (page + engine worker): {spread([r['page_rss'] for r in mem], 'MB', 1e-6, 0)}; "
              f"its private memory {spread([r['page_private'] for r in mem], 'MB', 1e-6, 0)}; "
              f"all renderers {spread([r['all_rss'] for r in mem], 'MB', 1e-6, 0)}")
        print(f"    worker WebAssembly memory (Pyodide HEAP8.buffer.byteLength): {spread([r['wasm'] for r in mem], 'MB', 1e-6, 1)}; "
              f"worker JS heap {spread([r['worker_js'] for r in mem], 'MB', 1e-6, 1)}; "
              f"page performance.memory.usedJSHeapSize {spread([r['page_js'] for r in mem], 'MB', 1e-6, 1)}")
        blank = [r for r in mem if "blank_rss" in r]
        if blank:
            print(f"    an about:blank renderer in the same browser (the floor of any tab): RSS "
                  f"{spread([r['blank_rss'] for r in blank], 'MB', 1e-6, 0)}, private {spread([r['blank_private'] for r in blank], 'MB', 1e-6, 0)}; "
                  f"the game's renderer above that floor: RSS {spread([r['page_rss'] - r['blank_rss'] for r in blank], 'MB', 1e-6, 0)}, "
                  f"private {spread([r['page_private'] - r['blank_private'] for r in blank], 'MB', 1e-6, 0)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default=None, help="git revision of the old build (default: merge-base with main)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--slow4g-runs", type=int, default=2)
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--throttle", choices=("cdp", "server"), default="cdp")
    ap.add_argument("--only", choices=("new", "old"), default=None)
    a = ap.parse_args()
    builds = []
    if a.only != "new":
        builds.append(prepare_old(a.old or git("merge-base", "HEAD", "main")))
    if a.only != "old":
        builds.append(prepare_new())
    print(f"bench: throttling by {'Chromium (CDP, every target)' if a.throttle == 'cdp' else 'the server (shared link)'}; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    results = {b["label"]: ([], []) for b in builds}
    # Interleaved, so a burst of load on this shared machine hits both builds alike.
    for i in range(max(a.runs, a.slow4g_runs)):
        for b in builds:
            if i < a.runs:
                r = first_visit(b, FAST, a.throttle, full=True, memory=not a.no_memory)
                results[b["label"]][0].append(r)
                print(f"  {b['label']} run {i + 1}: ready {r.get('cold', {}).get('ready')}, "
                      f"warm {[round(w['ready'], 2) for w in r.get('warm', [])]} {r.get('error', '')}", flush=True)
            if i < a.slow4g_runs:
                results[b["label"]][1].append(first_visit(b, SLOW, a.throttle, full=False, memory=False))
    print(f"bench: load average {os.getloadavg()[0]:.1f} at the end")
    for b in builds:
        report(b["label"], *results[b["label"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
