import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FsBlockstore } from 'blockstore-fs';
import { base32upper } from 'multiformats/bases/base32';
import type { CID } from 'multiformats/cid';
import { IpfsNodeError } from '../errors.js';

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
    this.fs = new FsBlockstore(path);
  }

  async open(): Promise<void> {
    await this.fs.open();
  }

  async close(): Promise<void> {
    await this.fs.close();
  }

  /** The file that holds a block (the same layout blockstore-fs uses). */
  fileOf(cid: CID): string {
    const name = base32upper.encoder.encode(cid.multihash.bytes);
    return join(this.path, name.slice(-2), `${name}.data`);
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

  /** Every stored block's CID (the version and codec are not stored; compare multihashes). */
  async *cids(): AsyncGenerator<CID> {
    for await (const pair of this.fs.getAll()) yield pair.cid;
  }
}
