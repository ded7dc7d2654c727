import { createHash } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import * as Digest from 'multiformats/hashes/digest';
import { IpfsCommandError } from '../IpfsCommandError.js';

/** How a block's CID is made: CID version, codec and multihash function (go-cid's `Prefix`). */
export interface BlockPrefix {
  readonly version: 0 | 1;
  readonly codec: number;
  /** Multihash code (0x12 sha2-256…). */
  readonly hash: number;
}

/** Kubo's default: CIDv0 (dag-pb, sha2-256). */
export const CIDV0_PREFIX: BlockPrefix = Object.freeze({ version: 0, codec: dagPb.code, hash: 0x12 });

interface Hasher {
  readonly name: string;
  readonly code: number;
  readonly algorithm: string;
}

/**
 * The multihash functions MFS can write with (`hash=`): those Node computes itself. Kubo accepts
 * a few more (keccak-256, blake3, blake2b-256…); they are refused with a clear message.
 */
const HASHERS: readonly Hasher[] = [
  { name: 'sha2-256', code: 0x12, algorithm: 'sha256' },
  { name: 'sha2-512', code: 0x13, algorithm: 'sha512' },
  { name: 'sha3-512', code: 0x14, algorithm: 'sha3-512' },
  { name: 'sha3-384', code: 0x15, algorithm: 'sha3-384' },
  { name: 'sha3-256', code: 0x16, algorithm: 'sha3-256' },
  { name: 'sha3-224', code: 0x17, algorithm: 'sha3-224' },
  { name: 'sha2-384', code: 0x20, algorithm: 'sha384' },
  { name: 'blake2b-512', code: 0xb240, algorithm: 'blake2b512' },
  { name: 'blake2s-256', code: 0xb260, algorithm: 'blake2s256' },
];

/** The multihash name of a code (for `block/put?mhtype=`). */
export function hashName(code: number): string {
  const h = HASHERS.find((x) => x.code === code);
  if (h === undefined) throw new IpfsCommandError(500, `unsupported hash function 0x${code.toString(16)}`, 0);
  return h.name;
}

/**
 * The multihash code for a `hash` option, as Kubo names functions. Throws Kubo's error for an
 * unknown name, and says which functions MFS writes with for one it knows but cannot compute.
 *
 * @example
 * hashCodeOf('sha2-512') // 0x13
 */
export function hashCodeOf(name: string): number {
  const found = HASHERS.find((h) => h.name === name.toLowerCase());
  if (found !== undefined) return found.code;
  const known = ['sha1', 'keccak-224', 'keccak-256', 'keccak-384', 'keccak-512', 'blake3', 'identity'];
  if (known.includes(name.toLowerCase()) || /^blake2[bs]-\d+$/.test(name.toLowerCase())) {
    throw new IpfsCommandError(
      500,
      `hash function "${name}" is not supported for MFS on this gateway: use one of ${HASHERS.map((h) => h.name).join(', ')}`,
      0,
    );
  }
  throw new IpfsCommandError(500, `unrecognized hash function: ${name.toLowerCase()}`, 0);
}

/** The prefix of an existing CID. */
export function prefixOf(cid: CID): BlockPrefix {
  return { version: cid.version === 0 ? 0 : 1, codec: cid.code, hash: cid.multihash.code };
}

/** `prefix` for a dag-pb node (CIDv0 only with sha2-256). */
export function dagPbPrefix(prefix: BlockPrefix): BlockPrefix {
  const version = prefix.version === 0 && prefix.hash === 0x12 ? 0 : 1;
  return { version, codec: dagPb.code, hash: prefix.hash };
}

/** `prefix` for a raw leaf: always CIDv1 (CIDv0 is dag-pb only), same hash. */
export function rawPrefix(prefix: BlockPrefix): BlockPrefix {
  return { version: 1, codec: raw.code, hash: prefix.hash };
}

/**
 * The CID of `bytes` under `prefix`, hashed here (so a parent can be encoded before its
 * children are stored, and the node's answer can be checked).
 *
 * @example
 * blockCid(bytes, CIDV0_PREFIX) // CID Qm…
 */
export function blockCid(bytes: Uint8Array, prefix: BlockPrefix): CID {
  const hasher = HASHERS.find((h) => h.code === prefix.hash);
  if (hasher === undefined)
    throw new IpfsCommandError(500, `unsupported hash function 0x${prefix.hash.toString(16)}`, 0);
  const digest = Digest.create(prefix.hash, new Uint8Array(createHash(hasher.algorithm).update(bytes).digest()));
  if (prefix.version === 0) return CID.createV0(digest as Digest.Digest<0x12, number>);
  return CID.createV1(prefix.codec, digest);
}
