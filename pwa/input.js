// input.js — turns mouse, touch and keyboard into meaningful events for app.js (2048-style input
// manager): tap, hover, pan, zoom and the keyboard commands of the rulebook (R56, R57, R59) and of
// issue 11.13 (N, M, the hex cursor).
// Pointer events cover mouse, pen and touch alike. At most two pointers count: one pans, two pinch
// (scale by the distance ratio around the midpoint, GoogleChromeLabs/pinch-zoom). A wheel event with
// ctrlKey is a trackpad pinch and zooms finer.

const TAP_SLOP = 8; // px a finger may wander and still tap; beyond it the gesture is a pan

export class Input {
  /**
   * @param {HTMLElement} el  the map canvas
   * @param {object} h  handlers: tap(x,y,ev), hover(x,y|null), pan(dx,dy), zoom(factor,x,y),
   *                    gestureEnd(), key(command, detail) — all optional
   */
  constructor(el, h) {
    this.el = el; this.h = h;
    this.pointers = new Map(); // pointerId -> {x, y, startX, startY, t0}
    this.moved = false;
    this.pinchDist = 0;
    this.enabled = true;
    el.style.touchAction = "none"; // we handle every touch gesture ourselves
    el.addEventListener("pointerdown", (e) => this.down(e));
    el.addEventListener("pointermove", (e) => this.move(e));
    el.addEventListener("pointerup", (e) => this.up(e));
    el.addEventListener("pointercancel", (e) => this.cancel(e));
    el.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") this.call("hover", null); });
    el.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    el.addEventListener("contextmenu", (e) => e.preventDefault());
    window.addEventListener("keydown", (e) => this.keydown(e));
  }

  call(name, ...args) { if (this.enabled && this.h[name]) this.h[name](...args); }

  local(e) {
    const r = this.el.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  down(e) {
    if (this.pointers.size >= 2) return;
    const p = this.local(e);
    this.el.setPointerCapture?.(e.pointerId);
    this.pointers.set(e.pointerId, { x: p.x, y: p.y, startX: p.x, startY: p.y, t0: e.timeStamp });
    if (this.pointers.size === 1) this.moved = false;
    else { this.moved = true; this.pinchDist = this.distance(); } // a second finger never taps
  }

  distance() {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y) || 1;
  }

  move(e) {
    const p = this.local(e);
    const ptr = this.pointers.get(e.pointerId);
    if (!ptr) { if (e.pointerType === "mouse") this.call("hover", p.x, p.y); return; }
    const dx = p.x - ptr.x, dy = p.y - ptr.y;
    if (this.pointers.size === 2) {
      const before = [...this.pointers.values()];
      const midX0 = (before[0].x + before[1].x) / 2, midY0 = (before[0].y + before[1].y) / 2;
      ptr.x = p.x; ptr.y = p.y;
      const after = [...this.pointers.values()];
      const midX = (after[0].x + after[1].x) / 2, midY = (after[0].y + after[1].y) / 2;
      const d = this.distance();
      this.call("pan", midX - midX0, midY - midY0);
      this.call("zoom", d / this.pinchDist, midX, midY);
      this.pinchDist = d;
      return;
    }
    ptr.x = p.x; ptr.y = p.y;
    if (!this.moved && Math.hypot(p.x - ptr.startX, p.y - ptr.startY) > TAP_SLOP) this.moved = true;
    if (this.moved) this.call("pan", dx, dy);
    else if (e.pointerType === "mouse") this.call("hover", p.x, p.y);
  }

  up(e) {
    const ptr = this.pointers.get(e.pointerId);
    if (!ptr) return;
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) {
      if (!this.moved) {
        // Touch has no hover: a tap shows the path preview and terrain under the finger too.
        this.call("tap", ptr.x, ptr.y, e);
      } else this.call("gestureEnd");
      this.moved = false;
    } else {
      // One finger of a pinch lifted: the other goes on panning from where it is.
      this.moved = true;
    }
  }

  cancel(e) { this.pointers.delete(e.pointerId); if (!this.pointers.size) { this.moved = false; this.call("gestureEnd"); } }

  wheel(e) {
    e.preventDefault();
    const p = this.local(e);
    // Pixel, line or page deltas: normalise roughly to pixels.
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const dy = e.deltaY * unit;
    const k = e.ctrlKey ? 0.01 : 0.0015;
    this.call("zoom", Math.exp(-dy * k), p.x, p.y);
    clearTimeout(this.wheelTimer);
    this.wheelTimer = setTimeout(() => this.call("gestureEnd"), 150);
  }

  keydown(e) {
    if (!this.enabled) return;
    const t = e.target;
    // Fields that take typing keep every key; a focused checkbox or radio only keeps Space, Enter and
    // the arrows, so M still closes the menu from its "nicht mehr fragen" box.
    const choice = t && t.tagName === "INPUT" && (t.type === "checkbox" || t.type === "radio");
    if (choice && (e.key === " " || e.key === "Enter" || e.key.startsWith("Arrow"))) return;
    if (t && !choice && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    let cmd = null, detail = null;
    // Issue 11.13: Tab is left to the browser, so the keyboard reaches every button; N cycles the units
    // (R59 had Tab); the arrow keys move a hex cursor and Shift+arrows pan the map; M opens the menu.
    const arrow = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    switch (e.key) {
      case "n": case "N": cmd = "next"; detail = e.shiftKey ? -1 : 1; break;
      case "m": case "M": cmd = "menu"; break;
      case "Enter": case " ": case "Spacebar":
        // A focused button keeps its own Enter/Space; on the map they act on the hex cursor, or end
        // the phase when there is no cursor (R59).
        if (t && (t.tagName === "BUTTON" || t.tagName === "A" || t.tagName === "SUMMARY")) return;
        cmd = "enter"; break;
      case "Escape": cmd = "escape"; break;
      case "Backspace": cmd = "undo"; break; // D16: take back the last action of the phase
      case "z": case "Z": if (!(e.ctrlKey || e.metaKey) || e.altKey) return; cmd = "undo"; break;
      case "h": case "H": cmd = "hq"; detail = e.shiftKey ? "own" : "enemy"; break;
      case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown":
        if (e.shiftKey) { cmd = "panKey"; detail = [-arrow[0], -arrow[1]]; } else { cmd = "cursor"; detail = arrow; }
        break;
      case "+": case "=": case "Add": cmd = "zoomKey"; detail = 1.25; break;
      case "-": case "_": case "−": case "Subtract": cmd = "zoomKey"; detail = 0.8; break;
      default: return;
    }
    // Leave browser shortcuts (Ctrl + zoom) alone; Ctrl+Z is the game's undo.
    if ((e.ctrlKey || e.metaKey || e.altKey) && cmd !== "undo") return;
    const handled = this.h.key ? this.h.key(cmd, detail) : false;
    if (handled !== false) e.preventDefault();
  }
}
