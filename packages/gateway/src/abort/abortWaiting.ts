/** What runs when a signal aborts: a function, or an object's `handleEvent` (no closure per wait). */
export type AbortCallback = (() => void) | { handleEvent(): void };

/**
 * The callbacks waiting on one signal. The first one is held in a field, not a `Set`: a client
 * connection's signal lives for minutes and its requests mostly come one at a time, and a `Set`
 * that long-lived sits in V8's old generation, where each add and delete of one entry made V8
 * rebuild its table there, every few requests (garbage only a full collection clears). Callbacks
 * waiting at the same time as the first (pipelined or WebSocket requests) go to a `Set`.
 */
export class AbortWaiters {
  private one: AbortCallback | undefined = undefined;
  private more: Set<AbortCallback> | undefined = undefined;

  add(callback: AbortCallback): void {
    if (this.one === undefined) this.one = callback;
    else if (this.one !== callback) {
      this.more ??= new Set();
      this.more.add(callback);
    }
  }

  delete(callback: AbortCallback): void {
    if (this.one === callback) this.one = undefined;
    else this.more?.delete(callback);
  }

  /** Runs every waiting callback once and forgets them. */
  run(): void {
    const { one, more } = this;
    this.one = undefined;
    this.more = undefined;
    if (one !== undefined) runCallback(one);
    if (more !== undefined) for (const callback of more) runCallback(callback);
  }
}

const runCallback = (callback: AbortCallback) => {
  if (typeof callback === 'function') callback();
  else callback.handleEvent();
};

/**
 * The callbacks waiting on each signal, behind the single listener `onAbort` registers on it
 * (shared by `onAbort` and `offAbort`).
 */
export const waiting = new WeakMap<AbortSignal, AbortWaiters>();
