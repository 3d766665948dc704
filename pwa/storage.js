// storage.js — the one place that touches localStorage (R63, P4). Kept small on purpose: a later issue
// replaces it with versioned multi-slot saves, export/import and quota handling.
// `kaltfront.autosave` holds exactly the engine's save text (op `save`); what the shell needs on top
// (who plays which side, the camera) lives beside it under `kaltfront.autosave.meta`.

const KEY = "kaltfront.autosave";
const META_KEY = "kaltfront.autosave.meta";

function store() {
  try { return window.localStorage; } catch { return null; } // private modes may throw on access
}

/** Store the engine's save text and the shell's metadata. Returns false if the browser refused. */
export function writeAutosave(saveText, meta) {
  const s = store();
  if (!s) return false;
  try {
    s.setItem(KEY, saveText);
    s.setItem(META_KEY, JSON.stringify({ ...meta, savedAt: new Date().toISOString() }));
    return true;
  } catch {
    return false; // quota exceeded: the game goes on, the player just has no autosave
  }
}

/** {save, meta} or null when there is no autosave. */
export function readAutosave() {
  const s = store();
  if (!s) return null;
  const save = s.getItem(KEY);
  if (!save) return null;
  let meta = {};
  try { meta = JSON.parse(s.getItem(META_KEY) || "{}") || {}; } catch { meta = {}; }
  return { save, meta };
}

export function hasAutosave() {
  const s = store();
  return !!(s && s.getItem(KEY));
}

export function clearAutosave() {
  const s = store();
  if (!s) return;
  s.removeItem(KEY);
  s.removeItem(META_KEY);
}
