/** UnixFS node types (the `Type` field of UnixFS `Data`). */
export type UnixfsType = 'raw' | 'directory' | 'file' | 'metadata' | 'symlink' | 'hamt-sharded-directory';

const TYPES: readonly UnixfsType[] = ['raw', 'directory', 'file', 'metadata', 'symlink', 'hamt-sharded-directory'];

/** The fields of UnixFS `Data` the gateway reads. */
export interface UnixfsData {
  readonly type: UnixfsType;
  /** Bytes held in this node itself. */
  readonly data: Uint8Array;
  /** The file's whole size (files), when given. */
  readonly filesize: number | undefined;
  /** The size of each child's file bytes, in link order (files). */
  readonly blocksizes: readonly number[];
  /** A HAMT shard's fanout. */
  readonly fanout: number | undefined;
}

/**
 * Decodes UnixFS `Data` (the protobuf in a dag-pb node's Data field): type, data, filesize,
 * blocksizes and fanout; other fields are skipped. Throws on malformed input.
 *
 * @example
 * decodeUnixfs(dagPb.decode(block).Data!).type // 'file'
 */
export function decodeUnixfs(bytes: Uint8Array): UnixfsData {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (at >= bytes.length) throw new Error('unixfs: truncated varint');
      const b = bytes[at++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
    throw new Error('unixfs: varint too long');
  };
  const slice = (): Uint8Array => {
    const len = varint();
    if (at + len > bytes.length) throw new Error('unixfs: truncated field');
    const s = bytes.subarray(at, at + len);
    at += len;
    return s;
  };
  let type: UnixfsType | undefined;
  let data: Uint8Array = new Uint8Array(0);
  let filesize: number | undefined;
  const blocksizes: number[] = [];
  let fanout: number | undefined;
  while (at < bytes.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (field === 1 && wire === 0) type = TYPES[varint()];
    else if (field === 2 && wire === 2) data = slice();
    else if (field === 3 && wire === 0) filesize = varint();
    else if (field === 4 && wire === 0) blocksizes.push(varint());
    else if (field === 4 && wire === 2) {
      // packed blocksizes
      const packed = slice();
      const end = at;
      const saved = bytes;
      at = 0;
      bytes = packed;
      while (at < bytes.length) blocksizes.push(varint());
      bytes = saved;
      at = end;
    } else if (field === 6 && wire === 0) fanout = varint();
    else if (wire === 0) varint();
    else if (wire === 2) slice();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`unixfs: unsupported wire type ${wire}`);
  }
  if (type === undefined) throw new Error('unixfs: no type');
  return { type, data, filesize, blocksizes, fanout };
}

/** The file bytes a UnixFS file node stands for: its filesize, else its own data plus its children's. */
export function unixfsFileSize(u: UnixfsData): number {
  if (u.filesize !== undefined) return u.filesize;
  let n = u.data.length;
  for (const s of u.blocksizes) n += s;
  return n;
}
