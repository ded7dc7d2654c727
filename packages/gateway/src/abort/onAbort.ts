import { type AbortCallback, waiting } from './abortWaiting.js';

const NOOP = (): void => {};

/**
 * Runs `callback` once when `signal` aborts, and returns the function that cancels it. Made
 * for signals that outlive many short waits (one per client connection, many requests each):
 * the signal gets ONE `abort` listener the first time, and each wait is a `Set` add and
 * delete, not an `EventTarget` listener added and removed per request (which costs several
 * microseconds in Node 20 and grows the listener list while requests are in flight).
 * An already aborted signal runs nothing (check `signal.aborted` first). `callback` may be an
 * object with `handleEvent` (no closure per wait), cancelled with `offAbort` (no closure returned
 * to keep either).
 *
 * @example
 * const cancel = onAbort(clientSignal, () => upstreamRequest.abort());
 * try { await upstreamRequest.done; } finally { cancel(); }
 */
export function onAbort(signal: AbortSignal, callback: AbortCallback): () => void {
  if (signal.aborted) return NOOP;
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const set = new Set<AbortCallback>();
    callbacks = set;
    waiting.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const run of set) {
          if (typeof run === 'function') run();
          else run.handleEvent();
        }
        set.clear();
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => {
    set.delete(callback);
  };
}
