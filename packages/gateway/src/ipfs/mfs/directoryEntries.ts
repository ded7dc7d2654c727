import type * as dagPb from '@ipld/dag-pb';
import { type BlockPrefix, dagPbPrefix, prefixOf } from './blockPrefix.js';
import type { DirLink } from './DirLink.js';
import { buildHamtDirectory, findHamtEntry, listHamtEntries, setHamtEntry } from './hamtDirectory.js';
import { mfsError } from './mfsError.js';
import type { MfsNode, MfsSession } from './MfsSession.js';
import { encodeUnixfs, type UnixfsMtime, UnixfsType } from './unixfsData.js';

/**
 * Kubo's `Internal.UnixFSShardingSizeThreshold` default: a directory whose links' size estimate
 * reaches it is stored HAMT-sharded, and a sharded one that falls below it goes back to a plain
 * directory when an entry is removed.
 */
export const DEFAULT_SHARDING_THRESHOLD = 256 * 1024;

const encoder = new TextEncoder();
const byteCompare = (a: string, b: string) => Buffer.compare(encoder.encode(a), encoder.encode(b));

/** Kubo's size estimate of one directory entry: the name's bytes and the CID's bytes. */
const linkSize = (l: DirLink) => encoder.encode(l.name).byteLength + l.cid.bytes.byteLength;

/** True for a node MFS treats as a directory (plain or HAMT-sharded). */
export function isDirectory(node: MfsNode): boolean {
  return node.kind === 'directory' || node.kind === 'hamt';
}

/** A directory's entry `name`, or undefined. */
export async function findEntry(session: MfsSession, dir: MfsNode, name: string): Promise<DirLink | undefined> {
  if (dir.kind === 'hamt') return findHamtEntry(session, dir, name);
  const l = dir.pb?.Links.find((x) => x.Name === name);
  return l === undefined ? undefined : { name, cid: l.Hash, tsize: l.Tsize ?? 0 };
}

/** A directory's entries, in Kubo's order (by name; by bucket for a sharded one). */
export async function* listEntries(session: MfsSession, dir: MfsNode): AsyncGenerator<DirLink> {
  if (dir.kind === 'hamt') {
    yield* listHamtEntries(session, dir);
    return;
  }
  for (const l of dir.pb?.Links ?? []) yield { name: l.Name ?? '', cid: l.Hash, tsize: l.Tsize ?? 0 };
}

/** An empty plain directory (UnixFS type 1, with `meta` when given). */
export function emptyDirectory(
  session: MfsSession,
  prefix: BlockPrefix,
  meta: { mode?: number | undefined; mtime?: UnixfsMtime | undefined } = {},
): MfsNode {
  const data = encodeUnixfs({ type: UnixfsType.directory, blocksizes: [], mode: meta.mode, mtime: meta.mtime });
  return session.makeNode({ Data: data, Links: [] }, dagPbPrefix(prefix));
}

function plainDirectory(session: MfsSession, data: Uint8Array, links: DirLink[], prefix: BlockPrefix): MfsNode {
  const sorted = [...links].sort((a, b) => byteCompare(a.name, b.name));
  const pbLinks: dagPb.PBLink[] = sorted.map((l) => ({ Hash: l.cid, Name: l.name, Tsize: l.tsize }));
  return session.makeNode({ Data: data, Links: pbLinks }, dagPbPrefix(prefix));
}

/**
 * The directory with entry `name` set to `link` (replacing one of that name), or removed when
 * `link` is undefined (`found` false when there was none). A plain directory whose estimate
 * reaches `threshold` becomes HAMT-sharded; a sharded one that falls below it on a removal goes
 * back to plain (as boxo's dynamic directory does). The directory keeps its CID prefix and its
 * mode and mtime.
 *
 * @example
 * const { node } = await setEntry(session, dir, 'a.txt', { name: 'a.txt', cid, tsize }, DEFAULT_SHARDING_THRESHOLD);
 */
export async function setEntry(
  session: MfsSession,
  dir: MfsNode,
  name: string,
  link: DirLink | undefined,
  threshold: number,
): Promise<{ node: MfsNode; found: boolean }> {
  // the entry goes under `name`, whatever name the link came with (a move renames)
  if (link !== undefined && link.name !== name) link = { ...link, name };
  const prefix = prefixOf(dir.cid);
  const meta = { mode: dir.unixfs?.mode, mtime: dir.unixfs?.mtime };
  if (dir.kind === 'hamt') {
    const result = await setHamtEntry(session, dir, name, link);
    if (link !== undefined || !result.found) return result;
    // a removal: back to a plain directory once the entries fit under the threshold
    const entries: DirLink[] = [];
    let size = 0;
    for await (const e of listHamtEntries(session, result.node)) {
      entries.push(e);
      size += linkSize(e);
      if (size >= threshold) return result;
    }
    const data = encodeUnixfs({ type: UnixfsType.directory, blocksizes: [], ...meta });
    return { node: plainDirectory(session, data, entries, prefix), found: true };
  }
  if (dir.kind !== 'directory' || dir.pb === undefined) throw mfsError(`${dir.cid} is not a directory`);
  const entries: DirLink[] = [];
  let found = false;
  for (const l of dir.pb.Links) {
    if (l.Name === name) found = true;
    else entries.push({ name: l.Name ?? '', cid: l.Hash, tsize: l.Tsize ?? 0 });
  }
  if (link === undefined && !found) return { node: dir, found: false };
  if (link !== undefined) entries.push(link);
  const estimate = entries.reduce((sum, e) => sum + linkSize(e), 0);
  if (link !== undefined && threshold > 0 && estimate >= threshold) {
    return { node: buildHamtDirectory(session, entries, prefix, meta), found };
  }
  return {
    node: plainDirectory(session, dir.pb.Data ?? encodeUnixfs({ type: 1, blocksizes: [] }), entries, prefix),
    found,
  };
}
