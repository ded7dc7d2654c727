import { classifyUpstreamError } from '../../../upstream/classifyUpstreamError.js';
import type { HttpUpstream } from '../../../upstream/createHttpUpstream.js';
import type { BlockWindow } from './BlockWindow.js';

const ZERO = '0x0000000000000000000000000000000000000000';
/** A whole measurement takes at most this many probe timeouts (else the window stays unknown). */
const BUDGET = 3;
/** Blocks taken off a measured window: the head moves while it is measured. */
const MARGIN = 2;

/**
 * Learns which blocks an Ethereum upstream serves state for, at start and after a recovery:
 * `eth_getTransactionCount` of the zero address at block 1. An answer means an archive; a "no such
 * state" answer (`missing trie node`, pruned…) a pruned node, whose oldest block is then found
 * by bisection between 1 and its head (about log2(head) requests; the window is the latest
 * `head - oldest + 1` blocks, less 2 for the head moving meanwhile). Anything else (an
 * outage, an unexpected error, a head below 2, more than 3 × `timeoutMs` in all: the probe
 * round waits for it) leaves it `unknown`: it is asked, and its answers teach.
 *
 * @example
 * const w = await measureBlockWindow(member.upstream, member.head, 2_000);
 * // { kind: 'recent', blocks: 126, source: 'probe' }
 */
export async function measureBlockWindow(
  upstream: HttpUpstream,
  head: number | undefined,
  timeoutMs: number,
): Promise<BlockWindow> {
  if (head === undefined || head < 2) return { kind: 'unknown' };
  // the probe round waits for it: bounded as a whole, not only per request
  const deadline = performance.now() + timeoutMs * BUDGET;
  let id = 1;
  /** true: it has the state at `block`; false: it says it has not; undefined: no telling. */
  const has = async (block: number): Promise<boolean | undefined> => {
    const left = deadline - performance.now();
    if (left <= 0) return undefined;
    try {
      const a = await upstream.call(
        { jsonrpc: '2.0', id: id++, method: 'eth_getTransactionCount', params: [ZERO, `0x${block.toString(16)}`] },
        false,
        AbortSignal.timeout(Math.min(timeoutMs, left)),
      );
      if (a.error === undefined) return true;
      const verdict = classifyUpstreamError(
        { code: a.error.code, message: String(a.error.message ?? '') },
        { requested: { kind: 'number', number: block }, head, bestHead: head },
      );
      return verdict.kind === 'missing' ? false : undefined;
    } catch {
      return undefined;
    }
  };
  const first = await has(1);
  if (first === true) return { kind: 'archive', source: 'probe' };
  if (first === undefined) return { kind: 'unknown' };
  // pruned: the oldest block it has is in (1, head]
  let lo = 1;
  let hi = head;
  const top = await has(hi);
  if (top !== true) return { kind: 'unknown' };
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const r = await has(mid);
    if (r === undefined) return { kind: 'unknown' };
    if (r) hi = mid;
    else lo = mid;
  }
  const blocks = head - hi + 1;
  return { kind: 'recent', blocks: blocks > MARGIN * 2 ? blocks - MARGIN : blocks, source: 'probe' };
}
