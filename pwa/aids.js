// aids.js — the player aids of issue 13 on the map: "Rückgängig" (undo within a phase, D16) and the
// enemy fire zones ("Feuerzonen"). Every rule stays in the engine: whether an action can be taken back
// and why not comes from the bridge's `undo` answer; which hexes are under fire, and the expected damage
// there, from `fire_zones`. This module only asks, caches the answer until the position changes, and
// draws it. Controls are inserted by JS (the header's markup belongs to the layout work).

import { HEX_SIZE, hexToWorld, hexPath } from "./layout.js";

const key = (h) => h[0] + "," + h[1];

export class Aids {
  /**
   * @param {object} hooks
   *   call(op, args) → Promise, toast(text, kind), requestDraw(), myTurn() → bool,
   *   selectedUnit() → own or enemy unit of the observation or null, viewer() → side,
   *   afterUndo(reply) → Promise (the app takes the new view, like after an action), busy() → bool,
   *   inGame() → bool, aiRunning() → bool
   */
  constructor(hooks) {
    this.h = hooks;
    this.undoState = null;   // the bridge's `undo` answer for the current view
    this.zonesOn = false;
    this.generation = 0;     // bumps with every new view: cached zones belong to one position
    this.cache = new Map();  // "gen|target|enemy" -> Promise of the fire_zones answer
    this.zones = null;       // answer used for the tint (with the selected own unit as target)
    this.enemy = null;       // {id, answer} for a tapped enemy
    this.pathZones = null;   // answer for the path preview's damage labels
  }

  // ---- controls -------------------------------------------------------------------------------------
  mount() {
    const end = document.getElementById("btn-end-phase");
    if (end && !document.getElementById("btn-undo")) {
      const b = document.createElement("button");
      b.id = "btn-undo";
      b.type = "button";
      b.className = "aid-undo";
      b.title = "Letzte Aktion zurücknehmen (Strg+Z, Rücktaste)";
      b.innerHTML = '<span class="undo-icon" aria-hidden="true">↶</span><span class="undo-text"><span class="undo-label">Rückgängig</span> <span class="undo-reason" data-testid="undo-reason"></span></span>';
      b.addEventListener("click", () => this.undo());
      end.before(b);
    }
    const stage = document.getElementById("stage");
    if (stage && !document.getElementById("btn-fire-zones")) {
      const t = document.createElement("button");
      t.id = "btn-fire-zones";
      t.type = "button";
      t.className = "aid-zones";
      t.setAttribute("aria-pressed", "false");
      t.title = "Feuerzonen: wo sichtbare Feinde im nächsten Zug hinschießen können";
      t.innerHTML = '<span aria-hidden="true">◎</span> Feuerzonen';
      t.addEventListener("click", () => this.toggleZones());
      stage.append(t);
    }
    this.render();
  }

  /** A new view from the engine: take its undo answer, forget zones of the old position. */
  setView(v) {
    if (v && v.undo) this.undoState = v.undo;
    this.generation++;
    this.cache.clear();
    this.zones = this.pathZones = null;
    if (this.enemy) this.enemy = null;
    this.render();
    // During the computer's turn every step is a new view: ask once it is over (refresh() sets it).
    if (this.zonesOn && !this.h.aiRunning()) this.loadZones();
  }

  render() {
    const b = document.getElementById("btn-undo");
    if (b) {
      const u = this.undoState;
      const mine = this.h.myTurn();
      const ok = !!(u && u.ok && mine);
      b.hidden = !this.h.inGame();
      b.setAttribute("aria-disabled", ok ? "false" : "true");
      b.classList.toggle("locked", !ok);
      const reason = !mine ? "" : ok ? (u.steps > 1 ? `${u.steps} Schritte` : "") : (u && u.reason) || "";
      b.querySelector(".undo-reason").textContent = reason;
      b.dataset.code = ok ? "ok" : (u && u.code) || "";
      // The accessible name contains the visible words in their order (WCAG 2.5.3, axe
      // label-content-name-mismatch), whichever of them this width shows.
      b.setAttribute("aria-label", ok ? ["Rückgängig", reason].filter(Boolean).join(" ")
        : `Rückgängig ${reason || "nicht am Zug"} (gesperrt)`);
      b.title = ok ? "Letzte Aktion zurücknehmen (Strg+Z, Rücktaste)" : `Rückgängig gesperrt: ${reason || "nicht am Zug"}`;
    }
    const t = document.getElementById("btn-fire-zones");
    if (t) {
      t.hidden = !this.h.inGame();
      t.setAttribute("aria-pressed", this.zonesOn ? "true" : "false");
      t.classList.toggle("on", this.zonesOn);
    }
  }

  // ---- undo (D16) -----------------------------------------------------------------------------------
  async undo() {
    if (!this.h.myTurn() || this.h.busy()) return;
    const u = this.undoState;
    if (!u || !u.ok) {
      // The button says why; a tap on the locked button says it once more, for small screens.
      if (u && u.reason) this.h.toast(`Zurücknehmen geht nicht: ${u.reason}.`, "info");
      return;
    }
    try {
      const reply = await this.h.call("undo", {});
      await this.h.afterUndo(reply);
    } catch (e) {
      this.h.toast(e.message);
    }
  }

  // ---- fire zones -----------------------------------------------------------------------------------
  ask(target, enemy) {
    const k = `${this.generation}|${target ?? ""}|${enemy ?? ""}`;
    let p = this.cache.get(k);
    if (!p) {
      const args = {};
      if (target != null) args.target = target;
      if (enemy != null) args.enemy = enemy;
      p = this.h.call("fire_zones", args).catch(() => null);
      this.cache.set(k, p);
    }
    return p;
  }

  ownTarget() {
    const u = this.h.selectedUnit();
    return u && u.side === this.h.viewer() ? u.id : null;
  }

  async loadZones() {
    const gen = this.generation, target = this.ownTarget();
    const z = await this.ask(target, null);
    if (gen !== this.generation || target !== this.ownTarget()) return;
    this.zones = z;
    this.h.requestDraw();
  }

  toggleZones() {
    this.zonesOn = !this.zonesOn;
    this.render();
    if (this.zonesOn) this.loadZones(); else this.h.requestDraw();
  }

  /** The selection changed: re-tint for the selected unit's armour class, show a tapped enemy's reach. */
  async selectionChanged() {
    this.pathZones = null;
    const u = this.h.selectedUnit();
    if (this.zonesOn) this.loadZones();
    if (u && u.side !== this.h.viewer()) {
      const gen = this.generation;
      const z = await this.ask(null, u.id);
      if (gen !== this.generation || this.h.selectedUnit() !== u) return;
      this.enemy = z ? { id: u.id, entry: (z.enemies || []).find((e) => e.id === u.id) } : null;
    } else {
      this.enemy = null;
      // Moving: the path preview marks hexes under fire with the expected damage there.
      if (u && this.h.myTurn()) {
        const gen = this.generation;
        const z = await this.ask(u.id, null);
        if (gen !== this.generation || this.ownTarget() !== u.id) return;
        this.pathZones = z;
      }
    }
    this.h.requestDraw();
  }

  /** Expected damage against the selected unit on hex h, 0 when no visible enemy can fire there. */
  damageAt(h) {
    const z = this.pathZones;
    if (!z) return 0;
    if (!this._pathIndex || this._pathIndexFor !== z) {
      this._pathIndex = new Map(z.now.map((c) => [key(c.at), c.damage || 0]));
      this._pathIndexFor = z;
    }
    return this._pathIndex.get(key(h)) || 0;
  }

  // ---- drawing (called by the renderer) --------------------------------------------------------------
  /** World space, under the units: the tint of every hex under fire, and a tapped enemy's reach. */
  drawWorld(ctx, camera) {
    const lw = 1 / camera.scale;
    if (this.zonesOn && this.zones) {
      const z = this.zones;
      const targeted = z.target != null;
      // After their move (the turn after next): a light wash, so the "now" zone stands out.
      ctx.beginPath();
      for (const c of z.after) { const { x, y } = hexToWorld(c.at[0], c.at[1]); hexPath(ctx, x, y, HEX_SIZE - 0.5); }
      ctx.fillStyle = "rgba(255,150,40,0.16)";
      ctx.fill();
      for (const c of z.now) {
        const dmg = targeted ? c.damage || 0 : Math.max(0, ...Object.values(c.classes));
        if (targeted && !dmg) continue;
        const { x, y } = hexToWorld(c.at[0], c.at[1]);
        ctx.beginPath(); hexPath(ctx, x, y, HEX_SIZE - 0.5);
        ctx.fillStyle = `rgba(230,30,30,${(0.18 + 0.05 * Math.min(dmg, 10)).toFixed(2)})`;
        ctx.fill();
        ctx.strokeStyle = "rgba(150,0,0,0.55)"; ctx.lineWidth = lw; ctx.stroke();
      }
    }
    if (this.enemy && this.enemy.entry) {
      const e = this.enemy.entry;
      if (e.after && e.after.length) {
        ctx.beginPath();
        for (const h of e.after) { const { x, y } = hexToWorld(h[0], h[1]); hexPath(ctx, x, y, HEX_SIZE - 1); }
        ctx.fillStyle = "rgba(255,150,40,0.18)"; ctx.fill();
      }
      if (e.reach && e.reach.length) {
        ctx.beginPath();
        for (const h of e.reach) { const { x, y } = hexToWorld(h[0], h[1]); hexPath(ctx, x, y, HEX_SIZE - 2); }
        ctx.fillStyle = "rgba(255,235,120,0.32)"; ctx.fill();
        ctx.strokeStyle = "rgba(255,235,120,0.9)"; ctx.lineWidth = 1.5 * lw; ctx.stroke();
      }
      if (e.now && e.now.length) {
        ctx.beginPath();
        for (const h of e.now) { const { x, y } = hexToWorld(h[0], h[1]); hexPath(ctx, x, y, HEX_SIZE - 3); }
        ctx.fillStyle = "rgba(230,30,30,0.28)"; ctx.fill();
        ctx.setLineDash([6 * lw, 4 * lw]);
        ctx.strokeStyle = "#e8202a"; ctx.lineWidth = 2.5 * lw; ctx.stroke();
        ctx.setLineDash([]);
      }
    }
  }

  /** Screen space: on the path preview, every hex under fire gets a ring and the end its expected damage. */
  drawScreen(ctx, camera, path) {
    if (!path || path.length < 2 || !this.pathZones) return;
    const r = Math.max(HEX_SIZE * camera.scale, 8);
    path.forEach((h, i) => {
      const dmg = this.damageAt(h);
      if (!dmg || i === 0) return;
      const w = hexToWorld(h[0], h[1]);
      const p = camera.toScreen(w.x, w.y);
      const end = i === path.length - 1;
      ctx.beginPath(); ctx.arc(p.x, p.y, end ? r * 0.55 : r * 0.3, 0, Math.PI * 2);
      ctx.strokeStyle = "#e8202a"; ctx.lineWidth = end ? 3 : 2; ctx.stroke();
      if (!end) return;
      const label = `⚠ −${dmg}`;
      ctx.font = "bold 13px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
      const tw = ctx.measureText(label).width + 10;
      const y = p.y - r - 6; // above the hex, like the attack preview's label
      ctx.fillStyle = "rgba(140,0,0,0.92)";
      ctx.beginPath(); ctx.rect(p.x - tw / 2, y - 9, tw, 18); ctx.fill();
      ctx.fillStyle = "#fff"; ctx.fillText(label, p.x, y + 0.5);
    });
  }

  /** For the panel / tests: the expected damage at the end of the previewed path. */
  pathDamage(path) {
    if (!path || path.length < 2) return 0;
    return this.damageAt(path[path.length - 1]);
  }
}

