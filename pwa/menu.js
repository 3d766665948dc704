// menu.js — the main menu (R64): "Spiel fortsetzen", and a new game with Spielart (Blitz / Standard),
// Szenario, Spielmodus (gegen Computer / zu zweit), Seite, Stärke and Nebel. The HTML is static in
// index.html so it shows before any script or Python has loaded; this module only fills in the
// scenario list once the engine answers and reads the choices back as game options.

const $ = (id) => document.getElementById(id);

export class MainMenu {
  constructor({ onStart, onContinue, onHelp }) {
    this.scenarios = [];
    this.form = $("new-game");
    // Not an inline onsubmit: the Content-Security-Policy allows no inline script (issue 12.7).
    this.form.addEventListener("submit", (event) => event.preventDefault());
    for (const r of document.querySelectorAll('input[name="spielart"]')) r.addEventListener("change", () => this.fillScenarios());
    for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", () => this.syncMode());
    $("opt-scenario").addEventListener("change", () => this.showBriefing());
    $("menu-start").addEventListener("click", () => onStart(this.options()));
    $("menu-continue").addEventListener("click", () => onContinue());
    $("menu-help-main").addEventListener("click", () => onHelp());
    this.syncMode();
  }

  show(hasSave) {
    $("main-menu").hidden = false;
    $("menu-continue").hidden = !hasSave;
  }
  hide() { $("main-menu").hidden = true; }

  status(text, error = false) {
    const s = $("boot-status");
    s.textContent = text;
    s.classList.toggle("error", error);
  }

  setReady(scenarios) {
    this.scenarios = scenarios;
    this.fillScenarios();
    $("opt-scenario").disabled = false;
    $("menu-start").disabled = false;
    $("menu-continue").disabled = false;
  }

  blitz() { return $("opt-blitz").checked; }

  fillScenarios() {
    const sel = $("opt-scenario");
    const list = this.scenarios.filter((s) => !!s.blitz === this.blitz());
    const keep = sel.value;
    sel.innerHTML = list.map((s) => `<option value="${s.id}">${s.name}</option>`).join("") ||
      `<option value="">Keine Karten für diese Spielart</option>`;
    if (list.some((s) => s.id === keep)) sel.value = keep;
    this.showBriefing();
  }

  showBriefing() {
    const s = this.scenarios.find((x) => x.id === $("opt-scenario").value);
    $("opt-briefing").textContent = s ? s.briefing || "" : "";
  }

  syncMode() {
    this.form.classList.toggle("hotseat", $("opt-mode-hotseat").checked);
  }

  /** The options of a new game, in the shape `startGame` takes (also the share-link hook's shape). */
  options() {
    const hotseat = $("opt-mode-hotseat").checked;
    const side = $("opt-side").value;
    const strength = $("opt-strength").value;
    const players = hotseat ? { nordbund: "human", liga: "human" }
      : { nordbund: side === "nordbund" ? "human" : strength, liga: side === "liga" ? "human" : strength };
    return { scenario: $("opt-scenario").value, fog: $("opt-fog").checked, players };
  }
}
