import { readFields, readMtime, readVarint } from './protobufFields.js';

/** The UnixFS 1.5 metadata a node stores (each absent when the node does not carry it). */
export interface UnixfsMetadata {
  /** Permission bits (`0o7777` at most). */
  mode?: number;
  mtime?: { secs: bigint; nsecs: number };
}

/**
 * The mode and mtime a UnixFS `Data` message actually stores (ipfs-unixfs reports a default
 * mode for nodes that store none, which `ls` must not show).
 *
 * @example
 * unixfsMetadata(node.Data) // { mode: 0o644, mtime: { secs: 1603539720n, nsecs: 0 } }
 */
export function unixfsMetadata(data: Uint8Array): UnixfsMetadata {
  const out: UnixfsMetadata = {};
  for (const f of readFields(data) ?? []) {
    if (f.number === 7) {
      const mode = Number((readVarint(data, f.valueStart)?.value ?? 0n) & 0xfffn);
      if (mode !== 0) out.mode = mode;
    } else if (f.number === 8) {
      const mtime = readMtime(data.subarray(f.valueStart, f.end));
      if (mtime !== undefined) out.mtime = mtime;
    }
  }
  return out;
}
