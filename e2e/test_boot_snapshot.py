"""Warm start from a Pyodide memory snapshot (issue 5): the first boot stores one, a reload restores it,
and a damaged or outdated snapshot falls back to the normal boot with a working engine.

Runs against e2e/pages/boot.html (the real worker through the real page client, no UI). The worker keeps
the snapshot in IndexedDB (database "kaltfront-engine", store "snapshots", record "engine"); the page
shares the origin, so these tests read and damage that record with page script. Each test gets a fresh
browser context, i.e. empty storage: the first boot is always cold.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOT_PAGE = "e2e/pages/boot.html"

pytestmark = pytest.mark.e2e

# Same database, version and store as pwa/worker.js (openSnapshotDb), so whichever side opens it first
# creates the same schema.
IDB = """
const openDb = () => new Promise((resolve, reject) => {
  const request = indexedDB.open("kaltfront-engine", 1);
  request.onupgradeneeded = () => request.result.createObjectStore("snapshots");
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});
const run = async (mode, action) => {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction("snapshots", mode);
      const request = action(tx.objectStore("snapshots"));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
  } finally { db.close(); }
};
const sha256Hex = async (bytes) => Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
  (b) => b.toString(16).padStart(2, "0")).join("");
"""

RECORD_SUMMARY = "async () => {" + IDB + """
  const r = await run("readonly", (s) => s.get("engine"));
  if (!r) return null;
  return {key: r.key, bytes: r.bytes ? r.bytes.length : null, sha256: r.sha256 || null, failures: r.failures,
          intact: r.bytes ? (await sha256Hex(r.bytes)) === r.sha256 : null};
}"""

# Damage the stored record in place; `how` picks the kind of damage.
DAMAGE = "async (how) => {" + IDB + """
  const r = await run("readonly", (s) => s.get("engine"));
  if (how === "key") {
    r.key = r.key.replace(/[0-9a-f]{64}$/, "0".repeat(64));          // another stdlib archive (issue 14)
  } else if (how === "bytes") {
    const bytes = r.bytes.slice();                                   // flipped heap, stale hash
    for (let i = 1 << 20; i < bytes.length; i += 4096) bytes[i] ^= 0xff;
    r.bytes = bytes;
  } else if (how === "header") {
    const bytes = r.bytes.slice();                                   // bad magic, hash matches
    bytes.fill(0x55, 0, 64);
    r.bytes = bytes; r.sha256 = await sha256Hex(bytes);
  } else if (how === "truncated") {
    r.bytes = r.bytes.slice(0, 1 << 20);                             // 1 MB left, hash matches
    r.sha256 = await sha256Hex(r.bytes);
  } else if (how === "heap") {
    const bytes = r.bytes.slice();                                   // zeroed heap, hash matches
    bytes.fill(0, 1 << 20);
    r.bytes = bytes; r.sha256 = await sha256Hex(bytes);
  } else {
    throw new Error("unknown damage " + how);
  }
  await run("readwrite", (s) => s.put(r, "engine"));
}"""

PLAY = """async () => {
  const k = window.kaltfront;
  const version = await k.call('version', {});
  const scenarios = await k.call('scenarios', {});
  const started = await k.call('new_game', {scenario: scenarios[0].id, seed: 7, fog: true,
                                            players: {nordbund: 'human', liga: 'human'}});
  const side = started.observation.side;
  const seen = await k.call('observe', {side});
  const applied = await k.call('apply', {action: {type: 'end_phase'}});
  const illegal = await k.call('apply', {action: {type: 'move', unit: 'gibt-es-nicht', to: [0, 0]}})
    .then(() => null, (e) => e.kind);
  return {version, side, phase: seen.observation.phase, units: seen.observation.units.length, started_phase: started.observation.phase,
          after: applied.observation.phase, after_side: applied.observation.side, illegal};
}"""


def build_info() -> dict:
    return json.loads((ROOT / "vendor" / "build-info.json").read_text())


def boot(page, wait_for_engine, *, reload: bool = False, base_url: str | None = None) -> dict:
    if reload:
        page.reload()
    else:
        page.goto(base_url + BOOT_PAGE)
    return wait_for_engine(page)["info"]


def wait_for_snapshot(page, timeout_s: float = 60.0) -> dict:
    """Poll IndexedDB until a snapshot with bytes is stored; the worker stores it after `ready`."""
    deadline = time.monotonic() + timeout_s
    while True:
        stored = page.evaluate(RECORD_SUMMARY)
        if stored and stored["bytes"]:
            return stored
        if time.monotonic() > deadline:
            pytest.fail(f"no snapshot stored within {timeout_s:.0f} s (record: {stored})")
        page.wait_for_timeout(250)


def assert_plays(page) -> dict:
    out = page.evaluate(PLAY)
    assert out["version"]["engine"] == "kaltfront"
    assert out["version"]["version"] == build_info()["kaltfront_version"]
    assert out["units"] > 0
    assert (out["after"], out["after_side"]) != (out["started_phase"], out["side"]), out
    assert out["illegal"] in ("illegal", "bad_request"), out
    return out


def test_cold_boot_stores_a_snapshot_and_a_reload_restores_it(page, base_url, wait_for_engine, record_property):
    info = boot(page, wait_for_engine, base_url=base_url)
    assert info["boot"] == "normal"
    assert info["snapshot"] == "none"
    assert set(info["timings"]) == {"pyodideMs", "wheelMs", "bridgeMs"}

    stored = wait_for_snapshot(page)
    build = build_info()
    # Issue 14: the key names the cut standard library too, so a new archive means a new snapshot.
    assert stored["key"] == (
        f"kaltfront-snapshot/1/pyodide-{build['pyodide_version']}/{build['wheel_sha256']}/{build['stdlib_sha256']}"
    )
    assert stored["bytes"] > 10_000_000
    assert stored["intact"] is True
    assert stored["failures"] == 0

    warm = boot(page, wait_for_engine, reload=True)
    assert warm["boot"] == "snapshot", warm
    assert warm["snapshot"] == "restored"
    assert warm["version"]["engine"] == "kaltfront"
    assert warm["version"]["python"].startswith("3.14.")
    assert set(warm["timings"]) == {"restoreMs", "wheelMs", "bridgeMs"}
    assert_plays(page)
    # The maps are read lazily from the wheel's files, which the restore unpacked again: every scenario
    # starts (a FileNotFoundError here would mean the file system was not restored).
    ids = page.evaluate("() => kaltfront.call('scenarios', {}).then(s => s.map(x => x.id))")
    for scenario in ids:
        page.evaluate(
            "(id) => kaltfront.call('new_game', {scenario: id, seed: 1, fog: false,"
            " players: {nordbund: 'human', liga: 'human'}})",
            scenario,
        )
    # A snapshot that worked stays, unchanged, for the next start.
    assert page.evaluate(RECORD_SUMMARY) == stored
    record_property("cold_boot_ms", info["bootMs"])
    record_property("warm_boot_ms", warm["bootMs"])


def test_snapshot_state_is_the_fresh_engine(page, base_url, wait_for_engine):
    """The snapshot is taken before the page's first request: a game started on the cold boot is not in it."""
    boot(page, wait_for_engine, base_url=base_url)
    assert_plays(page)  # a game exists in the cold worker before the snapshot is even stored
    wait_for_snapshot(page)
    info = boot(page, wait_for_engine, reload=True)
    assert info["boot"] == "snapshot"
    error = page.evaluate("() => kaltfront.call('observe', {side: 'nordbund'}).then(() => null, (e) => e.kind)")
    assert error is not None, "the restored engine must not carry the cold boot's game"


@pytest.mark.parametrize("how", ["bytes", "header", "truncated", "heap"])
def test_damaged_snapshot_falls_back_to_a_normal_boot(page, base_url, wait_for_engine, how):
    boot(page, wait_for_engine, base_url=base_url)
    wait_for_snapshot(page)
    page.evaluate(DAMAGE, how)

    info = boot(page, wait_for_engine, reload=True)
    assert info["boot"] == "normal", info
    assert info["snapshot"].startswith("failed: "), info
    assert_plays(page)
    # The damaged bytes are gone; the fallback boot made a fresh snapshot that counts the failure.
    stored = wait_for_snapshot(page)
    assert stored["intact"] is True
    assert stored["failures"] == 1

    # ... and that fresh snapshot works.
    info = boot(page, wait_for_engine, reload=True)
    assert info["boot"] == "snapshot", info
    assert_plays(page)


def test_snapshot_of_another_wheel_is_discarded(page, base_url, wait_for_engine):
    boot(page, wait_for_engine, base_url=base_url)
    wait_for_snapshot(page)
    page.evaluate(DAMAGE, "key")

    info = boot(page, wait_for_engine, reload=True)
    assert info["boot"] == "normal", info
    assert info["snapshot"] == "stale"
    assert_plays(page)
    stored = wait_for_snapshot(page)
    assert stored["key"].endswith(f"{build_info()['wheel_sha256']}/{build_info()['stdlib_sha256']}")
    assert stored["failures"] == 0


def test_a_key_that_keeps_failing_is_not_snapshotted_again(page, base_url, wait_for_engine):
    """Two failed restores of one version: the worker stops making snapshots for it (boots stay normal)."""
    boot(page, wait_for_engine, base_url=base_url)
    for _ in range(2):
        wait_for_snapshot(page)
        page.evaluate(DAMAGE, "header")
        info = boot(page, wait_for_engine, reload=True)
        assert info["boot"] == "normal"
    page.wait_for_timeout(1500)
    stored = page.evaluate(RECORD_SUMMARY)
    assert stored["bytes"] is None and stored["failures"] == 2
    info = boot(page, wait_for_engine, reload=True)
    assert info["boot"] == "normal"
    assert info["snapshot"] == "disabled after 2 failures"
    assert_plays(page)


def test_hanging_snapshot_restore_times_out_into_a_normal_boot(page, base_url, wait_for_engine):
    """A restore that never finishes (here: the wheel request of the warm boot hangs) is abandoned after
    the worker's deadline and the normal boot answers."""
    boot(page, wait_for_engine, base_url=base_url)
    wait_for_snapshot(page)
    build = build_info()
    held = []

    def hold_first(route):
        if not held:
            held.append(route)  # never answered: the first wheel request of the warm boot hangs
        else:
            route.continue_()

    page.context.route("**/vendor/" + build["wheel"], hold_first)
    info = boot(page, wait_for_engine, reload=True)
    assert info["boot"] == "normal", info
    assert "keine Antwort" in info["snapshot"], info
    assert_plays(page)
