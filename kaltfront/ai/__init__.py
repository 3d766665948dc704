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
import time

from . import attack, search
from .common import IN_BROWSER, Budget, belief_dict, load, other, what_if
from .move import LEICHT, NORMAL, MovePlanner
from .situation import Situation

STRENGTHS = ("leicht", "normal", "schwer")

# Deterministic think budgets (engine questions per decision) and the browser's wall-clock caps (s).
NODE_BUDGET = {"leicht": 10_000, "normal": 10_000, "schwer": 900}
WALL_CAP = {"leicht": 1.0, "normal": 2.0, "schwer": 2.5}
# The browser's think allowance for a whole turn (s), all decisions together. One decision per cap
# was not enough: on a big map under fog Schwer plans its move phase again after every surprise (an
# enemy revealed, an ambush), six times a turn at Deutsche Bucht's 46 against 46 units, and took 9 s
# in Pyodide (issue 16: at most 4 s). Once the allowance is spent a decision gets MIN_WALL, which
# ends the search after the main style's plan; that plan always runs to its end (move.py), so no unit
# stands idle because the clock ran out.
TURN_CAP = {"leicht": 1.5, "normal": 2.5, "schwer": 1.5}
MIN_WALL = 0.05
MEMORY_TURNS = 2      # Schwer remembers seen enemy units this many own turns (R7)
MAX_PHASE_STEPS = 400  # safety net: a phase never takes more actions than this


class AIPlayer:
    def __init__(self, strength: str, side: str, seed: int = 0, time_limit: float | None = None,
                 turn_limit: float | None = None) -> None:
        if strength not in STRENGTHS:
            raise ValueError(f"Unbekannte Stärke: {strength!r} (leicht, normal oder schwer).")
        if side not in ("nordbund", "liga"):
            raise ValueError(f"Unbekannte Seite: {side!r}.")
        self.strength, self.side, self.seed = strength, side, seed
        self.rng = random.Random(seed)
        # The wall-clock cap only cuts a search short; native self-play uses the node budget alone.
        self.time_limit = time_limit if time_limit is not None else (WALL_CAP[strength] if IN_BROWSER else None)
        self.turn_limit = turn_limit if turn_limit is not None else (TURN_CAP[strength] if IN_BROWSER else None)
        self._turn_key = None     # (round, side) of the turn being thought about
        self._turn_spent = 0.0    # seconds of thinking in that turn so far
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
        turn = (obs["round"], obs["side"])
        if turn != self._turn_key:
            self._turn_key, self._turn_spent = turn, 0.0
        started = time.perf_counter()
        try:
            remembered = self._remember(obs)
            return self._decide(obs, remembered if self.strength == "schwer" else [])
        finally:
            self._turn_spent += time.perf_counter() - started

    def _wall(self) -> float | None:
        """This decision's wall-clock cap: the per-decision cap, within what is left of the turn's."""
        if self.time_limit is None and self.turn_limit is None:
            return None
        cap = self.time_limit if self.time_limit is not None else float("inf")
        if self.turn_limit is not None:
            cap = min(cap, max(MIN_WALL, self.turn_limit - self._turn_spent))
        return cap

    def _decide(self, obs: dict, remembered: list[dict]) -> dict:
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
        budget = Budget(NODE_BUDGET[self.strength], self._wall())
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
        replay = what_if(game)  # the belief game, fog as observed; `legal` only asked it questions
        queue = []
        for a in actions:
            if a["type"] != "end_phase":
                try:
                    replay.apply(a)
                except Exception:
                    break
            queue.append((a, game_signature(replay, self.side)))
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


def game_signature(game, side: str) -> str:
    """`signature(game.observe(side), side)` without building the whole observation (terrain and
    sight rows included): the replay of a plan asks it after every planned action (issue 16)."""
    seen = game.visible(side)
    own, foes = [], []
    for u in sorted(game.units.values(), key=lambda x: x.id):
        if u.at is None:
            continue  # cargo: inside its carrier's entry, or unseen
        at = game.hex(u.at).to_json()
        if u.side == side:
            own.append((u.id, at, u.hp, u.moved, list(u.cargo)))
        elif u.at in seen:
            foes.append((u.id, at, u.hp))
    return json.dumps([own, foes, game.money[side]], sort_keys=True)


__all__ = ["AIPlayer", "STRENGTHS", "other"]
