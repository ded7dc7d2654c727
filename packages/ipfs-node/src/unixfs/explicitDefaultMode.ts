import type { Mtime } from 'ipfs-unixfs';
import { readFields, readMtime, readVarint, varint } from './protobufFields.js';

/**
 * Kubo stores a mode it is asked to store even when it is the type's default (0644 for files,
 * 0755 for directories); ipfs-unixfs leaves a default mode out, which would give another CID. So
 * an entry asking for its default mode is handed to the importer with a marked mtime (nsecs with
 * bit 31 set, an impossible fraction; bit 30 too when there is no real mtime), and the node
 * carrying it is re-encoded with the mode written out and the real mtime, if any
 * ({@link unmarkDefaultMode}).
 */
const MARK = 2 ** 31;
/** Added to a marked fraction when the entry has no real mtime. */
const NO_MTIME = 2 ** 30;

const FILE_DEFAULT = 0o644;
const DIRECTORY_DEFAULT = 0o755;

/**
 * The metadata to give the importer for an entry: as is, unless its mode is its type's default,
 * which is carried by a marked mtime instead.
 *
 * @example
 * markDefaultMode({ mode: 0o644 }, false) // { mode: 0o644, mtime: { secs: -(2n ** 63n), nsecs: 2 ** 31 } }
 */
export function markDefaultMode(meta: { mode?: number; mtime?: Mtime }, directory: boolean): typeof meta {
  const byDefault = directory ? DIRECTORY_DEFAULT : FILE_DEFAULT;
  if (meta.mode === undefined || (meta.mode & 0xfff) !== byDefault) return meta;
  if (meta.mtime === undefined) return { mode: meta.mode, mtime: { secs: 0n, nsecs: MARK + NO_MTIME } };
  return { mode: meta.mode, mtime: { secs: meta.mtime.secs, nsecs: (meta.mtime.nsecs ?? 0) + MARK } };
}

/**
 * A UnixFS `Data` field re-encoded with its default mode written out, when it carries a marked
 * mtime; undefined otherwise (nothing to change). Fields keep their order; the mode (field 7)
 * and the real mtime (field 8, without a zero fraction) close the message, as Kubo encodes them.
 *
 * @example
 * unmarkDefaultMode(node.Data) // Uint8Array with `mode: 0644`, or undefined
 */
export function unmarkDefaultMode(data: Uint8Array): Uint8Array | undefined {
  const fields = readFields(data);
  if (fields === undefined) return undefined;
  const mtimeField = fields.find((f) => f.number === 8);
  if (mtimeField === undefined) return undefined;
  const mtime = readMtime(data.subarray(mtimeField.valueStart, mtimeField.end));
  if (mtime === undefined || mtime.nsecs < MARK) return undefined;
  const typeField = fields.find((f) => f.number === 1);
  const type = typeField === undefined ? 0 : Number(readVarint(data, typeField.valueStart)?.value ?? 0n);
  // UnixFS types: 1 directory, 5 HAMT shard (both default to 0755); the rest 0644
  const mode = type === 1 || type === 5 ? DIRECTORY_DEFAULT : FILE_DEFAULT;
  const parts: number[] = [];
  for (const f of fields) {
    if (f.number === 7 || f.number === 8) continue;
    parts.push(...data.subarray(f.start, f.end));
  }
  parts.push(0x38, ...varint(BigInt(mode)));
  const nsecs = mtime.nsecs - MARK;
  if (nsecs < NO_MTIME) {
    const inner = [0x08, ...varint(BigInt.asUintN(64, mtime.secs))];
    if (nsecs > 0) inner.push(0x15, nsecs & 0xff, (nsecs >>> 8) & 0xff, (nsecs >>> 16) & 0xff, (nsecs >>> 24) & 0xff);
    parts.push(0x42, ...varint(BigInt(inner.length)), ...inner);
  }
  return Uint8Array.from(parts);
}
