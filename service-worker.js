// service-worker.js — Kaltfront's offline cache (P1, P3). After the first visit every file the app
// needs (the page, scripts, style, icons, the Pyodide runtime and the kaltfront wheel with the game
// data and maps) comes from Cache Storage, so the game starts and plays with no network at all.
//
// The file list with content hashes is generated at build time by tools/build_sw.py into
// vendor/sw-manifest.js (why a script and not JSON: see that tool's docstring). In short:
//   install   fetch every listed file, check its sha256 against the list, put it into a new cache
//             named after the list's hash; unchanged files are copied from the previous cache, not
//             downloaded again. One wrong or missing file fails the install: the old version stays.
//   waiting   an update does not take over by itself: a running game keeps the files it started with.
//             The page (pwa/sw-register.js) tells the player "Neue Version bereit – neu laden" and,
//             on a click, posts {type: "SKIP_WAITING"}; otherwise the new version starts next time.
//   activate  delete the caches of older versions, then claim the open pages so even the very first
//             visit is served from the cache from now on.
//   fetch     same-origin GETs of listed files: from the cache. Navigations to the app (its folder or
//             index.html, with any query) get the cached index.html. Everything else goes to the
//             network untouched; requests to other origins are never handled, and this worker itself
//             never fetches anything outside the app's origin.
//
// This is what Workbox's precaching does (revisioned entries, addAll-style install, cleanup on
// activate), in one small file with no dependency.

importScripts("vendor/sw-manifest.js");

const PRECACHE = self.KALTFRONT_PRECACHE;
const CACHE_PREFIX = "kaltfront-precache-";
const CACHE_NAME = CACHE_PREFIX + PRECACHE.version;
// Stored on each cached response, so a later version can reuse a file whose bytes did not change.
const HASH_HEADER = "X-Kaltfront-SHA256";
const SCOPE = new URL(self.registration.scope);
const INDEX_URL = new URL("index.html", SCOPE).href;
const ENTRY_BY_PATH = new Map(PRECACHE.files.map((entry) => [new URL(entry.url, SCOPE).pathname, entry]));

async function sha256Hex(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A same-origin, hash-checked copy of `entry`, ready for cache.put (headers kept: wasm MIME type), and
 * its bytes, to be released once the cache has them.
 */
async function fetchVerified(entry) {
  const url = new URL(entry.url, SCOPE).href;
  // "no-cache" revalidates with the server but may take the body from the HTTP cache (a 304): the
  // first visit has just downloaded these files, and the hash check below proves the bytes are the
  // listed ones, so the 9.6 MB wasm is not fetched a second time.
  const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
  if (!response.ok || response.type !== "basic") {
    throw new Error(`Kaltfront: ${entry.url} nicht ladbar (HTTP ${response.status})`);
  }
  const body = await response.arrayBuffer();
  const hash = await sha256Hex(body);
  if (hash !== entry.sha256) {
    throw new Error(`Kaltfront: ${entry.url} passt nicht zur Dateiliste (sha256 ${hash.slice(0, 12)}…); make site neu ausführen`);
  }
  const headers = new Headers(response.headers);
  // fetch() has decoded a br/gzip transfer (issue 14): the body checked above and cached below is the
  // plain file, so the encoding and the compressed length must not travel with it.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set(HASH_HEADER, hash);
  return { response: new Response(body, { status: 200, statusText: "OK", headers }), body };
}

/**
 * Free a checked file's bytes now (issue 14: memory). Left to the collector, they stayed in the game's
 * renderer process, 17 MB in all: this worker's heap is tiny, so it rarely collects, and the handle
 * crypto.subtle.digest keeps on a buffer outlives a plain `transfer(0)`. A transfer into a message that
 * is never delivered lets go of both.
 */
function release(buffer) {
  try {
    const channel = new MessageChannel();
    channel.port1.postMessage(null, [buffer]);
    channel.port1.close();
    channel.port2.close();
  } catch {
    // cannot be transferred: left to the collector
  }
}

/** A response with the right bytes from an older Kaltfront cache, or null. */
async function fromOlderCache(url, sha256) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(CACHE_PREFIX) || name === CACHE_NAME) continue;
    const old = await (await caches.open(name)).match(url);
    if (old && old.headers.get(HASH_HEADER) === sha256) return old;
  }
  return null;
}

async function precache() {
  const cache = await caches.open(CACHE_NAME);
  await Promise.all(
    PRECACHE.files.map(async (entry) => {
      const url = new URL(entry.url, SCOPE).href;
      // A cache of this name only ever receives checked bytes: an install retried after a failure
      // keeps what it already has.
      if (await cache.match(url)) return;
      const old = await fromOlderCache(url, entry.sha256);
      if (old) {
        await cache.put(url, old);
        return;
      }
      const { response, body } = await fetchVerified(entry);
      await cache.put(url, response);
      release(body); // only now: the cache has read the whole body

    }),
  );
}

self.addEventListener("install", (event) => {
  // No skipWaiting here: an update waits until the player agrees or the app is started anew.
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "SKIP_WAITING") {
    self.skipWaiting();
  } else if (data.type === "GET_VERSION" && event.ports && event.ports[0]) {
    event.ports[0].postMessage({ version: PRECACHE.version, bytes: PRECACHE.bytes, files: PRECACHE.files.length, cache: CACHE_NAME });
  }
});

async function cached(url, request) {
  const cache = await caches.open(CACHE_NAME);
  const hit = await cache.match(url);
  // Only when the browser evicted the cache: better the network than an error, if there is one.
  return hit || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === "navigate") {
    // The app is one page; the share-link options live in the fragment, which never reaches here.
    if (url.pathname === SCOPE.pathname || url.href.split(/[?#]/)[0] === INDEX_URL) {
      event.respondWith(cached(INDEX_URL, request));
    }
    return;
  }
  const entry = ENTRY_BY_PATH.get(url.pathname);
  // Matching by path, not by the full URL: a query string must not turn a cached file into a miss.
  if (entry) event.respondWith(cached(new URL(entry.url, SCOPE).href, request));
});
