import { CID } from 'multiformats/cid';
import { callUpstream } from '../callUpstream.js';
import { expectUpstreamOk } from '../expectUpstreamOk.js';
import type { IpfsUpstream } from '../IpfsUpstream.js';
import { mfsError } from './mfsError.js';

/** True for a path Kubo's files commands read outside MFS (`/ipfs/…`, `/ipns/…`). */
export function isIpfsPath(path: string): boolean {
  return path.startsWith('/ipfs/') || path.startsWith('/ipns/');
}

/**
 * The CID an `/ipfs/…` (or `/ipns/…`) path names: `/ipfs/<cid>` directly, anything longer
 * through the upstream's `dag/resolve` (which walks UnixFS directories, sharded ones too). Any
 * key may read any CID the node has, as with `cat`: the path's content is not the key's MFS.
 *
 * @example
 * await resolveIpfsPath(upstream, '/ipfs/QmWSgS…/mars.txt') // CID Qm…
 */
export async function resolveIpfsPath(upstream: IpfsUpstream, path: string, signal?: AbortSignal): Promise<CID> {
  const rest = path.replace(/\/+$/, '');
  const direct = /^\/ipfs\/([^/]+)$/.exec(rest)?.[1];
  if (direct !== undefined) {
    try {
      return CID.parse(direct);
    } catch {
      // another multibase, or not a CID: the upstream says which
    }
  }
  const opts = signal ? { maxBytes: 64 * 1024, signal } : { maxBytes: 64 * 1024 };
  const answer = expectUpstreamOk(await callUpstream(upstream, 'dag/resolve', { arg: rest }, opts));
  const resolved = JSON.parse(answer.toString('utf8')) as { Cid?: { '/'?: string }; RemPath?: string };
  const at = resolved.Cid?.['/'];
  if (at === undefined || resolved.RemPath)
    throw mfsError(`no link named "${resolved.RemPath?.split('/')[0] ?? ''}" under ${at}`);
  return CID.parse(at);
}
