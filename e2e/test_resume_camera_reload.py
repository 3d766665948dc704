"""A game resumed after a page reload can be panned (found by the WebKit/Firefox smoke tests, issue 17):
the saved camera position was restored onto a camera that did not know the map's size yet, so every
pan was clamped away and a unit off screen could not be reached by clicking.
"""

from __future__ import annotations

import pytest

from offline_helpers import boot, fast, start_blitz_from_menu, wait_game, wait_my_turn

pytestmark = pytest.mark.e2e

CAMERA = "() => { const c = kaltfront.camera; return {x: c.x, y: c.y, worldW: c.worldW, worldH: c.worldH}; }"


def test_resumed_game_after_reload_knows_the_map_size_and_pans(page, base_url, wait_for_engine):
    fast(page)
    boot(page, base_url, wait_for_engine)
    start_blitz_from_menu(page, strength="leicht", fog=False)
    wait_my_turn(page, "move")
    before = page.evaluate(CAMERA)
    page.reload()
    wait_for_engine(page)
    page.wait_for_selector("#menu-continue:not([hidden]):not([disabled])")
    page.click("#menu-continue")
    wait_game(page)
    wait_my_turn(page, "move")
    after = page.evaluate(CAMERA)
    assert (after["worldW"], after["worldH"]) == (before["worldW"], before["worldH"]) != (1, 1)
    page.evaluate("() => kaltfront.camera.panBy(-120, -80)")
    moved = page.evaluate(CAMERA)
    assert (moved["x"], moved["y"]) != (after["x"], after["y"]), "the resumed map cannot be panned"
