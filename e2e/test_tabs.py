"""One game, one tab (issue 12.1): two pages of one browser context (shared localStorage, Web Locks and
BroadcastChannel) on the same game. Only the tab that plays a game autosaves it; the other says
"Dieses Spiel ist in einem anderen Tab geöffnet" and takes it over only when asked, from the newest
autosave. Before this, tab B resumed round 1 over tab A's round 2 and the autosave went back a round.
"""

from __future__ import annotations

import json

import pytest

from offline_helpers import (
    boot, end_phase, fast, move_one_unit, obs, play_one_move, start_blitz_from_menu, wait_game, wait_my_turn,
)

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("fresh_precache")]


def autosave(page) -> dict:
    return json.loads(page.evaluate("() => localStorage.getItem('kaltfront.autosave')"))


def engine_text(page) -> str:
    return page.evaluate("() => kaltfront.call('save', {})")


def test_two_tabs_on_one_game_never_overwrite_each_other(context, base_url, wait_for_engine):
    fast(context)
    a = context.new_page()
    boot(a, base_url, wait_for_engine)
    play_one_move(a)
    game_id = autosave(a)["game_id"]

    # Tab B opens the app and tries to continue the same game: it is told, and does not play.
    b = context.new_page()
    boot(b, base_url, wait_for_engine)
    b.wait_for_selector("#menu-continue:not([hidden])")
    b.click("#menu-continue")
    b.wait_for_selector("#tab-elsewhere")
    assert "Dieses Spiel ist in einem anderen Tab geöffnet" in b.inner_text("#tab-elsewhere")
    assert b.evaluate("() => kaltfront.state.game") is None

    # A plays on into the next round; its autosaves are the only ones.
    a.bring_to_front()
    start_round = obs(a)["round"]
    while obs(a)["round"] == start_round or obs(a)["phase"] != "move":
        end_phase(a)
        wait_my_turn(a)
    move_one_unit(a)
    a_state = engine_text(a)
    assert autosave(a)["game"] == a_state and autosave(a)["round"] == start_round + 1

    # B takes over: A stops and says so; B continues from A's newest autosave, not from what B saw.
    b.bring_to_front()
    b.click("#tab-takeover")
    wait_game(b)
    wait_my_turn(b)
    assert b.evaluate("() => kaltfront.state.game.id") == game_id
    assert json.loads(engine_text(b)) == json.loads(a_state)
    a.wait_for_selector("#tab-elsewhere")
    assert "in einem anderen Tab" in a.inner_text("#tab-elsewhere")
    assert a.evaluate("() => kaltfront.state.game") is None

    # B's move is saved, and A (in its menu now) writes nothing over it.
    if obs(b)["phase"] == "move":
        move_one_unit(b)
    end_phase(b)
    wait_my_turn(b)
    b_state = engine_text(b)
    b.wait_for_function("(t) => JSON.parse(localStorage.getItem('kaltfront.autosave')).game === t", arg=b_state)
    a.bring_to_front()
    a.wait_for_timeout(500)
    assert autosave(a)["game"] == b_state

    # And back: A takes the game again from B's newest autosave.
    a.click("#tab-takeover")
    wait_game(a)
    wait_my_turn(a)
    assert json.loads(engine_text(a)) == json.loads(b_state)
    b.wait_for_selector("#tab-elsewhere")


def test_another_game_in_another_tab_is_kept_not_overwritten(context, base_url, wait_for_engine):
    """Two tabs, two games: the shared autosave key never loses the other tab's game (issue 12.1)."""
    fast(context)
    a = context.new_page()
    boot(a, base_url, wait_for_engine)
    start_blitz_from_menu(a, strength="leicht", fog=False)
    wait_my_turn(a, "move")
    b = context.new_page()
    boot(b, base_url, wait_for_engine)
    start_blitz_from_menu(b, strength="leicht", fog=False)  # a new game: the app keeps A's as a slot
    wait_my_turn(b, "move")
    a_id = a.evaluate("() => kaltfront.state.game.id")
    a.bring_to_front()
    move_one_unit(a)  # A's autosave replaces B's: B's game must be kept as a slot first
    b_id = b.evaluate("() => kaltfront.state.game.id")
    stored = a.evaluate("() => Object.keys(localStorage)")
    assert f"kaltfront.save.{b_id}-auto" in stored
    assert autosave(a)["game_id"] == a_id
