/** Byte arrays by key, bounded by their total size. */
export interface ByteLru {
  /** The bytes under `key`, now the most recently used; undefined when not held. */
  get(key: string): Uint8Array | undefined;
  /** Keeps `bytes` under `key` (replacing what was there), then drops the least recently used past the bound. */
  set(key: string, bytes: Uint8Array): void;
  /** Bytes held now. */
  readonly bytes: number;
}

/**
 * A {@link ByteLru} holding at most `maxBytes` (the caches of blocks and of small files).
 *
 * @example
 * const lru = createByteLru(8 << 20);
 * lru.set('k', bytes);
 * lru.get('k'); // bytes
 */
export function createByteLru(maxBytes: number): ByteLru {
  const held = new Map<string, Uint8Array>();
  let bytes = 0;
  return {
    get(key) {
      const found = held.get(key);
      if (found === undefined) return undefined;
      held.delete(key);
      held.set(key, found);
      return found;
    },
    set(key, value) {
      const old = held.get(key);
      if (old !== undefined) {
        held.delete(key);
        bytes -= old.byteLength;
      }
      held.set(key, value);
      bytes += value.byteLength;
      for (const [k, v] of held) {
        if (bytes <= maxBytes) break;
        held.delete(k);
        bytes -= v.byteLength;
      }
    },
    get bytes() {
      return bytes;
    },
  };
}
