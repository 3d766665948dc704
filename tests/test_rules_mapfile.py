"""The map loader (R47, R36, R69, docs/map-format.md): a valid map loads; every kind of bad map is rejected
with a German `MapError` naming the file and the line."""

from __future__ import annotations

import re

import pytest

from kaltfront import MapError, scenarios
from kaltfront.mapfile import load_scenario, parse_map, scenario_ids

GOOD = """# a comment
[map]
name = Testkarte
round_limit = none
money = 500 400
first = nordbund
briefing = Kurz.

[terrain]
H . . w . S .
 . = = = . . H
~ k . . . W .

[buildings]
0 0 nordbund Nord
6 1 liga Süd
5 0 neutral

[units]
nordbund jaeger 1 0
nordbund kampfpanzer 1 1 hp=7 level=2 ammo=3 fuel=20
liga schuetzenpanzer 5 1 cargo=jaeger
"""

LINES = GOOD.splitlines()


def line_of(text: str) -> int:
    """1-based line number of the first line starting with `text` in GOOD."""
    return next(k for k, ln in enumerate(LINES, start=1) if ln.startswith(text))


def test_r47_good_map_loads():
    """R47/docs/map-format.md: terrain rows (odd rows indented), buildings, units with options and cargo."""
    sc = parse_map(GOOD, "test")
    assert (sc.width, sc.height, sc.round_limit, sc.money) == (7, 3, None, {"nordbund": 500, "liga": 400})
    assert sc.terrain[:4] == ("hq", "ebene", "ebene", "wald")
    assert [(b.type, b.owner) for b in sc.buildings] == [("hq", "nordbund"), ("stadt", None), ("hq", "liga"),
                                                          ("werk", None)]
    tank = sc.units[1]
    assert (tank.hp, tank.level, tank.ammo, tank.fuel) == (7, 2, 3, 20)
    assert sc.units[2].cargo == ("jaeger",)


def replace_line(prefix: str, new: str | None) -> str:
    out = []
    for ln in LINES:
        if ln.startswith(prefix) and prefix:
            if new is not None:
                out.append(new)
            prefix = ""  # only the first
        else:
            out.append(ln)
    return "\n".join(out) + "\n"


CASES = [
    # (line prefix to replace, replacement, words the message must contain)
    ("[buildings]", "[gebaeude]", "unbekannter Abschnitt"),
    ("name = ", "name Testkarte", "schlüssel = wert"),
    ("first = ", "name = Doppelt", "doppelt"),
    ("first = ", "farbe = blau", "unbekannter Schlüssel"),
    ("round_limit = ", "round_limit = viele", "ganze Zahl"),
    ("round_limit = ", "round_limit = 0", "zwischen"),
    ("money = ", "money = 500", "zwei Zahlen"),
    ("first = ", "first = daenemark", "first"),
    ("first = ", "blitz = vielleicht", "blitz"),
    (" . = = =", " . = = = . .", "Felder in der Zeile"),
    (" . = = =", " . = = X . . H", "Geländezeichen"),
    ("5 0 neutral", "2 0 neutral", "kein Gebäude"),
    ("5 0 neutral", "0 0 liga", "doppelt"),
    ("5 0 neutral", "5 0 schweden", "Besitzer"),
    ("5 0 neutral", "9 0 neutral", "Spalte"),
    ("5 0 neutral", "5", "spalte zeile besitzer"),
    ("nordbund jaeger", "daenen jaeger 1 0", "Seite"),
    ("nordbund jaeger", "nordbund ritter 1 0", "Einheitentyp"),
    ("nordbund kampfpanzer", "nordbund kampfpanzer 1 0", "schon eine Einheit"),
    ("nordbund jaeger", "nordbund jaeger 0 2", "nicht betreten"),
    ("nordbund jaeger", "nordbund kampfpanzer 3 0 hp=11", "hp"),
    ("nordbund jaeger", "nordbund jaeger 1 0 tarnung=1", "unbekannte Angabe"),
    ("nordbund jaeger", "nordbund jaeger 1 0 kaputt", "unverständlich"),
    ("nordbund jaeger", "nordbund transporter 1 0 cargo=kampfpanzer", "nicht laden"),
    ("nordbund jaeger", "nordbund transporter 1 0 cargo=jaeger,jaeger,jaeger", "Plätze"),
    ("nordbund jaeger", "nordbund jaeger 1", "erwartet"),
    ("0 0 nordbund", "0 0 neutral", "braucht einen Besitzer"),
]


@pytest.mark.parametrize("prefix,new,words", CASES)
def test_r47_bad_map_names_the_line(prefix, new, words):
    """docs/map-format.md: a bad map raises MapError; the German message names the file and the line."""
    text = replace_line(prefix, new)
    with pytest.raises(MapError) as exc:
        parse_map(text, "test")
    msg = str(exc.value)
    assert words.lower() in msg.lower(), msg
    assert msg.startswith("test.map, Zeile "), msg
    line = int(re.match(r"test\.map, Zeile (\d+)", msg).group(1))
    # The named line is the replaced one, or for building checks the terrain row of the hex.
    assert line in (line_of(prefix), line_of("H . . w")), (line, msg)


def test_r47_text_before_the_first_section():
    with pytest.raises(MapError, match=r"Zeile 1:"):
        parse_map("name = x\n" + GOOD, "test")


def test_r36_each_side_needs_exactly_one_hq():
    """R36: exactly one HQ per side, owned by that side; a missing HQ names the file."""
    text = GOOD.replace(" . = = = . . H", " . = = = . . .").replace("6 1 liga Süd\n", "")
    with pytest.raises(MapError, match=r"liga braucht genau ein HQ.*R36"):
        parse_map(text, "test")


def test_r36_a_second_hq_names_its_terrain_line():
    """R36: a second HQ of one side is rejected, naming the terrain row that holds it."""
    text = GOOD.replace("H . . w . S .", "H . . w . H .").replace("5 0 neutral", "5 0 nordbund")
    with pytest.raises(MapError, match=rf"^test\.map, Zeile {line_of('H . . w')}: .*zweite.*R36"):
        parse_map(text, "test")


def test_map_without_name_or_terrain():
    with pytest.raises(MapError, match="name"):
        parse_map(GOOD.replace("name = Testkarte\n", ""), "test")
    with pytest.raises(MapError, match=r"\[terrain\]"):
        parse_map(GOOD[:GOOD.index("[terrain]")], "test")


def test_filename_in_message():
    with pytest.raises(MapError, match=r"^karten/x\.map, Zeile"):
        parse_map(replace_line("money = ", "money = 1"), "x", "karten/x.map")


def test_shipped_scenarios_load():
    """Every shipped map passes the loader (ids as in share links and saves)."""
    ids = scenario_ids()
    assert "uebungsplatz" in ids
    for sid in ids:
        load_scenario(sid)
    assert {s["id"] for s in scenarios()} == set(ids)
    with pytest.raises(KeyError):
        load_scenario("gibt-es-nicht")
