import { CID } from 'multiformats/cid';
import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';

/**
 * The block an `object/*` argument names: a CID, `/ipfs/<cid>`, or a path through links, which
 * the upstream's `dag/resolve` follows (a path ending inside a block's value is refused).
 *
 * @example
 * await resolveObjectCid(upstream, '/ipfs/QmWSgS…/mars.txt') // CID(QmSo…)
 */
export async function resolveObjectCid(upstream: IpfsUpstream, arg: string, signal?: AbortSignal): Promise<CID> {
  const path = arg.replace(/^\/ipfs\//, '');
  if (!path.includes('/')) {
    try {
      return CID.parse(path);
    } catch {
      // another multibase, or not a CID: the upstream resolves it or says why not
    }
  }
  const opts = signal ? { maxBytes: 64 * 1024, signal } : { maxBytes: 64 * 1024 };
  const answer = expectUpstreamOk(await callUpstream(upstream, 'dag/resolve', { arg }, opts));
  const resolved = JSON.parse(answer.toString('utf8')) as { Cid?: { '/'?: string }; RemPath?: string };
  const at = resolved.Cid?.['/'];
  if (at === undefined) throw new IpfsCommandError(500, 'the upstream did not resolve the path', 0);
  if (resolved.RemPath) {
    throw new IpfsCommandError(500, `no link named "${resolved.RemPath.split('/')[0]}" under ${at}`, 0);
  }
  return CID.parse(at);
}
