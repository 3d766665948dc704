// render.js — draws the map canvas: terrain, fog, buildings with owner rings, the HQ drawing (R37), units
// with hp, level and loaded marker, and the markers the engine's answers ask for (reachable hexes, path
// preview, red-outlined targets with expected damage, rings on units that can still act, R53–R55).
// One entry point, `draw(view, now)`. Terrain and fog are drawn once per zoom step into square tiles
// (offscreen canvases) and only the tiles around the view are kept (issue 14: memory; see `drawTiles`);
// a tile is drawn again when the fog over its hexes changes. Everything else is cheap and per frame.
// The renderer decides nothing: every highlight comes from an engine answer stored in `view`.

import { HEX_SIZE, HEX_W, ROW_H, hexToWorld, hexPath, mapWorldSize } from "./layout.js";
import { TERRAIN_COLOUR, BUILDING_CHARS, SIDE_COLOUR, SIDE_DARK, MARK, ownerColour } from "./palette.js";
import { SIDE_NAME, UNIT_ABBR, otherSide } from "./texts.js";
import { layoutLabels, placesAround } from "./labels.js";

// Issue 14 (memory): the whole map's terrain and fog used to be cached as two canvases in device pixels,
// up to 2 × 64 MB on a phone (devicePixelRatio 2.6), for the whole game. Now the map is cut into tiles
// of TILE device pixels with terrain and fog in one picture, and a least-recently-used set of them is
// kept: all the view needs plus a margin (TILE_SPARE_FACTOR), so panning back and forth redraws little.
const TILE = 256;
const TILE_SPARE_FACTOR = 2;
const TILE_SPARE_MIN = 16;
// Unit and building sprites: a new set per zoom step (quarter pixels of radius) and per hit points, so a
// pinch across the zoom range made hundreds, up to ~1 MB each zoomed in on a phone; the least recently
// used go beyond this many bytes (a frame needs a few MB at most).
const SPRITE_BUDGET_BYTES = 24e6;
const DAMAGE_FONT = "bold 13px system-ui, sans-serif";
const HQ_FONT = "bold 11px system-ui, sans-serif"; // beyond this an offscreen canvas costs more memory than it saves

/** Quantised zoom step for the terrain cache: quarter-octaves, so pinching re-renders rarely. */
function quantise(scale) { return Math.pow(2, Math.round(Math.log2(scale) * 4) / 4); }

export class Renderer {
  constructor(canvas, camera) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.camera = camera;
    this.dpr = 1;
    this.tiles = new Map();     // "q|tx|ty" -> {canvas, obs, sig}: terrain + fog tiles, least recently used first
    this.tileMap = "";          // scenario and size the tiles belong to
    this.tileQ = 0;             // the zoom step (device px per world unit) the tiles were last drawn at
    this.sprites = new Map();   // pre-drawn unit counters and building symbols, least recently used first
    this.spriteBytes = 0;       // their pixels' memory (RGBA)
    this.terrainSprites = new Map(); // terrain character -> pre-drawn hex at zoom step terrainQ
    this.terrainQ = 0;
    this.frozen = false;        // true while a zoom gesture runs
  }

  resize(cssW, cssH, dpr) {
    this.dpr = dpr;
    this.canvas.width = Math.round(cssW * dpr);
    this.canvas.height = Math.round(cssH * dpr);
    this.canvas.style.width = cssW + "px";
    this.canvas.style.height = cssH + "px";
    this.camera.setView(cssW, cssH);
  }

  /** Drop cached pictures. The tiles already follow map, zoom and fog; `all` is for benchmarks. */
  invalidate(all = false) {
    if (all) { this.tiles.clear(); this.sprites.clear(); this.spriteBytes = 0; this.terrainSprites.clear(); }
  }

  /** A pre-drawn symbol: key → offscreen canvas of `size` CSS pixels drawn by `paint(ctx)` around (0, 0). */
  sprite(key, size, paint) {
    let sp = this.sprites.get(key);
    if (sp) {
      this.sprites.delete(key); // re-inserted below: most recently used last
    } else {
      const px = Math.ceil(size * this.dpr);
      const c = makeCanvas(px, px);
      const ctx = c.getContext("2d");
      ctx.setTransform(this.dpr, 0, 0, this.dpr, px / 2, px / 2);
      paint(ctx);
      sp = { canvas: c, size: px / this.dpr, bytes: px * px * 4 };
      this.spriteBytes += sp.bytes;
      for (const [old, o] of this.sprites) {
        if (this.spriteBytes <= SPRITE_BUDGET_BYTES) break;
        this.sprites.delete(old);
        this.spriteBytes -= o.bytes;
      }
    }
    this.sprites.set(key, sp);
    return sp;
  }

  blit(ctx, sp, x, y) { ctx.drawImage(sp.canvas, x - sp.size / 2, y - sp.size / 2, sp.size, sp.size); }

  // ---- static layers: terrain (per zoom step) and fog (per observation) --------------------------
  /** One pre-drawn hex per terrain character and zoom step: drawImage is far cheaper than paths. */
  terrainSprite(ch, q) {
    // Only the current zoom step's hexes are kept (a dozen canvases; up to 1 MB each zoomed far in).
    if (q !== this.terrainQ) { this.terrainSprites.clear(); this.terrainQ = q; }
    let sp = this.terrainSprites.get(ch);
    if (sp) return sp;
    const w = Math.ceil((HEX_W + 2) * q), h = Math.ceil((2 * HEX_SIZE + 2) * q);
    const c = makeCanvas(w, h);
    const ctx = c.getContext("2d");
    ctx.setTransform(q, 0, 0, q, w / 2, h / 2);
    ctx.beginPath();
    hexPath(ctx, 0, 0, HEX_SIZE + 0.5); // +0.5 hides hairline seams between hexes
    ctx.fillStyle = TERRAIN_COLOUR[ch] || "#ccc";
    ctx.fill();
    drawTerrainGlyph(ctx, ch, 0, 0);
    // Thin grid line, so terrain reads as hexes when zoomed in.
    ctx.beginPath(); hexPath(ctx, 0, 0, HEX_SIZE);
    ctx.strokeStyle = "rgba(0,0,0,0.13)"; ctx.lineWidth = 1 / q * Math.min(q, 1.5); ctx.stroke();
    sp = { canvas: c, w, h };
    this.terrainSprites.set(ch, sp);
    return sp;
  }

  /** Draw hexes c0..c1 × r0..r1; ctx is in world units scaled by q (device pixels per world unit). */
  drawTerrainRange(ctx, obs, q, c0, c1, r0, r1) {
    for (let row = r0; row <= r1; row++) {
      const line = obs.terrain[row];
      for (let col = c0; col <= c1; col++) {
        const sp = this.terrainSprite(line[col], q);
        const { x, y } = hexToWorld(col, row);
        ctx.drawImage(sp.canvas, x - sp.w / 2 / q, y - sp.h / 2 / q, sp.w / q, sp.h / q);
      }
    }
  }

  drawFogRange(ctx, obs, c0, c1, r0, r1) {
    if (!obs.fog) return;
    ctx.fillStyle = MARK.fog;
    ctx.beginPath();
    for (let row = r0; row <= r1; row++) {
      const vis = obs.visible[row];
      for (let col = c0; col <= c1; col++)
        if (vis[col] !== "1") { const { x, y } = hexToWorld(col, row); hexPath(ctx, x, y, HEX_SIZE + 0.5); }
    }
    ctx.fill();
  }

  /**
   * Terrain and fog of the hexes in view, from tiles of TILE device pixels at zoom step q (device
   * pixels per world unit). A tile is drawn when first needed and again when the fog over its hexes
   * changed (compared per tile, so a new observation redraws only the tiles where vision changed);
   * beyond the tiles the view needs plus a margin, the least recently used are dropped. Tile edges are
   * rounded to device pixels, shared by neighbours, so no seam shows between them.
   */
  drawTiles(obs, q) {
    const ctx = this.ctx, cam = this.camera, dpr = this.dpr;
    const map = obs.scenario + "|" + obs.width + "x" + obs.height;
    if (map !== this.tileMap) { this.tiles.clear(); this.tileMap = map; }
    const ws = mapWorldSize(obs.width, obs.height);
    const mapW = Math.ceil(ws.w * q), mapH = Math.ceil(ws.h * q);
    // The view in tile coordinates at q.
    const k = cam.scale * dpr / q; // screen device px per tile px
    const vx0 = cam.x * q, vy0 = cam.y * q;
    const vx1 = vx0 + cam.viewW * dpr / k, vy1 = vy0 + cam.viewH * dpr / k;
    const tx0 = Math.max(0, Math.floor(vx0 / TILE)), ty0 = Math.max(0, Math.floor(vy0 / TILE));
    const tx1 = Math.min(Math.ceil(mapW / TILE) - 1, Math.floor(vx1 / TILE));
    const ty1 = Math.min(Math.ceil(mapH / TILE) - 1, Math.floor(vy1 / TILE));
    const edge = (t, v0) => Math.round((t * TILE - v0) * k);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.imageSmoothingEnabled = true;
    for (let ty = ty0; ty <= ty1; ty++) {
      for (let tx = tx0; tx <= tx1; tx++) {
        const tile = this.tile(obs, q, tx, ty, mapW, mapH);
        const x = edge(tx, vx0), y = edge(ty, vy0);
        const w = tile.canvas.width === TILE ? edge(tx + 1, vx0) - x : Math.round(tile.canvas.width * k);
        const h = tile.canvas.height === TILE ? edge(ty + 1, vy0) - y : Math.round(tile.canvas.height * k);
        ctx.drawImage(tile.canvas, x, y, w, h);
      }
    }
    const keep = Math.max(TILE_SPARE_MIN, TILE_SPARE_FACTOR * (tx1 - tx0 + 1) * (ty1 - ty0 + 1));
    for (const key of this.tiles.keys()) {
      if (this.tiles.size <= keep) break;
      this.tiles.delete(key);
    }
  }

  /** The tile (tx, ty) at zoom step q, drawn if missing or if the fog over its hexes changed. */
  tile(obs, q, tx, ty, mapW, mapH) {
    const key = q + "|" + tx + "|" + ty;
    let tile = this.tiles.get(key);
    if (tile) this.tiles.delete(key); // re-inserted below: the Map's order is least recently used first
    // The hexes that reach into the tile (a hex is drawn a little larger than its cell; one hex spare).
    const x0 = tx * TILE / q, y0 = ty * TILE / q, x1 = (tx + 1) * TILE / q, y1 = (ty + 1) * TILE / q;
    const c0 = Math.max(0, Math.floor(x0 / HEX_W) - 1), c1 = Math.min(obs.width - 1, Math.ceil(x1 / HEX_W));
    const r0 = Math.max(0, Math.floor(y0 / ROW_H) - 1), r1 = Math.min(obs.height - 1, Math.ceil(y1 / ROW_H));
    if (!tile || tile.obs !== obs) {
      let sig = "";
      if (obs.fog) for (let row = r0; row <= r1; row++) sig += obs.visible[row].slice(c0, c1 + 1);
      if (!tile || tile.sig !== sig) {
        const canvas = tile ? tile.canvas : makeCanvas(Math.min(TILE, mapW - tx * TILE), Math.min(TILE, mapH - ty * TILE));
        const ctx = canvas.getContext("2d");
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        ctx.setTransform(q, 0, 0, q, -tx * TILE, -ty * TILE);
        this.drawTerrainRange(ctx, obs, q, c0, c1, r0, r1);
        this.drawFogRange(ctx, obs, c0, c1, r0, r1);
        tile = { canvas, sig };
      }
      tile.obs = obs;
    }
    this.tiles.set(key, tile);
    return tile;
  }

  // ---- the frame ---------------------------------------------------------------------------------
  draw(view, now) {
    const ctx = this.ctx, cam = this.camera, dpr = this.dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#1d3550";
    ctx.fillRect(0, 0, cam.viewW, cam.viewH);
    const obs = view.obs;
    if (!obs || view.covered) return;

    // World-space layer. During a pinch or wheel gesture the tiles of the zoom step it started at are
    // scaled by drawImage: drawing new tiles mid-gesture would stall frames; `gestureEnd` brings the
    // sharp step.
    // Past a factor of 2 out (or 2 in) the old step's tiles would be too many (or too blurred): a new step.
    const q = quantise(cam.scale) * dpr, drift = cam.scale * dpr / this.tileQ;
    if (!this.frozen || !this.tileQ || drift < 0.5 || drift > 2) this.tileQ = q;
    this.drawTiles(obs, this.tileQ);
    ctx.setTransform(dpr * cam.scale, 0, 0, dpr * cam.scale, -cam.x * cam.scale * dpr, -cam.y * cam.scale * dpr);
    if (view.aids) view.aids.drawWorld(ctx, cam); // fire zones under the reach markers (issue 13)
    this.drawHighlights(ctx, view, now);

    // Screen-space layer: symbols keep a minimum size so they read at every zoom level (R37).
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const rScreen = HEX_SIZE * cam.scale;
    this.drawBuildings(ctx, view, rScreen, now);
    this.drawUnits(ctx, view, rScreen, now);
    this.drawTargets(ctx, view, rScreen);
    if (view.aids) view.aids.drawScreen(ctx, cam, view.path);
    this.drawEffects(ctx, view, rScreen, now);
    this.drawLabels(ctx, view, rScreen);
  }

  drawHighlights(ctx, view, now) {
    const lw = 1.5 / this.camera.scale;
    if (view.reach && view.reach.length) {
      ctx.beginPath();
      for (const r of view.reach) { const { x, y } = hexToWorld(r.to[0], r.to[1]); hexPath(ctx, x, y, HEX_SIZE - 1.5); }
      ctx.fillStyle = MARK.reach; ctx.fill();
      ctx.strokeStyle = MARK.reachEdge; ctx.lineWidth = lw; ctx.stroke();
    }
    const teal = (hexes) => {
      if (!hexes || !hexes.length) return;
      ctx.beginPath();
      for (const h of hexes) { const { x, y } = hexToWorld(h[0], h[1]); hexPath(ctx, x, y, HEX_SIZE - 3); }
      ctx.strokeStyle = MARK.load; ctx.lineWidth = 3 / this.camera.scale; ctx.stroke();
      ctx.fillStyle = "rgba(127,255,212,0.25)"; ctx.fill();
    };
    teal(view.loadHexes);
    teal(view.unloadHexes);
    if (view.path && view.path.length > 1) {
      ctx.beginPath();
      view.path.forEach((h, i) => { const { x, y } = hexToWorld(h[0], h[1]); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
      ctx.strokeStyle = "rgba(0,0,0,0.45)"; ctx.lineWidth = 7 / this.camera.scale; ctx.lineCap = "round"; ctx.lineJoin = "round"; ctx.stroke();
      ctx.strokeStyle = MARK.path; ctx.lineWidth = 4 / this.camera.scale; ctx.stroke();
      const end = view.path[view.path.length - 1];
      const { x, y } = hexToWorld(end[0], end[1]);
      ctx.beginPath(); ctx.arc(x, y, 6, 0, Math.PI * 2); ctx.fillStyle = MARK.path; ctx.fill();
    }
    if (view.selectedHex) {
      const { x, y } = hexToWorld(view.selectedHex[0], view.selectedHex[1]);
      ctx.beginPath(); hexPath(ctx, x, y, HEX_SIZE - 1);
      ctx.strokeStyle = MARK.select; ctx.lineWidth = 3.5 / this.camera.scale; ctx.stroke();
    }
    if (view.cursor) {
      // The keyboard's hex cursor (issue 11.13): a thick dashed outline, dark under light, seen on every terrain.
      const { x, y } = hexToWorld(view.cursor[0], view.cursor[1]);
      ctx.beginPath(); hexPath(ctx, x, y, HEX_SIZE - 2);
      ctx.setLineDash([]); ctx.strokeStyle = "rgba(0,0,0,0.75)"; ctx.lineWidth = 6 / this.camera.scale; ctx.stroke();
      ctx.setLineDash([7 / this.camera.scale, 4 / this.camera.scale]); ctx.strokeStyle = "#5ff4ff"; ctx.lineWidth = 3 / this.camera.scale; ctx.stroke();
      ctx.setLineDash([]);
    }
    if (view.hover) {
      const { x, y } = hexToWorld(view.hover[0], view.hover[1]);
      ctx.beginPath(); hexPath(ctx, x, y, HEX_SIZE - 1);
      ctx.strokeStyle = "rgba(255,255,255,0.7)"; ctx.lineWidth = 1.5 / this.camera.scale; ctx.stroke();
    }
  }

  drawBuildings(ctx, view, r, now) {
    const cam = this.camera;
    for (const b of view.obs.buildings) {
      const w = hexToWorld(b.at[0], b.at[1]);
      if (!cam.isVisible(w.x, w.y, -HEX_SIZE * 2 * cam.scale - 60)) continue;
      const p = cam.toScreen(w.x, w.y);
      if (b.type === "hq") drawHq(ctx, p.x, p.y, Math.max(r, 11), b, view, now);
      else {
        const br = Math.round(Math.max(r, 7) * 4) / 4;
        const key = `b|${b.type}|${b.owner}|${b.capture ? b.capture.side : ""}|${br}|${this.dpr}`;
        this.blit(ctx, this.sprite(key, 2 * br + 8, (c) => drawBuilding(c, 0, 0, br, b)), p.x, p.y);
      }
    }
  }

  /**
   * The damage labels of the targets (R54) and the HQ name plates (R37), in screen pixels with fixed
   * font sizes, laid out together so no label hides another or a unit (issue 11.9, pwa/labels.js).
   * `lastLabels` keeps the result for the tests.
   */
  drawLabels(ctx, view, r) {
    const cam = this.camera;
    const labels = [];
    const near = (p) => p.x > -150 && p.y > -150 && p.x < cam.viewW + 150 && p.y < cam.viewH + 150;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.font = DAMAGE_FONT;
    const hr = Math.max(r, 8);
    for (const t of view.targets || []) {
      const p = cam.hexToScreen(t.target[0], t.target[1]);
      if (!near(p)) continue;
      const text = `−${t.damage}` + (t.counter != null ? `  ↩${t.counter}` : "");
      const w = ctx.measureText(text).width + 10;
      labels.push({ kind: "damage", text, at: t.target, x: p.x, y: p.y, w, h: 18, places: placesAround(hr, w, 18) });
    }
    ctx.font = HQ_FONT;
    for (const b of view.obs.buildings) {
      if (b.type !== "hq" || !b.owner) continue;
      const p = cam.hexToScreen(b.at[0], b.at[1]);
      if (!near(p)) continue;
      const text = `HQ ${SIDE_NAME[b.owner]}`;
      const w = ctx.measureText(text).width + 12;
      labels.push({ kind: "hq", side: b.owner, text, at: b.at, x: p.x, y: p.y, w, h: 16, places: placesAround(Math.max(r, 11), w, 16, "below") });
    }
    if (!labels.length) { this.lastLabels = { labels: [], obstacles: [] }; return; }
    const obstacles = this.unitBoxes(view, r);
    for (const b of view.obs.buildings) {
      if (b.type !== "hq") continue;
      const p = cam.hexToScreen(b.at[0], b.at[1]), hq = Math.max(r, 11) * 0.85;
      obstacles.push({ x: p.x - hq, y: p.y - hq, w: 2 * hq, h: 2 * hq });
    }
    const placed = layoutLabels(labels, obstacles, { w: cam.viewW, h: cam.viewH });
    for (const l of placed) {
      const { x, y, w, h } = l.box;
      const cx = x + w / 2, cy = y + h / 2;
      if (Math.abs(cx - l.x) > w / 2 || Math.abs(cy - l.y) > 2 * Math.max(r, 11) + h) {
        // Not straight above or below its hex: a short line from the hex's edge says which hex it names.
        const d = Math.hypot(cx - l.x, cy - l.y) || 1, k = (Math.max(r, 8) * 0.75) / d;
        ctx.beginPath(); ctx.moveTo(l.x + (cx - l.x) * k, l.y + (cy - l.y) * k); ctx.lineTo(cx, cy);
        ctx.strokeStyle = "rgba(0,0,0,0.7)"; ctx.lineWidth = 4; ctx.stroke();
        ctx.strokeStyle = l.kind === "damage" ? "#ff8080" : "#ffffff"; ctx.lineWidth = 2; ctx.stroke();
      }
      if (l.kind === "damage") {
        ctx.font = DAMAGE_FONT;
        ctx.fillStyle = "rgba(140,0,0,0.94)"; roundRect(ctx, x, y, w, h, 4); ctx.fill();
      } else {
        ctx.font = HQ_FONT;
        ctx.fillStyle = SIDE_DARK[l.side]; roundRect(ctx, x, y, w, h, 4); ctx.fill();
        ctx.strokeStyle = "#fff"; ctx.lineWidth = 1; ctx.stroke();
      }
      ctx.fillStyle = "#fff"; ctx.fillText(l.text, cx, cy + 0.5);
    }
    this.lastLabels = { labels: placed.map(({ kind, text, at, box, covered }) => ({ kind, text, at, box, covered })), obstacles };
  }

  /** Screen rectangles of the unit counters as drawUnits draws them (counter and hp badge). */
  unitBoxes(view, r) {
    const cam = this.camera, ur = Math.max(r * 0.62, 7), out = [];
    for (const u of view.obs.units) {
      if (view.hiddenUnits && view.hiddenUnits.has(u.id)) continue;
      const w = (view.animPos && view.animPos.get(u.id)) || hexToWorld(u.at[0], u.at[1]);
      const p = cam.toScreen(w.x, w.y);
      if (p.x < -60 || p.y < -60 || p.x > cam.viewW + 60 || p.y > cam.viewH + 60) continue;
      out.push({ x: p.x - ur * 1.05, y: p.y - ur * 0.95, w: ur * 2.35, h: ur * 2.05, unit: u.id });
    }
    return out;
  }

  drawUnits(ctx, view, r, now) {
    const cam = this.camera, rules = view.rules;
    const ready = view.readySet || new Set();
    const pulse = 0.5 + 0.5 * Math.sin(now / 220);
    const ur = Math.max(r * 0.62, 7);
    for (const u of view.obs.units) {
      if (view.hiddenUnits && view.hiddenUnits.has(u.id)) continue;
      const off = view.animPos && view.animPos.get(u.id);
      const w = off || hexToWorld(u.at[0], u.at[1]);
      if (!cam.isVisible(w.x, w.y, -ur * 2 - 4)) continue;
      const p = cam.toScreen(w.x, w.y);
      const t = rules ? rules.units[u.type] : null;
      const spent = view.myTurn && u.side === view.obs.side && !ready.has(u.id);
      ctx.globalAlpha = spent ? 0.62 : 1;
      const rq = Math.round(ur * 4) / 4;
      const key = `u|${u.type}|${u.side}|${u.hp}|${u.level}|${u.loaded}|${rq}|${this.dpr}`;
      this.blit(ctx, this.sprite(key, 2.6 * rq + 26, (c) => drawCounter(c, 0, 0, rq, u, t)), p.x, p.y);
      ctx.globalAlpha = 1;
      if (view.myTurn && ready.has(u.id)) {
        if (view.obs.phase === "attack") {
          // Pulsing red ring and a crosshair top left: this unit can still fire (R55).
          ctx.beginPath(); ctx.arc(p.x, p.y, ur * (1.25 + 0.12 * pulse), 0, Math.PI * 2);
          ctx.strokeStyle = MARK.fire; ctx.globalAlpha = 0.55 + 0.45 * pulse; ctx.lineWidth = 2.5; ctx.stroke();
          ctx.globalAlpha = 1;
          drawCrosshair(ctx, p.x - ur * 0.95, p.y - ur * 0.95, Math.max(4, ur * 0.32));
        } else {
          ctx.beginPath(); ctx.arc(p.x, p.y, ur * 1.22, 0, Math.PI * 2);
          ctx.strokeStyle = MARK.ready; ctx.lineWidth = 1.5; ctx.stroke();
        }
      }
    }
  }

  drawTargets(ctx, view, r) {
    if (!view.targets || !view.targets.length) return;
    const cam = this.camera;
    const hr = Math.max(r, 8);
    for (const t of view.targets) {
      const w = hexToWorld(t.target[0], t.target[1]);
      const p = cam.toScreen(w.x, w.y);
      ctx.beginPath(); hexPath(ctx, p.x, p.y, hr - 1.5);
      ctx.strokeStyle = MARK.target; ctx.lineWidth = 3.5; ctx.stroke();
      // The expected damage (and counter-fire) label (R22, R54, D2) is placed with the others in drawLabels.
    }
  }

  drawEffects(ctx, view, r, now) {
    if (!view.effects) return;
    const cam = this.camera;
    for (const e of view.effects) {
      const k = Math.min(1, (now - e.t0) / e.dur);
      if (k < 0 || k >= 1) continue;
      const w = hexToWorld(e.at[0], e.at[1]);
      const p = cam.toScreen(w.x, w.y);
      if (e.kind === "boom") {
        ctx.beginPath(); ctx.arc(p.x, p.y, Math.max(r, 10) * (0.4 + k), 0, Math.PI * 2);
        ctx.fillStyle = `rgba(255,${Math.round(200 - 150 * k)},40,${0.8 * (1 - k)})`; ctx.fill();
      } else if (e.kind === "text") {
        ctx.font = "bold 16px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
        ctx.globalAlpha = 1 - k * k;
        ctx.lineWidth = 3; ctx.strokeStyle = "#000"; ctx.strokeText(e.text, p.x, p.y - 10 - 24 * k);
        ctx.fillStyle = e.colour || "#fff"; ctx.fillText(e.text, p.x, p.y - 10 - 24 * k);
        ctx.globalAlpha = 1;
      } else if (e.kind === "shot" && e.from) {
        const fw = hexToWorld(e.from[0], e.from[1]);
        const f = cam.toScreen(fw.x, fw.y);
        ctx.beginPath(); ctx.moveTo(f.x, f.y); ctx.lineTo(f.x + (p.x - f.x) * Math.min(1, k * 2), f.y + (p.y - f.y) * Math.min(1, k * 2));
        ctx.strokeStyle = `rgba(255,230,90,${1 - k})`; ctx.lineWidth = 3; ctx.stroke();
      }
    }
  }
}

// ---- drawing helpers ------------------------------------------------------------------------------
export function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y); ctx.arcTo(x + w, y, x + w, y + h, r); ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r); ctx.arcTo(x, y, x + w, y, r); ctx.closePath();
}

export function starPath(ctx, cx, cy, R, r = R * 0.45, points = 5) {
  ctx.beginPath();
  for (let i = 0; i < points * 2; i++) {
    const rad = i % 2 ? r : R;
    const a = -Math.PI / 2 + i * Math.PI / points;
    const x = cx + rad * Math.cos(a), y = cy + rad * Math.sin(a);
    if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y);
  }
  ctx.closePath();
}

function drawCrosshair(ctx, x, y, s) {
  ctx.strokeStyle = MARK.fire; ctx.lineWidth = 2;
  ctx.beginPath(); ctx.arc(x, y, s, 0, Math.PI * 2);
  ctx.moveTo(x - s * 1.5, y); ctx.lineTo(x + s * 1.5, y); ctx.moveTo(x, y - s * 1.5); ctx.lineTo(x, y + s * 1.5);
  ctx.stroke();
}

function makeCanvas(w, h) {
  if (typeof OffscreenCanvas !== "undefined") return new OffscreenCanvas(w, h);
  const c = document.createElement("canvas"); c.width = w; c.height = h; return c;
}

function drawTerrainGlyph(ctx, ch, x, y) {
  const s = HEX_SIZE;
  switch (ch) {
    case "w": // three little trees
      ctx.fillStyle = "#44703a";
      for (const [dx, dy] of [[-9, 4], [0, -6], [9, 4]]) {
        ctx.beginPath(); ctx.moveTo(x + dx, y + dy - 9); ctx.lineTo(x + dx - 6, y + dy + 5); ctx.lineTo(x + dx + 6, y + dy + 5); ctx.closePath(); ctx.fill();
      }
      break;
    case "h":
      ctx.strokeStyle = "#8a7d43"; ctx.lineWidth = 2.5;
      ctx.beginPath(); ctx.arc(x - 7, y + 6, 9, Math.PI * 1.1, Math.PI * 1.9); ctx.stroke();
      ctx.beginPath(); ctx.arc(x + 8, y + 8, 8, Math.PI * 1.1, Math.PI * 1.9); ctx.stroke();
      break;
    case "g":
      ctx.fillStyle = "#6e665c";
      ctx.beginPath(); ctx.moveTo(x - 16, y + 10); ctx.lineTo(x - 5, y - 12); ctx.lineTo(x + 3, y + 2); ctx.lineTo(x + 8, y - 6); ctx.lineTo(x + 17, y + 10); ctx.closePath(); ctx.fill();
      ctx.fillStyle = "#f2f2f2";
      ctx.beginPath(); ctx.moveTo(x - 5, y - 12); ctx.lineTo(x - 9, y - 5); ctx.lineTo(x - 1, y - 5); ctx.closePath(); ctx.fill();
      break;
    case "m":
      ctx.strokeStyle = "#4f6b5a"; ctx.lineWidth = 2;
      ctx.beginPath();
      for (const [dx, dy] of [[-10, -5], [4, -8], [-4, 5], [9, 6]]) { ctx.moveTo(x + dx - 5, y + dy); ctx.lineTo(x + dx + 5, y + dy); }
      ctx.stroke();
      break;
    case "r": case "~": case "k": {
      ctx.strokeStyle = ch === "~" ? "rgba(255,255,255,0.15)" : "rgba(255,255,255,0.3)"; ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (const dy of [-6, 5]) { ctx.moveTo(x - 10, y + dy); ctx.quadraticCurveTo(x - 5, y + dy - 4, x, y + dy); ctx.quadraticCurveTo(x + 5, y + dy + 4, x + 10, y + dy); }
      ctx.stroke();
      break;
    }
    case "b":
      ctx.fillStyle = "#9a7a4c"; ctx.fillRect(x - s * 0.85, y - 6, s * 1.7, 12);
      ctx.strokeStyle = "#5e4626"; ctx.lineWidth = 1.5; ctx.strokeRect(x - s * 0.85, y - 6, s * 1.7, 12);
      break;
    case "=":
      ctx.strokeStyle = "#8b7b58"; ctx.lineWidth = 6; ctx.lineCap = "round";
      ctx.beginPath(); ctx.moveTo(x - s * 0.8, y); ctx.lineTo(x + s * 0.8, y); ctx.stroke();
      ctx.strokeStyle = "#efe6c8"; ctx.lineWidth = 1.5; ctx.setLineDash([4, 4]);
      ctx.beginPath(); ctx.moveTo(x - s * 0.8, y); ctx.lineTo(x + s * 0.8, y); ctx.stroke(); ctx.setLineDash([]);
      break;
    case "f":
      ctx.strokeStyle = "#ffffff"; ctx.lineWidth = 2.5; ctx.setLineDash([5, 4]);
      ctx.beginPath(); ctx.moveTo(x - s * 0.8, y); ctx.lineTo(x + s * 0.8, y); ctx.stroke(); ctx.setLineDash([]);
      break;
    case "o":
      ctx.fillStyle = "#8c6d52";
      for (const [dx, dy] of [[-9, -3], [3, -7], [0, 6], [10, 3]]) ctx.fillRect(x + dx - 4, y + dy - 3, 8, 7);
      break;
    default:
      break;
  }
}

function drawBuilding(ctx, x, y, r, b) {
  const col = ownerColour(b.owner);
  // Broad ring in the owner's colour (R32); a dashed ring marks a capture in progress.
  ctx.beginPath(); ctx.arc(x, y, r * 0.78, 0, Math.PI * 2);
  ctx.fillStyle = "rgba(255,255,255,0.85)"; ctx.fill();
  ctx.lineWidth = Math.max(2, r * 0.14); ctx.strokeStyle = col; ctx.stroke();
  if (b.capture) {
    ctx.beginPath(); ctx.arc(x, y, r * 0.95, 0, Math.PI * 2);
    ctx.setLineDash([4, 3]); ctx.lineWidth = 2; ctx.strokeStyle = SIDE_COLOUR[b.capture.side] || "#fff"; ctx.stroke(); ctx.setLineDash([]);
  }
  const s = r * 0.42;
  ctx.fillStyle = "#333"; ctx.strokeStyle = "#333"; ctx.lineWidth = Math.max(1.2, r * 0.07);
  switch (b.type) {
    case "stadt": // three houses
      for (const dx of [-0.7, 0, 0.7]) {
        const hx = x + dx * s, hy = y + (dx === 0 ? -0.2 : 0.25) * s;
        ctx.beginPath(); ctx.moveTo(hx - s * 0.32, hy); ctx.lineTo(hx, hy - s * 0.4); ctx.lineTo(hx + s * 0.32, hy);
        ctx.lineTo(hx + s * 0.32, hy + s * 0.5); ctx.lineTo(hx - s * 0.32, hy + s * 0.5); ctx.closePath(); ctx.fill();
      }
      break;
    case "werk": // sawtooth roof and chimney
      ctx.beginPath(); ctx.moveTo(x - s, y + s * 0.7); ctx.lineTo(x - s, y - s * 0.1);
      ctx.lineTo(x - s * 0.5, y - s * 0.5); ctx.lineTo(x - s * 0.5, y - s * 0.1); ctx.lineTo(x, y - s * 0.5); ctx.lineTo(x, y - s * 0.1);
      ctx.lineTo(x + s * 0.45, y - s * 0.1); ctx.lineTo(x + s * 0.45, y - s); ctx.lineTo(x + s * 0.8, y - s); ctx.lineTo(x + s * 0.8, y - s * 0.1);
      ctx.lineTo(x + s, y - s * 0.1); ctx.lineTo(x + s, y + s * 0.7); ctx.closePath(); ctx.fill();
      break;
    case "flugplatz": // aeroplane from above
      ctx.beginPath(); ctx.moveTo(x, y - s); ctx.lineTo(x + s * 0.15, y - s * 0.2); ctx.lineTo(x + s, y + s * 0.1); ctx.lineTo(x + s * 0.15, y + s * 0.1);
      ctx.lineTo(x + s * 0.12, y + s * 0.65); ctx.lineTo(x + s * 0.4, y + s * 0.9); ctx.lineTo(x - s * 0.4, y + s * 0.9); ctx.lineTo(x - s * 0.12, y + s * 0.65);
      ctx.lineTo(x - s * 0.15, y + s * 0.1); ctx.lineTo(x - s, y + s * 0.1); ctx.lineTo(x - s * 0.15, y - s * 0.2); ctx.closePath(); ctx.fill();
      break;
    case "hafen": // anchor
      ctx.beginPath(); ctx.arc(x, y - s * 0.7, s * 0.22, 0, Math.PI * 2); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(x, y - s * 0.48); ctx.lineTo(x, y + s * 0.85);
      ctx.moveTo(x - s * 0.5, y - s * 0.15); ctx.lineTo(x + s * 0.5, y - s * 0.15);
      ctx.moveTo(x - s * 0.8, y + s * 0.25); ctx.quadraticCurveTo(x - s * 0.7, y + s * 0.9, x, y + s * 0.85);
      ctx.quadraticCurveTo(x + s * 0.7, y + s * 0.9, x + s * 0.8, y + s * 0.25); ctx.stroke();
      break;
    case "depot": // crate
      ctx.strokeRect(x - s * 0.75, y - s * 0.6, s * 1.5, s * 1.2);
      ctx.beginPath(); ctx.moveTo(x - s * 0.75, y - s * 0.6); ctx.lineTo(x + s * 0.75, y + s * 0.6);
      ctx.moveTo(x + s * 0.75, y - s * 0.6); ctx.lineTo(x - s * 0.75, y + s * 0.6); ctx.stroke();
      break;
    default: break;
  }
}

function drawHq(ctx, x, y, r, b, view, now) {
  // R37: big star on a hex in dark faction colour, broad ring, flag; the label is drawn later.
  const dark = b.owner ? SIDE_DARK[b.owner] : "#444";
  const col = ownerColour(b.owner);
  ctx.beginPath(); hexPath(ctx, x, y, r - 0.5); ctx.fillStyle = dark; ctx.fill();
  ctx.beginPath(); ctx.arc(x, y, r * 0.8, 0, Math.PI * 2);
  ctx.lineWidth = Math.max(3, r * 0.2); ctx.strokeStyle = col; ctx.stroke();
  starPath(ctx, x, y + r * 0.03, r * 0.62);
  ctx.fillStyle = "#ffd83a"; ctx.fill(); ctx.lineWidth = Math.max(1, r * 0.05); ctx.strokeStyle = "#3b2a00"; ctx.stroke();
  // Flag on a pole at the top right.
  const fx = x + r * 0.55, fy = y - r * 0.95;
  ctx.strokeStyle = "#222"; ctx.lineWidth = Math.max(1.5, r * 0.06);
  ctx.beginPath(); ctx.moveTo(fx, fy); ctx.lineTo(fx, fy + r * 0.75); ctx.stroke();
  ctx.beginPath(); ctx.moveTo(fx, fy); ctx.lineTo(fx + r * 0.5, fy + r * 0.14); ctx.lineTo(fx, fy + r * 0.3); ctx.closePath();
  ctx.fillStyle = col; ctx.fill(); ctx.lineWidth = 1; ctx.strokeStyle = "#fff"; ctx.stroke();
  if (b.capture) {
    ctx.beginPath(); ctx.arc(x, y, r * 0.98, 0, Math.PI * 2);
    ctx.setLineDash([4, 3]); ctx.lineWidth = 2; ctx.strokeStyle = SIDE_COLOUR[b.capture.side] || "#fff"; ctx.stroke(); ctx.setLineDash([]);
  }
  // During the viewer's own turn a red dashed target circle turns around the enemy HQ.
  if (view.myTurn && b.owner && b.owner === otherSide(view.obs.side)) {
    ctx.save();
    ctx.translate(x, y); ctx.rotate((now / 2500) % (Math.PI * 2));
    ctx.beginPath(); ctx.arc(0, 0, r * 1.3, 0, Math.PI * 2);
    ctx.setLineDash([9, 7]); ctx.lineWidth = 3; ctx.strokeStyle = "#e3141d"; ctx.stroke();
    ctx.restore(); ctx.setLineDash([]);
  }
}

function drawCounter(ctx, x, y, r, u, t) {
  const col = SIDE_COLOUR[u.side], dark = SIDE_DARK[u.side];
  const mv = t ? t.movement : "fuss";
  ctx.beginPath();
  if (mv === "luft") ctx.arc(x, y, r, 0, Math.PI * 2);
  else if (mv === "see") { ctx.moveTo(x - r, y - r * 0.55); ctx.lineTo(x + r, y - r * 0.55); ctx.lineTo(x + r * 0.7, y + r * 0.75); ctx.lineTo(x - r * 0.7, y + r * 0.75); ctx.closePath(); }
  else roundRect(ctx, x - r, y - r * 0.8, 2 * r, 1.6 * r, r * 0.25);
  ctx.fillStyle = col; ctx.fill();
  ctx.lineWidth = Math.max(1.2, r * 0.08); ctx.strokeStyle = dark; ctx.stroke();
  const label = UNIT_ABBR[u.type] || "?";
  ctx.fillStyle = "#fff"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  const fs = Math.max(8, Math.round(r * (label.length > 2 ? 0.62 : 0.8)));
  ctx.font = `bold ${fs}px system-ui, sans-serif`;
  ctx.fillText(label, x, y - r * 0.05);
  // hp bottom right, always shown (R27); red when low.
  const hs = Math.max(9, Math.round(r * 0.62));
  ctx.font = `bold ${hs}px system-ui, sans-serif`;
  const hx = x + r * 0.78, hy = y + r * 0.72;
  ctx.fillStyle = u.hp <= 4 ? "#c21010" : "#111";
  roundRect(ctx, hx - hs * 0.55, hy - hs * 0.55, hs * 1.1 + (u.hp >= 10 ? hs * 0.3 : 0), hs * 1.1, 3); ctx.fill();
  ctx.fillStyle = "#fff"; ctx.fillText(String(u.hp), hx + (u.hp >= 10 ? hs * 0.15 : 0), hy + 0.5);
  // Level as small gold pips along the top edge.
  if (u.level > 0) {
    ctx.fillStyle = "#ffd83a"; ctx.strokeStyle = "#3b2a00"; ctx.lineWidth = 0.8;
    const pr = Math.max(2, r * 0.13);
    for (let i = 0; i < u.level; i++) {
      starPath(ctx, x - (u.level - 1) * pr * 1.2 + i * pr * 2.4, y - r * 0.95, pr * 1.3, pr * 0.6); ctx.fill(); ctx.stroke();
    }
  }
  // Loaded marker top right (R46): a white box with the number of passengers.
  if (u.loaded > 0) {
    const ms = Math.max(9, r * 0.6);
    const mx = x + r * 0.8, my = y - r * 0.75;
    ctx.fillStyle = "#fff"; roundRect(ctx, mx - ms / 2, my - ms / 2, ms, ms, 2); ctx.fill();
    ctx.strokeStyle = "#111"; ctx.lineWidth = 1.2; ctx.stroke();
    ctx.fillStyle = "#111"; ctx.font = `bold ${Math.round(ms * 0.8)}px system-ui, sans-serif`;
    ctx.fillText(String(u.loaded), mx, my + 0.5);
  }
}
