"""Kaltfront: the rules engine of a hex wargame on the coasts of the Baltic and the North Sea.

The public API (docs/api.md): `new_game`, `scenarios`, `rules`, `Game`, `IllegalAction`, `SaveError`,
the action types and `action_from_json`. The browser, the AI and outside tests use only these.
"""

from __future__ import annotations

from .actions import (Action, Attack, Build, EndPhase, IllegalAction, Load, Move, Surrender, Unload,
                      action_from_json)
from .game import Game, new_game
from .hexgrid import Hex
from .mapfile import MapError, load_scenario, scenario_ids
from .rulesdata import RULES, SIDES
from .save import SaveError
from .state import Outcome

__version__ = "0.1.0"

__all__ = ["Action", "Attack", "Build", "EndPhase", "Game", "Hex", "IllegalAction", "Load", "MapError",
           "Move", "Outcome", "SIDES", "SaveError", "Surrender", "Unload", "action_from_json",
           "new_game", "rules", "scenarios"]


# The Blitz maps in the order the rulebook lists them (section 12, issue 11.14); the other maps follow
# by id.
RULEBOOK_ORDER = ("fehmarnsund", "flensburger-foerde", "bornholm", "ruegen-hiddensee", "usedom", "lolland-falster")


def scenarios() -> list[dict]:
    """Every shipped scenario: id, name, blitz, size, round limit, briefing, objectives, HQs; the Blitz
    maps in the rulebook's order."""
    def order(sid: str) -> tuple[int, str]:
        return (RULEBOOK_ORDER.index(sid) if sid in RULEBOOK_ORDER else len(RULEBOOK_ORDER), sid)
    return [load_scenario(sid).summary() for sid in sorted(scenario_ids(), key=order)]


def rules() -> dict:
    """The game data (units, terrain, buildings) as in data/rules.json, JSON-ready."""
    return RULES.raw
