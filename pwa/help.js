// help.js — the help page (R38, R47, R64): the rulebook in the game's own words (help-text.js) with the
// unit, terrain and building tables rendered from the engine's game data (op `rules`, the same JSON as
// kaltfront/data/rules.json). The tables scroll sideways on narrow screens with the first column fixed.

import { HELP_HTML } from "./help-text.js";
import { AIDS_HTML } from "./help-aids.js";
import { FELDZUG_HELP_HTML } from "./help-feldzug.js";
import { TERRAIN_COLOUR } from "./palette.js";

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
const dash = (v) => (v === null || v === undefined ? "–" : String(v));

function table(head, rows, id) {
  return `<table id="${id}"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>` +
    rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${c}</th>` : `<td>${c}</td>`)).join("")}</tr>`).join("") +
    `</tbody></table>`;
}

export function unitsTable(rules) {
  const mv = rules.classes.movement, ar = rules.classes.armour;
  const rows = Object.entries(rules.units).map(([id, u]) => [
    esc(u.name), u.cost, u.move, u.vision,
    u.range ? (u.range[0] === u.range[1] ? u.range[0] : `${u.range[0]}–${u.range[1]}`) : "–",
    dash(u.attack.weich), dash(u.attack.hart), dash(u.attack.luft), dash(u.attack.see),
    u.defence, dash(u.ammo), dash(u.fuel), esc(mv[u.movement]), esc(ar[u.armour]),
    u.transport ? `${u.transport.slots} (${u.transport.classes.map((c) => esc(mv[c])).join(", ")})` : "–",
  ]);
  return table(["Einheit", "Kosten", "Bew.", "Sicht", "Reichweite", "weich", "hart", "Luft", "See", "Vert.",
    "Munition", "Treibst.", "Bewegung", "Panzerung", "Transport"], rows, "table-units");
}

export function terrainTable(rules) {
  const classes = Object.keys(rules.classes.movement);
  const rows = Object.values(rules.terrain).map((t) => [
    `<span class="swatch" style="display:inline-block;width:12px;height:12px;border-radius:3px;margin-right:6px;background:${TERRAIN_COLOUR[t.char] || "#ccc"}"></span>${esc(t.name)}`,
    ...classes.map((c) => dash(t.cost[c])), `+${t.defence}`,
  ]);
  return table(["Gelände", ...classes.map((c) => rules.classes.movement[c]), "Verteidigung"], rows, "table-terrain");
}

export function buildingsTable(rules) {
  const mv = rules.classes.movement;
  const list = (xs) => (xs && xs.length ? xs.map((c) => esc(mv[c])).join(", ") : "–");
  // "Versorgt" fills ammunition and fuel; a building that only rearms more classes (the Stadt, D13)
  // says so after it.
  const supply = (b) => {
    const ammoOnly = (b.rearms || []).filter((c) => !b.supplies.includes(c));
    if (!ammoOnly.length) return list(b.supplies);
    const all = ammoOnly.length + b.supplies.length === Object.keys(mv).length;
    return `${list(b.supplies)}; Munition: ${all ? "alle Einheiten" : list(ammoOnly)}`;
  };
  const rows = Object.values(rules.buildings).map((b) => [esc(b.name), b.income, list(b.produces), list(b.repairs), supply(b)]);
  return table(["Gebäude", "Einnahmen", "Produziert", "Repariert (+3 hp)", "Versorgt (Munition und Treibstoff)"], rows, "table-buildings");
}

/** Fill `root` with the rulebook; tables appear as soon as `rules` is known (may be null at first). */
export function renderHelp(root, rules) {
  if (!root.dataset.rendered) {
    root.innerHTML = `<h1>Hilfe – Spielanleitung</h1>` + HELP_HTML + FELDZUG_HELP_HTML + AIDS_HTML;
    root.dataset.rendered = "1";
  }
  const fill = { units: unitsTable, terrain: terrainTable, buildings: buildingsTable };
  for (const el of root.querySelectorAll("[data-table]")) {
    if (rules) el.innerHTML = fill[el.dataset.table](rules);
    else if (!el.innerHTML) el.innerHTML = `<p class="hint" style="padding:8px">Die Tabelle erscheint, sobald die Spiel-Engine bereit ist.</p>`;
  }
}
