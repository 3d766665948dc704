"""Where the game's renderer memory goes during a Schwer turn on the largest map (issue 14): a breakdown.

    .venv/bin/python bench/bench_memory.py [--old REV] [--runs 1] [--phone] [--zoom] [--no-trace]

The same run as bench/bench_firstvisit.py's memory figure, without the throttled first visit: a fresh
headless Chromium (the same flags) opens the build unthrottled, waits for the offline cache and the
memory snapshot, reloads once (a returning player's warm start from the snapshot), and starts a game on
the largest map with the computer (Schwer) moving first; the turn runs while the renderer that hosts the
page and its engine worker is sampled every 0.2 s. `--phone` emulates a phone (412×915 CSS pixels,
deviceScaleFactor 2.625, touch) with Emulation.setDeviceMetricsOverride before the page loads.

Printed per build (median over --runs where several):
- peak RSS / private memory of the game's renderer (smaps_rollup, as bench_firstvisit.py) and of an
  about:blank renderer in the same browser (the floor of any tab);
- at the sample with the highest RSS, the renderer's /proc/<pid>/smaps summed by kind of mapping
  (Chromium's named anonymous mappings such as [anon:partition_alloc], libraries, memfd, heap);
- with --zoom, the peak RSS while the mouse wheel zooms in and out across the whole range after the turn
  (48 notches, each its own gesture: the tiles and sprites of every zoom step);
- after the turn, Chromium's own memory-infra dump of that renderer (Tracing.requestMemoryDump, the
  figures chrome://tracing shows: malloc, PartitionAlloc's partitions (ArrayBuffers are in
  "array_buffer"/"buffer"), V8 per isolate (page, engine worker, service worker) with code space, Blink
  GC, canvas/Skia, fonts, discardable memory), the top-level allocators and the notable children.
Figures only; tests never assert them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_firstvisit as bf  # noqa: E402

PHONE = {"width": 412, "height": 915, "deviceScaleFactor": 2.625, "mobile": True}


def smaps_by_kind(pid: int) -> dict[str, list[int]]:
    """RSS and private bytes of one process summed by mapping name (anonymous mappings by their name)."""
    out: dict[str, list[int]] = {}
    name = None
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split(None, 5)
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            path = head[5].strip() if len(head) > 5 else ""
            if not path:
                # JIT code (JavaScript and WebAssembly) is the anonymous memory that may execute.
                name = "[anon] executable (JIT code)" if "x" in head[1] else "[anon]"
            elif path.startswith("/"):
                name = "file " + path.rsplit("/", 1)[-1] if "chromium" not in path else "file chromium:" + path.rsplit("/", 1)[-1]
                name = re.sub(r"\.so[.0-9]*$", ".so", name)
                if name.startswith("file ") and "chromium" not in name and not name.endswith(".so"):
                    name = "file (other)"
                elif name.startswith("file ") and name.endswith(".so") and "chromium" not in name:
                    name = "file system .so"
            elif path.startswith("/memfd:") or path.startswith("/dev/shm"):
                name = "shared memory " + re.sub(r"\s*\(deleted\)", "", path.split(":", 1)[-1])[:40]
            else:
                name = re.sub(r"\s*\(deleted\)", "", path)
            out.setdefault(name, [0, 0])
        elif line.startswith("Rss:") and name:
            out[name][0] += int(line.split()[1]) * 1024
        elif line.startswith(("Private_Clean:", "Private_Dirty:")) and name:
            out[name][1] += int(line.split()[1]) * 1024
    return out


def game_renderer(browser) -> int | None:
    best = None
    for pid in bf.descendants(browser.proc.pid):
        try:
            if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            rss = bf.rss_and_private(pid)[0]
        except OSError:
            continue
        if best is None or rss > best[0]:
            best = (rss, pid)
    return best[1] if best else None


class Trace:
    """memory-infra tracing over the browser session: requestMemoryDump, then the dump's events."""

    def __init__(self, browser):
        self.browser = browser
        self.events: list = []
        self.done = threading.Event()
        old = browser.cdp.on_event

        def on_event(message):
            if message.get("method") == "Tracing.dataCollected":
                self.events.extend(message["params"]["value"])
            elif message.get("method") == "Tracing.tracingComplete":
                self.done.set()
            else:
                old(message)

        browser.cdp.on_event = on_event
        browser.cdp.send("Tracing.start", {"traceConfig": {
            "includedCategories": ["disabled-by-default-memory-infra"], "excludedCategories": ["*"],
            "memoryDumpConfig": {"triggers": []}}, "transferMode": "ReportEvents"})

    def dump(self) -> None:
        r = self.browser.cdp.send("Tracing.requestMemoryDump", {"deterministic": True, "levelOfDetail": "detailed"},
                                  timeout=120)
        if not r.get("success"):
            print("bench: memory dump failed", file=sys.stderr)

    def stop(self) -> list:
        self.browser.cdp.send("Tracing.end", {})
        self.done.wait(60)
        return self.events


def allocators_of(events: list, pid: int) -> dict[str, int]:
    """{allocator path: effective size (bytes)} of the last detailed dump of process `pid`."""
    dumps = [e for e in events if e.get("ph") == "v" and e.get("pid") == pid]
    if not dumps:
        return {}
    out: dict[str, int] = {}
    for name, d in dumps[-1]["args"]["dumps"].get("allocators", {}).items():
        attrs = d.get("attrs", {})
        size = attrs.get("effective_size", attrs.get("size", {})).get("value")
        if size is None:
            continue
        out[name] = int(size, 16) if isinstance(size, str) else int(size)
    return out


def zoom_sweep(browser, pid: int) -> tuple[int, list[float]]:
    """Mouse-wheel zooms over the map's middle, in then out across the whole range, each notch its own
    gesture (the app sharpens after 150 ms); returns the renderer's peak RSS meanwhile and the draw time
    of the last frame after each notch (`kaltfront.lastFrameMs`: the frame at the new zoom step, the one
    that draws new tiles)."""
    box = browser.evaluate("(() => { const r = document.getElementById('map').getBoundingClientRect();"
                           " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()")
    peak, frames = 0, []
    for delta in [-120] * 24 + [120] * 24:
        browser.cdp.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": box["x"], "y": box["y"],
                                                      "deltaX": 0, "deltaY": delta}, session=browser.page)
        time.sleep(0.3)
        peak = max(peak, bf.rss_and_private(pid)[0])
        frames.append(browser.evaluate("kaltfront.lastFrameMs()"))
    return peak, frames


def one_run(build: dict, phone: bool, trace: bool, zoom: bool = False) -> dict:
    server = bf.Server(build, bf.Link())
    browser = bf.Browser(None)
    out: dict = {}
    try:
        if phone:
            browser.cdp.send("Emulation.setDeviceMetricsOverride", PHONE, session=browser.page)
            browser.cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}, session=browser.page)
        browser.cdp.send("Page.navigate", {"url": server.url}, session=browser.page)
        browser.wait_for(bf.READY, 300, "the boot")
        browser.wait_for("navigator.serviceWorker && navigator.serviceWorker.controller !== null", 300, "the offline cache")
        browser.wait_for(bf.SNAPSHOT_STORED, 120, "the memory snapshot")
        time.sleep(1.0)
        browser.cdp.send("Page.reload", {}, session=browser.page)
        time.sleep(0.2)
        browser.wait_for(bf.READY, 120, "the warm start")
        out["boot"] = browser.evaluate("kaltfront.info && kaltfront.info.boot")
        out["dpr"] = browser.evaluate("devicePixelRatio")
        pid = game_renderer(browser)
        tracer = Trace(browser) if trace else None
        scen = browser.evaluate("kaltfront.state.scenarios")
        big = max(scen, key=lambda s: s["width"] * s["height"])
        peak = {"rss": 0, "private": 0, "smaps": {}, "canvas": None}
        done = threading.Event()

        def sample():
            last_detail = 0.0
            while not done.is_set():
                try:
                    rss, private = bf.rss_and_private(pid)
                except OSError:
                    break
                if rss > peak["rss"]:
                    peak["rss"] = rss
                    if time.monotonic() - last_detail > 0.5:  # a full smaps read costs ~20 ms
                        peak["smaps"] = smaps_by_kind(pid)
                        last_detail = time.monotonic()
                peak["private"] = max(peak["private"], private)
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        browser.evaluate("(kaltfront.skipIntro = true, kaltfront.setAiDelay && kaltfront.setAiDelay(0),"
                         f" kaltfront.startGame({{scenario: {json.dumps(big['id'])}, fog: true, seed: 1,"
                         " players: {nordbund: 'schwer', liga: 'human'}}), true)")
        browser.wait_for("kaltfront.state.obs && kaltfront.state.obs.side === 'liga' && !kaltfront.state.busy", 600,
                         "the Schwer turn")
        time.sleep(0.5)
        done.set()
        sampler.join()
        out["map"] = f"{big['name']} {big['width']}x{big['height']}"
        out["peak_rss"], out["peak_private"], out["smaps"] = peak["rss"], peak["private"], peak["smaps"]
        out["after_rss"], out["after_private"] = bf.rss_and_private(pid)
        if zoom:
            out["zoom_rss"], out["zoom_frames"] = zoom_sweep(browser, pid)
        out["camera"] = browser.evaluate("({scale: kaltfront.camera.scale, w: kaltfront.camera.viewW, h: kaltfront.camera.viewH})")
        out["isolates"] = {}
        for session, info in list(browser.sessions.items()):
            h = browser.cdp.send("Runtime.getHeapUsage", {}, session=session, check=False, timeout=30)
            if h:
                out["isolates"][f"{info['type']} {info.get('url', '').rsplit('/', 1)[-1][:30]}"] = h
        if tracer:
            tracer.dump()
            out["allocators"] = allocators_of(tracer.stop(), pid)
        out.update(bf.blank_renderer(browser))
    finally:
        browser.close()
        server.stop()
    return out


def mb(n) -> str:
    return f"{n / 1e6:7.1f}"


def report(label: str, runs: list[dict]) -> None:
    print(f"== {label}")
    med = lambda key: statistics.median([r[key] for r in runs if key in r])  # noqa: E731
    r0 = runs[0]
    print(f"  {r0['map']}, boot {r0['boot']}, devicePixelRatio {r0['dpr']}, camera {r0['camera']}")
    print(f"  peak RSS {mb(med('peak_rss'))} MB, private {mb(med('peak_private'))} MB; after the turn RSS "
          f"{mb(med('after_rss'))} MB; about:blank renderer RSS {mb(med('blank_rss'))} MB private {mb(med('blank_private'))} MB"
          f"   (runs: {[round(r['peak_rss'] / 1e6) for r in runs]})")
    if "zoom_rss" in r0:
        print(f"  peak RSS while zooming in and out across the range after the turn: {mb(med('zoom_rss'))} MB"
              f"   (runs: {[round(r['zoom_rss'] / 1e6) for r in runs]})")
        frames = sorted(f for r in runs for f in r.get("zoom_frames", []) if f is not None)
        if frames:
            print(f"  draw time of the frame after each notch: p50 {frames[len(frames) // 2]:.1f} ms, "
                  f"p95 {frames[int(0.95 * (len(frames) - 1))]:.1f} ms, worst {frames[-1]:.1f} ms (n={len(frames)})")
    print("  smaps at the peak (run 1), by mapping: RSS / private MB")
    for name, (rss, private) in sorted(r0["smaps"].items(), key=lambda kv: -kv[1][0])[:18]:
        print(f"    {mb(rss)} {mb(private)}  {name}")
    for name, h in r0.get("isolates", {}).items():
        print(f"  isolate {name:40s}: JS heap used {mb(h.get('usedSize', 0))} MB of {mb(h.get('totalSize', 0))};"
              f" ArrayBuffer backing stores {mb(h.get('backingStorageSize', 0))} MB; embedder heap {mb(h.get('embedderHeapUsedSize', 0))} MB")
    alloc = r0.get("allocators") or {}
    if os.environ.get("BENCH_DUMP"):
        Path(os.environ["BENCH_DUMP"]).write_text(json.dumps(alloc, indent=0, sort_keys=True))
    if alloc:
        print("  memory-infra after the turn (run 1), effective size MB:")
        top = {k: v for k, v in alloc.items() if "/" not in k}
        for name, size in sorted(top.items(), key=lambda kv: -kv[1]):
            if size >= 0.2e6:
                print(f"    {mb(size)}  {name}")
        print("  notable children:")
        for name, size in sorted(alloc.items(), key=lambda kv: -kv[1]):
            if "/" in name and size >= 1e6 and name.count("/") <= 3 and not name.startswith(("malloc/partitions", "tracing")):
                print(f"    {mb(size)}  {name}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default=None, help="also measure this git revision (interleaved)")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--phone", action="store_true", help="412×915, deviceScaleFactor 2.625, touch")
    ap.add_argument("--no-trace", action="store_true", help="no memory-infra dump")
    ap.add_argument("--zoom", action="store_true", help="after the turn, zoom in and out across the range with the mouse wheel")
    a = ap.parse_args()
    builds = ([bf.prepare_old(a.old)] if a.old else []) + [bf.prepare_new()]
    print(f"bench: load average {os.getloadavg()[0]:.1f}", flush=True)
    results = {b["label"]: [] for b in builds}
    for i in range(a.runs):
        for b in builds:
            r = one_run(b, a.phone, not a.no_trace, a.zoom)
            results[b["label"]].append(r)
            print(f"  {b['label']} run {i + 1}: peak RSS {r['peak_rss'] / 1e6:.0f} MB", flush=True)
    print(f"bench: load average {os.getloadavg()[0]:.1f} at the end")
    for b in builds:
        report(b["label"] + (" (phone DPR 2.625)" if a.phone else ""), results[b["label"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
