// sw-register.js — registers the offline cache (service-worker.js) and runs the update flow.
//
// Register only after the engine has booted: on the first visit the page has just fetched Pyodide and
// the wheel, and the worker's install then finds them in the HTTP cache (a 304, hash-checked) instead
// of downloading 14 MB a second time while the player waits (TECH_NOTES).
//
// Update flow: a changed file gives a new service worker; it installs its cache beside the old one
// and waits, so the running game keeps the files it started with. The page then shows "Neue Version
// bereit – neu laden". A click saves first (the app's `beforeReload` hook, the autosave), asks the
// waiting worker to take over (SKIP_WAITING) and reloads once it controls the page; the app resumes
// the autosave after that reload (see `takeResumeAfterReload`). Without a click the new version
// simply starts with the next visit. Nothing here ever reloads a running game without the player's
// click.

const RESUME_KEY = "kaltfront.resume-after-reload";

/**
 * @param {object} [options]
 * @param {() => Promise<boolean>|boolean} [options.beforeReload]  saves the running game; returns true
 *        when a game was saved and should be resumed after the reload.
 * @param {(apply: () => Promise<void>) => void} [options.onUpdateReady]  replaces the built-in banner.
 * @returns {Promise<ServiceWorkerRegistration|null>} null where service workers are unavailable
 *          (plain http on another host, some private modes): the app then simply runs online.
 */
export async function registerServiceWorker({ beforeReload, onUpdateReady } = {}) {
  if (!("serviceWorker" in navigator)) return null;
  const scriptUrl = new URL("../service-worker.js", import.meta.url);
  let registration;
  try {
    registration = await navigator.serviceWorker.register(scriptUrl, {
      scope: new URL("../", import.meta.url).pathname,
      // The update check compares service-worker.js and the list it imports; always ask the server.
      updateViaCache: "none",
    });
  } catch (err) {
    console.warn("Kaltfront: Offline-Speicher nicht verfügbar:", err);
    return null;
  }

  let announced = false;
  const announce = () => {
    // Only an *update* is announced: on the first install there is nothing to switch from.
    if (announced || !registration.waiting || !navigator.serviceWorker.controller) return;
    announced = true;
    const apply = () => applyUpdate(registration, beforeReload);
    (onUpdateReady || showUpdateBanner)(apply);
  };
  announce();
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed") announce();
    });
  });
  // A phone may keep the app open for days: look for a new version when it comes back to the front.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
  return registration;
}

async function applyUpdate(registration, beforeReload) {
  const waiting = registration.waiting;
  if (!waiting) return;
  let resume = false;
  try {
    resume = beforeReload ? !!(await beforeReload()) : false;
  } catch (err) {
    console.warn("Kaltfront: Speichern vor dem Neuladen fehlgeschlagen:", err);
  }
  try {
    if (resume) sessionStorage.setItem(RESUME_KEY, "1");
  } catch {
    // Without sessionStorage the player just taps "Spiel fortsetzen" after the reload.
  }
  navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
  waiting.postMessage({ type: "SKIP_WAITING" });
}

/** True once after a reload the player asked for with a game running: the app resumes the autosave. */
export function takeResumeAfterReload() {
  try {
    const flag = sessionStorage.getItem(RESUME_KEY) === "1";
    sessionStorage.removeItem(RESUME_KEY);
    return flag;
  } catch {
    return false;
  }
}

/** Marks the next load as "resume the autosave" (used by the crash dialog's reload as well). */
export function resumeAfterReload() {
  try {
    sessionStorage.setItem(RESUME_KEY, "1");
  } catch {
    // see above
  }
}

function showUpdateBanner(apply) {
  const bar = document.createElement("div");
  bar.id = "update-banner";
  bar.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = "Neue Version bereit";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "primary";
  button.textContent = "Neu laden";
  button.title = "Das laufende Spiel wird vorher gespeichert und danach fortgesetzt.";
  button.addEventListener("click", () => {
    button.disabled = true;
    apply();
  });
  const later = document.createElement("button");
  later.type = "button";
  later.className = "ghost";
  later.textContent = "Später";
  later.title = "Die neue Version startet beim nächsten Öffnen.";
  later.addEventListener("click", () => bar.remove());
  bar.append(text, " – ", button, later);
  document.body.append(bar);
}

/** Version facts from the active worker ({version, bytes, files, cache}), or null. */
export async function cacheInfo() {
  const controller = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!controller) return null;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), 2000);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    controller.postMessage({ type: "GET_VERSION" }, [channel.port2]);
  });
}
