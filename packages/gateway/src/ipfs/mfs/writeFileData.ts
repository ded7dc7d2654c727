import type * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { type BlockPrefix, dagPbPrefix, prefixOf, rawPrefix } from './blockPrefix.js';
import type { ByteReader } from './ByteReader.js';
import { mfsError } from './mfsError.js';
import { cumulativeSize, type MfsNode, type MfsSession, toMfsNode } from './MfsSession.js';
import { encodeUnixfs, type UnixfsData, type UnixfsMtime, UnixfsType, unixfsFileSize } from './unixfsData.js';

/** Kubo's chunk size (`size-262144`) for the data a write appends. */
const CHUNK = 262_144;
/** Kubo fills a gap before a write at an offset with zero leaves of 4 KiB (they deduplicate). */
const ZERO_CHUNK = 4_096;
/** Past this many zero bytes, the gap is filled with full-size zero leaves (fewer links). */
const SMALL_GAP = 1024 * 1024;
/** Kubo's most links per trickle node, and how many sub-trees of each depth it adds. */
const MAX_LINKS = 174;
const DEPTH_REPEAT = 4;

/** One child of a file node: a leaf or a whole sub-tree, with the bytes of file it holds. */
interface Unit {
  readonly cid: CID;
  readonly filesize: number;
  readonly tsize: number;
}

/** What a write does (Kubo's `files/write` options, read). */
export interface FileWriteOptions {
  readonly offset: number;
  readonly truncate: boolean;
  /** Raw leaves for the new data (default: on when the file's CID version is 1). */
  readonly rawLeaves?: boolean | undefined;
  /** The CID prefix for the nodes the write makes (`cid-version`/`hash`), when given. */
  readonly prefix?: BlockPrefix | undefined;
  readonly mode?: number | undefined;
  readonly mtime?: UnixfsMtime | undefined;
  /** The most zero bytes a write past the end may fill in. */
  readonly maxGap: number;
}

const fileData = (u: UnixfsData): Uint8Array => u.data ?? new Uint8Array(0);

/** A new, empty file node (`FilePBData(nil, 0)`) with `meta`. */
export function emptyFile(
  session: MfsSession,
  prefix: BlockPrefix,
  meta: { mode?: number | undefined; mtime?: UnixfsMtime | undefined } = {},
): MfsNode {
  const data = encodeUnixfs({
    type: UnixfsType.file,
    filesize: 0n,
    blocksizes: [],
    mode: meta.mode,
    mtime: meta.mtime,
  });
  return session.makeNode({ Data: data, Links: [] }, dagPbPrefix(prefix));
}

/** The bytes of file a node holds. */
export function fileSizeOf(node: MfsNode): number {
  if (node.unixfs === undefined) return node.bytes.byteLength;
  return Number(unixfsFileSize(node.unixfs));
}

/**
 * Writes `reader`'s bytes into a file node as Kubo's DAG modifier does: bytes over existing data
 * replace it in place (each leaf keeps its size, the tree its shape); a write past the end first
 * fills the gap with zeros; bytes past the end are appended as new 256 KiB leaves, and the file
 * is then laid out as a trickle DAG (Kubo's MFS layout: a root with up to 174 leaves, then
 * sub-trees of growing depth). `truncate` empties the file first. New leaves are stored on the
 * node as they are made (see {@link MfsSession.storeNow}). Returns the new root (the same node when
 * nothing was written).
 *
 * @example
 * const root = await writeFileData(session, file, new ByteReader(body), { offset: 0, truncate: false, maxGap });
 */
export async function writeFileData(
  session: MfsSession,
  file: MfsNode,
  reader: ByteReader,
  options: FileWriteOptions,
): Promise<MfsNode> {
  if (file.kind === 'symlink') throw mfsError('symlinks not yet supported');
  if (file.kind !== 'file') throw mfsError(`${file.cid} was not a file`);
  const meta = { mode: file.unixfs?.mode, mtime: file.unixfs?.mtime };
  const ownPrefix = prefixOf(file.cid);
  const filePrefix = dagPbPrefix(options.prefix ?? ownPrefix);
  const rawLeaves = options.rawLeaves ?? filePrefix.version > 0;
  let root = options.truncate ? emptyFile(session, filePrefix, meta) : file;
  let size = fileSizeOf(root);
  let changed = options.truncate;

  if (options.offset < size && (await reader.hasMore())) {
    root = await rewrite(session, root, options.offset, reader, options.prefix);
    changed = true;
  }
  if (await reader.hasMore()) {
    const units = await unitsOf(session, root, filePrefix, rawLeaves);
    const leaf = async (bytes: Uint8Array) => units.push(await makeLeaf(session, bytes, filePrefix, rawLeaves));
    if (options.offset > size) {
      const gap = options.offset - size;
      if (gap > options.maxGap) {
        throw mfsError(`offset ${options.offset} is ${gap} bytes past the end of the file: at most ${options.maxGap}`);
      }
      const chunk = gap > SMALL_GAP ? CHUNK : ZERO_CHUNK;
      const zeros = new Uint8Array(chunk);
      for (let left = gap; left > 0; left -= chunk) await leaf(left >= chunk ? zeros : zeros.subarray(0, left));
      size = options.offset;
    }
    for (let bytes = await reader.take(CHUNK); bytes.byteLength > 0; bytes = await reader.take(CHUNK)) {
      await leaf(bytes);
    }
    root = trickle(session, units, filePrefix, meta);
    changed = true;
  }
  if (options.mode !== undefined || options.mtime !== undefined) {
    root = withMetadata(session, root, { mode: options.mode ?? meta.mode, mtime: options.mtime ?? meta.mtime });
    changed = true;
  }
  return changed ? root : file;
}

/**
 * The file node with its mode and mtime set (a raw block becomes a dag-pb file node holding the
 * same bytes, as Kubo's chmod and touch do).
 */
export function withMetadata(
  session: MfsSession,
  node: MfsNode,
  meta: { mode?: number | undefined; mtime?: UnixfsMtime | undefined },
): MfsNode {
  if (node.unixfs === undefined) {
    const data = encodeUnixfs({
      type: UnixfsType.file,
      data: node.bytes,
      filesize: BigInt(node.bytes.byteLength),
      blocksizes: [],
      ...meta,
    });
    return session.makeNode({ Data: data, Links: [] }, dagPbPrefix(prefixOf(node.cid)));
  }
  const data = encodeUnixfs({ ...node.unixfs, ...meta });
  return session.makeNode({ Data: data, Links: node.pb?.Links ?? [] }, prefixOf(node.cid));
}

async function makeLeaf(
  session: MfsSession,
  bytes: Uint8Array,
  prefix: BlockPrefix,
  rawLeaves: boolean,
): Promise<Unit> {
  if (rawLeaves) {
    const p = rawPrefix(prefix);
    const cid = session.makeRaw(bytes, p);
    await session.storeNow({ cid, bytes });
    return { cid, filesize: bytes.byteLength, tsize: bytes.byteLength };
  }
  // Kubo's trickle leaves are dag-pb UnixFS nodes of type Raw
  const data = encodeUnixfs({ type: UnixfsType.raw, data: bytes, filesize: BigInt(bytes.byteLength), blocksizes: [] });
  const node = session.makeNode({ Data: data, Links: [] }, dagPbPrefix(prefix), { leaf: true });
  await session.storeNow({ cid: node.cid, bytes: node.bytes });
  return { cid: node.cid, filesize: bytes.byteLength, tsize: node.bytes.byteLength };
}

/** The children a file's data is made of, to lay out again with appended leaves. */
async function unitsOf(session: MfsSession, root: MfsNode, prefix: BlockPrefix, rawLeaves: boolean): Promise<Unit[]> {
  const u = root.unixfs;
  if (u === undefined) return [{ cid: root.cid, filesize: root.bytes.byteLength, tsize: root.bytes.byteLength }];
  const links = root.pb?.Links ?? [];
  const inline = fileData(u);
  if (links.length === 0) {
    if (inline.byteLength === 0) return [];
    return [{ cid: root.cid, filesize: inline.byteLength, tsize: root.bytes.byteLength }];
  }
  const units: Unit[] = [];
  if (inline.byteLength > 0) units.push(await makeLeaf(session, inline, prefix, rawLeaves));
  links.forEach((l, i) => {
    units.push({ cid: l.Hash, filesize: Number(u.blocksizes[i] ?? 0n), tsize: l.Tsize ?? 0 });
  });
  return units;
}

/** A file node over `children` (root: with `meta`). */
function fileNode(
  session: MfsSession,
  children: readonly Unit[],
  prefix: BlockPrefix,
  meta: { mode?: number | undefined; mtime?: UnixfsMtime | undefined },
): MfsNode {
  const filesize = children.reduce((sum, c) => sum + BigInt(c.filesize), 0n);
  const data = encodeUnixfs({
    type: UnixfsType.file,
    filesize,
    blocksizes: children.map((c) => BigInt(c.filesize)),
    ...meta,
  });
  const links: dagPb.PBLink[] = children.map((c) => ({ Hash: c.cid, Name: '', Tsize: c.tsize }));
  return session.makeNode({ Data: data, Links: links }, dagPbPrefix(prefix));
}

/** Kubo's trickle layout of `units` (boxo `trickle.Layout`), the root carrying `meta`. */
function trickle(
  session: MfsSession,
  units: readonly Unit[],
  prefix: BlockPrefix,
  meta: { mode?: number | undefined; mtime?: UnixfsMtime | undefined },
): MfsNode {
  if (units.length === 0) return emptyFile(session, prefix, meta);
  let next = 0;
  const fill = (maxDepth: number, nodeMeta: typeof meta): MfsNode => {
    const children: Unit[] = [];
    while (children.length < MAX_LINKS && next < units.length) children.push(units[next++]!);
    for (let depth = 1; maxDepth === -1 || depth < maxDepth; depth++) {
      if (next >= units.length) break;
      for (let r = 0; r < DEPTH_REPEAT && next < units.length; r++) {
        const child = fill(depth, {});
        children.push({ cid: child.cid, filesize: fileSizeOf(child), tsize: cumulativeSize(child) });
      }
    }
    return fileNode(session, children, prefix, nodeMeta);
  };
  return fill(-1, meta);
}

/**
 * `node` with the bytes from `offset` on replaced by the reader's next bytes, up to the node's
 * end (Kubo's `modifyDag`): every node keeps its size and links' shape; a node takes the
 * write's CID prefix when one was given, else keeps its own.
 */
async function rewrite(
  session: MfsSession,
  node: MfsNode,
  offset: number,
  reader: ByteReader,
  prefix: BlockPrefix | undefined,
): Promise<MfsNode> {
  if (node.unixfs === undefined) {
    const bytes = new Uint8Array(node.bytes);
    const data = await reader.take(bytes.byteLength - offset);
    bytes.set(data, offset);
    const cid = session.makeRaw(bytes, prefix ? rawPrefix(prefix) : prefixOf(node.cid));
    await session.storeNow({ cid, bytes });
    return toMfsNode(cid, bytes);
  }
  const u = node.unixfs;
  const inline = new Uint8Array(fileData(u));
  let newInline: Uint8Array | undefined;
  if (offset < inline.byteLength) {
    inline.set(await reader.take(inline.byteLength - offset), offset);
    newInline = inline;
  }
  const links = [...(node.pb?.Links ?? [])];
  let at = inline.byteLength;
  for (let i = 0; i < links.length && (await reader.hasMore()); i++) {
    const size = Number(u.blocksizes[i] ?? 0n);
    if (offset < at + size) {
      const child = toMfsNode(links[i]!.Hash, await session.readBlock(links[i]!.Hash));
      const rewritten = await rewrite(session, child, Math.max(0, offset - at), reader, prefix);
      links[i] = { Hash: rewritten.cid, Name: links[i]!.Name ?? '', Tsize: cumulativeSize(rewritten) };
    }
    at += size;
  }
  const data = encodeUnixfs(newInline === undefined ? u : { ...u, data: newInline });
  const leaf = links.length === 0;
  const out = session.makeNode({ Data: data, Links: links }, prefix ? dagPbPrefix(prefix) : prefixOf(node.cid), {
    leaf,
  });
  if (leaf) await session.storeNow({ cid: out.cid, bytes: out.bytes });
  return out;
}
