// share.js — share links for Blitz games (P5, D10): build them, share them, and read them back.
//
// The link format is a promise to every chat a link was ever posted in, so it never changes:
//
//     …/#blitz=bornholm&side=nordbund&ai=normal&fog=1&seed=42
//
//   blitz  the Blitz scenario id (checked against the engine's `scenarios` answer, never a list here)
//   side   nordbund | liga            the side the person opening the link plays
//   ai     leicht | normal | schwer   the computer's strength
//   fog    0 | 1                      fog of war off / on
//   seed   optional integer 0 … 2^53−1; absent = a random game
//
// The options live in the fragment, not the query: a fragment never reaches a server and never
// defeats the service worker's cache lookup, so a link opens offline as well (TECH_NOTES).
// Unknown extra keys are ignored, so a later version may add some without breaking older apps.
// Everything read from the URL is checked against fixed lists or a number pattern and is only ever
// shown through textContent: nothing from a link is inserted as HTML or run.

export const SIDES = ["nordbund", "liga"];
export const STRENGTHS = ["leicht", "normal", "schwer"];
const MAX_SEED = Number.MAX_SAFE_INTEGER;
const SEED_PATTERN = /^[0-9]{1,16}$/;

const SIDE_WORD = { nordbund: "Nordbund", liga: "Baltische Liga" };
// Messages name a link's fields in words, never by their keys or internal values (issue 11.14).
const FIELD_WORD = { blitz: "die Karte", side: "die Seite", ai: "die Stärke des Computers", fog: "den Nebel des Krieges", seed: "den Startwert" };
const STRENGTH_WORD = { leicht: "Leicht", normal: "Normal", schwer: "Schwer" };

/** A value from a link, made safe and short for a message (it is shown as text, never as HTML). */
function quote(value) {
  // Control characters could hide what the link really contains; long values flood the message.
  const clean = String(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
  return `„${clean.length > 40 ? clean.slice(0, 40) + "…" : clean}“`;
}

/**
 * Read a share link from a URL fragment (`location.hash`).
 *
 * @param {string} hash        e.g. "#blitz=bornholm&side=nordbund&ai=normal&fog=1&seed=42"
 * @param {Array<{id: string, name: string, blitz: boolean}>} scenarios  the engine's `scenarios` answer
 * @returns {null | {ok: true, link: {scenario, side, ai, fog, seed}} | {ok: false, message: string}}
 *          null when the fragment is not a share link at all (no `blitz` key).
 */
export function parseShareLink(hash, scenarios) {
  const text = String(hash || "").replace(/^#/, "");
  if (!text) return null;
  const values = new Map();
  const problems = [];
  for (const part of text.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    let key, value;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, " "));
      value = decodeURIComponent(rawValue.replace(/\+/g, " "));
    } catch {
      problems.push(`Der Link enthält ungültig kodierte Zeichen (${quote(part)}).`);
      continue;
    }
    if (values.has(key)) {
      if (FIELD_WORD[key]) problems.push(`Der Link nennt ${FIELD_WORD[key]} mehrmals.`); // unknown keys are ignored
      continue;
    }
    values.set(key, value);
  }
  if (!values.has("blitz")) return problems.length && /(^|&)blitz(=|&|$)/.test(text) ? fail(problems) : null;

  const blitzMaps = (scenarios || []).filter((s) => s && s.blitz);
  const id = values.get("blitz");
  const scenario = blitzMaps.find((s) => s.id === id);
  if (!scenario) {
    const known = blitzMaps.map((s) => s.name || s.id).join(", ");
    problems.push(
      id === ""
        ? "Im Link fehlt die Karte."
        : `Die Blitz-Karte ${quote(id)} gibt es nicht${known ? ` (möglich: ${known})` : ""}.`,
    );
  }

  const side = values.get("side");
  if (side === undefined || side === "") problems.push("Im Link fehlt die Seite (Nordbund oder Baltische Liga).");
  else if (!SIDES.includes(side)) problems.push(`Die Seite ${quote(side)} gibt es nicht (möglich: Nordbund oder Baltische Liga).`);

  const ai = values.get("ai");
  if (ai === undefined || ai === "") problems.push("Im Link fehlt die Stärke des Computers (Leicht, Normal oder Schwer).");
  else if (!STRENGTHS.includes(ai)) problems.push(`Die Stärke ${quote(ai)} gibt es nicht (möglich: Leicht, Normal oder Schwer).`);

  const fog = values.get("fog");
  if (fog === undefined || fog === "") problems.push("Im Link fehlt der Nebel des Krieges (an oder aus).");
  else if (fog !== "0" && fog !== "1") problems.push(`Der Nebel des Krieges ${quote(fog)} ist ungültig (möglich: an oder aus).`);

  let seed;
  if (values.has("seed")) {
    const s = values.get("seed");
    if (!SEED_PATTERN.test(s) || Number(s) > MAX_SEED) {
      problems.push(`Der Startwert ${quote(s)} ist ungültig (möglich: eine nicht zu große ganze Zahl ohne Vorzeichen).`);
    } else seed = Number(s);
  }

  if (problems.length) return fail(problems);
  return { ok: true, link: { scenario: scenario.id, name: scenario.name, side, ai, fog: fog === "1", seed } };
}

/** The message names what is wrong; the caller adds where the player is (menu, or the running game). */
function fail(problems) {
  return { ok: false, message: `Der geteilte Link ist fehlerhaft: ${problems.join(" ")}` };
}

/** The options `startGame` takes ({scenario, fog, players, seed}) for a parsed link. */
export function linkToGameOptions(link) {
  const other = link.side === "nordbund" ? "liga" : "nordbund";
  const options = { scenario: link.scenario, fog: link.fog, players: { [link.side]: "human", [other]: link.ai } };
  if (link.seed !== undefined) options.seed = link.seed;
  return options;
}

/** One line for the confirm dialog and the share text, e.g. "Bornholm, Nordbund gegen Computer (Normal), mit Nebel". */
export function describeLink(link) {
  return `${link.name || link.scenario}, ${SIDE_WORD[link.side]} gegen Computer (${STRENGTH_WORD[link.ai]}), ${link.fog ? "mit" : "ohne"} Nebel`;
}

/** The first visit's line while a link's game is prepared (issue 11.5). */
export function describeLinkPreparing(link) {
  return `Blitz auf ${link.name || link.scenario}: du spielst ${SIDE_WORD[link.side]} gegen den Computer ` +
    `(${STRENGTH_WORD[link.ai]}), ${link.fog ? "mit" : "ohne"} Nebel des Krieges. Das Spiel wird vorbereitet …`;
}

/**
 * The share URL for a Blitz game against the computer.
 * @param {string} pageUrl  usually location.href; its fragment is replaced
 * @param {{scenario: string, side: string, ai: string, fog: boolean, seed?: number}} game
 */
export function buildShareUrl(pageUrl, { scenario, side, ai, fog, seed }) {
  const base = String(pageUrl).split("#")[0];
  let fragment = `blitz=${encodeURIComponent(scenario)}&side=${side}&ai=${ai}&fog=${fog ? 1 : 0}`;
  if (Number.isSafeInteger(seed) && seed >= 0) fragment += `&seed=${seed}`;
  return `${base}#${fragment}`;
}

/** The link for a running game, from the app's {players, scenario, fog, seed}; null if not shareable. */
export function shareableGame(game, scenarios) {
  if (!game || !game.players) return null;
  const sc = (scenarios || []).find((s) => s.id === game.scenario);
  if (!sc || !sc.blitz) return null;
  const humans = SIDES.filter((s) => game.players[s] === "human");
  if (humans.length !== 1) return null; // hot-seat and computer-only games have no link form
  const side = humans[0];
  const ai = game.players[side === "nordbund" ? "liga" : "nordbund"];
  if (!STRENGTHS.includes(ai)) return null;
  return { scenario: sc.id, name: sc.name, side, ai, fog: !!game.fog, seed: game.seed };
}

/**
 * Hand the link to the system share sheet (Web Share API) or copy it to the clipboard.
 * @returns {Promise<"shared"|"copied"|"cancelled"|"manual">} "manual": neither worked; show the URL.
 */
export async function shareUrl(url, text) {
  if (navigator.share) {
    try {
      await navigator.share({ title: "Kaltfront – Blitz", text, url });
      return "shared";
    } catch (err) {
      if (err && err.name === "AbortError") return "cancelled";
      // Share sheet unavailable (e.g. not allowed here): fall through to the clipboard.
    }
  }
  if (navigator.clipboard && navigator.clipboard.writeText) {
    try {
      await navigator.clipboard.writeText(url);
      return "copied";
    } catch {
      // Clipboard refused (no permission, not focused): the caller shows the URL to copy by hand.
    }
  }
  return "manual";
}
