// protokoll.js — the in-game log (Protokoll, R64) kept per side (D15, issue 11.2). The engine writes
// every line (kaltfront/logtext.py) from what one side saw and hands the page one list per person
// (`apply` / `ai_step` → `log: {side: [lines]}`); this module only keeps those lists, shows the one of
// the side at the screen, and stores them in the save record's meta (`logs`). Old records had one
// shared `log`: it is kept for a game with one person or without fog, and dropped for hot-seat under
// fog, where nobody can tell whose eyes a line came from.

const KEEP = 200;    // lines per side in memory
const SAVED = 50;    // lines per side in a save record

export class Protokoll {
  constructor(listEl) {
    this.el = listEl;
    this.logs = { nordbund: [], liga: [] };
  }

  clear() { this.logs = { nordbund: [], liga: [] }; }

  /** Lines from the engine: {side: [line, …]}. */
  add(bySide) {
    if (!bySide || typeof bySide !== "object") return;
    for (const side of Object.keys(this.logs)) {
      const lines = bySide[side];
      if (!Array.isArray(lines) || !lines.length) continue;
      const log = this.logs[side];
      for (const line of lines) if (typeof line === "string") log.push(line);
      if (log.length > KEEP) log.splice(0, log.length - KEEP);
    }
  }

  /** Show the log of `side`; nothing while the hot-seat cover is up (R61, D15). */
  render(side, covered = false) {
    const log = !covered && this.logs[side] ? this.logs[side] : [];
    const recent = log.slice(-60).reverse();
    this.el.innerHTML = recent.map((l) => `<li>${l.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</li>`).join("");
    this.el.start = log.length;
    this.el.dataset.side = covered ? "" : side || "";
  }

  lines(side) { return (this.logs[side] || []).slice(); }

  /** For the save record's meta. */
  toMeta() { return { nordbund: this.logs.nordbund.slice(-SAVED), liga: this.logs.liga.slice(-SAVED) }; }

  /**
   * From a save record's meta. `humans`: the sides played by people; `fog`: the game's fog.
   * A record from before D15 has one shared `log`; under hot-seat fog it is dropped (see the top).
   */
  fromMeta(meta, { humans = [], fog = false, viewer = null } = {}) {
    this.clear();
    const m = meta || {};
    if (m.logs && typeof m.logs === "object") {
      for (const side of Object.keys(this.logs)) {
        if (Array.isArray(m.logs[side])) this.logs[side] = m.logs[side].filter((l) => typeof l === "string").slice(-KEEP);
      }
      return;
    }
    if (!Array.isArray(m.log)) return;
    if (humans.length === 2 && fog) return;
    const old = m.log.filter((l) => typeof l === "string").slice(-KEEP);
    const owners = humans.length ? humans : viewer ? [viewer] : [];
    for (const side of owners) if (this.logs[side]) this.logs[side] = old.slice();
  }
}
