"""Campaign saves (FELDZUG C12): one versioned JSON file that holds the whole Feldzug, a running
battle included (as a battle save, kaltfront/save.py), so it resumes exactly where it stopped.

Loading checks everything; a corrupt, foreign or newer file raises `SaveError` with a German reason and
never yields a half-loaded campaign (docs/campaign.md lists the fields).
"""

from __future__ import annotations

import copy
import json

from ..limits import MAX_ROUND, SEED_LIMIT, is_int, is_seed, show, too_deep
from ..rulesdata import SIDES
from ..save import SaveError, game_from_dict, game_to_dict
from .auto import MAX_ACTIONS
from .mapdata import load_campaign_map

FORMAT = "kaltfront-feldzug"
VERSION = 1
RESULTS = ("won", "lost", "draw", None)


def campaign_to_dict(c) -> dict:
    battle = None
    if c.battle is not None:
        battle = {k: v for k, v in c.battle.items()}
        battle["game"] = game_to_dict(c.battle_game) if c.battle_game is not None else None
    return {
        "format": FORMAT, "version": VERSION, "map": c.map.id,
        "seed": c.seed, "fog": c.fog, "strength": c.strength,
        "round": c.round, "phase": c.phase,
        "regions": {r: {"owner": c.owner[r], "kp": c.kp[r]} for r in c.map.regions},
        "plans": dict(c.plans), "revealed": c.revealed, "last_result": dict(c.last_result),
        "queue": list(c.queue), "battle": battle, "retreat": c.retreat, "battle_no": c.battle_no,
        "log": list(c.log), "outcome": c.outcome,
    }


def dumps(c) -> str:
    return json.dumps(campaign_to_dict(c), ensure_ascii=False, separators=(",", ":"))


def loads(text: str | bytes | dict):
    if not isinstance(text, (str, bytes, bytearray)):
        return campaign_from_dict(text)
    if len(text) > 5_000_000:
        raise SaveError("Der Feldzug-Spielstand ist zu groß.")
    if too_deep(text):
        raise SaveError("Der Feldzug-Spielstand ist zu tief verschachtelt.")
    try:
        data = json.loads(text)
    except RecursionError:
        raise SaveError("Der Feldzug-Spielstand ist zu tief verschachtelt.") from None
    except UnicodeDecodeError:
        raise SaveError("Der Feldzug-Spielstand ist beschädigt (kein UTF-8-Text).") from None
    except json.JSONDecodeError as e:
        raise SaveError(f"Der Feldzug-Spielstand ist beschädigt oder unvollständig (kein gültiges JSON ab "
                        f"Zeile {e.lineno}, Spalte {e.colno}).") from None
    except ValueError:  # Python refuses integers of thousands of digits
        raise SaveError("Der Feldzug-Spielstand enthält eine Zahl mit zu vielen Stellen.") from None
    return campaign_from_dict(data)


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise SaveError(f"Der Feldzug-Spielstand ist ungültig: {message}")


def _bounded(v: object, lo: int, hi: int) -> bool:
    """An integer within lo..hi. Every number a save holds is bounded: one of thousands of digits
    would load and then make saving (or a battle's random seed text) fail."""
    return is_int(v) and lo <= v <= hi


MAX_POINTS = 10**6  # |TP| and |KP| of a battle (C8: TP may be negative; the shipped campaign: a few hundred)


def campaign_from_dict(data: object):
    """Check a decoded campaign save and build the campaign; any damage is a SaveError (C12).

    The checks below look at each field's type before using it; the net around them turns whatever a
    missed corner of a hand-made file could still raise (an unhashable list used as a region name, a
    number with thousands of digits) into the same German refusal, never a Python error."""
    try:
        return _campaign_from_dict(data)
    except SaveError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError):
        raise SaveError("Der Feldzug-Spielstand ist ungültig: ein Feld hat einen falschen Typ oder Wert.") from None


def _campaign_from_dict(data: object):
    from .feldzug import KP_CAP, PHASES, STRENGTHS, Campaign

    _need(isinstance(data, dict), "erwartet ein JSON-Objekt.")
    data = copy.deepcopy(data)  # the campaign never shares (or changes) the caller's objects
    if data.get("format") != FORMAT:
        raise SaveError("Das ist kein Kaltfront-Feldzug.")
    version = data.get("version")
    _need(is_int(version), "die Versionsnummer fehlt.")
    if version > VERSION:
        raise SaveError(f"Dieser Feldzug stammt aus einer neueren Version von Kaltfront (Format {version}, "
                        f"dieses Spiel kennt bis {VERSION}). Bitte aktualisiere das Spiel.")
    _need(version >= 1, f"Format {version} wird nicht unterstützt.")
    try:
        cmap = load_campaign_map(data.get("map") if isinstance(data.get("map"), str) else "")
    except KeyError:
        raise SaveError(f"Unbekannte Feldzugkarte {show(data.get('map'))}.") from None
    _need(is_seed(data.get("seed")), "'seed' muss eine ganze Zahl mit höchstens 20 Stellen sein.")
    _need(isinstance(data.get("fog"), bool), "'fog' muss true oder false sein.")
    _need(data.get("strength") in STRENGTHS, "'strength' muss leicht, normal oder schwer sein.")
    c = Campaign(cmap, seed=data["seed"], fog=data["fog"], strength=data["strength"])
    rnd = data.get("round")
    _need(is_int(rnd) and 1 <= rnd <= cmap.rounds, f"'round' muss 1 bis {cmap.rounds} sein.")
    c.round = rnd
    _need(data.get("phase") in PHASES, "unbekannte Phase.")
    c.phase = data["phase"]
    regions = data.get("regions")
    _need(isinstance(regions, dict) and set(regions) == set(cmap.regions), "'regions' muss jede Region nennen.")
    for rid, v in regions.items():
        _need(isinstance(v, dict) and v.get("owner") in SIDES + (None,) and is_int(v.get("kp"))
              and 0 <= v["kp"] <= KP_CAP, f"Region {rid}: owner und kp (0 bis {KP_CAP}) fehlen.")
        base = cmap.base_of(rid)
        if base is not None:
            _need(v["owner"] == base, f"die Basis {rid} gehört immer {base}.")
        else:
            _need((v["owner"] is None) == (v["kp"] == 0), f"Region {rid}: eine besetzte Region hat KP, eine freie keine.")
        c.owner[rid], c.kp[rid] = v["owner"], v["kp"]
    for s in SIDES:
        _need(c.total_kp(s) <= KP_CAP, f"{s} hat mehr als {KP_CAP} KP (C3).")
    last = data.get("last_result")
    _need(isinstance(last, dict) and set(last) == set(SIDES) and all(v in RESULTS for v in last.values()),
          "'last_result' braucht nordbund und liga.")
    c.last_result = dict(last)
    plans = data.get("plans")
    _need(isinstance(plans, dict) and set(plans) == set(SIDES), "'plans' braucht nordbund und liga.")
    for s in SIDES:
        p = plans[s]
        if p is not None:
            _need(c.phase == "plan", "ein Plan ist nur im strategischen Schritt offen.")
            try:
                c.plans[s] = c.check_plan(s, {"type": "plan", "side": s, **p} if isinstance(p, dict) else None)
            except Exception as e:
                raise SaveError(f"Der Feldzug-Spielstand ist ungültig: Plan von {s}: {e}") from None
    rev = data.get("revealed")
    _need(rev is None or (isinstance(rev, dict) and set(rev) == set(SIDES) and all(
        isinstance(p, dict) and set(p) == {"occupy", "moves", "attack"} and isinstance(p["moves"], list)
        and all(x is None or isinstance(x, dict) for x in (p["occupy"], p["attack"]))
        and all(isinstance(m, dict) for m in p["moves"]) for p in rev.values())),
        "'revealed' braucht die aufgedeckten Pläne beider Seiten.")
    c.revealed = data.get("revealed")
    _need(_bounded(data.get("battle_no"), 0, MAX_ROUND), f"'battle_no' muss eine Zahl von 0 bis {MAX_ROUND} sein.")
    c.battle_no = data["battle_no"]
    queue = data.get("queue")
    _need(isinstance(queue, list) and len(queue) <= 2, "'queue' muss eine Liste sein.")
    for b in queue:
        _check_battle_ref(b, cmap)
    c.queue = [dict(b) for b in queue]
    b = data.get("battle")
    if c.phase in ("options", "battle"):
        _need(isinstance(b, dict), "die laufende Schlacht fehlt.")
        _check_battle_ref(b, cmap)
        _need(_bounded(b.get("no"), 0, MAX_ROUND), f"Schlacht: 'no' muss eine Zahl von 0 bis {MAX_ROUND} sein.")
        _need(_bounded(b.get("seed"), 0, SEED_LIMIT - 1), "Schlacht: 'seed' muss eine Zahl von 0 bis 2^64-1 sein.")
        _need(b.get("region") == b["to"] and b.get("map") == cmap.regions[b["to"]].map, "Schlacht: Region/Karte passt nicht.")
        for key in ("tp", "kp"):
            _need(isinstance(b.get(key), dict) and all(_bounded(b[key].get(s), -MAX_POINTS, MAX_POINTS) for s in SIDES),
                  f"Schlacht: '{key}' braucht nordbund und liga, je -{MAX_POINTS} bis {MAX_POINTS}.")
        opts = b.get("options")
        _need(isinstance(opts, dict) and set(opts) == set(SIDES), "Schlacht: 'options' fehlt.")
        game = b.pop("game", None)
        c.battle = b
        for s in SIDES:
            if opts[s] is not None:
                _need(isinstance(opts[s], dict), "Schlacht: Optionen müssen Objekte sein.")
                # the Reserven KP is already on the base: check the rest without the cap
                kp_before = c.kp[cmap.bases[s]]
                c.kp[cmap.bases[s]] = 0
                try:
                    opts[s] = c.check_options(s, {"type": "options", "side": s, **opts[s]})
                except Exception as e:
                    raise SaveError(f"Der Feldzug-Spielstand ist ungültig: Optionen von {s}: {e}") from None
                finally:
                    c.kp[cmap.bases[s]] = kp_before
        if "auto_actions" in b:  # actions auto-resolve has played so far (C10 in short calls)
            _need(is_int(b["auto_actions"]) and 0 <= b["auto_actions"] <= MAX_ACTIONS,
                  f"Schlacht: 'auto_actions' muss eine Zahl von 0 bis {MAX_ACTIONS} sein.")
        if c.phase == "battle":
            _need(all(opts[s] is not None for s in SIDES), "Schlacht: beide Seiten brauchen ihre Optionen.")
            if "quick" in b:
                _need(isinstance(b["quick"], dict) and b["quick"].get("winner") in SIDES + (None,),
                      "Schlacht: 'quick' fehlt.")
            _need(isinstance(game, dict), "das Spiel der laufenden Schlacht fehlt.")
            g = game_from_dict(game)
            _need(g.scenario_id == b["map"], "das Spiel der Schlacht liegt auf der falschen Karte.")
            c.battle_game = g
        else:
            _need(game is None, "vor der Schlacht gibt es noch kein Spiel.")
    else:
        _need(b is None, "außerhalb einer Schlacht gibt es keine laufende Schlacht.")
    r = data.get("retreat")
    if c.phase == "retreat":
        _need(isinstance(r, dict) and r.get("side") in SIDES and r.get("from") in cmap.regions
              and is_int(r.get("kp")) and 1 <= r["kp"] <= KP_CAP and isinstance(r.get("to"), list)
              and r["to"] and all(t in cmap.regions[r["from"]].neighbours and c.owner[t] == r["side"]
                                  for t in r["to"]), "der offene Rückzug ist ungültig.")
        c.retreat = {"side": r["side"], "from": r["from"], "kp": r["kp"], "to": list(r["to"])}
        _need(c.total_kp(r["side"]) + r["kp"] <= KP_CAP, "der Rückzug bringt mehr als 30 KP.")
    else:
        _need(r is None, "ein Rückzug ist nur in der Rückzugsphase offen.")
    log = data.get("log")
    _need(isinstance(log, list) and len(log) <= 5000 and all(isinstance(e, dict) and isinstance(e.get("text"), str)
                                                             for e in log), "'log' muss eine Liste von Einträgen sein.")
    c.log = list(log)
    out = data.get("outcome")
    if c.phase == "over":
        _need(isinstance(out, dict) and out.get("winner") in SIDES + (None,)
              and out.get("reason") in ("no_kp", "only_base", "regions", "kp", "draw"), "'outcome' fehlt.")
        c.outcome = {"winner": out["winner"], "reason": out["reason"]}
    else:
        _need(out is None, "ein laufender Feldzug hat kein Ergebnis.")
    return c


def _check_battle_ref(b: object, cmap) -> None:
    _need(isinstance(b, dict) and b.get("attacker") in SIDES and b.get("defender") in SIDES
          and b["attacker"] != b["defender"], "Schlacht: Angreifer und Verteidiger fehlen.")
    _need(b.get("from") in cmap.regions and b.get("to") in cmap.regions
          and cmap.adjacent(b["from"], b["to"]), "Schlacht: die Regionen grenzen nicht aneinander.")
    _need(isinstance(b.get("mutual"), bool), "Schlacht: 'mutual' fehlt.")
    f = b.get("follow")
    _need(isinstance(f, dict) and all(k in SIDES and is_int(v) and 1 <= v <= 30 for k, v in f.items()),
          "Schlacht: 'follow' fehlt.")


__all__ = ["FORMAT", "VERSION", "SaveError", "campaign_from_dict", "campaign_to_dict", "dumps", "loads"]
