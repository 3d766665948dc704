"""Issue 11.9: the map's labels stay readable at every zoom. Neighbouring targets each get their own
damage label (R54) instead of one strip of overlapping ones, and an HQ name plate (R37) never hides
the unit next to it. On a 412×915 touch phone, where the labels take the most room against the hexes.

The position is a hand-made save (docs/save-format.md) loaded through the page's own resume path: a
Kampfpanzer of the Nordbund ringed by six Liga Jäger, in the Nordbund's attack phase, and two Nordbund
Jäger right under their HQ. The targets and their damage are the engine's answer (`attack_options`);
the test checks where the page put the labels (`kaltfront.labels()`, the last frame's layout).
"""

from __future__ import annotations

import json

import pytest

from view_helpers import DEVICES, FAST_APP, centre_on, hex_xy, wait_my_turn

pytestmark = pytest.mark.e2e


def ring_save() -> str:
    terrain = ["........."] * 7
    terrain[1] = ".H......."
    terrain[5] = ".......H."
    save = {
        "format": "kaltfront-save", "version": 1, "scenario": "beschriftung", "name": "Beschriftung", "briefing": "",
        "objectives": {}, "region": "", "map": {"width": 9, "height": 7, "terrain": terrain}, "blitz": True, "fog": False,
        "round_limit": None, "first": "nordbund", "round": 2, "side": "nordbund", "phase": "attack",
        "money": {"nordbund": 300, "liga": 300},
        "buildings": [
            {"at": [1, 1], "type": "hq", "owner": "nordbund", "name": "Kiel", "capture": None},
            {"at": [7, 5], "type": "hq", "owner": "liga", "name": "Rostock", "capture": None},
        ],
        "units": [], "next_id": 1, "rng": 12345, "outcome": None,
    }

    def unit(kind, side, at):
        save["units"].append({"id": save["next_id"], "type": kind, "side": side, "at": at, "hp": 10, "level": 0,
                              "ammo": None, "fuel": None, "moved": False, "attacked": False})
        save["next_id"] += 1

    unit("kampfpanzer", "nordbund", [4, 3])
    for at in ([4, 2], [5, 2], [5, 3], [3, 3], [4, 4], [5, 4]):  # the six neighbours of (4, 3), an odd row
        unit("jaeger", "liga", at)
    unit("jaeger", "nordbund", [1, 2])  # under the Nordbund HQ at (1, 1)
    unit("jaeger", "nordbund", [2, 2])
    return json.dumps(save)


def overlap(a, b) -> float:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def test_damage_labels_and_hq_plates_never_cover_each_other_or_a_unit(new_context, base_url, wait_for_engine):
    ctx = new_context(**DEVICES["phone"])
    ctx.add_init_script(FAST_APP)
    page = ctx.new_page()
    page.goto(base_url)
    wait_for_engine(page)
    page.evaluate("(save) => kaltfront.resumeGame({save, meta: {players: {nordbund: 'human', liga: 'leicht'}, viewer: 'nordbund'}})",
                  ring_save())
    wait_my_turn(page, "attack")
    targets = page.evaluate("() => kaltfront.call('attack_options', {unit: 1})")["targets"]
    assert len(targets) == 6

    centre_on(page, [4, 3])
    page.touchscreen.tap(*hex_xy(page, [4, 3]))
    page.wait_for_function("() => kaltfront.state.targets && kaltfront.state.targets.length === 6")

    min_scale = page.evaluate("() => kaltfront.camera.minScale()")
    seen_plate_move = False
    for scale in sorted({min_scale, 0.5, 0.75, 1.0, 1.5, 2.2, 3.0}):
        if scale < min_scale:
            continue
        page.evaluate("(s) => { const c = kaltfront.camera; c.set(c.x, c.y, s); }", scale)
        centre_on(page, [3, 2])
        page.evaluate("() => kaltfront.benchRedraw(1)")  # draw this camera now, not on the next frame
        lay = page.evaluate("() => kaltfront.labels()")
        labels, units = lay["labels"], lay["obstacles"]
        where = f"at zoom {scale:.2f}"
        damage = [l for l in labels if l["kind"] == "damage"]
        in_view = page.evaluate("""(ts) => ts.filter(t => { const k = kaltfront.camera; const p = k.hexToScreen(t[0], t[1]);
                                     return p.x >= 0 && p.y >= 0 && p.x <= k.viewW && p.y <= k.viewH; })""", [t["target"] for t in targets])
        labelled = {tuple(l["at"]) for l in damage}
        assert {tuple(t) for t in in_view} <= labelled <= {tuple(t["target"]) for t in targets}, where
        for l in damage:
            t = next(t for t in targets if t["target"] == l["at"])
            assert l["text"] == f"−{t['damage']}  ↩{t['counter']}", where  # the engine's numbers, unchanged
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                assert overlap(a["box"], b["box"]) < 0.5, f"{where}: {a['text']} at {a['at']} covers {b['text']} at {b['at']}"
            for u in units:
                assert overlap(a["box"], u) < 0.5, f"{where}: {a['text']} at {a['at']} covers unit {u['unit']}"
        plate = next(l for l in labels if l["kind"] == "hq" and l["at"] == [1, 1])
        hq_y = page.evaluate("() => kaltfront.camera.hexToScreen(1, 1).y")
        seen_plate_move = seen_plate_move or plate["box"]["y"] + plate["box"]["h"] / 2 < hq_y
    # Below the HQ, where the plate used to sit, are the two Jäger: at some zoom it had to go elsewhere.
    assert seen_plate_move
    ctx.close()
