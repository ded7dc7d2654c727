import { createHash } from 'node:crypto';
import { blake2b } from '@noble/hashes/blake2.js';
import { blake3 } from '@noble/hashes/blake3.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { equals } from 'multiformats/bytes';
import type { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { IpfsNodeError } from '../errors.js';

/** A multihash function the node can compute (and so verify). */
export interface NodeHasher {
  /** Multihash name as Kubo spells it (`sha2-256`, `blake2b-256`…). */
  readonly name: string;
  /** Multihash code. */
  readonly code: number;
  digest(bytes: Uint8Array): Digest.Digest<number, number>;
}

function hasher(name: string, code: number, hash: (bytes: Uint8Array) => Uint8Array): NodeHasher {
  return { name, code, digest: (bytes) => Digest.create(code, hash(bytes)) };
}

const node = (algorithm: string) => (bytes: Uint8Array) => new Uint8Array(createHash(algorithm).update(bytes).digest());

/**
 * Every hash function the node accepts in CIDs: the ones Kubo accepts by default that a hosted
 * node meets in practice (sha2, sha3, keccak-256, blake2b/blake2s, blake3) and identity.
 */
const HASHERS: readonly NodeHasher[] = [
  hasher('sha2-256', 0x12, node('sha256')),
  hasher('sha2-512', 0x13, node('sha512')),
  hasher('sha3-512', 0x14, node('sha3-512')),
  hasher('sha3-384', 0x15, node('sha3-384')),
  hasher('sha3-256', 0x16, node('sha3-256')),
  hasher('sha3-224', 0x17, node('sha3-224')),
  hasher('keccak-256', 0x1b, (b) => keccak_256(b)),
  hasher('blake3', 0x1e, (b) => blake3(b)),
  hasher('blake2b-256', 0xb220, (b) => blake2b(b, { dkLen: 32 })),
  hasher('blake2b-384', 0xb230, (b) => blake2b(b, { dkLen: 48 })),
  hasher('blake2b-512', 0xb240, node('blake2b512')),
  hasher('blake2s-256', 0xb260, node('blake2s256')),
  hasher('identity', 0x00, (b) => b),
];

/** Identity multihashes embed their block: at most this many bytes (Kubo's default). */
export const MAX_IDENTITY_DIGEST = 128;

/**
 * The hasher for a multihash name or code (`sha2-512`, `0xb220`…); a Kubo-style command error
 * naming the function otherwise.
 *
 * @example
 * hasherOf('sha2-512').digest(bytes) // a sha2-512 multihash digest
 */
export function hasherOf(nameOrCode: string | number): NodeHasher {
  const key = typeof nameOrCode === 'string' ? nameOrCode.toLowerCase() : nameOrCode;
  const found = HASHERS.find((h) => h.name === key || h.code === key);
  if (found === undefined) {
    const label = typeof nameOrCode === 'number' ? `0x${nameOrCode.toString(16)}` : JSON.stringify(nameOrCode);
    throw new IpfsNodeError('command', `unrecognized hash function: ${label}`);
  }
  return found;
}

/**
 * Checks that `bytes` hash to `cid`'s multihash with its own hash function: a block is stored
 * only under a CID it matches. Unsupported hash functions and mismatches are refused.
 *
 * @example
 * verifyBlock(block.cid, block.bytes) // throws for a block that is not what its CID names
 */
export function verifyBlock(cid: CID, bytes: Uint8Array): void {
  const h = hasherOf(cid.multihash.code);
  if (h.code === 0x00 && bytes.byteLength > MAX_IDENTITY_DIGEST) {
    throw new IpfsNodeError('command', `identity hash of ${bytes.byteLength} bytes is over ${MAX_IDENTITY_DIGEST}`);
  }
  const digest = h.digest(bytes);
  if (digest.digest.byteLength !== cid.multihash.size || !equals(digest.bytes, cid.multihash.bytes)) {
    throw new IpfsNodeError('command', `block ${cid} does not match its hash`);
  }
}
