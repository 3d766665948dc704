// end-screen.js — the end screen (issue 11.11): who won and why, and per side the figures the engine
// computed (bridge op "summary": buildings held and unit value, the round-limit tie-breaks of R50/D8;
// units on the map, built, lost and destroyed; rounds). "Revanche" (same map and settings, new seed)
// sits beside "Hauptmenü" in #end-actions, a row meant to take more buttons later (e.g. a replay).

import { SIDE_NAME, winnerText, reasonText } from "./texts.js";

const $ = (id) => document.getElementById(id);
const SIDES = ["nordbund", "liga"];
const num = (v) => (typeof v === "number" ? v.toLocaleString("de-DE", { maximumFractionDigits: 1 }) : "–");

/** The reason, spelled out with the figures that decided it. */
export function explainEnd(outcome, summary) {
  if (!outcome) return "";
  if (!summary || outcome.reason !== "round_limit") return reasonText(outcome);
  const s = summary.sides;
  const limit = summary.round_limit ? `Das Rundenlimit von ${summary.round_limit} Runden ist erreicht. ` : "Das Rundenlimit ist erreicht. ";
  const b = `${SIDE_NAME.nordbund} hält ${s.nordbund.buildings}, ${SIDE_NAME.liga} ${s.liga.buildings} Gebäude`;
  if (summary.decided_by === "buildings") return `${limit}Entschieden haben die gehaltenen Gebäude: ${b}.`;
  const v = `${num(s.nordbund.unit_value)} gegen ${num(s.liga.unit_value)}`;
  if (summary.decided_by === "unit_value") return `${limit}Gleich viele Gebäude (${b}); entschieden hat der Wert der Einheiten: ${v}.`;
  return `${limit}Gleich viele Gebäude und gleicher Wert der Einheiten (${v}): unentschieden.`;
}

export class EndScreen {
  /** handlers: {rematch(), mainMenu()} */
  constructor(handlers) {
    $("end-rematch").addEventListener("click", () => handlers.rematch());
    $("end-main").addEventListener("click", () => handlers.mainMenu());
  }

  /** humans: sides played by people; summary: the engine's answer or null if it failed. */
  show(outcome, summary, { humans = [] } = {}) {
    const t = winnerText(outcome);
    let title = t;
    if (humans.length === 1 && outcome.winner) title = outcome.winner === humans[0] ? `Sieg! ${t}.` : `Niederlage. ${t}.`;
    $("end-title").textContent = title;
    $("end-reason").textContent = explainEnd(outcome, summary);
    $("end-stats").innerHTML = summary ? this.table(summary) : "";
    const es = $("end-screen");
    es.dataset.winner = outcome.winner || "";
    es.dataset.reason = outcome.reason || "";
    es.hidden = false;
    $("end-rematch").focus();
  }

  table(summary) {
    const rows = [
      ["Gebäude gehalten", "buildings"], ["Wert der Einheiten", "unit_value"], ["Einheiten auf der Karte", "units"],
      ["Einheiten gebaut", "built"], ["Einheiten verloren", "lost"], ["Gegner vernichtet", "destroyed"],
    ];
    const head = `<tr><th></th>${SIDES.map((s) => `<th class="${s}" scope="col">${SIDE_NAME[s]}</th>`).join("")}</tr>`;
    const body = rows.map(([label, key]) =>
      `<tr data-key="${key}"><th scope="row">${label}</th>${SIDES.map((s) => `<td data-side="${s}">${num(summary.sides[s][key])}</td>`).join("")}</tr>`).join("");
    const rounds = summary.round_limit ? `${summary.round} von ${summary.round_limit}` : `${summary.round}`;
    return `<table class="end-table">${head}${body}</table><p class="end-rounds" data-testid="end-rounds">Gespielte Runden: ${rounds}</p>`;
  }
}
