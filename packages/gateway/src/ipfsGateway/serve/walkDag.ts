import type { CID } from 'multiformats/cid';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { readUpstream } from '../upstream/readUpstream.js';
import { collectDagJsonLinks } from './collectDagJsonLinks.js';
import { type LoadedNode, loadNode, RAW } from './loadNode.js';
import type { DagScope } from './negotiateFormat.js';
import { blockKey, DAG_PB, IDENTITY } from './parseRootCid.js';
import { padLength } from './resolveContentPath.js';

/** Blocks fetched ahead of the walk, per node being walked (a few MiB at most in memory). */
const PREFETCH = 8;

/** What a walk is told: where blocks come from, which ones it wants, and where they go. */
export interface WalkOptions {
  readonly upstream: IpfsUpstream;
  readonly scope: Exclude<DagScope, 'block'>;
  /** `entity-bytes` resolved: the file bytes wanted, inclusive (files only). */
  readonly range: { readonly start: number; readonly end: number } | undefined;
  /** `car-dups=y`: a block is sent every time it is met; else once (and its subtree once). */
  readonly dups: boolean;
  /** Blocks already sent (the path's), by {@link blockKey}. */
  readonly seen: Set<string>;
  /** Aborted when the client went away. */
  readonly client: AbortSignal;
  /** The longest one block may take to arrive. */
  readonly idleMs: number;
  /** Sends one block (a CAR section). */
  emit(cid: CID, bytes: Uint8Array): Promise<void>;
}

/** A child to visit, with the file offset its bytes start at (files). */
interface Child {
  readonly cid: CID;
  readonly offset: number;
}

/**
 * Walks the DAG below `node` depth-first (links in order), sending each block through `emit`
 * (identity blocks never: their bytes are in their CID): `entity` stops at the end of a UnixFS
 * entity (a file's blocks, only those `range` needs; a directory's own node; a sharded
 * directory's shards; any other codec's one block), `all` follows every link. A few blocks are
 * fetched ahead of the walk; each must arrive within `idleMs`.
 *
 * @example
 * await walkDag(terminal, { upstream, scope: 'all', range: undefined, dups: false, seen, client, idleMs, emit });
 */
export async function walkDag(node: LoadedNode, options: WalkOptions, offset = 0): Promise<void> {
  const key = blockKey(node.cid);
  if (!options.dups && options.seen.has(key)) return;
  options.seen.add(key);
  if (node.cid.multihash.code !== IDENTITY) await options.emit(node.cid, node.bytes);
  const children = await childrenOf(node, options, offset);
  if (children.length === 0) return;
  const pending: Array<Promise<LoadedNode> | undefined> = [];
  const start = (i: number) => {
    if (i >= children.length || pending[i] !== undefined) return;
    const signal = AbortSignal.any([options.client, AbortSignal.timeout(options.idleMs)]);
    const p = loadNode(options.upstream, children[i]!.cid, signal);
    p.catch(() => undefined); // awaited below, in order
    pending[i] = p;
  };
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (!options.dups && options.seen.has(blockKey(child.cid))) continue;
    for (let j = i; j < Math.min(children.length, i + PREFETCH); j++) start(j);
    const loaded = await pending[i]!;
    pending[i] = undefined;
    await walkDag(loaded, options, child.offset);
  }
}

async function childrenOf(node: LoadedNode, options: WalkOptions, offset: number): Promise<Child[]> {
  const { scope } = options;
  if (node.cid.code === RAW) return [];
  if (node.cid.code === DAG_PB) {
    const links = node.links;
    const type = node.unixfs?.type;
    if (type === 'file' || type === 'raw') {
      const sizes = node.unixfs!.blocksizes;
      let at = offset + node.unixfs!.data.length;
      const out: Child[] = [];
      for (let i = 0; i < links.length; i++) {
        const size = sizes[i] ?? 0;
        const from = at;
        at += size;
        const range = options.range;
        if (range !== undefined && (from > range.end || from + size - 1 < range.start)) continue;
        out.push({ cid: links[i]!.Hash, offset: from });
      }
      return out;
    }
    if (scope === 'all') return links.map((l) => ({ cid: l.Hash, offset: 0 }));
    if (type === 'hamt-sharded-directory') {
      const pad = padLength(node);
      return links.filter((l) => (l.Name ?? '').length === pad).map((l) => ({ cid: l.Hash, offset: 0 }));
    }
    return [];
  }
  if (scope !== 'all') return [];
  // another codec (DAG-CBOR, DAG-JSON…): its links as the node reads them
  const signal = AbortSignal.any([options.client, AbortSignal.timeout(options.idleMs)]);
  const json = await readUpstream(
    options.upstream,
    'dag/get',
    { arg: node.cid.toString(), 'output-codec': 'dag-json' },
    8 * 1024 * 1024,
    signal,
  );
  return collectDagJsonLinks(JSON.parse(json.toString('utf8')) as unknown).map((cid) => ({ cid, offset: 0 }));
}
