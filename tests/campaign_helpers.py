"""Helpers for the Feldzug tests (issue 15): positions written as campaign saves, and short ways to
get through a round (plans, options, a battle decided by surrender or played to a draw)."""

from __future__ import annotations

import json

from kaltfront.campaign import Campaign, new_campaign

NB, LIGA = "nordbund", "liga"
EMPTY = {"kriegskasse": 0, "verstaerkung": [], "reserven": False}


def position(regions: dict[str, tuple[str, int]], *, fog: bool = True, round_: int = 1,
             last_result: dict | None = None, seed: int = 5) -> Campaign:
    """A campaign in its plan step where exactly the given regions are held: {region: (side, kp)}.
    Bases not named keep their owner with 0 KP. Goes through the save loader, so it is checked."""
    d = json.loads(new_campaign(seed=seed, fog=fog).to_json())
    for rid, v in d["regions"].items():
        v["kp"] = 0
        if rid not in ("kullen", "wismar"):
            v["owner"] = None
    for rid, (side, kp) in regions.items():
        d["regions"][rid] = {"owner": side, "kp": kp}
    d["round"] = round_
    if last_result:
        d["last_result"].update(last_result)
    return Campaign.from_json(d)


def plans(c: Campaign, nb: dict | None = None, liga: dict | None = None) -> list[dict]:
    ev = c.apply({"type": "plan", "side": NB, **(nb or {})})
    return ev + c.apply({"type": "plan", "side": LIGA, **(liga or {})})


def options(c: Campaign, nb: dict | None = None, liga: dict | None = None) -> list[dict]:
    ev = c.apply({"type": "options", "side": NB, **(nb or EMPTY)})
    return ev + c.apply({"type": "options", "side": LIGA, **(liga or EMPTY)})


def win_battle(c: Campaign, winner: str) -> list[dict]:
    """The loser gives up (R51) and the campaign evaluates the battle."""
    loser = LIGA if winner == NB else NB
    c.battle_game.apply({"type": "surrender", "side": loser})
    return c.apply({"type": "evaluate"})


def draw_battle(c: Campaign) -> list[dict]:
    """Nobody acts until the round limit: same buildings and armies on a Blitz map, so a draw (R50)."""
    g = c.battle_game
    while g.outcome is None:
        g.apply({"type": "end_phase"})
    assert g.outcome.winner is None
    return c.apply({"type": "evaluate"})
