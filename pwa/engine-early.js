// engine-early.js — starts the engine worker as soon as this small module has loaded (issue 14), not
// after the whole shell (pwa/app.js and its ~25 modules) has been fetched and run: on a first visit over
// a 40 ms link that module graph costs several round trips, on a warm start ~0.2 s, and the worker's
// runtime download and Pyodide's start are the long pole either way. index.html loads this module with
// `async` before app.js; app.js takes the engine over with takeEarlyEngine() (or starts its own if this
// one could not be created).

import { Engine } from "./engine.js";

// The same deadline pwa/app.js gives its engine (BOOT_TIMEOUT_MS): a slow phone link needs it.
const EARLY_BOOT_TIMEOUT_MS = 60000;

let early = null;
try {
  early = new Engine({ bootTimeoutMs: EARLY_BOOT_TIMEOUT_MS });
} catch (err) {
  console.warn("Kaltfront: früher Start der Spiel-Engine fehlgeschlagen, die App startet sie selbst:", err);
}

/** The engine started at page load, once (later calls get null: one page, one engine). */
export function takeEarlyEngine() {
  const engine = early;
  early = null;
  return engine;
}
