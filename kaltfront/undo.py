"""Undo within a phase (D16): taking back a mis-tap without ever returning information.

A move, load, unload or build can be taken back while the phase lasts, as long as it revealed nothing
new to its side (no enemy came into view, no ambush, no capture decided) and drew nothing from the
random generator. Attacks never; nothing across a phase end. Several steps back are allowed.

The history is the state right after the last action that cannot be taken back (the "base": units,
buildings, money, next id, and why nothing before it can be undone) plus the undoable actions applied
since. Undo restores the base and applies all but the last of those actions again: they drew no
random numbers and met no hidden enemy, so that gives exactly the state before the last one. The
history is part of the save (docs/save-format.md, "undo"), so a reload keeps it.
"""

from __future__ import annotations

from .actions import Attack, Build, IllegalAction, Load, Move, Unload

# Why nothing (more) can be taken back: the code is saved, the text is what the button says.
REASONS = {
    "phase": "Noch nichts zurückzunehmen",
    "attack": "Angriffe lassen sich nicht zurücknehmen",
    "enemy_seen": "Feind gesichtet",
    "ambush": "Hinterhalt",
    "capture": "Eroberung entschieden",
    "random": "Zufall entschieden",
}
OVER = "Die Partie ist beendet"
UNDOABLE = (Move, Load, Unload, Build)


def _enemies_in_view(g, side: str) -> frozenset[int]:
    seen = g.visible(side)
    units = g.units
    return frozenset(uid for i, uid in g.board.items() if units[uid].side != side and i in seen)


def snapshot(g) -> dict:
    """What an undoable action may change (units, capture progress, money, next id, the end screen's
    count of built units), JSON-ready."""
    from .save import buildings_to_list, units_to_list
    return {"units": units_to_list(g), "buildings": buildings_to_list(g), "money": dict(g.money),
            "next_id": g.next_id, "stats": {s: dict(v) for s, v in g.stats.items()}, "block": g.undo_block}


def before_action(g, action) -> tuple | None:
    """Called by Game.apply before an action changes anything; what after_action needs."""
    if not isinstance(action, UNDOABLE):
        return None
    return (_enemies_in_view(g, g.side), g.rng, snapshot(g) if g.undo_base is None else None, g.side)


def after_action(g, action, events: list[dict], before: tuple | None) -> None:
    """Record the action in the history, or close the history with the reason why it cannot be undone."""
    if before is None:
        clear(g, "attack" if isinstance(action, Attack) else "phase")
        return
    enemies, rng, snap, side = before
    kinds = {e["type"] for e in events}
    g.invalidate()
    if "ambushed" in kinds:
        clear(g, "ambush")
    elif "captured" in kinds:
        clear(g, "capture")
    elif g.rng != rng:
        clear(g, "random")
    elif not _enemies_in_view(g, side) <= enemies:
        clear(g, "enemy_seen")
    else:
        if g.undo_base is None:
            g.undo_base = snap
        g.undo_actions.append(action)


def clear(g, block: str) -> None:
    g.undo_base, g.undo_actions, g.undo_block = None, [], block


def can_undo(g) -> dict:
    """{"ok": bool, "reason": German text or None, "code": reason code or None, "steps": n}."""
    if g.outcome is not None:
        return {"ok": False, "reason": OVER, "code": "over", "steps": 0}
    if g.undo_actions:
        return {"ok": True, "reason": None, "code": None, "steps": len(g.undo_actions),
                "last": g.undo_actions[-1].to_json()}
    return {"ok": False, "reason": REASONS[g.undo_block], "code": g.undo_block, "steps": 0}


def undo(g) -> list[dict]:
    """Take back the last action of the phase; raises IllegalAction (German reason) when not allowed."""
    state = can_undo(g)
    if not state["ok"]:
        raise IllegalAction(f"Zurücknehmen geht nicht: {state['reason']}.")
    last = g.undo_actions[-1]
    keep = g.undo_actions[:-1]
    record = g.record_actions[:-1] if g.record_actions is not None else None
    restore(g, g.undo_base)
    for a in keep:
        g.apply(a)
    g.record_actions = record
    return [{"type": "undone", "side": g.side, "action": last.to_json(), "steps": len(keep)}]


def restore(g, base: dict) -> None:
    """Put the base's units, buildings, money and next id back, and forget the history after it."""
    from .save import game_from_dict, game_to_dict
    d = game_to_dict(g, history=False)
    d.update({k: base[k] for k in ("units", "buildings", "money", "next_id", "stats")})
    back = game_from_dict(d)
    g.units, g.board, g.buildings = back.units, back.board, back.buildings
    g.money, g.next_id, g.stats = back.money, back.next_id, back.stats
    clear(g, base["block"])
    g.invalidate()
