"""Hostile input at every door of the engine (issue 10).

The doors: `Game.from_json` (the save loader), `Game.apply`, the questions that take a unit id or a hex
(`reachable`, `attack_options`, `attack_range`, `load_options`, `unload_options`, `build_options`) and
`kaltfront.bridge.handle`. Hypothesis sends them arbitrary JSON values, hostile values (integers of
thousands of digits, nesting thousands deep, megabyte strings, bools and floats for ints, unknown keys,
ids of other types) and valid saves, actions and requests mutated at one path. Every answer must be a
success or exactly SaveError / IllegalAction / a bridge error reply of kind illegal, save or
bad_request, with a short German message for a player, and a failed call leaves the game (`to_json()`)
and the bridge session as they were.

Profiles: `ci` (default, well under a minute) and `thorough` (KALTFRONT_PROFILE=thorough, many more
examples, run by hand), as in tests/test_properties.py.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import kaltfront
from helpers import U, make_dict
from kaltfront import IllegalAction, SaveError, bridge
from kaltfront.campaign.feldzug import new_campaign
from kaltfront.mapfile import MapError, parse_map

PROFILE = os.environ.get("KALTFRONT_PROFILE", "ci")
EXAMPLES = {"ci": 100, "thorough": 2000}[PROFILE]


def fuzz(scale: float = 1.0):
    return settings(max_examples=max(10, int(EXAMPLES * scale)), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# -- hostile values ------------------------------------------------------------------------------------

class Deep:
    """Stands for a list nested `depth` levels deep: a real Python object for the doors that take
    parsed JSON, and literal brackets in a request's text (json.dumps itself cannot write it)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def value(self):
        v: list = []
        for _ in range(self.depth):
            v = [v]
        return v


HUGE = 10 ** 5000          # Python refuses to print it (int-str conversion limit, ValueError)
MEGA = "Ä" * (1 << 20)     # a megabyte of text
HOSTILE = [HUGE, -HUGE, MEGA, Deep(5000), Deep(100_000), True, False, None, 0, -1, 1.0, 2.5, -0.0,
           float("inf"), float("-inf"), float("nan"), "", "1", "nordbund", [], {}, [1, 2], [[0, 0]],
           {"type": "move"}, 10 ** 18, 2 ** 64, -(2 ** 63)]

# Values of the wrong type that Python might still accept: unhashable containers, True == 1, 1.0 == 1.
CONFUSERS = [[], {}, [1], [1, 2], {"a": 1}, True, False, 1.0, 0.5, "1", "", None, HUGE, Deep(5000), MEGA]

scalars = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
           | st.integers(min_value=-3, max_value=40))
json_values = st.recursive(scalars, lambda c: st.lists(c, max_size=4)
                           | st.dictionaries(st.text(max_size=8), c, max_size=4), max_leaves=10)
any_value = st.one_of(json_values, st.sampled_from(HOSTILE))


def real(v):
    """The Python value a door sees once the JSON is parsed (Deep becomes real nesting)."""
    if isinstance(v, Deep):
        return v.value()
    if isinstance(v, list):
        return [real(x) for x in v]
    if isinstance(v, dict):
        return {k: real(x) for k, x in v.items()}
    return v


def to_text(v) -> str:
    """The JSON text of a value with hostile parts: huge integers written out, Deep as brackets."""
    deep: list[Deep] = []

    def default(o):
        if isinstance(o, Deep):
            deep.append(o)
            return f"\u0000DEEP{len(deep) - 1}\u0000"
        raise TypeError(o)

    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # only to write the test's own input; the engine runs with the limit
    try:
        text = json.dumps(v, default=default, ensure_ascii=False)
    finally:
        sys.set_int_max_str_digits(old)
    for k, d in enumerate(deep):
        text = text.replace(json.dumps(f"\u0000DEEP{k}\u0000"), "[" * d.depth + "]" * d.depth)
    return text


HOSTILE_TEXTS = ["", "{", "[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000,
                 "9" * 5000, '{"op": ' + "9" * 5000 + "}", "null", "[]", '"text"', "NaN", "\ud800",
                 '{"op": "observe", "args": {"side": "nordbund"}, "op": 1}']

# -- the messages ----------------------------------------------------------------------------------------

# Python's own English (exception texts, reprs) must never reach a player.
ENGLISH = re.compile(r"Traceback|Error\b|exception|NoneType|object has|not supported|unhashable|"
                     r"attribute|invalid literal|Exceeds the limit|recursion|expected|must be|"
                     r"argument|<class|\bint\(\)|\bstr\b|\bdict\b|\blist\b", re.I)


# German as the messages speak it: an article, a common word or an umlaut outside any quotation.
GERMAN = re.compile(r"\b(der|die|das|den|dem|des|ein|eine|einer|nicht|kein|keine|nur|ist|hat|kann|muss|"
                    r"sein|für|auf|mit|von|bis|zu|im|oder|und|Spielstand|Anfrage|Aktion|Feld|Einheit|"
                    r"Text|Zahl|Seite|Befehl|Feldzug|Schlacht|Spieler|Region|unbekannt\w*|ungültig\w*)\b"
                    r"|[äöüßÄÖÜ]", re.I)


def assert_player_message(message: str) -> None:
    """A short German message for a player: German words outside the quoted input, none of Python's
    English, bounded length (quotations of the input are at most 40 characters)."""
    assert isinstance(message, str) and 0 < len(message) <= 400, message[:200]
    unquoted = re.sub(r"'[^']*'", "''", message)  # quoted input may contain anything
    assert GERMAN.search(unquoted), f"not a German message: {message!r}"
    assert not ENGLISH.search(unquoted), message


# -- valid material to mutate -------------------------------------------------------------------------------

def _positions() -> list[dict]:
    rich = make_dict(
        ["H.=wS~~k", "..=wW~kP", "hh=.D~~k", "...F..~H"],
        [U("nordbund", "jaeger", (4, 0)), U("nordbund", "schuetzenpanzer", (2, 1), cargo=[U("nordbund", "pionier")]),
         U("nordbund", "kampfhubschrauber", (3, 3), fuel=5, ammo=1), U("nordbund", "landungsboot", (6, 1),
         cargo=[U("nordbund", "kampfpanzer")]), U("liga", "kampfpanzer", (3, 2), hp=4, level=2),
         U("liga", "jaeger", (1, 3))],
        owners={(0, 0): "nordbund", (7, 3): "liga", (4, 1): "nordbund", (7, 1): "liga"},
        captures={(4, 0): ("nordbund", 1)}, fog=True, money=(500, 300))
    attack = copy.deepcopy(rich)
    attack["phase"] = "attack"
    over = copy.deepcopy(rich)
    over["outcome"] = {"winner": "liga", "reason": "surrender"}
    start = json.loads(kaltfront.new_game("uebungsplatz", seed=3, fog=True).to_json())
    blitz = json.loads(kaltfront.new_game("bornholm", seed=5, fog=False).to_json())
    return [rich, attack, over, start, blitz]


POSITIONS = _positions()
POSITION_TEXTS = [json.dumps(p, ensure_ascii=False) for p in POSITIONS]


def paths(doc, prefix=()):
    """Every path into a JSON document, the root included."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, prefix + (i,))


@st.composite
def mutated(draw, doc):
    """`doc` changed at one path: the value replaced (by any or a hostile value), removed, wrapped in
    a list, or an unknown key added to an object."""
    doc = copy.deepcopy(doc)
    path = draw(st.sampled_from(list(paths(doc))))
    how = draw(st.sampled_from(["replace", "confuse", "hostile", "delete", "wrap", "add_key"]))
    if not path:
        return draw(any_value) if how in ("replace", "hostile", "confuse") else [doc] if how == "wrap" else doc
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = draw(any_value)
    elif how == "hostile":
        parent[last] = draw(st.sampled_from(HOSTILE))
    elif how == "confuse":
        parent[last] = draw(st.sampled_from(CONFUSERS))
    elif how == "delete":
        del parent[last]
    elif how == "wrap":
        parent[last] = [parent[last]]
    elif isinstance(parent[last], dict):
        parent[last][draw(st.sampled_from(["x", "", "ID", "id ", "__class__", MEGA[:100]]))] = draw(any_value)
    else:
        parent[last] = {"unbekannt": parent[last]}
    return doc


def fresh(k: int) -> kaltfront.Game:
    return kaltfront.Game.from_json(POSITION_TEXTS[k])


def check_loaded(g: kaltfront.Game) -> None:
    """A save that loads must be a game the engine can play: every question answers, saving round-trips."""
    text = g.to_json()
    assert kaltfront.Game.from_json(text) == g
    for side in kaltfront.SIDES:
        json.dumps(g.observe(side))
    g.legal_actions()
    g.units_that_can_act()


# -- Game.from_json ------------------------------------------------------------------------------------------

@fuzz()
@given(data=st.data())
def test_issue10_save_door_mutated_saves(data):
    """issue 10: a valid save changed at any one path loads (and plays) or raises SaveError in German;
    as parsed JSON and as text."""
    k = data.draw(st.integers(0, len(POSITIONS) - 1), label="position")
    doc = data.draw(mutated(POSITIONS[k]), label="save")
    for form in (real(doc), to_text(doc)):
        try:
            g = kaltfront.Game.from_json(form)
        except SaveError as e:
            assert_player_message(str(e))
        else:
            check_loaded(g)


@fuzz(0.5)
@given(value=any_value)
def test_issue10_save_door_any_value(value):
    """issue 10: any JSON value at all is a SaveError with a German message, never a Python error."""
    for form in (real(value), to_text(value)):
        with pytest.raises(SaveError) as e:
            kaltfront.Game.from_json(form)
        assert_player_message(str(e.value))


@pytest.mark.parametrize("text", HOSTILE_TEXTS + [b"\xff\xfe", "x" * 3_000_000])
def test_issue10_save_door_hostile_texts(text):
    """issue 10: broken, deeply nested, oversized or number-bomb texts: SaveError in German."""
    with pytest.raises(SaveError) as e:
        kaltfront.Game.from_json(text)
    assert_player_message(str(e.value))


@pytest.mark.parametrize("key,limit", [("name", 80), ("region", 80), ("briefing", 2000)])
def test_issue10_save_texts_are_capped(key, limit):
    """issue 10: name, region and briefing have a length cap: at the cap the save loads, one more
    character is a SaveError naming the field (a multi-megabyte briefing never gets in)."""
    doc = copy.deepcopy(POSITIONS[0])
    doc[key] = "ä" * limit
    assert getattr(kaltfront.Game.from_json(doc), "briefing" if key == "briefing" else key) == "ä" * limit
    for size in (limit + 1, 1 << 20):
        doc[key] = "ä" * size
        with pytest.raises(SaveError, match=f"'{key}' ist zu lang") as e:
            kaltfront.Game.from_json(doc)
        assert_player_message(str(e.value))


def test_issue10_save_objectives_and_building_names_are_capped():
    """issue 10: each objective text (500) and each building name (60) has a cap too."""
    doc = copy.deepcopy(POSITIONS[0])
    doc["objectives"] = {"nordbund": "x" * 501}
    with pytest.raises(SaveError, match="objectives.nordbund ist zu lang"):
        kaltfront.Game.from_json(doc)
    doc = copy.deepcopy(POSITIONS[0])
    doc["buildings"][0]["name"] = "Ö" * 61
    with pytest.raises(SaveError, match="Name ist zu lang"):
        kaltfront.Game.from_json(doc)
    doc["buildings"][0]["name"] = "Ö" * 60
    kaltfront.Game.from_json(doc)


def test_issue10_save_unknown_keys_are_named():
    """issue 10: an unknown key anywhere in a save is refused with its name (a typo never passes)."""
    for path in ((), ("map",), ("buildings", 0), ("units", 0), ("units", 1, "cargo", 0)):
        doc = copy.deepcopy(POSITIONS[0])
        target = doc
        for step in path:
            target = target[step]
        target["ammmo"] = 3
        with pytest.raises(SaveError, match="unbekanntes Feld 'ammmo'"):
            kaltfront.Game.from_json(doc)


HUGE = 10**5000  # more digits than Python will write as text (4300): a save holding it could never be saved again


@pytest.mark.parametrize("where", ["round_limit", "round", "record.setup.round_limit", "record.seed"])
def test_issue10_every_number_in_a_save_is_bounded(where):
    """issue 10: a number in a save is refused with a German reason beyond its range, never loaded
    (found by the mutated-save fuzz test: a round_limit of 5000 digits loaded, then saving failed with a
    Python ValueError). At the largest allowed value the save loads and saves again."""
    from kaltfront.limits import MAX_ROUND

    def doc_with(value):
        doc = copy.deepcopy(POSITIONS[4])  # the Bornholm Blitz game, with its replay record
        if where.startswith("record.setup"):
            doc["record"]["setup"] = [{"side": "nordbund", "money_delta": 0, "units": [], "round_limit": value}]
        elif where == "record.seed":
            doc["record"]["seed"] = value
        else:
            doc[where] = value
        return doc

    top = (1 << 64) - 1 if where == "record.seed" else MAX_ROUND
    check_loaded(kaltfront.Game.from_json(doc_with(top)))
    for value in (top + 1, HUGE, -HUGE):
        with pytest.raises(SaveError) as e:
            kaltfront.Game.from_json(doc_with(value))
        assert_player_message(str(e.value))


# -- maps ------------------------------------------------------------------------------------------------------

MAP = """[map]
name = Probe
briefing = Kurz.
objective.nordbund = Halte Kiel.

[terrain]
H . . H

[buildings]
0 0 nordbund Kiel
3 0 liga Rostock
"""


@pytest.mark.parametrize("line,limit,what", [
    ("name = ", 80, "name"), ("briefing = ", 2000, "briefing"), ("region = ", 80, "region"),
    ("objective.liga = ", 500, "objective.liga")])
def test_issue10_map_texts_are_capped(line, limit, what):
    """issue 10: the same caps hold for map files, with a MapError naming the file and line."""
    base = "".join(ln for ln in MAP.splitlines(keepends=True) if not ln.startswith(line))
    ok = base.replace("[map]\n", f"[map]\n{line}{'a' * limit}\n")
    parse_map(ok, "probe")
    bad = base.replace("[map]\n", f"[map]\n{line}{'a' * (limit + 1)}\n")
    with pytest.raises(MapError, match=f"probe.map, Zeile 2: {what} ist zu lang"):
        parse_map(bad, "probe")


def test_issue10_map_building_name_is_capped():
    with pytest.raises(MapError, match="Name des Gebäudes ist zu lang"):
        parse_map(MAP.replace("Kiel", "K" * 61), "probe")
    assert parse_map(MAP.replace("Kiel", "K" * 60), "probe").buildings[0].name == "K" * 60


# -- Game.apply and the questions --------------------------------------------------------------------------

TEMPLATES = [{"type": "move", "unit": 1, "to": [1, 1]}, {"type": "load", "unit": 1, "transport": 2},
             {"type": "unload", "transport": 2, "unit": 3, "to": [1, 1]},
             {"type": "attack", "unit": 1, "target": [3, 2]},
             {"type": "build", "at": [0, 0], "unit_type": "jaeger"}, {"type": "end_phase"},
             {"type": "surrender", "side": "liga"}]


def _actions(k: int) -> list[list[dict]]:
    """Valid actions of each type in position k (up to three legal ones, else a template), so every
    type is mutated equally often."""
    legal = [a.to_json() for a in fresh(k).legal_actions()]
    return [[a for a in legal if a["type"] == t["type"]][:3] or [t] for t in TEMPLATES]


ACTIONS = [_actions(k) for k in range(len(POSITIONS))]


@fuzz(1.5)
@given(data=st.data())
def test_issue10_apply_door(data):
    """issue 10: Game.apply with a valid action changed at any path, or any value at all: success, or
    IllegalAction in German with the game exactly unchanged."""
    k = data.draw(st.integers(0, len(POSITIONS) - 1), label="position")
    kind = data.draw(st.sampled_from(ACTIONS[k]), label="action type")
    base = data.draw(st.sampled_from(kind), label="valid action")
    action = data.draw(st.one_of(mutated(base), any_value), label="action")
    g = fresh(k)
    before = g.to_json()
    try:
        g.apply(real(action))
    except IllegalAction as e:
        assert_player_message(str(e))
        assert g.to_json() == before
    else:
        check_loaded(g)


QUESTIONS = ["reachable", "attack_options", "attack_range", "load_options", "unload_options"]
ID_LIKE = [True, False, 1.0, 2.0, "1", "2", [1], {"id": 1}, 0, -1, 10 ** 9 + 1, HUGE, None, Deep(5000)]


@fuzz(1.5)
@given(data=st.data())
def test_issue10_question_doors(data):
    """issue 10: every question that takes a unit id or a hex answers any value with a result or
    IllegalAction in German, and never changes the game."""
    k = data.draw(st.integers(0, len(POSITIONS) - 1), label="position")
    g = fresh(k)
    before = g.to_json()
    ids = sorted(g.units)
    name = data.draw(st.sampled_from(QUESTIONS + ["build_options"]), label="question")
    if name == "build_options":
        arg = data.draw(st.one_of(st.sampled_from([[0, 0], [7, 3], [4, 1], [-1, 0], [0, 10 ** 6 + 1]]),
                                  mutated([0, 0]), any_value), label="at")
    else:
        arg = data.draw(st.one_of(st.sampled_from(ids + ID_LIKE), any_value), label="unit")
    try:
        answer = getattr(g, name)(real(arg))
    except IllegalAction as e:
        assert_player_message(str(e))
    else:
        json.dumps(answer)
    assert g.to_json() == before


@pytest.mark.parametrize("name", QUESTIONS)
@pytest.mark.parametrize("uid", [True, 1.0, "1", [1]])
def test_issue10_ids_of_other_types_are_refused(name, uid):
    """issue 10: True == 1 and 1.0 == 1 in Python, so a lookup would find unit 1: ids of other types
    are refused before any lookup."""
    g = fresh(0)
    with pytest.raises(IllegalAction, match="Ungültige Einheitennummer"):
        getattr(g, name)(uid)


# -- the bridge ------------------------------------------------------------------------------------------------

START = {"scenario": "uebungsplatz", "seed": 1, "fog": True, "players": {"nordbund": "human", "liga": "leicht"}}
VALID_ARGS = {
    "version": {}, "rules": {}, "scenarios": {}, "save": {}, "can_act": {}, "legal_actions": {},
    "new_game": dict(START, viewer="nordbund"),
    "load": {"save": POSITION_TEXTS[0], "players": {"nordbund": "human", "liga": "human"}},
    "observe": {"side": "nordbund"}, "reachable": {"unit": 1}, "load_options": {"unit": 1},
    "attack_options": {"unit": 1}, "unload_options": {"transport": 2}, "build_options": {"at": [0, 0]},
    "apply": {"action": {"type": "end_phase"}}, "ai_step": {"strength": "leicht"},
    # The Feldzug ops (issue 15) share the door; a campaign runs beside the game in every example.
    "campaign_new": {"seed": 2, "fog": True, "strength": "normal", "players": {"nordbund": "human", "liga": "normal"}},
    "campaign_load": {"save": new_campaign(seed=4, fog=True, strength="leicht").to_json()}, "campaign_save": {}, "campaign_observe": {},
    "campaign_apply": {"order": {"type": "plan", "side": "nordbund", "moves": []}}, "campaign_ai": {},
    "campaign_battle": {},
}
BRIDGE_OPS = sorted(VALID_ARGS)


def reply_of(text) -> dict:
    reply = json.loads(bridge.handle(text))
    assert set(reply) == {"ok", "result"} if reply["ok"] else set(reply) == {"ok", "error"}
    return reply


def session_state() -> tuple:
    s = bridge.SESSION
    campaign = s.campaign.to_json() if getattr(s, "campaign", None) is not None else None
    return (s.game.to_json() if s.game else None, dict(s.players), s.fixed_viewer, campaign,
            dict(getattr(s, "campaign_players", {})))


@pytest.fixture
def session():
    bridge.reset()
    assert reply_of(json.dumps({"op": "new_game", "args": START}))["ok"]
    yield bridge.SESSION
    bridge.reset()


def check_bridge_reply(text) -> dict:
    before = session_state()
    reply = reply_of(text)
    if not reply["ok"]:
        assert reply["error"]["kind"] in ("illegal", "save", "bad_request"), reply
        assert_player_message(reply["error"]["message"])
        assert session_state() == before, "a failed request changed the session"
    return reply


@fuzz(2)
@given(data=st.data())
def test_issue10_bridge_door(data):
    """issue 10: every bridge op with its valid arguments changed at any path, or arbitrary arguments,
    or an arbitrary request: a well-formed reply; an error is illegal/save/bad_request in German and
    leaves the session (game, players, viewer) unchanged. Never kind "internal"."""
    op = data.draw(st.sampled_from(BRIDGE_OPS + ["unbekannt", "__init__", "_game", ""]), label="op")
    args = VALID_ARGS.get(op, {})
    shape = data.draw(st.sampled_from(["args", "args", "args", "request", "valid", "any"]), label="shape")
    if shape == "args":  # most often: the arguments changed at one path
        request = {"op": op, "args": data.draw(mutated(args), label="args")}
    elif shape == "request":
        request = data.draw(mutated({"op": op, "args": args}), label="request")
    elif shape == "valid":
        request = {"op": op, "args": args}
    else:
        request = data.draw(any_value, label="request")
    bridge.reset()
    assert reply_of(json.dumps({"op": "new_game", "args": START}))["ok"]
    if op.startswith("campaign_"):
        assert reply_of(json.dumps({"op": "campaign_new", "args": VALID_ARGS["campaign_new"]}))["ok"]
    try:
        check_bridge_reply(to_text(request))
    finally:
        bridge.reset()


@pytest.mark.parametrize("text", HOSTILE_TEXTS + [b"\xff", 42, None])
def test_issue10_bridge_hostile_texts(session, text):
    """issue 10: text that is no request at all still gets a German error reply."""
    reply = check_bridge_reply(text)
    assert not reply["ok"] and reply["error"]["kind"] == "bad_request"


def test_issue10_bridge_failed_new_game_keeps_the_running_game(session):
    """issue 10: a new_game that fails (unknown scenario) does not take over its players or viewer."""
    before = session_state()
    bad = dict(START, scenario="atlantis", players={"nordbund": "schwer", "liga": "schwer"}, viewer="liga")
    reply = check_bridge_reply(json.dumps({"op": "new_game", "args": bad}))
    assert not reply["ok"] and session_state() == before


def _start(players) -> None:
    bridge.reset()
    assert reply_of(json.dumps({"op": "new_game", "args": dict(START, players=players)}))["ok"]


def _surrender(side) -> dict:
    return check_bridge_reply(json.dumps({"op": "apply", "args": {"action": {"type": "surrender", "side": side}}}))


def test_issue10_bridge_surrender_only_for_a_human_side():
    """issue 10 (R51): the page can give up only for a side a person plays in this session, never for
    the computer; against the computer only the person's side, in hot-seat either, computer against
    computer neither."""
    try:
        _start({"nordbund": "human", "liga": "leicht"})
        reply = _surrender("liga")
        assert not reply["ok"] and reply["error"]["kind"] == "illegal"
        assert "Computer" in reply["error"]["message"]
        reply = _surrender("nordbund")
        assert reply["ok"] and reply["result"]["observation"]["outcome"] == {"winner": "liga", "reason": "surrender"}

        _start({"nordbund": "normal", "liga": "human"})
        assert not _surrender("nordbund")["ok"]
        assert _surrender("liga")["ok"]  # also while the computer is to act

        _start({"nordbund": "leicht", "liga": "schwer"})
        assert not _surrender("nordbund")["ok"] and not _surrender("liga")["ok"]

        for side in kaltfront.SIDES:
            _start({"nordbund": "human", "liga": "human"})
            assert _surrender(side)["ok"]
    finally:
        bridge.reset()


def test_issue10_depth_is_measured_before_parsing():
    """Issue 10: nesting is refused by a linear scan before json.loads, because under Pyodide the parser's
    recursion overflows the WebAssembly stack (a dead worker) instead of raising RecursionError.
    Brackets inside strings do not count; a real save is far below the limit."""
    from kaltfront.limits import MAX_JSON_DEPTH, too_deep
    import kaltfront
    assert too_deep("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    assert not too_deep("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)
    assert not too_deep('["' + "[" * 5000 + '"]')
    assert not too_deep('{"a": "\\"[[[[", "b": [' + "[1]," * 500 + "[2]]}")
    assert not too_deep(kaltfront.new_game("bornholm", seed=3, fog=True).to_json())


@pytest.mark.parametrize("block", [["phase"], {"x": 1}, 3])
def test_issue10_save_undo_block_of_another_type_is_a_german_save_error(block):
    """issue 10 (found by the mutated-save fuzz test): undo.block as a list or object is refused with a
    German SaveError, never a Python TypeError."""
    doc = copy.deepcopy(POSITIONS[0])
    doc["undo"] = {"block": block, "base": None, "actions": []}
    with pytest.raises(SaveError) as e:
        kaltfront.Game.from_json(doc)
    assert_player_message(str(e.value))
