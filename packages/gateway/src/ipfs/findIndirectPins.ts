import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { callUpstream } from './callUpstream.js';
import { dagJsonLinks } from './dagJsonLinks.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import type { IpfsUpstream } from './IpfsUpstream.js';

const RAW = 0x55;
const IDENTITY = 0x00;
const MAX_BLOCK = 4 * 1024 * 1024;
const PARALLEL = 8;

/**
 * The CIDs under some recursive roots (one key's), each with the root it was reached from:
 * the key's indirect pins. Walks the DAGs over the upstream (`block/get` for dag-pb,
 * `dag/get` as dag-json for other codecs; raw leaves are not read). With `target`, stops as
 * soon as that CID is reached. Roots are not included unless reached from another root.
 *
 * @example
 * const under = await findIndirectPins(upstream, ['QmWSgS…']); // Map { 'QmSo…' => 'QmWSgS…', … }
 */
export async function findIndirectPins(
  upstream: IpfsUpstream,
  roots: readonly string[],
  options: { target?: string; signal?: AbortSignal } = {},
): Promise<Map<string, string>> {
  const reached = new Map<string, string>();
  const seen = new Set<string>();
  const queue: Array<{ cid: CID; root: string }> = [];
  for (const root of roots) {
    const cid = CID.parse(root);
    seen.add(mhKey(cid));
    queue.push({ cid, root });
  }
  const targetKey = options.target === undefined ? undefined : mhKey(CID.parse(options.target));
  let found = false;
  const visit = async ({ cid, root }: { cid: CID; root: string }) => {
    for (const link of await linksOf(upstream, cid, options.signal)) {
      const key = mhKey(link);
      if (seen.has(key)) continue;
      seen.add(key);
      reached.set(link.toString(), root);
      if (key === targetKey) found = true;
      if (link.code !== RAW && link.multihash.code !== IDENTITY) queue.push({ cid: link, root });
    }
  };
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  while ((queue.length > 0 || inFlight.size > 0) && !found && failure === undefined) {
    while (queue.length > 0 && inFlight.size < PARALLEL) {
      const p: Promise<void> = visit(queue.shift()!)
        .catch((err: unknown) => {
          failure ??= err;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return reached;
}

function mhKey(cid: CID): string {
  return Buffer.from(cid.multihash.bytes).toString('base64');
}

async function linksOf(upstream: IpfsUpstream, cid: CID, signal: AbortSignal | undefined): Promise<CID[]> {
  const opts = signal ? { maxBytes: MAX_BLOCK, signal } : { maxBytes: MAX_BLOCK };
  if (cid.code === dagPb.code) {
    const bytes = expectUpstreamOk(await callUpstream(upstream, 'block/get', { arg: cid.toString() }, opts));
    return dagPb.decode(bytes).Links.map((l) => l.Hash);
  }
  const json = expectUpstreamOk(
    await callUpstream(upstream, 'dag/get', { arg: cid.toString(), 'output-codec': 'dag-json' }, opts),
  );
  return dagJsonLinks(JSON.parse(json.toString('utf8')) as unknown);
}
