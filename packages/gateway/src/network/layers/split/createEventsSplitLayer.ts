import { GatewayError, UpstreamRpcError } from '../../../errors/GatewayError.js';
import { starknetMethods } from '../../../families/starknet/starknetMethods.js';
import { classifyUpstreamError, type RangeRefusal } from '../../../upstream/classifyUpstreamError.js';
import { upstreamUnavailable } from '../../upstreamUnavailable.js';
import { withAttempts } from '../../withAttempts.js';
import type { CallLayer, Forward, Forwarded, NetworkCall } from '../../types.js';
import type { RangeLimits } from './createRangeLimits.js';
import { type EventsEnd, type EventsQuery, eventsQuery } from './eventsQuery.js';
import {
  type EventsPosition,
  eventsToken,
  filterDigest,
  invalidContinuationToken,
  MAX_UPSTREAM_TOKEN_LENGTH,
  readEventsToken,
  TOKEN_PREFIX,
} from './eventsToken.js';

/** What the events split layer is built on. */
export interface EventsSplitDeps {
  /** The upstreams' range limits (shared with the `eth_getLogs` split: `getLogsMaxBlockRange`). */
  readonly limits: RangeLimits;
  /** The network's best head as last seen (for `latest` before it is resolved), when known. */
  readonly head: () => number | undefined;
  /** The tag the family sends for the pre-confirmed block. */
  readonly pendingTag: string;
  /** Network name, for the errors. */
  readonly network: string;
}

/** Sub-requests one page of a split walk sends at most (then the page ends, with a token: bounded work per request). */
const MAX_SUBS_PER_PAGE = 32;
/** Refusals one page bisects at most (then the node's refusal is the answer). */
const MAX_REFUSALS = 16;
/** The sub-range size when no limit is known but a node refused (or timed out on) the whole range. */
const FIRST_GUESS = 1000;
/** Timeouts one page halves a sub-range for at most (with the whole call's, fewer than the breaker's 5 in a row). */
const MAX_TIMEOUTS = 2;

/** A page of events as the spec shapes it. */
interface EventsPage {
  events: unknown[];
  continuation_token?: string;
}

const isPendingTag = (e: EventsEnd) => e.kind === 'tag' && (e.tag === 'pre_confirmed' || e.tag === 'pending');

function refusalOf(err: unknown): RangeRefusal | undefined {
  if (!(err instanceof UpstreamRpcError)) return undefined;
  const v = classifyUpstreamError(err, { ranged: true });
  return v.kind === 'range' && v.what === 'blocks' ? v : undefined;
}

/** The call timed out on every upstream it was tried on (`UPSTREAM_UNAVAILABLE`, reason `timeout`). */
function timedOut(err: unknown): boolean {
  return (
    err instanceof GatewayError &&
    err.kind === 'UPSTREAM_UNAVAILABLE' &&
    (err.data as { reason?: unknown } | undefined)?.reason === 'timeout'
  );
}

/**
 * The refusal of a `starknet_getEvents` range wider than the key may ask for
 * (`maxLogsBlockRange`): -32005 `LOGS_RANGE_TOO_LARGE`, with the range to retry with.
 */
function eventsRangeTooLarge(from: number, to: number, cap: number): GatewayError {
  const retryTo = from + cap - 1;
  return new GatewayError(
    'LOGS_RANGE_TOO_LARGE',
    `block range too large: starknet_getEvents over ${to - from + 1} blocks, at most ${cap} allowed; retry with from_block ${from} and to_block ${retryTo}`,
    { data: { from, to: retryTo, limit: cap } },
  );
}

/**
 * The events split layer (call level, beside the `eth_getLogs` split): a `starknet_getEvents`
 * over a block range is
 *
 * - **refused before any upstream is asked** when wider than the caller's cap
 *   (`options.logs.maxBlockRange`: the plan's `maxLogsBlockRange`, else the network's):
 *   -32005 `LOGS_RANGE_TOO_LARGE`, `data: { from, to, limit }` (block numbers);
 * - **walked in sub-ranges** when wider than the narrowest upstream takes (`getLogsMaxBlockRange`)
 *   or when a node refuses it as too wide (the classifier's wordings; the refusing upstream
 *   learns, the sub-range is halved): the tags of the first page are resolved once, the page is
 *   filled across sub-ranges up to the client's `chunk_size`, in block order, each event once;
 *   its `continuation_token` is the gateway's own (`eventsToken.ts`: the sub-range and the
 *   upstream's token in it, bound to the filter, checked on return: 33
 *   INVALID_CONTINUATION_TOKEN otherwise). A page sends at most 32 sub-requests (a page may then
 *   hold fewer events than `chunk_size`, with a token), none after the request's deadline.
 *
 * A range within every limit, a `block_hash` end, a range starting at the pending block and an
 * upstream's own token go as they are.
 *
 * @example
 * const events = createEventsSplitLayer({ limits, head: heads.best, pendingTag: 'pre_confirmed', network: 'starknet' });
 */
export function createEventsSplitLayer(deps: EventsSplitDeps): CallLayer {
  const { limits, head, pendingTag, network } = deps;

  const ask = async (
    next: Forward,
    call: NetworkCall,
    method: 'blockNumber' | 'getBlockWithTxHashes',
    params: unknown,
  ) => {
    const sub: NetworkCall = {
      ...call,
      method: `starknet_${method}`,
      params,
      traits: starknetMethods[method],
      cls: 'light',
      requested: undefined,
      raw: false,
      attempts: 0,
    };
    try {
      return (await next(sub)).result;
    } finally {
      call.attempts += sub.attempts;
    }
  };

  const heightOf = async (next: Forward, call: NetworkCall, end: EventsEnd): Promise<number> => {
    if (end.kind === 'number') return end.n;
    if (end.kind === 'tag' && end.tag === 'l1_accepted') {
      const b = (await ask(next, call, 'getBlockWithTxHashes', { block_id: 'l1_accepted' })) as {
        block_number?: unknown;
      } | null;
      if (Number.isSafeInteger(b?.block_number)) return b!.block_number as number;
    } else {
      const n = await ask(next, call, 'blockNumber', {});
      if (Number.isSafeInteger(n)) return n as number;
    }
    throw upstreamUnavailable(network, undefined, 'could not resolve a block tag of starknet_getEvents');
  };

  /** The sub-range size to ask now (the lowest upstream limit, else a first guess after a refusal). */
  const span = () => {
    const m = limits.min();
    return Number.isFinite(m) ? Math.max(1, m) : FIRST_GUESS;
  };

  /** One page of the walk from `p`: events up to `chunk`, and where the next page starts (undefined: the end). */
  const page = async (
    next: Forward,
    call: NetworkCall,
    q: EventsQuery,
    digest: string,
    start: EventsPosition,
  ): Promise<Forwarded> => {
    const events: unknown[] = [];
    let p: EventsPosition | undefined = start;
    let subs = 0;
    let refusals = 0;
    let timeouts = 0;
    let upstream = '';
    const deadline = call.options?.deadline;
    while (p !== undefined && events.length < q.chunk && subs < MAX_SUBS_PER_PAGE) {
      if (deadline !== undefined && Date.now() >= deadline) {
        if (events.length > 0 || subs > 0) break; // what is here, and a token to go on
        throw upstreamUnavailable(
          network,
          undefined,
          'the split starknet_getEvents ran out of time (the request deadline)',
        );
      }
      const last = p.end === p.to && p.pending === true;
      const filter: Record<string, unknown> = {
        ...q.filter,
        from_block: { block_number: p.at },
        to_block: last ? pendingTag : { block_number: p.end },
        chunk_size: q.chunk - events.length,
      };
      if (p.upstream === undefined) delete filter.continuation_token;
      else filter.continuation_token = p.upstream;
      const sub: NetworkCall = {
        ...call,
        params: { filter },
        requested: { kind: 'number', number: p.end },
        raw: false,
        attempts: 0,
      };
      subs += 1;
      let answer: EventsPage;
      try {
        const f = await next(sub);
        upstream = f.upstream;
        answer = f.result as EventsPage;
        if (typeof answer !== 'object' || answer === null || !Array.isArray(answer.events))
          throw upstreamUnavailable(
            network,
            undefined,
            'an upstream answered starknet_getEvents without a list of events',
          );
      } catch (err) {
        const refusal = refusalOf(err);
        // a node that timed out on the sub-range: halved (twice per page at most)
        if (
          refusal === undefined &&
          timedOut(err) &&
          p.upstream === undefined &&
          p.at < p.end &&
          ++timeouts <= MAX_TIMEOUTS
        ) {
          p = { ...p, end: p.at + Math.floor((p.end - p.at) / 2) };
          continue;
        }
        // a refusal within a sub-range the node already paged (its token) is not bisected: the token is its
        if (refusal === undefined || p.upstream !== undefined || p.at === p.end || ++refusals > MAX_REFUSALS)
          throw withAttempts(err, call.attempts);
        const name = (err as { upstream?: unknown }).upstream;
        if (typeof name === 'string') limits.of(name)?.refused(p.end - p.at + 1, refusal.limit);
        const half = p.at + Math.floor((p.end - p.at) / 2);
        const cut: number =
          refusal.limit !== undefined && p.at + refusal.limit - 1 < p.end ? p.at + refusal.limit - 1 : half;
        p = { ...p, end: cut };
        continue;
      } finally {
        call.attempts += sub.attempts;
      }
      for (const e of answer.events) events.push(e);
      const token = answer.continuation_token;
      if (typeof token === 'string' && token.length > 0) {
        if (token.length > MAX_UPSTREAM_TOKEN_LENGTH)
          throw upstreamUnavailable(network, undefined, 'an upstream gave a continuation token too long to carry');
        p = { ...p, upstream: token };
      } else if (p.end >= p.to) {
        p = undefined;
      } else {
        // the next sub-range no wider than this one (a width a timeout or refusal cut is kept, in the token too)
        const at: number = p.end + 1;
        p = { ...p, at, end: Math.min(p.to, at + Math.min(span(), p.end - p.at + 1) - 1), upstream: undefined };
      }
    }
    const result: EventsPage = { events };
    if (p !== undefined) result.continuation_token = eventsToken(digest, p);
    return { result, upstream, attempts: call.attempts, split: subs };
  };

  const events = async (next: Forward, call: NetworkCall, q: EventsQuery): Promise<Forwarded> => {
    const cap = call.options?.logs?.maxBlockRange;
    const digest = filterDigest(q.filter);
    // a token of the gateway's own: the walk goes on where it stopped
    if (q.token?.startsWith(TOKEN_PREFIX)) {
      const p = readEventsToken(q.token, digest);
      // bound to the filter's numbers and to the caller's cap (a forged range buys nothing)
      if (q.from.kind === 'number' && p.from !== q.from.n) throw invalidContinuationToken();
      if (q.to.kind === 'number' && p.to !== q.to.n) throw invalidContinuationToken();
      if (p.pending !== isPendingTag(q.to)) throw invalidContinuationToken();
      if (cap !== undefined && p.to - p.from + 1 > cap) throw invalidContinuationToken();
      return page(next, call, q, digest, p);
    }
    // an upstream's own token (a whole answer's), a hash end or a range from the pending block: as it is
    if (q.token !== undefined || q.from.kind === 'hash' || q.to.kind === 'hash' || isPendingTag(q.from))
      return next(call);
    const limit = limits.min();
    const seen = head();
    const guess = (e: EventsEnd) => (e.kind === 'number' ? e.n : seen);
    /** The call as it is over `blocks` (when known); what stopped it when a node refused or timed out. */
    const tryWhole = async (blocks: number | undefined): Promise<Forwarded | 'refused' | 'timeout'> => {
      try {
        return await next(call);
      } catch (err) {
        const refusal = refusalOf(err);
        if (blocks === 1 || (refusal === undefined && !timedOut(err))) throw withAttempts(err, call.attempts);
        if (refusal === undefined) return 'timeout';
        const name = (err as { upstream?: unknown }).upstream;
        if (blocks !== undefined && typeof name === 'string') limits.of(name)?.refused(blocks, refusal.limit);
        return 'refused';
      }
    };
    let whole: 'refused' | 'timeout' | undefined;
    const gFrom = guess(q.from);
    const gTo = guess(q.to);
    if (gFrom !== undefined && gTo !== undefined) {
      if (gTo < gFrom) return next(call); // the node answers the client's mistake
      if (cap !== undefined && gTo - gFrom + 1 > cap) throw eventsRangeTooLarge(gFrom, gTo, cap);
      if (gTo - gFrom + 1 <= limit) {
        const f = await tryWhole(gTo - gFrom + 1);
        if (typeof f === 'object') return f;
        whole = f;
      }
    } else if (cap === undefined && !Number.isFinite(limit)) {
      // no cap, no limit known: the call as it is before any tag is resolved
      const f = await tryWhole(undefined);
      if (typeof f === 'object') return f;
      whole = f;
    }
    let from: number;
    let to: number;
    try {
      from = await heightOf(next, call, q.from);
      to = q.to.kind === 'number' ? q.to.n : await heightOf(next, call, q.to);
    } catch (err) {
      throw withAttempts(err, call.attempts);
    }
    if (to < from) return next(call);
    if (cap !== undefined && to - from + 1 > cap) throw eventsRangeTooLarge(from, to, cap);
    if (whole === undefined && to - from + 1 <= limits.min()) {
      const f = await tryWhole(to - from + 1);
      if (typeof f === 'object') return f;
      whole = f;
    }
    // a whole call that timed out: half of it first (at most the first guess)
    const width =
      whole === 'timeout' ? Math.min(FIRST_GUESS, Math.ceil((to - from + 1) / 2)) : Number.POSITIVE_INFINITY;
    const size = Math.min(span(), width, to - from + 1);
    return page(next, call, q, digest, { from, to, at: from, end: from + size - 1, pending: isPendingTag(q.to) });
  };

  return (next) => (call) => {
    if (call.method !== 'starknet_getEvents') return next(call);
    const q = eventsQuery(call.params);
    return q === undefined ? next(call) : events(next, call, q);
  };
}
