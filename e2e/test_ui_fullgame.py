"""A whole Blitz game played to its end through the page, and the end screen (R48–R51, R66).

Both sides are computer players driven by the page exactly as a single computer opponent is: the page
asks the worker for each AI turn, shows every step, autosaves after each phase, and finally shows the
end screen. The animation pace is 0 (steps still go through the same code path, just not tweened).
"""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

REASONS = {"hq", "no_army", "round_limit", "surrender"}


def test_whole_blitz_game_ends_with_the_end_screen(page, base_url, wait_for_engine):
    page.goto(base_url)
    wait_for_engine(page)
    blitz = [s for s in page.evaluate("() => kaltfront.state.scenarios") if s["blitz"]]
    assert blitz
    scenario = blitz[0]["id"]
    # Not awaited: startGame returns only when the game is over.
    page.evaluate("(id) => { kaltfront.skipIntro = true; kaltfront.setAiDelay(0);"
                  " kaltfront.startGame({scenario: id, fog: false, seed: 11, players: {nordbund: 'leicht', liga: 'leicht'}}); }",
                  scenario)
    page.wait_for_selector("#ai-bar:not([hidden])")
    page.wait_for_selector("#end-screen:not([hidden])", timeout=600_000)

    outcome = page.evaluate("() => kaltfront.state.obs.outcome")
    assert outcome and outcome["reason"] in REASONS
    title = page.inner_text("#end-title")
    if outcome["winner"] is None:
        assert title == "Unentschieden"
    else:
        assert title == {"nordbund": "Der Nordbund gewinnt", "liga": "Die Baltische Liga gewinnt"}[outcome["winner"]]
    assert page.get_attribute("#end-screen", "data-reason") == outcome["reason"]
    assert page.inner_text("#end-reason")
    obs = page.evaluate("() => kaltfront.state.obs")
    if outcome["reason"] == "round_limit":
        assert obs["round"] >= 10
    assert page.inner_text("#hdr-phase") == "Spielende"
    # A finished game cannot be continued: the autosave is gone and the menu offers none.
    assert page.evaluate("() => localStorage.getItem('kaltfront.autosave')") is None
    page.click("#end-main")
    page.wait_for_selector("#main-menu:not([hidden])")
    assert page.is_hidden("#menu-continue")
