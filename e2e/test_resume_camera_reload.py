"""A game resumed after a page reload can be panned (found by the WebKit/Firefox smoke tests, issue 17):
the saved camera position was restored onto a camera that did not know the map's size yet, so every
pan was clamped away and a unit off screen could not be reached by clicking. And a reload in the first
moment of a new game finds it to continue (R63): the first test once reloaded before the first
autosave was written and found nothing.
"""

from __future__ import annotations

import pytest

from offline_helpers import AUTOSAVED, boot, fast, start_blitz_from_menu, wait_game, wait_my_turn

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


# Runs before the app: every "save" request to the engine worker is held back for 1.5 s, so the first
# autosave of a new game is still pending long after the map is shown (a slow phone, a loaded CI machine).
SLOW_SAVE = """
(() => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.op === "save") { setTimeout(() => post.call(this, msg, ...rest), 1500); return; }
    return post.call(this, msg, ...rest);
  };
})();
"""


def test_new_game_is_not_the_players_turn_before_its_first_autosave(page, base_url, wait_for_engine):
    """A CI run reloaded a fresh game between the first frame and its first autosave and found no game to
    continue (R63: the game is saved after every phase). The app now reports the turn as busy until the
    first autosave is written, so "my turn" always means "saved"."""
    fast(page)
    page.add_init_script(SLOW_SAVE)
    boot(page, base_url, wait_for_engine)
    start_blitz_from_menu(page, strength="leicht", fog=False)
    wait_my_turn(page, "move")
    assert page.evaluate(AUTOSAVED), "the player's turn began before the game was saved"
    page.reload()
    wait_for_engine(page)
    page.wait_for_selector("#menu-continue:not([hidden]):not([disabled])", timeout=10_000)
