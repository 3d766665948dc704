"""Limits on what saves, maps and requests may hold, and a safe way to quote hostile input (issue 10).

Every door of the engine (the save and map loaders, actions, the questions, the bridge) answers bad
input with a German message and changes nothing. Quoting the input in that message must not fail
itself: Python refuses to turn an integer of thousands of digits into text (ValueError), repr() of a
list nested thousands deep overflows the stack, and a megabyte string would make a megabyte message.
`show()` quotes any value briefly and never raises. The text caps keep a save or a map from carrying
a multi-megabyte briefing that every save, observation and reply would copy.
"""

from __future__ import annotations

import json
import re

MAX_SCENARIO_ID = 64     # characters of a scenario id
MAX_NAME = 80            # scenario name, region
MAX_BRIEFING = 2000      # the briefing shown before the game (shipped maps: at most ~550)
MAX_OBJECTIVE = 500      # each side's objective text
MAX_BUILDING_NAME = 60   # a building's place name
MAX_ID = 10**9           # unit ids (and next_id) in saves, actions and questions
MAX_MONEY = 10**9        # a side's balance in a save
MAX_COORD = 10**6        # |col|, |row| a hex may name at all (maps are at most 200 x 200)
MAX_ROUND = 10**6        # a game's round and round limit in a save (Blitz games end by round 15-20)
SEED_LIMIT = 1 << 64     # |seed| of a game or a campaign: at most 20 digits


def show(value: object, limit: int = 40) -> str:
    """A short German-friendly quotation of any JSON-like value, for error messages; never raises."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if -10**15 < value < 10**15:
            return str(value)
        return "eine Zahl mit sehr vielen Stellen"
    if isinstance(value, float):
        return repr(value)[:limit]
    if isinstance(value, str):
        text = value if len(value) <= limit else value[:limit] + "…"
        return "'" + text.replace("\n", " ") + "'"
    if isinstance(value, (list, tuple)):
        return "eine Liste"
    if isinstance(value, dict):
        return "ein Objekt"
    return "ein unbekannter Wert"


def is_int(value: object) -> bool:
    """A JSON integer: an int but not a bool (True == 1 in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_seed(value: object) -> bool:
    """A game's or a campaign's seed: an integer with |seed| < SEED_LIMIT (at most 20 digits)."""
    return is_int(value) and -SEED_LIMIT < value < SEED_LIMIT


def is_id(value: object) -> bool:
    """A unit id as saves and actions use them: an integer from 1 to MAX_ID."""
    return is_int(value) and 1 <= value <= MAX_ID


MAX_JSON_DEPTH = 100      # nesting of any JSON text the engine parses (saves: about 6 levels)

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def too_deep(text: str | bytes | bytearray, limit: int = MAX_JSON_DEPTH) -> bool:
    """True if JSON text nests arrays/objects deeper than `limit`, found without recursion.

    Python's json parser recurses once per level: under CPython a text nested thousands deep raises
    RecursionError, but under Pyodide it overflows the WebAssembly stack and kills the worker before
    Python can catch anything. So every door measures the depth first, in one linear pass."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") <= limit:
        return False  # cannot nest deeper than it has brackets: the common, small request
    depth = 0
    for m in _BRACKET.finditer(_JSON_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def parse_json(text: str | bytes | bytearray, error: type[Exception], subject: str):
    """JSON from a text that came from outside (a save, a replay), or `error` with a German reason
    naming `subject` ("Der Spielstand", "Die Wiederholung"). Nesting is measured first (too_deep)."""
    if too_deep(text):
        raise error(f"{subject} ist beschädigt (zu tief verschachtelt).")
    try:
        return json.loads(text)
    except UnicodeDecodeError:
        raise error(f"{subject} ist beschädigt (kein UTF-8-Text).") from None
    except json.JSONDecodeError as e:
        raise error(f"{subject} ist beschädigt oder unvollständig (kein gültiges JSON ab "
                    f"Zeile {e.lineno}, Spalte {e.colno}).") from None
    except RecursionError:
        raise error(f"{subject} ist beschädigt (zu tief verschachtelt).") from None
    except ValueError:  # e.g. an integer of thousands of digits (Python's int-str limit)
        raise error(f"{subject} ist beschädigt (eine Zahl ist viel zu lang).") from None
