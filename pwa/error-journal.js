// error-journal.js — a short in-page list of the errors this page ran into: console.error calls,
// uncaught exceptions and unhandled promise rejections. Imported first by app.js so it sees the whole
// boot. Why: WebKitGTK's WebDriver cannot read the browser console, and the cross-engine smoke tests
// (issue 17, e2e/engines/) must still fail on any console error in WebKit; it also lets a bug report
// quote what went wrong. It only records and passes everything on: the console shows what it showed.

const MAX_ENTRIES = 50;
const entries = [];

function remember(kind, parts) {
  const text = parts
    .map((p) => {
      if (p instanceof Error) return `${p.name}: ${p.message}`;
      if (typeof p === "string") return p;
      try {
        return JSON.stringify(p);
      } catch {
        return String(p);
      }
    })
    .join(" ");
  if (entries.length >= MAX_ENTRIES) entries.shift();
  entries.push({ kind, text: text.slice(0, 500), at: Math.round(performance.now()) });
}

const originalError = console.error.bind(console);
console.error = (...args) => {
  remember("console.error", args);
  originalError(...args);
};
window.addEventListener("error", (event) => remember("error", [event.error || event.message || "Fehler"]));
window.addEventListener("unhandledrejection", (event) => remember("unhandledrejection", [event.reason]));

/** The errors so far, oldest first (a copy). Also reachable as window.kaltfrontErrors(). */
export function recordedErrors() {
  return entries.slice();
}
window.kaltfrontErrors = recordedErrors;
