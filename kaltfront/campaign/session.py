"""The worker bridge's campaign ops (issue 15; docs/campaign.md "Bridge"): one small function per op,
each `op(session, args) -> result`, registered in CAMPAIGN_OPS and dispatched by kaltfront/bridge.py.

The session holds one campaign and who plays each side ("human" or a computer strength). The page only
gets what its viewer may see (C11). A campaign battle runs as the session's ordinary game
(`campaign_battle` hands `campaign.battle_game` to it), so every battle op works unchanged, and since
it is the same object the campaign's save includes the battle (C12).
"""

from __future__ import annotations

from ..limits import is_seed
from ..rulesdata import SIDES
from .ai import CampaignAI
from .feldzug import STRENGTHS, Campaign, new_campaign


class CampaignBadRequest(ValueError):
    """A malformed request; bridge.py reports it as kind "bad_request"."""


def _campaign(session) -> Campaign:
    c = getattr(session, "campaign", None)
    if c is None:
        raise CampaignBadRequest("Es läuft kein Feldzug.")
    return c


def _players(args: dict, default: dict | None = None) -> dict:
    players = args.get("players") or default or {"nordbund": "human", "liga": "normal"}
    if not isinstance(players, dict) or set(players) != set(SIDES) or not all(
            p in ("human",) + STRENGTHS for p in players.values()):
        raise CampaignBadRequest("Die Spieler brauchen nordbund und liga: human, leicht, normal oder schwer.")
    return dict(players)


def deciding_side(c: Campaign) -> str | None:
    """The side whose decision the campaign waits for (hot-seat hands the device to it)."""
    if c.phase == "plan":
        return next((s for s in SIDES if c.plans[s] is None), None)
    if c.phase == "options":
        return next((s for s in SIDES if c.battle["options"][s] is None), None)
    if c.phase == "retreat":
        return c.retreat["side"]
    return None


def campaign_viewer(session) -> str:
    c = _campaign(session)
    humans = [s for s in SIDES if session.campaign_players[s] == "human"]
    if len(humans) == 1:
        return humans[0]
    if len(humans) == 2:
        return deciding_side(c) or (c.battle_game.side if c.battle_game is not None else "nordbund")
    return "nordbund"


def campaign_view(session) -> dict:
    c = _campaign(session)
    v = campaign_viewer(session)
    return {"campaign": c.observe(v), "viewer": v, "players": dict(session.campaign_players),
            "legal": c.legal_orders(v), "deciding": deciding_side(c)}


def op_campaign_new(session, args: dict) -> dict:
    seed = args.get("seed", 0)
    strength = args.get("strength", "normal")
    if not is_seed(seed):
        raise CampaignBadRequest("Der Startwert (seed) muss eine ganze Zahl sein (höchstens 20 Stellen).")
    if strength not in STRENGTHS:
        raise CampaignBadRequest("Die Stärke muss leicht, normal oder schwer sein.")
    players = _players(args)
    session.campaign = new_campaign(seed=seed, fog=bool(args.get("fog", True)), strength=strength)
    session.campaign_players = players
    return campaign_view(session)


def op_campaign_load(session, args: dict) -> dict:
    c = Campaign.from_json(args.get("save", ""))
    session.campaign_players = _players(args, getattr(session, "campaign_players", None))
    session.campaign = c
    return campaign_view(session)


def op_campaign_save(session, args: dict) -> str:
    return _campaign(session).to_json()


def op_campaign_observe(session, args: dict) -> dict:
    return campaign_view(session)


def op_campaign_apply(session, args: dict) -> dict:
    """A person's order. Orders for a side name it; only a human side's may come from the page."""
    c = _campaign(session)
    order = args.get("order")
    if not isinstance(order, dict):
        raise CampaignBadRequest("Der Befehl muss ein Objekt sein.")
    side = order.get("side")
    if side in SIDES and session.campaign_players[side] != "human":
        raise CampaignBadRequest("Für diese Seite entscheidet der Computer.")
    viewer = campaign_viewer(session)
    events = c.apply(order)
    return {"events": c.events_for(events, viewer), **campaign_view(session)}


def op_campaign_ai(session, args: dict) -> dict:
    """The computer's next decision for a computer side (plan, options or retreat), applied."""
    c = _campaign(session)
    viewer = campaign_viewer(session)
    for side in SIDES:
        strength = session.campaign_players[side]
        if strength == "human":
            continue
        order = CampaignAI(strength, side, seed=c.seed * 2 + SIDES.index(side)).next_order(c.observe(side))
        if order is not None:
            events = c.apply(order)
            return {"order_type": order["type"], "done": False,
                    "events": c.events_for(events, viewer), **campaign_view(session)}
    return {"done": True, "events": [], **campaign_view(session)}


def op_campaign_battle(session, args: dict) -> dict:
    """Hand the running battle to the session as its game: the battle ops then play it. The
    computer plays the battle for a computer side at that side's strength (C10)."""
    c = _campaign(session)
    if c.battle_game is None:
        raise CampaignBadRequest("Es läuft keine Schlacht.")
    session.game = c.battle_game
    session.players = {s: ("human" if session.campaign_players[s] == "human" else session.campaign_players[s])
                       for s in SIDES}
    session.ai = {}
    humans = [s for s in SIDES if session.campaign_players[s] == "human"]
    session.fixed_viewer = None if humans else "nordbund"
    return session.view()


CAMPAIGN_OPS = {
    "campaign_new": op_campaign_new, "campaign_load": op_campaign_load, "campaign_save": op_campaign_save,
    "campaign_observe": op_campaign_observe, "campaign_apply": op_campaign_apply,
    "campaign_ai": op_campaign_ai, "campaign_battle": op_campaign_battle,
}
