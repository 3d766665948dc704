// menu.js — the main menu (R64): "Spiel fortsetzen", and a new game with Spielart (Blitz / Standard),
// Szenario, Spielmodus (gegen Computer / zu zweit), Seite, Stärke and Nebel. The HTML is static in
// index.html so it shows before any script or Python has loaded; this module only fills in the
// scenario list once the engine answers (in the engine's order, which is the rulebook's), reads the
// choices back as game options, and remembers the last ones (issue 11.14, pwa/settings.js).

import { getSetting, setSetting } from "./settings.js";

const $ = (id) => document.getElementById(id);
// One line on what each Spielart is (rulebook, section 12).
const SPIELART_LINE = {
  blitz: "Blitz: eine kleine Karte, 10 Runden, nur Bodeneinheiten, ohne Treibstoff und Munition – etwa zehn Minuten.",
  standard: "Standard: große Karten mit allen Einheiten zu Land, zu Wasser und in der Luft, mit Treibstoff und Munition.",
};

export class MainMenu {
  constructor({ onStart, onContinue, onHelp }) {
    this.scenarios = [];
    this.form = $("new-game");
    // Not an inline onsubmit: the Content-Security-Policy allows no inline script (issue 12.7).
    this.form.addEventListener("submit", (event) => event.preventDefault());
    for (const r of document.querySelectorAll('input[name="spielart"]')) r.addEventListener("change", () => { this.syncSpielart(); this.fillScenarios(); });
    for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", () => this.syncMode());
    $("opt-scenario").addEventListener("change", () => this.showBriefing());
    $("menu-start").addEventListener("click", () => { this.remember(); onStart(this.options()); });
    $("menu-continue").addEventListener("click", () => onContinue());
    $("menu-help-main").addEventListener("click", () => onHelp());
    this.restore();
    this.syncMode();
  }

  /** Put back the last new game's choices (side, strength, fog, mode, Spielart; the map once known). */
  restore() {
    const m = getSetting("menu");
    if (!m || typeof m !== "object") { this.syncSpielart(); return; }
    const pick = (id, ok) => { if (ok) $(id).checked = true; };
    pick("opt-blitz", m.spielart === "blitz"); pick("opt-standard", m.spielart === "standard");
    pick("opt-mode-ai", m.mode === "ai"); pick("opt-mode-hotseat", m.mode === "hotseat");
    for (const [id, v] of [["opt-side", m.side], ["opt-strength", m.strength]]) {
      if ([...$(id).options].some((o) => o.value === v)) $(id).value = v;
    }
    if (typeof m.fog === "boolean") $("opt-fog").checked = m.fog;
    this.rememberedScenario = typeof m.scenario === "string" ? m.scenario : null;
    this.syncSpielart();
  }

  remember() {
    setSetting("menu", {
      spielart: this.blitz() ? "blitz" : "standard", scenario: $("opt-scenario").value,
      mode: $("opt-mode-hotseat").checked ? "hotseat" : "ai",
      side: $("opt-side").value, strength: $("opt-strength").value, fog: $("opt-fog").checked,
    });
  }

  syncSpielart() { $("opt-spielart-line").textContent = SPIELART_LINE[this.blitz() ? "blitz" : "standard"]; }

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
    const keep = this.rememberedScenario && list.some((s) => s.id === this.rememberedScenario) ? this.rememberedScenario : sel.value;
    if (list.length) this.rememberedScenario = null;
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
