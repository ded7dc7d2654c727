import type { CID } from 'multiformats/cid';
import { blockKey } from '../serve/parseRootCid.js';
import { createByteLru } from './createByteLru.js';

/** A file's key: its codec and multihash (a raw block and a dag-pb node never share one). */
const keyOf = (cid: CID) => `${cid.code}:${blockKey(cid)}`;

/** Whole small files the dedicated gateways served, by content: a warm read does not ask the node. */
export interface FileCache {
  /** The file's bytes when they are held (the same for every CID of its codec and multihash: v0 and v1 alike). */
  get(cid: CID): Uint8Array | undefined;
  /**
   * A collector for a read of the whole file (`size` bytes, as its root node says), undefined
   * when such a file is not kept (too large, or the cache is off). Its bytes are kept once exactly
   * `size` arrived and `done` is called; a read that was cut (or brought more) keeps nothing.
   */
  collect(cid: CID, size: number): FileCollector | undefined;
  /** Bytes held now. */
  readonly bytes: number;
}

/** Gathers one whole-file read as it streams past (`add` copies: the chunk may be a reused buffer). */
export interface FileCollector {
  add(chunk: Uint8Array): void;
  /** The read ended cleanly: keep the bytes when all of them arrived. */
  done(): void;
}

/**
 * A {@link FileCache} of at most `maxBytes`, holding files of at most `maxFileBytes` (least
 * recently used go first). Content is immutable and named by its hash, so a file read once for
 * one account is the same bytes for any other; whether a gateway may serve it is decided before
 * the cache is asked (the restricted scope, tokens, origins), never by it. The bytes are the
 * node's `cat` of the file, as a streamed answer would send them. `maxBytes` 0: nothing is kept.
 *
 * @example
 * const files = createFileCache({ maxBytes: 32 * 1024 * 1024, maxFileBytes: 2 * 1024 * 1024 });
 * const c = files.collect(cid, size); c?.add(chunk); c?.done();
 * files.get(cid); // the bytes, on the next read
 */
export function createFileCache(options: { maxBytes: number; maxFileBytes: number }): FileCache {
  const held = createByteLru(options.maxBytes);
  return {
    get: (cid) => held.get(keyOf(cid)),
    collect(cid, size) {
      if (size <= 0 || size > options.maxFileBytes || size > options.maxBytes) return undefined;
      // a buffer of its own (not the pool's): kept, it holds no other allocation's memory
      const file = Buffer.allocUnsafeSlow(size);
      let at = 0;
      let spoiled = false;
      return {
        add(chunk) {
          if (spoiled) return;
          if (at + chunk.byteLength > size) {
            spoiled = true;
            return;
          }
          file.set(chunk, at);
          at += chunk.byteLength;
        },
        done() {
          if (!spoiled && at === size) held.set(keyOf(cid), file);
          spoiled = true;
        },
      };
    },
    get bytes() {
      return held.bytes;
    },
  };
}
