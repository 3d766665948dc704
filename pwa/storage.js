// storage.js — the shell's small autosave API (readAutosave, writeAutosave, hasAutosave,
// clearAutosave), kept for its callers. The store behind it is pwa/saves.js: versioned records with
// migration, unreadable entries reported and left alone, quota handling, more save slots.

export { readAutosave, writeAutosave, hasAutosave, clearAutosave } from "./saves.js";
