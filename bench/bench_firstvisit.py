"""First visit, warm start and memory, today's build against issue 14's, side by side in one run.

    .venv/bin/python bench/bench_firstvisit.py [--baseline DIR] [--skip-slow4g]

Builds compared:
- "before": the site as commit e978aff built it (Pyodide's whole stdlib, everything raw), served by
  that commit's own tools/serve.py. DIR is a checkout of it with `tools/build_site.py` and
  `tools/build_sw.py` run (default /tmp/infra14-base; made with `git archive e978aff | tar -x -C DIR`,
  `ln -s $PWD/node_modules DIR/`, then both tools with this venv's Python).
- "issue 14": dist/ (`make dist`: cut stdlib, hash-named runtime, precompressed br/gz) served by
  tools/serve.py --root dist.
Each server sits behind a link shaped in the server itself: every response waits one round trip, and all
bytes of all connections share one token bucket. Shaping at the server, not Chromium's DevTools
throttling, because DevTools throttles the page's own requests while the module worker's and the
service worker's fetches (the 10 MB of Pyodide) go round it. Links: "9 Mbit/s, 40 ms" and
Lighthouse's "slow 4G" (1.6 Mbit/s, 150 ms round trip).

Per build, in a fresh persistent Chromium profile (a real disk HTTP cache, like a phone's browser):
- bytes on the wire: every byte the server wrote (headers included) from the first request until the
  service worker has cached the app and controls the page;
- time to a usable menu with the engine ready: navigation start until the app has the engine's
  scenario list (`kaltfront.timings.scriptStart + engineReady`);
- warm start offline: after the memory snapshot is stored, network off, reload: main menu visible
  (`menuShown`) and engine ready (playable);
- peak memory during a Schwer computer turn on the largest map: the resident memory of the largest
  renderer process (the page's: its dedicated engine worker and the worker's WASM heap live in it) and
  of all the profile's renderers (the service worker's too), sampled every 100 ms, and the page's
  `performance.memory.usedJSHeapSize`. Chromium tells the page nothing about the worker's WASM heap,
  and the worker keeps Pyodide in a module-local variable, so the process figure is the honest one.
Targets (issue 14): ≤ 5 MB, ≤ 7 s on 9 Mbit/s, warm ≤ 1 s playable and menu ≤ 0.3 s, < 300 MB.
Prints figures only.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from find_browser import find_browser  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

BASELINE_COMMIT = "e978aff"
LINKS = {"9 Mbit/s, 40 ms": (9e6 / 8, 0.040), "slow 4G (1.6 Mbit/s, 150 ms)": (1.6e6 / 8, 0.150)}


class Link:
    """One shared bottleneck: bytes/s for everything, plus a round trip before each response."""

    def __init__(self, rate: float | None, rtt: float):
        self.rate, self.rtt = rate, rtt
        self.free_at = 0.0
        self.lock = threading.Lock()
        self.bytes = 0

    def send(self, n: int) -> None:
        with self.lock:
            self.bytes += n
            if not self.rate:
                return
            now = time.monotonic()
            self.free_at = max(now, self.free_at) + n / self.rate
            delay = self.free_at - now
        time.sleep(delay)


class ShapedWriter:
    def __init__(self, raw, link: Link):
        self.raw, self.link = raw, link

    def write(self, data) -> int:
        view = memoryview(data)
        for start in range(0, len(view), 16384):
            chunk = view[start:start + 16384]
            self.link.send(len(chunk))
            self.raw.write(chunk)
        return len(view)

    def __getattr__(self, name):
        return getattr(self.raw, name)


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def start_server(serve_py: Path, root: Path, link: Link, name: str):
    serve = load_module(serve_py, name)

    class Shaped(serve.Handler):
        allow_list = False

        def setup(self):
            super().setup()
            self.wfile = ShapedWriter(self.wfile, link)

        def log_message(self, *args):
            pass

        def handle(self):
            try:
                super().handle()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the browser dropped a download (a reload, the boot deadline): not the bench's business

        def send_head(self):
            if link.rtt:
                time.sleep(link.rtt)
            return super().send_head()

    httpd = serve.Server(("127.0.0.1", 0), functools.partial(Shaped, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://localhost:{httpd.server_address[1]}/"


def renderer_rss(profile: str) -> list[int]:
    """Resident bytes of each renderer process of this profile (Chromium rewrites its command line into
    one string, so the flags are matched as substrings)."""
    sizes = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            if "--type=renderer" not in cmd or profile not in cmd:
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) * 1024)
        except OSError:
            continue
    return sizes


SNAPSHOT_SIZE = """async () => {
  const db = await new Promise((ok, bad) => { const r = indexedDB.open("kaltfront-engine", 1);
    r.onupgradeneeded = () => r.result.createObjectStore("snapshots"); r.onsuccess = () => ok(r.result); r.onerror = () => bad(r.error); });
  try { return await new Promise((ok, bad) => { const tx = db.transaction("snapshots", "readonly");
    const q = tx.objectStore("snapshots").get("engine"); tx.oncomplete = () => ok(q.result && q.result.bytes ? q.result.bytes.length : 0);
    tx.onerror = () => bad(tx.error); }); } finally { db.close(); }
}"""

READY = "() => window.kaltfront && (kaltfront.ready || kaltfront.error)"
TIMES = "() => ({ready: kaltfront.timings.scriptStart + kaltfront.timings.engineReady, menu: kaltfront.timings.menuShown, error: kaltfront.error || null})"


def wait(page, expr, timeout_s, what):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if page.evaluate(expr):
            return
        page.wait_for_timeout(200)
    raise SystemExit(f"bench: {what} did not happen within {timeout_s:.0f} s")


def first_visit(pw, serve_py, root, link_name, name, full: bool) -> dict:
    rate, rtt = LINKS[link_name]
    link = Link(rate, rtt)
    httpd, url = start_server(serve_py, root, link, name)
    profile = tempfile.mkdtemp(prefix="kaltfront-bench-")
    out = {}
    try:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=find_browser(), args=ARGS,
                                                    viewport={"width": 412, "height": 915})
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=300_000)
        t = page.evaluate(TIMES)
        if t["error"]:
            # E.g. the app's 30 s boot deadline (pwa/engine.js) passing while the runtime still downloads.
            out["error"] = t["error"]["message"]
            out["ready_s"] = float("nan")
            ctx.close()
            return out
        out["ready_s"] = t["ready"] / 1000
        wait(page, "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", 300, "offline cache")
        page.wait_for_timeout(1000)
        out["bytes"] = link.bytes
        if full:
            # Warm start: network off, reload from the service worker and the memory snapshot.
            link.rate, link.rtt = None, 0.0
            wait(page, SNAPSHOT_SIZE, 120, "memory snapshot")
            ctx.set_offline(True)
            warm = []
            for _ in range(2):
                page.reload()
                page.wait_for_function(READY, timeout=60_000)
                warm.append(page.evaluate(TIMES))
            ctx.set_offline(False)
            out["warm_ready_s"] = [w["ready"] / 1000 for w in warm]
            out["warm_menu_s"] = [w["menu"] / 1000 for w in warm]
            out.update(memory_during_schwer_turn(page, profile))
        ctx.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
        shutil.rmtree(profile, ignore_errors=True)
    return out


def memory_during_schwer_turn(page, profile: str) -> dict:
    scen = page.evaluate("() => kaltfront.state.scenarios")
    big = max(scen, key=lambda s: s["width"] * s["height"])
    peak = [0, 0]  # the largest renderer (the page's, which hosts its dedicated worker), all renderers
    done = threading.Event()

    def sample():
        while not done.is_set():
            sizes = renderer_rss(profile) or [0]
            peak[0] = max(peak[0], max(sizes))
            peak[1] = max(peak[1], sum(sizes))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    page.evaluate("(id) => { kaltfront.skipIntro = true; if (kaltfront.setAiDelay) kaltfront.setAiDelay(0);"
                  " kaltfront.startGame({scenario: id, fog: true, seed: 1, players: {nordbund: 'schwer', liga: 'human'}}); }",
                  big["id"])
    page.wait_for_function("() => kaltfront.state.obs && kaltfront.state.obs.side === 'liga' && !kaltfront.state.busy",
                           timeout=300_000)
    seconds = time.monotonic() - started
    heap = page.evaluate("() => performance.memory ? performance.memory.usedJSHeapSize : null")
    done.set()
    sampler.join()
    return {"map": f"{big['name']} {big['width']}x{big['height']}", "turn_s": seconds, "peak_rss": peak[0],
            "peak_rss_all": peak[1], "page_js_heap": heap}


def build_baseline(base: Path) -> None:
    """Today's build before issue 14: commit e978aff's files, built by its own tools."""
    print(f"bench: building the e978aff baseline in {base}")
    base.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "archive", BASELINE_COMMIT], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    if not (base / "node_modules").exists():
        (base / "node_modules").symlink_to(ROOT / "node_modules")
    for tool in ("build_site.py", "build_sw.py"):
        subprocess.run([sys.executable, str(base / "tools" / tool)], cwd=base, check=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="/tmp/infra14-base")
    ap.add_argument("--skip-slow4g", action="store_true")
    a = ap.parse_args()
    base = Path(a.baseline)
    if not (base / "vendor" / "sw-manifest.js").exists():
        build_baseline(base)
    if not (ROOT / "dist" / "_headers").exists():
        subprocess.run([sys.executable, str(ROOT / "tools" / "build_dist.py")], check=True)
    builds = [("before (e978aff)", base / "tools" / "serve.py", base, "serve_before"),
              ("issue 14 (dist/)", ROOT / "tools" / "serve.py", ROOT / "dist", "serve_now")]
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as pw:
        for label, serve_py, root, name in builds:
            results[label] = first_visit(pw, serve_py, root, "9 Mbit/s, 40 ms", name, full=True)
            if not a.skip_slow4g:
                slow = first_visit(pw, serve_py, root, "slow 4G (1.6 Mbit/s, 150 ms)", name + "_4g", full=False)
                results[label]["slow4g"] = f"{slow['ready_s']:.2f} s" if "error" not in slow else f"no boot: {slow['error']}"
    for label, r in results.items():
        print(f"== {label}")
        if "error" in r:
            print(f"  first visit on 9 Mbit/s + 40 ms: no boot: {r['error']}")
            if "slow4g" in r:
                print(f"  the same on slow 4G (1.6 Mbit/s, 150 ms): {r['slow4g']}")
            continue
        print(f"  first visit, bytes on the wire until the offline cache is complete: {r['bytes'] / 1e6:.2f} MB")
        print(f"  usable menu with the engine ready, 9 Mbit/s + 40 ms, fresh profile: {r['ready_s']:.2f} s")
        if "slow4g" in r:
            print(f"  the same on slow 4G (1.6 Mbit/s, 150 ms): {r['slow4g']}")
        print(f"  warm start offline: menu {', '.join(f'{x:.2f}' for x in r['warm_menu_s'])} s, "
              f"engine ready (playable) {', '.join(f'{x:.2f}' for x in r['warm_ready_s'])} s")
        heap = f"{r['page_js_heap'] / 1e6:.0f} MB" if r["page_js_heap"] else "n/a"
        print(f"  Schwer computer turn on {r['map']}: {r['turn_s']:.1f} s; peak resident memory of the page's "
              f"renderer (page + engine worker, WASM heap included) {r['peak_rss'] / 1e6:.0f} MB, of all the "
              f"profile's renderers {r['peak_rss_all'] / 1e6:.0f} MB; page JS heap after it {heap}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
