"""Issue 11.2 (D15) and 11.8 in the browser: hot-seat under fog on the tablet (1024×1366), where it was
found. Each player's Protokoll shows only what their side saw, the hand-over cover shows no log at
all, the log survives a reload per side, and its lines name places, never coordinates.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.e2e

TABLET = {"viewport": {"width": 1024, "height": 1366}, "is_mobile": True, "has_touch": True}
COORDS = re.compile(r"\(\s*\d+\s*\|\s*\d+\s*\)")


@pytest.fixture
def tablet(new_context):
    return new_context(**TABLET).new_page()


def log_lines(page):
    return page.evaluate("() => Array.from(document.querySelectorAll('#log li'), li => li.textContent)")


def autosave_state(page):
    """What the autosave in localStorage holds: the save's side and phase and the per-side logs."""
    return page.evaluate("""() => { const r = JSON.parse(localStorage.getItem('kaltfront.autosave'));
        const g = JSON.parse(r.game);
        return {side: g.side, phase: g.phase, round: g.round, saved_at: r.saved_at, logs: r.meta.logs}; }""")


def act(page, action):
    page.evaluate("(a) => kaltfront.act(a)", action)


def end_phase(page):
    # Not awaited: in hot-seat the call only returns once the next player taps "Weiter".
    page.evaluate("() => { kaltfront.endPhase({confirmed: true}); }")


def weiter(page, title):
    page.wait_for_selector("#handoff:not([hidden])")
    assert page.inner_text("#handoff-title") == title
    # Behind the opaque cover the Protokoll is empty: nothing of the other player shows (D15, R61).
    assert log_lines(page) == []
    page.click("#handoff-continue")
    side = "nordbund" if title.startswith("Spieler 1") else "liga"
    page.wait_for_function("(side) => kaltfront.myTurn() && !kaltfront.state.busy"
                           " && document.getElementById('log').dataset.side === side", arg=side)


def start_hotseat(page, base_url, wait_for_engine):
    """A Blitz hot-seat game on Bornholm under fog, started from the menu; player 1 has tapped "Weiter"."""
    page.goto(base_url)
    wait_for_engine(page)
    page.evaluate("() => { kaltfront.skipIntro = true; kaltfront.setAiDelay(0); }")
    page.click("label:has(#opt-blitz)")
    page.select_option("#opt-scenario", "bornholm")
    page.click("label:has(#opt-mode-hotseat)")
    if not page.is_checked("#opt-fog"):
        page.click("#opt-fog")
    page.click("#menu-start")
    weiter(page, "Spieler 1 ist dran")
    return page


def test_d15_hot_seat_under_fog_each_player_reads_only_their_own_log(tablet, base_url, wait_for_engine):
    page = start_hotseat(tablet, base_url, wait_for_engine)

    # Player 1 (Nordbund, Rønne in the west) moves every unit it can and builds; Nexø is far away.
    obs = page.evaluate("() => kaltfront.state.obs")
    assert obs["phase"] == "move" and obs["side"] == "nordbund"
    for uid in page.evaluate("() => kaltfront.state.canAct.move"):
        reach = page.evaluate("(id) => kaltfront.call('reachable', {unit: id})", uid)
        taken = {tuple(u["at"]) for u in page.evaluate("() => kaltfront.state.obs.units")}
        free = [r for r in reach if tuple(r["to"]) not in taken]
        if free:
            act(page, {"type": "move", "unit": uid, "to": free[0]["to"]})
    hq = next(b["at"] for b in obs["buildings"] if b["type"] == "hq" and b["owner"] == "nordbund")
    if not any(tuple(u["at"]) == tuple(hq) for u in page.evaluate("() => kaltfront.state.obs.units")):
        act(page, {"type": "build", "at": hq, "unit_type": "jaeger"})
    mine = log_lines(page)
    assert any("(Nordbund) zieht" in line for line in mine), mine
    end_phase(page)

    weiter(page, "Spieler 2 ist dran")
    liga = log_lines(page)
    assert liga, "player 2 has a Protokoll of their own"
    assert page.evaluate("() => document.getElementById('log').dataset.side") == "liga"
    for line in liga:
        assert "(Nordbund) zieht" not in line and "(Nordbund) gebaut" not in line, line
        assert "Einnahmen Nordbund" not in line, line
    # Ending the Liga's attack phase brings its income (its own line), still nothing of Nordbund's.
    end_phase(page)
    page.wait_for_function("() => kaltfront.state.obs.phase === 'move' && kaltfront.myTurn() && !kaltfront.state.busy")
    liga = log_lines(page)
    assert any(line.startswith("Einnahmen Baltische Liga") for line in liga), liga
    assert not any("Nordbund) zieht" in line or "Einnahmen Nordbund" in line for line in liga), liga

    # The save record keeps one log per side; a reload restores them and the cover comes back.
    saved = autosave_state(page)
    # The autosave already holds the Liga's move phase and the income line the page shows.
    assert (saved["side"], saved["phase"]) == ("liga", "move"), saved
    assert any(line.startswith("Einnahmen Baltische Liga") for line in saved["logs"]["liga"]), saved
    assert saved["logs"]["liga"][-len(liga):] == list(reversed(liga))[-len(saved["logs"]["liga"]):], saved
    logs = saved["logs"]
    assert set(logs) == {"nordbund", "liga"}
    assert not any("(Nordbund) zieht" in line for line in logs["liga"])
    assert any("(Nordbund) zieht" in line for line in logs["nordbund"])
    page.reload()
    wait_for_engine(page)
    page.evaluate("() => { kaltfront.skipIntro = true; kaltfront.setAiDelay(0); }")
    if page.is_visible("#menu-continue"):
        page.click("#menu-continue")
    weiter(page, "Spieler 2 ist dran")
    restored = page.evaluate("() => ({phase: kaltfront.state.obs.phase, side: kaltfront.state.obs.side})")
    assert log_lines(page) == liga, {"restored": restored, "autosave now": autosave_state(page), "before reload": saved}

    # Player 2 ends the turn; player 1 again reads its own lines, not the Liga's income.
    end_phase(page)
    weiter(page, "Spieler 1 ist dran")
    nord = log_lines(page)
    assert any("(Nordbund) zieht" in line for line in nord)
    assert not any("Einnahmen Baltische Liga" in line for line in nord), nord
    for line in nord + liga:
        assert not COORDS.search(line) and "nach ." not in line, line  # issue 11.8


def test_d15_phase_ended_right_after_weiter_stays_busy_until_its_autosave(tablet, base_url, wait_for_engine):
    """D15: the Liga ends its attack phase at once after "Weiter", while the hand-over's refresh still
    runs. The Nordbund's end_phase (whose doAction awaited that hand-over) once cleared S.busy when
    the refresh ended, in the middle of the Liga's action: the page looked idle in the move phase
    while its autosave still held the attack phase, and a reload then restored that older save."""
    page = start_hotseat(tablet, base_url, wait_for_engine)
    end_phase(page)  # Nordbund ends its move phase; the call waits for the Liga's "Weiter"
    page.wait_for_selector("#handoff:not([hidden])")
    # Every time S.busy changes: the phase on screen and the phase in the autosave.
    trace = page.evaluate("""async () => {
        const S = kaltfront.state; let busy = S.busy; const trace = [];
        const saved = () => { const g = JSON.parse(JSON.parse(localStorage.getItem('kaltfront.autosave')).game);
            return g.side + '/' + g.phase; };
        Object.defineProperty(S, 'busy', { configurable: true, get: () => busy, set: (x) => {
            if (x !== busy) trace.push({busy: x, shown: S.obs.side + '/' + S.obs.phase, autosave: saved()});
            busy = x; } });
        document.getElementById('handoff-continue').click();
        for (let i = 0; i < 10 && !kaltfront.myTurn(); i++) await Promise.resolve();
        kaltfront.endPhase({confirmed: true}); // before the hand-over's refresh has answered
        const t0 = performance.now();
        while (performance.now() - t0 < 20000 && !(trace.length && !busy && saved() === 'liga/move'))
            await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 500)); // any late change of S.busy
        return trace; }""")
    assert trace and trace[0]["busy"], trace  # the Liga's end_phase ran
    for t in trace:
        if not t["busy"]:
            assert t["autosave"] == t["shown"] == "liga/move", trace


def test_issue_11_8_log_numbers_are_not_cut_off(tablet, base_url, wait_for_engine):
    """Issue 11.8: a three-digit list number fits inside the Protokoll's box."""
    page = tablet
    page.goto(base_url)
    wait_for_engine(page)
    page.evaluate("""() => { document.getElementById('app').classList.remove('in-menu');
        document.getElementById('main-menu').hidden = true; document.getElementById('log-box').open = true;
        const ol = document.getElementById('log'); ol.innerHTML = '<li>Zeile</li>'; ol.start = 188; }""")
    # The marker sits in the list's left padding; it must not reach past the panel's left edge.
    box = page.locator("#log").bounding_box()
    panel = page.locator("#panel").bounding_box()
    pad = page.eval_on_selector("#log", "e => parseFloat(getComputedStyle(e).paddingLeft)")
    width = page.evaluate("""() => { const c = document.createElement('canvas').getContext('2d');
        const s = getComputedStyle(document.getElementById('log')); c.font = s.fontSize + ' ' + s.fontFamily;
        return c.measureText('188. ').width; }""")
    assert pad >= width, (pad, width)
    assert box["x"] >= panel["x"]
