"""Auto-resolved campaign battles (FELDZUG C10).

`play_out` is the rule: the battle AI plays both sides at the campaign's strength to the battle's end,
exactly as two computer players would. `quick_result` is a fast stand-in for tests and campaign
self-play only (the full battle AI takes seconds per Blitz battle and much longer on standard maps):
it draws the winner at random, weighted by each side's forces (unit prices × hp plus Guthaben), so the
Taktikpunkte still matter. Players never get the quick one.
"""

from __future__ import annotations

import random

from ..rulesdata import RULES, SIDES

QUICK_DRAW = 0.10      # chance of a draw in the quick stand-in
QUICK_EXPONENT = 6     # how sharply a stronger force wins: (a/b)^6, so 10 % more force ≈ 64 %
MAX_ACTIONS = 20_000   # a battle that needs more has stalled; it ends as a draw


def forces(g) -> dict[str, float]:
    """Each side's force in money: its units' prices by hp, cargo included, plus its Guthaben. A side
    that has not had its first turn yet is counted with the income it is about to get: the side that
    moves first has its income credited when the battle is created (R8), and counting only that one
    made the quick stand-in favour the Nordbund about 3 : 1 on equal Taktikpunkte (issue 15 balance)."""
    from ..buildings import income

    out = {s: float(g.money[s]) for s in SIDES}
    if g.round == 1 and g.side == g.first:
        for s in SIDES:
            if s != g.first:
                out[s] += income(g, s)
    for u in g.units.values():
        out[u.side] += RULES.units[u.type].cost * u.hp / RULES.start_hp
    return out


def quick_result(g, rng: random.Random) -> str | None:
    """The winner (or None for a draw) of a battle decided by weighted chance."""
    f = forces(g)
    a, b = f["nordbund"] ** QUICK_EXPONENT, f["liga"] ** QUICK_EXPONENT
    if rng.random() < QUICK_DRAW:
        return None
    if a + b == 0:
        return None
    return "nordbund" if rng.random() < a / (a + b) else "liga"


def play_out(g, strength: str | dict, seed: int, max_actions: int | None = None) -> int:
    """Let the battle AI play both sides to the end (C10). `strength` is one strength for both or
    {side: strength}. A stalled battle is ended as a draw by a round-limit outcome. With
    `max_actions` it stops after that many actions even if the battle goes on (the page plays a long
    battle in short engine calls); the caller then ends a stalled battle with `end_stalled`.
    Returns the number of actions played."""
    from ..ai import AIPlayer

    strengths = strength if isinstance(strength, dict) else {s: strength for s in SIDES}
    ais = {s: AIPlayer(strengths[s], s, seed=seed * 2 + k) for k, s in enumerate(SIDES)}
    limit = MAX_ACTIONS if max_actions is None else max_actions
    n = 0
    while g.outcome is None and n < limit:
        action = ais[g.side].next_action(g.observe(g.side))
        try:
            g.apply(action)
        except Exception:
            g.apply({"type": "end_phase"})  # never stall on an AI bug: end the phase
        n += 1
    if max_actions is None:
        end_stalled(g)
    return n


def end_stalled(g) -> None:
    """A battle that did not end within MAX_ACTIONS ends as a draw (round-limit outcome)."""
    from ..state import Outcome

    if g.outcome is None:
        g.outcome = Outcome(None, "round_limit")
        g.invalidate()
