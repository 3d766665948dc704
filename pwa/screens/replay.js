// screens/replay.js — watching a finished game again (issue 13.3): the replay viewer with play / pause /
// step / speed / jump to a round and the Protokoll beside the map, the "Wiederholung ansehen" button
// on the end screen, and the replays listed (with export, import, delete) in the "Spielstände" dialog.
// The engine holds and checks the replay (bridge ops replay_export, replay_open, replay_view,
// replay_round; docs/replay-format.md) and answers each step with the position, fog lifted; this screen
// only draws it with the map renderer and lists the events with the Protokoll's words.

import { Camera, mapWorldSize } from "../layout.js";
import { Renderer } from "../render.js";
import { Input } from "../input.js";
import { SIDE_NAME } from "../texts.js";
import * as replays from "../replays.js";
import { downloadText } from "../saves-ui.js";

const $ = (id) => document.getElementById(id);
const SPEEDS = [["0.5", "0,5×"], ["1", "1×"], ["2", "2×"], ["4", "4×"]];
const STEP_MS = 900; // one action per 0.9 s at 1×
const RECENT = 30;   // actions listed in the Protokoll beside the map

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "onclick") node.addEventListener("click", v);
    else if (k === "aria") for (const [a, b] of Object.entries(v)) node.setAttribute(`aria-${a}`, b);
    else node[k] = v;
  }
  node.append(...children);
  return node;
}

export class ReplayScreen {
  /** hooks: call(op, args) → Promise, rules() → rules of the game data, toast(text, kind) */
  constructor(hooks) {
    this.h = hooks;
    this.summary = null;
    this.index = 0;
    this.playing = false;
    this.timer = null;
    this.view = null;
    this.prevObs = null;
    this.lastExport = null; // {id, replay} of the game that just ended
    this.camera = new Camera();
    this.renderer = null;
  }

  // ---- the end screen: keep the finished game, offer to watch it -------------------------------------
  /** Called when a game ends: the engine makes the replay, it is kept among the last ten. */
  async gameEnded(gameId, name) {
    let replay;
    try {
      replay = await this.h.call("replay_export", { meta: { name: name || "", saved: new Date().toISOString() } });
    } catch {
      this.lastExport = null; // e.g. a hand-made position: it has no record, so there is no replay
      this.endButton();
      return;
    }
    this.lastExport = { id: gameId, replay };
    const kept = replays.keepReplay(gameId, replay);
    if (!kept.ok) this.h.toast(kept.message, "info");
    this.endButton();
  }

  endButton() {
    const card = document.querySelector("#end-screen .card");
    if (!card) return;
    // Only a game with a replay gets the buttons (a hand-made position has no record of its start).
    if (!this.lastExport) {
      for (const id of ["end-replay", "end-replay-export"]) if ($(id)) $(id).remove();
      return;
    }
    if ($("end-replay")) return;
    // In the end screen's row of buttons (#end-actions) they sit beside "Revanche" and "Hauptmenü".
    const inRow = !!$("end-actions");
    const b = el("button", { id: "end-replay", className: inRow ? "" : "wide", textContent: "Wiederholung ansehen",
      onclick: () => this.lastExport && this.open(this.lastExport.replay) });
    const main = $("end-main");
    if (main) main.before(b); else card.append(b);
    const ex = el("button", { id: "end-replay-export", className: inRow ? "ghost" : "wide ghost", textContent: "Wiederholung exportieren",
      onclick: () => this.lastExport && this.exportReplay(this.lastExport.replay) });
    b.after(ex);
  }

  exportReplay(replay) {
    const meta = replay.meta || {};
    downloadText(replays.replayFileName({ name: meta.name, saved_at: meta.saved }), JSON.stringify(replay));
  }

  // ---- the "Spielstände" dialog: a section with the kept replays -------------------------------------
  decorateSaves() {
    const card = document.querySelector("#saves .card");
    if (!card) return;
    let sec = $("replays-section");
    if (!sec) {
      sec = el("div", { id: "replays-section" },
        el("h3", { textContent: "Wiederholungen" }),
        el("p", { className: "status", textContent: `Die letzten ${replays.MAX_KEPT} beendeten Partien werden automatisch behalten.` }),
        el("ul", { id: "replays-list", className: "saves-list" }),
        el("p", { id: "replays-message", className: "status" }),
        el("input", { id: "replays-file", type: "file", accept: ".json,application/json", hidden: true }),
        el("button", { id: "replays-import", className: "wide", textContent: "Wiederholung importieren",
          onclick: () => $("replays-file").click() }));
      const before = $("saves-close");
      if (before) before.before(sec); else card.append(sec);
      $("replays-file").addEventListener("change", async (event) => {
        const file = event.target.files && event.target.files[0];
        event.target.value = "";
        if (file) await this.importFile(file);
      });
    }
    $("replays-message").textContent = "";
    this.fillList();
  }

  fillList() {
    const list = $("replays-list");
    if (!list) return;
    list.replaceChildren();
    const entries = replays.listReplays();
    if (!entries.length) list.append(el("li", { className: "empty", textContent: "Noch keine Wiederholungen." }));
    for (const entry of entries) {
      const when = entry.saved_at ? new Date(entry.saved_at).toLocaleString("de-DE", { dateStyle: "short", timeStyle: "short" }) : "";
      const del = el("button", { className: "ghost", textContent: "Löschen" });
      del.addEventListener("click", () => {
        if (del.dataset.armed !== "1") { del.dataset.armed = "1"; del.textContent = "Wirklich löschen?"; return; }
        replays.deleteReplay(entry.id);
        this.fillList();
      });
      list.append(el("li", { className: "save replay", dataset: { id: entry.id } },
        el("strong", { textContent: `${entry.name}, ${entry.rounds} Runden` }),
        el("span", { className: "detail", textContent: [entry.text, when].filter(Boolean).join(" · ") }),
        el("div", { className: "buttons" },
          el("button", { className: "primary", textContent: "Ansehen", onclick: () => {
            const r = replays.readReplay(entry.id);
            if (r) this.open(r); else $("replays-message").textContent = "Diese Wiederholung kann nicht gelesen werden.";
          } }),
          el("button", { textContent: "Exportieren", onclick: () => {
            const r = replays.readReplay(entry.id);
            if (r) downloadText(replays.replayFileName(entry), JSON.stringify(r));
          } }),
          del)));
    }
  }

  async importFile(file) {
    const msg = $("replays-message");
    let text;
    try { text = await file.text(); } catch { msg.textContent = "Die Datei konnte nicht gelesen werden."; return; }
    let data;
    try { data = JSON.parse(text); } catch { data = text; } // the engine says what is wrong with it
    try {
      await this.h.call("replay_open", { replay: data });
    } catch (e) {
      msg.textContent = e.message; // German, from the engine's checks
      return;
    }
    const id = `import-${Date.now().toString(36)}`;
    const kept = replays.keepReplay(id, data);
    msg.textContent = kept.ok ? "Wiederholung importiert." : kept.message;
    this.fillList();
  }

  // ---- the viewer -------------------------------------------------------------------------------------
  build() {
    if ($("replay-viewer")) return;
    const speed = el("select", { id: "replay-speed", aria: { label: "Tempo" } },
      ...SPEEDS.map(([v, t]) => el("option", { value: v, textContent: t, selected: v === "1" })));
    const root = el("section", { id: "replay-viewer", className: "replay-viewer", aria: { label: "Wiederholung" } },
      el("div", { className: "replay-top" },
        el("h2", { id: "replay-title", textContent: "Wiederholung" }),
        el("span", { id: "replay-result", className: "status" }),
        el("button", { id: "replay-close", textContent: "Schließen", onclick: () => this.close() })),
      el("div", { className: "replay-body" },
        el("div", { id: "replay-stage", className: "replay-stage" }, el("canvas", { id: "replay-map", aria: { label: "Karte der Wiederholung" } })),
        el("aside", { className: "replay-log" }, el("h3", { textContent: "Protokoll" }), el("ol", { id: "replay-log" }))),
      el("div", { className: "replay-controls" },
        el("button", { id: "replay-start", textContent: "|◀", title: "Zum Anfang", aria: { label: "Zum Anfang" }, onclick: () => this.seek(0) }),
        el("button", { id: "replay-back", textContent: "◀", title: "Schritt zurück", aria: { label: "Schritt zurück" }, onclick: () => this.step(-1) }),
        el("button", { id: "replay-play", className: "primary", textContent: "▶", title: "Abspielen", aria: { label: "Abspielen" }, onclick: () => this.togglePlay() }),
        el("button", { id: "replay-step", textContent: "▶|", title: "Schritt vor", aria: { label: "Schritt vor" }, onclick: () => this.step(1) }),
        el("label", { className: "replay-speed" }, "Tempo ", speed),
        el("label", { className: "replay-round" }, "Runde ", el("select", { id: "replay-round", aria: { label: "Springe zu Runde" } })),
        el("input", { id: "replay-slider", type: "range", min: "0", max: "0", value: "0", aria: { label: "Aktion" } }),
        el("span", { id: "replay-pos", className: "replay-pos" })));
    root.hidden = true;
    document.body.append(root);
    this.renderer = new Renderer($("replay-map"), this.camera);
    this.input = new Input($("replay-map"), {
      pan: (dx, dy) => { this.camera.panBy(dx, dy); this.draw(); },
      zoom: (f, x, y) => { this.camera.zoomAt(f, x, y); this.draw(); },
      gestureEnd: () => this.draw(),
    });
    $("replay-round").addEventListener("change", async (e) => {
      const r = await this.h.call("replay_round", { round: Number(e.target.value) });
      this.seek(r.index);
    });
    $("replay-slider").addEventListener("input", (e) => this.seek(Number(e.target.value)));
    $("replay-speed").addEventListener("change", () => { if (this.playing) { this.stop(); this.play(); } });
    root.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.stopPropagation(); this.close(); }
      else if (e.key === "ArrowRight" && e.target.tagName !== "INPUT") { e.preventDefault(); this.step(1); }
      else if (e.key === "ArrowLeft" && e.target.tagName !== "INPUT") { e.preventDefault(); this.step(-1); }
    });
    new ResizeObserver(() => this.resize()).observe($("replay-stage"));
  }

  /** Open a replay file (the engine's dict): the engine checks it and answers step 0. */
  async open(replay) {
    this.build();
    let opened;
    try {
      opened = await this.h.call("replay_open", { replay });
    } catch (e) {
      this.h.toast(e.message);
      return false;
    }
    this.summary = opened;
    this.want = 0;
    const meta = opened.meta || {};
    $("replay-title").textContent = `Wiederholung: ${meta.name || opened.view.observation.name}`;
    $("replay-result").textContent = opened.final.text || "";
    const rounds = [...new Set(opened.phases.map((p) => p.round))];
    $("replay-round").replaceChildren(...rounds.map((r) => el("option", { value: String(r), textContent: String(r) })));
    $("replay-slider").max = String(opened.length);
    const root = $("replay-viewer");
    root.hidden = false;
    this.resize();
    const o = opened.view.observation;
    const ws = mapWorldSize(o.width, o.height);
    this.camera.setWorld(ws.w, ws.h);
    this.camera.centreOn(ws.w / 2, ws.h / 2, 0.01); // the whole map (minScale fits it)
    await this.seek(0);
    $("replay-play").focus();
    window.kaltfront && (window.kaltfront.replay = this);
    return true;
  }

  close() {
    this.stop();
    const root = $("replay-viewer");
    if (root) root.hidden = true;
    const back = $("end-replay");
    if (back && !back.hidden && !$("end-screen").hidden) back.focus();
  }

  async seek(n) {
    if (!this.summary) return;
    const index = Math.max(0, Math.min(this.summary.length, n));
    this.want = index; // quick taps on "Schritt vor" count from where the last one was heading
    const gen = (this.seekGen = (this.seekGen || 0) + 1);
    const v = await this.h.call("replay_view", { index, recent: RECENT });
    if (gen !== this.seekGen) return; // a newer request won
    this.prevObs = this.view ? this.view.observation : null;
    this.view = v;
    this.index = index;
    $("replay-slider").value = String(index);
    const o = v.observation;
    $("replay-pos").textContent = `Aktion ${index} / ${this.summary.length} · Runde ${o.round} · ${SIDE_NAME[o.side]}`;
    const roundSel = $("replay-round");
    if (roundSel.value !== String(o.round)) roundSel.value = String(o.round);
    this.renderLog();
    this.draw();
    if (index >= this.summary.length) this.stop();
  }

  step(d) { this.stop(); return this.seek((this.want ?? this.index) + d); }

  togglePlay() { if (this.playing) this.stop(); else this.play(); }

  play() {
    if (!this.summary) return;
    if (this.index >= this.summary.length) this.seek(0);
    this.playing = true;
    const b = $("replay-play");
    b.textContent = "⏸"; b.title = "Anhalten"; b.setAttribute("aria-label", "Anhalten");
    const tick = async () => {
      if (!this.playing) return;
      await this.seek((this.want ?? this.index) + 1);
      if (this.playing) this.timer = setTimeout(tick, STEP_MS / Number($("replay-speed").value));
    };
    this.timer = setTimeout(tick, STEP_MS / Number($("replay-speed").value));
  }

  stop() {
    this.playing = false;
    clearTimeout(this.timer);
    const b = $("replay-play");
    if (b) { b.textContent = "▶"; b.title = "Abspielen"; b.setAttribute("aria-label", "Abspielen"); }
  }

  renderLog() {
    // The engine writes the lines (kaltfront/logtext.py), as for the game's own Protokoll.
    const items = [];
    for (const entry of this.view.recent) {
      const lines = (entry.lines || []).filter((l) => typeof l === "string");
      if (!lines.length) continue;
      items.push(el("li", { value: entry.index, dataset: { index: String(entry.index) } }, lines.join(" ")));
    }
    $("replay-log").replaceChildren(...items);
  }

  resize() {
    const st = $("replay-stage");
    if (!st || !this.renderer || $("replay-viewer").hidden) return;
    const r = st.getBoundingClientRect();
    this.renderer.resize(Math.max(1, r.width), Math.max(1, r.height), window.devicePixelRatio || 1);
    this.draw();
  }

  draw() {
    if (!this.renderer || !this.view) return;
    const o = this.view.observation;
    this.renderer.draw({
      obs: o, rules: this.h.rules(), covered: false, myTurn: false, readySet: new Set(),
      reach: null, targets: null, loadHexes: null, unloadHexes: null, path: null, hover: null,
      selectedHex: this.lastHex(), animPos: new Map(), hiddenUnits: new Set(), effects: [],
    }, performance.now());
  }

  /** The hex the last action happened on, outlined so the eye finds it while playing. */
  lastHex() {
    const last = this.view && this.view.recent[0];
    if (!last || last.index !== this.index) return null;
    const ev = last.events.find((e) => e.to || e.at);
    return ev ? ev.to || ev.at : null;
  }
}

