import * as dagPb from '@ipld/dag-pb';
import { callUpstream } from './callUpstream.js';
import { dagJsonLinks } from './dagJsonLinks.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { requiredArg } from './objectGet.js';
import { type ObjectLinkJson, objectLinkJson } from './objectLinkJson.js';
import { readDagPbNode } from './readDagPbNode.js';
import { resolveObjectCid } from './resolveObjectCid.js';

/** Largest dag-json rendering of a non-dag-pb block read for its links. */
const MAX_JSON = 8 * 1024 * 1024;

/**
 * `object/links?arg=<cid>`: `{Hash, Links:[{Name,Hash,Size}]}` of a node. A dag-pb node lists its
 * links; any other IPLD node (dag-cbor, dag-json) lists the CIDs it holds, as Kubo did, with an
 * empty `Name` and `Size` 0 (such links carry neither); a raw block has none.
 *
 * @example
 * await objectLinks(upstream, new URLSearchParams({ arg: 'QmWSgS…' }))
 */
export async function objectLinks(
  upstream: IpfsUpstream,
  params: URLSearchParams,
  signal?: AbortSignal,
): Promise<{ Hash: string; Links: ObjectLinkJson[] }> {
  const arg = requiredArg(params);
  const cid = await resolveObjectCid(upstream, arg, signal);
  if (cid.code === dagPb.code) {
    const { node } = await readDagPbNode(upstream, cid.toString(), signal);
    return { Hash: cid.toString(), Links: node.Links.map(objectLinkJson) };
  }
  if (cid.code === 0x55) return { Hash: cid.toString(), Links: [] };
  const opts = signal ? { maxBytes: MAX_JSON, signal } : { maxBytes: MAX_JSON };
  const json = expectUpstreamOk(
    await callUpstream(upstream, 'dag/get', { arg: cid.toString(), 'output-codec': 'dag-json' }, opts),
  );
  const links = dagJsonLinks(JSON.parse(json.toString('utf8')) as unknown);
  return { Hash: cid.toString(), Links: links.map((l) => ({ Name: '', Hash: l.toString(), Size: 0 })) };
}
