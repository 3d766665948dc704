"""Saves (kaltfront/save.py): a save round-trips; corrupt, truncated, newer-version and foreign JSON raise
`SaveError` with a German reason; no mutated field ever escapes as another exception."""

from __future__ import annotations

import copy
import json

import pytest

import kaltfront
from helpers import U, assert_german, make_dict
from kaltfront import SaveError


def sample() -> dict:
    """A save with cargo, a capture in progress, a finished outcome."""
    d = make_dict(["H.S=.....H"], [U("nordbund", "jaeger", (2, 0)),
                                   U("nordbund", "transporter", (3, 0), cargo=[U("nordbund", "pionier", hp=4)]),
                                   U("liga", "jaeger", (8, 0), level=2)],
                  owners={(0, 0): "nordbund", (9, 0): "liga"}, captures={(2, 0): ("nordbund", 1)}, fog=True,
                  round_limit=20)
    d["outcome"] = {"winner": None, "reason": "round_limit"}
    return d


def test_save_round_trip():
    """A save loads to the same game, and saving again gives the same text."""
    g = kaltfront.Game.from_json(sample())
    text = g.to_json()
    assert kaltfront.Game.from_json(text).to_json() == text
    assert kaltfront.Game.from_json(text.encode("utf-8")) == g
    g2 = kaltfront.new_game("uebungsplatz", seed=4, fog=True)
    assert kaltfront.Game.from_json(g2.to_json()) == g2


def reason(data) -> str:
    with pytest.raises(SaveError) as exc:
        kaltfront.Game.from_json(data)
    msg = str(exc.value)
    assert_german(msg)
    return msg


def test_save_corrupt_json():
    assert "beschädigt" in reason('{"format": "kaltfront-save", "version": 1,,}')
    assert "beschädigt" in reason(b"\xff\xfe\x00garbage")
    assert "Zeile 1, Spalte" in reason('{"format": "kaltfront-save", "version": 1,,}')
    assert "beschädigt" in reason("")


def test_save_truncated():
    text = kaltfront.new_game("uebungsplatz", seed=4, fog=True).to_json()
    for n in (1, len(text) // 3, len(text) // 2, len(text) - 1):
        assert "unvollständig" in reason(text[:n])


def test_save_newer_version():
    d = sample()
    d["version"] = 2
    assert "neueren Version" in reason(d)
    d["version"] = 0
    reason(d)
    d["version"] = "1"
    reason(d)


@pytest.mark.parametrize("foreign", [
    [], 5, "null", "[1, 2]", '"kaltfront"', {"format": "chess-save", "version": 1},
    {"name": "Bornholm"}, {"format": "kaltfront-save"},
])
def test_save_foreign_json(foreign):
    """JSON that is not a Kaltfront save at all."""
    msg = reason(foreign if not isinstance(foreign, str) else foreign)
    assert "Kaltfront" in msg or "ungültig" in msg or "Version" in msg


def _paths(obj, path=()):
    if path:
        yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


JUNK = [None, "x", 1.5, -1, True, [], {}, [1, 2, 3], 10 ** 30, "DELETE"]


def test_save_every_mutated_field_is_a_save_error_or_a_valid_game():
    """Every field of a save replaced by junk or deleted: loading either works (the field was optional or
    the junk happened to be valid) or raises SaveError — never KeyError, TypeError, IndexError …"""
    base = sample()
    escaped = []
    for path in _paths(base):
        for junk in JUNK:
            d = copy.deepcopy(base)
            parent = d
            for k in path[:-1]:
                parent = parent[k]
            if junk == "DELETE":
                del parent[path[-1]]
            else:
                parent[path[-1]] = junk
            try:
                kaltfront.Game.from_json(d)
            except SaveError:
                pass
            except Exception as e:  # noqa: BLE001 — the point of the test
                escaped.append((path, junk, f"{type(e).__name__}: {e}"))
    assert escaped == []


@pytest.mark.parametrize("mutate,words", [
    (lambda d: d["units"][0].update(hp=11), "hp"),
    (lambda d: d["units"][0].update(level=6), "level"),
    (lambda d: d["units"][0].update(ammo=10), "ammo"),
    (lambda d: d["units"][1].update(fuel=61), "fuel"),
    (lambda d: d["units"][2].update(at=[20, 0]), "nicht auf der Karte"),
    (lambda d: d["units"][1]["cargo"].append(dict(d["units"][1]["cargo"][0], id=9))
     or d["units"][1]["cargo"].append(dict(d["units"][1]["cargo"][0], id=10)), "Plätze"),
    (lambda d: d["units"][1]["cargo"][0].update(type="kampfpanzer", ammo=6, fuel=50), "nicht laden"),
    (lambda d: d["units"][1]["cargo"][0].update(side="liga"), "Seite des Transporters"),
    (lambda d: d.update(next_id=2), "next_id"),
    (lambda d: d["buildings"].pop(0), "fehlt"),
    (lambda d: d["map"]["terrain"].__setitem__(0, "H.S=....XH"), "Geländezeichen"),
    (lambda d: d["buildings"][1].update(capture={"side": "nordbund", "unit": 77}), "Einheit fehlt"),
    (lambda d: d.update(money={"nordbund": -5, "liga": 0}), "money"),
    (lambda d: d["units"].__setitem__(2, dict(d["units"][2], at=[2, 0])), "schon eine Einheit"),
])
def test_save_semantic_errors(mutate, words):
    """Saves that parse but describe an impossible game are rejected with a reason."""
    d = sample()
    mutate(d)
    assert words.lower() in reason(d).lower()


def test_save_blitz_units_have_no_ammo_or_fuel():
    """R67: a Blitz save with ammunition on a unit is inconsistent."""
    d = make_dict(["H......H"], [U("nordbund", "jaeger", (1, 0)), U("liga", "jaeger", (6, 0))], blitz=True,
                  owners={(0, 0): "nordbund", (7, 0): "liga"})
    kaltfront.Game.from_json(d)
    d["units"][0]["ammo"] = 9
    assert "ammo" in reason(d)


def test_save_text_is_json():
    g = kaltfront.Game.from_json(sample())
    data = json.loads(g.to_json())
    assert data["format"] == "kaltfront-save" and data["version"] == 1
    assert data["units"][1]["cargo"][0]["type"] == "pionier"


def _layout(g) -> tuple:
    """Everything a copy must match, orders included: the save dict, and the order in which the units,
    the board and the buildings are walked (the AI's answers depend on it)."""
    from kaltfront.save import game_to_dict
    units = [(u.id, u.type, u.side, u.at, u.hp, u.level, u.ammo, u.fuel, u.moved, u.attacked, tuple(u.cargo),
              u.carried_by) for u in g.units.values()]
    return (game_to_dict(g, history=False), units, list(g.board.items()), list(g.buildings),
            [(b.capture_side, b.capture_unit) for b in g.buildings.values()])


def _same_as_round_trip(g) -> None:
    from kaltfront.save import game_copy, game_from_dict, game_to_dict
    copied = game_copy(g)
    assert _layout(copied) == _layout(game_from_dict(game_to_dict(g, history=False)))
    # A copy without history, as history=False: the undo steps and the replay belong to the real game (D16).
    assert copied.undo_base is None and copied.undo_actions == [] and copied.record_actions is None
    # Independent of the original: changing the copy changes nothing there.
    before = _layout(g)
    for u in copied.units.values():
        u.hp, u.moved = 1, not u.moved
        u.cargo.clear()
    copied.board.clear()
    copied.money["nordbund"] += 5
    for b in copied.buildings.values():
        b.owner = "liga"
    assert _layout(g) == before


def test_issue16_game_copy_is_the_save_round_trip_without_it():
    """The AI's what-if copy (`game_copy`) equals loading the game's save without history, in every
    field and in the order units, board and buildings are walked: cargo, a capture in progress, an
    outcome (sample), and every position of a self-played game on a big map with fog and transports."""
    _same_as_round_trip(kaltfront.Game.from_json(sample()))
    shuffled = sample()  # a hand-written save may list buildings and units in any order
    shuffled["buildings"].reverse()
    shuffled["units"].reverse()
    _same_as_round_trip(kaltfront.Game.from_json(shuffled))
    from kaltfront.ai import AIPlayer
    g = kaltfront.new_game("grosser-belt", seed=16, fog=True)
    ais = {s: AIPlayer("normal", s, seed=k) for k, s in enumerate(("nordbund", "liga"))}
    steps = 0
    while g.outcome is None and g.round <= 8:
        _same_as_round_trip(g)
        g.apply(ais[g.side].next_action(g.observe(g.side)))
        steps += 1
    assert steps > 100


def test_issue16_what_if_copy_keeps_no_undo_history_and_answers_like_the_game():
    """A what-if copy of the AI (`keep_undo` off) applies actions exactly as the game does, but keeps no
    undo history (D16 belongs to the real game); the real game still records its undo steps."""
    from kaltfront.ai.common import what_if
    g = kaltfront.new_game("uebungsplatz", seed=3, fog=True)
    w = what_if(g)
    uid = next(u.id for u in g.units_of(g.side) if g.reachable(u.id))
    to = g.reachable(uid)[-1]["to"]
    action = {"type": "move", "unit": uid, "to": to}
    assert g.apply(action) == w.apply(action)
    assert g.observe(g.side) == w.observe(w.side)
    assert len(g.undo_actions) == 1 and g.can_undo()["ok"]
    assert w.undo_actions == [] and w.undo_base is None and not w.can_undo()["ok"]
