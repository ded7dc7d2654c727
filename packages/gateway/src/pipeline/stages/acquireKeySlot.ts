import { GatewayError } from '../../errors/GatewayError.js';
import { KeyGateFullError } from '../../limits/KeyGateFullError.js';
import type { KeyGate } from './forwardCall.js';

/**
 * Stage "slot": one of `key`'s slots in `gate` (its concurrency cap), at once when one is free
 * and nobody waits, else in line (FIFO) until one is or `signal` aborts (its reason is thrown).
 * (A hot path tries `gate.tryAcquire` first, which costs no promise.)
 * A full line is a 429 (`refusal: concurrency`, `Retry-After: 1`) naming `holder` and the bounds.
 * Resolves with the release, to call once the work is done (idempotent).
 *
 * @example
 * const release = await acquireKeySlot(gate, ctx.key!.record.key, ctx.signal);
 * try { await work(); } finally { release(); }
 */
export function acquireKeySlot(
  gate: KeyGate,
  key: string,
  signal: AbortSignal,
  holder = 'this API key',
): Promise<() => void> {
  return gate.acquire(key, signal).catch((err: unknown) => {
    if (signal.aborted) throw err;
    const message =
      err instanceof KeyGateFullError
        ? `too many concurrent requests for ${holder}: at most ${err.maxConcurrent} in flight and ${err.maxQueued} waiting`
        : (err as Error).message;
    throw new GatewayError('RATE_LIMITED', message, { refusal: 'concurrency', retryAfterSeconds: 1 });
  });
}
