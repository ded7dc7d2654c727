import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FsBlockstore, type FsBlockstoreInit } from 'blockstore-fs';
import { base32upper } from 'multiformats/bases/base32';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { IpfsNodeError } from '../errors.js';

const RAW = 0x55;
const EXTENSION = '.data';

/**
 * blockstore-fs's layout (a file per block named by the base32 multihash, in a directory named by
 * its next-to-last two characters), read back as a CIDv1 raw of that multihash: blocks are keyed
 * by multihash, whatever its hash function (blockstore-fs's own strategy decodes names as CIDs,
 * which fails for anything but sha2-256).
 */
const byMultihash: NonNullable<FsBlockstoreInit['shardingStrategy']> = {
  extension: EXTENSION,
  encode(cid) {
    const name = base32upper.encoder.encode(cid.multihash.bytes);
    return { dir: name.slice(-2), file: `${name}${EXTENSION}` };
  },
  decode(path) {
    const cid = cidOfFileName(path.slice(path.lastIndexOf('/') + 1));
    if (cid === undefined) throw new Error(`not a block file: ${path}`);
    return cid;
  },
};

/** The CIDv1 raw of a block file's name, or undefined when the name is not a multihash. */
function cidOfFileName(name: string): CID | undefined {
  if (!name.endsWith(EXTENSION) || name.startsWith('.')) return undefined;
  try {
    const bytes = base32upper.decoder.decode(name.slice(0, -EXTENSION.length));
    return CID.createV1(RAW, Digest.decode(bytes));
  } catch {
    return undefined;
  }
}

/**
 * Local block storage on top of blockstore-fs (one file per block, written atomically with a
 * temporary file and a rename, sharded by the next-to-last two characters of the multihash).
 * Blocks are keyed by multihash: a raw and a dag-pb CID of the same bytes share one file.
 * Reads return whole blocks (they are at most a few MiB).
 */
export class BlockStore {
  /** The underlying blockstore-fs store; the importer and exporter can use it directly. */
  readonly fs: FsBlockstore;
  readonly path: string;

  constructor(path: string) {
    this.path = path;
    this.fs = new FsBlockstore(path, { shardingStrategy: byMultihash });
  }

  async open(): Promise<void> {
    await this.fs.open();
  }

  async close(): Promise<void> {
    await this.fs.close();
  }

  /** The file that holds a block (the same layout blockstore-fs uses). */
  fileOf(cid: CID): string {
    const { dir, file } = byMultihash.encode(cid);
    return join(this.path, dir, file);
  }

  /** Reads a whole block; fails with Kubo's offline "not found" message when absent. */
  async get(cid: CID, signal?: AbortSignal): Promise<Uint8Array> {
    if (cid.multihash.code === 0x00) return cid.multihash.digest;
    try {
      const buf = await readFile(this.fileOf(cid), signal === undefined ? {} : { signal });
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw IpfsNodeError.blockNotFound(cid.toString(), err);
      }
      throw err;
    }
  }

  async put(cid: CID, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
    if (cid.multihash.code === 0x00) return;
    await this.fs.put(cid, bytes, signal === undefined ? {} : { signal });
  }

  /** A block's size in bytes without reading it (a file stat); Kubo's offline "not found" when absent. */
  async size(cid: CID): Promise<number> {
    if (cid.multihash.code === 0x00) return cid.multihash.digest.byteLength;
    try {
      return (await stat(this.fileOf(cid))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw IpfsNodeError.blockNotFound(cid.toString(), err);
      }
      throw err;
    }
  }

  async has(cid: CID): Promise<boolean> {
    if (cid.multihash.code === 0x00) return true;
    return this.fs.has(cid);
  }

  async delete(cid: CID): Promise<void> {
    await this.fs.delete(cid);
  }

  /**
   * Removes temporary files left by block writes that never finished (a crash between write and
   * rename). Only safe while no write is in progress: call it under the exclusive GC lock.
   * Returns how many files were removed.
   */
  async removeStaleTempFiles(): Promise<number> {
    let removed = 0;
    for (const shard of await readdir(this.path, { withFileTypes: true })) {
      if (!shard.isDirectory()) continue;
      const dir = join(this.path, shard.name);
      for (const name of await readdir(dir)) {
        if (!name.startsWith('.') || !name.endsWith('.tmp')) continue;
        await unlink(join(dir, name)).catch(() => undefined);
        removed++;
      }
    }
    return removed;
  }

  /**
   * Every stored block, as the CIDv1 raw of its multihash (the version and codec are not stored;
   * compare multihashes), whatever its hash function. Files that are not blocks are skipped.
   */
  async *cids(): AsyncGenerator<CID> {
    for (const shard of await readdir(this.path, { withFileTypes: true })) {
      if (!shard.isDirectory()) continue;
      let names: string[];
      try {
        names = await readdir(join(this.path, shard.name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      for (const name of names) {
        const cid = cidOfFileName(name);
        if (cid !== undefined) yield cid;
      }
    }
  }
}
