"""The Feldzug engine (issue 15) runs in the browser: the real worker (Pyodide) answers the campaign ops
with the campaign map from the wheel, the computer plans, a save loads again and bad input is German.
No UI yet: this drives e2e/pages/boot.html, the page client with no screens around it."""

from __future__ import annotations

BOOT_PAGE = "e2e/pages/boot.html"


def test_campaign_ops_in_pyodide(page, base_url, wait_for_engine):
    page.goto(base_url + BOOT_PAGE)
    wait_for_engine(page)
    call = "([op, args]) => window.kaltfront.call(op, args)"
    view = page.evaluate(call, ["campaign_new", {"seed": 4, "fog": True, "strength": "leicht",
                                                 "players": {"nordbund": "human", "liga": "normal"}}])
    regions = {r["id"]: r for r in view["campaign"]["regions"]}
    assert 20 <= len(regions) <= 30 and regions["kullen"]["kp"] == 30 and regions["wismar"]["kp"] is None
    page.evaluate(call, ["campaign_apply", {"order": {"type": "plan", "side": "nordbund",
                                                      "occupy": {"region": "seeland", "from": "kullen", "kp": 3}}}])
    done = page.evaluate(call, ["campaign_ai", {}])
    assert done["order_type"] == "plan" and done["campaign"]["round"] == 2
    assert {r["id"]: r for r in done["campaign"]["regions"]}["seeland"]["owner"] == "nordbund"
    save = page.evaluate(call, ["campaign_save", {}])
    again = page.evaluate(call, ["campaign_load", {"save": save}])
    assert again["campaign"] == done["campaign"]
    error = page.evaluate("() => window.kaltfront.call('campaign_load', {save: '{}'})"
                          ".then(() => null, e => ({kind: e.kind, message: e.message}))")
    assert error == {"kind": "save", "message": "Das ist kein Kaltfront-Feldzug."}
