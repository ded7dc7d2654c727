import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import type { IpfsUpstream } from '../IpfsUpstream.js';
import { type BlockPrefix, blockCid } from './blockPrefix.js';
import { mfsError } from './mfsError.js';
import { decodeUnixfs, type UnixfsData, UnixfsType } from './unixfsData.js';
import { type Block, getBlock, putBlocks } from './upstreamBlocks.js';

/** A UnixFS node as MFS sees it: its block, and its dag-pb and UnixFS forms when it has them. */
export interface MfsNode {
  readonly cid: CID;
  readonly bytes: Uint8Array;
  /** The dag-pb node (undefined for a raw block). */
  readonly pb?: dagPb.PBNode | undefined;
  /** Its UnixFS data (undefined for a raw block). */
  readonly unixfs?: UnixfsData | undefined;
  /** What MFS makes of it. */
  readonly kind: 'file' | 'directory' | 'hamt' | 'symlink';
}

/** The empty UnixFS directory, CIDv0: every key's MFS root until it changes it. */
export const EMPTY_DIRECTORY_BYTES: Uint8Array = dagPb.encode({ Data: Uint8Array.of(0x08, 0x01), Links: [] });

/** CIDv0 of {@link EMPTY_DIRECTORY_BYTES}: QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn. */
export const EMPTY_DIRECTORY_CID = blockCid(EMPTY_DIRECTORY_BYTES, { version: 0, codec: dagPb.code, hash: 0x12 });

const EMPTY_DIRECTORY_BLOCK: Block = { cid: EMPTY_DIRECTORY_CID, bytes: EMPTY_DIRECTORY_BYTES };

/** Leaves stored while a write streams go to the node in batches of about this many bytes. */
const EAGER_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * The size Kubo reports as a node's cumulative size (`Tsize` of a link to it): its block's length
 * plus the `Tsize` of each of its links.
 */
export function cumulativeSize(node: { bytes: Uint8Array; pb?: dagPb.PBNode | undefined }): number {
  let size = node.bytes.byteLength;
  for (const l of node.pb?.Links ?? []) size += l.Tsize ?? 0;
  return size;
}

/**
 * One MFS command's view of the upstream's blocks: nodes read once and kept for the command,
 * nodes it makes (kept until {@link MfsSession.storeReachable} stores those the new root reaches),
 * and file leaves stored as a write streams ({@link MfsSession.storeNow}). Every block read is
 * checked to be UnixFS (dag-pb or raw); anything else is refused with Kubo's message.
 */
export class MfsSession {
  private readonly loaded = new Map<string, MfsNode>();
  private readonly created = new Map<string, Block>();
  private readonly stored = new Set<string>();
  private pending: Block[] = [];
  private pendingBytes = 0;
  /** Bytes of blocks this session stored on the node (whatever becomes of them). */
  storedBytes = 0;

  constructor(
    readonly upstream: IpfsUpstream,
    readonly signal?: AbortSignal,
  ) {}

  /** The node of `cid`: made in this session, read before, or read now from the upstream. */
  async load(cid: CID): Promise<MfsNode> {
    const id = cid.toString();
    const known = this.loaded.get(id);
    if (known !== undefined) return known;
    const made = this.created.get(id);
    const bytes = made?.bytes ?? (await this.readBlock(cid));
    const node = toMfsNode(cid, bytes);
    this.loaded.set(id, node);
    return node;
  }

  /** A block's bytes, not kept (file leaves). */
  async readBlock(cid: CID): Promise<Uint8Array> {
    const made = this.created.get(cid.toString());
    if (made !== undefined) return made.bytes;
    if (cid.equals(EMPTY_DIRECTORY_CID)) return EMPTY_DIRECTORY_BYTES;
    return getBlock(this.upstream, cid, this.signal);
  }

  /**
   * Encodes a dag-pb node under `prefix`, keeps it as made by this session, and returns it (a
   * file leaf, `leaf`, is not kept for reading again: {@link storeNow} sends it on).
   */
  makeNode(pb: dagPb.PBNode, prefix: BlockPrefix, options: { leaf?: boolean } = {}): MfsNode {
    const bytes = dagPb.encode(pb);
    const cid = blockCid(bytes, prefix);
    this.created.set(cid.toString(), { cid, bytes });
    const node = toMfsNode(cid, bytes);
    if (!options.leaf) this.loaded.set(cid.toString(), node);
    return node;
  }

  /** Keeps a raw block as made by this session. */
  makeRaw(bytes: Uint8Array, prefix: BlockPrefix): CID {
    const cid = blockCid(bytes, prefix);
    this.created.set(cid.toString(), { cid, bytes });
    return cid;
  }

  /**
   * Stores a new file leaf on the node soon (in batches), without keeping its bytes: what a large
   * write streams through never sits in memory whole. Call {@link flushNow} before relying on it.
   */
  async storeNow(block: Block): Promise<void> {
    if (this.stored.has(block.cid.toString())) return;
    this.stored.add(block.cid.toString());
    this.pending.push(block);
    this.pendingBytes += block.bytes.byteLength;
    if (this.pendingBytes >= EAGER_BATCH_BYTES) await this.flushNow();
  }

  /** Stores the leaves {@link storeNow} still holds. */
  async flushNow(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (batch.length === 0) return;
    await putBlocks(this.upstream, batch, this.signal);
    for (const b of batch) {
      this.storedBytes += b.bytes.byteLength;
      // on the node now: read back from there if ever needed
      this.created.delete(b.cid.toString());
    }
  }

  /**
   * Stores the blocks this session made that `root` reaches (blocks it made and then replaced
   * are never sent), after the leaves still pending.
   */
  async storeReachable(root: CID): Promise<void> {
    await this.flushNow();
    const out: Block[] = [];
    const seen = new Set<string>();
    const visit = (cid: CID) => {
      const id = cid.toString();
      if (seen.has(id)) return;
      seen.add(id);
      // the empty directory is known here without the node having it: sent when a new root uses it
      const block = this.created.get(id) ?? (cid.equals(EMPTY_DIRECTORY_CID) ? EMPTY_DIRECTORY_BLOCK : undefined);
      if (block === undefined || this.stored.has(id)) return;
      out.push(block);
      if (cid.code === dagPb.code) for (const l of dagPb.decode(block.bytes).Links) visit(l.Hash);
    };
    visit(root);
    await putBlocks(this.upstream, out, this.signal);
    for (const b of out) {
      this.stored.add(b.cid.toString());
      this.storedBytes += b.bytes.byteLength;
    }
  }
}

/**
 * Reads a block as an MFS node: dag-pb with UnixFS data, or raw (a file). Kubo's MFS refuses
 * every other codec, and dag-pb that is not UnixFS.
 */
export function toMfsNode(cid: CID, bytes: Uint8Array): MfsNode {
  if (cid.code === raw.code) return { cid, bytes, kind: 'file' };
  if (cid.code !== dagPb.code) {
    throw mfsError(`unsupported codec: MFS holds UnixFS only (dag-pb or raw), not codec 0x${cid.code.toString(16)}`);
  }
  let pb: dagPb.PBNode;
  let unixfs: UnixfsData;
  try {
    pb = dagPb.decode(bytes);
    unixfs = decodeUnixfs(pb.Data ?? new Uint8Array(0));
  } catch (err) {
    throw mfsError(`${cid} is not a valid UnixFS node: ${(err as Error).message}`);
  }
  switch (unixfs.type) {
    case UnixfsType.directory:
      return { cid, bytes, pb, unixfs, kind: 'directory' };
    case UnixfsType.hamtShard:
      return { cid, bytes, pb, unixfs, kind: 'hamt' };
    case UnixfsType.symlink:
      return { cid, bytes, pb, unixfs, kind: 'symlink' };
    case UnixfsType.file:
    case UnixfsType.raw:
      return { cid, bytes, pb, unixfs, kind: 'file' };
    default:
      throw mfsError(`unrecognized node type: ${unixfs.type}`);
  }
}
