// record-check.js — the one place that checks what the shell reads from outside before it uses it
// (issue 12.3, 12.5): every field of a save record the shell touches, and the shape of a JSON text
// (size, nesting) before JSON.parse ever sees it. The engine still checks the game inside a record
// itself (bridge op "load"); this module guards the shell's own use of the envelope: a record whose
// `meta.log` is not a list of strings would otherwise give a
// blank map with no message. A record that fails here is reported and left untouched (pwa/saves.js).
// Every problem is a German sentence for the player.

export const SIDES = ["nordbund", "liga"];
export const PLAYERS = ["human", "leicht", "normal", "schwer"];

/** Files bigger than this are refused before they are read (a save is a few kB, a game text < 100 kB). */
export const MAX_SAVE_FILE_BYTES = 2 * 1024 * 1024;
/** A backup of every save ("Alle Spielstände sichern") holds at most what localStorage can (~5 MB). */
export const MAX_BACKUP_FILE_BYTES = 12 * 1024 * 1024;
/** Nesting allowed in any JSON the shell parses: an engine save is 4 levels deep, a record 6. */
export const MAX_JSON_DEPTH = 64;
const MAX_LOG_LINES = 1000;
const MAX_LOG_LINE = 2000;
const MAX_ID = 200;

/** "1,5 MB" for a message. */
export function megabytes(bytes) {
  return `${(bytes / (1024 * 1024)).toLocaleString("de-DE", { maximumFractionDigits: 1, minimumFractionDigits: 1 })} MB`;
}

/**
 * How deep a JSON text nests, counted without recursion and without parsing (so 100 000 opening
 * brackets cost a loop, not a stack overflow). Brackets inside strings do not count. Stops early once
 * `limit` is passed and returns limit + 1.
 */
export function jsonDepth(text, limit = MAX_JSON_DEPTH) {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** null when `text` may be given to JSON.parse, else the German reason. */
export function textProblem(text, { maxBytes = null } = {}) {
  if (typeof text !== "string") return "Der Eintrag ist kein Text.";
  if (maxBytes !== null && text.length > maxBytes) {
    return `Der Inhalt ist zu groß (${megabytes(text.length)}; erlaubt sind höchstens ${megabytes(maxBytes)}).`;
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    return `Der Inhalt ist zu tief verschachtelt (mehr als ${MAX_JSON_DEPTH} Ebenen) und kann kein Spielstand sein.`;
  }
  return null;
}

/** null when a file of this size may be read as a save or a backup, else the German reason. */
export function fileSizeProblem(size) {
  if (size > MAX_BACKUP_FILE_BYTES) {
    return `Die Datei ist zu groß (${megabytes(size)}). Ein Kaltfront-Spielstand ist höchstens ${megabytes(MAX_SAVE_FILE_BYTES)} groß, eine Sicherung aller Spielstände höchstens ${megabytes(MAX_BACKUP_FILE_BYTES)}.`;
  }
  return null;
}

const isObject = (v) => !!v && typeof v === "object" && !Array.isArray(v);
const finite = (v) => typeof v === "number" && Number.isFinite(v);

/** The saved time as a Date, or null when it is missing or not a date (never "Invalid Date"). */
export function savedAt(record) {
  if (!record || typeof record.saved_at !== "string") return null;
  const t = Date.parse(record.saved_at);
  return Number.isFinite(t) ? new Date(t) : null;
}

function logProblem(log, what) {
  if (log === undefined || log === null) return null;
  if (!Array.isArray(log) || log.length > MAX_LOG_LINES) return `${what} ist keine Liste von Zeilen`;
  if (!log.every((line) => typeof line === "string" && line.length <= MAX_LOG_LINE)) return `${what} enthält etwas anderes als Text`;
  return null;
}

/**
 * Every field of a (migrated, current-version) record that the shell reads. Returns null when the
 * record is usable, else a German sentence naming what is wrong. The game text itself is the engine's
 * business, except that it must be a string of sane shape.
 */
export function recordProblem(record) {
  const problems = [];
  if (!isObject(record)) return "Der Spielstand ist kein Objekt.";
  if (typeof record.game !== "string") problems.push("die Spieldaten fehlen");
  else {
    const shape = textProblem(record.game);
    if (shape) problems.push("die Spieldaten sind zu tief verschachtelt");
  }
  if (typeof record.game_id !== "string" || !record.game_id || record.game_id.length > MAX_ID) problems.push("die Kennung des Spiels fehlt oder ist ungültig");
  if (record.saved_at !== undefined && record.saved_at !== null && typeof record.saved_at !== "string") problems.push("die Speicherzeit ist kein Text");
  for (const key of ["name", "scenario"]) {
    if (record[key] !== undefined && record[key] !== null && (typeof record[key] !== "string" || record[key].length > MAX_ID)) problems.push(`das Feld „${key}“ ist ungültig`);
  }
  if (record.round !== undefined && record.round !== null && !(Number.isInteger(record.round) && record.round >= 0)) problems.push("die Runde ist keine Zahl");
  if (record.players !== undefined && record.players !== null) {
    if (!isObject(record.players) || !SIDES.every((s) => PLAYERS.includes(record.players[s]))) problems.push("die Spieler sind ungültig");
  }
  const meta = record.meta;
  if (meta !== undefined && meta !== null && !isObject(meta)) problems.push("die Ansicht (meta) ist kein Objekt");
  else if (meta) {
    if (meta.viewer !== undefined && meta.viewer !== null && !SIDES.includes(meta.viewer)) problems.push("die Seite der Ansicht ist ungültig");
    if (meta.seed !== undefined && meta.seed !== null && !(Number.isSafeInteger(meta.seed) && meta.seed >= 0)) problems.push("der Startwert ist ungültig");
    // A damaged camera is no reason to refuse a game, like a bad time: the resumed view frames the
    // own HQ instead (camera.restore refuses it, issue 11.1), and nothing is lost.
    const log = logProblem(meta.log, "das Protokoll");
    if (log) problems.push(log);
    // A per-side log (hot-seat under fog, D15): {nordbund: [...], liga: [...]}.
    for (const key of ["logs", "sideLogs", "log_by_side"]) {
      if (meta[key] === undefined || meta[key] === null) continue;
      if (!isObject(meta[key])) problems.push("das Protokoll je Seite ist ungültig");
      else for (const [side, lines] of Object.entries(meta[key])) {
        const p = SIDES.includes(side) ? logProblem(lines, `das Protokoll von ${side}`) : "das Protokoll nennt eine unbekannte Seite";
        if (p) problems.push(p);
      }
    }
  }
  if (!problems.length) return null;
  const text = problems.join("; ");
  return `Der Spielstand ist beschädigt: ${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
