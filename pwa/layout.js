// layout.js — all pixel math of the hex map, in one place (HOUSE_STYLE: "Pixel math lives only in JS,
// in one layout module"). Odd-r offset coordinates, pointy-top hexes, as in docs/api.md:
//   x = size*sqrt(3)*(col + 0.5*(row&1)),  y = size*1.5*row
// World coordinates are these pixels at size = HEX_SIZE; the Camera maps world to screen pixels.
// Nothing here knows a game rule: the engine decides what is reachable or visible.

export const HEX_SIZE = 32; // world units: circumradius of one hex
export const SQRT3 = Math.sqrt(3);
export const HEX_W = SQRT3 * HEX_SIZE; // width of a pointy-top hex
export const ROW_H = 1.5 * HEX_SIZE;

/** The formula of docs/api.md, verbatim: centre of hex (col, row) for hexes of circumradius `size`. */
export function hexCentre(col, row, size) {
  return { x: size * SQRT3 * (col + 0.5 * (row & 1)), y: size * 1.5 * row };
}

/** World-pixel centre of hex (col, row): hexCentre shifted by half a hex so the map starts at (0, 0). */
export function hexToWorld(col, row) {
  const c = hexCentre(col, row, HEX_SIZE);
  return { x: c.x + HEX_W / 2, y: c.y + HEX_SIZE };
}

/** Size of a whole map in world pixels (with half a hex to spare on the right for odd rows). */
export function mapWorldSize(width, height) {
  return { w: HEX_W * (width + 0.5), h: ROW_H * (height - 1) + 2 * HEX_SIZE };
}

/** The six corner offsets of a pointy-top hex of circumradius r (starting at the top, clockwise). */
export function cornerOffsets(r) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 90);
    out.push([r * Math.cos(a), r * Math.sin(a)]);
  }
  return out;
}

/** Append a hex outline path to ctx (caller calls beginPath/fill/stroke). */
export function hexPath(ctx, cx, cy, r) {
  const c = cornerOffsets(r);
  ctx.moveTo(cx + c[0][0], cy + c[0][1]);
  for (let i = 1; i < 6; i++) ctx.lineTo(cx + c[i][0], cy + c[i][1]);
  ctx.closePath();
}

// Cube coordinates (Red Blob Games): used only to round a pixel to the hex under it and to show the
// HQ chip's distance label. Neither is a rule; the engine never sees these numbers.
function offsetToCube(col, row) {
  const q = col - (row - (row & 1)) / 2;
  return [q, row, -q - row];
}

function cubeRound(q, r, s) {
  let rq = Math.round(q), rr = Math.round(r), rs = Math.round(s);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq, rr];
}

/** Hex (col, row) under a world pixel; may lie outside the map. */
export function worldToHex(x, y) {
  const px = x - HEX_W / 2, py = y - HEX_SIZE;
  const q = (SQRT3 / 3 * px - py / 3) / HEX_SIZE;
  const r = (2 / 3 * py) / HEX_SIZE;
  const [cq, cr] = cubeRound(q, r, -q - r);
  return { col: cq + (cr - (cr & 1)) / 2, row: cr };
}

/** Grid distance in hexes, for the HQ chip's label. */
export function hexDistance(a, b) {
  const [aq, ar, as] = offsetToCube(a[0], a[1]);
  const [bq, br, bs] = offsetToCube(b[0], b[1]);
  return Math.max(Math.abs(aq - bq), Math.abs(ar - br), Math.abs(as - bs));
}

export const MIN_SCALE = 0.25;
export const MAX_SCALE = 3;

/**
 * Camera: screen = (world - (x, y)) * scale. (x, y) is the world point at the screen's top left.
 * Every pan and zoom goes through `set` so clamping happens in one function (GoogleChromeLabs/pinch-zoom).
 */
export class Camera {
  constructor() {
    this.x = 0; this.y = 0; this.scale = 1;
    this.viewW = 1; this.viewH = 1; // CSS pixels of the map canvas
    this.worldW = 1; this.worldH = 1;
  }
  setView(w, h) { this.viewW = w; this.viewH = h; this.clamp(); }
  setWorld(w, h) { this.worldW = w; this.worldH = h; this.clamp(); }
  set(x, y, scale) {
    this.scale = Math.min(MAX_SCALE, Math.max(this.minScale(), scale));
    this.x = x; this.y = y;
    this.clamp();
  }
  /** Zoomed out at most until the whole map fits (never smaller than MIN_SCALE allows). */
  minScale() {
    const fit = Math.min(this.viewW / this.worldW, this.viewH / this.worldH);
    return Math.max(MIN_SCALE, Math.min(fit * 0.9, 1));
  }
  clamp() {
    // Keep at least a third of the view on the map, so the map can never be lost off screen.
    const vw = this.viewW / this.scale, vh = this.viewH / this.scale;
    const mx = vw / 3 * 2, my = vh / 3 * 2;
    this.x = Math.min(this.worldW - vw + mx, Math.max(-mx, this.x));
    this.y = Math.min(this.worldH - vh + my, Math.max(-my, this.y));
    if (vw >= this.worldW) this.x = (this.worldW - vw) / 2;
    if (vh >= this.worldH) this.y = (this.worldH - vh) / 2;
  }
  panBy(dxScreen, dyScreen) { this.set(this.x - dxScreen / this.scale, this.y - dyScreen / this.scale, this.scale); }
  /** Zoom by factor keeping screen point (sx, sy) fixed. */
  zoomAt(factor, sx, sy) {
    const wx = this.x + sx / this.scale, wy = this.y + sy / this.scale;
    const s = Math.min(MAX_SCALE, Math.max(this.minScale(), this.scale * factor));
    this.set(wx - sx / s, wy - sy / s, s);
  }
  centreOn(wx, wy, scale = this.scale) {
    const s = Math.min(MAX_SCALE, Math.max(this.minScale(), scale));
    this.set(wx - this.viewW / 2 / s, wy - this.viewH / 2 / s, s);
  }
  /**
   * Frame a start view on world point (wx, wy) (issue 11.12): zoomed in at least so far that the map
   * covers the view (up to `maxScale`; a tiny map is not blown up without end), the point as near the
   * middle as the map's edges allow, and no empty area beside the map where the map is larger than the
   * view. Panning later may still look past the edge (`clamp`); a start view never wastes the screen.
   */
  frame(wx, wy, scale, maxScale = 1.6) {
    const cover = Math.max(this.viewW / this.worldW, this.viewH / this.worldH);
    const s = Math.min(MAX_SCALE, Math.max(this.minScale(), scale, Math.min(cover, maxScale)));
    const vw = this.viewW / s, vh = this.viewH / s;
    const place = (c, v, world) => (v >= world ? (world - v) / 2 : Math.min(world - v, Math.max(0, c - v / 2)));
    this.scale = s;
    this.x = place(wx, vw, this.worldW);
    this.y = place(wy, vh, this.worldH);
  }
  /** Share of the view (0…1) that shows no map: for tests and the bench, never for a rule. */
  offMapShare() {
    const vw = this.viewW / this.scale, vh = this.viewH / this.scale;
    const ix = Math.max(0, Math.min(this.x + vw, this.worldW) - Math.max(this.x, 0));
    const iy = Math.max(0, Math.min(this.y + vh, this.worldH) - Math.max(this.y, 0));
    return 1 - (ix * iy) / (vw * vh);
  }
  /** What a save keeps of the view: the world point at its centre and the zoom (and, for older
   *  readers, the top-left corner). The centre, not the corner, so a game saved on a desktop and
   *  resumed on a phone shows the same place. */
  snapshot() {
    const c = this.toWorld(this.viewW / 2, this.viewH / 2);
    return { x: this.x, y: this.y, scale: this.scale, cx: c.x, cy: c.y };
  }
  /**
   * Bring back a `snapshot()` (or an older save's {x, y, scale}). Call it only after `setWorld` and
   * `setView` told the camera the map's and the canvas's size: clamping against a map of unknown size
   * pinned the view to an empty corner (issue 11.1). False (and nothing changed) for a missing or
   * broken value, so the caller can frame the map instead.
   */
  restore(saved) {
    if (!saved || typeof saved !== "object") return false;
    const ok = (v) => typeof v === "number" && Number.isFinite(v);
    if (!ok(saved.scale) || saved.scale <= 0) return false;
    if (ok(saved.cx) && ok(saved.cy)) { this.centreOn(saved.cx, saved.cy, saved.scale); return true; }
    if (ok(saved.x) && ok(saved.y)) { this.set(saved.x, saved.y, saved.scale); return true; }
    return false;
  }
  toScreen(wx, wy) { return { x: (wx - this.x) * this.scale, y: (wy - this.y) * this.scale }; }
  toWorld(sx, sy) { return { x: this.x + sx / this.scale, y: this.y + sy / this.scale }; }
  hexToScreen(col, row) { const w = hexToWorld(col, row); return this.toScreen(w.x, w.y); }
  screenToHex(sx, sy) { const w = this.toWorld(sx, sy); return worldToHex(w.x, w.y); }
  /** Is the world point inside the view (with a margin in screen pixels)? */
  isVisible(wx, wy, margin = 0) {
    const p = this.toScreen(wx, wy);
    return p.x >= margin && p.y >= margin && p.x <= this.viewW - margin && p.y <= this.viewH - margin;
  }
}
