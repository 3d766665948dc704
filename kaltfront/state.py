"""The game state: map, units, buildings, money, turn and the random generator.

Plain data plus small look-ups. The rules that change it live in their own modules (movement, combat,
transport, buildings, fog, victory) and the turn flow in game.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .hexgrid import Grid, Hex
from .rulesdata import RULES, Terrain, UnitType

_GRIDS: dict[tuple[int, int], Grid] = {}


def grid_for(width: int, height: int) -> Grid:
    key = (width, height)
    if key not in _GRIDS:
        _GRIDS[key] = Grid(width, height)
    return _GRIDS[key]


@dataclass
class Unit:
    id: int
    type: str
    side: str
    at: int | None  # hex index; None while carried as cargo
    hp: int = 10
    level: int = 0
    ammo: int | None = None  # None: unarmed, or Blitz (R67)
    fuel: int | None = None  # None: foot unit, or Blitz (R67)
    moved: bool = False
    attacked: bool = False
    cargo: list[int] = field(default_factory=list)
    carried_by: int | None = None

    @property
    def utype(self) -> UnitType:
        return RULES.units[self.type]


@dataclass
class Building:
    at: int
    type: str
    owner: str | None
    name: str = ""
    capture_side: str | None = None  # a Jäger's capture in progress (R35)
    capture_unit: int | None = None


@dataclass
class Outcome:
    """How the game ended: winner is a side or None for a draw."""
    winner: str | None
    reason: str  # "hq" | "no_army" | "round_limit" | "surrender"

    def to_json(self) -> dict:
        return {"winner": self.winner, "reason": self.reason}


class GameState:
    """Everything a save holds. `Game` (game.py) adds the rules on top."""

    def __init__(self) -> None:
        self.scenario_id = ""
        self.name = ""
        self.briefing = ""
        self.objectives: dict[str, str] = {}
        self.region = ""
        self.width = 0
        self.height = 0
        self.grid: Grid = grid_for(1, 1)
        self.terrain: list[str] = []
        self.blitz = False
        self.fog = False
        self.round_limit: int | None = None
        self.first = "nordbund"
        self.round = 1
        self.side = "nordbund"
        self.phase = "move"
        self.money: dict[str, int] = {"nordbund": 0, "liga": 0}
        self.units: dict[int, Unit] = {}
        self.board: dict[int, int] = {}  # hex index -> id of the unit standing there (cargo excluded)
        self.buildings: dict[int, Building] = {}
        self.rng = 0
        self.next_id = 1
        self.outcome: Outcome | None = None
        # Undo within the phase (D16, kaltfront/undo.py): state after the last action that cannot be
        # taken back, the undoable actions since, and why nothing before them can be undone.
        self.undo_base: dict | None = None
        self.undo_actions: list = []
        self.undo_block = "phase"
        # False for the AI's what-if copies (ai/common.py): a position that is only asked about needs no
        # undo history, and keeping one costs two sight computations per action under fog.
        self.keep_undo = True
        # Replay record (issue 13): the seed the game started from and every action since; None for
        # a position that did not start from a shipped scenario.
        self.record_seed: int | None = None
        self.record_actions: list | None = None
        self.record_setup: list[dict] = []  # campaign_setup calls before the first action (issue 15)
        # Units built, lost and destroyed per side, for the end screen (issue 11.11); kept in the save.
        self.stats: dict[str, dict[str, int]] = {s: {"built": 0, "lost": 0, "destroyed": 0}
                                                  for s in ("nordbund", "liga")}
        self._visible_cache: dict[str, frozenset[int]] = {}
        self._cost_cache: dict[str, list[int | None]] = {}  # movement class -> cost per hex

    # -- look-ups ---------------------------------------------------------------------------
    def terrain_at(self, i: int) -> Terrain:
        return RULES.terrain[self.terrain[i]]

    def unit_at(self, i: int) -> Unit | None:
        uid = self.board.get(i)
        return self.units[uid] if uid is not None else None

    def units_of(self, side: str) -> list[Unit]:
        """A side's units on the map (cargo excluded), in id order."""
        return [u for u in self.units.values() if u.side == side and u.at is not None]

    def unit_count(self, side: str) -> int:
        """All units of a side, cargo included (D9)."""
        return sum(1 for u in self.units.values() if u.side == side)

    def hex(self, i: int) -> Hex:
        return self.grid.hex(i)

    def index(self, h: Hex) -> int | None:
        return self.grid.index(h) if self.grid.contains(h) else None

    def invalidate(self) -> None:
        """Forget cached answers after any change of the state."""
        self._visible_cache.clear()

    # -- unit bookkeeping -------------------------------------------------------------------
    def new_unit(self, side: str, utype: str, at: int | None, **values) -> Unit:
        ut = RULES.units[utype]
        u = Unit(id=self.next_id, type=utype, side=side, at=at,
                 ammo=None if self.blitz else ut.ammo, fuel=None if self.blitz else ut.fuel)
        for k, v in values.items():
            setattr(u, k, v)
        self.next_id += 1
        self.units[u.id] = u
        if at is not None:
            self.board[at] = u.id
        return u

    def remove_unit(self, u: Unit) -> list[int]:
        """Remove a unit and its cargo (R27, R46); returns the ids of the lost cargo."""
        lost = []
        for cid in list(u.cargo):
            lost.append(cid)
            lost.extend(self.remove_unit(self.units[cid]))
        if u.at is not None and self.board.get(u.at) == u.id:
            del self.board[u.at]
        if u.carried_by is not None:
            carrier = self.units.get(u.carried_by)
            if carrier is not None and u.id in carrier.cargo:
                carrier.cargo.remove(u.id)
        for b in self.buildings.values():
            if b.capture_unit == u.id:
                b.capture_side = b.capture_unit = None
        del self.units[u.id]
        return lost

    def place(self, u: Unit, to: int) -> None:
        """Move a unit on the board; leaving a building resets its capture progress (R35)."""
        if u.at is not None:
            if self.board.get(u.at) == u.id:
                del self.board[u.at]
            self.clear_capture_of(u)
        u.at = to
        self.board[to] = u.id

    def clear_capture_of(self, u: Unit) -> None:
        if u.at is not None:
            b = self.buildings.get(u.at)
            if b is not None and b.capture_unit == u.id:
                b.capture_side = b.capture_unit = None

    def has_ammo(self, u: Unit) -> bool:
        """Armed and with a shot left; Blitz counts no ammunition (R31, R67)."""
        return u.utype.armed and (self.blitz or (u.ammo or 0) > 0)
