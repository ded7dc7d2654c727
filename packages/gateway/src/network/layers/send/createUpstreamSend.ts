import type { UpstreamPolicy } from '../../../config/types.js';
import { UpstreamTransportError } from '../../../upstream/UpstreamTransportError.js';
import type { Send } from '../../types.js';

/** The params with the pre-confirmed block's name swapped for the other spelling (an upstream on an older spec). */
function retag(params: unknown, to: 'pre_confirmed' | 'pending'): unknown {
  const from = to === 'pending' ? 'pre_confirmed' : 'pending';
  const swap = (v: unknown): unknown => {
    if (v === from) return to;
    if (Array.isArray(v)) return v.map(swap);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = k === 'calldata' || k === 'signature' ? x : swap(x);
      return out;
    }
    return v;
  };
  return swap(params);
}

/**
 * The innermost layer, `upstream.send`: one JSON-RPC request to one upstream, in the upstream's
 * own spelling of the pre-confirmed block (Starknet: a node on an older spec calls it
 * `pending`), abandoned as a `timeout` after the method's own timeout (`methodTimeoutsMs`) when
 * the policy sets one. It records nothing: the breaker layer above it does.
 *
 * @example
 * const send = createUpstreamSend(settings.policy, 'pre_confirmed');
 * const answer = await send(member, call, signal);
 */
export function createUpstreamSend(
  policy: Pick<UpstreamPolicy, 'methodTimeoutsMs'>,
  /** Starknet: the tag the family sends for the pre-confirmed block. */
  pendingTag: 'pre_confirmed' | 'pending' | undefined,
): Send {
  let nextId = 1;
  /** A method with its own timeout: the call raced against it. */
  const timed = async (
    m: Parameters<Send>[0],
    method: string,
    params: unknown,
    raw: boolean,
    signal: AbortSignal | undefined,
    limitMs: number,
  ) => {
    const limit = AbortSignal.timeout(limitMs);
    const callSignal = signal === undefined ? limit : AbortSignal.any([signal, limit]);
    try {
      return await m.upstream.call({ jsonrpc: '2.0', id: nextId++, method, params }, raw, callSignal);
    } catch (caught) {
      if (!signal?.aborted && limit.aborted)
        throw new UpstreamTransportError('timeout', `upstream did not answer ${method} within ${limitMs} ms`, true);
      throw caught;
    }
  };
  // not async: the common case hands the upstream's promise on, with no frame of its own
  return (m, call, signal) => {
    const { method } = call;
    const sent =
      m.pendingTag !== undefined && pendingTag !== undefined && m.pendingTag !== pendingTag
        ? retag(call.params, m.pendingTag)
        : call.params;
    // the method's own timeout, when the network's policy sets one
    const limitMs = policy.methodTimeoutsMs[method];
    if (limitMs === undefined)
      return m.upstream.call({ jsonrpc: '2.0', id: nextId++, method, params: sent }, call.raw, signal);
    return timed(m, method, sent, call.raw, signal, limitMs);
  };
}
