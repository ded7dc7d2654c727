import type * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { UNIXFS_DIR_DATA } from './objectNew.js';
import { readDagPbNode } from './readDagPbNode.js';
import { type EncodedDagPbNode, encodeDagPbNode } from './storeDagPbNodes.js';

/** The object/patch commands. */
export type ObjectPatchName =
  | 'object/patch/add-link'
  | 'object/patch/rm-link'
  | 'object/patch/set-data'
  | 'object/patch/append-data';

/** What a patch makes: the new nodes to store, children first (the last one is the new root). */
export interface ObjectPatchResult {
  readonly nodes: readonly EncodedDagPbNode[];
}

const MAX_SIZE_ANSWER = 64 * 1024;

/**
 * `object/patch/*` (Kubo removed them in v0.28) over the upstream's blocks: `add-link <root>
 * <name> <ref>` (a `/`-separated name walks into sub-nodes, `create` makes the missing ones as
 * empty UnixFS directories; a link of that name is replaced; its Tsize is the ref's size),
 * `rm-link <root> <name>`, `set-data <root>` and `append-data <root>` (with the data as the
 * multipart file). Every node changed on the way to the root is re-encoded (links sorted by
 * name, under the root's CID version), as Kubo's DAG editor did; nothing is stored here.
 *
 * @example
 * const { nodes } = await objectPatch(upstream, 'object/patch/add-link', params, undefined);
 */
export async function objectPatch(
  upstream: IpfsUpstream,
  name: ObjectPatchName,
  params: URLSearchParams,
  data: Uint8Array | undefined,
  signal?: AbortSignal,
): Promise<ObjectPatchResult> {
  const args = params.getAll('arg');
  const root = args[0];
  if (root === undefined || root === '') throw new IpfsCommandError(400, 'argument "root" is required', 1);
  const { cid: rootCid, node } = await readDagPbNode(upstream, root, signal);
  if (rootCid.multihash.code !== 0x12) {
    throw new IpfsCommandError(500, 'object patch edits sha2-256 nodes only', 0);
  }
  // every node the edit writes keeps the root's CID version, as Kubo's DAG editor does
  const version = rootCid.version;
  const out: EncodedDagPbNode[] = [];
  switch (name) {
    case 'object/patch/set-data':
    case 'object/patch/append-data': {
      if (data === undefined) throw new IpfsCommandError(400, 'file argument "data" is required', 1);
      const before = node.Data ?? new Uint8Array(0);
      const after = name === 'object/patch/set-data' ? data : Buffer.concat([before, data]);
      out.push(await encodeDagPbNode({ Data: after, Links: node.Links }, version));
      return { nodes: out };
    }
    case 'object/patch/add-link': {
      const [, path, ref] = args;
      if (path === undefined || path === '') throw new IpfsCommandError(400, 'argument "name" is required', 1);
      if (ref === undefined || ref === '') throw new IpfsCommandError(400, 'argument "ref" is required', 1);
      const target = await readRef(upstream, ref, signal);
      const create = params.get('create') === 'true' || params.get('p') === 'true';
      await edit(upstream, node, segments(path), { cid: target.cid, size: target.size }, create, version, out, signal);
      return { nodes: out };
    }
    case 'object/patch/rm-link': {
      const path = args[1];
      if (path === undefined || path === '') throw new IpfsCommandError(400, 'argument "name" is required', 1);
      await edit(upstream, node, segments(path), undefined, false, version, out, signal);
      return { nodes: out };
    }
  }
}

function segments(path: string): string[] {
  const parts = path.split('/').filter((s) => s !== '');
  if (parts.length === 0) throw new IpfsCommandError(500, 'cannot patch the root itself: give a link name', 0);
  return parts;
}

/**
 * Sets (`link`) or removes (`undefined`) the link at `path` under `node`, re-encoding every node
 * on the way; the new nodes are pushed to `out` children first. Returns the new node's encoding.
 */
async function edit(
  upstream: IpfsUpstream,
  node: dagPb.PBNode,
  path: readonly string[],
  link: { cid: CID; size: number } | undefined,
  create: boolean,
  version: 0 | 1,
  out: EncodedDagPbNode[],
  signal: AbortSignal | undefined,
): Promise<EncodedDagPbNode> {
  const [first, ...rest] = path as [string, ...string[]];
  const others = node.Links.filter((l) => l.Name !== first);
  let replacement: dagPb.PBLink | undefined;
  if (rest.length === 0) {
    if (link === undefined && others.length === node.Links.length) {
      throw new IpfsCommandError(500, 'no link by that name', 0);
    }
    if (link !== undefined) replacement = { Name: first, Hash: link.cid, Tsize: link.size };
  } else {
    const existing = node.Links.find((l) => l.Name === first);
    let child: dagPb.PBNode;
    if (existing !== undefined) child = (await readDagPbNode(upstream, existing.Hash.toString(), signal)).node;
    else if (create && link !== undefined) child = { Data: UNIXFS_DIR_DATA, Links: [] };
    else throw new IpfsCommandError(500, 'no link by that name', 0);
    const updated = await edit(upstream, child, rest, link, create, version, out, signal);
    replacement = { Name: first, Hash: updated.cid, Tsize: updated.cumulativeSize };
  }
  const encoded = await encodeDagPbNode(
    {
      ...(node.Data === undefined ? {} : { Data: node.Data }),
      Links: replacement === undefined ? others : [...others, replacement],
    },
    version,
  );
  out.push(encoded);
  return encoded;
}

/** The node a link will point at, with Kubo's Tsize for it (its block plus its links' Tsize). */
async function readRef(
  upstream: IpfsUpstream,
  ref: string,
  signal: AbortSignal | undefined,
): Promise<{ cid: CID; size: number }> {
  let cid: CID;
  try {
    cid = CID.parse(ref.replace(/^\/ipfs\//, ''));
  } catch {
    throw new IpfsCommandError(500, `invalid path "${ref}": invalid cid`, 0);
  }
  const opts = signal ? { maxBytes: MAX_SIZE_ANSWER, signal } : { maxBytes: MAX_SIZE_ANSWER };
  const stat = expectUpstreamOk(await callUpstream(upstream, 'block/stat', { arg: cid.toString() }, opts));
  const blockSize = Number((JSON.parse(stat.toString('utf8')) as { Size?: unknown }).Size ?? 0);
  if (cid.code !== 0x70) return { cid, size: blockSize };
  const { node } = await readDagPbNode(upstream, cid.toString(), signal);
  return { cid, size: blockSize + node.Links.reduce((sum, l) => sum + (l.Tsize ?? 0), 0) };
}
