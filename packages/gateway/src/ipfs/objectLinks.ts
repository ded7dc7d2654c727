import type { IpfsUpstream } from './IpfsUpstream.js';
import { requiredArg } from './objectGet.js';
import { type ObjectLinkJson, objectLinkJson } from './objectLinkJson.js';
import { readDagPbNode } from './readDagPbNode.js';

/**
 * `object/links?arg=<cid>`: `{Hash, Links:[{Name,Hash,Size}]}` of a dag-pb node.
 *
 * @example
 * await objectLinks(upstream, new URLSearchParams({ arg: 'QmWSgS…' }))
 */
export async function objectLinks(
  upstream: IpfsUpstream,
  params: URLSearchParams,
  signal?: AbortSignal,
): Promise<{ Hash: string; Links: ObjectLinkJson[] }> {
  const { cid, node } = await readDagPbNode(upstream, requiredArg(params), signal);
  return { Hash: cid.toString(), Links: node.Links.map(objectLinkJson) };
}
