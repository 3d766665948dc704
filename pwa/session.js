// session.js — what happens around a game rather than in it (issue 6): after boot it registers the
// offline cache, opens a share link or resumes the autosave after an update or a crash reload, and
// reports unreadable saves; it keeps an unfinished autosave before a new game replaces it, runs the
// "Link teilen" and "Spielstände" actions, and offers a reload after an engine crash. app.js hands
// it a few hooks into the running shell and otherwise does not need to know about any of this.

import * as saves from "./saves.js";
import { downloadText, openSavesDialog, reportUnreadable, showCrashDialog, showNotice, showSaveWarning, showTabDialog } from "./saves-ui.js";
import { TabGuard } from "./tabs.js";
import { buildShareUrl, describeLink, linkToGameOptions, parseShareLink, shareableGame, shareUrl } from "./share.js";
import { registerServiceWorker, resumeAfterReload, takeResumeAfterReload } from "./sw-register.js";

export class Session {
  /**
   * @param {object} app  hooks into the shell:
   *   ready() -> bool, scenarios() -> the engine's scenario list, game() -> {players, scenario, fog,
   *   seed, id} | null, running() -> bool (a game is on screen and not over),
   *   starting() -> bool (a new game is being prepared), startGame(options),
   *   resumeGame(saved) -> Promise<bool>, autosave() -> Promise<bool>, call(op, args),
   *   confirm(text, yes) -> Promise<bool>, toast(text, kind), lost() (another tab took the game:
   *   stop it and go to the main menu)
   */
  constructor(app) {
    this.app = app;
    this.swStarted = false;
    this.saveFailures = 0; // autosaves not written since the last one that was (issue 12.6)
    this.tabs = new TabGuard({ onLost: (gameId) => this.lostToOtherTab(gameId) });
  }

  // ---- one game, one tab (issue 12.1) ----

  /** Before playing a game: true when this tab may play (and autosave) it. */
  claimGame(gameId) {
    return this.tabs.claim(gameId);
  }

  /** The autosave's last check: false once another tab plays this game. */
  ownsGame(gameId) {
    return this.tabs.owns(gameId);
  }

  releaseGame() {
    this.tabs.release();
  }

  /** Another tab plays the game `saved` belongs to: say so and offer to take it over. */
  gameElsewhere(saved) {
    const gameId = saved && saved.meta && saved.meta.gameId;
    showTabDialog({
      title: "Dieses Spiel ist in einem anderen Tab geöffnet",
      text: "Es wird dort gespielt und gespeichert. Hier weiterspielen? Der andere Tab hört dann auf, und das Spiel geht beim neuesten automatischen Spielstand weiter.",
      takeOver: () => this.takeOver(gameId, saved),
    });
  }

  /** This tab lost its game to another one: the shell has stopped it; offer to take it back. */
  lostToOtherTab(gameId) {
    this.app.lost();
    showTabDialog({
      title: "Dieses Spiel ist in einem anderen Tab geöffnet",
      text: "Ein anderer Tab hat das Spiel übernommen; hier wird es nicht mehr gespeichert. Hier weiterspielen? Dann geht es beim neuesten automatischen Spielstand weiter.",
      takeOver: () => this.takeOver(gameId, null),
    });
  }

  /** Take a game over from another tab, then continue from the newest autosave of that game. */
  async takeOver(gameId, fallback) {
    await this.tabs.takeOver(gameId);
    const auto = saves.readAutosaveEntry();
    const newest = auto && auto.ok && auto.record.game_id === gameId ? saves.recordToResume(auto.record) : fallback;
    if (!newest) {
      this.tabs.release();
      showNotice("Der Spielstand dieses Spiels wurde nicht gefunden.");
      return false;
    }
    return this.app.resumeGame(newest);
  }

  // ---- storage full (issue 12.6) ----

  /** Every autosave reports here: a failure counts up the header warning, a success clears it. */
  autosaved(result) {
    if (result.ok) {
      if (this.saveFailures) this.app.toast("Wieder gespeichert.", "info");
      this.saveFailures = 0;
    } else {
      this.saveFailures += 1;
    }
    showSaveWarning(this.saveFailures, {
      message: result.reason === "quota"
        ? "Der Speicher des Browsers ist voll. Das Spiel läuft weiter, wird aber nicht mehr automatisch gespeichert."
        : result.message || "",
      exportGame: () => this.exportRunningGame(),
      freeSpace: () => this.openSaves({ closed: () => this.app.autosave() }),
    });
  }

  /**
   * The running game and its save text, straight from the engine (the autosave may be stale).
   * Null when no game runs, or (after a toast with the engine's message) when the engine refuses.
   */
  async saveRunningGame() {
    const game = this.app.game();
    if (!game) return null;
    try {
      return { game, text: await this.app.call("save", {}) };
    } catch (e) {
      this.app.toast(e.message);
      return null;
    }
  }

  /** Download the running game as a save file, straight from the engine (the autosave may be stale). */
  async exportRunningGame() {
    const saved = await this.saveRunningGame();
    if (!saved) return false;
    const { game, text } = saved;
    const record = saves.makeRecord(text, { players: game.players, gameId: game.id, meta: this.app.meta ? this.app.meta() : {} });
    const entry = { ok: true, key: "export", slot: "export", record };
    downloadText(saves.exportFileName(entry), saves.exportText(entry));
    this.app.toast("Das Spiel wurde als Datei exportiert.", "info");
    return true;
  }

  /** Called once the engine answers. */
  async afterBoot() {
    this.startOfflineCache();
    saves.requestPersistence();
    const resume = takeResumeAfterReload();
    reportUnreadable();
    window.addEventListener("hashchange", () => this.openLink());
    if (await this.openLink()) return;
    if (resume && saves.hasAutosave()) await this.app.resumeGame(saves.readAutosave());
  }

  /** Even a failed boot registers the worker: that is how a fixed version can arrive. */
  afterBootFailed() {
    this.startOfflineCache();
  }

  startOfflineCache() {
    if (this.swStarted) return;
    this.swStarted = true;
    registerServiceWorker({
      // The player clicked "Neu laden": save the running game, and resume it after the reload.
      beforeReload: async () => (this.app.running() ? !!(await this.app.autosave()) : false),
    });
  }

  /** A share link in the fragment: start it, or explain what is wrong. True when a link was there. */
  async openLink() {
    const parsed = parseShareLink(location.hash, this.app.scenarios());
    if (!parsed) return false;
    // Read once: a reload must not start the game again, and the address bar shows the plain app.
    history.replaceState(null, "", location.pathname + location.search);
    if (!parsed.ok) {
      // A game on screen, or one about to be (the menu goes when it starts): the message goes over it.
      if (this.app.running() || this.app.starting()) this.app.toast(`${parsed.message} Dein laufendes Spiel geht weiter.`);
      else showNotice(`${parsed.message} Du bist im Hauptmenü.`);
      return true;
    }
    const link = parsed.link;
    if (this.app.running() || saves.hasAutosave()) {
      const ok = await this.app.confirm(
        `Der Link startet ein neues Blitz-Spiel: ${describeLink(link)}. Es ersetzt dein laufendes Spiel; ` +
          "dieses bleibt unter „Spielstände“ erhalten. Neues Spiel starten?",
        "Neues Spiel",
      );
      if (!ok) {
        if (!this.app.running()) showNotice("Der Link wurde nicht geöffnet; dein Spielstand ist unverändert.");
        return true;
      }
      if (this.app.running()) await this.app.autosave();
    }
    await this.app.startGame(linkToGameOptions(link));
    return true;
  }

  /**
   * Before a new game overwrites the autosave: keep an unfinished one as a save of its own.
   * False (and a message) when it cannot be kept; the new game must then not start.
   */
  beforeNewGame() {
    const kept = saves.keepAutosave();
    if (!kept.ok) {
      this.app.toast(kept.message);
      return false;
    }
    if (kept.kept) this.app.toast("Das bisherige Spiel bleibt unter „Spielstände“ erhalten.", "info");
    return true;
  }

  /** "Speichern": the autosave plus a save of this game that a new game never replaces. */
  async saveSlot() {
    const saved = await this.saveRunningGame();
    if (!saved) return false;
    const { game, text } = saved;
    const meta = this.app.meta ? this.app.meta() : {};
    const result = saves.saveSlot(text, { players: game.players, gameId: game.id, slot: game.id, meta });
    if (!result.ok) this.app.toast(result.message);
    return result.ok;
  }

  /** The autosave was refused by the engine: report it, keep the entry, stay in the menu. */
  loadFailed(error) {
    showNotice(`Der Spielstand kann nicht geladen werden: ${error.message} Er bleibt unverändert gespeichert.`);
  }

  canShare() {
    return !!shareableGame(this.app.game(), this.app.scenarios());
  }

  async share() {
    const game = shareableGame(this.app.game(), this.app.scenarios());
    if (!game) return null;
    const url = buildShareUrl(location.href, game);
    const how = await shareUrl(url, `Kaltfront – Blitz: ${describeLink(game)}`);
    if (how === "copied") this.app.toast("Link kopiert.", "info");
    else if (how === "manual") await this.app.confirm(`Kopiere diesen Link: ${url}`, "OK");
    return { url, how };
  }

  openSaves({ closed } = {}) {
    openSavesDialog({
      resume: (record, key) => this.resumeRecord(record, key),
      toast: (text) => this.app.toast(text),
      closed,
    });
  }

  async resumeRecord(record, key) {
    if (!this.app.ready()) {
      this.app.toast("Die Spiel-Engine startet noch – einen Moment.");
      return false;
    }
    // Playing another game than the autosave's would overwrite it at the next autosave: keep it.
    const auto = saves.readAutosaveEntry();
    if (key !== saves.AUTOSAVE_KEY && auto && (!auto.ok || auto.record.game_id !== record.game_id)) {
      if (!this.beforeNewGame()) return false;
    }
    return this.app.resumeGame(saves.recordToResume(record));
  }

  /** The worker died: offer to reload and continue from the last autosave. */
  onCrash(error) {
    const hasAutosave = saves.hasAutosave();
    showCrashDialog(error.message, {
      hasAutosave,
      reload: () => {
        if (hasAutosave) resumeAfterReload();
        location.reload();
      },
    });
  }
}
