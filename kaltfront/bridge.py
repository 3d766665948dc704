"""The browser worker's door to the engine: one JSON request in, one JSON reply out.

`pwa/worker.js` calls `handle(text)`. A request is `{"op": ..., "args": {...}}`; the reply is
`{"ok": true, "result": ...}` or `{"ok": false, "error": {"kind": ..., "message": <German>}}`.
The session holds one game and who plays each side (a person or a computer strength). Everything the
page gets is what its viewer may see (observe, filtered events): the page never holds hidden state.
"""

from __future__ import annotations

import functools
import json
import sys
import traceback

from . import __version__, rules, scenarios
from .actions import IllegalAction, action_from_json
from .game import Game, new_game
from .hexgrid import parse_hex
from .rulesdata import SIDES
from .save import SaveError

STRENGTHS = ("leicht", "normal", "schwer")


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

    def _set_players(self, players: object) -> None:
        players = players or {"nordbund": "human", "liga": "leicht"}
        if not isinstance(players, dict) or set(players) != set(SIDES) or not all(
                p in ("human",) + STRENGTHS for p in players.values()):
            raise BadRequest("players braucht nordbund und liga: human, leicht, normal oder schwer.")
        self.players = dict(players)
        self.ai = {}

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
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadRequest("seed muss eine ganze Zahl sein.")
        self._set_players(args.get("players"))
        self.fixed_viewer = args.get("viewer") if args.get("viewer") in SIDES else None
        try:
            self.game = new_game(sid, seed=seed, fog=bool(args.get("fog", True)))
        except KeyError:
            raise BadRequest(f"Unbekanntes Szenario: {sid!r}.") from None
        return self.view()

    def op_load(self, args: dict) -> dict:
        game = Game.from_json(args.get("save", ""))
        self._set_players(args.get("players") or self.players)
        self.fixed_viewer = args.get("viewer") if args.get("viewer") in SIDES else None
        self.game = game
        return self.view()

    def op_save(self, args: dict) -> str:
        return self._game().to_json()

    def op_observe(self, args: dict) -> dict:
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
        except ValueError as e:
            raise BadRequest(str(e)) from None
        return self._game().build_options(at)

    def op_can_act(self, args: dict) -> dict:
        return self._game().units_that_can_act()

    def op_legal_actions(self, args: dict) -> list:
        return [a.to_json() for a in self._game().legal_actions()]

    def op_apply(self, args: dict) -> dict:
        g = self._game()
        if self.players.get(g.side) != "human" and args.get("action", {}).get("type") != "surrender":
            raise IllegalAction("Der Computer ist am Zug.")
        viewer = self.viewer()
        events = g.apply(action_from_json(args.get("action")))
        return {"events": g.observe_events(events, viewer), **self.view()}

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
        return {"events": g.observe_events(events, self.viewer()), **self.view()}

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
        return {"action": action, "events": g.observe_events(events, viewer), "done": done,
                **self.view()}


SESSION = Session()


def handle(text: str) -> str:
    """Answer one request (JSON text) with one reply (JSON text)."""
    try:
        request = json.loads(text)
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            raise BadRequest("Anfrage braucht 'op'.")
        args = request.get("args") or {}
        if not isinstance(args, dict):
            raise BadRequest("'args' muss ein Objekt sein.")
        method = getattr(SESSION, "op_" + request["op"], None)
        if method is None and request["op"].startswith("campaign_"):
            # Feldzug ops (issue 15) live in campaign/session.py, imported only when first used
            from .campaign.session import CAMPAIGN_OPS
            if request["op"] in CAMPAIGN_OPS:
                method = functools.partial(CAMPAIGN_OPS[request["op"]], SESSION)
        if method is None:
            raise BadRequest(f"Unbekannte Operation: {request['op']!r}.")
        reply = {"ok": True, "result": method(args)}
    except IllegalAction as e:
        reply = {"ok": False, "error": {"kind": "illegal", "message": str(e)}}
    except SaveError as e:
        reply = {"ok": False, "error": {"kind": "save", "message": str(e)}}
    except (BadRequest, ValueError) as e:
        reply = {"ok": False, "error": {"kind": "bad_request", "message": str(e)}}
    except Exception as e:  # a bug: report it instead of killing the worker
        traceback.print_exc()
        reply = {"ok": False, "error": {"kind": "internal", "message": f"Interner Fehler: {e!r}"}}
    return json.dumps(reply, ensure_ascii=False)


def reset() -> None:
    """A fresh session (tests)."""
    global SESSION
    SESSION = Session()


__all__ = ["handle", "reset", "Session"]
