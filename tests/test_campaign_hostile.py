"""Hostile input at the campaign's doors (issue 15, C4, C8, C12): junk orders and damaged saves get a
German IllegalOrder or SaveError, never another exception, and never change the campaign."""

from __future__ import annotations

import json

from campaign_helpers import LIGA, NB, plans, position
from hypothesis import given, settings, strategies as st

from kaltfront.campaign import Campaign, IllegalOrder, SaveError

JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.sampled_from(
    ["kullen", "seeland", "wismar", "darss", "falster", "nordbund", "liga", "jaeger", "plan", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "side", "occupy", "moves", "attack", "region", "from", "to", "kp",
                         "follow", "kriegskasse", "verstaerkung", "reserven", "mode"]), inner, max_size=5),
    max_leaves=12)
TYPES = st.sampled_from(["plan", "options", "evaluate", "auto_resolve", "retreat", "x"])


def _planning():
    return position({"kullen": (NB, 22), "falster": (NB, 8), "darss": (LIGA, 2), "wismar": (LIGA, 28)})


def _options():
    c = _planning()
    plans(c, {"attack": {"from": "falster", "to": "darss"}})
    return c


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["plan", "options"]), TYPES, JSON, JSON, JSON)
def test_junk_orders_are_refused_in_german_and_change_nothing(where, otype, a, b, c_):
    c = _planning() if where == "plan" else _options()
    before = c.to_json()
    order = {"type": otype, "side": NB, "occupy": a, "moves": b, "attack": c_} if where == "plan" else \
        {"type": otype, "side": LIGA, "kriegskasse": a, "verstaerkung": b, "reserven": c_}
    try:
        c.apply(order)
    except IllegalOrder as e:
        assert str(e)[0].isupper()
        assert c.to_json() == before
    for junk in (a, b, c_):
        try:
            c.apply(junk)
        except IllegalOrder:
            pass


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_damaged_saves_load_or_say_why(data):
    c = _options()
    c.apply({"type": "options", "side": NB, "kriegskasse": 10})
    d = json.loads(c.to_json())
    # replace one value somewhere in the save by junk
    path = []
    node = d
    while isinstance(node, (dict, list)) and node:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        k = data.draw(st.sampled_from(keys))
        path.append(k)
        if not data.draw(st.booleans()):
            break
        node = node[k]
    target = d
    for k in path[:-1]:
        target = target[k]
    if path:
        target[path[-1]] = data.draw(JSON)
    try:
        loaded = Campaign.from_json(json.dumps(d))
    except SaveError as e:
        assert "Feldzug" in str(e) or "Spielstand" in str(e)
        return
    assert Campaign.from_json(loaded.to_json()) == loaded


def test_c12_unhashable_or_deep_junk_is_a_save_error():
    """C12: a list where a region name belongs (found by Hypothesis), nesting thousands deep and a
    number with thousands of digits are refused in German like any other damage, never a Python error."""
    c = _options()
    c.apply({"type": "options", "side": NB, "kriegskasse": 10})
    good = c.to_json()
    d = json.loads(good)
    d["battle"]["from"] = []
    for text in (json.dumps(d), "[" * 50_000 + "]" * 50_000, '{"seed": ' + "9" * 5000 + "}"):
        try:
            Campaign.from_json(text)
        except SaveError as e:
            assert "Feldzug" in str(e)
        else:
            raise AssertionError("damaged save was accepted")
    assert c.to_json() == good


def test_c12_every_number_in_a_campaign_save_is_bounded():
    """C12 (issue 10): the seed, the battle number and a battle's seed, TP and KP are bounded; one of
    thousands of digits handed over as parsed JSON is a German SaveError, not a campaign that loads and
    then cannot be saved (Python will not write it as text) or fight its battle."""
    c = _options()
    c.apply({"type": "options", "side": NB, "kriegskasse": 10})
    good = json.loads(c.to_json())
    huge = 10**5000
    for path in (("seed",), ("battle_no",), ("battle", "no"), ("battle", "seed"), ("battle", "tp", NB),
                 ("battle", "kp", LIGA)):
        for value in (huge, -huge):
            d = json.loads(json.dumps(good))
            target = d
            for k in path[:-1]:
                target = target[k]
            target[path[-1]] = value
            try:
                Campaign.from_json(d)
            except SaveError as e:
                assert "Feldzug" in str(e), e
            else:
                raise AssertionError(f"{'.'.join(path)} = a huge number was accepted")
    assert Campaign.from_json(good) == c

