"""Share links for Blitz games (issue 6; P5, D10): `#blitz=…&side=…&ai=…&fog=…&seed=…` starts that game
after boot, online and offline; every malformed field gets a German message and the main menu; nothing
from a link is ever inserted as HTML or run; an existing autosave is never replaced without asking;
"Link teilen" hands out a link that starts the same game.
"""

from __future__ import annotations

import json
import urllib.parse

import pytest

from offline_helpers import (
    boot, fast, notice, obs, start_blitz_from_menu, wait_game, wait_my_turn, wait_offline_ready,
)

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("fresh_precache")]


def open_link(page, base_url, wait_for_engine, fragment: str) -> None:
    fast(page)
    page.goto(base_url + "#" + fragment)
    wait_for_engine(page)


def blitz_scenarios(page) -> list[dict]:
    return [s for s in page.evaluate("() => kaltfront.call('scenarios', {})") if s["blitz"]]


def test_good_link_starts_that_game(page, base_url, wait_for_engine):
    """D10: map, side, strength, fog and seed come from the link; the fragment is consumed."""
    open_link(page, base_url, wait_for_engine, "blitz=bornholm&side=liga&ai=schwer&fog=0&seed=42")
    wait_game(page)
    game = page.evaluate("() => kaltfront.state.game")
    assert game["scenario"] == "bornholm"
    assert game["players"] == {"liga": "human", "nordbund": "schwer"}
    assert game["fog"] is False and game["seed"] == 42
    o = obs(page)
    assert o["scenario"] == "bornholm" and o["blitz"] is True and o["fog"] is False and o["viewer"] == "liga"
    assert page.evaluate("() => location.hash") == ""  # a reload must not start it again
    assert page.is_hidden("#main-menu")

    # The seed reaches the engine: its random generator starts from it (D2), and the first turn of a
    # game has no attack phase (R12), so no damage roll has used it yet when it is the player's turn.
    wait_my_turn(page)
    assert json.loads(page.evaluate("() => kaltfront.call('save', {})"))["rng"] == 42


def test_every_blitz_map_of_the_engine_is_accepted(page, base_url, wait_for_engine):
    """The blitz= value is checked against the engine's scenarios op; each Blitz map parses."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    scenarios = blitz_scenarios(page)
    assert scenarios
    for sc in scenarios:
        parsed = page.evaluate(
            "([h, sc]) => import('./pwa/share.js').then(m => m.parseShareLink(h, sc))",
            [f"#blitz={sc['id']}&side=nordbund&ai=leicht&fog=1", scenarios],
        )
        assert parsed["ok"] and parsed["link"]["scenario"] == sc["id"]
        assert "seed" not in parsed["link"] or parsed["link"]["seed"] is None


def test_link_without_seed_gets_a_random_one(page, base_url, wait_for_engine):
    open_link(page, base_url, wait_for_engine, "blitz=bornholm&side=nordbund&ai=leicht&fog=1")
    wait_game(page)
    game = page.evaluate("() => kaltfront.state.game")
    assert isinstance(game["seed"], int) and game["fog"] is True
    assert game["players"] == {"nordbund": "human", "liga": "leicht"}


GOOD = {"blitz": "bornholm", "side": "nordbund", "ai": "normal", "fog": "1", "seed": "42"}


def fragment(**changes) -> str:
    fields = {**GOOD, **changes}
    return "&".join(f"{k}={v}" for k, v in fields.items() if v is not None)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"blitz": "atlantis"}, "Die Blitz-Karte „atlantis“ gibt es nicht"),
        ({"blitz": "uebungsplatz"}, "Die Blitz-Karte „uebungsplatz“ gibt es nicht"),  # a scenario, but not Blitz
        ({"blitz": ""}, "Im Link fehlt die Karte"),
        ({"side": "daenemark"}, "Die Seite „daenemark“ gibt es nicht"),
        ({"side": None}, "Im Link fehlt die Seite"),
        ({"ai": "unfair"}, "Die Stärke „unfair“ gibt es nicht"),
        ({"ai": None}, "Im Link fehlt die Stärke des Computers"),
        ({"fog": "ja"}, "Der Nebel des Krieges „ja“ ist ungültig"),
        ({"fog": None}, "Im Link fehlt der Nebel des Krieges"),
        ({"seed": "zwölf"}, "Der Startwert „zwölf“ ist ungültig"),
        ({"seed": "-3"}, "Der Startwert „-3“ ist ungültig"),
        ({"seed": "99999999999999999"}, "Der Startwert „99999999999999999“ ist ungültig"),
        ({"seed": "4%2"}, "ungültig kodierte Zeichen"),
    ],
    ids=lambda v: json.dumps(v, ensure_ascii=False) if isinstance(v, dict) else "",
)
def test_malformed_field_gets_a_german_message_and_the_menu(page, base_url, wait_for_engine, fields, expected):
    open_link(page, base_url, wait_for_engine, fragment(**fields))
    text = notice(page)
    assert text.startswith("Der geteilte Link ist fehlerhaft:"), text
    assert expected in text
    assert text.rstrip().endswith("Du bist im Hauptmenü.")
    assert page.is_visible("#main-menu") and page.is_enabled("#menu-start")
    assert page.evaluate("() => kaltfront.state.game") is None
    assert page.evaluate("() => localStorage.getItem('kaltfront.autosave')") is None


def test_d10_bad_link_while_a_game_is_being_started_is_told_over_that_game(page, base_url, wait_for_engine):
    """D10: a bad link opened while a new game is still being prepared (engine call and tab claim pending,
    the menu about to go) is told in a toast over the new game, never in the menu the game hides.
    CI found the window: the tab claim (navigator.locks) is slowed here to keep it open for certain."""
    fast(page)
    page.add_init_script("""(() => { const request = LockManager.prototype.request;
        LockManager.prototype.request = function (...args) {
          return new Promise((r) => setTimeout(r, 3000)).then(() => request.apply(this, args)); }; })()""")
    boot(page, base_url, wait_for_engine)
    page.click("label:has(#opt-blitz)")
    page.click("label:has(#opt-mode-ai)")
    page.select_option("#opt-side", "liga")
    page.select_option("#opt-strength", "leicht")
    page.click("#menu-start")
    # Old code set the game before its first view: the link then took the game for not running.
    page.wait_for_function("() => kaltfront.state.starting > 0 || kaltfront.state.game")
    assert page.evaluate("() => !kaltfront.state.obs"), "the game started before the link could be opened"
    page.goto(base_url + "#" + fragment(side="x"))
    page.wait_for_selector("#toast:not([hidden])", timeout=20_000)
    wait_game(page)
    toast = page.inner_text("#toast")
    assert toast.startswith("Der geteilte Link ist fehlerhaft:") and "Die Seite „x“ gibt es nicht" in toast, toast
    assert toast.endswith("Dein laufendes Spiel geht weiter."), toast
    assert page.is_visible("#toast") and page.is_hidden("#main-menu")
    assert page.is_hidden("#menu-notice") or page.locator("#menu-notice").count() == 0
    assert page.evaluate("() => kaltfront.state.game.players") == {"nordbund": "leicht", "liga": "human"}


def test_duplicate_field_is_refused(page, base_url, wait_for_engine):
    open_link(page, base_url, wait_for_engine, fragment() + "&side=liga")
    assert "die Seite mehrmals" in notice(page)  # in words, not by its key (issue 11.14)
    assert page.evaluate("() => kaltfront.state.game") is None


def test_unknown_extra_fields_are_ignored(page, base_url, wait_for_engine):
    """Links live on in chats: a field a later version adds must not break this one."""
    open_link(page, base_url, wait_for_engine, fragment() + "&zoom=2")
    wait_game(page)
    assert page.evaluate("() => kaltfront.state.game.scenario") == "bornholm"


def test_markup_in_a_link_is_shown_as_text_and_never_run(page, base_url, wait_for_engine):
    attack = {
        "blitz": urllib.parse.quote('<img src=x onerror="window.__pwned=1">'),
        "side": urllib.parse.quote("<script>window.__pwned=2</script>"),
        "ai": urllib.parse.quote('"><svg onload=window.__pwned=3>'),
        "fog": urllib.parse.quote("javascript:window.__pwned=4"),
        "seed": urllib.parse.quote("<b>1</b>"),
    }
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_link(page, base_url, wait_for_engine, "&".join(f"{k}={v}" for k, v in attack.items()))
    text = notice(page)
    assert '<img src=x onerror="window.__pwned=1">' in text  # shown literally, as text
    assert "<script>window.__pwned=2</script>" in text
    page.wait_for_timeout(300)  # give a planted onerror/onload the time it would need
    assert page.evaluate("() => window.__pwned") is None
    assert page.evaluate("() => document.querySelectorAll('#menu-notice img, #menu-notice script, #menu-notice svg, #menu-notice b').length") == 0
    assert page.evaluate("() => document.querySelectorAll('img[src=x], svg[onload]').length") == 0
    assert dialogs == []
    assert page.evaluate("() => kaltfront.state.game") is None


def test_link_asks_before_replacing_an_autosave(page, base_url, wait_for_engine):
    """D10: a running autosave is never overwritten without asking; saying yes keeps it as a save."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    start_blitz_from_menu(page, side="nordbund", strength="leicht")
    wait_my_turn(page, "move")
    page.wait_for_function("() => localStorage.getItem('kaltfront.autosave')")
    saved = page.evaluate("() => localStorage.getItem('kaltfront.autosave')")
    old_id = json.loads(saved)["game_id"]

    # The link opened later, as from a chat: a new load of the app. "Zurück": nothing changes.
    page.goto("about:blank")
    page.goto(base_url + "#" + fragment(side="liga"))
    wait_for_engine(page)
    page.wait_for_selector("#confirm:not([hidden])")
    question = page.inner_text("#confirm-text")
    assert "neues Blitz-Spiel" in question and "Baltische Liga" in question and "Spielstände" in question
    page.click("#confirm-no")
    assert "nicht geöffnet" in notice(page)
    assert page.evaluate("() => localStorage.getItem('kaltfront.autosave')") == saved
    assert page.evaluate("() => kaltfront.state.game") is None
    assert page.is_visible("#menu-continue")

    # "Neues Spiel": the link's game starts; the old one is kept under Spielstände.
    page.goto("about:blank")
    page.goto(base_url + "#" + fragment(side="liga"))
    wait_for_engine(page)
    page.wait_for_selector("#confirm:not([hidden])")
    page.click("#confirm-yes")
    wait_game(page)
    assert page.evaluate("() => kaltfront.state.game.players.liga") == "human"
    kept = page.evaluate("(key) => localStorage.getItem(key)", f"kaltfront.save.{old_id}-auto")
    assert kept == saved


def test_link_opens_offline(page, base_url, wait_for_engine):
    """P5: a link works with the network off once the app was visited."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    wait_offline_ready(page)
    page.context.set_offline(True)
    try:
        fresh = page.context.new_page()
        fresh.goto(base_url + "#" + fragment(blitz="bornholm", side="liga", ai="leicht", fog="0", seed="7"))
        wait_for_engine(fresh)
        wait_game(fresh)
        assert fresh.evaluate("() => kaltfront.state.game.seed") == 7
        assert fresh.evaluate("() => navigator.onLine") is False
    finally:
        page.context.set_offline(False)


def test_share_action_uses_web_share_with_a_link_to_the_same_game(page, base_url, wait_for_engine):
    """"Link teilen" in the game menu hands the Web Share API a link that parses back to this game."""
    page.add_init_script("navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };")
    open_link(page, base_url, wait_for_engine, fragment(blitz="bornholm", side="liga", ai="schwer", fog="0", seed="1234"))
    wait_game(page)
    wait_my_turn(page)
    page.click("#btn-menu")
    assert page.is_visible("#menu-share")
    page.click("#menu-share")
    page.wait_for_function("() => window.__shared")
    shared = page.evaluate("() => window.__shared")
    assert shared["url"] == base_url + "#blitz=bornholm&side=liga&ai=schwer&fog=0&seed=1234"
    assert "Bornholm" in shared["text"]


def test_share_action_falls_back_to_the_clipboard(page, base_url, wait_for_engine):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    open_link(page, base_url, wait_for_engine, fragment(blitz="bornholm", side="nordbund", ai="leicht", fog="1", seed="5"))
    wait_game(page)
    wait_my_turn(page)
    page.click("#btn-menu")
    page.click("#menu-share")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == "Link kopiert."
    assert page.evaluate("() => navigator.clipboard.readText()") == base_url + "#blitz=bornholm&side=nordbund&ai=leicht&fog=1&seed=5"


def test_no_share_for_hot_seat(page, base_url, wait_for_engine):
    """The link form names one side and a computer strength: hot-seat games have no link."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    page.click("label:has(#opt-blitz)")
    page.click("label:has(#opt-mode-hotseat)")
    page.click("#menu-start")
    wait_game(page)
    page.click("#handoff-continue")
    page.click("#btn-menu")
    assert page.is_hidden("#menu-share")
