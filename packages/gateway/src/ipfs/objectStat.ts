import type { IpfsUpstream } from './IpfsUpstream.js';
import { requiredArg } from './objectGet.js';
import { readDagPbNode } from './readDagPbNode.js';

/** Kubo's object/stat answer. */
export interface ObjectStatJson {
  Hash: string;
  NumLinks: number;
  BlockSize: number;
  LinksSize: number;
  DataSize: number;
  CumulativeSize: number;
}

/**
 * `object/stat?arg=<cid>`: sizes of a dag-pb node, computed as Kubo did: LinksSize is the block
 * size minus the data size, CumulativeSize the block size plus every link's Tsize.
 *
 * @example
 * await objectStat(upstream, new URLSearchParams({ arg: 'QmWSgS…' }))
 */
export async function objectStat(
  upstream: IpfsUpstream,
  params: URLSearchParams,
  signal?: AbortSignal,
): Promise<ObjectStatJson> {
  const { cid, bytes, node } = await readDagPbNode(upstream, requiredArg(params), signal);
  const dataSize = node.Data?.byteLength ?? 0;
  return {
    Hash: cid.toString(),
    NumLinks: node.Links.length,
    BlockSize: bytes.byteLength,
    LinksSize: bytes.byteLength - dataSize,
    DataSize: dataSize,
    CumulativeSize: bytes.byteLength + node.Links.reduce((sum, l) => sum + (l.Tsize ?? 0), 0),
  };
}
