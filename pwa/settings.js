// settings.js — the player's small preferences, kept in localStorage under one key: the main menu's
// last choices (issue 11.14) and "nicht mehr fragen" for ending a phase with units that could still act
// (issue 11.7). Unreadable or missing values fall back to the defaults; nothing here touches a game.

const KEY = "kaltfront.settings";
const DEFAULTS = {
  askEndPhase: true,       // ask before "Phase beenden" while units can still move or fire
  menu: null,              // {spielart, scenario, mode, side, strength, fog} of the last new game
};

function read() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "null");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export function getSetting(name) {
  const v = read();
  return name in v ? v[name] : DEFAULTS[name];
}

/** Store one setting; false when the storage refuses (private mode, full): the game goes on. */
export function setSetting(name, value) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...read(), [name]: value }));
    return true;
  } catch {
    return false;
  }
}
