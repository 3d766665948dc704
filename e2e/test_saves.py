"""Saves that survive (issue 6; P4, R63): versioned records with migration, unreadable entries reported
and left alone, a full storage quota reported while the game goes on, persistent storage requested,
export to a file and import again, and a reload from the autosave after the engine crashes.
"""

from __future__ import annotations

import json

import pytest

from offline_helpers import (
    AUTOSAVE, FILL_STORAGE, boot, end_phase, fast, import_message, move_one_unit, notice, obs, playing,
    start_blitz_from_menu, storage, wait_game, wait_my_turn,
)

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("fresh_precache")]


def engine_save(page, scenario: str = "bornholm") -> str:
    """A fresh game's save text straight from the engine (the page stays in the menu)."""
    page.evaluate("(s) => kaltfront.call('new_game', {scenario: s, seed: 3, fog: false, players: {nordbund: 'human', liga: 'leicht'}})", scenario)
    return page.evaluate("() => kaltfront.call('save', {})")


def test_first_layout_is_migrated(page, base_url, wait_for_engine):
    """Version 0 (raw engine text + a meta key) resumes, and the next save rewrites it as version 1."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    text = engine_save(page)
    meta = {"players": {"nordbund": "human", "liga": "leicht"}, "scenario": "bornholm", "fog": False,
            "viewer": "nordbund", "savedAt": "2026-01-02T03:04:05.000Z", "log": ["Alt"]}
    page.evaluate("([t, m]) => { localStorage.setItem('kaltfront.autosave', t); localStorage.setItem('kaltfront.autosave.meta', m); }",
                  [text, json.dumps(meta)])
    page.reload()
    wait_for_engine(page)
    page.wait_for_selector("#menu-continue:not([hidden])")
    page.click("#menu-continue")
    wait_game(page)
    assert page.evaluate("() => kaltfront.state.game.players") == meta["players"]
    wait_my_turn(page, "move")
    move_one_unit(page)
    page.wait_for_function("() => !localStorage.getItem('kaltfront.autosave.meta')")
    record = json.loads(storage(page)[AUTOSAVE])
    assert record["kind"] == "kaltfront-slot" and record["v"] == 1
    assert record["players"] == meta["players"] and record["scenario"] == "bornholm"
    assert json.loads(record["game"])["format"] == "kaltfront-save"


BAD = {
    "kaltfront.save.kaputt": '{"kind": "kaltfront-slot", "v": 1, "game": "{abgeschnit',
    "kaltfront.save.fremd": '{"hello": "world"}',
    "kaltfront.save.zukunft": '{"kind": "kaltfront-slot", "v": 7, "game": "{}"}',
    "andere.app": "nicht unseres",
}


def test_unreadable_entries_are_reported_and_left_alone(page, base_url, wait_for_engine):
    before = playing(page, base_url, wait_for_engine)
    page.evaluate("(bad) => { for (const [k, v] of Object.entries(bad)) localStorage.setItem(k, v); }", BAD)
    page.reload()
    wait_for_engine(page)
    text = notice(page)
    assert "„kaputt“ kann nicht gelesen werden: Der Eintrag ist beschädigt" in text
    assert "„fremd“ kann nicht gelesen werden: Der Eintrag ist kein Kaltfront-Spielstand" in text
    assert "„zukunft“ kann nicht gelesen werden: Der Spielstand stammt aus einer neueren Version" in text
    assert "andere.app" not in text and "nicht unseres" not in text
    assert text.count("bleibt unverändert gespeichert") == 3

    # The good save is still usable.
    page.click("#menu-continue")
    wait_my_turn(page, "move")
    assert obs(page) == before
    move_one_unit(page)
    end_phase(page)
    wait_my_turn(page, "attack")
    page.click("#btn-menu")
    page.click("#menu-save")
    page.wait_for_selector("#toast:not([hidden])")
    after = storage(page)
    for key, value in BAD.items():
        assert after[key] == value, f"{key} was changed"

    # Listed in Spielstände as unreadable: exportable, not loadable, not deletable.
    page.click("#btn-menu")
    page.click("#menu-main")
    page.click("#menu-saves")
    row = page.locator("#saves-list li[data-key='kaltfront.save.kaputt']")
    assert "nicht lesbar" in row.inner_text()
    assert row.locator("button").all_inner_texts() == ["Exportieren"]


def test_engine_refuses_a_corrupt_game_and_the_entry_stays(page, base_url, wait_for_engine):
    """The envelope is fine but the game inside is not: the engine's German reason, the menu, nothing lost."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    game = json.loads(engine_save(page))
    game["units"][0]["hp"] = 99
    record = {"kind": "kaltfront-slot", "v": 1, "saved_at": "2026-01-01T00:00:00Z", "game_id": "kaputt1",
              "scenario": "bornholm", "name": "Bornholm", "round": 1, "players": {"nordbund": "human", "liga": "leicht"},
              "meta": {}, "game": json.dumps(game)}
    stored = json.dumps(record)
    page.evaluate("(t) => localStorage.setItem('kaltfront.autosave', t)", stored)
    page.reload()
    wait_for_engine(page)
    page.click("#menu-continue")
    text = notice(page)
    assert text.startswith("Der Spielstand kann nicht geladen werden:")
    assert "bleibt unverändert gespeichert" in text
    assert page.is_visible("#main-menu") and page.evaluate("() => kaltfront.state.game") is None
    assert storage(page)[AUTOSAVE] == stored

    # A new game keeps the refused one as a save of its own before writing its autosave.
    start_blitz_from_menu(page)
    page.wait_for_function("() => JSON.parse(localStorage.getItem('kaltfront.autosave')).game_id !== 'kaputt1'")
    assert storage(page)["kaltfront.save.kaputt1-auto"] == stored


def test_unreadable_autosave_is_copied_before_a_new_game_overwrites_it(page, base_url, wait_for_engine):
    fast(page)
    page.add_init_script("if (!sessionStorage.getItem('once')) { sessionStorage.setItem('once', 1); localStorage.setItem('kaltfront.autosave', '{kaputt'); }")
    boot(page, base_url, wait_for_engine)
    assert "Der automatische Spielstand kann nicht gelesen werden" in notice(page)
    assert page.is_hidden("#menu-continue")
    start_blitz_from_menu(page)
    page.wait_for_function("() => localStorage.getItem('kaltfront.autosave') !== '{kaputt'")
    rescued = {k: v for k, v in storage(page).items() if k.startswith("kaltfront.save.unlesbar-")}
    assert list(rescued.values()) == ["{kaputt"]


def test_full_quota_gets_a_message_and_the_game_goes_on(page, base_url, wait_for_engine):
    playing(page, base_url, wait_for_engine)
    end_phase(page)
    wait_my_turn(page, "attack")
    last_good = storage(page)[AUTOSAVE]
    page.evaluate(FILL_STORAGE)

    end_phase(page)  # the autosave after this phase cannot be written
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast").startswith("Der Speicher des Browsers ist voll")
    wait_my_turn(page, "move")
    move_one_unit(page)  # the game goes on
    end_phase(page)
    wait_my_turn(page, "attack")
    assert obs(page)["round"] == 3
    assert storage(page)[AUTOSAVE] == last_good  # the last good autosave is still there, whole

    # A new game would have to replace the unfinished autosave, which cannot be kept now: refused.
    page.click("#btn-menu")
    page.click("#menu-main")
    page.click("#menu-start")
    page.wait_for_function("() => document.getElementById('toast').textContent.startsWith('Der Speicher des Browsers ist voll')")
    assert page.is_visible("#main-menu")
    assert storage(page)[AUTOSAVE] == last_good


def test_persistent_storage_is_requested(page, base_url, wait_for_engine):
    page.add_init_script(
        "window.__persistCalls = 0; const orig = navigator.storage.persist.bind(navigator.storage);"
        " navigator.storage.persist = () => { window.__persistCalls++; return orig(); };"
    )
    boot(page, base_url, wait_for_engine)
    page.wait_for_function("() => window.__persistCalls >= 1")


def test_export_then_import_after_the_browser_cleared_everything(page, base_url, wait_for_engine, tmp_path):
    before = playing(page, base_url, wait_for_engine)
    page.click("#btn-menu")
    page.click("#menu-main")
    page.click("#menu-saves")
    row = page.locator(f"#saves-list li[data-key='{AUTOSAVE}']")
    assert "Bornholm" in row.inner_text() or "Runde 1" in row.inner_text()
    with page.expect_download() as download:
        row.locator("button", has_text="Exportieren").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name.startswith("kaltfront-") and path.name.endswith(".json")
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert exported["kind"] == "kaltfront-slot" and exported["v"] == 1
    assert json.loads(exported["game"])["format"] == "kaltfront-save"

    # The browser cleared the site's data.
    page.evaluate("() => localStorage.clear()")
    page.reload()
    wait_for_engine(page)
    assert page.is_hidden("#menu-continue")
    page.click("#menu-saves")
    assert page.inner_text("#saves-list") == "Noch keine Spielstände."

    # A file that is not a save: a clear message, nothing stored.
    junk = tmp_path / "urlaub.json"
    junk.write_text('{"foto": 1}', encoding="utf-8")
    assert "kein Kaltfront-Spielstand" in import_message(page, junk)

    page.set_input_files("#saves-file", str(path))
    wait_game(page)
    wait_my_turn(page, "move")
    assert obs(page) == before
    assert page.evaluate("() => kaltfront.state.game.players") == exported["players"]
    assert any(k.startswith("kaltfront.save.import-") for k in storage(page))


def test_bare_engine_save_file_imports(page, base_url, wait_for_engine, tmp_path):
    """docs/save-format.md: the engine's own save text is also accepted as a file."""
    fast(page)
    boot(page, base_url, wait_for_engine)
    text = engine_save(page)
    path = tmp_path / "spiel.json"
    path.write_text(text, encoding="utf-8")
    page.click("#menu-saves")
    page.set_input_files("#saves-file", str(path))
    wait_game(page)
    assert page.evaluate("() => kaltfront.state.obs.scenario") == "bornholm"


def test_worker_crash_offers_a_reload_from_the_last_autosave(page, base_url, wait_for_engine):
    before = playing(page, base_url, wait_for_engine)
    page.evaluate("() => kaltfront.engine.worker.dispatchEvent(new ErrorEvent('error', {message: 'Testabsturz'}))")
    page.wait_for_selector("#crash:not([hidden])")
    text = page.inner_text("#crash")
    assert "Die Spiel-Engine ist abgestürzt" in text and "Testabsturz" in text
    assert "letzten automatischen Spielstand" in text
    page.evaluate("() => { window.__beforeReload = true; }")
    page.click("#crash-reload")
    page.wait_for_function("() => !window.__beforeReload && window.kaltfront && window.kaltfront.ready", timeout=60_000)
    wait_game(page)
    wait_my_turn(page, "move")
    assert obs(page) == before
