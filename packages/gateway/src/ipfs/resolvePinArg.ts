import { callUpstream } from './callUpstream.js';
import { canonicalCid } from './canonicalCid.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';

/**
 * The canonical CID a pin command's argument names: the CID itself, or what the upstream's
 * `dag/resolve` resolves a path to (its errors are answered as the upstream's).
 *
 * @example
 * await resolvePinArg(upstream, '/ipfs/QmWSgS…/mars.txt') // 'QmSo…'
 */
export async function resolvePinArg(upstream: IpfsUpstream, arg: string, signal?: AbortSignal): Promise<string> {
  const direct = canonicalCid(arg);
  if (direct !== undefined) return direct;
  const opts = signal ? { maxBytes: 64 * 1024, signal } : { maxBytes: 64 * 1024 };
  const answer = expectUpstreamOk(await callUpstream(upstream, 'dag/resolve', { arg }, opts));
  const resolved = JSON.parse(answer.toString('utf8')) as { Cid?: { '/'?: string }; RemPath?: string };
  const at = resolved.Cid?.['/'];
  const cid = at === undefined ? undefined : canonicalCid(at);
  if (cid === undefined || resolved.RemPath) {
    throw new IpfsCommandError(500, `path '${arg}' does not resolve to a node`, 0);
  }
  return cid;
}
