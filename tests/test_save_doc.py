"""The example in docs/save-format.md is a real, loadable save (the doc cannot rot unnoticed)."""

import pathlib
import re

import kaltfront

DOC = pathlib.Path(__file__).parent.parent / "docs" / "save-format.md"


def test_documented_example_loads_and_round_trips():
    text = re.search(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    g = kaltfront.Game.from_json(text)
    assert (g.round, g.side, g.phase) == (3, "liga", "attack")
    assert g.units[2].cargo == [4]
    assert g.buildings[g.index(kaltfront.Hex(4, 2))].capture_unit == 3
    assert kaltfront.Game.from_json(g.to_json()) == g
