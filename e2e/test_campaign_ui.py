"""The Feldzug screens (issue 15 UI) in a real browser with the real engine: a campaign against the
computer is started from the main menu, planned by tapping regions on the campaign map with the KP
stepper (C4), the revealed plans are shown, the first battle gets its briefing and option shop (C7, C8)
and is "automatisch ausgetragen" by the battle AI (C10) with its evaluation shown (C6); the next battle
is played by hand on the battle screen, the page is reloaded in the middle of it, "Feldzug fortsetzen"
goes straight back into the battle (C12), and the battle is finished there (the player gives up), which
the campaign evaluates. One page boot (plus the reload) for the whole file."""

from __future__ import annotations

# The shortest way from the Nordbund's base to the Liga's on the campaign map (westliche-ostsee.json).
PATH = ["kullen", "seeland", "suedseeland", "lolland", "fehmarn", "wismar"]


def view(page) -> dict:
    return page.evaluate("() => window.kaltfront.campaignView")


def tap_region(page, region: str) -> None:
    xy = page.evaluate("(id) => window.kaltfront.campaign.map.pageXY(id)", region)
    page.mouse.click(xy["x"], xy["y"])


def dismiss_dialogs(page) -> list[str]:
    """Click "Weiter" on every dialog the campaign shows until a decision panel is up; returns the kinds."""
    kinds = []
    for _ in range(20):
        page.wait_for_function(
            "() => !document.getElementById('cz-dialog').hidden || "
            "document.getElementById('cz-panel-body').dataset.step !== 'wait'", timeout=120_000)
        if page.is_hidden("#cz-dialog"):
            return kinds
        kinds.append(page.get_attribute("#cz-dialog", "data-kind"))
        page.click("#cz-dialog-ok")
    raise AssertionError(f"too many dialogs: {kinds}")


def plan_round(page) -> None:
    """Advance along PATH by taps: occupy the next free region with up to 2 KP, bring up to 4 KP up
    behind the front, or attack the next region when the Liga holds it (C4). The steppers stop at what
    the engine's legal orders allow."""
    v = view(page)
    regions = {r["id"]: r for r in v["campaign"]["regions"]}
    front = max(i for i, r in enumerate(PATH) if regions[r]["owner"] == "nordbund")
    here, ahead = PATH[front], PATH[front + 1]
    legal = v["legal"]
    movable = {m["from"]: m["max"] for m in legal["moves"]}
    if regions[ahead]["owner"] == "liga":
        tap_region(page, here)
        tap_region(page, ahead)
        assert page.locator(".cz-order.attack").count() == 1
    elif any(o["region"] == ahead and here in o["from"] for o in legal["occupy"]):
        tap_region(page, here)
        tap_region(page, ahead)
        page.click(".cz-order.occupy [data-step='1']")  # refused when only 1 KP may leave
        assert page.inner_text(".cz-order.occupy output") == str(min(2, movable[here]))
    if front > 0 and movable.get(PATH[front - 1], 0) >= 1:
        tap_region(page, PATH[front - 1])
        tap_region(page, here)
        for _ in range(3):
            page.click(".cz-order.move [data-step='1']")
        assert page.inner_text(".cz-order.move output") == str(min(4, movable[PATH[front - 1]]))
    page.click("#cz-submit")


def reach_battle_options(page) -> dict:
    for _ in range(8):
        kinds = dismiss_dialogs(page)
        if page.is_visible("#cz-options-ok"):
            return view(page)
        assert page.is_visible("#cz-submit"), kinds
        plan_round(page)
    raise AssertionError("no battle within 8 rounds")


def test_campaign_against_computer_auto_and_by_hand_with_reload(page, base_url, wait_for_engine):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(base_url)
    wait_for_engine(page)
    page.evaluate("() => { window.kaltfront.skipIntro = true; window.kaltfront.setAiDelay(0); }")

    # The main menu's entry and its setup dialog (against the computer, strength, fog).
    page.click("#menu-feldzug")
    assert page.is_visible("#campaign-setup") and page.is_visible("#cz-side")
    page.select_option("#cz-strength", "leicht")
    opts = page.evaluate("() => window.kaltfront.campaign.setupOptions()")
    assert opts == {"players": {"nordbund": "human", "liga": "leicht"}, "strength": "leicht", "fog": True}
    # Started with a fixed seed, as "Feldzug beginnen" would start it with a random one.
    page.evaluate("(o) => window.kaltfront.campaign.startNew({...o, seed: 4})", opts)
    page.wait_for_selector("#cz-submit")
    v = view(page)
    assert v["campaign"]["round"] == 1 and v["viewer"] == "nordbund"
    # C11: the Liga's base KP are hidden under fog; the map shows "?".
    assert {r["id"]: r for r in v["campaign"]["regions"]}["wismar"]["kp"] is None

    # A refused plan changes nothing and says why in German: move 1 KP into a free region.
    page.evaluate("() => window.kaltfront.campaign.order({type: 'plan', side: 'nordbund', "
                  "moves: [{from: 'kullen', to: 'seeland', kp: 1}]})")
    assert "eigene oder eben besetzte" in page.inner_text("#toast")
    assert view(page)["campaign"]["round"] == 1

    # Round 1 by tap: the plan shows in the panel, then both plans are revealed together (C4).
    plan_round(page)
    page.wait_for_selector("#cz-dialog:not([hidden])[data-kind='revealed']", timeout=60_000)
    revealed = page.inner_text("#cz-dialog-card")
    assert "Besetzen: Seeland mit 2 KP aus Kullen" in revealed and "Baltische Liga" in revealed

    # First battle: briefing with both sides' Taktikpunkte and the option shop (C7, C8).
    v = reach_battle_options(page)
    battle = v["campaign"]["battle"]
    for side in ("nordbund", "liga"):
        assert page.inner_text(f"[data-tp='{side}']") == str(battle["tp"][side])
    tp = v["legal"]["tp"]
    page.click("[data-shop='kriegskasse'] [data-all]")
    assert page.get_attribute(".cz-tp-left", "data-left") == "0"
    page.click("#cz-options-ok")
    page.wait_for_selector("#cz-auto", timeout=60_000)
    assert f"Kriegskasse {tp} TP" in page.inner_text("#cz-panel-body")

    # C10: automatisch ausgetragen by the battle AI; the evaluation says who won and what it cost (C6).
    page.click("#cz-auto")
    page.wait_for_selector("#cz-dialog:not([hidden])[data-kind='evaluation']", timeout=180_000)
    evaluation = page.inner_text("#cz-dialog-card")
    assert "Schlacht um" in evaluation and "KP" in evaluation
    first_line = evaluation.splitlines()[1]
    assert first_line in page.evaluate("() => document.getElementById('cz-log').textContent")  # the log
    page.click("#cz-dialog-ok")

    # The next battle is played by hand on the battle screen.
    v = reach_battle_options(page)
    page.click("#cz-options-ok")
    page.click("#cz-play")
    page.wait_for_function("() => document.getElementById('campaign').hidden && "
                           "window.kaltfront.state.obs && window.kaltfront.myTurn()", timeout=120_000)
    second = view(page)["campaign"]["battle"]
    assert second["no"] > battle["no"] and not second["decided"]
    # One whole turn by hand: each end of phase waits for the computer's reply.
    page.evaluate("""async () => { const k = window.kaltfront; let n = 0;
        do { await k.endPhase({confirmed: true}); n++; } while (!(k.state.obs.phase === 'move' && k.myTurn()) && n < 4); }""")
    page.wait_for_function("() => window.kaltfront.state.obs.phase === 'move' && window.kaltfront.myTurn()",
                           timeout=120_000)
    round_before = page.evaluate("() => window.kaltfront.state.obs.round")
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('kaltfront.feldzug.aktuell'))")
    assert saved["inBattle"] is True and '"battle"' in saved["save"]

    # Reload in the middle of the battle: "Feldzug fortsetzen" opens the same battle again (C12).
    page.reload()
    wait_for_engine(page)
    page.evaluate("() => { window.kaltfront.skipIntro = true; window.kaltfront.setAiDelay(0); }")
    page.wait_for_selector("#menu-feldzug-continue:not([hidden]):not([disabled])")
    page.click("#menu-feldzug-continue")
    page.wait_for_function("() => document.getElementById('campaign').hidden && "
                           "window.kaltfront.state.obs && window.kaltfront.myTurn()", timeout=120_000)
    obs = page.evaluate("() => window.kaltfront.state.obs")
    assert obs["round"] == round_before and obs["phase"] == "move"

    # Finish it by hand: the player gives up; the campaign evaluates the lost attack (C6).
    page.click("#btn-menu")
    page.click("#menu-surrender")
    page.click("#confirm-yes")
    page.wait_for_selector("#cz-dialog:not([hidden])[data-kind='evaluation']", timeout=60_000)
    evaluation = page.inner_text("#cz-dialog-card")
    assert "Baltische Liga gewinnt die Schlacht" in evaluation
    page.click("#cz-dialog-ok")
    dismiss_dialogs(page)
    after = view(page)["campaign"]
    assert after["battle"] is None or after["battle"]["no"] > second["no"]
    assert page.evaluate("() => JSON.parse(localStorage.getItem('kaltfront.feldzug.aktuell')).inBattle") is False
