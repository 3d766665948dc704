// minimap.js — the small overview map (R37, R55, R57): terrain and fog, buildings in owner colour, both
// HQs as stars in faction colour, units as dots, a bright dot on units that can still fire, and the
// rectangle of the part the main map shows. Clicking or dragging on it pans the main map there.
// A toggle folds it away (issue 11.12): folded at first on a small map view, and the player's choice is
// remembered in this browser.

import { hexToWorld, hexPath, mapWorldSize, HEX_SIZE } from "./layout.js";
import { TERRAIN_COLOUR, SIDE_COLOUR, ownerColour, MARK } from "./palette.js";
import { starPath } from "./render.js";

const FOLD_KEY = "kaltfront.ui.minimap";
const OPEN_FROM = 400; // CSS px: a map view narrower or lower than this starts with the minimap folded

export class Minimap {
  constructor(canvas, camera, onPan, toggle = null) {
    this.canvas = canvas; this.camera = camera; this.onPan = onPan;
    this.toggle = toggle;
    if (toggle) toggle.addEventListener("click", () => { this.setOpen(!this.open); this.remember(); });
    this.ctx = canvas.getContext("2d");
    this.bg = null; this.bgKey = "";
    this.k = 1;
    let dragging = false;
    const go = (e) => {
      const r = canvas.getBoundingClientRect();
      const x = (e.clientX - r.left - this.ox) / this.k, y = (e.clientY - r.top - this.oy) / this.k;
      this.onPan(x, y);
    };
    canvas.addEventListener("pointerdown", (e) => { dragging = true; canvas.setPointerCapture?.(e.pointerId); go(e); e.stopPropagation(); });
    canvas.addEventListener("pointermove", (e) => { if (dragging) go(e); });
    canvas.addEventListener("pointerup", () => { dragging = false; });
    canvas.addEventListener("pointercancel", () => { dragging = false; });
  }

  get open() { return !this.canvas.hidden; }

  setOpen(open) {
    this.canvas.hidden = !open;
    if (!this.toggle) return;
    const label = open ? "Übersichtskarte ausblenden" : "Übersichtskarte zeigen";
    this.toggle.setAttribute("aria-expanded", String(open));
    this.toggle.setAttribute("aria-label", label);
    this.toggle.title = label;
  }

  remember() {
    try { localStorage.setItem(FOLD_KEY, this.open ? "open" : "folded"); } catch { /* private mode: not remembered */ }
  }

  /** At the start of a game: the player's last choice, else folded when the map view is small. */
  chooseOpen(viewW, viewH) {
    let stored = null;
    try { stored = localStorage.getItem(FOLD_KEY); } catch { stored = null; }
    this.setOpen(stored === "open" ? true : stored === "folded" ? false : viewW >= OPEN_FROM && viewH >= OPEN_FROM);
  }

  layout(obs) {
    const cssW = this.canvas.clientWidth || 160, cssH = this.canvas.clientHeight || 110;
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(cssW * dpr)) { this.canvas.width = Math.round(cssW * dpr); this.canvas.height = Math.round(cssH * dpr); this.bg = null; }
    const ws = mapWorldSize(obs.width, obs.height);
    this.k = Math.min(cssW / ws.w, cssH / ws.h);
    this.ox = (cssW - ws.w * this.k) / 2; this.oy = (cssH - ws.h * this.k) / 2;
    this.dpr = dpr; this.cssW = cssW; this.cssH = cssH;
  }

  draw(view) {
    const obs = view.obs;
    if (!obs || !this.open) return;
    this.layout(obs);
    const ctx = this.ctx, k = this.k, dpr = this.dpr;
    const key = obs.scenario + "|" + (obs.fog ? obs.visible.join("") : "") + "|" + this.canvas.width;
    if (!this.bg || this.bgKey !== key) {
      this.bg = document.createElement("canvas");
      this.bg.width = this.canvas.width; this.bg.height = this.canvas.height;
      const b = this.bg.getContext("2d");
      b.setTransform(k * dpr, 0, 0, k * dpr, this.ox * dpr, this.oy * dpr);
      for (let row = 0; row < obs.height; row++)
        for (let col = 0; col < obs.width; col++) {
          const { x, y } = hexToWorld(col, row);
          b.beginPath(); hexPath(b, x, y, HEX_SIZE + 1);
          b.fillStyle = TERRAIN_COLOUR[obs.terrain[row][col]] || "#ccc"; b.fill();
          if (obs.fog && obs.visible[row][col] !== "1") { b.fillStyle = MARK.fog; b.fill(); }
        }
      this.bgKey = key;
    }
    // Dots and stars change only with the observation: keep them in a second layer, so a pan or an
    // animation frame costs two drawImage calls and a rectangle.
    if (this.dotsObs !== obs || this.dotsReady !== view.readySet || this.dotsTurn !== view.myTurn || !this.dots
        || this.dots.width !== this.canvas.width) {
      this.dots = this.dots && this.dots.width === this.canvas.width ? this.dots : document.createElement("canvas");
      this.dots.width = this.canvas.width; this.dots.height = this.canvas.height;
      const d = this.dots.getContext("2d");
      d.setTransform(1, 0, 0, 1, 0, 0);
      d.fillStyle = "#122338"; d.fillRect(0, 0, this.canvas.width, this.canvas.height);
      d.drawImage(this.bg, 0, 0);
      d.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.drawDots(d, view);
      this.dotsObs = obs; this.dotsReady = view.readySet; this.dotsTurn = view.myTurn;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.dots, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    // Viewport rectangle (R57).
    const cam = this.camera;
    ctx.strokeStyle = "#fff"; ctx.lineWidth = 1.5;
    ctx.strokeRect(this.ox + cam.x * k, this.oy + cam.y * k, cam.viewW / cam.scale * k, cam.viewH / cam.scale * k);
  }

  drawDots(ctx, view) {
    const obs = view.obs, k = this.k;
    const P = (h) => { const w = hexToWorld(h[0], h[1]); return { x: this.ox + w.x * k, y: this.oy + w.y * k }; };
    for (const b of obs.buildings) {
      if (b.type === "hq") continue;
      const p = P(b.at);
      ctx.fillStyle = ownerColour(b.owner); ctx.fillRect(p.x - 2.5, p.y - 2.5, 5, 5);
      ctx.strokeStyle = "#fff"; ctx.lineWidth = 0.8; ctx.strokeRect(p.x - 2.5, p.y - 2.5, 5, 5);
    }
    const fire = obs.phase === "attack" && view.myTurn ? (view.readySet || new Set()) : new Set();
    for (const u of obs.units) {
      const p = P(u.at);
      ctx.beginPath(); ctx.arc(p.x, p.y, 2.4, 0, Math.PI * 2); ctx.fillStyle = SIDE_COLOUR[u.side]; ctx.fill();
      if (fire.has(u.id)) {
        // Bright dot: this unit can still fire (R55).
        ctx.beginPath(); ctx.arc(p.x, p.y, 3.6, 0, Math.PI * 2);
        ctx.fillStyle = "#fff86a"; ctx.fill(); ctx.strokeStyle = "#ff2d2d"; ctx.lineWidth = 1.2; ctx.stroke();
      }
    }
    for (const b of obs.buildings) {
      if (b.type !== "hq") continue;
      const p = P(b.at);
      starPath(ctx, p.x, p.y, 7); ctx.fillStyle = ownerColour(b.owner); ctx.fill();
      ctx.strokeStyle = "#fff"; ctx.lineWidth = 1.2; ctx.stroke();
    }
  }
}
