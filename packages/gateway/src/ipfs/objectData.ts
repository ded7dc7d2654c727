import type { IpfsUpstream } from './IpfsUpstream.js';
import { requiredArg } from './objectGet.js';
import { readDagPbNode } from './readDagPbNode.js';

/**
 * `object/data?arg=<cid>`: the raw Data field of a dag-pb node (a byte stream).
 *
 * @example
 * const bytes = await objectData(upstream, new URLSearchParams({ arg: 'QmWSgS…' }))
 */
export async function objectData(
  upstream: IpfsUpstream,
  params: URLSearchParams,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const { node } = await readDagPbNode(upstream, requiredArg(params), signal);
  return node.Data ?? new Uint8Array(0);
}
