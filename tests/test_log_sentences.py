"""D15 / issue 11.2: the Protokoll's one-sentence lines (destroyed, crashed, level_up, capture_started,
captured, income, repaired, phase, surrendered) word for word, written from the event's own fields and
the map's building names. Keeps `kaltfront.logtext._SENTENCES` honest: one table of sentences, each
word filled from the event."""

from __future__ import annotations

from helpers import U, make_dict

import kaltfront
from kaltfront.logtext import log_lines

# Nordbund's HQ at the west end, liga's at the east end; a Stadt "Allinge" and a Werk "Aakirkeby".
ROW = ["H.S.......W........H"]
NAMES = {(0, 0): "Rønne", (2, 0): "Allinge", (10, 0): "Aakirkeby", (19, 0): "Nexø"}


def open_game() -> kaltfront.Game:
    """No fog, so both sides read every line; unit 1 is a Nordbund Jäger next to Allinge."""
    d = make_dict(ROW, [U("nordbund", "jaeger", (1, 0)), U("liga", "kampfpanzer", (15, 0))],
                  owners={(0, 0): "nordbund", (19, 0): "liga"}, fog=False)
    for b in d["buildings"]:
        b["name"] = NAMES.get(tuple(b["at"]), "")
    return kaltfront.Game.from_json(d)


def test_one_sentence_lines_word_for_word():
    g = open_game()
    events = [
        {"type": "destroyed", "unit": 99, "unit_type": "kampfjet", "side": "liga", "at": [2, 0]},
        {"type": "crashed", "unit": 98, "unit_type": "drohne", "side": "nordbund", "at": [4, 0]},
        {"type": "level_up", "unit": 1, "side": "nordbund", "level": 2},
        {"type": "capture_started", "unit": 1, "side": "nordbund", "at": [2, 0]},
        {"type": "captured", "side": "nordbund", "at": [10, 0]},
        {"type": "income", "side": "liga", "amount": 250},
        {"type": "repaired", "unit": 2, "side": "liga", "at": [15, 0], "hp": 8},
        {"type": "phase", "side": "liga", "phase": "attack", "round": 3},
        {"type": "surrendered", "side": "nordbund"},
    ]
    assert log_lines(g, events, "nordbund") == [
        "Kampfjet (Baltische Liga) in Allinge vernichtet.",
        "Drohne (Nordbund) ist bei Allinge abgestürzt.",
        "Jäger (Nordbund) steigt auf Stufe 2.",
        "Jäger (Nordbund) beginnt die Eroberung von Allinge.",
        "Nordbund erobert Aakirkeby.",
        "Einnahmen Baltische Liga: +250.",
        "Kampfpanzer (Baltische Liga) wird westlich von Nexø repariert (8 hp).",
        "Baltische Liga: Angriffsphase, Runde 3.",
        "Nordbund gibt auf.",
    ]
