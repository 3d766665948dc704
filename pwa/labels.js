// labels.js — places the map's text labels so none hides another or a unit (issue 11.9): the expected
// damage over each target (R54) and the HQ name plates (R37). Neighbouring targets used to stack their
// labels into one unreadable strip ("−2 ↩4 −3 ↩2") and an HQ plate covered the unit below it.
// Greedy placement in screen pixels: each label tries places around its hex, nearest first, and takes
// the first that overlaps no label placed before it and no unit; if every place is taken it takes the
// least covered one. Pure geometry: no canvas, no rules.

/** Offsets of a label's centre from its hex centre, in the order tried: above, below, the sides, the
 *  corners, then one step further out above and below. `r` is the hex's radius on screen. */
export function placesAround(r, w, h, prefer = "above") {
  const gap = 3;
  const up = -(r + h / 2 + gap), down = r + h / 2 + gap, side = r * 0.9 + w / 2 + gap;
  const first = prefer === "below" ? [[0, down], [0, up]] : [[0, up], [0, down]];
  return [
    ...first,
    [side, 0], [-side, 0],
    [side, up], [-side, up], [side, down], [-side, down],
    [0, up - h - gap], [0, down + h + gap],
    [side, up - h - gap], [-side, up - h - gap], [side, down + h + gap], [-side, down + h + gap],
  ];
}

const area = (a, b) =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

/**
 * @param labels   [{x, y, w, h, places: [[dx, dy], …], ...}] — (x, y) the hex centre on screen
 * @param obstacles [{x, y, w, h}] — rectangles labels should not cover (unit counters, HQ symbols)
 * @param view     {w, h} — labels are kept inside the view when a place allows it
 * @returns the labels with `box` = {x, y, w, h} (top-left) and `covered` (overlap area, 0 = free)
 */
export function layoutLabels(labels, obstacles, view) {
  const placed = [];
  for (const l of labels) {
    let best = null, bestCost = Infinity;
    for (const [dx, dy] of l.places) {
      const box = { x: l.x + dx - l.w / 2, y: l.y + dy - l.h / 2, w: l.w, h: l.h };
      let cost = 0;
      // Another label hidden is worst, then a unit, then leaving the screen.
      for (const p of placed) cost += 10 * area(box, p.box);
      for (const o of obstacles) cost += 3 * area(box, o);
      const inside = area(box, { x: 0, y: 0, w: view.w, h: view.h });
      cost += box.w * box.h - inside;
      if (cost === 0) { best = box; bestCost = 0; break; }
      if (cost < bestCost) { bestCost = cost; best = box; }
    }
    placed.push({ ...l, box: best, covered: bestCost });
  }
  return placed;
}
