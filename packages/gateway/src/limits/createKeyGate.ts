import { onAbort } from '../abort/onAbort.js';
import { KeyGateFullError } from './KeyGateFullError.js';

export { KeyGateFullError };

/** Per-key concurrency cap (see {@link createKeyGate}). */
export interface KeyGate {
  /**
   * Resolves with a release function (idempotent) once `key` has fewer than `maxConcurrent`
   * in flight; waits FIFO otherwise. Rejects with {@link KeyGateFullError} when `maxQueued`
   * are already waiting, and with `signal.reason` (leaving the queue) when `signal` aborts.
   */
  acquire(key: string, signal?: AbortSignal): Promise<() => void>;
  /**
   * The synchronous fast path: a release function when `key` is under its cap and nobody
   * waits, else undefined (then `acquire` waits in line). No promise on the hot path.
   */
  tryAcquire(key: string): (() => void) | undefined;
  /** Keys with something in flight or waiting (for tests and metrics). */
  readonly size: number;
}

/** A waiting acquire. */
interface Waiter {
  resolve: (release: () => void) => void;
  reject: (reason: unknown) => void;
  /** Stops waiting on the client's signal. */
  cancelAbort: (() => void) | undefined;
}

/** One key's state; deleted as soon as nothing is in flight or waiting. */
interface Slot {
  active: number;
  /** FIFO of waiters (at most `maxQueued`, so `shift` stays cheap). */
  queue: Waiter[];
}

/**
 * A per-key concurrency cap inside one process, so one key's flood cannot take every upstream
 * connection: each key has at most `maxConcurrent` requests in flight and `maxQueued` waiting
 * (FIFO); further requests are refused at once with {@link KeyGateFullError}. Keys are
 * independent, and a key's state is dropped as soon as it has nothing in flight or waiting,
 * so memory stays flat however many keys come and go.
 *
 * @example
 * const gate = createKeyGate({ maxConcurrent: 32, maxQueued: 64 });
 * const release = await gate.acquire(keyId, request.signal);
 * try { await forwardUpstream(); } finally { release(); }
 */
export function createKeyGate(options: { maxConcurrent: number; maxQueued: number }): KeyGate {
  const { maxConcurrent, maxQueued } = options;
  if (!Number.isSafeInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new RangeError(`maxConcurrent must be a positive integer, got ${maxConcurrent}`);
  }
  if (!Number.isSafeInteger(maxQueued) || maxQueued < 0) {
    throw new RangeError(`maxQueued must be a non-negative integer, got ${maxQueued}`);
  }
  const slots = new Map<string, Slot>();

  function releaser(key: string, slot: Slot): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slot.queue.shift();
      if (next !== undefined) {
        // Hand the place straight to the first waiter: `active` stays the same.
        next.cancelAbort?.();
        next.resolve(releaser(key, slot));
        return;
      }
      slot.active--;
      if (slot.active === 0) slots.delete(key);
    };
  }

  return {
    acquire(key: string, signal?: AbortSignal): Promise<() => void> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      let slot = slots.get(key);
      if (slot === undefined) {
        slot = { active: 0, queue: [] };
        slots.set(key, slot);
      }
      if (slot.active < maxConcurrent) {
        slot.active++;
        return Promise.resolve(releaser(key, slot));
      }
      if (slot.queue.length >= maxQueued) {
        return Promise.reject(new KeyGateFullError(maxConcurrent, maxQueued));
      }
      const s = slot;
      return new Promise<() => void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, cancelAbort: undefined };
        if (signal !== undefined) {
          waiter.cancelAbort = onAbort(signal, () => {
            const i = s.queue.indexOf(waiter);
            if (i >= 0) s.queue.splice(i, 1);
            // A waiter exists only while `active` is at its cap, so the slot stays.
            reject(signal.reason);
          });
        }
        s.queue.push(waiter);
      });
    },

    tryAcquire(key: string): (() => void) | undefined {
      let slot = slots.get(key);
      if (slot === undefined) {
        slot = { active: 0, queue: [] };
        slots.set(key, slot);
      } else if (slot.active >= maxConcurrent || slot.queue.length > 0) {
        return undefined;
      }
      slot.active++;
      return releaser(key, slot);
    },

    get size() {
      return slots.size;
    },
  };
}
