import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { resolveObjectCid } from './resolveObjectCid.js';

/** A dag-pb node read from the upstream. */
export interface DagPbNodeRead {
  readonly cid: CID;
  /** The encoded block. */
  readonly bytes: Uint8Array;
  readonly node: dagPb.PBNode;
}

/** dag-pb blocks are at most 2 MiB in Kubo (block/put's limit); leave room. */
const MAX_BLOCK = 4 * 1024 * 1024;

/**
 * Resolves an `object/*` argument (a CID, `/ipfs/<cid>`, or a path through dag-pb links) and
 * reads the dag-pb node there over the upstream's `dag/resolve` and `block/get`.
 *
 * @example
 * const { node } = await readDagPbNode(upstream, '/ipfs/QmWSgS…/mars.txt');
 */
export async function readDagPbNode(upstream: IpfsUpstream, arg: string, signal?: AbortSignal): Promise<DagPbNodeRead> {
  const cid = await resolveObjectCid(upstream, arg, signal);
  if (cid.code !== dagPb.code) {
    throw new IpfsCommandError(
      500,
      `unsupported node type: object commands read dag-pb nodes only (codec 0x${cid.code.toString(16)})`,
      0,
    );
  }
  const bytes = expectUpstreamOk(
    await callUpstream(
      upstream,
      'block/get',
      { arg: cid.toString() },
      signal ? { maxBytes: MAX_BLOCK, signal } : { maxBytes: MAX_BLOCK },
    ),
  );
  let node: dagPb.PBNode;
  try {
    node = dagPb.decode(bytes);
  } catch (err) {
    throw new IpfsCommandError(500, `not a valid dag-pb node: ${(err as Error).message}`, 0);
  }
  return { cid, bytes: new Uint8Array(bytes), node };
}
