"""The browser worker's door to the engine: one JSON request in, one JSON reply out.

`pwa/worker.js` calls `handle(text)`. A request is `{"op": ..., "args": {...}}`; the reply is
`{"ok": true, "result": ...}` or `{"ok": false, "error": {"kind": ..., "message": <German>}}`.
The session holds one game and who plays each side (a person or a computer strength). Everything the
page gets is what its viewer may see (observe, filtered events): the page never holds hidden state.

Whatever JSON arrives, the reply is well-formed: an unknown op or argument, a wrong type at any depth,
a number of thousands of digits or nesting thousands deep all get an error reply with a German
message, and a request that fails changes nothing in the session (issue 10). A surrender is
accepted only for a side a person plays in this session: the page cannot give up for the computer.
"""

from __future__ import annotations

import functools
import json
import sys
import traceback

from . import __version__, rules, scenarios
from .actions import IllegalAction, Surrender, action_from_json
from .game import Game, new_game
from .hexgrid import parse_hex
from .limits import is_seed, show, too_deep
from .logtext import log_lines
from .rulesdata import SIDE_NAMES, SIDES
from .save import SaveError

STRENGTHS = ("leicht", "normal", "schwer")

# The arguments each op takes; any other key is refused (docs/api.md, "Worker bridge").
OP_ARGS: dict[str, set[str]] = {
    "version": set(), "rules": set(), "scenarios": set(), "save": set(), "can_act": set(),
    "legal_actions": set(),
    "new_game": {"scenario", "seed", "fog", "players", "viewer"},
    "load": {"save", "players", "viewer"},
    "observe": {"side"},
    "reachable": {"unit"}, "load_options": {"unit"}, "attack_options": {"unit"},
    "unload_options": {"transport"}, "build_options": {"at"},
    "apply": {"action"},
    "ai_step": {"strength"},  # pwa/worker.js passes ai_turn's arguments on; the strength is fixed at the start
    "summary": set(),  # the end screen's figures, only once the game is over (issue 11.11)
    # issue 13: undo (D16), enemy fire zones, replays
    "can_undo": set(), "undo": set(), "fire_zones": {"target", "enemy"},
    "replay_export": {"meta"}, "replay_open": {"replay"}, "replay_view": {"index", "recent"},
    "replay_round": {"round"},
}
# The Feldzug ops (issue 15), dispatched to campaign/session.py; named here so the module is imported
# only when one is first used (boot unchanged).
CAMPAIGN_OP_NAMES = ("campaign_new", "campaign_load", "campaign_save", "campaign_observe", "campaign_apply",
                     "campaign_ai", "campaign_battle")


class BadRequest(ValueError):
    pass


class Session:
    def __init__(self) -> None:
        self.game: Game | None = None
        self.players: dict[str, str] = {"nordbund": "human", "liga": "human"}
        self.fixed_viewer: str | None = None
        self.ai: dict[str, object] = {}
        self.replay = None  # the replay being watched (issue 13.3), apart from the game
        self.campaign = None  # a Feldzug (issue 15); its ops live in campaign/session.py
        self.campaign_players: dict[str, str] = {"nordbund": "human", "liga": "normal"}

    # Who looks at the screen: the one person against the computer; in hot-seat the side to act;
    # when the computer plays both sides, the side named at the start (default Nordbund).
    def viewer(self) -> str:
        g = self._game()
        humans = [s for s in SIDES if self.players[s] == "human"]
        if len(humans) == 1:
            return humans[0]
        if len(humans) == 2:
            return g.side
        return self.fixed_viewer or "nordbund"

    def _game(self) -> Game:
        if self.game is None:
            raise BadRequest("Es läuft kein Spiel.")
        return self.game

    @staticmethod
    def _check_players(players: object) -> dict[str, str]:
        """Who plays each side, checked but not yet taken over (a failing request changes nothing)."""
        if players is None:
            players = {"nordbund": "human", "liga": "leicht"}
        if not isinstance(players, dict) or set(players) != set(SIDES) or not all(
                isinstance(p, str) and p in ("human",) + STRENGTHS for p in players.values()):
            raise BadRequest("players braucht nordbund und liga: human, leicht, normal oder schwer.")
        return dict(players)

    @staticmethod
    def _check_viewer(viewer: object) -> str | None:
        if viewer is not None and viewer not in SIDES:
            raise BadRequest("viewer muss nordbund, liga oder null sein.")
        return viewer

    def _start(self, game: Game, players: dict[str, str], viewer: str | None) -> None:
        self.game, self.players, self.fixed_viewer, self.ai = game, players, viewer, {}

    def log_sides(self) -> list[str]:
        """The sides that keep a Protokoll: each person at the screen, else the one watched (D15)."""
        humans = [s for s in SIDES if self.players[s] == "human"]
        return humans or [self.viewer()]

    def log(self, events: list[dict]) -> dict:
        """Protokoll lines per side, each built only from what that side saw (D15)."""
        g = self._game()
        return {s: log_lines(g, events, s) for s in self.log_sides()}

    def view(self) -> dict:
        g = self._game()
        v = self.viewer()
        return {"observation": g.observe(v), "viewer": v, "players": dict(self.players),
                "outcome_text": g.describe_outcome(), "undo": self._undo_state()}

    def _undo_state(self) -> dict:
        """g.can_undo() for the person at the screen (D16); the computer's actions are not theirs."""
        g = self._game()
        if g.outcome is None and self.players.get(g.side) != "human":
            return {"ok": False, "reason": "Der Computer ist am Zug", "code": "computer", "steps": 0}
        return g.can_undo()

    # -- operations ---------------------------------------------------------------------------
    def op_version(self, args: dict) -> dict:
        return {"engine": "kaltfront", "version": __version__, "python": sys.version.split()[0]}

    def op_rules(self, args: dict) -> dict:
        return rules()

    def op_scenarios(self, args: dict) -> list:
        return scenarios()

    def op_new_game(self, args: dict) -> dict:
        sid = args.get("scenario")
        seed = args.get("seed", 0)
        if not is_seed(seed):
            raise BadRequest("seed muss eine ganze Zahl sein (höchstens 20 Stellen).")
        fog = args.get("fog", True)
        if not isinstance(fog, bool):
            raise BadRequest("fog muss true oder false sein.")
        players = self._check_players(args.get("players"))
        viewer = self._check_viewer(args.get("viewer"))
        try:
            game = new_game(sid, seed=seed, fog=fog)
        except KeyError:
            raise BadRequest(f"Das Szenario {show(sid)} gibt es nicht.") from None
        self._start(game, players, viewer)
        return self.view()

    def op_load(self, args: dict) -> dict:
        save = args.get("save", "")
        if not isinstance(save, (str, dict)):
            raise SaveError("Der Spielstand muss Text (JSON) oder ein JSON-Objekt sein.")
        players = self._check_players(self.players if args.get("players") is None else args["players"])
        viewer = self._check_viewer(args.get("viewer"))
        self._start(Game.from_json(save), players, viewer)
        return self.view()

    def op_save(self, args: dict) -> str:
        return self._game().to_json()

    def op_observe(self, args: dict) -> dict:
        self._check_viewer(args.get("side"))  # the session knows who looks; a side, if given, must be one
        return self.view()

    def op_reachable(self, args: dict) -> list:
        return self._game().reachable(args.get("unit"))

    def op_load_options(self, args: dict) -> list:
        return self._game().load_options(args.get("unit"))

    def op_unload_options(self, args: dict) -> list:
        return self._game().unload_options(args.get("transport"))

    def op_attack_options(self, args: dict) -> dict:
        g = self._game()
        uid = args.get("unit")
        return {"targets": g.attack_options(uid), "range": g.attack_range(uid)}

    def op_build_options(self, args: dict) -> list:
        try:
            at = parse_hex(args.get("at"))
        except ValueError as e:  # parse_hex's message is German
            raise BadRequest(str(e)) from None
        return self._game().build_options(at)

    def op_can_act(self, args: dict) -> dict:
        return self._game().units_that_can_act()

    def op_summary(self, args: dict) -> dict:
        """The end screen's figures (issue 11.11); only once the game is over, since under fog they
        would tell a player what the enemy built and holds."""
        g = self._game()
        if g.outcome is None:
            raise BadRequest("Das Spiel läuft noch; die Bilanz gibt es erst am Spielende.")
        from .victory import end_summary
        return end_summary(g)

    def op_legal_actions(self, args: dict) -> list:
        return [a.to_json() for a in self._game().legal_actions()]

    def op_apply(self, args: dict) -> dict:
        g = self._game()
        action = action_from_json(args.get("action"))
        if isinstance(action, Surrender):
            # The page may give up only for a side a person plays here, never for the computer.
            if self.players.get(action.side) != "human":
                raise IllegalAction(f"{SIDE_NAMES[action.side]} spielt der Computer; nur wer selbst "
                                    f"spielt, kann aufgeben.")
        elif self.players.get(g.side) != "human":
            raise IllegalAction("Der Computer ist am Zug.")
        viewer = self.viewer()
        events = g.apply(action)
        return {"events": g.observe_events(events, viewer), "log": self.log(events), **self.view()}

    def op_fire_zones(self, args: dict) -> dict:
        """Enemy fire zones for the person at the screen (issue 13.2): only enemies they can see."""
        target, enemy = args.get("target"), args.get("enemy")
        if target is not None and (isinstance(target, bool) or not isinstance(target, (int, str))):
            raise BadRequest("target muss eine Einheitennummer oder ein Einheitentyp sein.")
        if enemy is not None and (isinstance(enemy, bool) or not isinstance(enemy, int)):
            raise BadRequest("enemy muss eine Einheitennummer sein.")
        return self._game().fire_zones(self.viewer(), target, enemy)

    # -- replays (issue 13.3) -------------------------------------------------------------------
    def op_replay_export(self, args: dict) -> dict:
        """The replay file of the finished game; a running game has none."""
        from .replay import make_replay
        meta = args.get("meta") or {}
        if not isinstance(meta, dict):
            raise BadRequest("meta muss ein Objekt sein.")
        return make_replay(self._game(), {"players": dict(self.players), **meta})

    def op_replay_open(self, args: dict) -> dict:
        from .replay import load_replay
        self.replay = load_replay(args.get("replay"))
        return {**self.replay.summary(), "view": self.replay.view(0)}

    def _replay(self):
        if self.replay is None:
            raise BadRequest("Es ist keine Wiederholung geöffnet.")
        return self.replay

    def op_replay_view(self, args: dict) -> dict:
        recent = args.get("recent", 0)
        if not isinstance(recent, int) or isinstance(recent, bool) or not 0 <= recent <= 100:
            raise BadRequest("recent muss eine Zahl von 0 bis 100 sein.")
        return self._replay().view(args.get("index"), recent)

    def op_replay_round(self, args: dict) -> dict:
        r = args.get("round")
        if not isinstance(r, int) or isinstance(r, bool):
            raise BadRequest("round muss eine ganze Zahl sein.")
        return {"index": self._replay().round_start(r)}

    def op_can_undo(self, args: dict) -> dict:
        return self._undo_state()

    def op_undo(self, args: dict) -> dict:
        """Take back the last action of the phase (D16); the reply is shaped like `apply`'s."""
        g = self._game()
        state = self._undo_state()
        if not state["ok"]:
            raise IllegalAction(f"Zurücknehmen geht nicht: {state['reason']}.")
        events = g.undo()
        return {"events": g.observe_events(events, self.viewer()), "log": self.log(events), **self.view()}

    def op_ai_step(self, args: dict) -> dict:
        """One action of the computer for the side to act; the page calls it until `done`."""
        g = self._game()
        side = g.side
        strength = self.players.get(side)
        if g.outcome is not None or strength not in STRENGTHS:
            return {"done": True, **self.view()}
        player = self.ai.get(side)
        if player is None:
            from .ai import AIPlayer
            player = self.ai[side] = AIPlayer(strength, side, seed=g.rng % 1_000_003)
        viewer = self.viewer()
        try:
            action = player.next_action(g.observe(side))
            events = g.apply(action)
        except Exception:
            # The AI only proposes legal actions; should it ever fail or propose an illegal one,
            # that is a bug in the AI: log it for whoever debugs it (the browser console), and end
            # the computer's phase rather than stall the game for the player.
            traceback.print_exc()
            action = {"type": "end_phase"}
            events = g.apply(action)
        done = g.outcome is not None or g.side != side
        return {"action": action, "events": g.observe_events(events, viewer), "log": self.log(events),
                "done": done, **self.view()}


SESSION = Session()


def _parse(text: object) -> tuple[str, dict]:
    """The op and its arguments from a request's text; BadRequest (German) for anything else."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise BadRequest("Die Anfrage muss JSON-Text sein.")
    if too_deep(text):
        raise BadRequest("Die Anfrage ist zu tief verschachtelt.")
    try:
        request = json.loads(text)
    except RecursionError:
        raise BadRequest("Die Anfrage ist zu tief verschachtelt.") from None
    except json.JSONDecodeError:
        raise BadRequest("Die Anfrage ist kein gültiges JSON.") from None
    except ValueError:  # UnicodeDecodeError, or an integer of thousands of digits (int-str limit)
        raise BadRequest("Die Anfrage ist kein gültiges JSON (unlesbarer Text oder eine viel zu lange "
                         "Zahl).") from None
    if not isinstance(request, dict) or not isinstance(request.get("op"), str):
        raise BadRequest("Die Anfrage braucht ein Objekt mit 'op'.")
    op = request["op"]
    if op not in OP_ARGS and op not in CAMPAIGN_OP_NAMES:
        raise BadRequest(f"Die Operation {show(op)} gibt es nicht.")
    for key in request:
        if key not in ("op", "args"):
            raise BadRequest(f"Die Angabe {show(key)} gibt es in einer Anfrage nicht.")
    args = request.get("args")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise BadRequest("'args' muss ein Objekt sein.")
    for key in args:  # the campaign ops check their own arguments (campaign/session.py)
        if op in OP_ARGS and key not in OP_ARGS[op]:
            raise BadRequest(f"Die Angabe {show(key)} gibt es für {op} nicht.")
    return op, args


def _method(op: str):
    if op in OP_ARGS:
        return getattr(SESSION, "op_" + op)
    # Feldzug ops (issue 15) live in campaign/session.py, imported only when first used
    from .campaign.session import CAMPAIGN_OPS
    return functools.partial(CAMPAIGN_OPS[op], SESSION)


def handle(text: str) -> str:
    """Answer one request (JSON text) with one reply (JSON text). Never raises; a failing request
    leaves the session as it was."""
    try:
        op, args = _parse(text)
        return json.dumps({"ok": True, "result": _method(op)(args)}, ensure_ascii=False)
    except IllegalAction as e:
        reply = {"ok": False, "error": {"kind": "illegal", "message": str(e)}}
    except SaveError as e:
        reply = {"ok": False, "error": {"kind": "save", "message": str(e)}}
    except BadRequest as e:
        reply = {"ok": False, "error": {"kind": "bad_request", "message": str(e)}}
    except ValueError as e:
        if type(e).__module__.startswith("kaltfront."):
            # the engine's own request errors (e.g. the campaign's CampaignBadRequest) speak German
            reply = {"ok": False, "error": {"kind": "bad_request", "message": str(e)}}
        else:  # Python's own ValueError: a bug, reported without its English text
            reply = _internal()
    except RecursionError:
        reply = {"ok": False, "error": {"kind": "bad_request",
                                        "message": "Die Anfrage ist zu tief verschachtelt."}}
    except Exception:  # a bug: report it (browser console) instead of killing the worker
        reply = _internal()
    return json.dumps(reply, ensure_ascii=False)


def _internal() -> dict:
    traceback.print_exc()
    return {"ok": False, "error": {"kind": "internal", "message": "Interner Fehler in der Spiel-Engine. "
                                   "Die Einzelheiten stehen in der Browser-Konsole."}}


def reset() -> None:
    """A fresh session (tests)."""
    global SESSION
    SESSION = Session()


__all__ = ["handle", "reset", "Session"]
