"""Every shipped map loads in the browser and is drawn (issue 3: "load in the engine and in the browser").

One boot; each scenario starts through the page's own `startGame` (hot-seat, no fog, so no computer
turn and the whole map is visible). The page's observation must hold the map exactly as the engine
reads it from kaltfront/maps/, both HQs must be there, and the map canvas must not be blank.
"""

from __future__ import annotations

import pytest

import kaltfront
from kaltfront.mapfile import load_scenario
from kaltfront.rulesdata import RULES

pytestmark = pytest.mark.e2e

# How many distinct colours the map canvas shows (sampled): a drawn map has many, a blank one one.
CANVAS_COLOURS = """() => {
  const c = document.querySelector('canvas');
  const ctx = c.getContext('2d');
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  const seen = new Set();
  for (let i = 0; i < d.length; i += 4 * 97) seen.add(d[i] >> 4 << 8 | d[i + 1] >> 4 << 4 | d[i + 2] >> 4);
  return seen.size;
}"""


def test_every_map_loads_and_draws_in_the_browser(booted_page):
    """R36, R37, R65: each scenario starts in the page with its own terrain and both HQs."""
    page = booted_page
    page.evaluate("() => { kaltfront.skipIntro = true; }")
    ids = [s["id"] for s in page.evaluate("() => kaltfront.state.scenarios")]
    assert sorted(ids) == sorted(s["id"] for s in kaltfront.scenarios())
    for sid in ids:
        # startGame resolves only after the hot-seat handoff is dismissed: do not wait for it.
        page.evaluate("(sid) => { localStorage.clear(); kaltfront.startGame({scenario: sid, fog: false,"
                      " players: {nordbund: 'human', liga: 'human'}, seed: 1}); }", sid)
        page.wait_for_function("(sid) => kaltfront.state.obs && kaltfront.state.obs.scenario === sid", arg=sid)
        obs = page.evaluate("() => kaltfront.state.obs")
        sc = load_scenario(sid)
        chars = "".join(RULES.terrain[t].char for t in sc.terrain)
        assert obs["terrain"] == [chars[r * sc.width:(r + 1) * sc.width] for r in range(sc.height)], sid
        hqs = {b["owner"] for b in obs["buildings"] if b["type"] == "hq"}
        assert hqs == {"nordbund", "liga"}, sid
        # The page draws on the next animation frame: wait for it rather than sample too early.
        page.wait_for_function(f"() => ({CANVAS_COLOURS})() > 5", timeout=10_000)
