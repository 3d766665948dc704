// The page's handle on the rules engine: starts pwa/worker.js (Pyodide + kaltfront in a module
// worker, so the page never freezes) and turns its messages into Promises. The wire protocol is
// described at the top of pwa/worker.js; this module is the only page code that speaks it.
//
//   import { Engine } from "./pwa/engine.js";
//   const engine = new Engine();
//   engine.onProgress((progress, op) => animate(progress));   // e.g. each computer move of "ai_turn"
//   engine.onCrash((err) => showFatal(err.message));
//   const info = await engine.ready;          // {bootMs, timings, version, build}
//   const view = await engine.call("observe", {side: "nordbund"});
//
// call() resolves with the bridge's `result`, or rejects with an EngineError whose .kind is the
// bridge's error kind ("illegal", "save", "bad_request", ...) and whose .message is its German text.
// Kinds added here: "boot" (the engine did not start), "crash" (the worker died), "internal" (a
// Python exception escaped the bridge). Every message meant for the player is German.
//
// A worker can die without any "error" event (terminate(), or the browser killing it for memory), and
// then no reply ever comes (issue 12.2). So every call has a deadline, counted from the last sign of
// life of the worker (a reply, a streamed step, or a heartbeat "beat"): `deadlines.callMs` for plain
// calls, the longer `deadlines.aiMs` while the computer's turn ("ai_turn") is queued or running (the
// worker posts a beat after every AI step, so this bounds one step, not the turn). When nothing is
// pending the page pings the worker every `deadlines.heartbeatMs` and expects an answer within
// `deadlines.idleMs`. A missed deadline is handled like a crash: the worker is terminated, every
// pending call rejects with kind "crash", and the onCrash listeners run (the shell then offers to
// reload from the autosave). The fields of `engine.deadlines` may be changed at any time (tests do).

const DEFAULT_BOOT_TIMEOUT_MS = 30000;
export const DEFAULT_DEADLINES = Object.freeze({
  callMs: 30000, // one plain request, e.g. "legal_actions" on a big map on a slow phone: well below 1 s
  aiMs: 120000, // one step of the computer's turn (Schwer on the largest map: a few seconds)
  heartbeatMs: 3000,
  idleMs: 15000,
});
const NO_ANSWER = "Die Spiel-Engine antwortet nicht mehr";
const BOOT_FAILED = "Die Spiel-Engine konnte nicht gestartet werden";

export class EngineError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = "EngineError";
    this.kind = kind;
  }
}

export class Engine {
  /**
   * @param {object} [options]
   * @param {number} [options.bootTimeoutMs=30000]  Pyodide hangs rather than fails on some faults
   *        (a .wasm with the wrong MIME type), so the boot gets a deadline.
   * @param {URL|string} [options.workerUrl]  for tests; defaults to ./worker.js beside this module.
   */
  constructor({ bootTimeoutMs = DEFAULT_BOOT_TIMEOUT_MS, workerUrl } = {}) {
    this.info = null; // the worker's "ready" message once booted
    this.booted = false;
    this.dead = null; // EngineError once the worker cannot answer any more
    this._nextId = 1;
    this._pending = new Map(); // id -> {resolve, reject, op, onProgress}
    this._progressListeners = new Set();
    this._crashListeners = new Set();
    this._bootProgressListeners = new Set();
    this.deadlines = { ...DEFAULT_DEADLINES };
    this._lastHeard = 0; // performance.now() of the worker's last message
    this._heartbeat = null;

    this.ready = new Promise((resolve, reject) => {
      this._bootResolve = resolve;
      this._bootReject = reject;
    });
    // Avoid an "unhandled rejection" report when the page never awaits ready; callers still see it.
    this.ready.catch(() => {});

    const url = workerUrl ?? new URL("./worker.js", import.meta.url);
    this.worker = new Worker(url, { type: "module" });
    this.worker.addEventListener("message", (event) => this._onMessage(event.data));
    // "error" fires when the worker script cannot load (404, syntax error) or throws uncaught.
    this.worker.addEventListener("error", (event) => {
      event.preventDefault();
      const detail = event.message || "der Worker ist unerwartet beendet worden";
      this._die(
        this.booted
          ? new EngineError("crash", `Die Spiel-Engine ist abgestürzt: ${detail}`)
          : new EngineError("boot", `${BOOT_FAILED}: ${detail}`),
      );
    });
    this.worker.addEventListener("messageerror", () => {
      this._die(new EngineError("crash", "Die Spiel-Engine ist abgestürzt: unlesbare Nachricht"));
    });

    this._bootTimer = setTimeout(() => {
      if (!this.booted) {
        const seconds = Math.round(bootTimeoutMs / 1000);
        this._die(new EngineError("boot", `${BOOT_FAILED}: keine Antwort nach ${seconds} Sekunden.`));
      }
    }, bootTimeoutMs);
  }

  /** Ask the engine; resolves with the bridge's result. onProgress gets streamed steps of this call. */
  call(op, args = {}, { onProgress } = {}) {
    if (this.dead) return Promise.reject(this.dead);
    const id = this._nextId++;
    return new Promise((resolve, reject) => {
      // An idle worker's silence counts from now: the request is its new work.
      if (!this._pending.size) this._lastHeard = performance.now();
      this._pending.set(id, { resolve, reject, op, onProgress });
      try {
        // Posting before "ready" is fine: the worker queues requests behind its boot.
        this.worker.postMessage({ id, op, args });
      } catch (err) {
        // Arguments the browser cannot copy (a function, a DOM node): this call fails alone, and no
        // pending entry is left behind to trip the deadline later.
        this._pending.delete(id);
        reject(new EngineError("bad_request", `Die Anfrage an die Spiel-Engine ist ungültig: ${err && err.name ? err.name : err}`));
      }
    });
  }

  /** Listen to every streamed step (any call); returns a function that removes the listener. */
  onProgress(listener) {
    this._progressListeners.add(listener);
    return () => this._progressListeners.delete(listener);
  }

  /** Listen to the boot's download: listener({loaded}) with the bytes fetched so far (issue 11.5). */
  onBootProgress(listener) {
    this._bootProgressListeners.add(listener);
    return () => this._bootProgressListeners.delete(listener);
  }

  /** Listen for the worker dying after a successful boot (a boot failure rejects `ready` instead). */
  onCrash(listener) {
    this._crashListeners.add(listener);
    return () => this._crashListeners.delete(listener);
  }

  terminate() {
    this._die(new EngineError("crash", "Die Spiel-Engine wurde beendet."), { notify: false });
  }

  _onMessage(message) {
    this._lastHeard = performance.now();
    if (!message || typeof message !== "object") return;
    if (message.type === "beat") return; // a sign of life only
    if (message.type === "csp-violation") {
      // Reported by the worker: logged here, in the page console where players and tests look first.
      console.error(`Kaltfront: Content-Security-Policy verletzt im Engine-Worker: ${message.directive} ${message.blocked}`);
      return;
    }
    if (message.type === "ready") {
      clearTimeout(this._bootTimer);
      this.booted = true;
      this.info = message;
      this._startHeartbeat();
      this._bootResolve(message);
      return;
    }
    if (message.type === "boot-progress") {
      for (const listener of this._bootProgressListeners) listener({ loaded: message.loaded });
      return;
    }
    if (message.type === "boot-error") {
      this._die(new EngineError("boot", `${BOOT_FAILED}: ${message.message}`));
      return;
    }
    const pending = this._pending.get(message.id);
    if (!pending) return;
    if ("progress" in message) {
      if (pending.onProgress) pending.onProgress(message.progress, pending.op);
      for (const listener of this._progressListeners) listener(message.progress, pending.op);
      return;
    }
    this._pending.delete(message.id);
    const reply = message.reply;
    if (reply && reply.ok) {
      pending.resolve(reply.result);
    } else {
      const error = (reply && reply.error) || {};
      pending.reject(new EngineError(error.kind || "internal", error.message || "Unbekannter Fehler der Spiel-Engine."));
    }
  }

  _startHeartbeat() {
    this._lastHeard = this._lastCheck = performance.now();
    this._heartbeat = setInterval(() => this._checkAlive(), this.deadlines.heartbeatMs);
  }

  /** Called every heartbeat: ping an idle worker, and give up on one silent for longer than allowed. */
  _checkAlive() {
    if (this.dead) return;
    const now = performance.now();
    const gap = now - this._lastCheck;
    this._lastCheck = now;
    if (gap > 2 * this.deadlines.heartbeatMs) {
      // This page itself was asleep (a background tab's throttled timers, a frozen phone tab): the
      // worker's silence says nothing then. Start counting afresh instead of declaring it dead.
      this._lastHeard = Math.max(this._lastHeard, now);
      this._ping();
      return;
    }
    const silent = now - this._lastHeard;
    let allowed = this.deadlines.idleMs;
    if (this._pending.size) {
      const ai = [...this._pending.values()].some((p) => p.op === "ai_turn");
      allowed = ai ? this.deadlines.aiMs : this.deadlines.callMs;
    }
    if (silent > allowed) {
      const seconds = Math.round(silent / 1000);
      this._die(new EngineError("crash", `${NO_ANSWER} (seit ${seconds} Sekunden keine Antwort).`));
      return;
    }
    this._ping();
  }

  _ping() {
    // A busy worker answers the ping when its current request is done; that is fine.
    try {
      this.worker.postMessage({ type: "ping" });
    } catch {
      // a terminated worker does not throw here; nothing else can
    }
  }

  _die(error, { notify = true } = {}) {
    if (this.dead) return;
    this.dead = error;
    clearTimeout(this._bootTimer);
    clearInterval(this._heartbeat);
    this.worker.terminate();
    if (!this.booted) {
      this._bootReject(error);
    } else if (notify) {
      for (const listener of this._crashListeners) listener(error);
    }
    for (const pending of this._pending.values()) pending.reject(error);
    this._pending.clear();
  }
}
