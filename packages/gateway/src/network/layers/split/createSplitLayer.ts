import { UpstreamRpcError } from '../../../errors/GatewayError.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import type { RawJson } from '../../../jsonrpc/RawJson.js';
import { classifyUpstreamError, type RangeRefusal } from '../../../upstream/classifyUpstreamError.js';
import { upstreamUnavailable } from '../../upstreamUnavailable.js';
import { withAttempts } from '../../withAttempts.js';
import type { CallLayer, Forward, Forwarded, NetworkCall } from '../../types.js';
import { type AnsweredRange, countLogs, fitUpTo, rangeTooLarge, tooManyResults } from './logsCapErrors.js';
import type { RangeLimits } from './createRangeLimits.js';
import { hex, type LogsQuery, logsQuery, type RangeEnd } from './logsQuery.js';

/** What the split layer is built on. */
export interface SplitDeps {
  /** Sub-requests of one split call in flight at once (`policy.splitConcurrency`). */
  readonly concurrency: number;
  /**
   * The upstreams' range limits: the split is to the lowest (`min()`: every upstream takes each
   * sub-range), and a refusal teaches the refusing upstream's (`of(name).refused`).
   */
  readonly limits: RangeLimits;
  /** The network's best head as last seen (for `latest` before it is resolved), when known. */
  readonly head: () => number | undefined;
  /** Network name, for the errors. */
  readonly network: string;
}

/** Blocks below the head within which a split answer is checked for a reorganisation. */
const REORG_WINDOW = 128;
/** Refusals one call's split bisects at most (then the node's refusal is the answer). */
const MAX_REFUSALS = 64;

/** What one split counts as it goes. */
interface SplitState {
  /** Sub-requests sent. */
  subs: number;
  /** Refusals bisected. */
  refusals: number;
  /** The narrowest range a refusal suggested in this call (sizes its next sub-ranges). */
  hint: number;
  /** The upstream of the last answer. */
  upstream: string | undefined;
}
/** Times a split answer is made again after the chain reorganised under it. */
const REORG_RETRIES = 2;

/** The refusal of a range as too wide or too dense in `err` (the upstream's own answer), if it is one. */
function refusalOf(err: unknown): RangeRefusal | undefined {
  if (!(err instanceof UpstreamRpcError)) return undefined;
  const v = classifyUpstreamError(err, { ranged: true });
  return v.kind === 'range' ? v : undefined;
}

/**
 * The split layer (call level, under multiplex's callers: each caller's own caps): an
 * `eth_getLogs` over a block range is
 *
 * - **refused before any upstream is asked** when it is wider than the caller's cap
 *   (`options.logs.maxBlockRange`: the plan's `maxLogsBlockRange`, else the network's): -32005
 *   `LOGS_RANGE_TOO_LARGE` with the range to retry with (`data: { from, to }`); `latest` is
 *   the network's head as last seen;
 * - **split** when it is wider than the narrowest upstream takes (`maxRange`: every sub-range
 *   fits every upstream, so failover still works): tags (`latest`, `safe`, `finalized`) are
 *   resolved once, the sub-ranges go out `concurrency` at a time, each answered exactly once and
 *   merged in block and log order; the sub-range size is read again for each sub-range (a
 *   refusal teaches its upstream's limit);
 * - **bisected** when an upstream answers that a range is too wide or too dense (the wordings of
 *   `classifyUpstreamError`'s table): the range is halved (or cut where the node suggested)
 *   and both halves asked, down to a single block, whose refusal is the client's answer (so
 *   is the 65th refusal within one call: a node refusing everything is not bisected for ever);
 *   no sub-request starts after the request's deadline;
 * - checked for a **reorganisation** when the range ends within 128 blocks of the head: the hash
 *   of its last block before and after the split must be the same, and every log of that block
 *   must carry it; otherwise the split is made again (twice at most), never mixed;
 * - **capped** at `options.logs.maxResults` logs: more is -32005 `LOGS_TOO_MANY_RESULTS` with
 *   a range that fits (Infura's wording), and a split stops sending as soon as it is over.
 *
 * A `blockHash` filter, params the gateway does not read and every other method pass through.
 * The answer says `split: N` (sub-requests sent) when it was split.
 *
 * @example
 * const split = createSplitLayer({ concurrency: 8, limits: createRangeLimits(settings.upstreams), head: heads.best, network: 'mainnet' });
 */
export function createSplitLayer(deps: SplitDeps): CallLayer {
  const { concurrency, limits, head, network } = deps;
  const maxRange = limits.min;

  /** A read of this call's network by the layers below (tag resolution, block hashes). */
  const ask = async (
    next: Forward,
    call: NetworkCall,
    method: 'eth_blockNumber' | 'eth_getBlockByNumber',
    params: unknown[],
  ) => {
    const sub: NetworkCall = {
      ...call,
      method,
      params,
      traits: ethMethods[method],
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

  const blockNumberOf = async (next: Forward, call: NetworkCall, end: RangeEnd): Promise<number> => {
    if (end.kind === 'number') return end.n;
    if (end.tag === 'latest' || end.tag === 'pending') {
      const n = await ask(next, call, 'eth_blockNumber', []);
      if (typeof n === 'string') return Number.parseInt(n, 16);
    } else {
      const b = (await ask(next, call, 'eth_getBlockByNumber', [end.tag, false])) as { number?: unknown } | null;
      if (typeof b?.number === 'string') return Number.parseInt(b.number, 16);
    }
    throw upstreamUnavailable(network, undefined, `could not resolve the block tag ${end.tag}`);
  };

  const hashOf = async (next: Forward, call: NetworkCall, n: number): Promise<string | undefined> => {
    const b = (await ask(next, call, 'eth_getBlockByNumber', [hex(n), false])) as { hash?: unknown } | null;
    return typeof b?.hash === 'string' ? b.hash : undefined;
  };

  /** The answer of one sub-range, bisected on a refusal; counts its requests into `state`. */
  const fetchRange = async (
    next: Forward,
    call: NetworkCall,
    q: LogsQuery,
    from: number,
    to: number,
    state: SplitState,
  ): Promise<unknown[]> => {
    const params = [{ ...q.filter, fromBlock: hex(from), toBlock: hex(to) }];
    const sub: NetworkCall = { ...call, params, requested: { kind: 'number', number: to }, raw: false, attempts: 0 };
    const deadline = call.options?.deadline;
    if (deadline !== undefined && Date.now() >= deadline)
      throw upstreamUnavailable(network, undefined, 'the split eth_getLogs ran out of time (the request deadline)');
    state.subs += 1;
    let refusal: RangeRefusal | undefined;
    try {
      const f = await next(sub);
      state.upstream = f.upstream;
      if (Array.isArray(f.result)) return f.result;
      throw upstreamUnavailable(network, undefined, 'an upstream answered eth_getLogs with something else than a list');
    } catch (err) {
      refusal = refusalOf(err);
      // a node that refuses whatever it is asked is not bisected for ever
      if (refusal === undefined || from === to || ++state.refusals > MAX_REFUSALS) throw err;
      // the refusing upstream learns (a result cap teaches nothing about its block limit)
      const name = (err as { upstream?: unknown }).upstream;
      if (refusal.what === 'blocks' && typeof name === 'string') limits.of(name)?.refused(to - from + 1, refusal.limit);
      // a suggested range (Alchemy, Infura, reth) sizes the rest of this call's sub-ranges
      if (refusal.retry !== undefined && refusal.retry.from === from && refusal.retry.to < to)
        state.hint = Math.min(state.hint, refusal.retry.to - from + 1);
    } finally {
      call.attempts += sub.attempts;
    }
    // cut where the node suggested or at the limit it named when that is inside, else in the middle
    let cut = from + Math.floor((to - from) / 2);
    if (refusal.retry !== undefined && refusal.retry.from === from && refusal.retry.to < to) cut = refusal.retry.to;
    else if (refusal.what === 'blocks' && refusal.limit !== undefined && from + refusal.limit - 1 < to)
      cut = from + refusal.limit - 1;
    const head = await fetchRange(next, call, q, from, cut, state);
    const tail = await fetchRange(next, call, q, cut + 1, to, state);
    return head.concat(tail);
  };

  /** The range in sub-ranges, `concurrency` at a time, merged in order; stops once over `maxResults`. */
  const splitOnce = async (
    next: Forward,
    call: NetworkCall,
    q: LogsQuery,
    from: number,
    to: number,
    maxResults: number,
  ) => {
    const state: SplitState = { subs: 0, refusals: 0, hint: Number.POSITIVE_INFINITY, upstream: undefined };
    const ranges: AnsweredRange[] = [];
    let cursor = from;
    let failed: { err: unknown } | undefined;
    let total = 0;
    const worker = async () => {
      while (failed === undefined && cursor <= to && !(maxResults > 0 && total > maxResults)) {
        const limit = Math.min(maxRange(), state.hint);
        const size = Number.isFinite(limit) ? limit : Math.ceil((to - from + 1) / 2);
        const r: AnsweredRange = { from: cursor, to: Math.min(to, cursor + size - 1), logs: undefined };
        cursor = r.to + 1;
        ranges.push(r);
        try {
          r.logs = await fetchRange(next, call, q, r.from, r.to, state);
          total += r.logs.length;
        } catch (err) {
          failed ??= { err };
        }
      }
    };
    const workers = Math.max(
      1,
      Math.min(concurrency, Math.ceil((to - from + 1) / Math.max(1, Math.min(maxRange(), to - from + 1)))),
    );
    await Promise.all(Array.from({ length: workers }, worker));
    if (failed !== undefined) throw failed.err;
    if (maxResults > 0 && total > maxResults) throw tooManyResults(from, fitUpTo(ranges, from, maxResults), maxResults);
    const logs: unknown[] = [];
    for (const r of ranges) for (const l of r.logs!) logs.push(l);
    return { logs, subs: state.subs, upstream: state.upstream ?? '' };
  };

  /** A split answer, checked for a reorganisation near the head (made again, never mixed). */
  const splitAnswer = async (
    next: Forward,
    call: NetworkCall,
    q: LogsQuery,
    from: number,
    to: number,
    maxResults: number,
  ): Promise<Forwarded> => {
    const best = head();
    const nearHead = best === undefined || to > best - REORG_WINDOW;
    let subs = 0;
    for (let round = 0; ; round++) {
      const before = nearHead ? await hashOf(next, call, to) : undefined;
      const s = await splitOnce(next, call, q, from, to, maxResults);
      subs += s.subs;
      const answer = {
        result: s.logs,
        upstream: s.upstream,
        attempts: call.attempts,
        split: subs > 1 ? subs : undefined,
      };
      if (!nearHead) return answer;
      const after = await hashOf(next, call, to);
      const consistent =
        before !== undefined &&
        before === after &&
        s.logs.every((l) => {
          const log = l as { blockNumber?: unknown; blockHash?: unknown };
          return log.blockNumber !== hex(to) || log.blockHash === after;
        });
      if (consistent) return answer;
      if (round === REORG_RETRIES)
        throw upstreamUnavailable(network, undefined, `the chain reorganised during a split eth_getLogs (block ${to})`);
    }
  };

  /** The call as it is, its answer held to `maxResults` (`range`: the blocks it covers, for the range that fits). */
  const whole = async (
    next: Forward,
    call: NetworkCall,
    range: { from: number; to: number } | undefined,
    maxResults: number,
  ) => {
    const f = await next(call);
    if (maxResults > 0 && range !== undefined && countLogs(f.result, maxResults) > maxResults) {
      const logs = Array.isArray(f.result) ? f.result : (JSON.parse((f.result as RawJson).text) as unknown[]);
      throw tooManyResults(range.from, fitUpTo([{ ...range, logs }], range.from, maxResults), maxResults);
    }
    return f;
  };

  const logs = async (next: Forward, call: NetworkCall, q: LogsQuery): Promise<Forwarded> => {
    const cap = call.options?.logs?.maxBlockRange;
    const maxResults = call.options?.logs?.maxResults ?? 0;
    const limit = maxRange();
    // without resolving: heights, and `latest` as the head last seen
    const seen = head();
    const guess = (e: RangeEnd) =>
      e.kind === 'number' ? e.n : e.tag === 'latest' || e.tag === 'pending' ? seen : undefined;
    const gFrom = guess(q.from);
    const gTo = guess(q.to);
    /** The call as it is; undefined when it was refused as too wide (the upstream learned), to split. */
    const tryWhole = async (range: { from: number; to: number }) => {
      try {
        return await whole(next, call, range, maxResults);
      } catch (err) {
        const refusal = refusalOf(err);
        if (refusal === undefined || range.to <= range.from) throw withAttempts(err, call.attempts);
        const name = (err as { upstream?: unknown }).upstream;
        if (refusal.what === 'blocks' && typeof name === 'string')
          limits.of(name)?.refused(range.to - range.from + 1, refusal.limit);
        return undefined;
      }
    };
    let triedWhole = false;
    if (gFrom !== undefined && gTo !== undefined) {
      if (gTo < gFrom) return next(call); // the node answers the client's mistake
      const span = gTo - gFrom + 1;
      if (cap !== undefined && span > cap) throw rangeTooLarge(gFrom, gTo, cap);
      if (span <= limit) {
        // a refusal (the head moved on, or a limit not known yet): resolved and split below
        triedWhole = true;
        const f = await tryWhole({ from: gFrom, to: gTo });
        if (f !== undefined) return f;
      }
    }
    let from: number;
    let to: number;
    try {
      from = await blockNumberOf(next, call, q.from);
      to =
        q.to.kind === 'tag' && q.from.kind === 'tag' && q.to.tag === q.from.tag
          ? from
          : await blockNumberOf(next, call, q.to);
    } catch (err) {
      throw withAttempts(err, call.attempts);
    }
    if (to < from) return next(call);
    if (cap !== undefined && to - from + 1 > cap) throw rangeTooLarge(from, to, cap);
    if (!triedWhole && to - from + 1 <= maxRange()) {
      const f = await tryWhole({ from, to });
      if (f !== undefined) return f;
    }
    try {
      return await splitAnswer(next, call, q, from, to, maxResults);
    } catch (err) {
      throw withAttempts(err, call.attempts);
    }
  };

  return (next) => (call) => {
    if (call.method !== 'eth_getLogs') return next(call);
    const q = logsQuery(call.params);
    return q === undefined ? next(call) : logs(next, call, q);
  };
}
