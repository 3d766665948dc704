"""Schwer's move phase (R7): several variants of its own turn, each answered by the opponent's likely
reply, and the best one kept.

A variant is a complete move phase from the greedy planner under one `Style` and unit order. The
reply is asked of the engine: the position after the variant is loaded with the opponent to act (fog
off: assume the opponent sees everything) and its `attack_options` give the expected damage of every
shot it could fire before it moves (R8, R9); a greedy trade-by-trade choice stands for its attack
phase. Its `reachable` for every enemy Jäger and Pionier shows which of our buildings it could stand
on after moving (in Blitz that captures at once, R68). The search is anytime: variants are tried in
order of promise until the node budget (or, in the browser only, the wall-clock cap) runs out.
"""

from __future__ import annotations

from dataclasses import replace

from .common import BUILDINGS, CAPTURERS, INF, UNITS, load, other, reframe, value, what_if, worth
from .move import SCHWER, MovePlanner, schwer_variants

JUDGE = replace(SCHWER, name="judge", w_danger=0.0, w_group=0.0, w_opp=0.3)
POSITIONAL = 30     # weight of the common positional yardstick (points per 100 of value)
PRIOR = 150         # the main style must be beaten by this much: the reply check is a veto, not a whim


def building_worth(sit, b: dict) -> float:
    if sit.blitz:
        late = 1.0 + max(0, 4 - sit.turns_left) * 0.5
        return 220 * late
    return 120 + 3 * BUILDINGS[b["type"]]["income"]


def evaluate(game, planner: MovePlanner, sit, budget) -> float:
    me, en = sit.me, sit.en
    geo = sit.geo
    pos = planner.pos
    score = 0.0
    # Positional: every unit's final hex scored by one common yardstick (Schwer's own style without
    # the danger guess, which the reply below replaces with the engine's numbers).
    judge = MovePlanner(game, sit, JUDGE, planner.rng, budget)
    judge.threats = planner.threats
    for uid in sorted(pos):
        u = sit.own.get(uid)
        if u is None:
            continue
        role, field = judge.field_for(u, u["i"])
        score += POSITIONAL * judge.score_hex(u, pos[uid], role, field, None)
        i = pos[uid]
        b = sit.bld.get(i)
        if b is not None and b["owner"] != me and u["type"] in CAPTURERS:
            if b["type"] == "hq" and (sit.blitz or u["type"] == "pionier"):
                score += 100000
            score += building_worth(sit, b) * (1.0 if (sit.blitz or u["type"] == "pionier") else 0.5)
    # The opponent's attack phase. Every own unit after the plan is a target, the ones built this
    # phase included: a fresh Jäger on the HQ is a guard the enemy may shoot off before it moves
    # (R8; issue 16: on Fehmarnsund the HQ fell that way).
    ga = reframe(game, en, "attack", fog=False)
    budget.spend(2)
    after = {u.id: u for u in game.units_of(me)}
    hp = {uid: u.hp for uid, u in after.items()}
    cost = {uid: worth(u.type, sit.blitz) for uid, u in after.items()}
    options = []
    for e in sorted(sit.enemies.values(), key=lambda x: x["id"]):
        try:
            opts = ga.attack_options(e["id"])
        except Exception:
            continue
        budget.spend(1)
        for o in opts:
            if o["target_id"] in hp:
                options.append((e, o))
    used = set()
    lost = gained = 0.0
    while True:
        best = None
        for e, o in options:
            if e["id"] in used:
                continue
            t = o["target_id"]
            cur = hp[t]
            if cur <= 0:
                continue
            dm = cur if o["destroys"] else min(cur, o["damage"])
            val = dm / 10 * cost[t] + (0.5 * cost[t] if dm >= cur else 0)
            c = (o["counter"] or 0) if dm < cur else 0
            cval = c / 10 * worth(e["type"], sit.blitz)
            s = val - cval
            if best is None or (s, -e["id"], -t) > best[0]:
                best = ((s, -e["id"], -t), e, t, dm, val, cval)
        if best is None or best[0][0] <= 0:
            break
        _, e, t, dm, val, cval = best
        used.add(e["id"])
        hp[t] -= dm
        lost += val * sit.loss_weight  # what the loss costs us (pressure at the unit limit, issue 16)
        gained += cval
    score += gained - lost
    planner.doomed = {uid for uid, h in hp.items() if h <= 0}
    # A guard holds a building only if it survives the whole enemy attack phase: judged by the
    # expected damage of every enemy that can fire on it where it stands, all on it at once.
    on_guard = {u.at: uid for uid, u in after.items()}
    focus: dict[int, int] = {}
    for e, o in options:
        t = o["target_id"]
        focus[t] = focus.get(t, 0) + (after[t].hp if o["destroys"] else o["damage"])
    # The opponent's move: which of our buildings its capturers could stand on.
    gm = reframe(game, en, "move", fog=False)
    budget.spend(2)
    own_b = {i: b for i, b in sit.bld.items() if b["owner"] == me or (sit.blitz and b["owner"] is None)}
    guard = on_guard
    threatened: dict[int, float] = {}
    for e in sorted(sit.enemies.values(), key=lambda x: x["id"]):
        if e["type"] not in CAPTURERS:
            continue
        try:
            dests = {geo.idx(o["to"]) for o in gm.reachable(e["id"])}
        except Exception:
            continue
        budget.spend(1)
        for i, b in own_b.items():
            g_uid = guard.get(i)
            dead_guard = g_uid is not None and (hp.get(g_uid, 1) <= 0
                                                or focus.get(g_uid, 0) >= after[g_uid].hp)
            if i in dests or (dead_guard and sit.building_field("fuss", i)[e["i"]] <= UNITS[e["type"]]["move"]):
                threatened[i] = 1.0
    for i in threatened:
        b = own_b[i]
        w = building_worth(sit, b)
        if b["type"] == "hq":
            w = 60000 if (sit.blitz or any(e["type"] == "pionier" for e in sit.enemies.values())) else 3000
        elif not sit.blitz:
            w *= 0.4  # a Jäger needs a whole turn; we can still shoot it off
        elif b["owner"] is None:
            w *= 0.5  # a neutral building taken counts for them, not against us
        score -= w
    return score


def plan(belief: dict, sit, rng, budget, seen_types) -> tuple[list[dict], str]:
    best = None
    base = load(belief)  # every variant starts from a copy of it
    for k, st in enumerate(schwer_variants()):
        if budget.done and best is not None:
            break
        game = what_if(base)
        planner = MovePlanner(game, sit, st, rng, budget, seen_types)
        actions = planner.plan()
        if k == 0 and budget.done:
            # Nothing left to compare it with or refine it by (both stop on a spent budget): the
            # reply check would only cost time, which the browser's turn allowance has run out of.
            return actions, st.name
        val = evaluate(game, planner, sit, budget) + (PRIOR if k == 0 else 0)
        if best is None or val > best[0]:
            best = (val, actions, st.name, st, planner)
    # Refine the best variant: units the reply would destroy (and that are not taking a building)
    # are planned again with the danger weighed four times, while that pays off.
    careful: set[int] = set()
    for _ in range(2):
        val0, _, name, st, planner = best
        doomed = {uid for uid in getattr(planner, "doomed", set())
                  if not (sit.own.get(uid, {}).get("type") in CAPTURERS
                          and (b := sit.bld.get(planner.pos.get(uid, -1))) is not None and b["owner"] != sit.me)}
        if not doomed - careful or budget.done:
            break
        careful |= doomed
        game = what_if(base)
        p2 = MovePlanner(game, sit, st, rng, budget, seen_types, careful=careful)
        actions = p2.plan()
        val = evaluate(game, p2, sit, budget) + (PRIOR if name == "schwer" else 0)
        if val > val0:
            best = (val, actions, name + "+careful", st, p2)
    return best[1], best[2]


__all__ = ["plan", "evaluate", "other", "value", "INF"]
