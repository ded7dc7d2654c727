import { type AbortCallback, AbortWaiters, waiting } from './abortWaiting.js';

const NOOP = (): void => {};

/**
 * Runs `callback` once when `signal` aborts, and returns the function that cancels it. Made
 * for signals that outlive many short waits (one per client connection, many requests each):
 * the signal gets ONE `abort` listener the first time, and each wait is an add and a
 * delete in its {@link AbortWaiters}, not an `EventTarget` listener added and removed per request (which costs several
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
  const waiters = waiting.get(signal) ?? watch(signal);
  waiters.add(callback);
  return () => {
    waiters.delete(callback);
  };
}

/** The signal's waiters, made with the one `abort` listener that runs them. */
function watch(signal: AbortSignal): AbortWaiters {
  const waiters = new AbortWaiters();
  waiting.set(signal, waiters);
  signal.addEventListener(
    'abort',
    () => {
      waiting.delete(signal);
      waiters.run();
    },
    { once: true },
  );
  return waiters;
}
