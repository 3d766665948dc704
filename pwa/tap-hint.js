// tap-hint.js — on touch the first tap on a target only previews (path, expected damage) and the
// second one acts; this label at the previewed hex says so ("Nochmal tippen zum Ziehen", issue 11.6).
// It never takes a tap itself (pointer-events: none), so the second tap reaches the map below.

export class TapHint {
  constructor(el, camera) {
    this.el = el;
    this.camera = camera;
  }

  /** hint: {at: [col, row], text} or null. Called every frame: cheap when nothing changes. */
  update(hint) {
    const el = this.el;
    if (!hint) { if (!el.hidden) el.hidden = true; return; }
    if (el.textContent !== hint.text) el.textContent = hint.text;
    const p = this.camera.hexToScreen(hint.at[0], hint.at[1]);
    // Above the hex, so the finger does not cover it; kept inside the map at its edges.
    const w = el.offsetWidth || 180;
    const x = Math.max(w / 2 + 4, Math.min(this.camera.viewW - w / 2 - 4, p.x));
    const y = Math.max(20, p.y - 34 * Math.max(0.8, this.camera.scale));
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
    el.dataset.at = hint.at.join(",");
    el.hidden = false;
  }
}
