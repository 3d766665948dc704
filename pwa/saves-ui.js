// saves-ui.js — what the player sees of the save store (pwa/saves.js) and of recovery: the
// "Spielstände" dialog (continue, export to a file, import a file, delete), the notice line in the main
// menu (unreadable saves, broken share links), and the dialog after an engine crash. All DOM is built
// with textContent: save names and link values come from outside and are never parsed as HTML.

import * as saves from "./saves.js";
import { savedAt, fileSizeProblem, MAX_SAVE_FILE_BYTES, megabytes, textProblem } from "./record-check.js";
import * as backup from "./backup.js";

const $ = (id) => document.getElementById(id);

const SIDE_WORD = { nordbund: "Nordbund", liga: "Baltische Liga" };
const STRENGTH_WORD = { leicht: "Leicht", normal: "Normal", schwer: "Schwer" };

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "onclick") node.addEventListener("click", v);
    else node[k] = v;
  }
  node.append(...children);
  return node;
}

// ---- the notice line in the main menu ------------------------------------------------------------------

/** Show a message in the main menu (German text, shown as text). Several calls add lines. */
export function showNotice(text, { replace = false } = {}) {
  let box = $("menu-notice");
  if (!box) {
    box = el("div", { id: "menu-notice", className: "notice" });
    box.setAttribute("role", "alert");
    const anchor = $("boot-status");
    if (anchor) anchor.after(box);
    else ($("main-menu") || document.body).prepend(box);
  }
  if (replace) box.replaceChildren();
  box.append(el("p", { textContent: text }));
  box.hidden = false;
}

export function clearNotice() {
  const box = $("menu-notice");
  if (box) {
    box.replaceChildren();
    box.hidden = true;
  }
}

/** Report entries that cannot be read; they stay stored untouched. Returns how many there are. */
export function reportUnreadable() {
  const bad = saves.unreadableSaves();
  for (const entry of bad) {
    const which = entry.key === saves.AUTOSAVE_KEY ? "Der automatische Spielstand" : `Der Spielstand „${entry.slot}“`;
    showNotice(
      `${which} kann nicht gelesen werden: ${entry.problem} Er bleibt unverändert gespeichert; ` +
        "unter „Spielstände“ kannst du ihn als Datei exportieren.",
    );
  }
  return bad.length;
}

// ---- file export and import ---------------------------------------------------------------------------

export function downloadText(fileName, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = el("a", { href: url, download: fileName });
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function describe(entry) {
  if (!entry.ok) return { title: entry.key === saves.AUTOSAVE_KEY ? "Automatisch (nicht lesbar)" : `${entry.slot} (nicht lesbar)`, detail: entry.problem };
  const r = entry.record;
  const who = r.players
    ? ["nordbund", "liga"].filter((s) => r.players[s] === "human").map((s) => SIDE_WORD[s]).join(" und ") || "Computer gegen Computer"
    : "";
  const ai = r.players ? ["nordbund", "liga"].map((s) => r.players[s]).find((p) => STRENGTH_WORD[p]) : null;
  // Never "Invalid Date": a missing or unreadable time is said in words (issue 12.3).
  const at = savedAt(r);
  const when = at ? at.toLocaleString("de-DE", { dateStyle: "short", timeStyle: "short" }) : "Zeitpunkt unbekannt";
  const title = `${entry.key === saves.AUTOSAVE_KEY ? "Automatisch: " : ""}${r.name || r.scenario || "Spiel"}${r.round ? `, Runde ${r.round}` : ""}`;
  const detail = [who && `${who}${ai ? ` gegen Computer (${STRENGTH_WORD[ai]})` : ""}`, when].filter(Boolean).join(" · ");
  return { title, detail };
}

// ---- the "Spielstände" dialog --------------------------------------------------------------------------

/**
 * @param {object} hooks
 * @param {(record: object, key: string) => Promise<boolean>} hooks.resume  load and play a record;
 *        resolves false (and reports) when the engine refuses it.
 * @param {(text: string) => void} hooks.toast
 */
let currentHooks = null; // the hooks of the latest openSavesDialog call (the dialog is built once)

export function openSavesDialog(hooks) {
  currentHooks = hooks;
  let dialog = $("saves");
  if (!dialog) {
    dialog = el(
      "section",
      { id: "saves", className: "overlay" },
      el(
        "div",
        { className: "card saves-card" },
        el("h2", { textContent: "Spielstände" }),
        el("p", {
          className: "status",
          textContent: "Spielstände liegen nur in diesem Browser. Exportiere sie als Datei, damit sie nicht verloren gehen.",
        }),
        el("ul", { id: "saves-list", className: "saves-list" }),
        el("p", { id: "saves-message", className: "status" }),
        el("input", { id: "saves-file", type: "file", accept: ".json,application/json,text/plain", hidden: true }),
        el("button", { id: "saves-import", className: "wide", textContent: "Datei importieren", onclick: () => $("saves-file").click() }),
        el("button", {
          id: "saves-backup",
          className: "wide",
          textContent: "Alle Spielstände sichern",
          onclick: () => {
            const b = backup.buildBackup();
            downloadText(b.fileName, b.text);
            $("saves-message").textContent = `${b.count} ${b.count === 1 ? "Spielstand" : "Spielstände"}${b.replays ? ` und ${b.replays} Wiederholungen` : ""} in „${b.fileName}“ gesichert.`;
          },
        }),
        el("button", { id: "saves-close", className: "wide ghost", textContent: "Zurück", onclick: () => { dialog.hidden = true; if (currentHooks.closed) currentHooks.closed(); } }),
      ),
    );
    dialog.setAttribute("aria-label", "Spielstände");
    document.body.append(dialog);
    $("saves-file").addEventListener("change", async (event) => {
      const file = event.target.files && event.target.files[0];
      event.target.value = "";
      if (file) await importFile(file, currentHooks, dialog);
    });
    dialog.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { dialog.hidden = true; if (currentHooks.closed) currentHooks.closed(); }
    });
  }
  fillList(hooks, dialog);
  $("saves-message").textContent = "";
  dialog.hidden = false;
  $("saves-close").focus();
}

function fillList(hooks, dialog) {
  const list = $("saves-list");
  list.replaceChildren();
  const entries = saves.listSaves();
  if (!entries.length) list.append(el("li", { className: "empty", textContent: "Noch keine Spielstände." }));
  for (const entry of entries) {
    const { title, detail } = describe(entry);
    const buttons = el("div", { className: "buttons" });
    if (entry.ok) {
      buttons.append(
        el("button", {
          className: "primary",
          textContent: "Fortsetzen",
          onclick: async () => {
            dialog.hidden = true;
            if (!(await hooks.resume(entry.record, entry.key))) fillList(hooks, dialog);
          },
        }),
      );
    }
    buttons.append(
      el("button", {
        textContent: "Exportieren",
        onclick: () => downloadText(saves.exportFileName(entry), saves.exportText(entry)),
      }),
    );
    if (entry.ok) {
      const del = el("button", { className: "ghost", textContent: "Löschen" });
      del.addEventListener("click", () => {
        // Two taps: a save is gone for good once deleted.
        if (del.dataset.armed !== "1") {
          del.dataset.armed = "1";
          del.textContent = "Wirklich löschen?";
          return;
        }
        saves.deleteSave(entry.key);
        fillList(hooks, dialog);
      });
      buttons.append(del);
    }
    list.append(
      el(
        "li",
        { className: entry.ok ? "save" : "save unreadable", dataset: { key: entry.key } },
        el("strong", { textContent: title }),
        el("span", { className: "detail", textContent: detail }),
        buttons,
      ),
    );
  }
}

async function importFile(file, hooks, dialog) {
  const message = $("saves-message");
  message.replaceChildren();
  // Size and nesting are checked here, before anything is parsed or stored (issue 12.5): a 60 MB
  // file is not "Speicher voll", and 100 000 brackets never reach JSON.parse or the engine.
  const tooBig = fileSizeProblem(file.size);
  if (tooBig) {
    message.textContent = `Die Datei wird nicht importiert: ${tooBig}`;
    return;
  }
  let text;
  try {
    text = await file.text();
  } catch {
    message.textContent = "Die Datei konnte nicht gelesen werden.";
    return;
  }
  const shape = textProblem(text);
  if (shape) {
    message.textContent = `Die Datei wird nicht importiert: ${shape}`;
    return;
  }
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    // parseImport below says so in the usual words
  }
  if (backup.isBackup(data)) {
    importBackup(data, hooks, dialog);
    return;
  }
  if (text.length > MAX_SAVE_FILE_BYTES) {
    message.textContent = `Die Datei wird nicht importiert: Sie ist zu groß (${megabytes(text.length)}); ein Kaltfront-Spielstand ist höchstens ${megabytes(MAX_SAVE_FILE_BYTES)} groß.`;
    return;
  }
  const parsed = saves.parseImport(text);
  if (!parsed.ok) {
    message.textContent = `Die Datei ist kein Kaltfront-Spielstand: ${parsed.problem}`;
    return;
  }
  const stored = saves.storeImport(parsed.record);
  if (!stored.ok) {
    message.textContent = stored.message;
    return;
  }
  dialog.hidden = true;
  // The engine checks the game itself; a refused import is reported and stays listed for export.
  if (!(await hooks.resume(parsed.record, stored.key))) {
    fillList(hooks, dialog);
    dialog.hidden = false;
  }
}

/** Merge a backup file: new entries at once; entries that would replace a different one only on "Ersetzen". */
function importBackup(data, hooks, dialog) {
  const message = $("saves-message");
  const plan = backup.planImport(data);
  if (!plan.ok) {
    message.textContent = `Die Sicherung wird nicht importiert: ${plan.problem}`;
    return;
  }
  const finish = (replace) => {
    const outcome = backup.applyImport(plan, { replace });
    fillList(hooks, dialog);
    message.replaceChildren(backup.importSummary(plan, outcome, { replace }));
  };
  if (!plan.conflicts.length) {
    finish(false);
    return;
  }
  const names = plan.conflicts.map((c) => `„${c.label}“`).join(", ");
  message.replaceChildren(
    el("span", {
      textContent: `${plan.conflicts.length === 1 ? "Ein Spielstand" : `${plan.conflicts.length} Spielstände`} aus der Sicherung ` +
        `${plan.conflicts.length === 1 ? "gibt" : "gibt"} es hier schon in einem anderen Stand: ${names}. Ersetzen?`,
    }),
    el(
      "span",
      { className: "buttons" },
      el("button", { id: "backup-keep", textContent: "Hiesige behalten", onclick: () => finish(false) }),
      el("button", { id: "backup-replace", className: "primary", textContent: "Ersetzen", onclick: () => finish(true) }),
    ),
  );
  $("backup-keep").focus();
}

// ---- small dialogs ----------------------------------------------------------------------------------------

/**
 * A small overlay card (heading `title`, then `children`) that replaces an earlier one with the same id,
 * is appended to the page and gives the focus to the element `focus`. `label` becomes its aria-label;
 * `onEscape`, when given, runs on the Escape key. Returns the dialog's element.
 */
function showSmallDialog({ id, title, role, label, onEscape, focus }, ...children) {
  const earlier = $(id);
  if (earlier) earlier.remove();
  const dialog = el("section", { id, className: "overlay" }, el("div", { className: "card small" }, el("h2", { textContent: title }), ...children));
  dialog.setAttribute("role", role);
  if (label) dialog.setAttribute("aria-label", label);
  if (onEscape) dialog.addEventListener("keydown", (e) => { if (e.key === "Escape") onEscape(); });
  document.body.append(dialog);
  $(focus).focus();
  return dialog;
}

// ---- after an engine crash ------------------------------------------------------------------------------

/** Offer to reload and continue from the last autosave; `reload()` does the rest. */
export function showCrashDialog(errorMessage, { hasAutosave, reload }) {
  const text = hasAutosave
    ? "Neu laden und beim letzten automatischen Spielstand weiterspielen?"
    : "Neu laden, um die Spiel-Engine neu zu starten?";
  showSmallDialog(
    { id: "crash", title: "Die Spiel-Engine ist abgestürzt", role: "alertdialog", focus: "crash-reload" },
    el("p", { textContent: errorMessage }),
    el("p", { textContent: text }),
    el("button", { id: "crash-reload", className: "primary wide", textContent: "Neu laden", onclick: () => reload() }),
  );
}

// ---- one game, one tab (issue 12.1) ----------------------------------------------------------------------

/**
 * "Dieses Spiel ist in einem anderen Tab geöffnet": offer to take the game over, or stay in the menu.
 * @param {{text: string, takeOver: () => void, close?: () => void}} options
 */
export function showTabDialog({ title, text, takeOver, close }) {
  let dialog = null;
  const done = () => { dialog.remove(); if (close) close(); };
  dialog = showSmallDialog(
    { id: "tab-elsewhere", title, role: "alertdialog", label: title, onEscape: done, focus: "tab-takeover" },
    el("p", { textContent: text }),
    el("button", { id: "tab-takeover", className: "primary wide", textContent: "Hier weiterspielen", onclick: () => { dialog.remove(); takeOver(); } }),
    el("button", { id: "tab-menu", className: "wide ghost", textContent: "Zum Hauptmenü", onclick: done }),
  );
}

// ---- storage full (issue 12.6) ----------------------------------------------------------------------------

/**
 * The small header indicator after a failed autosave: "⚠ n" (n autosaves not written), a button that
 * opens a dialog with the reason and two ways out: export the running game, or free space.
 * `failures` 0 hides it.
 */
export function showSaveWarning(failures, { message, exportGame, freeSpace }) {
  let chip = $("save-warning");
  if (!chip) {
    chip = el("button", { id: "save-warning", type: "button", className: "save-warning" });
    const anchor = $("btn-menu");
    if (anchor) anchor.after(chip);
    else ($("header") || document.body).append(chip);
  }
  chip.hidden = failures === 0;
  if (!failures) return;
  chip.textContent = `⚠ ${failures > 99 ? "99+" : failures}`;
  const label = `Nicht gespeichert: ${failures} ${failures === 1 ? "automatische Speicherung ist" : "automatische Speicherungen sind"} fehlgeschlagen, der Speicher ist voll`;
  chip.title = label;
  chip.setAttribute("aria-label", label);
  chip.onclick = () => openSaveWarning(failures, { message, exportGame, freeSpace });
}

function openSaveWarning(failures, { message, exportGame, freeSpace }) {
  let dialog = null;
  const close = () => dialog.remove();
  dialog = showSmallDialog(
    { id: "save-warning-dialog", title: "Nicht gespeichert", role: "dialog", label: "Nicht gespeichert", onEscape: close, focus: "save-warning-export" },
    el("p", { textContent: message }),
    el("p", {
      textContent: `Seit dem letzten gelungenen automatischen Spielstand ${failures === 1 ? "ist 1 Speicherung" : `sind ${failures} Speicherungen`} ` +
        "fehlgeschlagen. Exportiere das laufende Spiel als Datei oder lösche alte Spielstände; danach wird sofort wieder gespeichert.",
    }),
    el("button", { id: "save-warning-export", className: "primary wide", textContent: "Spiel als Datei exportieren", onclick: async () => { close(); await exportGame(); } }),
    el("button", { id: "save-warning-free", className: "wide", textContent: "Platz schaffen (Spielstände)", onclick: () => { close(); freeSpace(); } }),
    el("button", { id: "save-warning-close", className: "wide ghost", textContent: "Weiterspielen", onclick: close }),
  );
}
