// app.js — wires the shell together: boots the engine behind the main menu, keeps the current
// observation and the engine's answers about the selection, turns input events into engine requests,
// and asks the renderer to draw. Every rule question goes to the engine (pwa/engine.js → worker →
// kaltfront.bridge); this file only decides what to ask and when, and what to show.

import "./error-journal.js"; // first: records errors from the whole boot (issue 17)
import { Engine } from "./engine.js";
import { Camera, hexToWorld, mapWorldSize, hexDistance } from "./layout.js";
import { Renderer } from "./render.js";
import { Minimap } from "./minimap.js";
import { Input } from "./input.js";
import { Panel } from "./panel.js";
import { MainMenu } from "./menu.js";
import { renderHelp } from "./help.js";
import { showMoney, showRound } from "./header.js";
import { placeHqChip } from "./hq-chip.js";
import { HexCursor } from "./hex-cursor.js";
import { installFocusTraps } from "./focus-trap.js";
import { AiPlayer } from "./ai-player.js";
import * as storage from "./storage.js";
import * as saves from "./saves.js";
import { Session } from "./session.js";
import { Aids } from "./aids.js";
import { ReplayScreen } from "./screens/replay.js";
import { CampaignScreen } from "./screens/campaign.js";
import { SIDE_NAME, PHASE_NAME, STRENGTH_NAME, counterText, roundText, otherSide } from "./texts.js";
import { Protokoll } from "./protokoll.js";
import { getSetting, setSetting } from "./settings.js";
import { EndScreen } from "./end-screen.js";
import { TapHint } from "./tap-hint.js";
import { BootProgress } from "./boot-progress.js";

const $ = (id) => document.getElementById(id);
// A deadline for a boot that hangs (Pyodide hangs rather than fails on some faults), not for a slow one:
// a cold boot took 13–29 s in WebKitGTK on a busy 2-core machine (issue 17), and a failed snapshot
// restore adds up to 10 s before the normal boot; 30 s failed booting engines there.
const BOOT_TIMEOUT_MS = 60000;
const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

// ---- state ------------------------------------------------------------------------------------------
const S = {
  ready: false, rules: null, scenarios: [],
  game: null,          // {players, scenario, fog} of the running game, null in the menu
  obs: null,           // current observation (engine's observe for `viewer`)
  viewer: null,        // whose eyes the map shows
  canAct: { attack: [], move: [], unload: [] },
  readySet: new Set(),
  selection: null,     // {kind: "unit", id} | {kind: "building", at}
  reach: null, targets: null, loadOpts: null, unloadOptions: null, unloadUnit: null,
  hover: null, path: null, targetPreview: null, pendingTouch: null,
  busy: false,         // an action is in flight
  aiRunning: false,
  gen: 0,              // counts games started, resumed or left: a turn of an older game stops (issue 12.4)
  starting: 0,         // new games being prepared by the engine (a share link then answers with a toast)
  covered: false,      // hot-seat cover: draw nothing (R61)
  hqNext: "enemy",
  effects: [], animPos: new Map(), hiddenUnits: new Set(),
  tapLatencies: [],
  aiDelay: 1,          // pace multiplier for the computer's animation; 0 = instant (tests)
  answers: new Map(),  // cached engine answers per unit until the next action (tap ≤ 1 round trip)
};

// ---- modules ----------------------------------------------------------------------------------------
const camera = new Camera();
const cursor = new HexCursor(camera);
const renderer = new Renderer($("map"), camera);
const minimap = new Minimap($("minimap"), camera, (wx, wy) => { cancelTween(); camera.centreOn(wx, wy); requestDraw(); }, $("minimap-toggle"));
const panel = new Panel($("panel-body"), $("terrain-info"), {
  build: (type) => doAction({ type: "build", at: S.selection.at, unit_type: type }),
  unload: () => startUnload(),
  chooseCargo: (id) => chooseCargo(id),
  cancel: () => { S.unloadOptions = null; S.unloadUnit = null; refreshPanel(); requestDraw(); },
});
const tapHint = new TapHint($("tap-hint"), camera);
const protokoll = new Protokoll($("log")); // one log per side, lines written by the engine (D15)
const menu = new MainMenu({ onStart: (o) => startGame(o), onContinue: () => resumeGame(), onHelp: () => openHelp() });
let engine = null;
let ai = null;
// Undo and enemy fire zones (issue 13, pwa/aids.js): the engine answers, this module draws.
const aids = new Aids({
  call: (op, args) => call(op, args), toast: (t, k) => showToast(t, k), requestDraw: () => requestDraw(),
  myTurn: () => myTurn(), busy: () => S.busy, inGame: () => !!(S.game && S.obs), aiRunning: () => S.aiRunning,
  selectedUnit: () => selectedUnit(), viewer: () => S.viewer, afterUndo: (res) => afterUndo(res),
});
// Offline cache, share links, save slots and crash recovery (pwa/session.js), through these hooks.
const session = new Session({
  ready: () => S.ready,
  scenarios: () => S.scenarios,
  game: () => S.game,
  running: () => !!(S.game && S.obs && !S.obs.outcome),
  starting: () => S.starting > 0,
  startGame: (o) => startGame(o),
  resumeGame: (saved) => resumeGame(saved),
  autosave: () => autosave(),
  meta: () => autosaveMeta(),
  call: (op, args) => call(op, args),
  confirm: (text, yes) => confirmDialog(text, yes),
  toast: (text, kind) => showToast(text, kind),
  lost: () => toMainMenu(), // another tab took this game over (issue 12.1)
});

// Replays (issue 13.3, pwa/screens/replay.js): kept at the end of a game, watched from the end screen
// and from "Spielstände".
const replayScreen = new ReplayScreen({ call: (op, args) => call(op, args), rules: () => S.rules, toast: (t, k) => showToast(t, k) });
// The Feldzug (issue 15, pwa/screens/campaign.js); its battles are played on this battle screen.
const campaignUi = new CampaignScreen({
  call: (op, args) => call(op, args),
  ready: () => S.ready,
  playBattle: (v, hooks) => startCampaignBattle(v, hooks),
  toast: (text, kind) => showToast(text, kind),
  confirm: (text, yes) => confirmDialog(text, yes),
  openHelp: () => openHelp(),
  showMainMenu: () => toMainMenu(),
  scenario: (id) => S.scenarios.find((x) => x.id === id),
});

// ---- engine ----------------------------------------------------------------------------------------
function call(op, args) { return engine.call(op, args); }

function boot() {
  const t0 = performance.now();
  try {
    engine = new Engine({ bootTimeoutMs: BOOT_TIMEOUT_MS });
  } catch (e) {
    bootFailed({ kind: "boot", message: `Die Spiel-Engine konnte nicht gestartet werden: ${e.message}` });
    return;
  }
  ai = new AiPlayer(engine, animateAiStep);
  const progress = new BootProgress();
  engine.onBootProgress((p) => progress.update(p));
  engine.ready.finally(() => progress.done()).catch(() => {});
  engine.onCrash((err) => { showToast(err.message); window.kaltfront.error = { kind: err.kind, message: err.message }; session.onCrash(err); });
  engine.ready.then(async (info) => {
    window.kaltfront.info = info;
    S.rules = await call("rules", {});
    S.scenarios = await call("scenarios", {});
    menu.setReady(S.scenarios);
    campaignUi.setReady();
    menu.status("");
    S.ready = true;
    window.kaltfront.ready = true;
    window.kaltfront.timings.engineReady = performance.now() - t0;
    if (!$("help").hidden) renderHelp($("help-content"), S.rules);
    if (pendingStart) { const o = pendingStart; pendingStart = null; startGame(o); }
    await session.afterBoot();
  }).catch((err) => bootFailed({ kind: err.kind || "boot", message: err.message }));
}

function bootFailed(err) {
  window.kaltfront.error = err;
  menu.status(err.message, true);
  $("boot-error-text").textContent = err.message;
  $("boot-error").hidden = false;
  // Wired here, not inline in index.html: the Content-Security-Policy allows no inline script (12.7).
  $("boot-reload").onclick = () => location.reload();
  session.afterBootFailed();
}

// ---- game lifecycle ---------------------------------------------------------------------------------
let pendingStart = null;

/**
 * Start a new game from options {scenario, fog, players, seed?}. The hook for share links (D10): a
 * later issue parses `#blitz=…` into these options and calls this after boot.
 */
async function startGame(opts) {
  if (!S.ready) { pendingStart = opts; return; }
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!session.beforeNewGame()) return; // an unfinished autosave could not be kept: do not replace it
  leaveGame();
  let v;
  const id = saves.newGameId();
  // While the engine prepares the game the menu is still up, but not for long: a bad share link opened
  // now must say so in a toast over the game, not in the menu that is about to go.
  S.starting += 1;
  try {
    v = await call("new_game", { scenario: opts.scenario, seed, fog: !!opts.fog, players: opts.players, viewer: opts.viewer });
    await session.claimGame(id); // a new id: always free
  } catch (e) { showToast(e.message); return; } finally { S.starting -= 1; }
  // From here to setView nothing awaits: a game is "running" (S.game and S.obs) from its first moment.
  // A share link opened while the claim was pending once found S.game without S.obs, took the game for
  // not running, and put its message into the menu that enterGame then hid.
  S.game = { players: opts.players, scenario: opts.scenario, fog: !!opts.fog, seed, id };
  protokoll.clear();
  S.shownSide = null;
  enterGame();
  const humans = humanSides();
  // Busy until the first autosave is written, as after every action (doAction): a reload in the first
  // moment of a new game must find it under "Spiel fortsetzen", not lose it (a CI run reloaded in between).
  S.busy = true;
  try {
    setView(v);
    centreOnOwnHq(); // before the next await: the first frame of a new game already shows the own HQ
    await refreshCanAct();
    updateHeader(); refreshPanel();
    await autosave();
  } finally {
    S.busy = false;
  }
  updateHeader();
  if (humans.length === 1 && !window.kaltfront.skipIntro) await openingPan();
  await nextTurn({ fresh: true });
}

async function resumeGame(saved = storage.readAutosave()) {
  if (!saved) { menu.show(false); return false; }
  const meta = saved.meta || {};
  leaveGame();
  // One game, one tab (issue 12.1): another tab that plays this game keeps it unless taken over.
  if (!(await session.claimGame(meta.gameId))) { toMainMenu(); session.gameElsewhere(saved); return false; }
  let v;
  try {
    v = await call("load", { save: saved.save, players: meta.players, viewer: meta.viewer });
  } catch (e) { session.releaseGame(); session.loadFailed(e); menu.show(storage.hasAutosave()); return false; }
  try {
    S.game = { players: v.players, scenario: v.observation.scenario, fog: v.observation.fog, seed: meta.seed, id: meta.gameId || saves.newGameId() };
    protokoll.fromMeta(meta, { humans: ["nordbund", "liga"].filter((s) => v.players && v.players[s] === "human"),
      fog: !!v.observation.fog, viewer: v.viewer });
    S.shownSide = null;
    enterGame();
    setView(v);
    await refreshCanAct();
    updateHeader(); refreshPanel();
    // setView gave the camera the map's size, so a saved view can be restored (issue 11.1, 17);
    // a missing or damaged one frames the own HQ.
    if (!camera.restore(meta.camera)) centreOnOwnHq();
    requestDraw();
    renderLog();
  } catch (e) {
    // Anything the checks of pwa/record-check.js did not foresee: back to the menu with a message,
    // the entry untouched (nothing was autosaved yet), rather than a blank map (issue 12.3).
    console.error(e);
    toMainMenu();
    session.loadFailed({ message: `Die Ansicht des Spiels ließ sich nicht herstellen (${e && e.message}).` });
    return false;
  }
  await nextTurn({ fresh: true, resumed: true });
  return true;
}

/** Stop whatever the current game was doing (a computer turn, the tab's claim) before another one. */
function leaveGame() {
  S.gen += 1;
  if (ai) ai.cancel();
  S.aiRunning = false;
  $("ai-bar").hidden = true;
}

/** A Feldzug battle (op campaign_battle answered `v`): saves and its end go to the campaign's hooks. */
async function startCampaignBattle(v, hooks) {
  leaveGame();
  const o = v.observation;
  S.game = { players: v.players, scenario: o.scenario, fog: o.fog, seed: null, id: saves.newGameId(), campaign: hooks };
  protokoll.clear();
  S.shownSide = null;
  enterGame();
  setView(v);
  centreOnOwnHq(); // before the next await: the first frame of a new game already shows the own HQ
  await refreshCanAct();
  updateHeader(); refreshPanel();
  if (hooks.title) showToast(hooks.title, "info");
  await nextTurn({ fresh: true });
}

function enterGame() {
  menu.hide();
  for (const id of ["end-screen", "game-menu", "handoff", "help"]) $(id).hidden = true;
  $("app").classList.remove("in-menu");
  S.selection = null; clearAnswers(); S.covered = false; S.effects = []; S.animPos.clear(); S.hiddenUnits.clear();
  renderer.invalidate();
  resize();
  minimap.chooseOpen(camera.viewW, camera.viewH);
  renderLog();
}

function toMainMenu() {
  leaveGame();
  session.releaseGame();
  S.game = null; S.obs = null;
  $("app").classList.add("in-menu");
  for (const id of ["end-screen", "game-menu", "handoff", "ai-bar"]) $(id).hidden = true;
  aids.render();
  menu.show(storage.hasAutosave());
  requestDraw();
}

function humanSides() { return S.game ? ["nordbund", "liga"].filter((s) => S.game.players[s] === "human") : []; }
function isHuman(side) { return S.game && S.game.players[side] === "human"; }
function myTurn() { return !!(S.obs && !S.obs.outcome && isHuman(S.obs.side) && S.obs.side === S.viewer && !S.aiRunning && !S.covered); }

/** Take a view from the engine ({observation, viewer, players}); the bridge decides the viewer. */
function setView(v) {
  if (!v || !v.observation) return;
  S.obs = v.observation;
  S.viewer = v.viewer || S.obs.viewer;
  // The camera learns the map's size with the first observation, before anything moves or restores
  // it: a camera clamped against an unknown map sticks in a corner (issue 11.1).
  const ws = mapWorldSize(S.obs.width, S.obs.height);
  if (camera.worldW !== ws.w || camera.worldH !== ws.h) camera.setWorld(ws.w, ws.h);
  if (v.players && S.game) S.game.players = v.players;
  // Hot-seat with fog: a new player's view stays covered until "Weiter" (R61), even for one frame.
  if (humanSides().length === 2 && S.obs.fog && !S.obs.outcome && S.obs.side !== S.shownSide) S.covered = true;
  renderer.invalidate();
  aids.setView(v);
  renderLog();
}

async function refresh() {
  setView(await call("observe", {}));
  await refreshCanAct();
  renderer.invalidate();
  updateHeader(); refreshPanel(); requestDraw();
}

async function refreshCanAct() {
  if (S.obs && !S.obs.outcome && isHuman(S.obs.side) && S.obs.side === S.viewer) {
    S.canAct = await call("can_act", {});
  } else S.canAct = { attack: [], move: [], unload: [] };
  const ids = S.obs && S.obs.phase === "attack" ? S.canAct.attack : [...S.canAct.move, ...S.canAct.unload];
  S.readySet = new Set(ids);
  prefetch();
}

/** Decide who plays next: the computer, a hot-seat handoff, or the human at the map. */
async function nextTurn({ fresh = false, resumed = false } = {}) {
  if (!S.obs) return;
  if (S.obs.outcome) { showEnd(S.obs.outcome); return; }
  const side = S.obs.side;
  if (!isHuman(side)) { await runAi(side); return; }
  if (humanSides().length === 2 && (side !== S.shownSide || fresh)) {
    await handoff(side, resumed);
    return;
  }
  updateHeader(); refreshPanel(); requestDraw();
}

async function runAi(side) {
  const gen = S.gen;
  S.aiRunning = true;
  S.selection = null; clearAnswers();
  $("ai-text").textContent = `${SIDE_NAME[side]} (Computer, ${STRENGTH_NAME[S.game.players[side]] || ""}) ist am Zug …`;
  $("btn-skip").hidden = false;
  $("btn-ai-retry").hidden = true;
  $("ai-bar").hidden = false;
  updateHeader(); refreshPanel(); requestDraw();
  let failed = null;
  try {
    await ai.playTurn(S.game.players[side]);
  } catch (e) {
    failed = e;
  } finally {
    if (gen === S.gen) {
      S.aiRunning = false;
      $("ai-bar").hidden = true;
      S.animPos.clear(); S.hiddenUnits.clear();
    }
  }
  // Another game started meanwhile (a share link, the menu): this turn is no longer on screen, and
  // a dead engine has its own dialog (issue 12.2, 12.4).
  if (!S.game || gen !== S.gen || engine.dead) return;
  await refresh();
  await autosave();
  if (S.obs.outcome) { showEnd(S.obs.outcome); return; }
  if (S.obs.side === side) {
    // The engine refused or broke off the computer's turn. Its steps so far stay applied (and saved);
    // say why, and offer to let the computer try again rather than leave a silent, stuck game.
    const why = failed ? `Fehler im Computerzug: ${failed.message}` : "Der Computer hat seinen Zug nicht beendet.";
    showToast(why);
    $("ai-text").textContent = why;
    $("btn-skip").hidden = true;
    $("btn-ai-retry").hidden = false;
    $("btn-ai-retry").onclick = () => runAi(side);
    $("ai-bar").hidden = false;
    return;
  }
  await nextTurn();
}

async function handoff(side, resumed) {
  const n = side === "nordbund" ? 1 : 2;
  S.selection = null; clearAnswers();
  S.covered = !!S.obs.fog;
  $("handoff-title").textContent = `Spieler ${n} ist dran`;
  $("handoff-text").textContent = `${SIDE_NAME[side]}${resumed ? " – Spiel fortgesetzt" : ""}. ${S.covered ? "Die Karte bleibt verdeckt, bis du auf „Weiter“ tippst." : ""}`;
  const h = $("handoff");
  h.classList.toggle("covered", S.covered);
  h.classList.toggle("open", !S.covered);
  h.hidden = false;
  $("handoff-continue").focus(); // Enter or Space hands over, as the button says
  window.kaltfront.state.covered = S.covered;
  updateHeader(); refreshPanel(); requestDraw();
  await new Promise((resolve) => { $("handoff-continue").onclick = () => resolve(); });
  h.hidden = true;
  S.covered = false;
  S.shownSide = side;
  renderLog(); // the new player's own Protokoll (D15)
  window.kaltfront.state.covered = false;
  await refresh();
  centreOnOwnHq();
  requestDraw();
}

const endScreen = new EndScreen({
  // Revanche (issue 11.11): the same map, fog and players, a new seed.
  rematch: () => { const g = S.game; if (g) startGame({ scenario: g.scenario, fog: g.fog, players: g.players }); },
  mainMenu: () => toMainMenu(),
});

async function showEnd(outcome) {
  // A campaign battle ends in the campaign's evaluation, not on the battle end screen (C6).
  if (S.game && S.game.campaign) {
    // The battle's title toast must not lie over the evaluation's "Weiter" (a battle given up at once).
    if ($("toast").className === "info") hideToast();
    const hooks = S.game.campaign; S.game = null; S.obs = null; hooks.onEnd(outcome); return;
  }
  storage.clearAutosave(); // a finished game cannot be continued
  const summary = await call("summary", {}).catch(() => null); // the figures are the engine's
  endScreen.show(outcome, summary, { humans: humanSides() });
  updateHeader(); requestDraw();
  if (S.game) replayScreen.gameEnded(S.game.id, S.obs && S.obs.name);
}

async function autosave() {
  if (!S.game || !S.obs) return false;
  if (S.game.campaign) return S.game.campaign.save(); // the campaign's save holds its battle (C12)
  if (!session.ownsGame(S.game.id)) return false; // another tab plays this game (issue 12.1)
  try {
    const text = await call("save", {});
    // Checked again after the await: another tab may have taken the game over meanwhile (issue 12.1).
    if (!S.game || !session.ownsGame(S.game.id)) return false;
    const res = saves.saveAutosave(typeof text === "string" ? text : JSON.stringify(text), {
      players: S.game.players, gameId: S.game.id, meta: autosaveMeta(),
    });
    // A full quota: a toast the first time, and at every failure the header warning (issue 12.6);
    // the previous autosave stays as it was.
    if (!res.ok && !S.saveWarned) showToast(res.message);
    S.saveWarned = !res.ok;
    session.autosaved(res);
    return res.ok;
  } catch (e) { showToast(e.message); return false; }
}

function autosaveMeta() {
  return { scenario: S.game.scenario, fog: S.game.fog, seed: S.game.seed, viewer: S.viewer,
    camera: camera.snapshot(), logs: protokoll.toMeta() };
}

// ---- actions ----------------------------------------------------------------------------------------
async function doAction(action) {
  if (S.busy) return;
  S.busy = true;
  const before = S.obs;
  const gen = S.gen;
  let handedOn = false; // nextTurn runs: S.busy is no longer this action's to clear
  try {
    const res = await call("apply", { action });
    if (gen !== S.gen) return; // the game was left meanwhile (another tab took it over, issue 12.1)
    protokoll.add(res.log); renderLog();
    await playEvents(res.events, before, 0.6);
    clearAnswers();
    setView(res);
    const phaseChanged = res.events.some((e) => e.type === "phase" || e.type === "game_over");
    if (action.type === "build") S.selection = null;
    await refreshCanAct();
    updateHeader(); refreshPanel(); requestDraw();
    // Autosave after every phase (R63) and, cheaply, after every action, so a reload loses nothing.
    await autosave();
    if (phaseChanged) {
      S.selection = null; clearAnswers();
      S.busy = false;
      handedOn = true;
      await nextTurn();
      return;
    }
  } catch (e) {
    showToast(e.message); // illegal: the engine left the state unchanged, so the picture stays
  } finally {
    // Not after nextTurn: in hot-seat it returns only after the next player's "Weiter" and the refresh
    // behind it, when that player's own action may hold S.busy with its autosave still pending. Clearing
    // it then showed an idle page whose autosave was one action old, and allowed a second action (D15).
    if (!handedOn) S.busy = false;
    updateHeader();
  }
}

/** After "Rückgängig" (D16): the engine restored the position; show it like after an action. */
async function afterUndo(res) {
  protokoll.add(res.log); renderLog(); // "Bewegung zurückgenommen." (written by the engine)
  const keep = S.selection;
  clearAnswers();
  setView(res);
  await refreshCanAct();
  if (keep && keep.kind === "unit" && selectedUnit()) selectUnit(selectedUnit()); else S.selection = null;
  updateHeader(); refreshPanel(); requestDraw();
  await autosave();
}

/** Ending a phase while units could still act asks first, in both phases (R61, issue 11.7). */
async function endPhase({ confirmed = false } = {}) {
  if (!myTurn() || S.busy) return;
  const attack = S.obs.phase === "attack";
  const n = attack ? S.canAct.attack.length : new Set([...S.canAct.move, ...S.canAct.unload]).size;
  if (n && !confirmed && getSetting("askEndPhase")) {
    const who = n === 1 ? "1 Einheit kann" : `${n} Einheiten können`;
    const text = attack ? `${who} noch schießen. Angriffsphase trotzdem beenden?` : `${who} noch ziehen. Zugphase trotzdem beenden?`;
    const ok = await confirmDialog(text, "Phase beenden", { dontAsk: true });
    if (!ok || !myTurn()) return;
  }
  await doAction({ type: "end_phase" });
}

async function surrender() {
  if (!S.game || !S.obs || S.obs.outcome) return;
  const side = humanSides().length === 1 ? humanSides()[0] : S.obs.side;
  const ok = await confirmDialog(`${SIDE_NAME[side]} gibt auf. Wirklich aufgeben?`, "Aufgeben");
  if (!ok) return;
  $("game-menu").hidden = true;
  await doAction({ type: "surrender", side });
}

// ---- selection: one engine round trip at most, answers cached until the next action -------------------
function clearAnswers() {
  S.answers.clear();
  S.reach = S.targets = S.loadOpts = S.unloadOptions = null;
  S.unloadUnit = null; S.path = null; S.targetPreview = null; S.pendingTouch = null;
}

function ask(op, id) {
  const key = op + ":" + id;
  let p = S.answers.get(key);
  if (!p) {
    const arg = op === "unload_options" ? { transport: id } : { unit: id };
    // attack_options answers {targets, range}; the map needs the targets.
    p = call(op, arg).then((r) => (op === "attack_options" ? r.targets : r)).catch(() => []);
    S.answers.set(key, p);
  }
  return p;
}

/** Ask ahead for the units that can act, so a tap finds its answer already there. */
function prefetch() {
  if (!S.obs || !myTurn()) return;
  const op = S.obs.phase === "attack" ? "attack_options" : "reachable";
  for (const id of S.readySet) ask(op, id);
}

const unitAt = (h) => S.obs.units.find((u) => same(u.at, h));
const buildingAt = (h) => S.obs.buildings.find((b) => same(b.at, h));
const selectedUnit = () => (S.selection && S.selection.kind === "unit" ? S.obs.units.find((u) => u.id === S.selection.id) : null);

async function selectUnit(u, t0) {
  S.selection = { kind: "unit", id: u.id };
  S.reach = S.targets = S.loadOpts = S.unloadOptions = null; S.unloadUnit = null; S.path = null; S.targetPreview = null;
  refreshPanel(); requestDraw();
  aids.selectionChanged(); // tapping an enemy shows its reach and fire range (issue 13)
  if (!myTurn() || u.side !== S.obs.side) return;
  const sel = S.selection;
  if (S.obs.phase === "move") {
    const reach = await ask("reachable", u.id); // empty for a unit that has moved: the engine knows
    if (S.selection !== sel) return;
    S.reach = reach;
  } else {
    const targets = await ask("attack_options", u.id);
    if (S.selection !== sel) return;
    S.targets = targets;
  }
  drawNow();
  if (t0 !== undefined) recordTap(t0);
  refreshPanel();
  if (S.obs.phase === "move") {
    const lo = await ask("load_options", u.id);
    if (S.selection !== sel) return;
    S.loadOpts = lo && lo.length ? lo : null;
    requestDraw();
  }
}

async function selectBuilding(b) {
  S.selection = { kind: "building", at: b.at };
  S.reach = S.targets = S.loadOpts = null; S.buildOptions = null;
  refreshPanel(); requestDraw();
  if (myTurn()) {
    // The engine says what this building can build now (nothing when it is not an own, empty
    // production building in the move phase); the panel shows "Produzieren" only for a non-empty answer.
    const sel = S.selection;
    const opts = await call("build_options", { at: b.at }).catch(() => []);
    if (S.selection !== sel) return;
    S.buildOptions = opts && opts.length ? opts : null;
    refreshPanel();
  }
}

function deselect() {
  S.selection = null; S.buildOptions = null; clearAnswers();
  aids.selectionChanged();
  refreshPanel(); requestDraw();
}

async function startUnload() {
  const u = selectedUnit();
  if (!u) return;
  S.unloadOptions = await ask("unload_options", u.id);
  if (S.unloadOptions.length === 1) return chooseCargo(S.unloadOptions[0].unit);
  refreshPanel();
}

function chooseCargo(id) {
  S.unloadUnit = id;
  refreshPanel(); requestDraw();
}

function unloadHexes() {
  if (S.unloadUnit == null || !S.unloadOptions) return null;
  const o = S.unloadOptions.find((x) => x.unit === S.unloadUnit);
  return o ? o.to : null;
}

async function onTap(sx, sy, ev) {
  // Latency counts from the input event itself (same clock as performance.now()).
  const t0 = ev && ev.timeStamp ? ev.timeStamp : performance.now();
  if (!S.obs || S.covered) return;
  cancelTween();
  const hc = camera.screenToHex(sx, sy);
  const h = [hc.col, hc.row];
  if (h[0] < 0 || h[1] < 0 || h[0] >= S.obs.width || h[1] >= S.obs.height) { deselect(); return; }
  panel.terrain(S.obs, S.rules, h);
  const touch = ev && ev.pointerType === "touch";
  const u = selectedUnit();
  if (myTurn() && !S.busy && u) {
    // Unloading (R41).
    const uh = unloadHexes();
    if (uh && uh.some((x) => same(x, h))) return doAction({ type: "unload", transport: u.id, unit: S.unloadUnit, to: h });
    const r = S.reach && S.reach.find((x) => same(x.to, h));
    const lo = S.loadOpts && S.loadOpts.find((x) => same(x.at, h));
    const tg = S.targets && S.targets.find((x) => same(x.target, h));
    if (r || lo || tg) {
      // Touch has no hover: the first tap previews (path, expected damage), the second one acts.
      if (touch && !same(S.pendingTouch, h)) {
        S.pendingTouch = h;
        S.pendingText = tg ? "Nochmal tippen zum Angreifen" : lo && (!r || unitAt(h)) ? "Nochmal tippen zum Einsteigen" : "Nochmal tippen zum Ziehen";
        S.hover = h; S.path = r ? r.path : lo ? lo.path : null; S.targetPreview = tg || null;
        refreshPanel(); requestDraw();
        return;
      }
      S.pendingTouch = null;
      if (lo && (!r || unitAt(h))) return doAction({ type: "load", unit: u.id, transport: lo.transport });
      if (r) return doAction({ type: "move", unit: u.id, to: h });
      if (tg) return doAction({ type: "attack", unit: u.id, target: h });
    }
  }
  S.pendingTouch = null;
  const tu = unitAt(h);
  if (tu) {
    if (u && u.id === tu.id) { deselect(); return; }
    return selectUnit(tu, t0);
  }
  const b = buildingAt(h);
  if (b) return selectBuilding(b);
  deselect();
}

function onHover(sx, sy) {
  if (!S.obs || S.covered) return;
  if (sx === null) { S.hover = null; S.path = null; S.targetPreview = null; requestDraw(); return; }
  const hc = camera.screenToHex(sx, sy);
  const h = [hc.col, hc.row];
  if (same(h, S.hover)) return;
  S.hover = h;
  const r = S.reach && S.reach.find((x) => same(x.to, h));
  const lo = !r && S.loadOpts && S.loadOpts.find((x) => same(x.at, h));
  S.path = r ? r.path : lo ? lo.path : null;
  const tp = S.targets && S.targets.find((x) => same(x.target, h)) || null;
  if (tp !== S.targetPreview) { S.targetPreview = tp; refreshPanel(); }
  panel.terrain(S.obs, S.rules, h);
  requestDraw();
}

/** Arrow keys: move the hex cursor; the map takes the focus so Enter acts there, not on a button. */
function moveCursor(d) {
  if (!S.obs || S.covered) return;
  cancelTween();
  cursor.move(d, S.obs);
  if (document.activeElement !== $("map")) $("map").focus({ preventScroll: true });
  onCursorMoved();
}

function onCursorMoved() {
  // As a mouse over the hex: path preview, target preview, terrain line (read out: aria-live).
  const p = camera.hexToScreen(cursor.at[0], cursor.at[1]);
  S.hover = null;
  onHover(p.x, p.y);
  requestDraw();
}

function recordTap(t0) {
  S.tapLatencies.push(performance.now() - t0);
  if (S.tapLatencies.length > 500) S.tapLatencies.shift();
}

/** Tab / counter: the next own unit that can still act (R55, R59). */
function nextUnit(dir = 1) {
  if (!myTurn()) return;
  const ids = S.obs.units.filter((u) => S.readySet.has(u.id)).map((u) => u.id);
  if (!ids.length) return;
  const cur = S.selection && S.selection.kind === "unit" ? ids.indexOf(S.selection.id) : -1;
  const id = ids[(cur + dir + ids.length) % ids.length] ?? ids[0];
  const u = S.obs.units.find((x) => x.id === id);
  const w = hexToWorld(u.at[0], u.at[1]);
  if (!camera.isVisible(w.x, w.y, 60)) tweenTo(w.x, w.y, 250);
  selectUnit(u);
}

// ---- AI animation ---------------------------------------------------------------------------------
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function animateAiStep(step, { fast }) {
  if (!S.game) return;
  const events = step.events || [];
  protokoll.add(step.log); renderLog();
  const pace = fast ? 0 : S.aiDelay;
  if (pace > 0) {
    // Follow the computer: bring its action on screen first, unless the player is looking elsewhere
    // on purpose (any pan or zoom cancels the tween and the next step tries again).
    const ev = events.find((e) => e.type === "moved" || e.type === "attacked" || e.type === "built" || e.type === "unloaded");
    const at = ev && (ev.type === "moved" ? ev.path[0] : ev.type === "attacked" ? ev.at : ev.type === "unloaded" ? ev.to : ev.at);
    if (at) {
      const w = hexToWorld(at[0], at[1]);
      if (!camera.isVisible(w.x, w.y, 60)) await tweenTo(w.x, w.y, 350 * pace);
    }
    await playEvents(events, S.obs, pace);
  }
  if (step.observation) setView(step);
  updateHeader();
  requestDraw();
  if (pace > 0 && events.length) await sleep(180 * pace);
}

/** Show engine events on the map: slides, shots, damage numbers, explosions. */
async function playEvents(events, obsBefore, pace) {
  if (!pace || !events.length || !S.obs) return;
  for (const ev of events) {
    if (ev.type === "moved" && ev.path && ev.path.length > 1) {
      const per = 90 * pace;
      for (let i = 1; i < ev.path.length; i++) {
        const a = hexToWorld(ev.path[i - 1][0], ev.path[i - 1][1]), b = hexToWorld(ev.path[i][0], ev.path[i][1]);
        const t0 = performance.now();
        for (;;) {
          const k = Math.min(1, (performance.now() - t0) / per);
          S.animPos.set(ev.unit, { x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k });
          drawNow();
          if (k >= 1) break;
          await nextFrame();
        }
      }
      S.animPos.delete(ev.unit);
    } else if (ev.type === "attacked") {
      const now = performance.now();
      const dur = 900 * pace;
      if (ev.from) S.effects.push({ kind: "shot", from: ev.from, at: ev.at, t0: now, dur: 350 * pace });
      if (ev.at) S.effects.push({ kind: "text", at: ev.at, text: `−${ev.damage}`, colour: "#ff6b6b", t0: now, dur });
      if (ev.counter_damage && ev.from) S.effects.push({ kind: "text", at: ev.from, text: `−${ev.counter_damage}`, colour: "#ffb36b", t0: now + 250 * pace, dur });
      await animateFor(500 * pace);
    } else if (ev.type === "destroyed" && ev.at) {
      S.effects.push({ kind: "boom", at: ev.at, t0: performance.now(), dur: 600 * pace });
      await animateFor(400 * pace);
    } else if (ev.type === "built" && ev.at) {
      S.effects.push({ kind: "text", at: ev.at, text: "neu", colour: "#ffe14d", t0: performance.now(), dur: 700 * pace });
    } else if (ev.type === "captured" && ev.at) {
      S.effects.push({ kind: "text", at: ev.at, text: "erobert", colour: "#ffe14d", t0: performance.now(), dur: 900 * pace });
      await animateFor(300 * pace);
    }
  }
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));
async function animateFor(ms) { const end = performance.now() + ms; while (performance.now() < end) { drawNow(); await nextFrame(); } }

// ---- camera moves -----------------------------------------------------------------------------------
let tween = null;
function cancelTween() { if (tween) { tween.cancelled = true; tween = null; } }
function tweenTo(wx, wy, ms = 500) {
  cancelTween();
  const t = { cancelled: false };
  tween = t;
  const x0 = camera.x + camera.viewW / 2 / camera.scale, y0 = camera.y + camera.viewH / 2 / camera.scale;
  const start = performance.now();
  return new Promise((resolve) => {
    const step = () => {
      if (t.cancelled) return resolve(false);
      const k = Math.min(1, (performance.now() - start) / ms);
      const e = k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2;
      camera.centreOn(x0 + (wx - x0) * e, y0 + (wy - y0) * e);
      drawNow();
      if (k < 1) requestAnimationFrame(step); else { if (tween === t) tween = null; resolve(true); }
    };
    requestAnimationFrame(step);
  });
}

function hqOf(side) { return S.obs && S.obs.buildings.find((b) => b.type === "hq" && b.owner === side); }
function fallbackHq(side) {
  // Under fog the building list may miss the enemy HQ; the scenario summary always knows it.
  const sc = S.scenarios.find((x) => x.id === (S.obs && S.obs.scenario));
  const h = sc && sc.hq && sc.hq[side];
  return h ? { at: h.at, owner: side, type: "hq" } : null;
}
function hq(which) {
  if (!S.obs) return null;
  const side = which === "own" ? S.viewer : otherSide(S.viewer);
  return hqOf(side) || fallbackHq(side);
}

function centreOnOwnHq() {
  const h = hq("own");
  const ws = mapWorldSize(S.obs.width, S.obs.height);
  camera.setWorld(ws.w, ws.h);
  const scale = camera.viewW < 600 ? 0.85 : 1.1;
  const w = h ? hexToWorld(h.at[0], h.at[1]) : { x: ws.w / 2, y: ws.h / 2 };
  camera.frame(w.x, w.y, scale); // no third of the start view off the map (issue 11.12)
  requestDraw();
}

function jumpToHq(which) {
  const h = hq(which);
  if (!h) return;
  const w = hexToWorld(h.at[0], h.at[1]);
  tweenTo(w.x, w.y, 450);
}

/** R58: state the objective and pan to the enemy HQ and back once. */
async function openingPan() {
  const sc = S.scenarios.find((x) => x.id === S.obs.scenario);
  const objective = S.obs.objective || (sc && sc.objectives && sc.objectives[S.viewer]) || "Erobere das gegnerische Hauptquartier.";
  const el = $("objective");
  el.textContent = `Dein Ziel: ${objective}`;
  el.hidden = false;
  const own = camera.toWorld(camera.viewW / 2, camera.viewH / 2);
  const e = hq("enemy");
  let ok = true;
  if (e) {
    const w = hexToWorld(e.at[0], e.at[1]);
    ok = await tweenTo(w.x, w.y, 900);
    if (ok) await sleep(700);
    if (ok && !(tween && tween.cancelled)) ok = await tweenTo(own.x, own.y, 900);
  }
  setTimeout(() => { el.hidden = true; }, ok ? 1800 : 0);
}

// ---- drawing ----------------------------------------------------------------------------------------
let drawQueued = false;
let lastFrame = 0;
function requestDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(frame);
}

function animating() {
  // The HQ target circle turns and the "can fire" rings pulse during the player's own turn (R37, R55).
  return (S.obs && myTurn() && !document.hidden) || S.effects.length > 0;
}

function frame(now) {
  drawQueued = false;
  drawNow(now);
  if (animating()) {
    // Ambient animation only needs ~30 fps; this halves the work of an idle turn.
    drawQueued = true;
    setTimeout(() => requestAnimationFrame(frame), 28);
  }
}

function view() {
  return {
    obs: S.obs, rules: S.rules, covered: S.covered || !S.obs,
    myTurn: myTurn(), readySet: S.readySet,
    reach: S.reach, targets: S.targets,
    loadHexes: S.loadOpts ? S.loadOpts.map((o) => o.at) : null,
    unloadHexes: unloadHexes(),
    path: S.path, hover: S.hover,
    selectedHex: S.selection ? (S.selection.kind === "unit" ? (selectedUnit() || {}).at : S.selection.at) : null,
    animPos: S.animPos, hiddenUnits: S.hiddenUnits, effects: S.effects,
    cursor: cursor.at,
    aids: S.covered ? null : aids,
  };
}

function drawNow(now = performance.now()) {
  if (!S.obs || !S.game) { renderer.draw({ obs: null }, now); return; }
  const t0 = performance.now();
  S.effects = S.effects.filter((e) => now - e.t0 < e.dur);
  const v = view();
  renderer.draw(v, now);
  if (!S.covered) minimap.draw(v);
  updateHqChip();
  tapHint.update(S.pendingTouch && !S.covered && myTurn() ? { at: S.pendingTouch, text: S.pendingText } : null);
  lastFrame = performance.now() - t0;
}

function updateHqChip() {
  const e = S.obs && !S.covered ? hq("enemy") : null;
  if (!e) { placeHqChip($("hq-chip"), camera, null, null, {}); return; }
  const cx = camera.viewW / 2, cy = camera.viewH / 2;
  const from = selectedUnit() ? selectedUnit().at : (() => { const h = camera.screenToHex(cx, cy); return [h.col, h.row]; })();
  const dist = hexDistance(from, e.at);
  const enemy = otherSide(S.viewer);
  S.hqChipRect = placeHqChip($("hq-chip"), camera, view(), e.at, {
    html: `<span class="arrow" aria-hidden="true">➜</span><span class="hq-word">HQ </span>${dist}`, title: `HQ ${SIDE_NAME[enemy]}: ${dist} Felder`,
    // The name read out starts with the visible words ("HQ 11"), so speech input can say what it sees.
    label: `HQ ${dist} Felder: ${SIDE_NAME[enemy]}`,
    side: enemy, distance: dist, blockers: [$("minimap-box"), $("ai-bar"), $("objective")],
    rects: (renderer.lastLabels ? renderer.lastLabels.labels : []).map((l) => l.box),
  });
}

// ---- header, panel, log -----------------------------------------------------------------------------
function updateHeader() {
  const o = S.obs;
  if (!o) return;
  const sideEl = $("hdr-side");
  sideEl.textContent = SIDE_NAME[o.side];
  sideEl.className = "side-chip " + o.side;
  $("hdr-phase").textContent = o.outcome ? "Spielende" : PHASE_NAME[o.phase];
  showMoney(o, S.viewer);
  showRound(roundText(o));
  const mine = myTurn();
  const n = o.phase === "attack" ? S.canAct.attack.length : new Set([...S.canAct.move, ...S.canAct.unload]).size;
  const c = $("counter");
  c.textContent = counterText(o.phase, n);
  c.dataset.count = n;
  c.className = n ? (o.phase === "attack" ? "attack" : "move") : "none";
  c.hidden = !mine;
  c.disabled = !n;
  $("btn-end-phase").disabled = !mine || S.busy;
  $("btn-target-hq").disabled = !o;
  aids.render();
  window.kaltfront.state.phase = o.phase;
}

function refreshPanel() {
  if (!S.obs || S.covered) { panel.render({}); panel.terrain(null); return; }
  const u = selectedUnit();
  const b = S.selection && S.selection.kind === "building" ? buildingAt(S.selection.at) : null;
  const mine = myTurn();
  panel.render({
    obs: S.obs, rules: S.rules, unit: u, building: b, myTurn: mine,
    ready: u ? S.readySet.has(u.id) : false,
    buildOptions: b ? S.buildOptions : null,
    canUnload: !!(u && mine && S.obs.phase === "move" && S.canAct.unload.includes(u.id)),
    unloadOptions: S.unloadOptions, unloadUnit: S.unloadUnit,
    targetPreview: S.targetPreview,
    hint: S.aiRunning ? "Der Computer ist am Zug." : mine
      ? (S.obs.phase === "attack" ? "Angriffsphase: wähle eine Einheit mit rotem Ring und tippe ein rot umrandetes Ziel." : "Zugphase: wähle eine Einheit und tippe ein helles Feld. Eigene leere Gebäude produzieren.")
      : "Wähle eine Einheit oder ein Gebäude.",
  });
}

/** The Protokoll of the side at the screen; empty behind the hot-seat cover (D15, R61). */
function renderLog() { protokoll.render(S.viewer, S.covered || !S.obs); }

// ---- small UI helpers -------------------------------------------------------------------------------
let toastTimer = null;
/** How long a toast stays: long enough to read it (about 15 characters a second), at least 3.5 s, at
 *  most 15 s. A bad link's message runs to 200 characters and was gone after 3.5 s. A tap hides it. */
function toastMillis(msg) { return Math.min(15000, Math.max(3500, 1500 + 65 * msg.length)); }
function showToast(msg, kind = "error") {
  const t = $("toast");
  t.textContent = msg;
  t.className = kind === "info" ? "info" : "";
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideToast, toastMillis(msg));
}
function hideToast() { clearTimeout(toastTimer); $("toast").hidden = true; }

function confirmDialog(text, yes = "OK", { dontAsk = false } = {}) {
  const d = $("confirm");
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  // "Nicht mehr fragen" (issue 11.7): only for the end-of-phase question; remembered on "yes".
  $("confirm-dont-ask").hidden = !dontAsk;
  $("confirm-dont-ask-box").checked = false;
  const back = document.activeElement; // focus goes back there, so Enter on the map works again
  d.hidden = false;
  $("confirm-yes").focus();
  return new Promise((resolve) => {
    const done = (v) => {
      d.hidden = true; $("confirm-yes").onclick = $("confirm-no").onclick = null;
      if (back && back !== document.body && back.isConnected && !back.closest("[hidden]")) back.focus();
      else if (d.contains(document.activeElement)) document.activeElement.blur();
      if (v && dontAsk && $("confirm-dont-ask-box").checked) setSetting("askEndPhase", false);
      resolve(v);
    };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    d.onkeydown = (e) => { if (e.key === "Escape") done(false); };
  });
}

function openHelp() {
  renderHelp($("help-content"), S.rules);
  $("help").hidden = false;
  $("help-close").focus();
}

function overlayOpen() {
  // Any open overlay, including those other modules add (Spielstände, crash, other tab, storage full).
  return !!document.querySelector(".overlay:not([hidden])");
}

// ---- wiring -----------------------------------------------------------------------------------------
function resize() {
  const st = $("stage");
  const r = st.getBoundingClientRect();
  const cx = camera.x + camera.viewW / 2 / camera.scale, cy = camera.y + camera.viewH / 2 / camera.scale;
  renderer.resize(Math.max(1, r.width), Math.max(1, r.height), window.devicePixelRatio || 1);
  renderer.invalidate();
  if (S.obs) {
    const ws = mapWorldSize(S.obs.width, S.obs.height);
    camera.setWorld(ws.w, ws.h);
    camera.centreOn(cx, cy);
  }
  requestDraw();
}

new ResizeObserver(() => resize()).observe($("stage"));

new Input($("map"), {
  tap: (x, y, e) => onTap(x, y, e),
  hover: (x, y) => onHover(x, y),
  pan: (dx, dy) => { cancelTween(); camera.panBy(dx, dy); requestDraw(); },
  zoom: (f, x, y) => { cancelTween(); renderer.frozen = true; camera.zoomAt(f, x, y); requestDraw(); },
  gestureEnd: () => { renderer.frozen = false; requestDraw(); },
  key: (cmd, detail) => {
    if (cmd === "escape") {
      for (const id of ["help", "game-menu"]) if (!$(id).hidden) { $(id).hidden = true; return true; }
      if (overlayOpen()) return true;
      // Esc cancels one step at a time: the selection, then the hex cursor (issue 11.13).
      if (S.selection) deselect(); else if (cursor.active) { cursor.hide(); requestDraw(); }
      return true;
    }
    if (cmd === "menu" && S.game && $("main-menu").hidden) {
      if (!$("game-menu").hidden) { $("game-menu").hidden = true; return true; }
      if (overlayOpen()) return false;
      openGameMenu();
      return true;
    }
    if (overlayOpen() || !S.obs) return false;
    switch (cmd) {
      case "next": nextUnit(detail); if (selectedUnit()) cursor.show(selectedUnit().at, S.obs); return true;
      case "cursor": moveCursor(detail); return true;
      case "enter":
        if (cursor.active && !S.covered) { const p = camera.hexToScreen(cursor.at[0], cursor.at[1]); onTap(p.x, p.y, { pointerType: "keyboard" }); }
        else endPhase();
        return true;
      case "undo": aids.undo(); return true;
      case "hq": jumpToHq(detail); return true;
      case "panKey": cancelTween(); camera.panBy(detail[0] * 120, detail[1] * 120); requestDraw(); return true;
      case "zoomKey": cancelTween(); camera.zoomAt(detail, camera.viewW / 2, camera.viewH / 2); requestDraw(); return true;
      default: return false;
    }
  },
});

$("btn-end-phase").addEventListener("click", () => endPhase());
$("minimap-toggle").addEventListener("click", () => requestDraw());
$("counter").addEventListener("click", () => nextUnit(1));
$("toast").addEventListener("click", hideToast); // a tap hides a toast before its time
$("btn-target-hq").addEventListener("click", () => { jumpToHq(S.hqNext); S.hqNext = S.hqNext === "enemy" ? "own" : "enemy"; });
$("hq-chip").addEventListener("click", () => { jumpToHq("enemy"); S.hqNext = "own"; });
$("btn-skip").addEventListener("click", () => ai && ai.skip());
function openGameMenu() {
  $("menu-share").hidden = !session.canShare();
  $("menu-ask-end").checked = !!getSetting("askEndPhase");
  $("game-menu").hidden = false; $("menu-save").focus();
}
$("btn-menu").addEventListener("click", () => openGameMenu());
$("menu-ask-end").addEventListener("change", (e) => setSetting("askEndPhase", e.target.checked));
// The map takes the keyboard's focus (Tab); then the hex cursor shows where the keys act (issue 11.13).
// Only a keyboard focus (:focus-visible), not the focus a click or tap gives the canvas.
$("map").addEventListener("focus", () => { if (S.obs && !cursor.active && !S.covered && $("map").matches(":focus-visible")) { cursor.show(selectedUnit() ? selectedUnit().at : null, S.obs); onCursorMoved(); } });
installFocusTraps(document.querySelectorAll("section.overlay"), $("app"));
$("menu-share").addEventListener("click", async () => { $("game-menu").hidden = true; await session.share(); });
$("menu-saves").addEventListener("click", () => { session.openSaves(); replayScreen.decorateSaves(); });
$("menu-close").addEventListener("click", () => { $("game-menu").hidden = true; });
$("menu-save").addEventListener("click", async () => {
  if ((await autosave()) && (S.game.campaign || (await session.saveSlot()))) showToast("Spiel gespeichert.", "info");
  $("game-menu").hidden = true;
});
$("menu-surrender").addEventListener("click", () => surrender());
$("menu-help").addEventListener("click", () => { $("game-menu").hidden = true; openHelp(); });
$("menu-main").addEventListener("click", async () => { await autosave(); toMainMenu(); });
$("help-close").addEventListener("click", () => { $("help").hidden = true; });
document.addEventListener("visibilitychange", () => requestDraw());

// ---- the test and tooling surface (layout and state, never rules) ------------------------------------
window.kaltfront = {
  ready: false,
  error: null,
  info: null,
  timings: { scriptStart: performance.now() },
  call: (op, args = {}) => (engine ? engine.call(op, args) : Promise.reject(new Error("Engine nicht gestartet"))),
  state: S,
  startGame,                     // share-link hook: startGame({scenario, fog, players, seed})
  resumeGame,
  session,
  campaign: campaignUi,          // the Feldzug screens (tests: campaign.startNew, campaign.autoMode)
  get engine() { return engine; },
  skipIntro: false,
  hexToScreen(col, row) {
    // Page coordinates of a hex centre, for tests that click on the map.
    const p = camera.hexToScreen(col, row);
    const r = $("map").getBoundingClientRect();
    return { x: r.left + p.x, y: r.top + p.y };
  },
  camera,
  renderer,                      // tests (issue 14): the map tiles and sprites it keeps
  setAiDelay(k) { S.aiDelay = k; },
  act: (action) => doAction(action),   // tests: an action through the same path a click takes
  endPhase: (o) => endPhase(o),
  skipAi() { ai && ai.skip(); },
  myTurn,
  /** Bench: time `n` full redraws (terrain layer re-rendered each time when `cold`). */
  benchRedraw(n = 30, cold = false) {
    // Reading one pixel back forces the canvas to rasterise, so the time is the real frame cost,
    // not just the time to record the drawing commands.
    const ctx = $("map").getContext("2d");
    const times = [];
    for (let i = 0; i < n; i++) {
      if (cold) renderer.invalidate(true);
      const t0 = performance.now();
      drawNow();
      ctx.getImageData(0, 0, 1, 1);
      times.push(performance.now() - t0);
    }
    return times;
  },
  lastFrameMs: () => lastFrame,
  /** Tests that move the camera directly (not by input, which draws itself): draw the frame now. */
  redraw: () => drawNow(),
  cursorAt: () => cursor.at,
  /** Tests (issue 11.9): the map labels and unit boxes of the last frame, as laid out (screen pixels). */
  labels: () => renderer.lastLabels || { labels: [], obstacles: [] },
};

aids.mount();
window.kaltfront.aids = aids;
menu.show(storage.hasAutosave());
window.kaltfront.timings.menuShown = performance.now();
boot();
