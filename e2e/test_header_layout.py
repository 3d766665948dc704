"""Issue 11.3 and 11.10: the header at every width from 320 to 1920 px, in both orientations.

Every header control (menu, side, phase, money with its label, round, "Ziel: HQ", the counter, "Phase
beenden", and any other button there) must lie fully inside the viewport, be cut by nothing (its own
scrollWidth fits its clientWidth, no other control overlaps it, nothing covers its centre) and be at
least 44×44 px. A "Rückgängig" button of the width issue 13 will add is put in while measuring, so the
layout is known to have room for it. At 360 px the header takes at most two rows (issue 11.12), from
900 px on one row (a phone held sideways keeps its map).

11.10: the money shown is the viewer's and is labelled, on a phone, also while the computer plays.
One page boot for the file: a game as the Baltische Liga against the computer, whose turn comes first.
"""

from __future__ import annotations

import pytest

from view_helpers import DEVICES, FAST_APP, obs, start_vs_computer, wait_my_turn

pytestmark = pytest.mark.e2e

# The viewports of the issue, then more phones, tablets and desktops in both orientations, then a sweep
# through 400–1040 px, where "Phase beenden" was cut.
VIEWPORTS = [
    (320, 568), (360, 640), (412, 915), (915, 412), (1024, 1366), (1366, 768), (1920, 1080),
    (568, 320), (640, 360), (375, 667), (667, 375), (390, 844), (844, 390), (430, 932), (932, 430),
    (768, 1024), (1366, 1024), (800, 1280), (1280, 800), (1440, 900), (1080, 1920), (761, 900), (760, 900),
] + [(w, 800) for w in range(400, 1041, 40)] + [(w, 400) for w in range(420, 1041, 60)]

NAMED = ["#btn-menu", "#hdr-turn", "#hdr-side", "#hdr-phase", "#hdr-money-box", "#hdr-money-label", "#hdr-money",
         "#hdr-round", "#btn-target-hq", "#counter", "#btn-end-phase"]
# Containers of several parts: these must be 44×44; the parts inside them only visible and uncut.
TAPPABLE_OR_BLOCK = ["#btn-menu", "#hdr-turn", "#hdr-money-box", "#hdr-round"]

MEASURE = """(named) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const header = document.getElementById('header');
  const buttons = [...header.querySelectorAll('button')].filter(b => b.offsetParent !== null);
  const seen = new Set();
  const items = [];
  for (const el of [...named.map(s => document.querySelector(s)), ...buttons]) {
    if (!el || seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const hit = document.elementFromPoint(Math.min(vw - 1, Math.max(0, cx)), Math.min(vh - 1, Math.max(0, cy)));
    items.push({id: el.id || el.textContent.trim(), tag: el.tagName, text: el.innerText, visible: el.offsetParent !== null,
      x: r.left, y: r.top, w: r.width, h: r.height, sw: el.scrollWidth, cw: el.clientWidth, sh: el.scrollHeight, ch: el.clientHeight,
      hitOwn: !!hit && (hit === el || el.contains(hit)),
      parent: el.parentElement.closest('#hdr-turn, #hdr-money-box, #hdr-round') ? el.parentElement.closest('#hdr-turn, #hdr-money-box, #hdr-round').id : null});
  }
  const groups = ['header', 'hdr-status', 'hdr-actions'].map(id => { const e = document.getElementById(id);
    return {id, sw: e.scrollWidth, cw: e.clientWidth, sh: e.scrollHeight, ch: e.clientHeight}; });
  return {vw, vh, items, groups, header: header.getBoundingClientRect().toJSON()};
}"""


def overlap(a, b) -> float:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def rows(items) -> int:
    """Rows of header controls: distinct vertical bands of the top-level controls."""
    tops = sorted(i["y"] + i["h"] / 2 for i in items if i["parent"] is None)
    bands = 0
    last = None
    for t in tops:
        if last is None or t - last > 22:
            bands += 1
        last = t
    return bands


@pytest.fixture(scope="module")
def liga_game(browser, base_url):
    ctx = browser.new_context(**DEVICES["phone"])
    ctx.add_init_script(FAST_APP)
    page = ctx.new_page()
    page.goto(base_url)
    page.wait_for_function("() => window.kaltfront && (kaltfront.ready || kaltfront.error)", timeout=60_000)
    assert page.evaluate("() => kaltfront.ready"), page.evaluate("() => kaltfront.error")
    # The computer's turn must last long enough to look at: without fog every one of its moves is shown,
    # at three times the normal pace (under fog a turn the Liga cannot see was over in a blink, and the
    # money test read the Liga's own turn once in three runs on a loaded machine).
    page.evaluate("() => kaltfront.setAiDelay(3)")
    start_vs_computer(page, side="liga", fog=False)
    yield page
    ctx.close()


def test_money_is_the_viewers_and_labelled_during_the_computers_turn_on_a_phone(liga_game):
    """Issue 11.10 at 412×915: while the Nordbund (computer) plays, the header's money is the Liga's own,
    with the words "Dein Guthaben" on screen and a bar in the Liga's colour."""
    page = liga_game
    page.wait_for_selector("#ai-bar:not([hidden])")
    o = obs(page)
    assert o["side"] == "nordbund" and o["viewer"] == "liga"
    # The header follows the computer's turn one engine answer after the bar appears (a loaded machine
    # shows the gap): wait for it, then read.
    page.wait_for_function("() => document.getElementById('hdr-side').textContent === 'Nordbund'")
    o = obs(page)
    assert page.inner_text("#hdr-money") == str(o["money"]["liga"])
    assert page.is_visible("#hdr-money-label")
    assert page.inner_text("#hdr-money-label") == "Dein Guthaben"
    # The header is laid out again as the computer's turn fills it: measure once label and number
    # share their left edge (the layout this test checks), or after 5 s whatever stands there.
    try:
        page.wait_for_function("() => { const a = document.getElementById('hdr-money-label').getBoundingClientRect();"
                               " const b = document.getElementById('hdr-money').getBoundingClientRect();"
                               " return Math.abs(a.left - b.left) < 2; }", timeout=5_000)
    except Exception:
        pass  # the assertion below reports the layout as it is
    label, money = page.locator("#hdr-money-label").bounding_box(), page.locator("#hdr-money").bounding_box()
    assert label["width"] > 40 and abs((label["x"]) - money["x"]) < 2 and label["y"] < money["y"], "label sits over the number"
    assert "liga" in page.get_attribute("#hdr-money-box", "class")
    assert page.get_attribute("#hdr-money-box", "title") == "Guthaben Baltische Liga"
    page.evaluate("() => kaltfront.setAiDelay(0)")
    wait_my_turn(page, "attack")
    o = obs(page)
    assert page.inner_text("#hdr-side") == "Baltische Liga"
    assert page.inner_text("#hdr-money") == str(o["money"]["liga"])
    assert page.is_visible("#hdr-money-label")


def test_every_header_control_visible_uncut_and_tappable_from_320_to_1920(liga_game):
    """Issue 11.3: all header controls inside the viewport, uncut, not overlapping, ≥ 44×44; ≤ 2 rows from
    360 px, one row from 900 px; with room for a "Rückgängig" button."""
    page = liga_game
    page.evaluate("() => kaltfront.setAiDelay(0)")
    wait_my_turn(page, "attack")
    page.wait_for_selector("#counter:not([hidden])")  # the header follows the turn after one more engine answer
    # The longest texts the header shows: Baltische Liga, Angriffsphase, "Keiner kann schießen" or "n können schießen".
    assert page.inner_text("#hdr-phase") == "Angriffsphase"
    page.evaluate("""() => { if ([...document.querySelectorAll('#header button')].some(b => b.textContent.includes('Rückgängig'))) return;
        const b = document.createElement('button'); b.textContent = 'Rückgängig'; b.id = 'placeholder-undo';
        const a = document.getElementById('hdr-actions'); a.insertBefore(b, document.getElementById('btn-end-phase')); }""")
    problems = []
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[w, h])
        m = page.evaluate(MEASURE, NAMED)
        where = f"{w}×{h}"
        for g in m["groups"]:
            if g["sw"] > g["cw"] + 1 or g["sh"] > g["ch"] + 1:
                problems.append(f"{where}: #{g['id']} overflows ({g['sw']}>{g['cw']} or {g['sh']}>{g['ch']})")
        items = [i for i in m["items"] if i["visible"]]
        ids = {i["id"] for i in items}
        for sel in NAMED:
            if sel[1:] not in ids:
                problems.append(f"{where}: {sel} not shown")
        for i in items:
            name = i["id"]
            if i["x"] < -0.5 or i["y"] < -0.5 or i["x"] + i["w"] > w + 0.5 or i["y"] + i["h"] > h + 0.5:
                problems.append(f"{where}: {name} leaves the viewport {i}")
            if i["sw"] > i["cw"] + 1 or i["sh"] > i["ch"] + 1:
                problems.append(f"{where}: {name} cut (scroll {i['sw']}×{i['sh']} > client {i['cw']}×{i['ch']})")
            if (i["tag"] == "BUTTON" or "#" + name in TAPPABLE_OR_BLOCK) and (i["w"] < 44 - 0.01 or i["h"] < 44 - 0.01):
                problems.append(f"{where}: {name} is {i['w']:.1f}×{i['h']:.1f} px, less than 44×44")
            if i["tag"] == "BUTTON" and not i["hitOwn"]:
                problems.append(f"{where}: something covers the middle of {name}")
        top = [i for i in items if i["parent"] is None]
        for a_i, a in enumerate(top):
            for b in top[a_i + 1:]:
                if overlap(a, b) > 0.5:
                    problems.append(f"{where}: {a['id']} and {b['id']} overlap")
        n = rows(items)
        if w >= 360 and n > 2:
            problems.append(f"{where}: the header takes {n} rows")
        if w >= 900 and n > 1:
            problems.append(f"{where}: the header takes {n} rows, one is room enough")
    assert not problems, "\n".join(problems)
