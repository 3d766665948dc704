"""Reference opponents for the self-play harness only (issue 16): `greedy` and `rollout`.

They are simple on purpose and written apart from the three strengths, so that Schwer is measured
against players that think differently from itself; they are never offered in the UI or the bridge
(`AIPlayer` refuses their names; only `make_player` here and `selfplay.py` know them).

* **greedy** (one ply): in the attack phase the best expected trade (damage × target price − counter-
  fire × own price, from the engine's `attack_options`) while it is a gain; in the move phase Jäger and
  Pioniere head for the nearest building not yet theirs, every other unit for the nearest enemy it knows
  of (else the enemy's buildings), choosing among the hexes that bring it equally close the one with the
  best terrain defence; then each free production site builds the dearest unit the money buys.
* **rollout**: the same moves, but each decision is chosen by short playouts on the belief game. In the
  attack phase every candidate shot (and "stop") is tried with several dice seeds, the rest of the
  phase played greedily, and the average material balance kept. In the move phase several phase plans
  (the greedy one and randomised ones: each unit picks among its three best hexes) are each played out
  through the opponent's whole greedy reply turn with several dice seeds; the best average wins.

Fairness (R4) as for the real AI: both decide from `observe(side)` alone through the same belief game
(`common.belief_dict`, no memory); every returned action is checked against the belief game's
`legal_actions()`, which equals the real list for that side.
"""

from __future__ import annotations

import random

from kaltfront import IllegalAction

from .common import (BUILDINGS, CAPTURERS, INF, TERRAIN, UNITS, Geo, action_key, belief_dict, distance_field,
                     load, other)

REFERENCE_BOTS = ("greedy", "rollout")

_FIELDS: dict[tuple, list[int]] = {}


def _field(geo: Geo, terrain: list[str], key: str, mclass: str, sources: tuple[int, ...]) -> list[int]:
    # Keyed by the map too: one process plays many maps (round-robin), hex indices repeat across them.
    k = (geo.w, geo.h, "".join(terrain), key, mclass, sources)
    f = _FIELDS.get(k)
    if f is None:
        if len(_FIELDS) > 3000:
            _FIELDS.clear()
        f = distance_field(geo, terrain, mclass, sources)
        _FIELDS[k] = f
    return f


def _cost(t: str) -> int:
    return UNITS[t]["cost"]


def best_trade(game, me: str) -> dict | None:
    """The one attack with the best expected trade, or None when no trade is a gain."""
    best = None
    for u in sorted(game.units_of(me), key=lambda x: x.id):
        if u.attacked or u.at is None:
            continue
        for o in game.attack_options(u.id):
            gain = o["damage"] / 10 * _cost(o["target_type"]) + (0.5 * _cost(o["target_type"]) if o["destroys"] else 0)
            loss = (o["counter"] or 0) / 10 * _cost(u.type)
            s = gain - loss
            key = (s, -u.id, -o["target_id"])
            if s > 0 and (best is None or key > best[0]):
                best = (key, {"type": "attack", "unit": u.id, "target": o["target"]})
    return None if best is None else best[1]


class _Mover:
    """The greedy move phase on one game for one side: one move per call of `step`."""

    def __init__(self, game, me: str, rng: random.Random | None = None, top: int = 1) -> None:
        self.g, self.me, self.rng, self.top = game, me, rng, top
        self.geo = Geo(game.width, game.height)
        self.terrain = list(game.terrain)
        self.done: set[int] = set()

    def step(self) -> dict | None:
        """The next move of this phase (move or build), or None when the phase is over."""
        g, me, geo = self.g, self.me, self.geo
        enemies = sorted(u.at for u in g.units_of(other(me)))
        bld = {i: b for i, b in g.buildings.items()}
        for u in sorted(g.units_of(me), key=lambda x: x.id):
            if u.id in self.done or u.moved or u.at is None:
                continue
            self.done.add(u.id)
            opts = g.reachable(u.id)
            if not opts:
                continue
            here = u.at
            mclass = u.utype.movement
            if u.type in CAPTURERS:
                b = bld.get(here)
                if b is not None and b.owner != me:
                    continue  # standing on a building to take: stay (capture goes on)
                src = tuple(sorted(i for i, b in bld.items() if b.owner != me))
                key = "bld-" + me
            else:
                src = tuple(enemies) or tuple(sorted(i for i, b in bld.items() if b.owner == other(me))) \
                    or tuple(sorted(i for i, b in bld.items() if b.owner != me))
                key = "foe"
            if not src:
                continue
            f = _field(geo, self.terrain, key, mclass, src)
            scored = []
            for o in opts:
                i = geo.idx(o["to"])
                d = f[i]
                if d >= INF:
                    continue
                if u.type not in CAPTURERS and i in enemies:
                    continue
                terr = TERRAIN[self.terrain[i]]["defence"]
                scored.append((d - 0.3 * terr, o["to"]))
            here_d = f[here] - 0.3 * TERRAIN[self.terrain[here]]["defence"]
            scored.append((here_d, None))
            scored.sort(key=lambda x: (x[0], x[1] or [-1, -1]))
            pick = scored[0] if self.top <= 1 or self.rng is None else \
                self.rng.choice(scored[:self.top])
            if pick[1] is None:
                continue
            return {"type": "move", "unit": u.id, "to": pick[1]}
        for i in sorted(i for i, b in bld.items() if b.owner == me and BUILDINGS[b.type]["produces"]):
            if g.unit_at(i) is not None:
                continue
            opts = [o for o in g.build_options(g.hex(i).to_json()) if o["affordable"]]
            if opts:
                o = max(opts, key=lambda o: (o["cost"], o["unit_type"]))
                return {"type": "build", "at": g.hex(i).to_json(), "unit_type": o["unit_type"]}
        return None


def _greedy_phase(game, me: str, rng=None, top: int = 1, limit: int = 200) -> None:
    """Play the rest of `me`'s current phase greedily on `game` (a playout helper)."""
    mover = _Mover(game, me, rng, top) if game.phase == "move" else None
    for _ in range(limit):
        if game.outcome is not None or game.side != me:
            return
        a = best_trade(game, me) if game.phase == "attack" else mover.step()
        if a is None:
            phase = game.phase
            game.apply({"type": "end_phase"})
            if game.side == me and game.phase == "move" and phase == "attack":
                mover = _Mover(game, me, rng, top)
            continue
        try:
            game.apply(a)
        except IllegalAction:
            if mover is not None:
                continue
            game.apply({"type": "end_phase"})


def material(game, me: str) -> float:
    """Own minus enemy: unit value (price × hp / 10) and 400 a building; a decided game ±100 000."""
    if game.outcome is not None:
        w = game.outcome.winner
        return 0.0 if w is None else (100_000.0 if w == me else -100_000.0)
    s = 0.0
    for side, sign in ((me, 1), (other(me), -1)):
        for u in game.units_of(side):
            s += sign * _cost(u.type) * u.hp / 10
            for cid in u.cargo:
                c = game.units[cid]
                s += sign * _cost(c.type) * c.hp / 10
    for b in game.buildings.values():
        if b.owner == me:
            s += 400
        elif b.owner == other(me):
            s -= 400
    return s


def _with_rng(belief: dict, seed: int):
    d = dict(belief, rng=seed & 0x7FFFFFFF or 1, fog=False)
    return load(d)


class ReferenceBot:
    """Drives `greedy` or `rollout` through the same protocol as `AIPlayer.next_action`."""

    def __init__(self, kind: str, side: str, seed: int = 0, playouts: int = 3, plans: int = 5) -> None:
        if kind not in REFERENCE_BOTS:
            raise ValueError(f"Unbekannter Referenzgegner: {kind!r}.")
        self.kind, self.side, self.seed = kind, side, seed
        self.strength = kind
        self.rng = random.Random(seed)
        self.playouts, self.plans = playouts, plans
        self._key = None
        self._queue: list[dict] = []
        self._done: set[int] = set()

    def next_action(self, observation: dict) -> dict:
        obs = observation
        if obs.get("outcome") is not None or obs.get("side") != self.side:
            return {"type": "end_phase"}
        belief = belief_dict(obs, self.side)
        game = load(belief)
        legal = {action_key(a.to_json()) for a in game.legal_actions()}
        key = (obs["round"], obs["phase"])
        if key != self._key:
            self._key, self._queue, self._done = key, [], set()
        if obs["phase"] == "attack":
            a = best_trade(game, self.side) if self.kind == "greedy" else self._rollout_attack(belief, game)
        else:
            a = self._move(belief, game, legal)
        if a is None or action_key(a) not in legal:
            return {"type": "end_phase"}
        return a

    # -- move phase ------------------------------------------------------------------------------------
    def _move(self, belief: dict, game, legal: set[str]) -> dict | None:
        if self.kind == "greedy":
            mover = _Mover(load(dict(belief, fog=False)), self.side)
            mover.done = self._done
            a = mover.step()
            return a
        if not self._queue or action_key(self._queue[0]) not in legal:
            self._queue = self._rollout_plan(belief)
        return self._queue.pop(0) if self._queue else None

    def _plan_actions(self, belief: dict, rng, top: int) -> list[dict]:
        g = load(dict(belief, fog=False))
        mover = _Mover(g, self.side, rng, top)
        out = []
        for _ in range(200):
            a = mover.step()
            if a is None:
                break
            try:
                g.apply(a)
            except IllegalAction:
                continue
            out.append(a)
        return out

    def _score_plan(self, belief: dict, actions: list[dict], seeds: list[int]) -> float:
        total = 0.0
        for s in seeds:
            g = _with_rng(belief, s)
            for a in actions:
                try:
                    g.apply(a)
                except IllegalAction:
                    pass
            if g.outcome is None and g.side == self.side:
                g.apply({"type": "end_phase"})
            if g.outcome is None and g.side != self.side:
                _greedy_phase(g, g.side)                      # the opponent's attack phase
                if g.outcome is None and g.side != self.side:
                    _greedy_phase(g, g.side)                  # and its move phase
            total += material(g, self.side)
        return total / len(seeds)

    def _rollout_plan(self, belief: dict) -> list[dict]:
        seeds = [self.rng.randrange(1 << 30) for _ in range(self.playouts)]
        cands = [self._plan_actions(belief, None, 1)]
        for _ in range(self.plans - 1):
            cands.append(self._plan_actions(belief, random.Random(self.rng.randrange(1 << 30)), 3))
        best = None
        for k, acts in enumerate(cands):
            s = self._score_plan(belief, acts, seeds)
            if best is None or s > best[0]:
                best = (s, k, acts)
        return list(best[2])

    # -- attack phase ----------------------------------------------------------------------------------
    def _rollout_attack(self, belief: dict, game) -> dict | None:
        cands: list[dict | None] = [None]
        for u in sorted(game.units_of(self.side), key=lambda x: x.id):
            if u.attacked or u.at is None:
                continue
            for o in game.attack_options(u.id):
                cands.append({"type": "attack", "unit": u.id, "target": o["target"]})
        if len(cands) == 1:
            return None
        seeds = [self.rng.randrange(1 << 30) for _ in range(self.playouts)]
        best = None
        for k, a in enumerate(cands):
            total = 0.0
            for s in seeds:
                g = _with_rng(belief, s)
                if a is not None:
                    g.apply(a)
                    if g.outcome is None and g.phase == "attack":
                        _greedy_phase(g, self.side, limit=40)
                total += material(g, self.side)
            avg = total / len(seeds)
            if best is None or avg > best[0] + 1e-9:
                best = (avg, k, a)
        return best[2]


def make_player(name: str, side: str, seed: int = 0):
    """A self-play player: one of the three strengths (`AIPlayer`) or a reference bot."""
    if name in REFERENCE_BOTS:
        return ReferenceBot(name, side, seed=seed)
    from . import AIPlayer
    return AIPlayer(name, side, seed=seed)


__all__ = ["REFERENCE_BOTS", "ReferenceBot", "make_player", "best_trade", "material"]
