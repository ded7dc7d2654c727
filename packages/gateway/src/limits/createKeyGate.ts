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
  /** Key states held, busy and idle: at most `size` + {@link IDLE_SLOTS_KEPT}. */
  readonly held: number;
}

/** A waiting acquire. */
interface Waiter {
  resolve: (release: () => void) => void;
  reject: (reason: unknown) => void;
  /** Stops waiting on the client's signal. */
  cancelAbort: (() => void) | undefined;
}

/** One key's state; idle (nothing in flight or waiting) ones are kept up to {@link IDLE_SLOTS_KEPT}. */
interface Slot {
  active: number;
  /** FIFO of waiters (at most `maxQueued`, so `shift` stays cheap). */
  queue: Waiter[];
}

/**
 * Idle keys' states kept for their next request. A key's state is not deleted the moment its
 * last request ends: a `Map` that held the gateway's few busy keys for minutes lives in V8's old
 * generation, and each delete and re-add of a key there made V8 rebuild the map's table in the
 * old generation, about one rebuild every other request (the largest part of what a steady
 * 2,000 req/s of one key left there, and so of its full collections). Idle states beyond this many
 * are dropped together, so memory stays bounded however many keys come and go.
 */
export const IDLE_SLOTS_KEPT = 1024;

/**
 * A per-key concurrency cap inside one process, so one key's flood cannot take every upstream
 * connection: each key has at most `maxConcurrent` requests in flight and `maxQueued` waiting
 * (FIFO); further requests are refused at once with {@link KeyGateFullError}. Keys are
 * independent; the states of keys with nothing in flight or waiting are kept up to
 * {@link IDLE_SLOTS_KEPT} and then dropped, so memory stays flat however many keys come and go.
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
  /** Keys with something in flight or waiting (a waiter exists only while `active` > 0). */
  let busy = 0;

  /** A key's state, made when it has none (idle states over the bound are dropped first). */
  const take = (key: string): Slot => {
    let slot = slots.get(key);
    if (slot === undefined) {
      if (slots.size - busy >= IDLE_SLOTS_KEPT) dropIdle();
      slot = { active: 0, queue: [] };
      slots.set(key, slot);
    }
    return slot;
  };

  const dropIdle = () => {
    for (const [key, slot] of slots) if (slot.active === 0) slots.delete(key);
  };

  function releaser(slot: Slot): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slot.queue.shift();
      if (next !== undefined) {
        // Hand the place straight to the first waiter: `active` stays the same.
        next.cancelAbort?.();
        next.resolve(releaser(slot));
        return;
      }
      slot.active--;
      if (slot.active === 0) busy--;
    };
  }

  return {
    acquire(key: string, signal?: AbortSignal): Promise<() => void> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const slot = take(key);
      if (slot.active < maxConcurrent) {
        if (slot.active++ === 0) busy++;
        return Promise.resolve(releaser(slot));
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
      const slot = take(key);
      if (slot.active >= maxConcurrent || slot.queue.length > 0) return undefined;
      if (slot.active++ === 0) busy++;
      return releaser(slot);
    },

    get size() {
      return busy;
    },

    get held() {
      return slots.size;
    },
  };
}
