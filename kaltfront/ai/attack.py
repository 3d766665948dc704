"""The attack phase: which of the engine's `attack_options` to take, and in which order.

Leicht (R5): every unit fires at the nearest target. Normal (R6): the best trade of expected damage
against expected counter-fire, while it is a gain. Schwer (R7): plans the whole phase so that as many
enemy units as possible fall (focus fire, shots without counter-fire first, the finishing blow
last), then spends the remaining shots like Normal. All numbers are the engine's expected values; the
plan is made again after every shot, so real dice are taken into account at once.
"""

from __future__ import annotations

import copy

from .common import CAPTURERS, INF, UNITS, load, value, worth


def _cost(t: str) -> int:
    return UNITS[t]["cost"]


def _own_attackers(game, belief: dict, me: str) -> list[tuple[dict, list[dict]]]:
    out = []
    for u in belief["units"]:
        if u["side"] != me or u.get("attacked"):
            continue
        opts = game.attack_options(u["id"])
        if opts:
            out.append((u, opts))
    return out


def _priority(sit, t: dict, endgame: bool = False) -> float:
    """Extra worth of hitting a target: an enemy Jäger on or next to our buildings, artillery; and
    (Schwer) in the game's last turn, a unit whose death frees a building one of our capturers can
    then take (R66, R68)."""
    extra = 0.0
    if endgame and sit.turns_left >= INF and t["i"] == sit.enemy_hq and sit.strike_ready():
        extra += 4000  # issue 16: with the HQ free a Pionier takes it this turn and wins (R48)
    if endgame and sit.last_word:
        b = sit.bld.get(t["i"])
        if b is not None and b["owner"] != sit.me and any(
                sit.building_field("fuss", t["i"])[u["i"]] <= UNITS[u["type"]]["move"]
                for u in sit.own.values() if u["type"] in CAPTURERS):
            extra += 2000 if b["owner"] == sit.en else 1000
    if t["type"] in CAPTURERS:
        b = sit.bld.get(t["i"])
        if b is not None and b["owner"] != sit.en:
            extra += 300 if b["type"] == "hq" else 120
        elif sit.own_hq is not None and sit.geo.dist(sit.own_hq, t["i"]) <= 3:
            extra += 150
    b = sit.bld.get(t["i"])
    if b is not None and b["owner"] != sit.me:
        extra += 60  # it blocks the building for our Jäger
    if sit.blitz and t["type"] in CAPTURERS:
        # In Blitz only Jäger change the building count that decides the game (R66, R68).
        extra += 60 if sit.turns_left > 3 else 160
        if any((b := sit.bld.get(n)) is not None and b["owner"] != sit.en
               for n in (t["i"],) + sit.geo.nb[t["i"]]):
            extra += 80
    if UNITS[t["type"]]["range"] and UNITS[t["type"]]["range"][0] > 1:
        extra += 60  # artillery shoots without answer: take it out
    return extra


def _saves_building(sit, t: dict) -> bool:
    """The target holds a building that is not the enemy's, or is a capturer next to one of ours or a
    neutral one: hitting it may save (or free) a building, worth some counter-fire."""
    b = sit.bld.get(t["i"])
    if b is not None and b["owner"] != sit.en:
        return True
    return t["type"] in CAPTURERS and any(
        (n := sit.bld.get(x)) is not None and n["owner"] != sit.en for x in sit.geo.nb[t["i"]])


def leicht(game, belief, sit) -> dict | None:
    geo = sit.geo
    for u, opts in sorted(_own_attackers(game, belief, sit.me), key=lambda x: x[0]["id"]):
        here = geo.idx(u["at"])
        best = min(opts, key=lambda o: (geo.dist(here, geo.idx(o["target"])), -o["damage"], o["target_id"]))
        return {"type": "attack", "unit": u["id"], "target": best["target"]}
    return None


def _trade(sit, u: dict, o: dict, tgt: dict) -> float:
    gain = o["damage"] / 10 * _cost(tgt["type"])
    if o["destroys"]:
        gain += 0.5 * _cost(tgt["type"])
    gain += _priority(sit, tgt) * (1 if o["destroys"] else o["damage"] / max(1, tgt["hp"]))
    loss = 0.0
    if o["counter"]:
        w = worth(u["type"], sit.blitz) * sit.loss_weight
        loss = o["counter"] / 10 * w
        if o["counter"] >= u["hp"]:
            loss += 0.5 * w
    return gain - loss


def normal(game, belief, sit) -> dict | None:
    best = None
    for u, opts in _own_attackers(game, belief, sit.me):
        for o in opts:
            tgt = sit.enemies.get(o["target_id"])
            if tgt is None:
                continue
            s = _trade(sit, u, o, tgt)
            key = (s, -u["id"], -o["target_id"])
            if best is None or key > best[0]:
                best = (key, u, o)
    if best is None or best[0][0] <= 0:
        return None
    return {"type": "attack", "unit": best[1]["id"], "target": best[2]["target"]}


class _Oracle:
    """Expected damage and counter-fire at other target hp values, asked of the engine on variants
    of the belief where every enemy unit has that hp."""

    def __init__(self, belief: dict, me: str, budget) -> None:
        self.belief, self.me, self.budget = belief, me, budget
        self.by_hp: dict[int, dict[tuple[int, int], dict]] = {}

    def at(self, hp: int) -> dict[tuple[int, int], dict]:
        table = self.by_hp.get(hp)
        if table is None:
            d = copy.deepcopy(self.belief)
            for u in d["units"]:
                if u["side"] != self.me:
                    u["hp"] = hp
            g = load(d)
            table = {}
            for u in d["units"]:
                if u["side"] == self.me and not u.get("attacked"):
                    for o in g.attack_options(u["id"]):
                        table[(u["id"], o["target_id"])] = o
            self.budget.spend(1)
            self.by_hp[hp] = table
        return table


def schwer_plan(game, belief, sit, budget) -> list[tuple[int, int]]:
    """The whole attack phase as (attacker id, target id), best first."""
    attackers = _own_attackers(game, belief, sit.me)
    if not attackers:
        return []
    units = {u["id"]: u for u, _ in attackers}
    opts = {u["id"]: {o["target_id"]: o for o in os} for u, os in attackers}
    oracle = _Oracle(belief, sit.me, budget)
    thp = {}
    for os in opts.values():
        for tid in os:
            thp[tid] = sit.enemies[tid]["hp"]

    def dmg(a: int, t: int, h: int) -> int:
        o = opts[a][t]
        return h if o["destroys"] else min(h, o["damage"])

    def counter(a: int, t: int, h: int, dm: int) -> float:
        if dm >= h:
            return 0.0
        if h == thp0[t]:
            o = opts[a][t]
        else:
            o = oracle.at(h).get((a, t), opts[a][t])
        c = o["counter"] or 0
        return min(c, units[a]["hp"])

    thp0 = dict(thp)
    avail = set(units)
    plan: list[tuple[int, int]] = []
    while avail and not budget.done:
        best = None
        for t in sorted(thp):
            h = thp[t]
            if h <= 0:
                continue
            cands = [a for a in sorted(avail) if t in opts[a]]
            if not cands:
                continue
            # Shots without counter-fire first (artillery, out-of-range answers), then the
            # strongest; whoever would be answered hits last, when the target is weakest.
            cands.sort(key=lambda a: (opts[a][t]["counter"] is not None, -opts[a][t]["damage"], a))
            seq, loss = [], 0.0
            for a in cands:
                dm = dmg(a, t, h)
                c = counter(a, t, h, dm)
                w = worth(units[a]["type"], sit.blitz) * sit.loss_weight
                loss += c / 10 * w + (0.5 * w if c >= units[a]["hp"] else 0)
                seq.append(a)
                h -= dm
                if h <= 0:
                    break
            budget.spend(1)
            if h > 0:
                continue
            tgt = sit.enemies[t]
            val = (value(tgt) * thp[t] / max(1, tgt["hp"]) + 0.6 * _cost(tgt["type"])
                   + _priority(sit, tgt, endgame=True) - loss)
            eff = val / len(seq)
            if val > 0 and (best is None or (eff, -t) > best[0]):
                best = ((eff, -t), t, seq)
        if best is None:
            break
        _, t, seq = best
        plan.extend((a, t) for a in seq)
        avail.difference_update(seq)
        thp[t] = 0
    # Remaining shots: chip damage where the trade is good (as Normal).
    for a in sorted(avail):
        choice = None
        for t, o in sorted(opts[a].items()):
            if thp.get(t, 0) <= 0:
                continue
            tgt = sit.enemies[t]
            s = _trade(sit, units[a], o, tgt)
            if not o["destroys"] and not _saves_building(sit, tgt) and (
                    (o["counter"] or 0) / 10 * worth(units[a]["type"], sit.blitz) * sit.loss_weight
                    > o["damage"] / 10 * worth(tgt["type"], sit.blitz)):
                continue  # issue 16: the answer would cost more than the hit wins
            if s > 0 and (choice is None or s > choice[0]):
                choice = (s, t)
        if choice is not None:
            plan.append((a, choice[1]))
            thp[choice[1]] -= dmg(a, choice[1], thp[choice[1]])
    return plan


def schwer(game, belief, sit, budget) -> dict | None:
    plan = schwer_plan(game, belief, sit, budget)
    if not plan:
        return None
    a, t = plan[0]
    return {"type": "attack", "unit": a, "target": sit.enemies[t]["at"]}
