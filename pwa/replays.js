// replays.js — finished games kept as replays in localStorage (issue 13.3). The replay itself is the
// engine's file (bridge op `replay_export`, format in docs/replay-format.md, checked by the engine on
// opening); this module only stores, lists, drops and names them.
//
// Keys (under the app's prefix, apart from the save slots of pwa/saves.js):
//   kaltfront.replays           the index: [{id, name, saved_at, text, rounds, actions, players, size}]
//   kaltfront.replay.<id>       one replay file as JSON text
// The last MAX_KEPT finished games are kept, oldest dropped first, and all of them together stay within
// BUDGET_CHARS, a fixed share of the browser's storage (about 5 MB per origin, most of it left to the
// saves). A replay larger than the whole share is not kept (it can still be exported at the end).

export const INDEX_KEY = "kaltfront.replays";
export const ITEM_PREFIX = "kaltfront.replay.";
export const MAX_KEPT = 10;
export const BUDGET_CHARS = 1_500_000;
export const SUFFIX = ".kaltfront-replay.json";

function store() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The kept replays, newest first. An unreadable index counts as empty (the files stay untouched). */
export function listReplays() {
  const ls = store();
  if (!ls) return [];
  try {
    const index = JSON.parse(ls.getItem(INDEX_KEY) || "[]");
    return Array.isArray(index) ? index.filter((e) => e && typeof e.id === "string") : [];
  } catch {
    return [];
  }
}

function writeIndex(ls, index) {
  ls.setItem(INDEX_KEY, JSON.stringify(index));
}

function summary(id, replay, size) {
  const meta = replay.meta || {};
  const final = replay.final || {};
  return {
    id, name: String(meta.name || (replay.start && replay.start.name) || "Spiel"),
    saved_at: String(meta.saved || new Date().toISOString()), text: String(final.text || ""),
    rounds: Number(final.round) || 0, actions: (replay.actions || []).length,
    players: meta.players || null, size,
  };
}

/**
 * Keep a replay (the engine's dict) under `id`; an id already kept is left as it is. Drops the oldest
 * until at most MAX_KEPT remain within BUDGET_CHARS. Returns {ok, message?}.
 */
export function keepReplay(id, replay) {
  const ls = store();
  if (!ls) return { ok: false, message: "Der Browser erlaubt keinen Speicher; die Wiederholung wurde nicht behalten." };
  const index = listReplays();
  if (index.some((e) => e.id === id)) return { ok: true, kept: false };
  const text = JSON.stringify(replay);
  if (text.length > BUDGET_CHARS) {
    return { ok: false, message: "Diese Wiederholung ist zu groß zum Behalten; exportiere sie als Datei." };
  }
  let kept = [summary(id, replay, text.length), ...index];
  const drop = () => {
    const gone = kept.pop();
    ls.removeItem(ITEM_PREFIX + gone.id);
  };
  while (kept.length > MAX_KEPT || kept.reduce((n, e) => n + (e.size || 0), 0) > BUDGET_CHARS) drop();
  for (;;) {
    try {
      ls.setItem(ITEM_PREFIX + id, text);
      writeIndex(ls, kept);
      return { ok: true, kept: true };
    } catch {
      // The browser's storage is full (saves take most of it): give up the oldest replay, try again.
      if (kept.length <= 1) {
        ls.removeItem(ITEM_PREFIX + id);
        writeIndex(ls, kept.filter((e) => e.id !== id));
        return { ok: false, message: "Der Speicher ist voll: die Wiederholung wurde nicht behalten. Exportiere sie als Datei." };
      }
      drop();
    }
  }
}

/** The replay file (parsed JSON) of a kept replay, or null. */
export function readReplay(id) {
  const ls = store();
  if (!ls) return null;
  try {
    return JSON.parse(ls.getItem(ITEM_PREFIX + id));
  } catch {
    return null;
  }
}

export function deleteReplay(id) {
  const ls = store();
  if (!ls) return;
  ls.removeItem(ITEM_PREFIX + id);
  writeIndex(ls, listReplays().filter((e) => e.id !== id));
}

export function replayFileName(entry) {
  const umlaut = { "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss" };
  const name = String(entry.name || "spiel").toLowerCase().replace(/[äöüß]/g, (c) => umlaut[c])
    .normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  const day = String(entry.saved_at || "").slice(0, 10) || "wiederholung";
  return `kaltfront-${name || "spiel"}-${day}${SUFFIX}`;
}
