"""Movement (R13–R19, R21): which hexes a unit can reach, by which path, and walking it with ambushes.

The search uses only what the moving side can see: a visible enemy blocks (R16, R19), a hidden one does
not, so neither the UI nor the AI learns anything it could not see. Walking the chosen path then meets
the truth: a hidden enemy on the path stops the unit on the hex before it (ambush, R21).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from .rulesdata import RULES
from .state import GameState, Unit

def terrain_costs(state: GameState, movement_class: str) -> list[int | None]:
    """Cost to enter each hex for one movement class (R14, R17, R47); None = impassable.

    Kept per game (terrain never changes during a game)."""
    costs = state._cost_cache.get(movement_class)
    if costs is None:
        costs = [RULES.terrain[t].cost[movement_class] for t in state.terrain]
        state._cost_cache[movement_class] = costs
    return costs


@dataclass
class Search:
    """Result of a movement search from a unit's hex."""
    start: int
    cost: dict[int, int]     # hex -> cheapest known cost (passable hexes, own units included)
    prev: dict[int, int]     # hex -> previous hex on that cheapest path
    destinations: list[int]  # hexes the unit may end on (free as far as the side knows)

    def path(self, to: int) -> list[int]:
        path = [to]
        while path[-1] != self.start:
            path.append(self.prev[path[-1]])
        path.reverse()
        return path


def blocked_hexes(state: GameState, side: str, seen: frozenset[int]) -> set[int]:
    """Hexes holding an enemy the side can see: it can neither pass nor enter them (R16, R19)."""
    return {i for i, uid in state.board.items() if state.units[uid].side != side and i in seen}


def search(state: GameState, u: Unit, seen: frozenset[int]) -> Search:
    """Dijkstra over terrain costs within the unit's budget (R14, R18), with the full-points
    exception (R15): a unit may always enter one adjacent passable hex."""
    start = u.at
    assert start is not None
    budget = state.move_budget(u)
    costs = terrain_costs(state, u.utype.movement)
    blocked = blocked_hexes(state, u.side, seen)
    neighbours = state.grid.neighbours
    best = {start: 0}
    prev: dict[int, int] = {}
    heap = [(0, start)]
    while heap:
        d, i = heapq.heappop(heap)
        if d > best[i]:
            continue
        for n in neighbours[i]:
            c = costs[n]
            if c is None or n in blocked:
                continue
            nd = d + c
            if nd <= budget and nd < best.get(n, 1 << 30):
                best[n] = nd
                prev[n] = i
                heapq.heappush(heap, (nd, n))
    # R15: with full movement points (every unit that may still move has them), one step is always
    # possible, whatever it costs — as long as there is fuel for one hex.
    if u.fuel is None or u.fuel >= 1:
        for n in neighbours[start]:
            c = costs[n]
            if c is not None and n not in blocked and n not in best:
                best[n] = c
                prev[n] = start
    board = state.board
    dests = []
    for i in best:
        if i == start:
            continue
        occupant = board.get(i)
        # The destination must be free (R16). A hidden enemy looks free: walking finds it (R21).
        if occupant is None or (state.units[occupant].side != u.side and i not in seen):
            dests.append(i)
    dests.sort()
    return Search(start, best, prev, dests)


def walk(state: GameState, u: Unit, path: list[int]) -> tuple[int, int | None]:
    """Walk `path` (start first) as far as the truth allows.

    Returns (index in path where the unit stops, hex of the hidden enemy that ambushed it or None).
    The unit stops on the hex before a hidden enemy (R21). It may have been passing through own units
    there; since it cannot end on an occupied hex (R16), it falls back to the last free hex it passed."""
    for k in range(1, len(path)):
        occupant = state.unit_at(path[k])
        if occupant is not None and occupant.side != u.side:
            stop = k - 1
            while stop > 0 and state.board.get(path[stop]) is not None:
                stop -= 1
            return stop, path[k]
    return len(path) - 1, None
