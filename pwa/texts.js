// texts.js — every German word the shell shows that does not come from the engine: side names, phase
// names, counters, end-screen reasons, and the short map labels
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

// The Protokoll's lines are written by the engine (kaltfront/logtext.py, D15): only what a side saw.
