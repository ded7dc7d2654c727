import type { KeyLimits, LimitRefusal, Limiter } from '../limits/Limiter.js';
import { IpfsCommandError } from './IpfsCommandError.js';

const MiB = 1024 * 1024;
/** Served bytes are charged to the limiter in batches of at most this, and at least MIN_BATCH. */
const MAX_BATCH = MiB;
const MIN_BATCH = 1024;
/** The longest single wait for the rate to allow more bytes (the wait is then tried again). */
const MAX_WAIT_MS = 1_000;

/** What a key may be served over IPFS (its plan's bounds and the price of a served MiB). */
export interface ServedLimits {
  /** Bytes one answer may carry; the answer stops there. */
  readonly bytesPerRequest: number;
  /** Bytes the key may be served per UTC day (every instance together, with Redis). */
  readonly bytesPerDay: number;
  /** Bytes per second the key's answers are paced to (all its answers together). */
  readonly bytesPerSecond: number;
  /** Credits charged for each whole MiB an answer carries (0: none). */
  readonly creditsPerMiB: number;
  /** The key's credit limits (the per-MiB credits are charged against them). */
  readonly credits: KeyLimits;
}

/** What one answer was served and charged, read when it ends (usage). */
export interface ServedTally {
  readonly bytes: number;
  /** Credits charged for the MiB served (beyond the command's own credits). */
  readonly credits: number;
  /** Why the answer was stopped or refused by a served-bytes limit, if it was. */
  readonly stoppedBy: IpfsCommandError | undefined;
}

/** Meters one answer's bytes against the key's served-bytes limits. */
export interface ServedMeter extends ServedTally {
  /** A refusal before anything is asked of the node: the key's bytes for today are used up. */
  refuseBefore(): Promise<IpfsCommandError | undefined>;
  /** A refusal before the answer starts: it declares more bytes than one answer may carry. */
  refuseDeclared(length: number): IpfsCommandError | undefined;
  /**
   * Before `bytes` more of the answer are written: undefined to write them now, else a promise
   * that resolves when they may be written (paced), or rejects with the {@link IpfsCommandError}
   * that stops the answer (a bound reached, or `signal` aborted).
   */
  take(bytes: number): Promise<void> | undefined;
  /** The answer ended: the bytes served since the last charge are counted (never refused). */
  flush(): void;
}

/** The limiter key of a key's served bytes (a namespace of its own beside its credits). */
export function servedBytesKey(key: string): string {
  return `ipfs-served:${key}`;
}

/**
 * A {@link ServedMeter} for one answer of `key`. Served bytes are counted under
 * {@link servedBytesKey} (per-second pace and per-day total; with Redis every instance shares
 * them), exactly, in batches (an eighth of the pace, a 64th of the day, 1 KiB to 1 MiB): a batch
 * is charged once it was written, so the day can be passed by at most one batch; over the pace the answer
 * waits (backpressure reaches the node). Each whole MiB costs `creditsPerMiB` credits, charged
 * before the chunk that completes it is written; out of credits, or at the per-request or
 * per-day bound, the answer is stopped. `flush` counts the last batch when the answer ends.
 *
 * @example
 * const meter = createServedMeter(limiter, key, limits, signal);
 * const wait = meter.take(chunk.byteLength); // undefined: write it now
 */
export function createServedMeter(
  limiter: Limiter,
  key: string,
  limits: ServedLimits,
  signal: AbortSignal,
): ServedMeter {
  const bytesKey = servedBytesKey(key);
  const bytesLimits: KeyLimits = { creditsPerSecond: limits.bytesPerSecond, creditsPerDay: limits.bytesPerDay };
  let served = 0;
  let credits = 0;
  /** Served bytes not yet charged to the limiter (at most one batch). */
  let unpaid = 0;
  /** Whole MiB whose credits were charged. */
  let paidMiB = 0;
  const batch = Math.max(
    MIN_BATCH,
    Math.min(MAX_BATCH, Math.floor(limits.bytesPerSecond / 8), Math.floor(limits.bytesPerDay / 64)),
  );
  let stoppedBy: IpfsCommandError | undefined;

  const stop = (err: IpfsCommandError): never => {
    stoppedBy ??= err;
    throw err;
  };
  const dailyBytes = (r: Extract<LimitRefusal, { kind: 'daily' }>) =>
    new IpfsCommandError(
      429,
      `daily IPFS bytes-served limit reached: this API key was served ${r.used} of ${r.dailyLimit} bytes today; it resets at ${r.resetsAt}`,
      1,
      { headers: { 'retry-after': String(retryAfter(r.resetsAt)) }, refusal: 'served-daily' },
    );
  const perRequest = () =>
    new IpfsCommandError(
      400,
      `answer too large: this API key may be served ${limits.bytesPerRequest} bytes per request; read it in parts (cat offset and length)`,
      1,
      { refusal: 'served-request' },
    );

  /**
   * Pays the bytes written since the last settle (they were served: counted even when refused,
   * then paced or stopped), then the credits of the MiB the next `bytes` complete (before they
   * are written: a MiB the key cannot pay for is not served).
   */
  async function settle(bytes: number): Promise<void> {
    if (unpaid > 0) {
      const due = unpaid;
      unpaid = 0;
      const d = await limiter.charge(bytesKey, due, bytesLimits);
      if (!d.ok) {
        await limiter.record(bytesKey, due);
        if (d.kind === 'rate') await pause(d.backoffSeconds);
        else stop(dailyBytes(d));
      }
    }
    const mib = Math.floor((served + bytes) / MiB) - paidMiB;
    if (mib > 0 && limits.creditsPerMiB > 0) {
      const n = mib * limits.creditsPerMiB;
      for (;;) {
        const d = await limiter.charge(key, n, limits.credits);
        if (d.ok) break;
        if (d.kind === 'rate') {
          await pause(d.backoffSeconds);
          continue;
        }
        stop(
          new IpfsCommandError(
            429,
            `daily credit limit exceeded: serving more of this answer costs ${n} credits (${limits.creditsPerMiB} per MiB); it resets at ${d.resetsAt}`,
            1,
            { headers: { 'retry-after': String(retryAfter(d.resetsAt)) }, refusal: 'daily' },
          ),
        );
      }
      credits += n;
    }
    paidMiB += Math.max(0, mib);
    served += bytes;
    unpaid += bytes;
  }

  async function pause(seconds: number): Promise<void> {
    if (signal.aborted) throw gone();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(MAX_WAIT_MS, Math.max(10, seconds * 1000)));
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
    if (signal.aborted) throw gone();
  }

  return {
    get bytes() {
      return served;
    },
    get credits() {
      return credits;
    },
    get stoppedBy() {
      return stoppedBy;
    },
    async refuseBefore() {
      const used = await limiter.usedToday(bytesKey);
      if (used < limits.bytesPerDay) return undefined;
      const now = Date.now();
      const resetsAt = new Date((Math.floor(now / 86_400_000) + 1) * 86_400_000).toISOString();
      stoppedBy = dailyBytes({ ok: false, kind: 'daily', dailyLimit: limits.bytesPerDay, used, resetsAt });
      return stoppedBy;
    },
    refuseDeclared(length) {
      if (!(length > limits.bytesPerRequest)) return undefined;
      stoppedBy = perRequest();
      return stoppedBy;
    },
    take(bytes) {
      if (stoppedBy !== undefined) return Promise.reject(stoppedBy);
      if (served + bytes > limits.bytesPerRequest) {
        stoppedBy = perRequest();
        return Promise.reject(stoppedBy);
      }
      const completesMiB = Math.floor((served + bytes) / MiB) > paidMiB && limits.creditsPerMiB > 0;
      if (unpaid + bytes < batch && !completesMiB) {
        served += bytes;
        unpaid += bytes;
        return undefined;
      }
      return settle(bytes);
    },
    flush() {
      if (unpaid === 0) return;
      const due = unpaid;
      unpaid = 0;
      limiter.record(bytesKey, due).catch(() => undefined);
    },
  };
}

/** The client went away while its answer waited for the pace: not a limit, nothing to record. */
function gone(): IpfsCommandError {
  return new IpfsCommandError(499, 'the client went away', 0);
}

function retryAfter(resetsAt: string): number {
  return Math.max(1, Math.ceil((Date.parse(resetsAt) - Date.now()) / 1000));
}
