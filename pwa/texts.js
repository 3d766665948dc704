// texts.js — every German word the shell shows that does not come from the engine: side names, phase
// names, counters, end-screen reasons, the Protokoll lines for engine events, and the short map labels
// of unit types. The rulebook's own words are used wherever it has one (REQUIREMENTS: UI language).

export const SIDE_NAME = { nordbund: "Nordbund", liga: "Baltische Liga" };
export const SIDE_ARTICLE = { nordbund: "Der Nordbund", liga: "Die Baltische Liga" };
export const PHASE_NAME = { attack: "Angriffsphase", move: "Zugphase" };
export const STRENGTH_NAME = { leicht: "Leicht", normal: "Normal", schwer: "Schwer" };

export function otherSide(side) { return side === "nordbund" ? "liga" : "nordbund"; }

/** "3 können schießen" / "1 kann schießen" (R55). */
export function counterText(phase, n) {
  const verb = phase === "attack" ? "schießen" : "ziehen";
  if (n === 0) return phase === "attack" ? "Keiner kann schießen" : "Keiner kann ziehen";
  return n === 1 ? `1 kann ${verb}` : `${n} können ${verb}`;
}

export function roundText(obs) {
  return obs.round_limit ? `Runde ${obs.round} / ${obs.round_limit}` : `Runde ${obs.round}`;
}

export const REASON_TEXT = {
  hq: "Das gegnerische Hauptquartier wurde erobert.",
  no_army: "Der Gegner hat keine Einheiten mehr und kann keine neuen bauen.",
  round_limit: "Das Rundenlimit ist erreicht: entschieden haben die gehaltenen Gebäude, bei Gleichstand der Wert der Einheiten.",
  surrender: "Eine Seite hat aufgegeben.",
};

/** The end screen's reason line; names the side that gave up when there is one. */
export function reasonText(outcome) {
  if (!outcome) return "";
  if (outcome.reason === "surrender" && outcome.winner) return `${SIDE_ARTICLE[otherSide(outcome.winner)]} hat aufgegeben.`;
  return REASON_TEXT[outcome.reason] || "";
}

export function winnerText(outcome) {
  if (!outcome) return "";
  if (!outcome.winner) return "Unentschieden";
  return `${SIDE_ARTICLE[outcome.winner]} gewinnt`;
}

// Short labels drawn on the unit counters (presentation only, the panel shows the full name).
export const UNIT_ABBR = {
  jaeger: "J", pionier: "Pi", panzerjaeger: "PzJ", spaehwagen: "Sp", raketenwerfer: "RW",
  transporter: "LKW", versorger: "Ver", schuetzenpanzer: "SPz", kampfpanzer: "KPz",
  panzerhaubitze: "PzH", flugabwehr: "Fla", kampfhubschrauber: "KHS", transporthubschrauber: "THS",
  kampfjet: "Jet", drohne: "Dr", fregatte: "Fre", patrouillenboot: "PB", landungsboot: "LB", faehre: "Fä",
};

function hexText(h) { return h ? `(${h[0]}|${h[1]})` : ""; }

/**
 * One Protokoll line for an engine event, or null for events not worth a line.
 * `unitName(id)` gives "Kampfpanzer (Nordbund)" for a unit the viewer knows, else "Einheit".
 */
export function eventText(ev, unitName, rules) {
  const typeName = (t) => (rules && rules.units[t] ? rules.units[t].name : t);
  const bName = (t) => (rules && rules.buildings[t] ? rules.buildings[t].name : t);
  switch (ev.type) {
    case "moved": return `${unitName(ev.unit)} zieht nach ${hexText(ev.to)}.`;
    case "ambushed": return `Hinterhalt! ${unitName(ev.unit)} hält bei ${hexText(ev.at)} an.`;
    case "loaded": return `${unitName(ev.unit)} steigt in ${unitName(ev.transport)} ein.`;
    case "unloaded": return `${unitName(ev.unit)} wird bei ${hexText(ev.to)} ausgeladen.`;
    case "attacked": {
      let s = `${unitName(ev.unit)} greift ${unitName(ev.target)} an: ${ev.damage} Schaden`;
      if (ev.counter_damage) s += `, Erwiderung ${ev.counter_damage}`;
      return s + ".";
    }
    case "destroyed": return `${typeName(ev.unit_type)} (${SIDE_NAME[ev.side] || ""}) vernichtet.`;
    case "level_up": return `${unitName(ev.unit)} steigt auf Stufe ${ev.level}.`;
    case "capture_started": return `Eroberung bei ${hexText(ev.at)} begonnen.`;
    case "captured": return `${SIDE_NAME[ev.side]} erobert ${bName(ev.building)} ${hexText(ev.at)}.`;
    case "income": return `Einnahmen ${SIDE_NAME[ev.side]}: +${ev.amount}.`;
    case "repaired": return `${unitName(ev.unit)} repariert (${ev.hp} hp).`;
    case "resupplied": return null; // every turn for every unit on a building: noise in the log
    case "built": return `${typeName(ev.unit_type)} gebaut bei ${hexText(ev.at)} (${ev.cost}).`;
    case "crashed": return `${unitName(ev.unit)} ist abgestürzt.`;
    case "phase": return `${SIDE_NAME[ev.side]}: ${PHASE_NAME[ev.phase]}, ${ev.round ? "Runde " + ev.round : ""}`.replace(/, $/, "");
    case "game_over": return `Spielende: ${winnerText(ev)}.`;
    case "surrendered": return `${SIDE_NAME[ev.side]} gibt auf.`;
    default: return null;
  }
}
