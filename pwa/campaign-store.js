// campaign-store.js — the running Feldzug in localStorage (issue 15, C12), under its own key prefix
// "kaltfront.feldzug." so the battle autosave and the save slots (pwa/saves.js) never see it. One
// record: the engine's campaign save text (op campaign_save, which holds a running battle whole), who
// plays each side, and whether the player was playing the battle by hand (so a reload goes straight
// back into it). The engine validates the save text on load; this module only stores it.

export const CAMPAIGN_KEY = "kaltfront.feldzug.aktuell";
export const CAMPAIGN_KIND = "kaltfront-feldzug-record";
export const QUOTA_TEXT = "Der Feldzug konnte nicht gespeichert werden: der Speicher des Browsers ist voll.";

function store() {
  try { return window.localStorage; } catch { return null; }
}

/** The stored record {kind, save, players, inBattle, savedAt} or null (none, or unreadable). */
export function readCampaign() {
  const s = store();
  const text = s && s.getItem(CAMPAIGN_KEY);
  if (!text) return null;
  try {
    const r = JSON.parse(text);
    if (!r || r.kind !== CAMPAIGN_KIND || typeof r.save !== "string" || !r.players) return null;
    return r;
  } catch { return null; }
}

export function hasCampaign() { return readCampaign() !== null; }

/** Write the record; {ok, message} — a full quota leaves the previous record as it was. */
export function writeCampaign(saveText, { players, inBattle = false } = {}) {
  const s = store();
  if (!s) return { ok: false, message: QUOTA_TEXT };
  const record = { kind: CAMPAIGN_KIND, version: 1, save: saveText, players, inBattle: !!inBattle, savedAt: Date.now() };
  try {
    s.setItem(CAMPAIGN_KEY, JSON.stringify(record));
    return { ok: true };
  } catch {
    return { ok: false, message: QUOTA_TEXT };
  }
}

export function clearCampaign() {
  const s = store();
  if (s) s.removeItem(CAMPAIGN_KEY);
}
