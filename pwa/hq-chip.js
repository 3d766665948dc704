// hq-chip.js — where the HQ finder chip (R58) sits on the map's edge (issue 11.4). It used to sit where
// the line from the view's centre to the enemy HQ leaves the view: right on the front, over units,
// reachable hexes and targets, so a tap meant for a hex panned the map instead. Now it slides along the
// edge of the view to the nearest place that covers no hex the player needs (units, buildings, reachable
// hexes, targets, the path, the selection, the keyboard cursor) and none of the map's own controls (the
// minimap and its toggle, the computer's bar, the objective line, the map's labels). Layout only: which hexes matter comes
// from the engine's answers in the view; this module never decides a rule.

import { hexToWorld, HEX_SIZE } from "./layout.js";

const EDGE = 6;   // px between the chip and the view's edge
const STEP = 8;   // px between candidate places along the edge
const PAD = 3;    // px of air kept around a needed hex

/** The hexes a player may need to see or tap in this view. */
function neededHexes(view) {
  const out = [];
  const add = (h) => { if (h) out.push(h); };
  for (const u of view.obs.units) if (!(view.hiddenUnits && view.hiddenUnits.has(u.id))) add(u.at);
  for (const b of view.obs.buildings) add(b.at);
  for (const r of view.reach || []) add(r.to);
  for (const t of view.targets || []) add(t.target);
  for (const h of view.loadHexes || []) add(h);
  for (const h of view.unloadHexes || []) add(h);
  for (const h of view.path || []) add(h);
  add(view.selectedHex);
  add(view.cursor);
  return out;
}

const overlapArea = (a, b) =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

/**
 * Places along the view's edge, starting where the line toward the HQ leaves the view and moving away
 * from it on both sides in turn: the first free one is the one nearest the true direction.
 */
function candidates(viewW, viewH, w, h, dx, dy) {
  const x0 = EDGE, y0 = EDGE, x1 = viewW - EDGE - w, y1 = viewH - EDGE - h; // top-left corners allowed
  if (x1 < x0 || y1 < y0) return [{ x: Math.max(0, (viewW - w) / 2), y: Math.max(0, (viewH - h) / 2) }];
  // The perimeter of the rectangle of allowed top-left corners, as a loop of length L.
  const W = x1 - x0, H = y1 - y0, L = 2 * (W + H);
  const at = (s) => {
    s = ((s % L) + L) % L;
    if (s < W) return { x: x0 + s, y: y0 };
    s -= W; if (s < H) return { x: x1, y: y0 + s };
    s -= H; if (s < W) return { x: x1 - s, y: y1 };
    s -= W; return { x: x0, y: y1 - s };
  };
  // Where the direction leaves the view, as a perimeter position.
  const cx = viewW / 2, cy = viewH / 2;
  const k = Math.min((W / 2) / Math.abs(dx || 1e-9), (H / 2) / Math.abs(dy || 1e-9));
  const px = Math.min(x1, Math.max(x0, cx + dx * k - w / 2)), py = Math.min(y1, Math.max(y0, cy + dy * k - h / 2));
  let s0;
  if (Math.abs(py - y0) < 0.5) s0 = px - x0;
  else if (Math.abs(px - x1) < 0.5) s0 = W + (py - y0);
  else if (Math.abs(py - y1) < 0.5) s0 = W + H + (x1 - px);
  else s0 = 2 * W + H + (y1 - py);
  const out = [at(s0)];
  for (let d = STEP; d <= L / 2; d += STEP) out.push(at(s0 + d), at(s0 - d));
  return out;
}

/**
 * Show or hide `chip` for the enemy HQ at hex `enemyAt` (null: hide). `html` and `title` are the chip's
 * words (the part with class "hq-word" is left out in the compact form), `label` its accessible name, which
 * must contain the visible words (WCAG 2.5.3); `blockers` are elements of the
 * stage and `rects` rectangles in view pixels (the map's labels) the chip must not cover. Returns the
 * chosen rectangle in view pixels, or null when hidden.
 */
export function placeHqChip(chip, camera, view, enemyAt, { html, title, label, side, distance, blockers = [], rects = [] }) {
  if (!enemyAt) { chip.hidden = true; return null; }
  const w = hexToWorld(enemyAt[0], enemyAt[1]);
  if (camera.isVisible(w.x, w.y, 10)) { chip.hidden = true; return null; }
  chip.classList.remove("nordbund", "liga");
  chip.classList.add(side);
  if (chip.dataset.html !== html) { chip.innerHTML = html; chip.dataset.html = html; chip.sizes = null; }
  chip.title = title;
  chip.setAttribute("aria-label", label);
  chip.dataset.distance = distance;
  chip.hidden = false;
  const hq = camera.toScreen(w.x, w.y);
  const dx = hq.x - camera.viewW / 2, dy = hq.y - camera.viewH / 2;

  // Rectangles to keep clear, in view pixels: the stage's controls and the labels always; around each
  // needed hex first most of the hex, and if the edge has no such place (zoomed in on a crowded front),
  // its middle, where the unit is drawn and a tap lands.
  const fixed = [];
  for (const b of rects) fixed.push({ x: b.x - PAD, y: b.y - PAD, w: b.w + 2 * PAD, h: b.h + 2 * PAD });
  const stage = chip.parentElement.getBoundingClientRect();
  for (const el of blockers) {
    if (!el || el.hidden || !el.offsetParent) continue;
    const b = el.getBoundingClientRect();
    fixed.push({ x: b.left - stage.left - PAD, y: b.top - stage.top - PAD, w: b.width + 2 * PAD, h: b.height + 2 * PAD });
  }
  const centres = [];
  for (const h of neededHexes(view)) {
    const p = camera.hexToScreen(h[0], h[1]);
    if (p.x > -80 && p.y > -80 && p.x < camera.viewW + 80 && p.y < camera.viewH + 80) centres.push(p);
  }
  // Try the full chip, then the compact one (arrow and distance); the first place free of the avoided
  // rectangles wins. Where the whole edge is taken (zoomed far in on a crowded front), the chip goes
  // where it covers least and lets taps through to the map, half transparent.
  let best = null, free = false, compact = false;
  const tiers = [[false, 0.8], [false, 0.55], [true, 0.55]];
  let fallback = null, fallbackCost = Infinity;
  if (!chip.sizes) {
    // Measured once per text, not every frame: reading a size after a class change forces a layout.
    chip.sizes = {};
    for (const small of [false, true]) {
      chip.classList.toggle("compact", small);
      chip.sizes[small] = { w: chip.offsetWidth, h: chip.offsetHeight };
    }
  }
  for (const [small, k] of tiers) {
    const cw = chip.sizes[small].w, ch = chip.sizes[small].h;
    const r = Math.max(HEX_SIZE * camera.scale * k, 10) + PAD;
    const avoid = fixed.concat(centres.map((p) => ({ x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r })));
    for (const c of candidates(camera.viewW, camera.viewH, cw, ch, dx, dy)) {
      const rect = { x: c.x, y: c.y, w: cw, h: ch };
      let cost = 0;
      for (const a of avoid) { cost += overlapArea(rect, a); if (cost >= fallbackCost && small) break; }
      if (cost === 0) { best = rect; free = true; compact = small; break; }
      if (small && cost < fallbackCost) { fallbackCost = cost; fallback = rect; }
    }
    if (free) break;
  }
  if (!free) { best = fallback; compact = true; }
  chip.classList.toggle("compact", compact);
  chip.classList.toggle("yield", !free);
  const cw = best.w, ch = best.h;
  chip.style.left = `${best.x}px`;
  chip.style.top = `${best.y}px`;
  // The arrow points from where the chip ended up, not from the view's centre.
  const angle = Math.atan2(hq.y - (best.y + ch / 2), hq.x - (best.x + cw / 2)) * 180 / Math.PI;
  const arrow = chip.querySelector(".arrow");
  if (arrow) arrow.style.transform = `rotate(${angle.toFixed(0)}deg)`;
  return best;
}
