"""The computer opponent (R4–R7): `AIPlayer(strength, side, seed=...)` with strength "leicht", "normal"
or "schwer"; `player.next_action(observation)` returns one action as JSON (docs/api.md).

The caller applies each action to the real game and calls again with the new `game.observe(side)`;
the AI ends each phase itself with `{"type": "end_phase"}`. It decides only from the observation and
its own memory of earlier observations (R4): a belief game is built from them (common.py) and every
rule question is asked of the engine on that belief game. Decisions are deterministic for a given seed
and observation sequence; think time is a node budget, so a seeded self-play game replays exactly.
How each strength decides: docs/ai.md.
"""

from __future__ import annotations

import json
import random

from . import attack, search
from .common import IN_BROWSER, Budget, belief_dict, load, other
from .move import LEICHT, NORMAL, MovePlanner
from .situation import Situation

STRENGTHS = ("leicht", "normal", "schwer")

# Deterministic think budgets (engine questions per decision) and the browser's wall-clock caps (s).
NODE_BUDGET = {"leicht": 10_000, "normal": 10_000, "schwer": 900}
WALL_CAP = {"leicht": 1.0, "normal": 2.0, "schwer": 2.5}
MEMORY_TURNS = 2      # Schwer remembers seen enemy units this many own turns (R7)
MAX_PHASE_STEPS = 400  # safety net: a phase never takes more actions than this


class AIPlayer:
    def __init__(self, strength: str, side: str, seed: int = 0, time_limit: float | None = None) -> None:
        if strength not in STRENGTHS:
            raise ValueError(f"Unbekannte Stärke: {strength!r} (leicht, normal oder schwer).")
        if side not in ("nordbund", "liga"):
            raise ValueError(f"Unbekannte Seite: {side!r}.")
        self.strength, self.side, self.seed = strength, side, seed
        self.rng = random.Random(seed)
        # The wall-clock cap only cuts a search short; native self-play uses the node budget alone.
        self.time_limit = time_limit if time_limit is not None else (WALL_CAP[strength] if IN_BROWSER else None)
        self.memory: dict[int, tuple[dict, int]] = {}   # enemy id -> (last view, round seen)
        self.seen_types: dict[str, str] = {}             # enemy id -> type, seen within memory
        self._phase_key = None
        self._queue: list[tuple[dict, str]] = []         # (action, expected signature after it)
        self._expect: str | None = None
        self._steps = 0
        self.last_variant = ""

    # -- memory (observations only) ----------------------------------------------------------------
    def _remember(self, obs: dict) -> list[dict]:
        rnd = obs["round"]
        vis = obs["visible"]
        seen_now = set()
        for u in obs["units"]:
            if u["side"] != self.side:
                self.memory[u["id"]] = (dict(u), rnd)
                seen_now.add(u["id"])
        out = []
        for uid in sorted(self.memory):
            u, when = self.memory[uid]
            c, r = u["at"]
            if uid in seen_now:
                continue
            if rnd - when > MEMORY_TURNS or vis[r][c] == "1":
                del self.memory[uid]  # too old, or its hex is in sight and it is gone
                continue
            out.append(u)
        self.seen_types = {str(uid): self.memory[uid][0]["type"] for uid in sorted(self.memory)}
        return out

    # -- the one entry point ----------------------------------------------------------------------------
    def next_action(self, observation: dict) -> dict:
        obs = observation
        if obs.get("outcome") is not None or obs.get("side") != self.side:
            return {"type": "end_phase"}
        remembered = self._remember(obs)
        if self.strength != "schwer":
            remembered = []
        key = (obs["round"], obs["phase"])
        if key != self._phase_key:
            self._phase_key, self._queue, self._expect, self._steps = key, [], None, 0
        self._steps += 1
        if self._steps > MAX_PHASE_STEPS:
            return {"type": "end_phase"}
        belief = belief_dict(obs, self.side, remembered)
        game = load(belief)
        # Every action is checked against the belief game built with the observation's fog setting,
        # whose legal actions equal the real game's for this side; `is_legal` gives the same answer
        # as the full `legal_actions()` list for one unit's search instead of one per unit.
        legal = game.is_legal
        budget = Budget(NODE_BUDGET[self.strength], self.time_limit)
        if obs["phase"] == "attack":
            action = self._attack(game, belief, Situation(obs, belief, self.side), budget)
        else:
            action = self._move(obs, game, belief, budget, legal)
        if action is None or not legal(action):
            action = {"type": "end_phase"}
        return action

    def _attack(self, game, belief, sit, budget) -> dict | None:
        if self.strength == "leicht":
            return attack.leicht(game, belief, sit)
        if self.strength == "normal":
            return attack.normal(game, belief, sit)
        return attack.schwer(game, belief, sit, budget)

    def _move(self, obs, game, belief, budget, legal) -> dict:
        sig = signature(obs, self.side)
        if self._queue and self._expect == sig and legal(self._queue[0][0]):
            action, self._expect = self._queue.pop(0)
            return action
        sit = Situation(obs, belief, self.side)  # only when planning: the queue needs none
        # First call of the phase, or the world turned out differently (an ambush, a unit
        # revealed): plan the rest of the phase again from what is known now. The planning copy
        # has fog switched off: it holds only units the AI knows of anyway, so this changes no
        # answer that matters (remembered units merely count as obstacles) and saves the engine
        # recomputing sight after every trial move. The real legality check below uses `legal`.
        fast = dict(belief, fog=False)
        if self.strength == "schwer":
            actions, self.last_variant = search.plan(fast, sit, self.rng, budget, self.seen_types)
        else:
            style = LEICHT if self.strength == "leicht" else NORMAL
            actions = MovePlanner(load(fast), sit, style, self.rng, budget).plan()
        # Expected observation after each action, to notice surprises.
        replay = load(belief)
        queue = []
        for a in actions:
            if a["type"] != "end_phase":
                try:
                    replay.apply(a)
                except Exception:
                    break
            queue.append((a, signature(replay.observe(self.side), self.side)))
        if not queue:
            return {"type": "end_phase"}
        action, self._expect = queue[0]
        self._queue = queue[1:]
        return action


def signature(obs: dict, side: str) -> str:
    """What the AI expects to see after an action: own units, visible enemies, own money."""
    own, foes = [], []
    for u in obs["units"]:
        if u["side"] == side:
            own.append((u["id"], u["at"], u["hp"], u["moved"], [c["id"] for c in u.get("cargo") or []]))
        else:
            foes.append((u["id"], u["at"], u["hp"]))
    return json.dumps([own, foes, obs["money"].get(side)], sort_keys=True)


__all__ = ["AIPlayer", "STRENGTHS", "other"]
