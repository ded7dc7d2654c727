import { CID } from 'multiformats/cid';
import { GatewayError } from '../../errors/GatewayError.js';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { readUpstream } from '../upstream/readUpstream.js';
import { type LoadedNode, loadNode, RAW } from './loadNode.js';
import { DAG_PB } from './parseRootCid.js';

/** A block on the way to the content (for a CAR's path part). */
export interface PathBlock {
  readonly cid: CID;
  readonly bytes: Uint8Array;
}

/** A content path resolved to the node it names. */
export interface Resolution {
  /** The node at the end of the path. */
  readonly terminal: LoadedNode;
  /** The CID of each logical segment, the root first, the terminal last (`X-Ipfs-Roots`). */
  readonly roots: readonly CID[];
  /** The blocks that verify the path from the root to the terminal (not the terminal's), in order. */
  readonly pathBlocks: readonly PathBlock[];
  /** The last segment's name (a file name for the content type), when there is a path. */
  readonly name: string | undefined;
}

const notFound = (segments: readonly string[], at: number, root: CID) =>
  new GatewayError(
    'NOT_FOUND',
    `no link named "${segments[at]}" under /ipfs/${[root.toString(), ...segments.slice(0, at)].join('/')}`,
    { httpStatus: 404 },
  );

/**
 * Follows `segments` from `root` over the node's blocks (path gateway "content resolution"):
 * UnixFS directories by link name (a HAMT-sharded directory's shards walked until the name is
 * found, keeping the shards on its way), other dag-pb by link name, DAG-CBOR/DAG-JSON by the node's
 * `dag/resolve`. Throws 404 (no such link: the message names the part of the path that exists),
 * 501 (a path into data that is not a link), or the node's errors (404 missing block, 504 past the
 * deadline).
 *
 * @example
 * const r = await resolveContentPath(upstream, root, ['img', 'logo.png'], signal);
 * r.roots.map(String); // root, img's CID, logo.png's CID
 */
export async function resolveContentPath(
  upstream: IpfsUpstream,
  root: CID,
  segments: readonly string[],
  signal: AbortSignal,
): Promise<Resolution> {
  let node = await loadNode(upstream, root, signal);
  const roots: CID[] = [root];
  const pathBlocks: { cid: CID; bytes: Uint8Array }[] = [];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (node.cid.code === RAW) throw notFound(segments, i, root);
    if (node.cid.code !== DAG_PB) {
      // IPLD pathing through DAG-CBOR / DAG-JSON links: the node resolves the rest at once
      const rest = segments.slice(i).map(encodeURIComponent).join('/');
      const answer = JSON.parse(
        (await readUpstream(upstream, 'dag/resolve', { arg: `/ipfs/${node.cid}/${rest}` }, 64 * 1024, signal)).toString(
          'utf8',
        ),
      ) as { Cid?: { '/': string }; RemPath?: string };
      if (answer.RemPath) {
        throw new GatewayError(
          'INVALID_REQUEST',
          `the path continues into data that is not a link (${answer.RemPath.slice(0, 200)}): only links are followed`,
          { httpStatus: 501 },
        );
      }
      pathBlocks.push({ cid: node.cid, bytes: node.bytes });
      const next = CID.parse(answer.Cid!['/']);
      node = await loadNode(upstream, next, signal);
      roots.push(next);
      break;
    }
    const type = node.unixfs?.type;
    let next: CID | undefined;
    if (type === 'hamt-sharded-directory') {
      const found = await findInShard(upstream, node, seg, signal);
      if (found === undefined) throw notFound(segments, i, root);
      pathBlocks.push({ cid: node.cid, bytes: node.bytes }, ...found.shards);
      next = found.cid;
    } else if (type === undefined || type === 'directory') {
      next = node.links.find((l) => l.Name === seg)?.Hash;
      if (next === undefined) throw notFound(segments, i, root);
      pathBlocks.push({ cid: node.cid, bytes: node.bytes });
    } else {
      throw notFound(segments, i, root);
    }
    node = await loadNode(upstream, next, signal);
    roots.push(next);
  }
  return { terminal: node, roots, pathBlocks, name: segments.at(-1) };
}

/**
 * The entry `name` of a HAMT-sharded directory: its CID and the shard blocks below `shard` on the
 * way to it (in order), or undefined. Shard links are named by a bucket prefix of hex digits
 * (`padLength` of them) followed by the entry's name; a link that is only the prefix is a sub-shard.
 */
export async function findInShard(
  upstream: IpfsUpstream,
  shard: LoadedNode,
  name: string,
  signal: AbortSignal,
): Promise<{ cid: CID; shards: { cid: CID; bytes: Uint8Array }[] } | undefined> {
  const pad = padLength(shard);
  for (const link of shard.links) {
    if (link.Name === undefined || link.Name.length < pad) continue;
    if (link.Name.length > pad && link.Name.slice(pad) === name) return { cid: link.Hash, shards: [] };
  }
  for (const link of shard.links) {
    if (link.Name === undefined || link.Name.length !== pad) continue;
    const sub = await loadNode(upstream, link.Hash, signal);
    const found = await findInShard(upstream, sub, name, signal);
    if (found) return { cid: found.cid, shards: [{ cid: sub.cid, bytes: sub.bytes }, ...found.shards] };
  }
  return undefined;
}

/** How many hex digits prefix a shard's link names: those of `fanout - 1`. */
export function padLength(shard: LoadedNode): number {
  const fanout = shard.unixfs?.fanout ?? 256;
  return Math.max(1, (fanout - 1).toString(16).length);
}
