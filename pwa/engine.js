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

const DEFAULT_BOOT_TIMEOUT_MS = 30000;
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
      this._pending.set(id, { resolve, reject, op, onProgress });
      // Posting before "ready" is fine: the worker queues requests behind its boot.
      this.worker.postMessage({ id, op, args });
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
    if (message.type === "ready") {
      clearTimeout(this._bootTimer);
      this.booted = true;
      this.info = message;
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

  _die(error, { notify = true } = {}) {
    if (this.dead) return;
    this.dead = error;
    clearTimeout(this._bootTimer);
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
