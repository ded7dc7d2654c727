import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { objectStat } from './objectStat.js';

/**
 * The bytes a pin keeps stored, over any Kubo-compatible upstream: for a recursive pin of a
 * dag-pb root its cumulative size (as object/stat: the block plus its links' Tsize), otherwise
 * the root block's size (`block/stat`; the links of dag-cbor/dag-json roots are not walked).
 *
 * @example
 * await dagSize(upstream, 'QmWSgS…', 'recursive') // 223
 */
export async function dagSize(
  upstream: IpfsUpstream,
  cid: string,
  type: 'recursive' | 'direct',
  signal?: AbortSignal,
): Promise<number> {
  if (type === 'recursive' && CID.parse(cid).code === dagPb.code) {
    return (await objectStat(upstream, new URLSearchParams({ arg: cid }), signal)).CumulativeSize;
  }
  const opts = signal ? { maxBytes: 64 * 1024, signal } : { maxBytes: 64 * 1024 };
  const answer = expectUpstreamOk(await callUpstream(upstream, 'block/stat', { arg: cid }, opts));
  return Number((JSON.parse(answer.toString('utf8')) as { Size?: unknown }).Size ?? 0);
}
