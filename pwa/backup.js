// backup.js — "Alle Spielstände sichern" (issue 12.10): one file with every save and every replay of
// this browser, and the import that merges such a file back without losing anything.
//
// File format (a JSON object; docs/save-format.md, "Sicherung aller Spielstände"):
//   {"kind": "kaltfront-backup", "v": 1, "saved_at": ISO time,
//    "saves":   [{"key": "kaltfront.autosave" | "kaltfront.save.<slot>", "text": "<stored text>"}, …],
//    "replays": [{"key": "kaltfront.replay.<id>", "text": "<stored text>"}, …]}
// Each entry is the stored text verbatim (readable or not), so a backup restores exactly what was
// there, including entries this version cannot read. "replays" holds whatever lives under the replay
// prefix; a version without replays writes an empty list, and an import keeps replays it cannot show.
//
// Merging: an entry whose text is already stored (under any key) is skipped; a save of the same game
// (game_id) with the same engine text is skipped too (same game kept once). The backup's autosave
// never replaces this browser's autosave: it becomes the slot "<game id>-auto". An entry whose key is
// taken by a different text is a conflict: nothing is overwritten unless the player says "Ersetzen".

import * as saves from "./saves.js";
import { textProblem } from "./record-check.js";

export const BACKUP_KIND = "kaltfront-backup";
export const BACKUP_VERSION = 1;
export const REPLAY_PREFIX = "kaltfront.replay.";
const SLOT_NAME = /^[A-Za-z0-9._-]{1,200}$/;

/** The backup file's text and name for everything stored now. */
export function buildBackup(now = new Date()) {
  const entries = saves.listSaves();
  const backup = {
    kind: BACKUP_KIND,
    v: BACKUP_VERSION,
    saved_at: now.toISOString(),
    saves: entries.map((e) => ({ key: e.key, text: e.text })),
    replays: saves.keysWith(REPLAY_PREFIX).sort().map((key) => ({ key, text: saves.storedText(key) })),
  };
  return {
    text: JSON.stringify(backup) + "\n",
    fileName: `kaltfront-alle-spielstaende-${now.toISOString().slice(0, 10)}.json`,
    count: backup.saves.length,
    replays: backup.replays.length,
  };
}

/** Is this parsed JSON a backup file (as opposed to a single save)? */
export function isBackup(data) {
  return !!data && typeof data === "object" && data.kind === BACKUP_KIND;
}

/**
 * Check a parsed backup and work out what importing it would do. Never writes.
 * @returns {{ok: false, problem} | {ok: true, add: [{key, text, label}], same: n, conflicts: [{key, text, label}], bad: n}}
 */
export function planImport(data) {
  if (!isBackup(data)) return { ok: false, problem: "Die Datei ist keine Sicherung von Kaltfront." };
  if (!Number.isInteger(data.v) || data.v < 1) return { ok: false, problem: "Die Sicherung hat keine gültige Versionsnummer." };
  if (data.v > BACKUP_VERSION) return { ok: false, problem: `Die Sicherung stammt aus einer neueren Version von Kaltfront (Format ${data.v}).` };
  const list = (name) => (data[name] === undefined ? [] : data[name]);
  if (!Array.isArray(list("saves")) || !Array.isArray(list("replays"))) return { ok: false, problem: "Die Sicherung ist unvollständig (keine Liste von Spielständen)." };

  // What is here now: every text, and the engine text of every readable save by game.
  const here = new Map(); // key -> text
  for (const e of saves.listSaves()) here.set(e.key, e.text);
  for (const key of saves.keysWith(REPLAY_PREFIX)) here.set(key, saves.storedText(key));
  const texts = new Set(here.values());
  const games = new Set();
  for (const e of saves.listSaves()) if (e.ok) games.add(`${e.record.game_id}\n${e.record.game}`);

  const plan = { ok: true, add: [], same: 0, conflicts: [], bad: 0 };
  const planned = new Set();
  const consider = (key, text, label) => {
    if (texts.has(text)) { plan.same += 1; return; }
    const target = here.has(key) || planned.has(key) ? "conflicts" : "add";
    plan[target].push({ key, text, label });
    planned.add(key);
  };
  for (const item of list("saves")) {
    if (!item || typeof item.text !== "string" || typeof item.key !== "string") { plan.bad += 1; continue; }
    const slot = item.key === saves.AUTOSAVE_KEY ? null : item.key.startsWith(saves.SLOT_PREFIX) ? item.key.slice(saves.SLOT_PREFIX.length) : undefined;
    if (slot === undefined || (slot !== null && !SLOT_NAME.test(slot)) || textProblem(item.text)) { plan.bad += 1; continue; }
    const parsed = saves.parseRecord(item.text);
    if (parsed.ok && games.has(`${parsed.record.game_id}\n${parsed.record.game}`)) { plan.same += 1; continue; }
    let key = item.key;
    if (slot === null) {
      // The backup's autosave never replaces this browser's autosave.
      key = parsed.ok ? `${saves.SLOT_PREFIX}${parsed.record.game_id}-auto` : `${saves.SLOT_PREFIX}unlesbar-import-${plan.add.length + plan.conflicts.length}`;
    }
    const r = parsed.ok ? parsed.record : null;
    const label = r ? `${r.name || r.scenario || "Spiel"}${r.round ? `, Runde ${r.round}` : ""}` : key.slice(saves.SLOT_PREFIX.length);
    consider(key, item.text, label);
  }
  for (const item of list("replays")) {
    if (!item || typeof item.text !== "string" || typeof item.key !== "string" || !item.key.startsWith(REPLAY_PREFIX)
        || !SLOT_NAME.test(item.key.slice(REPLAY_PREFIX.length)) || textProblem(item.text)) { plan.bad += 1; continue; }
    consider(item.key, item.text, `Wiederholung ${item.key.slice(REPLAY_PREFIX.length)}`);
  }
  return plan;
}

/**
 * Write a plan: every new entry, and the conflicts only when `replace` is true.
 * @returns {{written: n, failed: n, message: string|null}}  message: the first write error (German)
 */
export function applyImport(plan, { replace = false } = {}) {
  let written = 0, failed = 0, message = null;
  for (const item of [...plan.add, ...(replace ? plan.conflicts : [])]) {
    const result = saves.writeText(item.key, item.text);
    if (result.ok) written += 1;
    else { failed += 1; message = message || result.message; }
  }
  return { written, failed, message };
}

/** One German sentence about an import's outcome. */
export function importSummary(plan, outcome, { replace = false } = {}) {
  const parts = [`${outcome.written} ${outcome.written === 1 ? "Eintrag" : "Einträge"} übernommen`];
  if (plan.same) parts.push(`${plan.same} schon vorhanden`);
  if (plan.conflicts.length && !replace) parts.push(`${plan.conflicts.length} nicht ersetzt`);
  if (plan.bad) parts.push(`${plan.bad} unbrauchbar und übersprungen`);
  let text = `Sicherung eingelesen: ${parts.join(", ")}.`;
  if (outcome.failed) text += ` ${outcome.failed} konnten nicht gespeichert werden: ${outcome.message}`;
  return text;
}
