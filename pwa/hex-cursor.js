// hex-cursor.js — the keyboard's hex cursor (issue 11.13): the arrow keys move it one hex, the map
// follows it, Enter acts on its hex like a click and Esc cancels. It lets a player without a pointer
// select, move, attack, load, unload and build. Only where the cursor is: what a hex allows is the
// engine's answer, asked by app.js exactly as for a click.

import { hexToWorld } from "./layout.js";

const MARGIN = 70; // px: the map pans when the cursor comes closer than this to the view's edge

export class HexCursor {
  constructor(camera) { this.camera = camera; this.at = null; }

  get active() { return !!this.at; }

  /** Put the cursor on hex `at`, or on the hex in the middle of the view. */
  show(at, obs) {
    if (at) this.at = [at[0], at[1]];
    else { const h = this.camera.screenToHex(this.camera.viewW / 2, this.camera.viewH / 2); this.at = this.clampTo([h.col, h.row], obs); }
    this.follow();
  }

  hide() { this.at = null; }

  clampTo(h, obs) {
    return [Math.min(obs.width - 1, Math.max(0, h[0])), Math.min(obs.height - 1, Math.max(0, h[1]))];
  }

  /** One hex left/right, or one row up/down keeping the column (rows zigzag on an odd-r grid). */
  move(d, obs) {
    if (!this.at) { this.show(null, obs); return; }
    this.at = this.clampTo([this.at[0] + d[0], this.at[1] + d[1]], obs);
    this.follow();
  }

  /** Pan just enough to keep the cursor away from the view's edge. */
  follow() {
    const cam = this.camera, w = hexToWorld(this.at[0], this.at[1]), p = cam.toScreen(w.x, w.y);
    const m = Math.min(MARGIN, cam.viewW / 4, cam.viewH / 4);
    const dx = p.x < m ? m - p.x : p.x > cam.viewW - m ? cam.viewW - m - p.x : 0;
    const dy = p.y < m ? m - p.y : p.y > cam.viewH - m ? cam.viewH - m - p.y : 0;
    if (dx || dy) cam.panBy(dx, dy);
  }
}
