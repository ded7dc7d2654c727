/**
 * Resolves after `ms`, or at once when `signal` aborts (the caller checks which).
 *
 * @example
 * await sleepUnlessAborted(200, signal);
 * if (signal?.aborted) throw new ClientGoneError();
 */
export function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
