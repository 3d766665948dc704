// palette.js — the colours of the map: terrain per map character (docs/map-format.md), faction colours
// (Nordbund blue, Liga orange, dark variants for the HQ hex, R37) and the marker colours. Shared by the
// main map, the minimap and the help tables so a colour is defined once.

export const TERRAIN_COLOUR = {
  ".": "#c7d39b", // ebene
  "=": "#d9cda6", // strasse (the road itself is drawn on top)
  "w": "#6f9950", // wald
  "h": "#b9ad6c", // huegel
  "g": "#9b9183", // gebirge
  "m": "#8aa08a", // moor
  "r": "#6aa6d8", // fluss
  "b": "#6aa6d8", // bruecke (deck drawn on top)
  "o": "#d2c2a4", // ortschaft
  "~": "#2f6596", // see
  "k": "#5792c4", // kueste
  "f": "#5792c4", // faehrlinie (dashed line on top)
  "H": "#d6d0bd", "S": "#d6d0bd", "W": "#d6d0bd", "F": "#d6d0bd", "P": "#d6d0bd", "D": "#d6d0bd",
};

export const BUILDING_CHARS = { H: "hq", S: "stadt", W: "werk", F: "flugplatz", P: "hafen", D: "depot" };

export const SIDE_COLOUR = { nordbund: "#2f6fd6", liga: "#ef8a17" };
export const SIDE_DARK = { nordbund: "#15336e", liga: "#7a3a00" };
export const SIDE_LIGHT = { nordbund: "#a9c6f5", liga: "#ffd2a1" };
export const NEUTRAL = "#8a8a8a";

export const MARK = {
  reach: "rgba(255,255,230,0.42)",
  reachEdge: "rgba(255,255,255,0.85)",
  path: "#ffe14d",
  target: "#e8202a",
  select: "#ffe14d",
  ready: "rgba(255,255,255,0.95)",
  fire: "#ff2d2d",
  fog: "rgba(18,24,36,0.5)",
  load: "#7fffd4",
  unload: "#7fffd4",
  build: "#ffe14d",
};

export function ownerColour(owner) { return owner ? SIDE_COLOUR[owner] : NEUTRAL; }
