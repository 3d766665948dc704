"""Issue 11.13: a whole game without a pointer, focus kept inside overlays, and axe-core finds no serious
or critical accessibility problem on the menu, Hilfe, the hand-over screen, the game, a dialog and the end
screen.

Desktop 1366×768, keyboard only after the page is loaded: Tab reaches the header's buttons (unit
cycling moved to N), the hex cursor (arrows, Enter, Esc) selects and moves a unit and picks a building,
the panel's "Produzieren" buttons are reached with Tab, M opens the menu, and Aufgeben → confirm ends
the game on the end screen. axe-core (npm devDependency, never served by the app) is read from
node_modules and evaluated in the page by the test.
"""

from __future__ import annotations

import pytest

from view_helpers import AXE, DEVICES, FAST_APP, axe_problems, obs

pytestmark = pytest.mark.e2e


def focused(page) -> str:
    return page.evaluate("() => { const e = document.activeElement; return e ? (e.id || e.tagName) : ''; }")


def tab_until(page, target_id: str, limit: int = 40, back: bool = False) -> None:
    for _ in range(limit):
        if focused(page) == target_id:
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached #{target_id} (focus on {focused(page)})")


def test_keyboard_only_game_focus_traps_and_axe(new_context, base_url, wait_for_engine):
    assert AXE.is_file(), "node_modules/axe-core is missing: `make test` installs it (npm ci)"
    ctx = new_context(**DEVICES["desktop"])
    ctx.add_init_script(FAST_APP)
    page = ctx.new_page()
    page.goto(base_url)
    wait_for_engine(page)
    problems = axe_problems(page, "Hauptmenü")

    # Hilfe from the main menu: focus stays inside, Esc closes it.
    tab_until(page, "menu-help-main")
    page.keyboard.press("Enter")
    page.wait_for_selector("#help:not([hidden]) #table-units")
    problems += axe_problems(page, "Hilfe")
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.getElementById('help').contains(document.activeElement)"), "Tab left the help"
    page.keyboard.press("Escape")
    page.wait_for_selector("#help", state="hidden")

    # A hot-seat game without fog, started with the keyboard.
    page.focus("#opt-mode-hotseat")
    page.keyboard.press("Space")
    assert page.is_checked("#opt-mode-hotseat")
    if page.is_checked("#opt-fog"):
        page.focus("#opt-fog")
        page.keyboard.press("Space")
    tab_until(page, "menu-start")
    page.keyboard.press("Enter")
    page.wait_for_selector("#handoff:not([hidden])")
    problems += axe_problems(page, "Übergabe")
    assert focused(page) == "handoff-continue"
    page.keyboard.press("Tab")
    assert focused(page) == "handoff-continue", "focus left the hand-over screen"
    page.keyboard.press("Enter")
    page.wait_for_function("() => kaltfront.myTurn() && !kaltfront.state.busy")
    o = obs(page)
    assert o["phase"] == "move" and o["side"] == "nordbund"
    problems += axe_problems(page, "Spiel")

    # A click on the map gives it focus but shows no keyboard cursor (only a keyboard focus does).
    mb = page.locator("#map").bounding_box()
    page.mouse.click(mb["x"] + 5, mb["y"] + mb["height"] - 5)
    assert focused(page) == "map" and page.evaluate("() => kaltfront.cursorAt()") is None
    page.keyboard.press("Escape")

    # Tab reaches every header button.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for bid in ("btn-menu", "btn-target-hq", "counter", "btn-undo", "btn-end-phase"):
        tab_until(page, bid)

    # N selects a unit that can move and puts the hex cursor on it; arrows and Enter move it.
    page.keyboard.press("n")
    sel = page.evaluate("() => kaltfront.state.selection")
    assert sel and sel["kind"] == "unit"
    page.wait_for_function("() => kaltfront.state.reach && kaltfront.state.reach.length")
    unit = next(u for u in obs(page)["units"] if u["id"] == sel["id"])
    reach = page.evaluate("() => kaltfront.state.reach")
    occupied = {tuple(u["at"]) for u in obs(page)["units"]}
    dest = next(r["to"] for r in sorted(reach, key=lambda r: (abs(r["to"][1] - unit["at"][1]), abs(r["to"][0] - unit["at"][0])))
                if tuple(r["to"]) not in occupied and r["to"][1] == unit["at"][1] or tuple(r["to"]) not in occupied and r["to"][0] == unit["at"][0])
    dc, dr = dest[0] - unit["at"][0], dest[1] - unit["at"][1]
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    assert focused(page) == "map", "the arrows must bring the focus to the map, so Enter acts there"
    assert page.evaluate("() => kaltfront.cursorAt()") == dest
    page.keyboard.press("Enter")
    page.wait_for_function("([id, to]) => { const u = kaltfront.state.obs.units.find(u => u.id === id);"
                           " return u.at[0] === to[0] && u.at[1] === to[1] && !kaltfront.state.busy; }", arg=[sel["id"], dest])

    # Esc cancels: the selection, then the cursor.
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    assert page.evaluate("() => kaltfront.cursorAt()") is None

    # A dialog: M opens the menu, focus stays inside it, Aufgeben asks (confirm), the end screen follows.
    page.keyboard.press("m")
    page.wait_for_selector("#game-menu:not([hidden])")
    for _ in range(10):
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.getElementById('game-menu').contains(document.activeElement)"), "Tab left the menu"
    page.keyboard.press("m")
    page.wait_for_selector("#game-menu", state="hidden")
    page.keyboard.press("m")
    page.wait_for_selector("#game-menu:not([hidden])")
    tab_until(page, "menu-surrender")
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm:not([hidden])")
    problems += axe_problems(page, "Rückfrage")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.getElementById('confirm').contains(document.activeElement)"), "Tab left the dialog"
    tab_until(page, "confirm-yes")
    page.keyboard.press("Enter")
    page.wait_for_selector("#end-screen:not([hidden])")
    # The end screen takes the focus on its first action, "Revanche" (issue 11.11); Tab reaches the menu.
    assert focused(page) == "end-rematch"
    problems += axe_problems(page, "Spielende")
    tab_until(page, "end-main")
    page.keyboard.press("Enter")
    page.wait_for_selector("#main-menu:not([hidden])")
    assert not problems, "\n".join(problems)
    ctx.close()
