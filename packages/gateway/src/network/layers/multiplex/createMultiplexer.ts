import { canonicalParams } from '../../../cache/canonicalParams.js';
import { offAbort } from '../../../abort/offAbort.js';
import { onAbort } from '../../../abort/onAbort.js';
import { ClientGoneError } from '../../../errors/ClientGoneError.js';
import { RawJson } from '../../../jsonrpc/RawJson.js';
import type { CallLayer, Forwarded, NetworkCall } from '../../types.js';

/** Unaborted controllers kept for later shared calls. */
const MAX_SPARE = 256;

/** Counted by the multiplex layer (read by `Network.counters()`). */
export interface MultiplexCounts {
  /** Calls answered (with a result or an error) by a call another request started. */
  multiplexed: number;
}

/** A caller that joined a call another request started. */
interface Joiner {
  readonly resolve: (f: Forwarded) => void;
  readonly reject: (err: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly leave: () => void;
}

/** A call in flight that callers share: the first caller's, run on a signal of its own. */
interface Shared {
  readonly key: string;
  readonly controller: AbortController;
  /** Its options: the first caller's, with the latest deadline of the callers. */
  readonly options: { deadline: number | undefined; partners: boolean | undefined; requestId: string | undefined };
  /** Callers still waiting, the first one included. */
  waiting: number;
  /** Callers that joined it (made when the first one joins). */
  joiners: Joiner[] | undefined;
}

/**
 * The identity of a call for sharing: how its result is wanted (raw text or parsed), whether it
 * may go to partners, the method, and its params canonical (`canonicalParams`, the cache's
 * spelling: named params in any order are one call). The network is the layer's own.
 */
function keyOf(call: NetworkCall): string {
  const p = call.params;
  const params = Array.isArray(p) && p.length === 0 ? '' : canonicalParams(p ?? null);
  return `${call.raw ? 'r' : 'p'}${call.options?.partners === true ? '+' : '-'}${call.method}|${params}`;
}

/** A caller's own copy of a shared result (a finisher may change a parsed result in place); raw text is shared. */
function ownCopy(result: unknown): unknown {
  return result !== null && typeof result === 'object' && !(result instanceof RawJson)
    ? structuredClone(result)
    : result;
}

/**
 * The multiplex layer (outermost): identical reads in flight at the same time go upstream once.
 * Identical is the method, its canonical params, the result's form and whether partners may
 * answer; only methods the method table marks `multiplexable` (deterministic reads: never
 * writes, filters, subscriptions or dev methods) are shared. Each caller still went through its
 * own authentication, restrictions, limits and credits before it got here, and gets its own
 * answer object (a parsed result is copied), with `multiplexed: true` when the call was another
 * caller's. A caller that goes away stops waiting without touching the shared call while others
 * wait; the last one leaving aborts it. The shared call runs until the latest deadline among
 * its callers. After a write (any call that is not a read) is answered, no later read joins a call
 * started before it (a client reads its own writes).
 *
 * @example
 * const forward = createMultiplexer(settings.policy.multiplex, counts)(routed);
 */
export function createMultiplexer(enabled: boolean, counts: MultiplexCounts): CallLayer {
  const inflight = new Map<string, Shared>();
  /**
   * Controllers of shared calls that ended without being aborted, for the next ones (making an
   * AbortController costs a few microseconds and an EventTarget per call): whatever listened to
   * its signal for a call has stopped once that call ended (`offAbort`).
   */
  const spare: AbortController[] = [];
  const reuse = (controller: AbortController) => {
    if (!controller.signal.aborted && spare.length < MAX_SPARE) spare.push(controller);
  };
  /** One caller fewer: the last one leaving aborts the call (and new callers start a new one). */
  const left = (shared: Shared) => {
    shared.waiting -= 1;
    if (shared.waiting > 0) return;
    if (inflight.get(shared.key) === shared) inflight.delete(shared.key);
    shared.controller.abort();
  };

  /**
   * The first caller: its own call, on a signal of the layer's (aborted when the last caller
   * leaves). It gets the call's own answer; each joiner a copy, made before any of them runs on.
   */
  const start = (next: (call: NetworkCall) => Promise<Forwarded>, call: NetworkCall, key: string) =>
    new Promise<Forwarded>((resolve, reject) => {
      const signal = call.signal;
      if (signal?.aborted) return reject(new ClientGoneError());
      const first = call.options;
      const shared: Shared = {
        key,
        controller: spare.pop() ?? new AbortController(),
        options: { deadline: first?.deadline, partners: first?.partners, requestId: first?.requestId },
        waiting: 1,
        joiners: undefined,
      };
      let here = true;
      const leave = () => {
        here = false;
        reject(new ClientGoneError());
        left(shared);
      };
      if (signal !== undefined) onAbort(signal, leave);
      call.signal = shared.controller.signal;
      call.options = shared.options;
      inflight.set(key, shared);
      next(call).then(
        (f) => {
          if (inflight.get(key) === shared) inflight.delete(key);
          if (signal !== undefined) offAbort(signal, leave);
          reuse(shared.controller);
          if (here) resolve(f);
          const joiners = shared.joiners;
          if (joiners === undefined) return;
          for (const j of joiners) {
            if (j.signal !== undefined) offAbort(j.signal, j.leave);
            counts.multiplexed += 1;
            j.resolve({ ...f, result: here ? ownCopy(f.result) : f.result, multiplexed: true });
            here = true;
          }
        },
        (err: unknown) => {
          if (inflight.get(key) === shared) inflight.delete(key);
          if (signal !== undefined) offAbort(signal, leave);
          reuse(shared.controller);
          reject(err);
          const joiners = shared.joiners;
          if (joiners === undefined) return;
          for (const j of joiners) {
            if (j.signal !== undefined) offAbort(j.signal, j.leave);
            counts.multiplexed += 1;
            j.reject(err);
          }
        },
      );
    });

  /** A later caller: waits for the shared call (or leaves it, without stopping it for the others). */
  const join = (shared: Shared, call: NetworkCall): Promise<Forwarded> =>
    new Promise<Forwarded>((resolve, reject) => {
      const signal = call.signal;
      if (signal?.aborted) return reject(new ClientGoneError());
      const deadline = call.options?.deadline;
      const o = shared.options;
      if (o.deadline !== undefined) o.deadline = deadline === undefined ? undefined : Math.max(deadline, o.deadline);
      const joiner: Joiner = {
        resolve,
        reject,
        signal,
        leave: () => {
          const list = shared.joiners!;
          const i = list.indexOf(joiner);
          if (i < 0) return;
          list.splice(i, 1);
          reject(new ClientGoneError());
          left(shared);
        },
      };
      if (shared.joiners === undefined) shared.joiners = [joiner];
      else shared.joiners.push(joiner);
      shared.waiting += 1;
      if (signal !== undefined) onAbort(signal, joiner.leave);
    });

  return (next) => (call) => {
    if (!enabled) return next(call);
    if (call.traits.multiplexable !== true) {
      if (call.traits.kind === 'read' || inflight.size === 0) return next(call);
      // a write: reads after its answer do not join calls started before it
      return next(call).finally(() => inflight.clear());
    }
    const key = keyOf(call);
    const found = inflight.get(key);
    return found === undefined ? start(next, call, key) : join(found, call);
  };
}
