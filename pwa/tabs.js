// tabs.js — one game, one tab (issue 12.1). Two tabs playing the same game would overwrite each
// other's autosave, so a tab plays (and autosaves) a game only while it holds that game's Web Lock
// `kaltfront-game-<game id>`. Another tab that tries to continue it gets "Dieses Spiel ist in einem
// anderen Tab geöffnet" and may take it over: it asks the holder over the BroadcastChannel
// "kaltfront-tabs" to let go (the holder stops writing at once, then releases the lock), waits for the
// lock (and steals it from a tab that does not answer within TAKEOVER_WAIT_MS: a frozen tab cannot
// write either) and then loads the newest autosave. The tab that lost the game is told through
// `onLost` and shows the same offer the other way round.
//
// Browsers without navigator.locks (Safari before 15.4) get no coordination: every claim succeeds.

const LOCK_PREFIX = "kaltfront-game-";
const CHANNEL = "kaltfront-tabs";
const TAKEOVER_WAIT_MS = 3000;

export class TabGuard {
  /** @param {{onLost: (gameId: string) => void}} hooks  called when another tab took the game over */
  constructor({ onLost }) {
    this.onLost = onLost;
    this.held = null; // {gameId, release()} while this tab holds a game's lock
    this.supported = !!(navigator.locks && navigator.locks.request);
    this.channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
    if (this.channel) {
      this.channel.onmessage = (event) => {
        const m = event.data;
        if (m && m.type === "takeover" && this.held && this.held.gameId === m.gameId) this._lose();
      };
    }
  }

  /** Does this tab play `gameId` (and so may autosave it)? Synchronous, for the autosave's last check. */
  owns(gameId) {
    if (!this.supported) return true;
    return !!(this.held && this.held.gameId === gameId);
  }

  /** Take the game's lock if no other tab has it. Resolves true when this tab now plays it. */
  async claim(gameId) {
    if (!this.supported || !gameId) return true;
    if (this.owns(gameId)) return true;
    this.release();
    return this._request(gameId, { ifAvailable: true });
  }

  /** Ask the tab that plays `gameId` to let go, and take the lock (stolen after a short wait). */
  async takeOver(gameId) {
    if (!this.supported) return true;
    if (this.owns(gameId)) return true;
    this.release();
    if (this.channel) this.channel.postMessage({ type: "takeover", gameId });
    const signal = AbortSignal.timeout ? AbortSignal.timeout(TAKEOVER_WAIT_MS) : undefined;
    if (await this._request(gameId, signal ? { signal } : {})) return true;
    return this._request(gameId, { steal: true });
  }

  /** Let go of the game this tab plays (back to the menu, or another game starts). */
  release() {
    const held = this.held;
    this.held = null;
    if (held) held.release();
  }

  _lose() {
    const held = this.held;
    if (!held) return;
    // Stop writing first (owns() is false from here on), then free the lock for the other tab.
    this.held = null;
    held.release();
    this.onLost(held.gameId);
  }

  _request(gameId, options) {
    return new Promise((resolve) => {
      const entry = { gameId, release: () => {} };
      navigator.locks
        .request(`${LOCK_PREFIX}${gameId}`, options, (lock) => {
          if (!lock) {
            resolve(false);
            return null;
          }
          this.held = entry;
          resolve(true);
          // Held until release(); the lock also ends with the tab.
          return new Promise((done) => { entry.release = done; });
        })
        .catch(() => {
          // A timeout while waiting (AbortError) means "not yet", or another tab stole the lock.
          if (this.held === entry) {
            this.held = null;
            this.onLost(gameId);
          }
          resolve(false);
        });
    });
  }
}
