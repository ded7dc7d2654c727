import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';

/**
 * The bytes a pin keeps stored, over any Kubo-compatible upstream, from the stored blocks' own
 * sizes: for a recursive pin the upstream's `dag/stat` `TotalSize` (each block of the DAG counted
 * once, whatever the codec, never the `Tsize` a parent claims for its links: a root that claims
 * `Tsize: 0` for a large subtree counts the subtree), for a direct pin the root block's size
 * (`block/stat`). Several CIDs: their DAGs together, blocks they share counted once (recursive).
 *
 * @example
 * await dagSize(upstream, 'QmWSgS…', 'recursive') // 223
 */
export async function dagSize(
  upstream: IpfsUpstream,
  cid: string | readonly string[],
  type: 'recursive' | 'direct',
  signal?: AbortSignal,
): Promise<number> {
  const opts = signal ? { maxBytes: 1 << 20, signal } : { maxBytes: 1 << 20 };
  const cids = typeof cid === 'string' ? [cid] : cid;
  if (type === 'recursive') {
    const query = new URLSearchParams([...cids.map((c): [string, string] => ['arg', c]), ['progress', 'false']]);
    const answer = expectUpstreamOk(await callUpstream(upstream, 'dag/stat', query, opts));
    // NDJSON: with progress=false one summary; should an upstream still send progress, the last line is final
    const last = answer.toString('utf8').trim().split('\n').at(-1) ?? '{}';
    return sizeField((JSON.parse(last) as { TotalSize?: unknown }).TotalSize);
  }
  let total = 0;
  for (const c of cids) {
    const answer = expectUpstreamOk(await callUpstream(upstream, 'block/stat', { arg: c }, opts));
    total += sizeField((JSON.parse(answer.toString('utf8')) as { Size?: unknown }).Size);
  }
  return total;
}

/** Kubo omits zero sizes (`omitempty`); anything else must be a non-negative integer. */
function sizeField(v: unknown): number {
  if (v === undefined) return 0;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new IpfsCommandError(502, 'upstream IPFS node answered an invalid size', 0);
  return n;
}
