/** UnixFS node types (the `Type` field of a UnixFS `Data` message). */
export const UnixfsType = {
  raw: 0,
  directory: 1,
  file: 2,
  metadata: 3,
  symlink: 4,
  hamtShard: 5,
} as const;

/** A UnixFS modification time: seconds since the epoch and a fraction in nanoseconds. */
export interface UnixfsMtime {
  readonly secs: bigint;
  /** 0 to 999,999,999. */
  readonly nsecs: number;
}

/** A decoded UnixFS `Data` message (the `Data` of a dag-pb node); absent fields are undefined. */
export interface UnixfsData {
  readonly type: number;
  readonly data?: Uint8Array | undefined;
  readonly filesize?: bigint | undefined;
  readonly blocksizes: readonly bigint[];
  readonly hashType?: bigint | undefined;
  readonly fanout?: bigint | undefined;
  /** Permission bits as stored (`& 0o7777`); undefined when the node stores none. */
  readonly mode?: number | undefined;
  readonly mtime?: UnixfsMtime | undefined;
}

/** Thrown for bytes that are not a UnixFS `Data` message. */
export class UnixfsDecodeError extends Error {
  override readonly name = 'UnixfsDecodeError';
}

function readVarint(buf: Uint8Array, at: number): [bigint, number] {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const b = buf[i]!;
    value |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [BigInt.asUintN(64, value), i + 1];
    shift += 7n;
  }
  throw new UnixfsDecodeError('truncated varint');
}

function varint(value: bigint, out: number[]): void {
  let v = BigInt.asUintN(64, value);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

function bytesField(field: number, bytes: Uint8Array, out: number[]): void {
  out.push((field << 3) | 2);
  varint(BigInt(bytes.byteLength), out);
  for (const b of bytes) out.push(b);
}

function decodeMtime(buf: Uint8Array): UnixfsMtime {
  let secs = 0n;
  let nsecs = 0;
  let at = 0;
  while (at < buf.length) {
    const [key, next] = readVarint(buf, at);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    at = next;
    if (wire === 0) {
      const [v, after] = readVarint(buf, at);
      if (field === 1) secs = BigInt.asIntN(64, v);
      at = after;
    } else if (wire === 5) {
      if (at + 4 > buf.length) throw new UnixfsDecodeError('truncated mtime');
      if (field === 2) nsecs = (buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16)) + buf[at + 3]! * 2 ** 24;
      at += 4;
    } else if (wire === 2) {
      const [len, after] = readVarint(buf, at);
      at = after + Number(len);
    } else if (wire === 1) at += 8;
    else throw new UnixfsDecodeError(`unknown wire type ${wire}`);
  }
  if (at > buf.length) throw new UnixfsDecodeError('truncated mtime');
  return { secs, nsecs };
}

/**
 * Decodes a UnixFS `Data` message. Throws {@link UnixfsDecodeError} for bytes that do not parse
 * or carry no type.
 *
 * @example
 * decodeUnixfs(Uint8Array.of(0x08, 0x01)) // { type: 1, blocksizes: [] }
 */
export function decodeUnixfs(buf: Uint8Array): UnixfsData {
  let type: number | undefined;
  let data: Uint8Array | undefined;
  let filesize: bigint | undefined;
  const blocksizes: bigint[] = [];
  let hashType: bigint | undefined;
  let fanout: bigint | undefined;
  let mode: number | undefined;
  let mtime: UnixfsMtime | undefined;
  let at = 0;
  while (at < buf.length) {
    const [key, next] = readVarint(buf, at);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    at = next;
    if (wire === 0) {
      const [v, after] = readVarint(buf, at);
      at = after;
      if (field === 1) type = Number(v);
      else if (field === 3) filesize = v;
      else if (field === 4) blocksizes.push(v);
      else if (field === 5) hashType = v;
      else if (field === 6) fanout = v;
      else if (field === 7) mode = Number(v & 0o7777n);
    } else if (wire === 2) {
      const [len, after] = readVarint(buf, at);
      const end = after + Number(len);
      if (end > buf.length) throw new UnixfsDecodeError('truncated field');
      const value = buf.subarray(after, end);
      if (field === 2) data = value;
      else if (field === 8) mtime = decodeMtime(value);
      else if (field === 4) {
        // packed blocksizes (not what Kubo writes, but valid protobuf)
        let p = 0;
        while (p < value.length) {
          const [v, n] = readVarint(value, p);
          blocksizes.push(v);
          p = n;
        }
      }
      at = end;
    } else if (wire === 5) at += 4;
    else if (wire === 1) at += 8;
    else throw new UnixfsDecodeError(`unknown wire type ${wire}`);
  }
  if (at > buf.length) throw new UnixfsDecodeError('truncated message');
  if (type === undefined) throw new UnixfsDecodeError('no type');
  return { type, data, filesize, blocksizes, hashType, fanout, mode, mtime };
}

/**
 * Encodes a UnixFS `Data` message the way Kubo (gogo protobuf, proto2) does: fields in number
 * order, optional fields only when set, `blocksizes` unpacked, `mode` and `mtime` last.
 *
 * @example
 * encodeUnixfs({ type: UnixfsType.file, filesize: 0n, blocksizes: [] }) // 08 02 18 00
 */
export function encodeUnixfs(d: UnixfsData): Uint8Array {
  const out: number[] = [0x08];
  varint(BigInt(d.type), out);
  if (d.data !== undefined) bytesField(2, d.data, out);
  if (d.filesize !== undefined) {
    out.push(0x18);
    varint(d.filesize, out);
  }
  for (const size of d.blocksizes) {
    out.push(0x20);
    varint(size, out);
  }
  if (d.hashType !== undefined) {
    out.push(0x28);
    varint(d.hashType, out);
  }
  if (d.fanout !== undefined) {
    out.push(0x30);
    varint(d.fanout, out);
  }
  if (d.mode !== undefined) {
    out.push(0x38);
    varint(BigInt(d.mode & 0o7777), out);
  }
  if (d.mtime !== undefined) {
    const inner: number[] = [0x08];
    varint(BigInt.asUintN(64, d.mtime.secs), inner);
    if (d.mtime.nsecs > 0) {
      const n = d.mtime.nsecs;
      inner.push(0x15, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
    }
    bytesField(8, Uint8Array.from(inner), out);
  }
  return Uint8Array.from(out);
}

/** The file size a UnixFS node describes (its `filesize`, else its inline data's length). */
export function unixfsFileSize(d: UnixfsData): bigint {
  return d.filesize ?? BigInt(d.data?.byteLength ?? 0);
}
