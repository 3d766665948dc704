"""Replays (issue 13.3): a finished game as its start position and its actions, and stepping through it.

The game replays exactly from its seed and actions (D2): a game started from a shipped scenario keeps
both (`record` in the save, actions taken back by undo removed, D16). `make_replay(g)` turns a
finished game into a replay file, `.kaltfront-replay.json`: versioned JSON holding the start position
(a save, map included, so it plays even after a shipped map changes), the actions and the result.
`load_replay` checks it like a save — every action is replayed and must be legal, and the end must be
the recorded result — and raises `ReplayError` with a German reason otherwise. A `Replay` then gives the
game after any number of actions, seen with the fog lifted, and the events of each action.
"""

from __future__ import annotations

from .actions import IllegalAction, action_from_json
from .limits import parse_json
from .rulesdata import SIDES
from .save import MAX_RECORD_ACTIONS, SaveError, game_from_dict, game_to_dict

FORMAT = "kaltfront-replay"
VERSION = 1
SUFFIX = ".kaltfront-replay.json"
CHECKPOINT_EVERY = 40  # a saved position every 40 actions: any jump replays at most 39 actions
MAX_REPLAY_CHARS = 4_000_000  # a save (at most 2 million) plus the longest record, with room
REPLAY_KEYS = {"format", "version", "start", "seed", "actions", "final", "meta"}


class ReplayError(SaveError):
    """A replay cannot be made or loaded; str(e) says why, in German."""


class ReplayStepError(ValueError):
    """A step the open replay does not have; str(e) says why, in German."""


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise ReplayError(f"Die Wiederholung ist ungültig: {message}")


def make_replay(g, meta: dict | None = None) -> dict:
    """The replay file (a dict) of a finished game started from a shipped scenario."""
    from .game import new_game
    if g.outcome is None:
        raise ReplayError("Die Partie läuft noch; eine Wiederholung gibt es erst nach ihrem Ende.")
    if g.record_actions is None or g.record_seed is None:
        raise ReplayError("Diese Partie hat keine Aufzeichnung (sie begann nicht mit einer Karte des Spiels).")
    try:
        start = new_game(g.scenario_id, seed=g.record_seed, fog=g.fog)
    except KeyError:
        raise ReplayError(f"Die Karte {g.scenario_id!r} gibt es in diesem Spiel nicht mehr.") from None
    try:
        for setup in g.record_setup:  # a Feldzug battle's reinforcements and limits (issue 15, C6, C8)
            start.campaign_setup(setup["side"], money_delta=setup["money_delta"], units=setup["units"],
                                 round_limit=setup["round_limit"])
    except IllegalAction as e:
        raise ReplayError(f"Die Aufzeichnung passt nicht zur Karte: {e}") from None
    data = {"format": FORMAT, "version": VERSION, "start": game_to_dict(start, history=False),
            "seed": g.record_seed, "actions": [a.to_json() for a in g.record_actions],
            "final": _final(g), "meta": _meta(meta or {})}
    replay = load_replay(data)  # the proof: it must replay to the very same end
    if game_to_dict(replay.state(replay.length), history=False) != game_to_dict(g, history=False):
        raise ReplayError("Die Aufzeichnung führt nicht zum Ende dieser Partie (die Karte hat sich geändert).")
    return data


def _final(g) -> dict:
    return {"round": g.round, "side": g.side, "phase": g.phase, "outcome": g.outcome.to_json(),
            "text": g.describe_outcome()}


def _meta(meta: object) -> dict:
    """Free texts the page adds (who played, when, the map's name): short strings only."""
    _need(isinstance(meta, dict) and len(meta) <= 20, "'meta' muss ein kleines Objekt sein.")
    out = {}
    for k, v in meta.items():
        if k == "players":
            _need(isinstance(v, dict) and set(v) <= set(SIDES)
                  and all(isinstance(x, str) and len(x) <= 20 for x in v.values()),
                  "meta.players muss je Seite einen kurzen Text haben.")
            out[k] = dict(v)
        else:
            _need(isinstance(k, str) and len(k) <= 40 and (v is None or isinstance(v, (str, int, float, bool)))
                  and (not isinstance(v, str) or len(v) <= 200), f"meta.{k} muss ein kurzer Wert sein.")
            out[k] = v
    return out


def load_replay(text: str | bytes | dict) -> Replay:
    if isinstance(text, (str, bytes, bytearray)):
        if len(text) > MAX_REPLAY_CHARS:
            raise ReplayError(f"Die Wiederholung ist zu groß (mehr als {MAX_REPLAY_CHARS // 1_000_000} "
                              f"Millionen Zeichen); so große Wiederholungen gibt es nicht.")
        data = parse_json(text, ReplayError, "Die Wiederholung")
    else:
        data = text
    _need(isinstance(data, dict), "erwartet ein JSON-Objekt.")
    if data.get("format") != FORMAT:
        if data.get("format") == "kaltfront-save":
            raise ReplayError("Das ist ein Spielstand, keine Wiederholung.")
        raise ReplayError("Das ist keine Kaltfront-Wiederholung.")
    version = data.get("version")
    _need(isinstance(version, int) and not isinstance(version, bool), "die Versionsnummer fehlt.")
    if version > VERSION:
        raise ReplayError(f"Diese Wiederholung stammt aus einer neueren Version von Kaltfront (Format "
                          f"{version}, dieses Spiel kennt bis {VERSION}). Bitte aktualisiere das Spiel.")
    _need(version >= 1, f"Format {version} wird nicht unterstützt.")
    unknown = sorted(str(k)[:40] for k in data if k not in REPLAY_KEYS)
    _need(not unknown, f"unbekanntes Feld {unknown[0]!r}." if unknown else "")
    start = data.get("start")
    _need(isinstance(start, dict), "die Startaufstellung ('start') fehlt.")
    start = {k: v for k, v in start.items() if k not in ("undo", "record")}
    try:
        game = game_from_dict(start)
    except SaveError as e:
        raise ReplayError(f"{e} (in der Startaufstellung der Wiederholung)") from None
    _need(game.outcome is None, "die Startaufstellung ist schon eine beendete Partie.")
    raw = data.get("actions")
    _need(isinstance(raw, list) and len(raw) <= MAX_RECORD_ACTIONS,
          f"'actions' muss eine Liste mit höchstens {MAX_RECORD_ACTIONS} Aktionen sein.")
    final = data.get("final")
    _need(isinstance(final, dict) and set(final) <= {"round", "side", "phase", "outcome", "text"}
          and isinstance(final.get("text", ""), str) and len(final.get("text", "")) <= 200,
          "das Ergebnis ('final') fehlt oder hat unbekannte Felder.")
    meta = _meta(data.get("meta") or {})
    return Replay(game, raw, final, meta)


class Replay:
    """A checked replay: `state(n)` is the game after n actions, `events[k]` what action k did."""

    def __init__(self, game, raw_actions: list, final: dict, meta: dict) -> None:
        self.meta = meta
        self.actions = []
        self.events: list[list[dict]] = []
        self.phases: list[dict] = []  # where each phase begins: round, side, phase, action index
        self._checkpoints: dict[int, dict] = {}
        g = game
        g.record_actions = None  # the replay's own copy needs no record of itself
        self._mark_phase(g, 0)
        for k, raw in enumerate(raw_actions):
            if k % CHECKPOINT_EVERY == 0:
                self._checkpoints[k] = game_to_dict(g, history=False)
            where = f"Aktion {k + 1}"
            try:
                action = action_from_json(raw)
                events = g.apply(action)
            except IllegalAction as e:
                raise ReplayError(f"Die Wiederholung ist ungültig: {where} ist nicht erlaubt: {e}") from None
            self.actions.append(action)
            self.events.append(events)
            if any(e["type"] == "phase" for e in events) and g.outcome is None:
                self._mark_phase(g, k + 1)
        _need(g.outcome is not None, "die Aktionen führen nicht bis zum Ende der Partie.")
        got = _final(g)
        _need(all(final.get(key) == got[key] for key in ("round", "side", "phase", "outcome")),
              "das aufgezeichnete Ergebnis passt nicht zu den Aktionen.")
        self.final = got
        self.length = len(self.actions)
        self._checkpoints[self.length] = game_to_dict(g, history=False)

    def _mark_phase(self, g, index: int) -> None:
        self.phases.append({"round": g.round, "side": g.side, "phase": g.phase, "index": index})

    def state(self, n: int):
        """The game after the first n actions (0: the start), as a fresh Game."""
        if not (isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= self.length):
            raise ReplayStepError(f"Schritt {str(n)[:20]} gibt es nicht; die Wiederholung hat {self.length} Aktionen.")
        base = max(k for k in self._checkpoints if k <= n)
        g = game_from_dict(self._checkpoints[base])
        for a in self.actions[base:n]:
            g.apply(a)
        return g

    def round_start(self, round_: int) -> int:
        """The action index where the given round begins (its first phase)."""
        for p in self.phases:
            if p["round"] >= round_:
                return p["index"]
        return self.length

    def summary(self) -> dict:
        return {"length": self.length, "phases": self.phases, "final": self.final, "meta": self.meta,
                "rounds": max(p["round"] for p in self.phases)}

    def view(self, n: int, recent: int = 0) -> dict:
        """Step n for the viewer: the position with the fog lifted (the game is over, R20 no longer
        hides anything) and, newest first, the last `recent` actions with their events."""
        from .logtext import log_lines
        g = self.state(n)
        g.fog = False
        g.invalidate()
        obs = g.observe(g.side)
        obs["viewer"] = None
        # The Protokoll's lines, written by the engine as in the game (fog lifted: every event shows).
        log = [{"index": k + 1, "action": self.actions[k].to_json(), "events": self.events[k],
                "lines": log_lines(g, self.events[k], g.side)}
               for k in range(n - 1, max(0, n - recent) - 1, -1)]
        return {"index": n, "length": self.length, "observation": obs, "recent": log}
