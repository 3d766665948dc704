// The engine worker: boots Pyodide from this app's own origin, installs the kaltfront wheel and
// answers the page's questions through kaltfront.bridge. A module worker, because Pyodide 314 refuses
// classic workers. All rules live in Python; this file only moves JSON across the thread boundary.
//
// Protocol (page -> worker), one message per request:
//   {id, op, args}              op is a bridge op from docs/api.md ("version", "observe", "apply", ...)
//                               or the worker-only ops "ai_turn" (below) and "memory" ({wasmHeapBytes}:
//                               the size of Pyodide's WebAssembly memory, for benches). id is chosen by
//                               the page.
// Protocol (worker -> page):
//   {type: "ready", boot, bootMs, timings, version: {...}, build: {...}, snapshot}
//                               once, when Python answers; version is the bridge's "version" result.
//                               boot: "snapshot" (restored from a stored memory snapshot, timings
//                               {restoreMs, wheelMs, bridgeMs}) or "normal" (timings {pyodideMs,
//                               wheelMs, bridgeMs}); bootMs: worker start until the engine answered.
//                               snapshot: why (not) restored: "restored", "none", "stale" (another
//                               version's snapshot, deleted), "failed: <reason>", "disabled after n
//                               failures", "unavailable", "storage: <error>". See "Warm start" below.
//                               phases, timeOrigin: where the boot's time went (see `mark` below).
//   {type: "snapshot-stored", bytes, makeMs, storeMs}
//                               after a normal boot, once the new snapshot is in IndexedDB (pages may
//                               ignore it; pwa/engine.js does).
//   {type: "boot-error", message}   once, instead of "ready", if the boot failed (German message).
//   {id, reply}                 the bridge's reply, parsed: {ok: true, result} or
//                               {ok: false, error: {kind, message}}. Exactly one per request.
//   {id, progress}              zero or more before the reply, only for streaming ops.
//   {type: "beat"}              a sign of life: the answer to the page's {type: "ping"} (answered as
//                               soon as the worker is free), and after every step of "ai_turn", so the
//                               page's deadlines (pwa/engine.js) measure one step, not a whole turn.
// Requests are handled one at a time in arrival order (the game state is one Python object; two
// interleaved calls could see it half-changed). Requests sent during boot wait for it.
//
// Streaming: "ai_turn" {strength?} plays the computer's whole turn by calling the bridge's "ai_step"
// until a step's result has done: true (the side to act changed or the game ended; the computer's
// players and strengths were fixed by "new_game"/"load"). Every step that did something (it has an
// "action": {action, events, done, observation, ...}) is posted as {id, progress: <step result>},
// the last one included, so the page can animate the moves while Python is still thinking. The final
// reply is {ok: true, result: {...the last step's result, steps: n}} or the first error, in which
// case the steps already streamed stay applied. Any other op is a plain request/reply.

import { loadPyodide, version as PYODIDE_VERSION } from "../vendor/pyodide/pyodide.mjs";

// Pyodide resolves a lockfile's relative file_name with `new URL(file_name, packageBaseUrl)`, and
// packageBaseUrl defaults to the lockfile URL's folder *as given*: a relative lockFileURL breaks
// loadPackage ("Invalid base URL"). So every URL handed to Pyodide is made absolute here.
const VENDOR = new URL("../vendor/", import.meta.url);
// Issue 14: the runtime's big files sit in a folder named by their hash and the standard library is
// the game's own cut archive; vendor/build-info.json names both (tools/build_site.py). Without it,
// Pyodide's own layout in vendor/pyodide/ is tried (which a current build no longer ships).
function runtimeUrls(info) {
  if (!info || !info.runtime_dir || !info.stdlib) return { indexURL: new URL("pyodide/", VENDOR).href };
  return { indexURL: new URL(info.runtime_dir, VENDOR).href, stdLibURL: new URL(info.stdlib, VENDOR).href };
}
const LOCKFILE_URL = new URL("pyodide-lock.json", VENDOR).href;
const BUILD_INFO_URL = new URL("build-info.json", VENDOR).href;
const MAX_AI_STEPS = 5000;

// The worker runs under the Content-Security-Policy sent with this script (issue 12.7); a violation
// here would otherwise be silent, so it goes to the page, which logs it (pwa/engine.js).
self.addEventListener("securitypolicyviolation", (event) => {
  self.postMessage({ type: "csp-violation", directive: event.effectiveDirective, blocked: event.blockedURI });
});

let bridge = null;
let runtime = null; // the live pyodide, for the "memory" op
let queue = null; // promise chain that serialises requests; starts with the boot

// Where the boot's time goes (issue 14), in ms since this worker's performance.timeOrigin, posted with
// "ready" as `phases` together with `timeOrigin` so a page or a bench can line them up with its own
// clock. Names: info (build-info.json read), stored (IndexedDB answered), runtime (loadPyodide done),
// wheel (engine files unpacked), engine (kaltfront imported and `version` answered).
const phases = {};
const mark = (name) => { phases[name] = Math.round(performance.now()); };

// Boot progress (issue 11.5): count the bytes of every response fetched during the boot by reading a
// clone of its body (the original stays untouched, with its URL, for Pyodide's streaming compile), and
// post {type: "boot-progress", loaded} at most every 100 ms. Restored to the plain fetch after the boot.
// A warm start (from the memory snapshot) does not count: its files come from the offline cache in well
// under a second, and reading a clone of each body left ~20 MB of copies (the wasm, the standard library)
// in this worker until its rarely running collector got to them (issue 14: memory, measured).
const plainFetch = self.fetch;
let countBodies = true;
let bootLoaded = 0;
let progressPosted = 0;
function postBootProgress(force = false) {
  const now = performance.now();
  if (!force && now - progressPosted < 100) return;
  progressPosted = now;
  post({ type: "boot-progress", loaded: bootLoaded });
}
// On a first visit the downloads share one slow link, so the order matters (issue 14): Python can only
// start once the wasm and the standard library are in, while the wheel is needed only after that. So the
// cold boot fetches the wheel when those two bodies have arrived (`runtimeArrived`), and it downloads
// while Python starts instead of slowing the runtime's download down.
let runtimePending = 0;
let runtimeSeen = 0;
let runtimeArrivedResolve;
const runtimeArrived = new Promise((resolve) => { runtimeArrivedResolve = resolve; });
const isRuntimeBody = (url) => /\.wasm$|\/python_stdlib[^/]*\.zip$/.test(url.split("?")[0]);
self.fetch = function countingFetch(...args) {
  const url = String(args[0] instanceof Request ? args[0].url : args[0]);
  return plainFetch.apply(self, args).then((response) => {
    if (countBodies && response.ok && response.body) {
      const runtimeBody = isRuntimeBody(url);
      if (runtimeBody) { runtimePending += 1; runtimeSeen += 1; }
      const arrived = () => {
        if (!runtimeBody) return;
        runtimePending -= 1;
        if (runtimePending === 0 && runtimeSeen >= 2) runtimeArrivedResolve();
      };
      const reader = response.clone().body.getReader();
      const pump = () => reader.read().then(({ done, value }) => {
        if (done) {
          arrived();
          return postBootProgress(true);
        }
        bootLoaded += value.byteLength;
        postBootProgress();
        return pump();
      });
      pump().catch(() => runtimeArrivedResolve());
    }
    return response;
  });
};

function post(message) {
  self.postMessage(message);
}

function callBridge(op, args) {
  return callBridgeOf(bridge, op, args);
}

function callBridgeOf(target, op, args) {
  const text = target.handle(JSON.stringify({ op, args: args ?? {} }));
  return JSON.parse(text);
}

function internalError(err) {
  // A Python exception that escaped the bridge is an engine bug, not an illegal move: say so,
  // and keep the whole traceback in the console for whoever debugs it.
  console.error(err);
  const message = lastLine(err && err.message ? err.message : err);
  return { ok: false, error: { kind: "internal", message: `Interner Fehler der Spiel-Engine: ${message}` } };
}

function lastLine(text) {
  const lines = String(text).trim().split("\n");
  return lines[lines.length - 1];
}

function runAiTurn(id, args) {
  let steps = 0;
  // A bound, so a bridge that never says "done" cannot spin the worker forever (60 units with a few
  // actions each stay far below it).
  for (let calls = 0; calls < MAX_AI_STEPS; calls++) {
    const step = callBridge("ai_step", args);
    if (!step.ok) return step;
    const result = step.result ?? {};
    post({ type: "beat" });
    if ("action" in result) {
      steps += 1;
      post({ id, progress: result });
    }
    if (result.done === true) return { ok: true, result: { ...result, steps } };
  }
  return { ok: false, error: { kind: "internal", message: `Der Computerzug endete nicht nach ${MAX_AI_STEPS} Schritten.` } };
}

// Worker-only op "memory" (issue 14, bench/bench_firstvisit.py): the size of Pyodide's WebAssembly
// memory (HEAP8.buffer.byteLength; it only ever grows, so it is also the peak so far).
function memoryReport() {
  const heap = runtime && runtime._module && runtime._module.HEAP8;
  return { ok: true, result: { wasmHeapBytes: heap ? heap.buffer.byteLength : null } };
}

/**
 * Free the bytes behind `view` (a typed array or an ArrayBuffer) now, instead of whenever nothing refers
 * to it any more and this worker's collector runs (rarely: its JS heap is small). The buffer is
 * transferred into a message that is never delivered. Detaching it with `transfer(0)` was not enough
 * (issue 14, measured): once the bytes had been handed to a browser API (crypto.subtle.digest), the
 * browser's own handle on them kept the 31 MB alive for as long as the view was reachable, and Pyodide's
 * config keeps the snapshot's view for good.
 */
function release(view) {
  const buffer = view instanceof ArrayBuffer ? view : view && view.buffer;
  if (!buffer || buffer.byteLength === 0) return;
  try {
    const channel = new MessageChannel();
    channel.port1.postMessage(null, [buffer]);
    channel.port1.close();
    channel.port2.close();
  } catch {
    // a buffer that cannot be transferred (e.g. a wasm memory) is simply left to the collector
  }
}

function handleRequest(request) {
  // Whatever arrives, exactly one reply for a request with an id, and nothing thrown: a throw here
  // would reject the queue and leave every later request unanswered (issue 12.2).
  const id = request && typeof request === "object" ? request.id : undefined;
  let reply;
  try {
    if (!request || typeof request !== "object" || typeof request.op !== "string") {
      reply = { ok: false, error: { kind: "bad_request", message: "Ungültige Anfrage an die Spiel-Engine (keine Operation)." } };
    } else {
      reply = request.op === "ai_turn" ? runAiTurn(id, request.args)
        : request.op === "memory" ? memoryReport()
        : callBridge(request.op, request.args);
    }
  } catch (err) {
    reply = internalError(err);
  }
  if (id === undefined) return;
  try {
    post({ id, reply });
  } catch (err) {
    post({ id, reply: internalError(err) });
  }
}

async function normalBoot(info) {
  const t0 = performance.now();
  const pyodide = await loadPyodide({
    ...runtimeUrls(info),
    lockFileURL: LOCKFILE_URL,
    // Python's print() goes to the worker console, useful while debugging the engine.
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  });
  const t1 = performance.now();

  const packageErrors = [];
  await pyodide.loadPackage("kaltfront", {
    messageCallback: () => {},
    errorCallback: (line) => packageErrors.push(line),
  });
  const t2 = performance.now();
  let candidate;
  try {
    candidate = pyodide.pyimport("kaltfront.bridge");
  } catch (err) {
    // loadPackage reports a failed download or integrity check through errorCallback and resolves
    // anyway, so the import is where it surfaces; show both.
    // A Python traceback is long; its last line names the problem.
    const detail = packageErrors.length ? packageErrors.join(" ") : lastLine(err.message);
    throw new Error(`Das Paket kaltfront konnte nicht geladen werden: ${detail}`);
  }
  const version = callBridgeOf(candidate, "version", {});
  const t3 = performance.now();
  if (!version.ok) throw new Error(version.error.message);

  return {
    pyodide,
    bridge: candidate,
    version,
    bootMs: Math.round(t3 - t0),
    timings: { pyodideMs: Math.round(t1 - t0), wheelMs: Math.round(t2 - t1), bridgeMs: Math.round(t3 - t2) },
  };
}

// --- Warm start from a memory snapshot (docs/ui.md, "Warm start"). ---------------------------------
// Pyodide's memory snapshot (the private `_makeSnapshot` / `_loadSnapshot` options of loadPyodide and
// `makeMemorySnapshot()`, Pyodide 314.0.7) restores the Python heap with kaltfront already imported.
// It is a private API, so every step of it is optional:
//   cold   no usable snapshot stored: boot with `_makeSnapshot: true`, install the wheel by hand
//          (fetch, sha256 against the lockfile, unpackArchive: `loadPackage` leaves JS references in
//          Python that makeMemorySnapshot refuses), import the engine, answer `version`, post
//          `ready`, and only then take the snapshot and store it in IndexedDB. If anything in this
//          variant fails, the normal boot (normalBoot above, unchanged) runs instead.
//   warm   a stored snapshot whose key matches (format, Pyodide version, wheel sha256 from
//          vendor/build-info.json) and whose own sha256 is intact: restore it, unpack the checked wheel
//          again (the snapshot keeps the heap, not the file system: maps are read lazily), and check
//          that the engine answers `version` with the build's version. ANY error, or no answer within
//          SNAPSHOT_TIMEOUT_MS, discards the stored snapshot and runs the normal boot.
// A key that fails MAX_SNAPSHOT_FAILURES times is not snapshotted again (a marker record remembers
// it), so a browser where restoring never works pays for one failed attempt, not one per start.
// IndexedDB rather than Cache Storage: the service worker owns Cache Storage (one cache per version).
const SNAPSHOT_FORMAT = 1;
const SNAPSHOT_DB = "kaltfront-engine";
const SNAPSHOT_STORE = "snapshots";
const SNAPSHOT_RECORD = "engine";
const SNAPSHOT_TIMEOUT_MS = 10000;
const STORAGE_TIMEOUT_MS = 3000;
const MAX_SNAPSHOT_FAILURES = 2;
// What the snapshot holds besides the interpreter: the engine's modules, imported once.
const IMPORT_ENGINE = `
import kaltfront.bridge, kaltfront.game
try:
    import kaltfront.ai
except ImportError:
    pass
`;

function snapshotKey(info) {
  // The heap holds the imported standard library too: a new cut archive needs a new snapshot.
  return `kaltfront-snapshot/${SNAPSHOT_FORMAT}/pyodide-${PYODIDE_VERSION}/${info.wheel_sha256}/${info.stdlib_sha256 || "full"}`;
}

function withTimeout(promise, ms, what) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: keine Antwort nach ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function openSnapshotDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(SNAPSHOT_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(SNAPSHOT_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("IndexedDB blockiert"));
  });
}

async function snapshotStore(mode, action) {
  const db = await openSnapshotDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(SNAPSHOT_STORE, mode);
      const request = action(tx.objectStore(SNAPSHOT_STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = tx.onabort = () => reject(tx.error || new Error("IndexedDB-Transaktion abgebrochen"));
    });
  } finally {
    db.close();
  }
}

const readSnapshot = () => snapshotStore("readonly", (store) => store.get(SNAPSHOT_RECORD));
const writeSnapshot = (record) => snapshotStore("readwrite", (store) => store.put(record, SNAPSHOT_RECORD));
const deleteSnapshot = () => snapshotStore("readwrite", (store) => store.delete(SNAPSHOT_RECORD));

async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The wheel's bytes, checked against `sha256` (the lockfile's and build-info's, which agree). */
async function fetchCheckedWheel(info, expected) {
  const response = await fetch(new URL(info.wheel, VENDOR).href);
  if (!response.ok) throw new Error(`Das Paket kaltfront konnte nicht geladen werden: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  const actual = await sha256Hex(bytes);
  if (actual !== expected || actual !== info.wheel_sha256) {
    throw new Error(`Das Paket kaltfront konnte nicht geladen werden: sha256 ${actual.slice(0, 12)}… passt nicht`);
  }
  return bytes;
}

/** Cold boot that can be snapshotted afterwards; returns the live pyodide for makeMemorySnapshot. */
async function snapshotReadyBoot(info) {
  const t0 = performance.now();
  const loading = loadPyodide({
    ...runtimeUrls(info),
    lockFileURL: LOCKFILE_URL,
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
    _makeSnapshot: true,
  });
  // After the runtime's big files (see runtimeArrived), or when loadPyodide is done, whichever is first.
  const wheel = Promise.race([runtimeArrived, loading.catch(() => {})]).then(() => fetchCheckedWheel(info, info.wheel_sha256));
  wheel.catch(() => {});
  const pyodide = await loading;
  const t1 = performance.now();
  mark("runtime");
  if (pyodide.lockfile?.packages?.kaltfront?.sha256 !== info.wheel_sha256) {
    throw new Error("Lockfile und build-info.json nennen verschiedene Pakete");
  }
  const wheelBytes = await wheel;
  pyodide.unpackArchive(wheelBytes, "wheel");
  release(wheelBytes); // unpacked into Pyodide's file system (issue 14: memory)
  const t2 = performance.now();
  mark("wheel");
  pyodide.runPython(IMPORT_ENGINE);
  const candidate = pyodide.pyimport("kaltfront.bridge");
  const version = callBridgeOf(candidate, "version", {});
  const t3 = performance.now();
  mark("engine");
  if (!version.ok) throw new Error(version.error.message);
  return {
    pyodide,
    bridge: candidate,
    version,
    timings: { pyodideMs: Math.round(t1 - t0), wheelMs: Math.round(t2 - t1), bridgeMs: Math.round(t3 - t2) },
  };
}

/** Warm boot from a stored snapshot; throws on anything unexpected. */
async function snapshotBoot(record, info) {
  const t0 = performance.now();
  const wheel = fetchCheckedWheel(info, info.wheel_sha256);
  wheel.catch(() => {});
  // The snapshot's own hash: a damaged record must never reach the interpreter (a garbage heap could
  // spin in WebAssembly where no timeout reaches it).
  const snapshot = sha256Hex(record.bytes).then((hash) => {
    if (hash !== record.sha256) throw new Error("Speicherabbild beschädigt (sha256)");
    return record.bytes;
  });
  snapshot.catch(() => {});
  const pyodide = await loadPyodide({
    ...runtimeUrls(info),
    lockFileURL: LOCKFILE_URL,
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
    _loadSnapshot: snapshot,
  });
  const t1 = performance.now();
  mark("runtime");
  // The heap now holds a copy; Pyodide's config keeps a reference to the 30 MB record for good, so
  // its bytes are freed here (issue 14: memory).
  release(record.bytes);
  if (pyodide.lockfile?.packages?.kaltfront?.sha256 !== info.wheel_sha256) {
    throw new Error("Lockfile und build-info.json nennen verschiedene Pakete");
  }
  const wheelBytes = await wheel;
  pyodide.unpackArchive(wheelBytes, "wheel");
  release(wheelBytes); // unpacked into Pyodide's file system (issue 14: memory)
  const t2 = performance.now();
  mark("wheel");
  const candidate = pyodide.pyimport("kaltfront.bridge");
  const version = callBridgeOf(candidate, "version", {});
  const t3 = performance.now();
  mark("engine");
  if (!version.ok) throw new Error(version.error.message);
  if (version.result.engine !== "kaltfront" || version.result.version !== info.kaltfront_version) {
    throw new Error(`Speicherabbild meldet ${JSON.stringify(version.result)}`);
  }
  return {
    pyodide,
    bridge: candidate,
    version,
    timings: { restoreMs: Math.round(t1 - t0), wheelMs: Math.round(t2 - t1), bridgeMs: Math.round(t3 - t2) },
  };
}

/** Store a snapshot taken by makeMemorySnapshot; never throws (the engine runs either way). */
async function storeSnapshot(bytes, key, makeMs, failures) {
  try {
    const t0 = performance.now();
    const sha256 = await sha256Hex(bytes);
    await withTimeout(
      writeSnapshot({ key, bytes, sha256, failures, made: new Date().toISOString() }),
      30000,
      "IndexedDB",
    );
    const storeMs = Math.round(performance.now() - t0);
    console.info(`Kaltfront: Speicherabbild gespeichert (${(bytes.length / 1e6).toFixed(1)} MB, ${makeMs} + ${storeMs} ms)`);
    post({ type: "snapshot-stored", bytes: bytes.length, makeMs, storeMs });
  } catch (err) {
    console.warn("Kaltfront: kein Speicherabbild gespeichert:", err);
  } finally {
    release(bytes); // IndexedDB keeps its own copy
  }
}

async function boot() {
  const t0 = performance.now();
  // build-info.json and the stored snapshot are read at the same time (issue 14: no serial round trip
  // before the runtime's download starts); the record's key is compared once both are there.
  const reading = typeof indexedDB !== "undefined"
    ? withTimeout(readSnapshot(), STORAGE_TIMEOUT_MS, "IndexedDB").then((record) => ({ record }), (error) => ({ error }))
    : null;
  let info = null;
  try {
    info = await (await fetch(BUILD_INFO_URL)).json();
    mark("info");
  } catch {
    // Informational for the normal boot (the wheel is integrity-checked against the lockfile); without
    // it there is no snapshot key, so no snapshot either way.
  }
  const key = info && info.wheel_sha256 && info.wheel ? snapshotKey(info) : null;
  const storage = key !== null && reading !== null;

  let stored = null;
  let note = storage ? "none" : "unavailable";
  if (storage) {
    const { record, error } = await reading;
    if (error) note = `storage: ${error && error.message ? error.message : error}`;
    else stored = record ?? null;
    mark("stored");
  }

  let result = null;
  let path = "normal";
  let failures = 0;
  if (stored && stored.key === key) {
    failures = stored.failures || 0;
    if (stored.bytes) {
      try {
        countBodies = false;
        post({ type: "boot-progress", loaded: info.fetch_bytes || 0 }); // fetched before: the caches answer
        result = await withTimeout(snapshotBoot(stored, info), SNAPSHOT_TIMEOUT_MS, "Speicherabbild");
        path = "snapshot";
        note = "restored";
      } catch (err) {
        console.warn("Kaltfront: Start aus dem Speicherabbild fehlgeschlagen, normaler Start:", err);
        note = `failed: ${err && err.message ? lastLine(err.message) : err}`;
        failures += 1;
        // Keep only a marker: the bytes are discarded either way.
        await withTimeout(writeSnapshot({ key, bytes: null, failures }), STORAGE_TIMEOUT_MS, "IndexedDB").catch(
          () => deleteSnapshot().catch(() => {}),
        );
      }
    } else {
      note = `disabled after ${failures} failures`;
    }
  } else if (stored) {
    note = "stale";
    await withTimeout(deleteSnapshot(), STORAGE_TIMEOUT_MS, "IndexedDB").catch(() => {});
  }
  stored = null; // the 30 MB record is not needed any more

  countBodies = true; // a cold start (or one after a failed restore) shows its download
  let snapshotFrom = null;
  if (!result && storage && failures < MAX_SNAPSHOT_FAILURES) {
    try {
      result = await snapshotReadyBoot(info);
      snapshotFrom = result.pyodide;
    } catch (err) {
      console.warn("Kaltfront: Start mit Speicherabbild-Option fehlgeschlagen, normaler Start:", err);
      result = null;
    }
  }
  if (!result) result = await normalBoot(info);

  bridge = result.bridge;
  runtime = result.pyodide;
  post({
    type: "ready",
    boot: path,
    bootMs: Math.round(performance.now() - t0),
    timings: result.timings,
    version: result.version.result,
    build: info,
    snapshot: note,
    phases,
    timeOrigin: performance.timeOrigin,
  });
  // After "ready", before the first request: the heap is exactly the freshly booted engine. Requests
  // that arrive meanwhile wait for makeMemorySnapshot only (tens of ms); storing it is asynchronous.
  if (snapshotFrom) {
    try {
      const t1 = performance.now();
      const bytes = snapshotFrom.makeMemorySnapshot();
      storeSnapshot(bytes, key, Math.round(performance.now() - t1), failures);
    } catch (err) {
      console.warn("Kaltfront: makeMemorySnapshot fehlgeschlagen:", err);
    }
  }
}
queue = boot().finally(() => { self.fetch = plainFetch; }).then(
  () => true,
  (err) => {
    post({ type: "boot-error", message: err && err.message ? err.message : String(err) });
    return false;
  },
);

self.onmessage = (event) => {
  const request = event.data;
  if (request && request.type === "ping") {
    post({ type: "beat" }); // heartbeat: answered outside the queue, as soon as the worker is free
    return;
  }
  queue = queue.then((booted) => {
    try {
      if (booted) {
        handleRequest(request);
      } else {
        post({
          id: request && request.id,
          reply: { ok: false, error: { kind: "boot", message: "Die Spiel-Engine wurde nicht gestartet." } },
        });
      }
    } catch (err) {
      console.error(err); // never reached in practice: handleRequest catches; the queue must survive
    }
    return booted;
  });
};
