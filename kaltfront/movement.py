"""Movement (R13–R19, R21, D12): which hexes a unit can reach, by which path, and walking it with ambushes.

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
    """Result of a movement search from a unit's hex (R14, R15, R18, D12).

    Two budgets: the path's terrain costs must fit the movement points and its number of hexes the
    fuel left (D12). `layers[k]` holds, for every hex whose cheapest cost with at most k hexes is lower
    than with k - 1, that cost and the previous hex (which itself sits in `layers[k - 1]`). So the
    labels of a hex over the layers are its Pareto front of (hexes, points), and a path is read back
    layer by layer."""
    start: int
    layers: list[dict[int, tuple[int, int]]]  # k -> {hex: (points, previous hex)}
    chosen: dict[int, int]   # hex -> layer (= hexes entered) of the path a move takes
    cost: dict[int, int]     # hex -> movement points of that path (every hex reached, own units' too)
    destinations: list[int]  # hexes the unit may end on (free as far as the side knows)

    def hexes(self, to: int) -> int:
        """Hexes entered (= fuel used, D12) on the chosen path to `to`."""
        return self.chosen[to]

    def path(self, to: int, layer: int | None = None) -> list[int]:
        k = self.chosen[to] if layer is None else layer
        path = [to]
        while k > 0:
            path.append(self.layers[k][path[-1]][1])
            k -= 1
        path.reverse()
        return path

    def cheapest_within(self, to: int, max_hexes: int) -> tuple[int, int] | None:
        """(points, layer) of the cheapest path to `to` entering at most `max_hexes` hexes, or None."""
        for k in range(min(max_hexes, len(self.layers) - 1), -1, -1):
            label = self.layers[k].get(to)
            if label is not None:
                return label[0], k
        return None


def blocked_hexes(state: GameState, side: str, seen: frozenset[int]) -> set[int]:
    """Hexes holding an enemy the side can see: it can neither pass nor enter them (R16, R19)."""
    return {i for i, uid in state.board.items() if state.units[uid].side != side and i in seen}


def search(state: GameState, u: Unit, seen: frozenset[int]) -> Search:
    """Every hex the unit can reach within its movement points and its fuel (R14, R18, D12), with the
    full-points exception (R15): a unit may always enter one adjacent passable hex, for 1 fuel.

    A breadth-first sweep by number of hexes entered: layer k improves the cheapest cost of every hex
    reachable with k hexes. Every hex costs at least 1 point, so there are at most `move` layers, and
    at most `fuel` when fuel is shorter (D12). A unit that burns fuel takes the path with the fewest
    hexes and then the fewest points (its points are spent whatever the path, R13; its fuel is not);
    a unit without fuel takes the cheapest path."""
    start = u.at
    assert start is not None
    points = u.utype.move
    max_hexes = points if u.fuel is None else min(points, u.fuel)
    costs = terrain_costs(state, u.utype.movement)
    blocked = blocked_hexes(state, u.side, seen)
    neighbours = state.grid.neighbours
    best = {start: 0}
    layers: list[dict[int, tuple[int, int]]] = [{start: (0, start)}]
    frontier = {start: 0}
    for _ in range(max_hexes):
        layer: dict[int, tuple[int, int]] = {}
        for i, d in frontier.items():
            for n in neighbours[i]:
                c = costs[n]
                if c is None:
                    continue
                nd = d + c
                if nd <= points and nd < best.get(n, 1 << 30) and n not in blocked:
                    label = layer.get(n)
                    if label is None or nd < label[0]:
                        layer[n] = (nd, i)
        if not layer:
            break
        frontier = {}
        for n, label in layer.items():
            best[n] = frontier[n] = label[0]
        layers.append(layer)
    chosen: dict[int, int] = {}
    if u.fuel is None:
        for k, layer in enumerate(layers):  # the last layer a hex improves in is its cheapest
            for n in layer:
                chosen[n] = k
    else:
        for k in range(len(layers) - 1, -1, -1):  # the first layer a hex appears in: fewest hexes
            for n in layers[k]:
                chosen[n] = k
    # R15: with full movement points (every unit that may still move has them), one step is always
    # possible, whatever it costs — as long as there is fuel for one hex (D12).
    if u.fuel is None or u.fuel >= 1:
        for n in neighbours[start]:
            c = costs[n]
            if c is not None and n not in blocked and n not in chosen:
                if len(layers) == 1:
                    layers.append({})
                layers[1][n] = (c, start)
                chosen[n] = 1
    board = state.board
    units = state.units
    dests = []
    for i in chosen:
        if i == start:
            continue
        occupant = board.get(i)
        # The destination must be free (R16). A hidden enemy looks free: walking finds it (R21).
        if occupant is None or (units[occupant].side != u.side and i not in seen):
            dests.append(i)
    dests.sort()
    cost = {i: layers[k][i][0] for i, k in chosen.items()}
    return Search(start, layers, chosen, cost, dests)


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
