// The engine worker: boots Pyodide from this app's own origin, installs the kaltfront wheel and
// answers the page's questions through kaltfront.bridge. A module worker, because Pyodide 314 refuses
// classic workers. All rules live in Python; this file only moves JSON across the thread boundary.
//
// Protocol (page -> worker), one message per request:
//   {id, op, args}              op is a bridge op from docs/api.md ("version", "observe", "apply", ...)
//                               or the worker-only op "ai_turn" (below). id is chosen by the page.
// Protocol (worker -> page):
//   {type: "ready", bootMs, timings: {pyodideMs, wheelMs, bridgeMs}, version: {...}, build: {...}}
//                               once, when Python answers; version is the bridge's "version" result.
//   {type: "boot-error", message}   once, instead of "ready", if the boot failed (German message).
//   {id, reply}                 the bridge's reply, parsed: {ok: true, result} or
//                               {ok: false, error: {kind, message}}. Exactly one per request.
//   {id, progress}              zero or more before the reply, only for streaming ops.
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

import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

// Pyodide resolves a lockfile's relative file_name with `new URL(file_name, packageBaseUrl)`, and
// packageBaseUrl defaults to the lockfile URL's folder *as given*: a relative lockFileURL breaks
// loadPackage ("Invalid base URL"). So every URL handed to Pyodide is made absolute here.
const VENDOR = new URL("../vendor/", import.meta.url);
const INDEX_URL = new URL("pyodide/", VENDOR).href;
const LOCKFILE_URL = new URL("pyodide-lock.json", VENDOR).href;
const BUILD_INFO_URL = new URL("build-info.json", VENDOR).href;
const MAX_AI_STEPS = 5000;

let bridge = null;
let queue = null; // promise chain that serialises requests; starts with the boot

function post(message) {
  self.postMessage(message);
}

function callBridge(op, args) {
  const text = bridge.handle(JSON.stringify({ op, args: args ?? {} }));
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
    if ("action" in result) {
      steps += 1;
      post({ id, progress: result });
    }
    if (result.done === true) return { ok: true, result: { ...result, steps } };
  }
  return { ok: false, error: { kind: "internal", message: `Der Computerzug endete nicht nach ${MAX_AI_STEPS} Schritten.` } };
}

function handleRequest({ id, op, args }) {
  let reply;
  try {
    reply = op === "ai_turn" ? runAiTurn(id, args) : callBridge(op, args);
  } catch (err) {
    reply = internalError(err);
  }
  post({ id, reply });
}

async function boot() {
  const t0 = performance.now();
  const pyodide = await loadPyodide({
    indexURL: INDEX_URL,
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
  try {
    bridge = pyodide.pyimport("kaltfront.bridge");
  } catch (err) {
    // loadPackage reports a failed download or integrity check through errorCallback and resolves
    // anyway, so the import is where it surfaces; show both.
    // A Python traceback is long; its last line names the problem.
    const detail = packageErrors.length ? packageErrors.join(" ") : lastLine(err.message);
    throw new Error(`Das Paket kaltfront konnte nicht geladen werden: ${detail}`);
  }
  const version = callBridge("version", {});
  const t3 = performance.now();
  if (!version.ok) throw new Error(version.error.message);

  let build = null;
  try {
    build = await (await fetch(BUILD_INFO_URL)).json();
  } catch {
    // Informational only; the wheel itself was already integrity-checked against the lockfile.
  }
  post({
    type: "ready",
    bootMs: Math.round(t3 - t0),
    timings: {
      pyodideMs: Math.round(t1 - t0),
      wheelMs: Math.round(t2 - t1),
      bridgeMs: Math.round(t3 - t2),
    },
    version: version.result,
    build,
  });
}

queue = boot().then(
  () => true,
  (err) => {
    post({ type: "boot-error", message: err && err.message ? err.message : String(err) });
    return false;
  },
);

self.onmessage = (event) => {
  const request = event.data;
  queue = queue.then((booted) => {
    if (booted) {
      handleRequest(request);
    } else {
      post({
        id: request.id,
        reply: { ok: false, error: { kind: "boot", message: "Die Spiel-Engine wurde nicht gestartet." } },
      });
    }
    return booted;
  });
};
