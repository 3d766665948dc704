"""Helpers shared by the issue-6 and issue-12 browser tests (test_offline.py, test_share_link.py,
test_saves.py, test_robust.py, test_tabs.py): boot the app fast, wait for the offline cache, start and
play a little of a Blitz game, read localStorage and the menu notice, and open a persistent browser
profile. Rule answers come from the engine (`kaltfront.call`), never from here.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import build_sw  # noqa: E402

AUTOSAVE = "kaltfront.autosave"  # the key of the running game's autosave in localStorage

# Runs before the app's scripts: the moment app.js sets window.kaltfront, switch off the opening pan
# and the computer's animation pace, so a game started by a share link right after boot is fast too.
FAST_APP = """
(() => {
  let value;
  Object.defineProperty(window, "kaltfront", {
    configurable: true,
    get() { return value; },
    set(v) { value = v; try { v.skipIntro = true; if (v.setAiDelay) v.setAiDelay(0); } catch (e) {} },
  });
})();
"""


# Fill localStorage to the quota with 1 MB chunks, then smaller ones down to a single character (keys
# "fuellung.N"): the next autosave fails the way a full phone's does. Returns how many keys it wrote.
FILL_STORAGE = """() => {
  let chunk = "x".repeat(1 << 20), i = 0;
  while (chunk.length > 0) {
    try { localStorage.setItem("fuellung." + i, chunk); i++; }
    catch (e) { chunk = chunk.slice(0, chunk.length >> 1); }
  }
  return i;
}"""
# Free what FILL_STORAGE took.
UNFILL_STORAGE = "() => { for (const k of Object.keys(localStorage)) if (k.startsWith('fuellung.')) localStorage.removeItem(k); }"


def fast(context_or_page) -> None:
    context_or_page.add_init_script(FAST_APP)


def boot(page, url: str, wait_for_engine) -> None:
    page.goto(url)
    wait_for_engine(page)


def wait_offline_ready(page, attempts: int = 3) -> None:
    """The service worker has cached every file and controls the page.

    The worker refuses to install when a file does not match its listed sha256. In a checkout where
    others rebuild the wheel or edit the shell while tests run, that happens; then the list is written
    anew (what `make site` does) and the browser is asked to check for the new worker, as it would at
    the next visit."""
    for attempt in range(attempts):
        try:
            page.wait_for_function(
                "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=20_000
            )
            return
        except Exception:
            if attempt == attempts - 1:
                raise
            rebuild_precache()
            # register() again: it updates an existing registration, and makes a new one if the failed
            # first install left none.
            page.evaluate(
                "() => navigator.serviceWorker.register(new URL('service-worker.js', location.href), "
                "{scope: './', updateViaCache: 'none'}).catch(() => {})"
            )


def rebuild_precache() -> None:
    """Rewrite vendor/sw-manifest.js from the files as they are now: the worker refuses to install when
    a file no longer matches its listed hash, and the shell may have been edited since `make site`."""
    build_sw.main()


def precache() -> dict:
    """The precache list the build wrote (vendor/sw-manifest.js)."""
    return build_sw.read()


def blitz_ids(page) -> list[str]:
    return [s["id"] for s in page.evaluate("() => kaltfront.state.scenarios") if s["blitz"]]


def obs(page) -> dict:
    return page.evaluate("() => kaltfront.state.obs")


def wait_game(page, timeout: int = 30_000) -> None:
    page.wait_for_function("() => kaltfront.state.game && kaltfront.state.obs", timeout=timeout)


def wait_my_turn(page, phase: str | None = None, timeout: int = 90_000) -> None:
    cond = "kaltfront.myTurn() && !kaltfront.state.busy" + (f" && kaltfront.state.obs.phase === '{phase}'" if phase else "")
    page.wait_for_function(f"() => {cond}", timeout=timeout)


def start_blitz_from_menu(page, *, side: str = "nordbund", strength: str = "leicht", fog: bool = False) -> None:
    page.click("label:has(#opt-blitz)")
    page.click("label:has(#opt-mode-ai)")
    page.select_option("#opt-side", side)
    page.select_option("#opt-strength", strength)
    if page.is_checked("#opt-fog") != fog:
        page.click("#opt-fog")
    page.click("#menu-start")
    wait_game(page)


def move_one_unit(page) -> int:
    """In the move phase: move one own unit to a free hex the engine says it can reach. Returns its id."""
    o = obs(page)
    taken = {tuple(u["at"]) for u in o["units"]}
    for uid in page.evaluate("() => kaltfront.state.canAct.move"):
        reach = page.evaluate("(id) => kaltfront.call('reachable', {unit: id})", uid)
        free = [r for r in reach if tuple(r["to"]) not in taken]
        if free:
            page.evaluate("(a) => kaltfront.act(a)", {"type": "move", "unit": uid, "to": free[-1]["to"]})
            page.wait_for_function("() => !kaltfront.state.busy")
            return uid
    raise AssertionError("no own unit can move anywhere")


# True when the autosave holds a save record (kind 'kaltfront-slot'): the running game is saved.
AUTOSAVED = "() => JSON.parse(localStorage.getItem('kaltfront.autosave') || '{}').kind === 'kaltfront-slot'"


def wait_autosaved(page) -> None:
    """Wait until the running game is saved (`AUTOSAVED`)."""
    page.wait_for_function(AUTOSAVED)


def play_one_move(page) -> dict:
    """From the main menu: a Blitz game (Nordbund against Leicht, no fog) with one unit moved and the
    move autosaved; returns the observation after the autosave."""
    start_blitz_from_menu(page, strength="leicht", fog=False)
    wait_my_turn(page, "move")
    move_one_unit(page)
    wait_autosaved(page)
    return obs(page)


def playing(page, base_url, wait_for_engine) -> dict:
    """A fast-booted page in a Blitz game against Leicht with one move made and autosaved; its observation."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    return play_one_move(page)


def storage(page) -> dict:
    """All of the page's localStorage, key to text."""
    return page.evaluate("() => Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))")


def notice(page) -> str:
    """The main menu's notice line, once it shows."""
    page.wait_for_selector("#menu-notice:not([hidden])", timeout=20_000)
    return page.inner_text("#menu-notice")


def import_message(page, path) -> str:
    """Import the file at `path` in the open "Spielstände" dialog; the message the dialog answers with.
    The message line is emptied first, so an earlier message is never taken for this file's."""
    page.evaluate("() => { document.getElementById('saves-message').textContent = ''; }")
    page.set_input_files("#saves-file", str(path))
    page.wait_for_function("() => document.getElementById('saves-message').textContent !== ''")
    return page.inner_text("#saves-message")


def play_a_turn(page) -> None:
    """From the own move phase: move a unit, end the phase, let the computer play, back to the own turn."""
    wait_my_turn(page, "move")
    move_one_unit(page)
    end_phase(page)
    wait_my_turn(page, "attack")


def end_phase(page) -> None:
    """"Phase beenden" through the shell's own path (the key/button handler), without a confirm."""
    page.evaluate("() => kaltfront.endPhase({confirmed: true})")


def launch_profile(browser_type, user_data_dir: Path, launch_args: dict, **kwargs):
    """A persistent browser profile (its own Cache Storage and localStorage), like a phone's browser."""
    args = {k: v for k, v in launch_args.items() if k in ("executable_path", "args", "headless", "slow_mo")}
    return browser_type.launch_persistent_context(str(user_data_dir), **args, **kwargs)
