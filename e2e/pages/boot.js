// Test-only boot page script (e2e/pages/boot.html): boots the real engine worker (pwa/worker.js)
// through the real page client (pwa/engine.js) and exposes window.kaltfront like the app does. A file
// rather than inline script, so the test page runs under the app's Content-Security-Policy (12.7).
import { Engine } from "../../pwa/engine.js";

// ?timeout=MS shortens the boot deadline, so the test of a hanging boot needs not wait 30 s.
const timeout = Number(new URLSearchParams(location.search).get("timeout")) || undefined;
const started = performance.now();
const engine = new Engine({ bootTimeoutMs: timeout });
const status = document.getElementById("status");
window.kaltfront = {
  ready: false,
  error: null,
  info: null,
  pageBootMs: null,
  call: (op, args) => engine.call(op, args),
  engine,
};
engine.ready.then(
  (info) => {
    Object.assign(window.kaltfront, { ready: true, info, pageBootMs: Math.round(performance.now() - started) });
    status.textContent = `Engine bereit (${info.bootMs} ms)`;
  },
  (err) => {
    window.kaltfront.error = { kind: err.kind, message: err.message };
    status.textContent = err.message;
  },
);
