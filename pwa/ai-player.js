// ai-player.js — plays the computer's turn from the page's side: asks the worker for a whole AI turn
// (worker op "ai_turn", which streams every step while Python keeps thinking) and hands the steps one by
// one to an animation callback at a readable pace. `skip()` drops the animation for the rest of the
// turn (the steps are still applied in order, so the final picture is the same). The page never blocks:
// the AI runs in the worker, this only awaits messages and timers. `cancel()` abandons the running turn
// (a new game replaced the one it belongs to, issue 12.4): its remaining steps are neither drawn nor
// waited for, and playTurn resolves with -1 so the caller knows the turn no longer matters.

export class AiPlayer {
  /** @param engine  pwa/engine.js Engine
   *  @param animate async (step, {fast}) => void — shows one step ({action, events, observation}) */
  constructor(engine, animate) {
    this.engine = engine;
    this.animate = animate;
    this.fast = false;
    this.running = false;
  }

  skip() { this.fast = true; }

  cancel() {
    if (this._turn) { this._turn.cancelled = true; this._turn.wake(); }
  }

  async playTurn(strength) {
    this.fast = false;
    this.running = true;
    const turn = { cancelled: false, wake: () => poke() };
    this._turn = turn;
    const queue = [];
    let wake = null, finished = false, error = null;
    const poke = () => { if (wake) { const w = wake; wake = null; w(); } };
    const call = this.engine.call("ai_turn", { strength }, {
      onProgress: (step) => { queue.push(step); poke(); },
    });
    call.then(() => { finished = true; poke(); }, (e) => { error = e; finished = true; poke(); });
    let steps = 0;
    try {
      for (;;) {
        if (turn.cancelled) return -1;
        if (queue.length) {
          const step = queue.shift();
          steps++;
          // With skip, only the last queued step needs drawing; earlier ones are passed through fast.
          await this.animate(step, { fast: this.fast, last: finished && !queue.length });
        } else if (finished) break;
        else await new Promise((r) => { wake = r; });
      }
      if (turn.cancelled) return -1;
    } finally {
      if (this._turn === turn) { this._turn = null; this.running = false; }
    }
    if (error) throw error;
    return steps;
  }
}
