import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import type { IpfsUpstream } from './IpfsUpstream.js';

/** A dag-pb node encoded as the object commands store it (sha2-256, CIDv0 or v1), not yet stored. */
export interface EncodedDagPbNode {
  readonly cid: CID;
  readonly bytes: Uint8Array;
  /** Kubo's `Size()` of the node: its encoding plus its links' Tsize (what a link to it carries). */
  readonly cumulativeSize: number;
}

/**
 * Encodes a dag-pb node the way Kubo's object commands did (links sorted by name, sha2-256),
 * under CID `version` (0 by default; an edit keeps its root's version, as Kubo's DAG editor).
 *
 * @example
 * const node = encodeDagPbNode({ Links: [] }); // node.cid: QmdfTbBqBPQ7VNxZEYEj14VmRuZBkqFbiwReogJgS1zR1n
 */
export async function encodeDagPbNode(node: dagPb.PBNode, version: 0 | 1 = 0): Promise<EncodedDagPbNode> {
  const prepared = dagPb.prepare(node);
  const bytes = dagPb.encode(prepared);
  const digest = await sha256.digest(bytes);
  const cid = version === 0 ? CID.createV0(digest) : CID.createV1(dagPb.code, digest);
  const linked = prepared.Links.reduce((sum, l) => sum + (l.Tsize ?? 0), 0);
  return { cid, bytes, cumulativeSize: bytes.byteLength + linked };
}

/**
 * Stores encoded dag-pb nodes on the upstream with `block/put` (`format=v0` for a CIDv0,
 * `cid-codec=dag-pb` for a CIDv1), in order, each checked against the CID it was encoded under;
 * `pin` pins the last one (recursively).
 *
 * @example
 * await storeDagPbNodes(upstream, [await encodeDagPbNode(node)], { signal });
 */
export async function storeDagPbNodes(
  upstream: IpfsUpstream,
  nodes: readonly EncodedDagPbNode[],
  options: { pin?: boolean; signal?: AbortSignal } = {},
): Promise<void> {
  for (const [i, node] of nodes.entries()) {
    const query: Record<string, string> =
      node.cid.version === 0
        ? { format: 'v0', 'cid-codec': 'dag-pb', mhtype: 'sha2-256' }
        : { 'cid-codec': 'dag-pb', mhtype: 'sha2-256' };
    if (options.pin === true && i === nodes.length - 1) query.pin = 'true';
    const answer = expectUpstreamOk(
      await callUpstream(upstream, 'block/put', query, {
        file: node.bytes,
        maxBytes: 64 * 1024,
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    );
    const key = (JSON.parse(answer.toString('utf8').trim().split('\n')[0] ?? '{}') as { Key?: string }).Key;
    if (key === undefined || !CID.parse(key).equals(node.cid)) {
      throw new Error(`the upstream stored the block under ${key}, not ${node.cid}`);
    }
  }
}
