// focus-trap.js — keeps the keyboard inside the overlay on top (issue 11.13): the main menu, the game
// menu, Hilfe, the hand-over screen, the end screen, dialogs, and the overlays other modules add later
// (any `section.overlay`). While one is open the game behind it is inert; Tab and Shift+Tab go round
// inside it; when it opens, focus moves into it (unless the opener already put it there), and when it
// closes focus returns to where it was.

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

function openOverlays() {
  // Not offsetParent: that is null for every position: fixed element.
  return [...document.querySelectorAll("section.overlay")].filter((el) => !el.hidden && el.getClientRects().length > 0);
}

/** The overlay on top: the highest z-index, the later one in the page on a tie. */
function topOverlay() {
  const open = openOverlays();
  let top = null, z = -Infinity;
  for (const el of open) {
    const zi = Number(getComputedStyle(el).zIndex) || 0;
    if (zi >= z) { z = zi; top = el; }
  }
  return top;
}

function focusables(root) {
  return [...root.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length > 0 && !el.closest("[hidden]") && !el.inert);
}

export function installFocusTraps(initial, app) {
  const returnTo = new Map();
  const sync = () => {
    const top = topOverlay();
    app.inert = !!top;
    for (const el of document.querySelectorAll("section.overlay")) {
      el.inert = !!top && el !== top;
      if (!el.getAttribute("role")) el.setAttribute("role", "dialog");
      el.setAttribute("aria-modal", "true");
      if (!el.hasAttribute("aria-label") && !el.hasAttribute("aria-labelledby")) {
        // A dialog needs a name: its first heading (overlays added by other modules may lack one).
        const h = el.querySelector("h1, h2, h3");
        if (h) { if (!h.id) h.id = `${el.id || "overlay"}-title`; el.setAttribute("aria-labelledby", h.id); }
      }
    }
    return top;
  };
  const observer = new MutationObserver((records) => {
    const before = document.activeElement;
    const top = sync();
    for (const r of records) {
      const el = r.target;
      if (!(el instanceof HTMLElement) || !el.matches("section.overlay")) continue;
      if (!el.hidden && !returnTo.has(el)) returnTo.set(el, before);
      if (el.hidden && returnTo.has(el)) {
        const back = returnTo.get(el);
        returnTo.delete(el);
        if (!top && back && back.isConnected && back.offsetParent !== null && !back.inert) back.focus({ preventScroll: true });
      }
    }
    // Opened without moving focus into it: the first control gets it.
    if (top && !top.contains(document.activeElement)) {
      const f = focusables(top);
      if (f.length) f[0].focus({ preventScroll: true });
    }
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ["hidden"], subtree: true, childList: true });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const top = topOverlay();
    if (!top) return;
    const f = focusables(top);
    if (!f.length) { e.preventDefault(); return; }
    const i = f.indexOf(document.activeElement);
    if (e.shiftKey && (i <= 0)) { e.preventDefault(); f[f.length - 1].focus(); }
    else if (!e.shiftKey && (i === -1 || i === f.length - 1)) { e.preventDefault(); f[0].focus(); }
  }, true);
  sync();
  void initial;
}
