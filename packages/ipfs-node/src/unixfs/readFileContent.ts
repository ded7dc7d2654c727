import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import { IpfsNodeError } from '../errors.js';
import type { BlockStore } from '../repo/BlockStore.js';

const RAW = 0x55;
/** How many sibling blocks are read ahead at each level of the file's DAG. */
const READ_AHEAD = 8;

/** A UnixFS file (or raw block) ready to be read. */
export interface FileContent {
  /** File size in bytes. */
  size: bigint;
  /** Reads `[offset, offset + length)` of the file, pulling blocks only as fast as they are consumed. */
  read(range?: { offset?: bigint; length?: bigint; signal?: AbortSignal }): AsyncGenerator<Uint8Array>;
}

/**
 * Opens a UnixFS file for reading. Unlike the exporter, reading is pull-based (bounded
 * read-ahead, so a slow consumer holds back block reads) and a missing block surfaces as a
 * rejection of the read, never as an unhandled rejection.
 */
export async function readFileContent(store: BlockStore, cid: CID, signal?: AbortSignal): Promise<FileContent> {
  const bytes = await store.get(cid, signal);
  const root = decodeNode(cid, bytes);
  if (root.kind === 'dir') throw new IpfsNodeError('command', 'this dag node is a directory');
  return {
    size: root.size,
    read(range = {}) {
      const start = range.offset ?? 0n;
      const end = range.length === undefined ? root.size : min(root.size, start + range.length);
      return readNode(store, cid, root, 0n, start, end, range.signal);
    },
  };
}

type Node =
  | { kind: 'leaf'; data: Uint8Array; size: bigint }
  | { kind: 'file'; data: Uint8Array | undefined; links: CID[]; sizes: bigint[]; size: bigint }
  | { kind: 'dir'; size: bigint };

function decodeNode(cid: CID, bytes: Uint8Array): Node {
  if (cid.code === RAW) return { kind: 'leaf', data: bytes, size: BigInt(bytes.byteLength) };
  if (cid.code !== dagPb.code) {
    throw new IpfsNodeError('command', `unsupported codec for a file: 0x${cid.code.toString(16)}`);
  }
  const node = dagPb.decode(bytes);
  if (node.Data === undefined) throw new IpfsNodeError('command', `${cid} is not a UnixFS node`);
  const fs = UnixFS.unmarshal(node.Data);
  if (fs.isDirectory()) return { kind: 'dir', size: 0n };
  if (fs.type === 'symlink') throw new IpfsNodeError('command', `${cid} is a symlink`);
  if (node.Links.length !== fs.blockSizes.length) {
    throw new IpfsNodeError('command', `${cid}: inconsistent block sizes and links`);
  }
  return {
    kind: 'file',
    data: fs.data,
    links: node.Links.map((l) => l.Hash),
    sizes: fs.blockSizes,
    size: fs.fileSize(),
  };
}

async function* readNode(
  store: BlockStore,
  cid: CID,
  node: Node,
  position: bigint,
  start: bigint,
  end: bigint,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  if (node.kind === 'dir') throw new IpfsNodeError('command', `${cid}: directory inside a file`);
  if (node.kind === 'leaf' || node.data !== undefined) {
    const data = node.kind === 'leaf' ? node.data : node.data!;
    const from = max(start - position, 0n);
    const to = min(end - position, BigInt(data.byteLength));
    if (to > from) yield data.subarray(Number(from), Number(to));
    position += BigInt(data.byteLength);
    if (node.kind === 'leaf') return;
  }
  // children overlapping [start, end)
  const wanted: Array<{ cid: CID; at: bigint }> = [];
  for (let i = 0; i < node.links.length && position < end; i++) {
    const size = node.sizes[i]!;
    if (position + size > start) wanted.push({ cid: node.links[i]!, at: position });
    position += size;
  }
  const ahead: Array<Promise<Uint8Array>> = [];
  let next = 0;
  const fill = () => {
    while (ahead.length < READ_AHEAD && next < wanted.length) {
      const p = store.get(wanted[next++]!.cid, signal);
      // awaited below in order; this only marks an abandoned read-ahead as handled
      p.catch(() => undefined);
      ahead.push(p);
    }
  };
  for (const child of wanted) {
    fill();
    signal?.throwIfAborted();
    const bytes = await ahead.shift()!;
    yield* readNode(store, child.cid, decodeNode(child.cid, bytes), child.at, start, end, signal);
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
