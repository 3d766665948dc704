// campaign-map.js — draws the Feldzug map (issue 15, C1, C11) on a canvas: every region a large
// pointy-top hex at its odd-r offset position from the campaign data, over the sea and the coarse coast
// outline the engine hands over with the map (observe().coast, [u, v] points in grid units), with its
// name, owner colour, KP number (or "?" under fog) and the base marked. It also draws the plan being made (arrows)
// and answers which region is under a point. It shows only what the engine's observe(viewer) gave it.
// After a draw, `labelBoxes` (every label's box) and `badges` (where each order's KP badge went) say
// what was drawn where: the badges are placed clear of the labels, and the tests check it.

const SQRT3 = Math.sqrt(3);
export const OWNER_FILL = { nordbund: "#2f6fd6", liga: "#ef8a17", null: "#7d8f6a" };
// Hexes are see-through so the coast shows under them; free regions the most.
const OWNER_ALPHA = { nordbund: 0.72, liga: 0.72, null: 0.28 };
const LAND = "#6f7a52", COAST_LINE = "#e9e3c4";
const PLAN_COLOUR = { occupy: "#7dff9a", move: "#ffffff", attack: "#ff4a4a" };

export class CampaignMap {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.size = 40; this.ox = 0; this.oy = 0; this.w = 1; this.h = 1;
    this.centres = new Map();
    this.labelBoxes = []; this.badges = []; this.planned = new Set();
  }

  /** Lay the regions out to fill the canvas (no pan or zoom: the whole map always fits). */
  layout(campaign) {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.w = Math.max(1, r.width); this.h = Math.max(1, r.height);
    this.canvas.width = Math.round(this.w * dpr); this.canvas.height = Math.round(this.h * dpr);
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    const unit = (col, row) => ({ x: SQRT3 * (col + 0.5 * (row & 1)), y: 1.5 * row });
    for (const g of campaign.regions) {
      const p = unit(g.at[0], g.at[1]);
      minX = Math.min(minX, p.x - SQRT3 / 2); maxX = Math.max(maxX, p.x + SQRT3 / 2);
      minY = Math.min(minY, p.y - 1); maxY = Math.max(maxY, p.y + 1);
    }
    const pad = 8;
    this.size = Math.min((this.w - 2 * pad) / (maxX - minX), (this.h - 2 * pad) / (maxY - minY));
    this.ox = (this.w - (maxX - minX) * this.size) / 2 - minX * this.size;
    this.oy = (this.h - (maxY - minY) * this.size) / 2 - minY * this.size;
    this.centres.clear();
    for (const g of campaign.regions) {
      const p = unit(g.at[0], g.at[1]);
      this.centres.set(g.id, { x: this.ox + p.x * this.size, y: this.oy + p.y * this.size });
    }
  }

  /** The region whose hex holds the canvas point (x, y), or null. */
  regionAt(x, y) {
    let best = null, bestD = Infinity;
    for (const [id, c] of this.centres) {
      const d = Math.hypot(c.x - x, c.y - y);
      if (d < bestD) { bestD = d; best = id; }
    }
    return bestD <= this.size * 0.95 ? best : null;
  }

  /** Page coordinates of a region's centre (tests and the keyboard cursor). */
  pageXY(id) {
    const c = this.centres.get(id);
    const r = this.canvas.getBoundingClientRect();
    return c ? { x: r.left + c.x, y: r.top + c.y } : null;
  }

  hexPath(cx, cy, s) {
    const ctx = this.ctx;
    ctx.beginPath();
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 180 * (60 * i - 30);
      const x = cx + s * Math.cos(a), y = cy + s * Math.sin(a);
      if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y);
    }
    ctx.closePath();
  }

  /**
   * Draw. `view`: {campaign (observe), selected, cursor, targets: Map(id -> kind), plan, battleRegion}.
   */
  draw({ campaign, selected = null, cursor = null, targets = new Map(), plan = null, battleRegion = null }) {
    this.layout(campaign);
    const ctx = this.ctx, s = this.size;
    const sea = ctx.createLinearGradient(0, 0, 0, this.h);
    sea.addColorStop(0, "#1b4f7a"); sea.addColorStop(1, "#123a5c");
    ctx.fillStyle = sea;
    ctx.fillRect(0, 0, this.w, this.h);
    this.drawCoast(campaign.coast || [], true);
    // Straits: a thin line between neighbouring regions shows where KP can go.
    ctx.strokeStyle = "#ffffff30"; ctx.lineWidth = Math.max(1, s * 0.05);
    for (const g of campaign.regions) {
      const a = this.centres.get(g.id);
      for (const n of g.neighbours) {
        if (n < g.id) continue;
        const b = this.centres.get(n);
        ctx.beginPath(); ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y); ctx.stroke();
      }
    }
    for (const g of campaign.regions) {
      const c = this.centres.get(g.id);
      this.hexPath(c.x, c.y, s * 0.9);
      ctx.globalAlpha = OWNER_ALPHA[g.owner];
      ctx.fillStyle = OWNER_FILL[g.owner];
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.lineWidth = 2; ctx.strokeStyle = g.owner ? "#0d1c2e" : "#0d1c2e99"; ctx.stroke();
      const kind = targets.get(g.id);
      if (kind) {
        ctx.setLineDash([s * 0.12, s * 0.08]);
        ctx.lineWidth = Math.max(2, s * 0.07); ctx.strokeStyle = PLAN_COLOUR[kind];
        this.hexPath(c.x, c.y, s * 0.8); ctx.stroke();
        ctx.setLineDash([]);
      }
      if (g.id === battleRegion) {
        ctx.lineWidth = Math.max(3, s * 0.09); ctx.strokeStyle = "#ff4a4a";
        this.hexPath(c.x, c.y, s * 0.84); ctx.stroke();
      }
      if (g.id === selected || g.id === cursor) {
        ctx.lineWidth = g.id === selected ? Math.max(3, s * 0.1) : Math.max(2, s * 0.05);
        ctx.strokeStyle = "#ffd83a";
        if (g.id !== selected) ctx.setLineDash([4, 4]);
        this.hexPath(c.x, c.y, s * 0.88); ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    // The coastline once more, faintly, over the hex fills and under the labels.
    this.drawCoast(campaign.coast || [], false);
    // The plan's arrows lie under the labels (their dark shadow keeps a name readable over a shaft or
    // a head); the KP badges come last, over everything, where no label is (badge()).
    const orders = plan ? this.planItems(plan) : [];
    this.planned = new Set(orders.map((o) => `${o.from}>${o.to}`));
    this.labelBoxes = [];
    for (const it of orders) this.arrow(it);
    for (const g of campaign.regions) this.label(g, this.centres.get(g.id));
    this.badges = [];
    for (const it of orders) if (it.n != null) this.badge(it, orders);
  }

  /** The land polygons: filled (under the hexes) or only their coastline (over them). */
  drawCoast(land, fill) {
    const ctx = this.ctx, s = this.size;
    for (const poly of land) {
      ctx.beginPath();
      poly.points.forEach(([u, v], i) => {
        const x = this.ox + SQRT3 * u * s, y = this.oy + 1.5 * v * s;
        if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y);
      });
      ctx.closePath();
      if (fill) {
        ctx.fillStyle = LAND; ctx.fill();
        ctx.lineWidth = Math.max(1, s * 0.04); ctx.strokeStyle = COAST_LINE; ctx.stroke();
      } else {
        ctx.globalAlpha = 0.45; ctx.lineWidth = Math.max(1, s * 0.025); ctx.strokeStyle = COAST_LINE; ctx.stroke();
        ctx.globalAlpha = 1;
      }
    }
  }

  label(g, c) {
    const ctx = this.ctx, s = this.size;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillStyle = "#fff";
    ctx.shadowColor = "#000a"; ctx.shadowBlur = 3;
    const nameSize = Math.max(8, Math.round(s * 0.22));
    ctx.font = `600 ${nameSize}px system-ui, sans-serif`;
    // Long names break at a space or hyphen onto two lines so they stay inside the hex.
    let lines = [g.name];
    if (ctx.measureText(g.name).width > s * 1.5) {
      const cut = g.name.search(/[ -](?=[^ -]*$)/);
      if (cut > 0) lines = [g.name.slice(0, cut + (g.name[cut] === "-" ? 1 : 0)), g.name.slice(cut + 1)];
    }
    const top = c.y - s * 0.42;
    lines.forEach((l, i) => {
      ctx.fillText(l, c.x, top + i * nameSize * 1.05, s * 1.6);
      this.keepBox(g.id, c.x, top + i * nameSize * 1.05, Math.min(ctx.measureText(l).width, s * 1.6), nameSize);
    });
    const kp = g.owner ? (g.kp == null ? "?" : String(g.kp)) : (g.kp ? String(g.kp) : "");
    if (kp) {
      const kpSize = Math.max(11, Math.round(s * 0.42));
      ctx.font = `800 ${kpSize}px system-ui, sans-serif`;
      ctx.fillText(kp, c.x, c.y + s * 0.16);
      this.keepBox(g.id, c.x, c.y + s * 0.16, ctx.measureText(kp).width, kpSize * 0.8);   // digits: no descender
    }
    if (g.base) {
      const baseSize = Math.max(8, Math.round(s * 0.2));
      ctx.font = `700 ${baseSize}px system-ui, sans-serif`;
      ctx.fillStyle = "#ffd83a";
      ctx.fillText("★ Basis", c.x, c.y + s * 0.56);
      this.keepBox(g.id, c.x, c.y + s * 0.56, ctx.measureText("★ Basis").width, baseSize);
    }
    ctx.shadowBlur = 0;
  }

  /** Remember the box of a label line centred at (x, y), for placing the KP badges clear of it. */
  keepBox(region, x, y, w, h) {
    this.labelBoxes.push({ region, x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 });
  }

  /** The plan's orders as arrows: {kind, from, to, n (KP, or null for an attack)}. */
  planItems(plan) {
    const items = [];
    if (plan.occupy) items.push({ kind: "occupy", from: plan.occupy.from, to: plan.occupy.region, n: plan.occupy.kp });
    for (const m of plan.moves || []) items.push({ kind: "move", from: m.from, to: m.to, n: m.kp });
    if (plan.attack) items.push({ kind: "attack", from: plan.attack.from, to: plan.attack.to, n: null });
    return items;
  }

  /**
   * The shaft of an order's arrow: from 0.35 hex out of its region to 0.4 hex before the target. When
   * KP also go the other way between the same two regions, each arrow keeps to its right so the two
   * (and their badges) do not lie on top of each other.
   */
  shaft(from, to) {
    const a = this.centres.get(from), b = this.centres.get(to);
    if (!a || !b) return null;
    const s = this.size, dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
    const ux = dx / len, uy = dy / len;
    const aside = this.planned.has(`${to}>${from}`) ? s * 0.14 : 0;
    const ox = -uy * aside, oy = ux * aside;
    return { ux, uy, x0: a.x + ux * s * 0.35 + ox, y0: a.y + uy * s * 0.35 + oy, x1: b.x - ux * s * 0.4 + ox, y1: b.y - uy * s * 0.4 + oy };
  }

  arrow({ kind, from, to }) {
    const sh = this.shaft(from, to);
    if (!sh) return;
    const ctx = this.ctx, s = this.size, { ux, uy, x0, y0, x1, y1 } = sh;
    ctx.strokeStyle = PLAN_COLOUR[kind]; ctx.fillStyle = PLAN_COLOUR[kind];
    ctx.lineWidth = Math.max(3, s * 0.09);
    ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
    const h = s * 0.22;
    ctx.beginPath(); ctx.moveTo(x1 + ux * h * 0.6, y1 + uy * h * 0.6);
    ctx.lineTo(x1 - ux * h + uy * h * 0.6, y1 - uy * h - ux * h * 0.6);
    ctx.lineTo(x1 - ux * h - uy * h * 0.6, y1 - uy * h + ux * h * 0.6);
    ctx.closePath(); ctx.fill();
  }

  /**
   * The round KP badge of an order, on its arrow where it covers no label. Why: two neighbouring hexes'
   * labels crowd the middle of their common edge (on a slanting arrow the upper region's "★ Basis" or
   * KP and the lower region's name lie just above and below it), and on a small phone the hexes are
   * so small that a readable badge there always covered one of them. So the badge is sized from the
   * hex (0.17 hex; at least 7 px so its digits stay readable, but never more than 0.28 hex, so it
   * cannot outgrow small hexes as the old 9 px floor did), and it slides along the shaft, or up to two
   * radii aside (then a short stroke ties it to its arrow), to the spot that covers the least label
   * area, arrow head and earlier badge; among equally clear spots the one nearest the middle and the
   * shaft wins.
   */
  badge({ kind, from, to, n }, orders) {
    const sh = this.shaft(from, to);
    if (!sh) return;
    const ctx = this.ctx, s = this.size, { ux, uy, x0, y0, x1, y1 } = sh;
    const r = Math.max(s * 0.17, Math.min(7, s * 0.28));
    const len = Math.hypot(x1 - x0, y1 - y0);
    // What it must not cover: every label, every arrow head (as its bounding box), the badges so far.
    const h = s * 0.22;
    const keep = this.labelBoxes.concat(this.badges.map((b) => ({ x0: b.x - b.r, y0: b.y - b.r, x1: b.x + b.r, y1: b.y + b.r })));
    for (const it of orders) {
      const o = this.shaft(it.from, it.to);
      if (o) keep.push({ x0: o.x1 - h, y0: o.y1 - h, x1: o.x1 + h, y1: o.y1 + h });
    }
    let best = null;
    for (let i = 0; i <= 12; i++) {
      const along = len * (0.1 + 0.8 * i / 12);
      for (const side of [0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2, -2]) {
        const x = x0 + ux * along - uy * side * r, y = y0 + uy * along + ux * side * r;
        // The badge as its bounding square with 1 px to spare.
        const e = r + 1;
        let cover = 0;
        for (const k of keep) {
          const w = Math.min(x + e, k.x1) - Math.max(x - e, k.x0), hh = Math.min(y + e, k.y1) - Math.max(y - e, k.y0);
          if (w > 0 && hh > 0) cover += w * hh;
        }
        if (x - r < 0 || y - r < 0 || x + r > this.w || y + r > this.h) cover += 4 * r * r;   // off the canvas
        // Off the middle or aside costs a little, less than a pixel-wide strip of a label does.
        const cost = cover + (Math.abs(along / len - 0.5) + Math.abs(side) * 0.4) * r;
        if (!best || cost < best.cost) best = { cost, cover, x, y, along, side };
      }
    }
    if (Math.abs(best.side) > 1) {
      // Set off its arrow: a short stroke in the arrow's colour ties it to the shaft.
      ctx.strokeStyle = PLAN_COLOUR[kind]; ctx.lineWidth = Math.max(1.5, s * 0.04);
      ctx.beginPath(); ctx.moveTo(x0 + ux * best.along, y0 + uy * best.along); ctx.lineTo(best.x, best.y); ctx.stroke();
    }
    ctx.beginPath(); ctx.arc(best.x, best.y, r, 0, Math.PI * 2); ctx.fillStyle = "#0d1c2e"; ctx.fill();
    ctx.strokeStyle = PLAN_COLOUR[kind]; ctx.lineWidth = Math.max(1.5, Math.min(2, r * 0.2)); ctx.stroke();
    ctx.fillStyle = "#fff"; ctx.font = `700 ${Math.round(r * 1.1)}px system-ui, sans-serif`;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(String(n), best.x, best.y + 1);
    this.badges.push({ kind, from, to, n, x: best.x, y: best.y, r, cover: Math.round(best.cover) });
  }
}
