// panel.js — the side panel (a bottom bar on phones): the selected unit's stats, hp, level, ammunition,
// fuel and cargo (R52), the attack preview for the target under the cursor (R22), "Ausladen" for
// transports (R41), "Produzieren" for own empty buildings (R62), and the terrain under the cursor.
// It shows engine answers and game data; what may be built or unloaded comes from the engine.

import { SIDE_NAME } from "./texts.js";

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
const dash = (v) => (v === null || v === undefined ? "–" : v);

export class Panel {
  constructor(body, terrainEl, handlers) {
    this.body = body; this.terrainEl = terrainEl; this.h = handlers;
    body.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-act]");
      if (!b || b.disabled) return;
      const act = b.dataset.act;
      if (act === "build") this.h.build(b.dataset.type);
      else if (act === "unload") this.h.unload();
      else if (act === "cargo") this.h.chooseCargo(Number(b.dataset.unit));
      else if (act === "cancel") this.h.cancel();
    });
  }

  /** p: {obs, rules, selection, unit, building, buildOptions, unloadOptions, unloadUnit, canUnload,
   *  targetPreview, myTurn, hint} */
  render(p) {
    const { rules } = p;
    if (!p.obs || !rules) { this.body.innerHTML = ""; return; }
    let html = "";
    if (p.unit) html += this.unitHtml(p.unit, rules, p);
    else if (p.building) html += this.buildingHtml(p.building, rules, p);
    else html += `<p class="hint">${esc(p.hint || "Wähle eine Einheit oder ein Gebäude.")}</p>`;
    if (p.targetPreview) html += this.attackHtml(p.targetPreview, p);
    this.body.innerHTML = html;
  }

  unitHtml(u, rules, p) {
    const t = rules.units[u.type];
    const mv = rules.classes.movement[t.movement], ar = rules.classes.armour[t.armour];
    const atk = ["weich", "hart", "luft", "see"].map((k) => dash(t.attack[k])).join(" / ");
    const range = t.range ? (t.range[0] === t.range[1] ? `${t.range[0]}` : `${t.range[0]}–${t.range[1]}`) : "–";
    let h = `<h3 data-testid="panel-title">${esc(t.name)}</h3>`;
    h += `<div class="sub">${esc(SIDE_NAME[u.side])} · ${esc(mv)} · Panzerung ${esc(ar)}</div>`;
    h += `<div class="hpbar" title="${u.hp} hp"><i style="width:${u.hp * 10}%;${u.hp <= 4 ? "background:#d33" : ""}"></i></div>`;
    h += `<table class="stats">`;
    h += `<tr><td>hp</td><td data-testid="unit-hp">${u.hp} / ${rules.start_hp}</td></tr>`;
    h += `<tr><td>Erfahrung</td><td>Stufe ${u.level}</td></tr>`;
    if (!p.obs.blitz) {
      h += `<tr><td>Munition</td><td>${t.ammo == null ? "–" : `${dash(u.ammo)} / ${t.ammo}`}</td></tr>`;
      h += `<tr><td>Treibstoff</td><td>${t.fuel == null ? "–" : `${dash(u.fuel)} / ${t.fuel}`}</td></tr>`;
    }
    h += `<tr><td>Bewegung</td><td>${t.move}</td></tr><tr><td>Sicht</td><td>${t.vision}</td></tr>`;
    h += `<tr><td>Reichweite</td><td>${range}</td></tr>`;
    h += `<tr><td>Angriff w/h/L/S</td><td>${atk}</td></tr><tr><td>Verteidigung</td><td>${t.defence}</td></tr>`;
    if (t.transport) h += `<tr><td>Fracht</td><td>${u.loaded || (u.cargo ? u.cargo.length : 0)} / ${t.transport.slots}</td></tr>`;
    h += `</table>`;
    if (u.cargo && u.cargo.length) {
      h += `<div class="sub">An Bord: ${u.cargo.map((c) => `${esc(rules.units[c.type].name)} (${c.hp} hp)`).join(", ")}</div>`;
    }
    const state = [];
    if (p.myTurn && u.side === p.obs.side) {
      if (p.obs.phase === "attack") state.push(u.attacked ? "hat angegriffen" : p.ready ? "kann schießen" : "kein Ziel in Reichweite");
      else state.push(u.moved ? "hat gezogen" : p.ready ? "kann ziehen" : "kann nicht ziehen");
    }
    if (state.length) h += `<div class="sub">${state.join(", ")}</div>`;
    // Unloading (R41): select the transport, then "Ausladen".
    if (p.canUnload) {
      h += `<div class="actions">`;
      if (!p.unloadOptions) h += `<button id="btn-unload" data-act="unload">Ausladen</button>`;
      else if (p.unloadUnit == null) {
        h += `<div class="hint">Welche Einheit ausladen?</div>`;
        for (const o of p.unloadOptions) {
          const c = (u.cargo || []).find((x) => x.id === o.unit);
          const name = c ? rules.units[c.type].name : `Einheit ${o.unit}`;
          h += `<button data-act="cargo" data-unit="${o.unit}" data-testid="cargo-${o.unit}" ${o.to.length ? "" : "disabled"}>${esc(name)}</button>`;
        }
        h += `<button data-act="cancel" class="ghost">Abbrechen</button>`;
      } else {
        h += `<div class="hint">Tippe ein markiertes Nachbarfeld zum Ausladen.</div><button data-act="cancel" class="ghost">Abbrechen</button>`;
      }
      h += `</div>`;
    }
    return h;
  }

  buildingHtml(b, rules, p) {
    const bt = rules.buildings[b.type];
    let h = `<h3 data-testid="panel-title">${esc(b.name || bt.name)}</h3>`;
    h += `<div class="sub">${esc(bt.name)} · ${b.owner ? esc(SIDE_NAME[b.owner]) : "neutral"} · Einnahmen ${bt.income}</div>`;
    if (b.capture) h += `<div class="sub">Wird erobert von: ${esc(SIDE_NAME[b.capture.side])}</div>`;
    if (p.buildOptions) {
      h += `<div class="actions" id="build-list"><h3>Produzieren</h3>`;
      for (const o of p.buildOptions) {
        const name = rules.units[o.unit_type] ? rules.units[o.unit_type].name : o.unit_type;
        h += `<button data-act="build" data-type="${esc(o.unit_type)}" data-testid="build-${esc(o.unit_type)}" ${o.affordable ? "" : "disabled"}>${esc(name)}<span class="cost">${o.cost}</span></button>`;
      }
      h += `</div>`;
    }
    return h;
  }

  attackHtml(t, p) {
    const r = t.damage_range ? ` (${t.damage_range[0]}–${t.damage_range[1]})` : "";
    let h = `<div class="attack-preview" data-testid="attack-preview"><b>Angriff:</b> erwarteter Schaden <b>${t.damage}</b>${r}<br>`;
    if (t.counter == null) h += "Keine Erwiderung";
    else h += `Erwiderung <b>${t.counter}</b>${t.counter_range ? ` (${t.counter_range[0]}–${t.counter_range[1]})` : ""}`;
    return h + `</div>`;
  }

  /** Terrain (and building) under the cursor, from the game data (R52). */
  terrain(obs, rules, hex) {
    if (!obs || !rules || !hex || hex[0] < 0 || hex[1] < 0 || hex[0] >= obs.width || hex[1] >= obs.height) {
      this.terrainEl.textContent = ""; return;
    }
    const ch = obs.terrain[hex[1]][hex[0]];
    const id = Object.keys(rules.terrain).find((k) => rules.terrain[k].char === ch);
    const t = id ? rules.terrain[id] : null;
    const b = obs.buildings.find((x) => x.at[0] === hex[0] && x.at[1] === hex[1]);
    let s = t ? `${t.name}, Verteidigung +${t.defence}` : ch;
    if (b) s += ` · ${b.name || rules.buildings[b.type].name} (${b.owner ? SIDE_NAME[b.owner] : "neutral"})`;
    if (obs.fog && obs.visible[hex[1]][hex[0]] !== "1") s += " · nicht einsehbar";
    this.terrainEl.textContent = `Gelände: ${s}`; // no coordinates: the map never shows them (issue 11.8)
  }
}
