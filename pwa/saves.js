// saves.js — the save store in localStorage (P4, R63): versioned records, migration, and the rule that
// no path loses a save.
//
// Keys (all under the app's own prefix; nothing else in localStorage is ever read or written):
//   kaltfront.autosave        the autosave, written after every phase and action
//   kaltfront.save.<slot>     saves the player keeps: "Speichern" in the game menu, imported files, and
//                             an autosave that a new game replaced (so starting a game loses nothing)
//
// A record is a small versioned envelope around the engine's own save text (bridge op `save`, format
// in docs/save-format.md, versioned and checked by the engine itself):
//   {"kind": "kaltfront-slot", "v": 1, "saved_at": ISO time, "game_id": "…",
//    "scenario": "bornholm", "name": "Bornholm", "round": 3, "blitz": true, "fog": true,
//    "players": {"nordbund": "human", "liga": "normal"}, "meta": {viewer, camera, logs: {nordbund: […], liga: […]}} (older: one shared log),
//    "game": "<engine save text>"}
// The envelope keeps what the engine's save does not: who plays which side and the shell's view.
// Version 0 is the first shell's layout (raw engine text under kaltfront.autosave, the rest as JSON
// under kaltfront.autosave.meta); it is read and migrated, and rewritten as version 1 on the next save.
//
// Entries that cannot be read (not JSON, not a Kaltfront record, from a newer version) are reported
// and left exactly as they are: never deleted, never overwritten. The one place the app must write
// over an entry, the autosave key, first copies an unreadable entry to its own slot. A full quota
// returns a German message; the previous value of the key stays (setItem is all or nothing).

import { recordProblem, savedAt, textProblem } from "./record-check.js";

export const AUTOSAVE_KEY = "kaltfront.autosave";
export const SLOT_PREFIX = "kaltfront.save.";
export const KIND = "kaltfront-slot";
export const VERSION = 1;
const LEGACY_META_KEY = "kaltfront.autosave.meta";

export const QUOTA_MESSAGE =
  "Der Speicher des Browsers ist voll: der Spielstand wurde nicht gespeichert. Das Spiel läuft weiter; " +
  "exportiere oder lösche alte Spielstände unter „Spielstände“ im Hauptmenü.";

function store() {
  try {
    return window.localStorage; // private modes may throw on mere access
  } catch {
    return null;
  }
}

function isQuotaError(err) {
  return !!err && (err.name === "QuotaExceededError" || err.name === "NS_ERROR_DOM_QUOTA_REACHED" || err.code === 22);
}

/** A fresh id naming one game across its autosaves and saves. */
export function newGameId() {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `${Date.now().toString(36)}-${random[0].toString(36)}${random[1].toString(36)}`;
}

/** What the shell shows about an engine save text, read defensively (the engine does the real check). */
function summary(gameText) {
  try {
    const g = JSON.parse(gameText);
    if (g && typeof g === "object") {
      return { scenario: g.scenario, name: g.name, round: g.round, blitz: !!g.blitz, fog: !!g.fog, finished: !!g.outcome };
    }
  } catch {
    // fall through
  }
  return {};
}

/** Build a version-1 record for the engine's save text. */
export function makeRecord(gameText, { players, meta = {}, gameId } = {}) {
  const s = summary(gameText);
  return {
    kind: KIND,
    v: VERSION,
    saved_at: new Date().toISOString(),
    game_id: gameId || newGameId(),
    scenario: s.scenario ?? null,
    name: s.name ?? null,
    round: s.round ?? null,
    blitz: s.blitz ?? null,
    fog: s.fog ?? null,
    players: players || null,
    meta,
    game: gameText,
  };
}

// One function per version step: MIGRATIONS[n] turns a version-n record into version n+1.
const MIGRATIONS = {
  // v0: the raw engine text plus the old meta object (see the header).
  0: (old) => {
    const meta = old.meta || {};
    const { players, savedAt, scenario, fog, ...rest } = meta;
    const record = makeRecord(old.game, { players: players || null, meta: rest });
    record.saved_at = typeof savedAt === "string" ? savedAt : record.saved_at;
    return record;
  },
};

/** Bring a record of any known version up to VERSION. */
export function migrate(record) {
  let r = record;
  while (r.v < VERSION) {
    const step = MIGRATIONS[r.v];
    if (!step) throw new Error(`no migration from version ${r.v}`);
    r = step(r);
  }
  return r;
}

/**
 * Read a stored text as a record. Never throws.
 * @returns {{ok: true, record, migrated: boolean} | {ok: false, problem: string}}  problem is German.
 */
export function parseRecord(text, { legacyMeta = null } = {}) {
  if (text === null || text === undefined) return { ok: false, problem: "Der Eintrag ist leer." };
  // Shape first, without recursion: a text nested 100 000 levels deep must not reach JSON.parse or
  // the engine (issue 12.5).
  const shape = textProblem(text);
  if (shape) return { ok: false, problem: shape };
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, problem: "Der Eintrag ist beschädigt oder unvollständig (kein lesbares JSON)." };
  }
  if (data && data.format === "kaltfront-save") {
    // Version 0 (or a bare engine save, e.g. an imported file): wrap it.
    let meta = {};
    if (legacyMeta) {
      try {
        meta = JSON.parse(legacyMeta) || {};
      } catch {
        meta = {};
      }
    }
    const record = migrate({ v: 0, game: text, meta });
    const problem = recordProblem(record);
    return problem ? { ok: false, problem } : { ok: true, record, migrated: true };
  }
  if (!data || typeof data !== "object" || data.kind !== KIND) {
    return { ok: false, problem: "Der Eintrag ist kein Kaltfront-Spielstand." };
  }
  if (!Number.isInteger(data.v) || data.v < 0) {
    return { ok: false, problem: "Der Eintrag hat keine gültige Versionsnummer." };
  }
  if (data.v > VERSION) {
    return { ok: false, problem: `Der Spielstand stammt aus einer neueren Version von Kaltfront (Format ${data.v}).` };
  }
  if (typeof data.game !== "string") {
    return { ok: false, problem: "Der Spielstand ist unvollständig (die Spieldaten fehlen)." };
  }
  let record;
  try {
    record = migrate(data);
  } catch {
    return { ok: false, problem: "Der Spielstand hat ein unbekanntes Format." };
  }
  // Every field the shell reads (issue 12.3): a record that fails is reported, never half-used.
  const problem = recordProblem(record);
  if (problem) return { ok: false, problem };
  return { ok: true, record, migrated: record !== data };
}

function readKey(key) {
  const s = store();
  if (!s) return null;
  const text = s.getItem(key);
  if (text === null) return null;
  const parsed = parseRecord(text, { legacyMeta: key === AUTOSAVE_KEY ? s.getItem(LEGACY_META_KEY) : null });
  return { key, text, ...parsed };
}

/** Every Kaltfront save entry: [{key, slot, ok, record?, problem?, text}], the autosave first, newest next. */
export function listSaves() {
  const s = store();
  if (!s) return [];
  const keys = [];
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (key === AUTOSAVE_KEY || (key && key.startsWith(SLOT_PREFIX))) keys.push(key);
  }
  const entries = keys.map((key) => ({ slot: key === AUTOSAVE_KEY ? "autosave" : key.slice(SLOT_PREFIX.length), ...readKey(key) }));
  const time = (e) => (e.ok ? Date.parse(e.record.saved_at) || 0 : 0);
  return entries.sort((a, b) => (a.key === AUTOSAVE_KEY ? -1 : b.key === AUTOSAVE_KEY ? 1 : time(b) - time(a)));
}

/** Entries that cannot be read, for the report in the main menu. */
export function unreadableSaves() {
  return listSaves().filter((e) => !e.ok);
}

/** The raw text stored under a key (null when absent or storage is unavailable). */
export function storedText(key) {
  const s = store();
  return s ? s.getItem(key) : null;
}

/** Every key of localStorage that starts with `prefix`. */
export function keysWith(prefix) {
  const s = store();
  const keys = [];
  for (let i = 0; s && i < s.length; i++) {
    const key = s.key(i);
    if (key && key.startsWith(prefix)) keys.push(key);
  }
  return keys;
}

export function writeText(key, text) {
  const s = store();
  if (!s) return { ok: false, reason: "unavailable", message: "Dieser Browser erlaubt hier keine Spielstände (privater Modus?)." };
  try {
    s.setItem(key, text);
    return { ok: true };
  } catch (err) {
    if (isQuotaError(err)) return { ok: false, reason: "quota", message: QUOTA_MESSAGE };
    return { ok: false, reason: "error", message: `Der Browser hat das Speichern abgelehnt: ${err && err.message}` };
  }
}

/** Keep an unreadable entry before its key is written: copied verbatim to a slot of its own. */
function rescue(entry) {
  const s = store();
  const prefix = `${SLOT_PREFIX}unlesbar-`;
  for (let i = 0; s && i < s.length; i++) {
    const key = s.key(i);
    if (key && key.startsWith(prefix) && s.getItem(key) === entry.text) return { ok: true }; // kept already
  }
  return writeText(`${prefix}${new Date().toISOString().replace(/[:.]/g, "-")}`, entry.text);
}

/** Store a record under a key (the autosave key or a slot). Returns {ok, reason?, message?}. */
export function writeRecord(key, record) {
  const existing = readKey(key);
  if (existing && !existing.ok) {
    const kept = rescue(existing);
    if (!kept.ok) return kept; // cannot keep it, so do not overwrite it either
  }
  const result = writeText(key, JSON.stringify(record));
  if (result.ok && key === AUTOSAVE_KEY) {
    const s = store();
    try {
      s.removeItem(LEGACY_META_KEY); // migrated into the record just written
    } catch {
      // harmless leftover
    }
  }
  return result;
}

/** The autosave as {record} or a report {problem}; null when there is none. */
export function readAutosaveEntry() {
  return readKey(AUTOSAVE_KEY);
}

export function saveAutosave(gameText, { players, meta, gameId } = {}) {
  // The autosave key is shared by every tab: when it holds another, unfinished game (played in another
  // tab), keep that one as its own slot before it is replaced (issue 12.1).
  const existing = readKey(AUTOSAVE_KEY);
  if (existing && existing.ok && gameId && existing.record.game_id !== gameId) {
    const kept = keepAutosave();
    if (!kept.ok) return kept;
  }
  return writeRecord(AUTOSAVE_KEY, makeRecord(gameText, { players, meta, gameId }));
}

/** A kept save of this game (one per game: "Speichern" again overwrites that game's own slot). */
export function saveSlot(gameText, { players, meta, gameId, slot } = {}) {
  const record = makeRecord(gameText, { players, meta, gameId });
  return { ...writeRecord(SLOT_PREFIX + (slot || record.game_id), record), slot: slot || record.game_id };
}

/**
 * Before a new game replaces the autosave: keep the old one as a slot, unless its game is finished.
 * Returns {ok, kept: slot|null, message?}. When keeping fails (quota) the caller must not go on.
 */
export function keepAutosave() {
  const entry = readKey(AUTOSAVE_KEY);
  if (!entry) return { ok: true, kept: null };
  if (!entry.ok) {
    const result = rescue(entry);
    return result.ok ? { ok: true, kept: "unlesbar" } : { ...result, kept: null };
  }
  if (summary(entry.record.game).finished) return { ok: true, kept: null };
  const slot = `${entry.record.game_id}-auto`;
  // Byte for byte as stored, unless it still has the first layout (then the migrated record).
  const result = writeText(SLOT_PREFIX + slot, entry.migrated ? JSON.stringify(entry.record) : entry.text);
  return result.ok ? { ok: true, kept: slot } : { ...result, kept: null };
}

/** Remove a readable save. Unreadable entries are refused: the player may still export them. */
export function deleteSave(key) {
  const entry = readKey(key);
  if (!entry || !entry.ok) return false;
  store().removeItem(key);
  if (key === AUTOSAVE_KEY) store().removeItem(LEGACY_META_KEY);
  return true;
}

// ---- the API the shell used before (pwa/storage.js re-exports these) ----------------------------------

/** {save, meta, record} of a readable autosave, or null. */
export function readAutosave() {
  const entry = readKey(AUTOSAVE_KEY);
  if (!entry || !entry.ok) return null;
  return recordToResume(entry.record);
}

/** What the shell's resume needs from any record: the engine text and the meta it wrote. */
export function recordToResume(record) {
  return { save: record.game, meta: { ...record.meta, players: record.players, gameId: record.game_id }, record };
}

export function writeAutosave(saveText, meta = {}) {
  const { players, gameId, ...rest } = meta;
  return saveAutosave(saveText, { players, gameId, meta: rest }).ok;
}

export function hasAutosave() {
  const entry = readKey(AUTOSAVE_KEY);
  return !!(entry && entry.ok);
}

/** A finished game cannot be continued: drop its autosave (a readable one only). */
export function clearAutosave() {
  deleteSave(AUTOSAVE_KEY);
}

// ---- files and the browser's storage policy ----------------------------------------------------------

/** The text of an export file: the record itself (the engine's save inside, plus who plays whom). */
export function exportText(entry) {
  return entry.ok ? JSON.stringify(entry.record, null, 1) + "\n" : entry.text;
}

export function exportFileName(entry) {
  if (!entry.ok) return `kaltfront-unlesbar-${entry.slot}.txt`;
  const r = entry.record;
  const at = savedAt(r);
  const day = at ? at.toISOString().slice(0, 10) : "undatiert";
  const name = String(r.scenario || "spiel").replace(/[^a-z0-9-]/gi, "");
  return `kaltfront-${name}-runde${r.round ?? 0}-${day}.json`;
}

/**
 * Read an imported file: a record (any known version) or a bare engine save.
 * @returns {{ok: true, record} | {ok: false, problem}}  the engine still checks the game itself.
 */
export function parseImport(text) {
  const parsed = parseRecord(text, { legacyMeta: null });
  if (!parsed.ok) return parsed;
  const record = { ...parsed.record, saved_at: new Date().toISOString() };
  if (!record.players) record.players = { nordbund: "human", liga: "normal" };
  return { ok: true, record };
}

/** Store an imported record in a slot of its own (never over an existing save). */
export function storeImport(record) {
  let slot = `import-${record.game_id}`;
  const s = store();
  for (let i = 2; s && s.getItem(SLOT_PREFIX + slot) !== null; i++) slot = `import-${record.game_id}-${i}`;
  return { ...writeRecord(SLOT_PREFIX + slot, record), slot, key: SLOT_PREFIX + slot };
}

/**
 * Ask the browser to keep this site's data when space runs low. Headless Chromium answers false; phones
 * with an installed app usually grant it. Never throws.
 */
export async function requestPersistence() {
  try {
    if (!navigator.storage || !navigator.storage.persist) return false;
    if (navigator.storage.persisted && (await navigator.storage.persisted())) return true;
    return await navigator.storage.persist();
  } catch {
    return false;
  }
}
